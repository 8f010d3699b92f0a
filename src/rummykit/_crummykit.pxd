# Cython declarations mirroring csrc/include/rummykit/rummykit.h.
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t


cdef extern from "rummykit/rummykit.h" nogil:
    ctypedef uint64_t rk_mask

    int RK_NUM_RANKS
    int RK_NUM_CARDS
    rk_mask RK_DECK_MASK
    int RK_MAX_MELDS

    ctypedef enum rk_status:
        RK_OK
        RK_ERR_ARG
        RK_ERR_BAD_MASK
        RK_ERR_BAD_MELD
        RK_ERR_OVERLAP
        RK_ERR_CAPACITY
        RK_ERR_EMPTY
        RK_ERR_NO_KNOCK
        RK_ERR_NO_MELD

    ctypedef enum rk_aces:
        RK_ACES_LOW
        RK_ACES_HIGH
        RK_ACES_BOTH

    ctypedef enum rk_meld_kind:
        RK_MELD_NONE
        RK_MELD_SET
        RK_MELD_RUN

    ctypedef struct rk_rules:
        rk_aces aces
        uint8_t values[13]

    ctypedef struct rk_arrangement:
        int n_melds
        int deadwood
        rk_mask melds[17]
        rk_mask deadwood_cards

    ctypedef struct rk_layoff_result:
        int deadwood
        int n_knocker_melds
        rk_mask laid_off[17]
        rk_mask laid_off_all
        rk_arrangement rest

    ctypedef struct rk_knock_choice:
        rk_arrangement knocker
        rk_layoff_result defender
        int margin
        int n_candidates

    unsigned RK_KNOCK_MIN_DEADWOOD_ONLY
    unsigned RK_KNOCK_NO_LAYOFFS

    rk_status rk_rules_init(rk_rules *rules, rk_aces aces, const uint8_t *values)

    int rk_card_count(rk_mask mask)
    int rk_mask_value(const rk_rules *rules, rk_mask mask)
    rk_meld_kind rk_meld_kind_of(const rk_rules *rules, rk_mask mask)
    rk_status rk_enumerate_melds(const rk_rules *rules, rk_mask hand, rk_mask *out,
                                 size_t capacity, size_t *count)

    int rk_deadwood(const rk_rules *rules, rk_mask hand)
    rk_status rk_best_arrangement(const rk_rules *rules, rk_mask hand, rk_arrangement *out)
    rk_status rk_arrangements(const rk_rules *rules, rk_mask hand, int max_deadwood,
                              rk_arrangement *out, size_t capacity, size_t *count)

    rk_status rk_best_discard(const rk_rules *rules, rk_mask hand, int forbidden, int *card,
                              int *deadwood, int16_t *after)

    rk_status rk_layoff(const rk_rules *rules, const rk_mask *knocker_melds, size_t n_melds,
                        rk_mask defender, rk_layoff_result *out)
    rk_status rk_choose_knock(const rk_rules *rules, rk_mask knocker, rk_mask defender, int limit,
                              unsigned flags, rk_knock_choice *out)

    rk_status rk_deadwood_batch(const rk_rules *rules, const rk_mask *hands, size_t n,
                                int16_t *out, size_t *bad_index)
    rk_status rk_best_discard_batch(const rk_rules *rules, const rk_mask *hands, size_t n,
                                    int16_t *deadwood, int8_t *card, size_t *bad_index)

    int RK_JOKER
    int RK_NUM_TYPES
    int RK_MULTI_MAX_JOKERS
    int RK_MULTI_MAX_MELDS
    int RK_MULTI_MAX_MELD_CARDS

    ctypedef struct rk_multi_hand:
        rk_mask one
        rk_mask two
        int jokers

    ctypedef struct rk_multi_rules:
        int ace_low_runs
        int joker_penalty
        uint8_t values[13]

    ctypedef enum rk_multi_objective:
        RK_MULTI_PENALTY
        RK_MULTI_VALUE

    ctypedef struct rk_multi_meld:
        rk_meld_kind kind
        int n_cards
        int n_jokers
        int value
        int8_t cards[13]
        int8_t represents[13]

    ctypedef struct rk_multi_arrangement:
        int n_melds
        int value
        int penalty
        rk_multi_meld melds[36]
        rk_multi_hand left

    rk_status rk_multi_rules_init(rk_multi_rules *rules, int ace_low_runs, int joker_penalty,
                                  const uint8_t *values)
    rk_status rk_multi_hand_check(rk_multi_hand hand)
    rk_status rk_multi_hand_from_counts(const uint8_t *counts, rk_multi_hand *out)
    rk_status rk_multi_best(const rk_multi_rules *rules, rk_multi_hand hand, rk_multi_objective objective,
                            int include_type, rk_multi_arrangement *out)
    int rk_multi_penalty(const rk_multi_rules *rules, rk_multi_hand hand)
    rk_status rk_multi_penalty_batch(const rk_multi_rules *rules, const uint8_t *counts, size_t n,
                                     int32_t *out, size_t *bad_index)

    const char *rk_status_message(rk_status status)
