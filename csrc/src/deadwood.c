/* Least deadwood and best discard: the fast path.
 *
 * Runs live inside one suit, so with no set in play the least deadwood is
 * the sum of four lookups in the per-suit table of run-only deadwood.  With
 * one rank held 3+ times, the least of no set there and the set of every
 * card held is four more lookups (each 3-set, when all four suits hold the
 * rank, four more, seldom needed); hands with no such rank take the same
 * path, without a branch.  With two or three, two checks
 * settle about half the meld-dense hands (sets of every card are best when
 * they hold the whole hand, or when no set card, or no other card, can lie
 * in a run); the rest try every choice at the other ranks, without
 * branches (which is best is data: a branch on it is often mispredicted,
 * and mispredictions, not instructions, dominated).  With more, the choices
 * that can matter are combined and the search stops as soon as nothing can
 * be better; very large hands use the exact DP.
 * The best discard is one pass, not one least deadwood per card: with a set
 * choice made at every rank held 3+ times, discarding a card changes only
 * its suit's lane, and the rules tables give each lane's best card to drop
 * (drop_key).  No such rank: eight lookups.  One: each choice there (no
 * set, the set of every card, each 3-set) in closed form, sixteen lookups.
 * More: each suit's lookups once per subset of the other ranks' cards
 * given to sets, then the closed form for every combination of their
 * choices.  A forbidden card that is the best discard, and the per-card
 * vector, take one least deadwood per card. */
#include "internal.h"

/* ---- least deadwood ------------------------------------------------- */

/* The hand as one word, 16 bits a suit lane (bit 16 s + r = suit s, rank
 * r): a rank's four cards are one mask away, a lane one shift away, and
 * the word stays in a register where an array of lanes would not. */
#define RANK_CARDS 0x0001000100010001ull /* rank 0 of every suit */
#define LANE(w, s) ((unsigned)((w) >> (16 * (s))) & 0xFFFFu)

static inline uint64_t lanes_word(unsigned p0, unsigned p1, unsigned p2, unsigned p3) {
    return (uint64_t)p0 | ((uint64_t)p1 << 16) | ((uint64_t)p2 << 32) | ((uint64_t)p3 << 48);
}

/* Spreads a 4-bit suit set to its lanes (bit s to bit 16 s), and gathers
 * them back: the partial products of the multiply never overlap. */
static inline uint64_t spread_suits(unsigned suits) { return (suits * 0x0000200040008001ull) & RANK_CARDS; }
static inline unsigned suits_at(uint64_t w, int r) {
    return (unsigned)((((w >> r) & RANK_CARDS) * 0x0000200040008001ull) >> 45) & 15u;
}

/* Whether all four suits hold rank r. */
static inline int all_four(uint64_t w, int r) { return ((w >> r) & RANK_CARDS) == RANK_CARDS; }

static inline int run_sum_word(const uint16_t *rd, uint64_t w) {
    return rd[LANE(w, 0)] + rd[LANE(w, 1)] + rd[LANE(w, 2)] + rd[LANE(w, 3)];
}

/* The run-only deadwood of the lanes p0..p3 less their cards of the ranks
 * `gone` (a bit per rank). */
static inline int runs_without(const uint16_t *rd, unsigned p0, unsigned p1, unsigned p2, unsigned p3, unsigned gone) {
    return rd[p0 & ~gone] + rd[p1 & ~gone] + rd[p2 & ~gone] + rd[p3 & ~gone];
}

static inline int min2(int a, int b) { return b < a ? b : a; }
static inline int max2(int a, int b) { return b > a ? b : a; }

/* One rank (bit c) held 3+ times, on the lanes p[s] & keep (the ranks
 * outside keep given to other sets; a lane without their card does not
 * change); four: all ones when all four suits hold the rank, else 0.  A set
 * there changes each suit s by d[s] (0 for a suit without the card), so
 * the 4-set costs the sum and the best 3-set leaves out the suit that loses
 * the most.  No branch: which is best is data, and often mispredicted. */
