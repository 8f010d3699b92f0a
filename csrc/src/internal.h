/* Internal helpers shared by the core's translation units (not installed). */
#ifndef RK_INTERNAL_H
#define RK_INTERNAL_H

#include "rummykit/rummykit.h"

#define RK_SUIT_BITS 0x1FFFu
#define RK_INF 0x3FFFFFFF

/* Four 13-bit suit lanes: lane[s] bit r = card (suit s, rank r). */
typedef struct rk_lanes {
    uint16_t s[RK_NUM_SUITS];
} rk_lanes;

/* Suit s's lane of m. */
static inline unsigned rk__lane(rk_mask m, int s) { return (unsigned)(m >> (13 * s)) & RK_SUIT_BITS; }

static inline rk_lanes rk__split(rk_mask m) {
    rk_lanes l;
    for (int s = 0; s < RK_NUM_SUITS; s++) l.s[s] = (uint16_t)rk__lane(m, s);
    return l;
}

static inline rk_mask rk__join(rk_lanes l) {
    return (rk_mask)l.s[0] | ((rk_mask)l.s[1] << 13) | ((rk_mask)l.s[2] << 26) |
           ((rk_mask)l.s[3] << 39);
}

/* Portable SWAR popcount: the default x86-64 target has no POPCNT
 * instruction and the compiler builtin would call into libgcc. */
static inline int rk__popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

/* Popcount of a 4-bit suit set. */
static inline int rk__suit_count(unsigned suits) { return (0x4332322132212110ull >> (4 * (suits & 15u))) & 15; }
static inline int rk__ctz(uint64_t x) { return __builtin_ctzll(x); }

/* Ranks held in at least three of the four suits, from the lanes a..d. */
static inline unsigned rk__three_of(unsigned a, unsigned b, unsigned c, unsigned d) {
    return (a & b & (c | d)) | (c & d & (a | b));
}

static inline unsigned rk__three_of_a_rank(rk_lanes l) { return rk__three_of(l.s[0], l.s[1], l.s[2], l.s[3]); }

/* Ranks held in at least two of the four suits. */
static inline unsigned rk__two_of_a_rank(rk_lanes l) {
    unsigned a = l.s[0], b = l.s[1], c = l.s[2], d = l.s[3];
    return (a & (b | c | d)) | (b & (c | d)) | (c & d);
}

/* rk_deadwood without argument checks (for a valid mask). */
int rk__deadwood_unchecked(const rk_rules *rules, rk_mask hand);

/* The meld taker's take rule (rk_policy.meld_takes, the filter's meld-taking stories): after
 * taking the top discard top into hand and throwing card, the best other card, with least the
 * deadwood left, take iff that allows a knock (least <= knock_max) or top lies in a meld of
 * every least-deadwood arrangement (least is below the deadwood of hand - card plus top's
 * value; equal when some such arrangement leaves top as deadwood).  policy.c. */
int rk__meld_take(const rk_rules *rules, rk_mask hand, int top, int card, int least, int knock_max);

/* Exact least deadwood by dynamic programming over ranks (any hand size). */
int rk__deadwood_dp(const rk_rules *rules, rk_mask hand);

/* Calls visit(user, a) for every canonical arrangement of hand with deadwood
 * <= max_deadwood (every optimal one if max_deadwood < 0), in the documented
 * order, until visit returns nonzero. */
rk_status rk__visit_arrangements(const rk_rules *rules, rk_mask hand, int max_deadwood,
                                 int (*visit)(void *user, const rk_arrangement *a), void *user);

/* The lay-off search of rk_layoff: the least final deadwood, with
 * out->deadwood, out->n_knocker_melds and out->laid_off[] filled (not
 * out->rest).  No argument checks. */
int rk__best_layoff(const rk_rules *rules, const rk_mask *melds, size_t n, rk_mask defender,
                    rk_layoff_result *out);

/* Arrangements in Python's list order on [[sorted card ids of each meld] ...]
 * (the canonical tie-break of the knocker's arrangement): <0, 0 or >0. */
int rk__compare_arrangements(const rk_arrangement *a, const rk_arrangement *b);

/* Whether the hand's best multi-deck melds (melding include, unless -1) are
 * worth need or more, found without finishing the search; *left (or NULL)
 * the cards one such collection leaves (multideck.c). */
int rk__multi_reaches(const rk_multi_rules *rules, rk_multi_hand hand, int include, int need, rk_multi_hand *left);

/* rk_choose_knock without argument checks and without out->defender.rest. */
rk_status rk__choose_knock(const rk_rules *rules, rk_mask knocker, rk_mask defender, int limit,
                           unsigned flags, rk_knock_choice *out);

#endif
