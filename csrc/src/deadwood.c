/* Least deadwood and best discard: the fast path.
 *
 * Runs live inside one suit, so with no set in play the least deadwood is
 * the sum of four lookups in the per-suit table of run-only deadwood.  With
 * one rank held 3+ times, the set there (the 4-set, the best 3-set, or
 * none) has a closed form: eight lookups.  With two or three, two checks
 * settle about half the meld-dense hands (sets of every card are best when
 * they hold the whole hand, or when no set card, or no other card, can lie
 * in a run); the rest try every choice at the other ranks, without
 * branches (which is best is data: a branch on it is often mispredicted,
 * and mispredictions, not instructions, dominated).  With more, the choices
 * that can matter are combined and the search stops as soon as nothing can
 * be better; very large hands use the exact DP.
 * The best discard enumerates every set choice and, per combination, takes
 * each suit's best card to drop from a table. */
#include "internal.h"

/* ---- least deadwood ------------------------------------------------- */

/* The hand as one word, 16 bits a suit lane (bit 16 s + r = suit s, rank
 * r): a rank's four cards are one mask away, a lane one shift away, and
 * the word stays in a register where an array of lanes would not. */
#define RANK_CARDS 0x0001000100010001ull /* rank 0 of every suit */
#define LANE(w, s) ((unsigned)((w) >> (16 * (s))) & 0xFFFFu)

static inline uint64_t lanes_word(rk_lanes l) {
    return (uint64_t)l.s[0] | ((uint64_t)l.s[1] << 16) | ((uint64_t)l.s[2] << 32) | ((uint64_t)l.s[3] << 48);
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
 * hold it), with a branch on four: the lone set rank of a random hand is
 * seldom held four times, so the branch is predicted and costs less than
 * the select. */
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

/* Two or three ranks held 3+ times: one (held four times if any) in closed
 * form for every choice at the others (no set, the set of every card, and
 * with two ranks held four times each 3-set), or -1 when three ranks
 * include a second rank held four times. */
static int few_ranks_deadwood(const uint16_t *rd, uint64_t w, unsigned three) {
    unsigned fours = three & LANE(w & (w >> 16) & (w >> 32) & (w >> 48), 0);
    unsigned c = 1u << (31 - __builtin_clz(fours ? fours : three)), others = three & ~c;
    unsigned a = others & (0u - others), b = others & ~a;
    int four = -(fours != 0);
    unsigned p[RK_NUM_SUITS] = {LANE(w, 0), LANE(w, 1), LANE(w, 2), LANE(w, 3)};
    int best = min2(closed_form(rd, p, ~0u, c, four), closed_form(rd, p, ~a, c, four));
    if (!b) return fours & a ? min2(best, three_sets_deadwood(rd, w, rk__ctz(a), rk__ctz(c))) : best;
    if (b & (b - 1) || (fours & others)) return -1;
    return min2(best, min2(closed_form(rd, p, ~b, c, four), closed_form(rd, p, ~(a | b), c, four)));
}

static inline int deadwood_fast(const rk_rules *rules, rk_mask hand) {
    rk_lanes l = rk__split(hand);
    unsigned three = rk__three_of_a_rank(l);
    if (!three) return rules->run_deadwood[l.s[0]] + rules->run_deadwood[l.s[1]] + rules->run_deadwood[l.s[2]] +
                       rules->run_deadwood[l.s[3]];
    uint64_t w = lanes_word(l);
    if (!(three & (three - 1))) {
        int r = rk__ctz(three);
        return one_rank_deadwood(rules->run_deadwood, w, r, -all_four(w, r));
    }
    /* The checks below are often mispredicted on meld-dense hands; they
     * test the ranks of the suits' lanes ORed together, not the word, for
     * the shortest chains: the sooner a branch resolves, the less a
     * misprediction costs (~0.8 ns a hand). */
    if (!((l.s[0] | l.s[1] | l.s[2] | l.s[3]) & ~three)) return 0; /* sets of every card hold the whole hand */
    const uint16_t *rc = rules->run_capable;
    unsigned cap = rc[l.s[0]] | rc[l.s[1]] | rc[l.s[2]] | rc[l.s[3]]; /* ranks with a card in a run */
    /* no set card can be in a run: every set is best whole; no other card
     * can: they are deadwood whatever the choice, and the sets of every card
     * leave nothing else */
    if (!(cap & three) || !(cap & ~three)) return run_sum_word(rules->run_deadwood, w & ~(three * RANK_CARDS));
    int dw = few_ranks_deadwood(rules->run_deadwood, w, three);
    if (dw >= 0) return dw;
    dw = several_ranks_deadwood(rules, w, three);
    return dw >= 0 ? dw : rk__deadwood_dp(rules, hand);
}

