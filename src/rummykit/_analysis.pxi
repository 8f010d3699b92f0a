# Included by _core.pyx: hand analysis (csrc/src/deadwood.c, arrange.c, layoff.c) and its batch kernels.

cdef tuple arrangement_tuple(const rk_arrangement *a):
    return (tuple([a.melds[i] for i in range(a.n_melds)]), a.deadwood_cards, a.deadwood)


def deadwood(Rules rules, mask):
    """Least deadwood of a mask."""
    return rk_deadwood(rules.ptr, as_mask(mask))


def mask_value(Rules rules, mask):
    """Sum of card values of a mask, with no melding."""
    return rk_mask_value(rules.ptr, as_mask(mask))


def meld_kind(Rules rules, mask):
    """MELD_SET, MELD_RUN or 0."""
    return <int>rk_meld_kind_of(rules.ptr, as_mask(mask))


def melds(Rules rules, mask):
    """Every meld contained in the mask, as a list of masks."""
    cdef rk_mask buf[512]
    cdef size_t count = 0
    check(rk_enumerate_melds(rules.ptr, as_mask(mask), buf, 512, &count))
    return [buf[i] for i in range(count)]


def best_arrangement(Rules rules, mask):
    """(meld masks, deadwood mask, deadwood) of one optimal arrangement."""
    cdef rk_arrangement a
    check(rk_best_arrangement(rules.ptr, as_mask(mask), &a))
    return arrangement_tuple(&a)


def arrangements(Rules rules, mask, int max_deadwood, Py_ssize_t limit):
    """All canonical arrangements with deadwood <= max_deadwood (-1: optimal), or None if there
    are more than limit (the search stops there: its time grows with limit)."""
    cdef rk_mask m = as_mask(mask)
    cdef size_t count = 0
    cdef size_t capacity = 64 if limit > 64 else limit
    cdef rk_arrangement *buf
    cdef rk_status st
    while True:
        buf = <rk_arrangement *>malloc((capacity if capacity else 1) * sizeof(rk_arrangement))
        if buf == NULL:
            raise MemoryError()
        try:
            with nogil:
                st = rk_arrangements_at_most(rules.ptr, m, max_deadwood, buf, capacity, &count)
            if st == RK_OK:
                return [arrangement_tuple(&buf[i]) for i in range(count)]
            if st != RK_ERR_CAPACITY:
                check(st)
            if capacity >= <size_t>limit:
                return None
        finally:
            free(buf)
        capacity = 16 * capacity if 16 * capacity < <size_t>limit else <size_t>limit


def best_discard(Rules rules, mask, int forbidden):
    """(card, deadwood) of the best discard; forbidden is a card id or -1."""
    cdef int card = -1, dw = 0
    check(rk_best_discard(rules.ptr, as_mask(mask), forbidden, &card, &dw, NULL))
    return card, dw


def deadwood_after_discards(Rules rules, mask):
    """[(card, deadwood left after discarding it)] for every card of mask."""
    cdef int card = -1, dw = 0
    cdef int16_t after[52]
    cdef rk_mask m = as_mask(mask)
    check(rk_best_discard(rules.ptr, m, -1, &card, &dw, after))
    return [(i, after[i]) for i in range(52) if after[i] >= 0]


def layoff(Rules rules, knocker_melds, defender):
    """(deadwood, laid-off mask per meld, rest arrangement tuple)."""
    cdef rk_mask melds_buf[17]
    cdef rk_layoff_result out
    n = len(knocker_melds)
    if n > 17:
        raise InvalidMeldError(f"{n} melds: at most 17 fit in a deck")
    for i in range(n):
        melds_buf[i] = as_mask(knocker_melds[i])
    check(rk_layoff(rules.ptr, melds_buf, n, as_mask(defender), &out))
    return (out.deadwood, tuple([out.laid_off[i] for i in range(n)]),
            arrangement_tuple(&out.rest))


def choose_knock(Rules rules, knocker, defender, int limit, unsigned flags):
    """(knocker arrangement, (deadwood, laid off per meld, rest), margin, candidates)."""
    cdef rk_knock_choice out
    check(rk_choose_knock(rules.ptr, as_mask(knocker), as_mask(defender), limit, flags, &out))
    n = out.knocker.n_melds
    reply = (out.defender.deadwood, tuple([out.defender.laid_off[i] for i in range(n)]),
             arrangement_tuple(&out.defender.rest))
    return arrangement_tuple(&out.knocker), reply, out.margin, out.n_candidates


def _as_masks(masks):
    import numpy as np  # imported on first batch call, keeping `import rummykit` light

    arr = np.ascontiguousarray(masks)
    if arr.size == 0 and arr.ndim == 1:
        return np.zeros(0, dtype=np.uint64)
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise InvalidCardError(f"masks must be a 1-D integer array, got {arr.dtype} with shape {arr.shape}")
    if arr.dtype.kind == "i" and arr.size and arr.min() < 0:
        raise InvalidCardError(f"negative mask at index {int(np.argmax(arr < 0))}")
    return np.ascontiguousarray(arr, dtype=np.uint64)


cdef bad_mask_error(const uint64_t[::1] view, size_t index):
    return InvalidCardError(f"mask {view[index]:#x} at index {index} has bits outside the 52-card deck")


def deadwood_batch(Rules rules, masks):
    """int16 array of least deadwood per mask; the GIL is released."""
    import numpy as np

    cdef const uint64_t[::1] view = _as_masks(masks)
    out = np.empty(view.shape[0], dtype=np.int16)
    cdef int16_t[::1] out_view = out
    cdef size_t bad = 0
    cdef rk_status st
    cdef size_t n = view.shape[0]
    with nogil:
        st = rk_deadwood_batch(rules.ptr, <const rk_mask *>&view[0] if n else NULL, n,
                               &out_view[0] if n else NULL, &bad)
    if st == RK_ERR_BAD_MASK:
        raise bad_mask_error(view, bad)
    check(st)
    return out


def best_discard_batch(Rules rules, masks):
    """(int16 deadwood, int8 card) arrays of the best discard per mask."""
    import numpy as np

    cdef const uint64_t[::1] view = _as_masks(masks)
    cdef size_t n = view.shape[0]
    dw = np.empty(n, dtype=np.int16)
    card = np.empty(n, dtype=np.int8)
    cdef int16_t[::1] dw_view = dw
    cdef int8_t[::1] card_view = card
    cdef size_t bad = 0
    cdef rk_status st
    with nogil:
        st = rk_best_discard_batch(rules.ptr, <const rk_mask *>&view[0] if n else NULL, n,
                                   &dw_view[0] if n else NULL, &card_view[0] if n else NULL, &bad)
    if st == RK_ERR_BAD_MASK:
        raise bad_mask_error(view, bad)
    check(st)
    return dw, card


def discard_actions(Rules rules, mask, int forbidden, int knock_max, int knock_base):
    """Sorted action ids of a discard step: each card but `forbidden`
    (discard ids = card ids), then `knock_base + card` for every card whose
    discard leaves deadwood <= knock_max (-1: no knock)."""
    cdef int16_t after[52]
    cdef int card = -1, dw = 0
    cdef rk_mask m = as_mask(mask)
    cdef list discards = [], knocks = []
    check(rk_best_discard(rules.ptr, m, -1, &card, &dw, after))
    for i in range(52):
        if after[i] < 0 or i == forbidden:
            continue
        discards.append(i)
        if after[i] <= knock_max:
            knocks.append(knock_base + i)
    return discards + knocks