static inline int closed_form(const uint16_t *rd, const unsigned p[RK_NUM_SUITS], unsigned keep, unsigned c,
                              int four) {
    int base = 0, total = 0, most = -RK_INF;
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        int with = rd[p[s] & keep], d = rd[p[s] & keep & ~c] - with;
        base += with;
        total += d;
        most = d > most ? d : most;
    }
    int best = total < 0 ? total : 0, three_set = total - (most & four); /* the set or none; a 3-set */
    return base + (three_set < best ? three_set : best);
}

/* closed_form on the word w, rank r (four: nonzero when all four suits
 * hold it), with a branch on four: it is the same for every combination
 * tried on one hand, so the branch is predicted and costs less than the
 * select. */
static inline int one_rank_deadwood(const uint16_t *rd, uint64_t w, int r, int four) {
    uint64_t without = w & ~(RANK_CARDS << r);
    int base = 0, total = 0, most = -RK_INF;
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        int with = rd[LANE(w, s)], d = rd[LANE(without, s)] - with;
        base += with;
        total += d;
        if (d > most) most = d;
    }
    int best = total < 0 ? total : 0;
    if (four && total - most < best) best = total - most;
    return base + best;
}

#define MAX_SEARCH_RANKS 4
#define MAX_COMBINATIONS 216 /* 6^3: the choices at three ranks */

/* Writes to out the choices that can matter at rank r, as the cards given
 * to a set, and returns their number: the set of every card held (first,
 * for it is most often best); with four, each 3-set that leaves a
 * run-capable card to its run (leaving out a card that lies in no run
 * never helps: in a set it saves its value and costs nothing); no set,
 * unless a 3-set without a capable card beats it. */
static int list_choices(uint64_t *out, int r, unsigned held, unsigned capable) {
    int n = 0;
    out[n++] = spread_suits(held) << r;
    if (held == 0xFu)
        for (unsigned x = capable; x; x &= x - 1) out[n++] = spread_suits(held & ~(x & (0u - x))) << r;
    if (rk__suit_count(held) == 3 || rk__suit_count(capable) >= 2) out[n++] = 0;
    return n;
}

/* Least deadwood with 3+ ranks held 3+ times, or -1 when more than
 * MAX_SEARCH_RANKS of them have a run-capable card (large hands: the DP).
 * One of them is solved in closed form for every combination of the
 * choices at the others, the likeliest best combination first. */
static int several_ranks_deadwood(const rk_rules *rules, uint64_t w, unsigned three) {
    const uint16_t *rd = rules->run_deadwood;
    uint64_t cap = 0;
    for (int s = 0; s < RK_NUM_SUITS; s++) cap |= (uint64_t)rules->run_capable[LANE(w, s)] << (16 * s);
    /* ranks where no card can be in a run: the set is always taken */
    unsigned any_cap = LANE(cap | (cap >> 16) | (cap >> 32) | (cap >> 48), 0);
    w &= ~((three & ~any_cap) * RANK_CARDS);
    three &= any_cap;
    if (!three) return run_sum_word(rd, w);
    if (!(three & (three - 1))) {
        int r = rk__ctz(three);
        return one_rank_deadwood(rd, w, r, -all_four(w, r));
    }
    /* the closed form takes a rank held four times if there is one: it has
     * the most choices, which would otherwise multiply the combinations */
    unsigned fours = three & LANE(w & (w >> 16) & (w >> 32) & (w >> 48), 0);
    int closed = 31 - __builtin_clz(fours ? fours : three), four = -(fours != 0);
    /* cards in no run and no set are deadwood whatever the choice: when the
     * best so far comes down to their value, nothing can beat it */
    int floor = run_sum_word(rd, w & ~cap & ~(three * RANK_CARDS));
    /* sets of every card at the other ranks: most often the best */
    unsigned others = three & ~(1u << closed);
    int best = one_rank_deadwood(rd, w & ~(others * RANK_CARDS), closed, four);
    if (best == floor) return best;
    /* every combination of the choices at the other ranks, built rank by
     * rank (block h of the new list: the old list with choice h added) */
    uint64_t given[MAX_COMBINATIONS];
    int r = rk__ctz(others), n = list_choices(given, r, suits_at(w, r), suits_at(cap, r)), k = 2;
    for (unsigned bits = others & (others - 1); bits; bits &= bits - 1) {
        uint64_t here[6];
        r = rk__ctz(bits);
        if (++k > MAX_SEARCH_RANKS) return -1;
        int m = list_choices(here, r, suits_at(w, r), suits_at(cap, r));
        for (int h = m - 1; h >= 0; h--) /* h = 0 last: it rewrites given[0..n) in place */
            for (int i = 0; i < n; i++) given[h * n + i] = given[i] | here[h];
        n *= m;
    }
    for (int i = 1; i < n && best > floor; i++) { /* given[0]: sets of every card, done */
        int v = one_rank_deadwood(rd, w & ~given[i], closed, four);
        if (v < best) best = v;
    }
    return best;
}