int rk__deadwood_unchecked(const rk_rules *rules, rk_mask hand) { return deadwood_fast(rules, hand); }

int rk_deadwood(const rk_rules *rules, rk_mask hand) {
    if (!rules) return RK_ERR_ARG;
    if (hand & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    return deadwood_fast(rules, hand);
}

/* ---- best discard --------------------------------------------------- */

#define MAX_SET_CHOICES 2048

typedef struct set_options {
    int n_ranks;
    int rank[RK_NUM_RANKS];
    int n_opts[RK_NUM_RANKS];
    uint8_t opt[RK_NUM_RANKS][6]; /* suits a set takes at that rank; 0 = no set */
} set_options;

/* Lists every set choice of every rank held in 3+ suits (the 4-set, each
 * 3-set, none): unlike the least deadwood, nothing is pruned, because
 * discarding one card changes what could be.  Returns the number of
 * combinations, capped just above MAX_SET_CHOICES. */
static long set_choices(rk_lanes l, unsigned three, set_options *o) {
    long combos = 1;
    o->n_ranks = 0;
    for (unsigned bits = three; bits; bits &= bits - 1) {
        int r = rk__ctz(bits);
        unsigned held = 0;
        for (int s = 0; s < RK_NUM_SUITS; s++) held |= ((l.s[s] >> r) & 1u) << s;
        int k = o->n_ranks, n = 0;
        o->opt[k][n++] = (uint8_t)held;
        if (held == 0xFu)
            for (int s = 0; s < RK_NUM_SUITS; s++) o->opt[k][n++] = (uint8_t)(held & ~(1u << s));
        o->opt[k][n++] = 0;
        o->rank[k] = r;
        o->n_opts[k] = n;
        o->n_ranks++;
        combos *= n;
        if (combos > MAX_SET_CHOICES) combos = MAX_SET_CHOICES + 1;
    }
    return combos;
}

static inline int run_sum(const rk_rules *rules, rk_lanes l) {
    return rules->run_deadwood[l.s[0]] + rules->run_deadwood[l.s[1]] +
           rules->run_deadwood[l.s[2]] + rules->run_deadwood[l.s[3]];
}

static inline rk_lanes remove_set(rk_lanes l, int rank, unsigned suits) {
    for (int s = 0; s < RK_NUM_SUITS; s++)
        if ((suits >> s) & 1u) l.s[s] &= (uint16_t)~(1u << rank);
    return l;
}

typedef struct discard_search {
    const rk_rules *rules;
    int forbidden; /* card id or -1 */
    uint32_t best_key; /* deadwood << 14 | (255 - value) << 6 | (63 - card id), as drop_key */
    int16_t *after; /* NULL unless the per-card vector is wanted */
} discard_search;

static inline uint32_t card_key(const rk_rules *rules, int deadwood, int card) {
    return ((uint32_t)(deadwood + RK_DROP_OFFSET) << 14) |
           ((uint32_t)(255 - rules->values[card % RK_NUM_RANKS]) << 6) | (uint32_t)(63 - card);
}

/* Every card outside the chosen sets is a candidate: removing card c of
 * suit s changes only that suit's lookup, and drop_key gives each suit's
 * best card at once.  The suit of the forbidden card, and the per-card
 * vector, take the slow loop. */
static void discard_leaf(discard_search *d, rk_lanes l) {
    const rk_rules *rules = d->rules;
    int base = run_sum(rules, l);
    uint32_t best = d->best_key;
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        unsigned p = l.s[s];
        int f = d->forbidden - 13 * s;
        if (!p) continue;
        if (!d->after && !(f >= 0 && f < RK_NUM_RANKS && ((p >> f) & 1u))) {
            /* drop_key holds the gain over this leaf's base */
            uint32_t key = rules->drop_key[p] + ((uint32_t)base << 14) - (uint32_t)(13 * s);
            if (key < best) best = key;
            continue;
        }
        int without_suit = base - rules->run_deadwood[p];
        for (unsigned bits = p; bits; bits &= bits - 1) {
            int r = rk__ctz(bits), card = 13 * s + r;
            int v = without_suit + rules->run_deadwood[p & ~(1u << r)];
            if (d->after && v < d->after[card]) d->after[card] = (int16_t)v;
            uint32_t key = card_key(rules, v, card);
            if (card != d->forbidden && key < best) best = key;
        }
    }
    d->best_key = best;
}

