# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Private bridge to the C core (csrc/).  Use the public ``rummykit`` API.

Every function takes a :class:`Rules` and int masks in the public layout and
returns plain ints and tuples; the Python layer turns them into cards."""

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from rummykit._crummykit cimport *
from rummykit.errors import InvalidCardError, InvalidMeldError, InvalidOptionError, RummykitError

ACES_LOW = RK_ACES_LOW
ACES_HIGH = RK_ACES_HIGH
ACES_BOTH = RK_ACES_BOTH
KNOCK_MIN_DEADWOOD_ONLY = RK_KNOCK_MIN_DEADWOOD_ONLY
KNOCK_NO_LAYOFFS = RK_KNOCK_NO_LAYOFFS
MELD_SET = RK_MELD_SET
MELD_RUN = RK_MELD_RUN
JOKER = RK_JOKER
MULTI_PENALTY = RK_MULTI_PENALTY
MULTI_VALUE = RK_MULTI_VALUE


class NoKnockError(RummykitError):
    """The hand has no arrangement within the knock limit."""


cdef class Rules:
    """An initialised rk_rules (ace mode, card values and derived tables)."""

    cdef rk_rules *ptr
    cdef readonly int aces
    cdef readonly tuple values

    def __cinit__(self, int aces, values):
        cdef uint8_t v[13]
        if len(values) != 13:
            raise ValueError("values must have 13 entries")
        for i in range(13):
            v[i] = values[i]
        self.ptr = <rk_rules *>malloc(sizeof(rk_rules))
        if self.ptr == NULL:
            raise MemoryError()
        if rk_rules_init(self.ptr, <rk_aces>aces, v) != RK_OK:
            raise ValueError("invalid rules parameters")
        self.aces = aces
        self.values = tuple(values)

    def __dealloc__(self):
        free(self.ptr)


cdef rk_mask as_mask(object mask) except? 0:
    cdef rk_mask m
    try:
        m = mask
    except (OverflowError, TypeError):
        raise InvalidCardError(f"not a card mask: {mask!r}") from None
    if m & ~RK_DECK_MASK:
        raise InvalidCardError(f"mask {m:#x} has bits outside the 52-card deck")
    return m


cdef int check(rk_status status) except -1:
    if status == RK_OK:
        return 0
    message = rk_status_message(status).decode()
    if status == RK_ERR_BAD_MASK:
        raise InvalidCardError(message)
    if status == RK_ERR_BAD_MELD or status == RK_ERR_OVERLAP:
        raise InvalidMeldError(message)
    if status == RK_ERR_NO_KNOCK:
        raise NoKnockError(message)
    raise RummykitError(message)


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


def arrangements(Rules rules, mask, int max_deadwood):
    """All canonical arrangements with deadwood <= max_deadwood (-1: optimal)."""
    cdef rk_mask m = as_mask(mask)
    cdef size_t count = 0
    cdef size_t capacity = 64
    cdef rk_arrangement *buf
    cdef rk_status st
    while True:
        buf = <rk_arrangement *>malloc(capacity * sizeof(rk_arrangement))
        if buf == NULL:
            raise MemoryError()
        try:
            with nogil:
                st = rk_arrangements(rules.ptr, m, max_deadwood, buf, capacity, &count)
            if st == RK_OK:
                return [arrangement_tuple(&buf[i]) for i in range(count)]
            if st != RK_ERR_CAPACITY:
                check(st)
        finally:
            free(buf)
        capacity = count


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


# ---- multi-deck hands with jokers (Kaluki) ---------------------------------


cdef rk_multi_rules multi_rules(bint ace_low_runs, int joker_penalty) except *:
    cdef rk_multi_rules rules
    if rk_multi_rules_init(&rules, 1 if ace_low_runs else 0, joker_penalty, NULL) != RK_OK:
        raise InvalidOptionError(f"joker_penalty must be 0..255, got {joker_penalty}")
    return rules


def multi_best(one, two, int jokers, int objective, int include_type, bint ace_low_runs, int joker_penalty):
    """None if `include_type` (-1: none) cannot be melded, else (melds, value, penalty,
    (left one, left two, left jokers)); a meld is (kind, cards, represents,
    value) with card types (JOKER = 52)."""
    cdef rk_multi_rules rules = multi_rules(ace_low_runs, joker_penalty)
    cdef rk_multi_hand hand
    cdef rk_multi_arrangement a
    cdef const rk_multi_meld *m
    cdef rk_status st
    hand.one = as_mask(one)
    hand.two = as_mask(two)
    hand.jokers = jokers
    with nogil:
        st = rk_multi_best(&rules, hand, <rk_multi_objective>objective, include_type, &a)
    if st == RK_ERR_NO_MELD:
        return None
    check(st)
    melds = []
    for i in range(a.n_melds):
        m = &a.melds[i]
        melds.append((<int>m.kind, tuple([m.cards[k] for k in range(m.n_cards)]),
                      tuple([m.represents[k] for k in range(m.n_cards)]), m.value))
    return melds, a.value, a.penalty, (a.left.one, a.left.two, a.left.jokers)


def multi_penalty(one, two, int jokers, bint ace_low_runs, int joker_penalty):
    """Least penalty of a multi-deck hand."""
    cdef rk_multi_rules rules = multi_rules(ace_low_runs, joker_penalty)
    cdef rk_multi_hand hand
    hand.one = as_mask(one)
    hand.two = as_mask(two)
    hand.jokers = jokers
    cdef int result = rk_multi_penalty(&rules, hand)
    if result < 0:
        check(<rk_status>result)
    return result


def multi_penalty_batch(counts, bint ace_low_runs, int joker_penalty):
    """int32 array of the least penalty per row of an (n, 53) uint8 count
    array; the GIL is released."""
    import numpy as np

    cdef rk_multi_rules rules = multi_rules(ace_low_runs, joker_penalty)
    arr = np.ascontiguousarray(counts)
    if arr.ndim != 2 or arr.shape[1] != RK_NUM_TYPES or arr.dtype.kind not in "iu":
        raise InvalidCardError(f"hands must be an integer array of shape (n, 53), got {arr.dtype} {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 255):
        raise InvalidCardError("card counts must be 0..2 (jokers 0..4)")
    cdef const uint8_t[:, ::1] view = np.ascontiguousarray(arr, dtype=np.uint8)
    cdef size_t n = view.shape[0]
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] out_view = out
    cdef size_t bad = 0
    cdef rk_status st
    with nogil:
        st = rk_multi_penalty_batch(&rules, &view[0, 0] if n else NULL, n, &out_view[0] if n else NULL, &bad)
    if st == RK_ERR_BAD_MASK:
        raise InvalidCardError(f"hand at index {bad}: a card type held more than twice or more than 4 jokers")
    check(st)
    return out