/* Ranks a and c both held four times: the least deadwood over the 3-sets
 * at a (suit t keeps its card a), c in closed form.  Against the set of
 * every card at a only suit t's lookups change: sixteen lookups in all. */
static int three_sets_deadwood(const uint16_t *rd, uint64_t w, int a, int c) {
    int w0[RK_NUM_SUITS], x0[RK_NUM_SUITS], d1[RK_NUM_SUITS], ws = 0, xs = 0;
    uint64_t wa = w & ~(RANK_CARDS << a), wc = w & ~(RANK_CARDS << c), wac = wa & ~(RANK_CARDS << c);
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        int w1 = rd[LANE(wa, s)], x1 = rd[LANE(wac, s)];
        w0[s] = rd[LANE(w, s)] - w1;
        x0[s] = rd[LANE(wc, s)] - x1;
        d1[s] = x1 - w1;
        ws += w1;
        xs += x1;
    }
    int best = RK_INF;
    for (int t = 0; t < RK_NUM_SUITS; t++) {
        int most = d1[t] + x0[t] - w0[t]; /* suit t with its card a */
        for (int s = 1; s < RK_NUM_SUITS; s++) most = max2(most, d1[(t + s) & 3]);
        int x = xs + x0[t];
        best = min2(best, min2(min2(ws + w0[t], x), x - most));
    }
    return best;
}

/* Two or three ranks held 3+ times, on the lanes p0..p3: one (held four
 * times if any) in closed form for every choice at the others (no set, the
 * set of every card, and with two ranks held four times each 3-set), or -1
 * when three ranks include a second rank held four times. */
static int few_ranks_deadwood(const uint16_t *rd, unsigned p0, unsigned p1, unsigned p2, unsigned p3,
                              unsigned three) {
    unsigned fours = three & p0 & p1 & p2 & p3;
    unsigned c = 1u << (31 - __builtin_clz(fours ? fours : three)), others = three & ~c;
    unsigned a = others & (0u - others), b = others & ~a;
    int four = -(fours != 0);
    unsigned p[RK_NUM_SUITS] = {p0, p1, p2, p3};
    int best = min2(closed_form(rd, p, ~0u, c, four), closed_form(rd, p, ~a, c, four));
    if (!b) {
        if (!(fours & a)) return best;
        return min2(best, three_sets_deadwood(rd, lanes_word(p0, p1, p2, p3), rk__ctz(a), rk__ctz(c)));
    }
    if (b & (b - 1) || (fours & others)) return -1;
    return min2(best, min2(closed_form(rd, p, ~b, c, four), closed_form(rd, p, ~(a | b), c, four)));
}

/* Two or more ranks held 3+ times, on the lanes p0..p3, past the checks
 * in deadwood_fast (not inlined: the hot caller stays small). */