static int key_deadwood(uint32_t key) { return (int)(key >> 14) - RK_DROP_OFFSET; }
static int key_card(uint32_t key) { return 63 - (int)(key & 63u); }

static void discard_over_choices(discard_search *d, const set_options *o, int k, rk_lanes l) {
    if (k == o->n_ranks) {
        discard_leaf(d, l);
        return;
    }
    for (int i = 0; i < o->n_opts[k]; i++)
        discard_over_choices(d, o, k + 1, remove_set(l, o->rank[k], o->opt[k][i]));
}

static void best_discard_core(discard_search *d, rk_mask hand) {
    rk_lanes l = rk__split(hand);
    unsigned three = rk__three_of_a_rank(l);
    set_options o;
    o.n_ranks = 0;
    if (!three || set_choices(l, three, &o) <= MAX_SET_CHOICES) {
        discard_over_choices(d, &o, 0, l);
        return;
    }
    for (rk_mask bits = hand; bits; bits &= bits - 1) { /* very large hands */
        int card = rk__ctz(bits);
        int v = deadwood_fast(d->rules, hand & ~((rk_mask)1 << card));
        if (d->after) d->after[card] = (int16_t)v;
        uint32_t key = card_key(d->rules, v, card);
        if (card != d->forbidden && key < d->best_key) d->best_key = key;
    }
}

rk_status rk_best_discard(const rk_rules *rules, rk_mask hand, int forbidden, int *card,
                          int *deadwood, int16_t after[RK_NUM_CARDS]) {
    if (!rules || !card || !deadwood || forbidden < -1 || forbidden >= RK_NUM_CARDS)
        return RK_ERR_ARG;
    if (hand & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    if (forbidden >= 0 && !((hand >> forbidden) & 1u)) return RK_ERR_ARG;
    if (after)
        for (int c = 0; c < RK_NUM_CARDS; c++) after[c] = ((hand >> c) & 1u) ? INT16_MAX : -1;
    discard_search d = {rules, forbidden, UINT32_MAX, after};
    if ((hand & ~(forbidden >= 0 ? (rk_mask)1 << forbidden : 0)) == 0) return RK_ERR_EMPTY;
    best_discard_core(&d, hand);
    *card = key_card(d.best_key);
    *deadwood = key_deadwood(d.best_key);
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
        discard_search d = {rules, -1, UINT32_MAX, NULL};
        if (hands[i]) best_discard_core(&d, hands[i]);
        deadwood[i] = (int16_t)(hands[i] ? key_deadwood(d.best_key) : 0);
        card[i] = (int8_t)(hands[i] ? key_card(d.best_key) : -1);
    }
    return RK_OK;
}
