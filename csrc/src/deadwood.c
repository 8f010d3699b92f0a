/* Least deadwood and best discard: the fast path.
 *
 * Runs live inside one suit, so with no set in play the least deadwood is
 * the sum of four lookups in the per-suit table of run-only deadwood.  Sets
 * are chosen per rank among the few choices that can matter (the 4-set,
 * each 3-set, or none), and each choice again costs four lookups.  Hands
 * with too many choices (very large hands) use the exact DP instead. */
#include "internal.h"

#define MAX_SET_CHOICES 2048

typedef struct set_options {
    int n_ranks;
    int rank[RK_NUM_RANKS];
    int n_opts[RK_NUM_RANKS];
    uint8_t opt[RK_NUM_RANKS][6]; /* suits a set takes at that rank; 0 = no set */
} set_options;

/* Lists the set choices of every rank held in 3+ suits.  With `prune`
 * (deadwood only), choices that can never beat another are left out and
 * forced sets are taken out of *l at once: a card that lies in no possible
 * run is always better in a set.  Without it (discards), every choice is
 * kept, because discarding one card changes what can be pruned.  Returns
 * the number of combinations, capped just above MAX_SET_CHOICES. */
static long set_choices(const rk_rules *rules, rk_lanes *l, unsigned three, int prune,
                        set_options *o) {
    const rk_lanes full = *l;
    unsigned cap[RK_NUM_SUITS] = {0, 0, 0, 0};
    long combos = 1;
    o->n_ranks = 0;
    if (prune) {
        for (int s = 0; s < RK_NUM_SUITS; s++) cap[s] = rules->run_capable[full.s[s]];
        /* ranks where no card can be in a run: the set is forced */
        unsigned forced = three & ~(cap[0] | cap[1] | cap[2] | cap[3]);
        for (int s = 0; s < RK_NUM_SUITS; s++) l->s[s] &= (uint16_t)~forced;
        three &= ~forced;
    }
    for (unsigned bits = three; bits; bits &= bits - 1) {
        int r = rk__ctz(bits);
        unsigned held = 0, capable = 0;
        for (int s = 0; s < RK_NUM_SUITS; s++) {
            held |= ((full.s[s] >> r) & 1u) << s;
            capable |= ((cap[s] >> r) & 1u) << s;
        }
        int k = o->n_ranks, n = 0;
        o->opt[k][n++] = (uint8_t)held;
        if (held == 0xFu) {
            for (int s = 0; s < RK_NUM_SUITS; s++)
                if (!prune || ((capable >> s) & 1u)) o->opt[k][n++] = (uint8_t)(held & ~(1u << s));
        }
        if (!prune || rk__suit_count(held) == 3 || rk__suit_count(capable) >= 2) o->opt[k][n++] = 0;
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

static int least_over_choices(const rk_rules *rules, const set_options *o, int k, rk_lanes l) {
    if (k == o->n_ranks) return run_sum(rules, l);
    int best = RK_INF;
    for (int i = 0; i < o->n_opts[k]; i++) {
        int v = least_over_choices(rules, o, k + 1, remove_set(l, o->rank[k], o->opt[k][i]));
        if (v < best) best = v;
    }
    return best;
}

/* One rank held 3+ times (the common case): a set there changes each of
 * its suits by delta[s], so every choice is a sum of deltas. */
static inline int one_rank_deadwood(const rk_rules *rules, rk_lanes l, int r) {
    int base = 0, delta[RK_NUM_SUITS], held = 0, total = 0, worst = RK_INF;
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        int with = rules->run_deadwood[l.s[s]];
        base += with;
        delta[s] = 0;
        if ((l.s[s] >> r) & 1u) {
            delta[s] = rules->run_deadwood[l.s[s] & ~(1u << r)] - with;
            total += delta[s];
            held++;
        }
    }
    int best = total < 0 ? total : 0; /* the set, or no set */
    if (held == 4) /* a 3-set leaves out the suit with the worst delta */
        for (int s = 0; s < RK_NUM_SUITS; s++)
            if (-delta[s] < worst) worst = -delta[s];
    if (held == 4 && total + worst < best) best = total + worst;
    return base + best;
}

/* Several ranks with sets in play (k <= 4 after pruning): each suit's final
 * pattern depends only on which of those k ranks it gives to sets, so each
 * suit's 2^k patterns are looked up once and every choice is four reads of
 * that small table.  `choice` packs, per suit, the k-bit subset (4 bits a
 * suit). */
typedef struct packed_search {
    uint16_t t[RK_NUM_SUITS][16];       /* run deadwood per suit and subset */
    uint16_t packed[RK_NUM_RANKS][6];   /* each option's suits, as packed subset bits */
    int floor;                          /* sum of each suit's least entry: nothing beats it */
    int best;
} packed_search;

static void least_over_packed(packed_search *ps, const set_options *o, int k, unsigned choice) {
    if (k == o->n_ranks) {
        int v = ps->t[0][choice & 15u] + ps->t[1][(choice >> 4) & 15u] +
                ps->t[2][(choice >> 8) & 15u] + ps->t[3][choice >> 12];
        if (v < ps->best) ps->best = v;
        return;
    }
    for (int i = 0; i < o->n_opts[k] && ps->best > ps->floor; i++)
        least_over_packed(ps, o, k + 1, choice | ps->packed[k][i]);
}

static int several_ranks_deadwood(const rk_rules *rules, rk_lanes l, unsigned three) {
    set_options o;
    if (set_choices(rules, &l, three, 1, &o) > MAX_SET_CHOICES) return -1;
    /* forced sets are out of l now; often one choice or none is left */
    if (o.n_ranks == 0) return run_sum(rules, l);
    if (o.n_ranks == 1) return one_rank_deadwood(rules, l, o.rank[0]);
    if (o.n_ranks > 4) return least_over_choices(rules, &o, 0, l);
    packed_search ps;
    unsigned subsets = 1u << o.n_ranks;
    ps.floor = 0;
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        uint16_t pattern[16];
        int least = RK_INF;
        pattern[0] = l.s[s];
        for (unsigned sub = 0; sub < subsets; sub++) {
            if (sub) pattern[sub] = (uint16_t)(pattern[sub & (sub - 1)] & ~(1u << o.rank[rk__ctz(sub)]));
            ps.t[s][sub] = rules->run_deadwood[pattern[sub]];
            if (ps.t[s][sub] < least) least = ps.t[s][sub];
        }
        ps.floor += least;
    }
    for (int j = 0; j < o.n_ranks; j++)
        for (int i = 0; i < o.n_opts[j]; i++) {
            unsigned w = 0;
            for (int s = 0; s < RK_NUM_SUITS; s++)
                if ((o.opt[j][i] >> s) & 1u) w |= 1u << (4 * s + j);
            ps.packed[j][i] = (uint16_t)w;
        }
    ps.best = RK_INF;
    least_over_packed(&ps, &o, 0, 0);
    return ps.best;
}

static inline int deadwood_fast(const rk_rules *rules, rk_mask hand) {
    rk_lanes l = rk__split(hand);
    unsigned three = rk__three_of_a_rank(l);
    if (!three) return run_sum(rules, l);
    if (!(three & (three - 1))) return one_rank_deadwood(rules, l, rk__ctz(three));
    int dw = several_ranks_deadwood(rules, l, three);
    return dw >= 0 ? dw : rk__deadwood_dp(rules, hand);
}

int rk__deadwood_unchecked(const rk_rules *rules, rk_mask hand) { return deadwood_fast(rules, hand); }

int rk_deadwood(const rk_rules *rules, rk_mask hand) {
    if (!rules) return RK_ERR_ARG;
    if (hand & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    return deadwood_fast(rules, hand);
}

/* ---- best discard --------------------------------------------------- */

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
    if (!three || set_choices(d->rules, &l, three, 0, &o) <= MAX_SET_CHOICES) {
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