static int search_deadwood(const rk_rules *rules, unsigned p0, unsigned p1, unsigned p2, unsigned p3,
                           unsigned three) {
    int dw = few_ranks_deadwood(rules->run_deadwood, p0, p1, p2, p3, three);
    if (dw >= 0) return dw;
    dw = several_ranks_deadwood(rules, lanes_word(p0, p1, p2, p3), three);
    if (dw >= 0) return dw;
    rk_lanes l = {{(uint16_t)p0, (uint16_t)p1, (uint16_t)p2, (uint16_t)p3}};
    return rk__deadwood_dp(rules, rk__join(l));
}

/* The one rank (bit c) held 3+ times is held by all four suits: the least
 * deadwood over its 3-sets, from `without` (the 4-set's), each leaving one
 * suit's card to its lane. */
static int lone_four_deadwood(const uint16_t *rd, unsigned p0, unsigned p1, unsigned p2, unsigned p3, unsigned c,
                              int without) {
    return without + min2(min2(rd[p0] - rd[p0 & ~c], rd[p1] - rd[p1 & ~c]),
                          min2(rd[p2] - rd[p2 & ~c], rd[p3] - rd[p3 & ~c]));
}

/* The suits' lanes are plain unsigned values here, not an rk_lanes: the
 * compiler keeps them in registers (a 16-bit field spilled and reloaded
 * wider stalled the store forwarding).  Hands with no rank held 3+ times
 * (three of four random 10-card hands) take the path of one such rank too,
 * with nothing to leave out: its four extra lookups cost less than a branch
 * between the two, mispredicted for about a quarter of random hands.  Hands
 * with two or more such ranks (1% of random hands) make two quick checks
 * here, then search. */
static inline int deadwood_fast(const rk_rules *rules, rk_mask hand) {
    const uint16_t *rd = rules->run_deadwood;
    unsigned p0 = rk__lane(hand, 0), p1 = rk__lane(hand, 1), p2 = rk__lane(hand, 2), p3 = rk__lane(hand, 3);
    unsigned three = rk__three_of(p0, p1, p2, p3);
    if (!(three & (three - 1))) {
        /* one rank or none: no set there, or the set of every card held */
        int with = runs_without(rd, p0, p1, p2, p3, 0), without = runs_without(rd, p0, p1, p2, p3, three);
        int best = min2(with, without);
        if (p0 & p1 & p2 & p3) best = min2(best, lone_four_deadwood(rd, p0, p1, p2, p3, three, without));
        return best;
    }
    /* The checks below are often mispredicted on meld-dense hands; they
     * test the ranks of the suits' lanes ORed together, for the shortest
     * chains: the sooner a branch resolves, the less a misprediction costs
     * (~0.8 ns a hand). */
    if (!((p0 | p1 | p2 | p3) & ~three)) return 0; /* sets of every card hold the whole hand */
    const uint16_t *rc = rules->run_capable;
    unsigned cap = rc[p0] | rc[p1] | rc[p2] | rc[p3]; /* ranks with a card in a run */
    /* no set card can be in a run: every set is best whole; no other card
     * can: they are deadwood whatever the choice, and the sets of every card
     * leave nothing else */
    if (!(cap & three) || !(cap & ~three)) return runs_without(rd, p0, p1, p2, p3, three);
    return search_deadwood(rules, p0, p1, p2, p3, three);
}

int rk__deadwood_unchecked(const rk_rules *rules, rk_mask hand) { return deadwood_fast(rules, hand); }

