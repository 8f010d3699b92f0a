# Included by _core.pyx: multi-deck hands with jokers (csrc/src/multideck.c).

# ---- multi-deck hands with jokers (Kaluki) ---------------------------------

#: Kaluki's card values by rank, A first (rk_kaluki_values)
KALUKI_VALUES = tuple([rk_kaluki_values()[i] for i in range(13)])


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