int rk_deadwood(const rk_rules *rules, rk_mask hand) {
    if (!rules) return RK_ERR_ARG;
    if (hand & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    return deadwood_fast(rules, hand);
}

/* ---- best discard --------------------------------------------------- */

/* A discard's sortable key, as rk_rules.drop_key: (deadwood + RK_DROP_OFFSET)
 * << 14 | (255 - value) << 6 | (63 - card id); the smallest is the best
 * discard.  64 bits: a suit with no card keeps drop_key's UINT32_MAX plus
 * the deadwood, above every real key, without wrapping. */
static inline uint64_t card_key(const rk_rules *rules, int deadwood, int card) {
    return ((uint64_t)(deadwood + RK_DROP_OFFSET) << 14) |
           ((uint64_t)(255 - rules->values[card % RK_NUM_RANKS]) << 6) | (uint64_t)(63 - card);
}

static int key_deadwood(uint64_t key) { return (int)(key >> 14) - RK_DROP_OFFSET; }
static int key_card(uint64_t key) { return 63 - (int)(key & 63u); }

static inline uint64_t min_key(uint64_t a, uint64_t b) { return b < a ? b : a; }

/* The lookups of one suit s for the closed form at rank c: the run-only
 * deadwood of its lane with (w) and without (x) the card of rank c, and
 * the key of its best card to drop from each, less 13 s (its card id). */
typedef struct suit_looks {
    int w, x;
    uint64_t gw, gx;
} suit_looks;

static inline suit_looks look_suit(const rk_rules *rules, unsigned p, unsigned cbit, int s) {
    suit_looks k;
    unsigned q = p & ~cbit;
    k.w = rules->run_deadwood[p];
    k.x = rules->run_deadwood[q];
    k.gw = (uint64_t)rules->drop_key[p] - (uint64_t)(13 * s);
    k.gx = (uint64_t)rules->drop_key[q] - (uint64_t)(13 * s);
    return k;
}

/* The best discard key with no set: each suit's best card to drop. */
static inline uint64_t runs_discard(const rk_rules *rules, const unsigned p[RK_NUM_SUITS]) {
    const uint16_t *rd = rules->run_deadwood;
    const uint32_t *dk = rules->drop_key;
    uint64_t base = (uint64_t)(rd[p[0]] + rd[p[1]] + rd[p[2]] + rd[p[3]]) << 14;
    return base + min_key(min_key(dk[p[0]], (uint64_t)dk[p[1]] - 13),
                          min_key((uint64_t)dk[p[2]] - 26, (uint64_t)dk[p[3]] - 39));
}

/* The best discard key when the only choice left is at rank c: no set
 * there, the set of every card held (for a suit without the card, with and
 * without are the same lane), or, when all four suits hold it (four), each
 * 3-set, leaving suit t's card in its lane, where it may be the discard.
 * In each, a discard changes one suit's lane, and that suit's best card is
 * its key.  No branch but on four: which choice is best is data. */
static inline uint64_t closed_discard(const suit_looks k[RK_NUM_SUITS], int four) {
    int with = k[0].w + k[1].w + k[2].w + k[3].w, without = k[0].x + k[1].x + k[2].x + k[3].x;
    uint64_t gx01 = min_key(k[0].gx, k[1].gx), gx23 = min_key(k[2].gx, k[3].gx);
    uint64_t none = ((uint64_t)with << 14) + min_key(min_key(k[0].gw, k[1].gw), min_key(k[2].gw, k[3].gw));
    uint64_t best = min_key(none, ((uint64_t)without << 14) + min_key(gx01, gx23));
    if (!four) return best;
    uint64_t others[RK_NUM_SUITS] = {min_key(k[1].gx, gx23), min_key(k[0].gx, gx23), min_key(gx01, k[3].gx),
                                     min_key(gx01, k[2].gx)};
    for (int t = 0; t < RK_NUM_SUITS; t++)
        best = min_key(best, ((uint64_t)(without - k[t].x + k[t].w) << 14) + min_key(k[t].gw, others[t]));
    return best;
}

/* The best discard key of hand with rank c (bit cbit) in closed form and
 * the lanes p otherwise as they are. */
static inline uint64_t one_rank_discard(const rk_rules *rules, const unsigned p[RK_NUM_SUITS], unsigned cbit,
                                        int four) {
    suit_looks k[RK_NUM_SUITS];
    for (int s = 0; s < RK_NUM_SUITS; s++) k[s] = look_suit(rules, p[s], cbit, s);
    return closed_discard(k, four);
}

#define MAX_DISCARD_RANKS 5 /* ranks held 3+ times; more (18+ cards) take one deadwood per card */
#define MAX_DISCARD_COMBOS 1296 /* 6^4: the choices at four ranks */

/* Suit s of a 4-bit suit set to bit 4 s. */
static inline uint16_t nibbles(unsigned suits) {
    return (uint16_t)((suits & 1u) | (suits & 2u) << 3 | (suits & 4u) << 6 | (suits & 8u) << 9);
}

/* The set choices at the j-th other rank, held by the suits `held` (4
 * bits), each as the suits it takes, bit j of each of their nibbles (suit
 * s: bits 4 s..4 s + 3): the set of every card, each 3-set when all four
 * are held, no set.  Discarding one card changes what could be best, so
 * none is left out. */
static int discard_choices(uint16_t *out, unsigned held, int j) {
    int n = 0;
    out[n++] = (uint16_t)(nibbles(held) << j);
    if (held == 0xFu)
        for (int s = 0; s < RK_NUM_SUITS; s++) out[n++] = (uint16_t)(nibbles(held & ~(1u << s)) << j);
    out[n++] = 0;
    return n;
}

/* Two to MAX_DISCARD_RANKS ranks held 3+ times: one (held four times if
 * any) in closed form for every combination of the choices at the others.
 * Each suit's lookups are made once per subset of the other ranks' cards
 * given to sets (y, bit j for the j-th other rank), then combined. */
static uint64_t several_ranks_discard(const rk_rules *rules, rk_lanes l, unsigned three) {
    unsigned fours = l.s[0] & l.s[1] & l.s[2] & l.s[3] & three;
    unsigned cbit = 1u << (31 - __builtin_clz(fours ? fours : three)), others = three & ~cbit;
    int four = fours != 0, rank[MAX_DISCARD_RANKS - 1], m = 0;
    for (unsigned bits = others; bits; bits &= bits - 1) rank[m++] = rk__ctz(bits);
    suit_looks looks[RK_NUM_SUITS][1 << (MAX_DISCARD_RANKS - 1)];
    unsigned gone[1 << (MAX_DISCARD_RANKS - 1)]; /* the other ranks' cards in subset y */
    gone[0] = 0;
    for (unsigned y = 1; y < (1u << m); y++) gone[y] = gone[y & (y - 1)] | 1u << rank[rk__ctz(y)];
    for (int s = 0; s < RK_NUM_SUITS; s++)
        for (unsigned y = 0; y < (1u << m); y++) looks[s][y] = look_suit(rules, l.s[s] & ~gone[y], cbit, s);
    uint16_t combos[MAX_DISCARD_COMBOS];
    int n = 1;
    combos[0] = 0;
    for (int j = 0; j < m; j++) {
        uint16_t here[6];
        unsigned held = 0;
        for (int s = 0; s < RK_NUM_SUITS; s++) held |= ((l.s[s] >> rank[j]) & 1u) << s;
        int h = discard_choices(here, held, j);
        for (int a = h - 1; a >= 0; a--) /* a = 0 last: it rewrites combos[0..n) in place */
            for (int i = 0; i < n; i++) combos[a * n + i] = (uint16_t)(combos[i] | here[a]);
        n *= h;
    }
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < n; i++) {
        suit_looks k[RK_NUM_SUITS];
        for (int s = 0; s < RK_NUM_SUITS; s++) k[s] = looks[s][(combos[i] >> (4 * s)) & 15u];
        best = min_key(best, closed_discard(k, four));
    }
    return best;
}

/* Two or more ranks held 3+ times (not inlined: the hot caller stays small). */
static uint64_t sets_discard_key(const rk_rules *rules, rk_mask hand, rk_lanes l, unsigned three) {
    if (rk__popcount(three) <= MAX_DISCARD_RANKS) return several_ranks_discard(rules, l, three);
    uint64_t best = UINT64_MAX; /* very large hands */
    for (rk_mask bits = hand; bits; bits &= bits - 1) {
        int card = rk__ctz(bits);
        best = min_key(best, card_key(rules, deadwood_fast(rules, hand & ~((rk_mask)1 << card)), card));
    }
    return best;
}

/* The key of the best discard of a nonempty hand, no card forbidden. */
static inline uint64_t best_discard_key(const rk_rules *rules, rk_mask hand) {
    rk_lanes l = rk__split(hand);
    unsigned three = rk__three_of_a_rank(l);
    if (three & (three - 1)) return sets_discard_key(rules, hand, l, three);
    unsigned p[RK_NUM_SUITS] = {l.s[0], l.s[1], l.s[2], l.s[3]};
    if (!three) return runs_discard(rules, p);
    return one_rank_discard(rules, p, three, (l.s[0] & l.s[1] & l.s[2] & l.s[3] & three) != 0);
}

rk_status rk_best_discard(const rk_rules *rules, rk_mask hand, int forbidden, int *card,
                          int *deadwood, int16_t after[RK_NUM_CARDS]) {
    if (!rules || !card || !deadwood || forbidden < -1 || forbidden >= RK_NUM_CARDS)
        return RK_ERR_ARG;
    if (hand & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    if (forbidden >= 0 && !((hand >> forbidden) & 1u)) return RK_ERR_ARG;
    if ((hand & ~(forbidden >= 0 ? (rk_mask)1 << forbidden : 0)) == 0) return RK_ERR_EMPTY;
    uint64_t best = after ? UINT64_MAX : best_discard_key(rules, hand);
    /* the keys are a total order: unless the best card is forbidden, it is
     * the best of the others too; else (or for the per-card vector) one
     * least deadwood per card */
    if (after || key_card(best) == forbidden) {
        best = UINT64_MAX;
        if (after)
            for (int c = 0; c < RK_NUM_CARDS; c++) after[c] = -1;
        for (rk_mask bits = hand; bits; bits &= bits - 1) {
            int c = rk__ctz(bits), v = deadwood_fast(rules, hand & ~((rk_mask)1 << c));
            if (after) after[c] = (int16_t)v;
            if (c != forbidden) best = min_key(best, card_key(rules, v, c));
        }
    }
    *card = key_card(best);
    *deadwood = key_deadwood(best);
    return RK_OK;
}

/* ---- batches -------------------------------------------------------- */

rk_status rk_deadwood_batch(const rk_rules *rules, const rk_mask *hands, size_t n, int16_t *out,
                            size_t *bad_index) {
    if (!rules || (n && (!hands || !out))) return RK_ERR_ARG;
    for (size_t i = 0; i < n; i++) {
        if (hands[i] & ~RK_DECK_MASK) {
            if (bad_index) *bad_index = i;
            return RK_ERR_BAD_MASK;
        }
        out[i] = (int16_t)deadwood_fast(rules, hands[i]);
    }
    return RK_OK;
}

rk_status rk_best_discard_batch(const rk_rules *rules, const rk_mask *hands, size_t n,
                                int16_t *deadwood, int8_t *card, size_t *bad_index) {
    if (!rules || (n && (!hands || !deadwood || !card))) return RK_ERR_ARG;
    for (size_t i = 0; i < n; i++) {
        if (hands[i] & ~RK_DECK_MASK) {
            if (bad_index) *bad_index = i;
            return RK_ERR_BAD_MASK;
        }
        uint64_t key = hands[i] ? best_discard_key(rules, hands[i]) : 0;
        deadwood[i] = (int16_t)(hands[i] ? key_deadwood(key) : 0);
        card[i] = (int8_t)(hands[i] ? key_card(key) : -1);
    }
    return RK_OK;
}
