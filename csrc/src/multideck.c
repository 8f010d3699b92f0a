/* Two-deck hands with jokers (Kaluki): meld validity, the best disjoint
 * melds for an objective, the least penalty.  See "MULTI-DECK HANDS" in
 * rummykit.h for the layout and the rules.
 *
 * The search decides the lowest undecided natural card x (card-type order:
 * suit-major, rank-minor, so an ace comes first in its suit): either every
 * remaining copy of x stays in hand, or one copy starts a meld whose other
 * natural cards all come later in that order (a set: the same rank in higher
 * suits; a run: higher ranks of x's suit, or for an ace the Q-K-A side).
 * A meld is identified by its natural cards and its number of jokers; for
 * each such pair only the best joker placement is tried (see the header),
 * which loses nothing because a meld's placement affects only its own
 * value.  Every collection of disjoint melds is therefore reached (the
 * order of decisions is forced), and the search is exact.  It is pruned by
 * an optimistic bound: the current weight plus the best weight every
 * remaining natural card could add if it were melded, counting only the
 * cards that lie in some meld of the whole hand using at most as many
 * jokers as are left, plus every remaining joker at its best.
 *
 * Both objectives maximise one integer weight per meld:
 *   penalty objective: saved * RK__W + value     (saved = penalty removed from hand)
 *   value objective:   value * RK__W + saved
 * which is additive over melds and orders arrangements lexicographically. */
#include <string.h>

#include "internal.h"

#define RK__W 32768 /* > any value or penalty total (108 cards x 255 < 2^15), and W * 2^15 fits int32 */
#define POS_ACE_HIGH 13

/* Positions along a suit: 0 = ace low (only with ace_low_runs), 1..12 =
 * ranks 2..K (position q is rank q), 13 = ace high. */
static inline int rank_of_pos(int q) { return q == POS_ACE_HIGH ? 0 : q; }

typedef struct mrec {
    uint8_t kind;   /* RK_MELD_SET or RK_MELD_RUN */
    uint8_t x;      /* the first natural type */
    uint8_t jokers;
    uint8_t lo, hi; /* run: positions */
    uint16_t nat;   /* set: suits of the natural cards; run: positions of the natural cards */
} mrec;

typedef struct rems {
    int32_t r[3]; /* bound weight of the remaining natural cards per joker level */
} rems;

typedef struct search {
    const rk_multi_rules *rules;
    int objective;
    int include;
    int lowpos; /* lowest run position: 0 with ace_low_runs, else 1 */
    int32_t wbound[RK_NUM_CARDS];
    int32_t jbound;
    rk_mask lvl[3];
    int pre[POS_ACE_HIGH + 2]; /* pre[q] = sum of the values of positions < q */
    int32_t best;
    int record;
    int first; /* stop at the first arrangement above best (rk__multi_reaches) */
    int n, best_n;
    mrec stack[RK_MULTI_MAX_MELDS + 1];
    mrec best_stack[RK_MULTI_MAX_MELDS + 1];
} search;

/* The state after one copy of the lowest card x was taken. */
typedef struct node {
    rk_mask one, two;
    int jokers;
    int32_t cur;
    rems rem;
    int inc;  /* include satisfied (before counting this meld's cards) */
    int x, s, p;
    uint16_t avail; /* positions of x's suit still held (1..12) */
} node;

static void dfs(search *S, rk_mask one, rk_mask two, int J, int32_t cur, rems R, int inc);

static inline int32_t weight(const search *S, int value, int saved) {
    return S->objective == RK_MULTI_PENALTY ? saved * RK__W + value : value * RK__W + saved;
}

static inline void take(const search *S, rk_mask *one, rk_mask *two, rems *R, int t) {
    rk_mask b = (rk_mask)1 << t;
    if (*two & b)
        *two &= ~b;
    else
        *one &= ~b;
    for (int l = 0; l < 3; l++)
        if (S->lvl[l] & b) R->r[l] -= S->wbound[t];
}

static void push_and_recurse(search *S, const node *nd, mrec rec, int32_t w, rk_mask one, rk_mask two, rems R,
                             int inc) {
    S->stack[S->n++] = rec;
    dfs(S, one, two, nd->jokers - rec.jokers, nd->cur + w, R, inc);
    S->n--;
}

/* Sets with x and at least one more natural card (suits above x's). */
static void try_sets(search *S, const node *nd) {
    const rk_multi_rules *ru = S->rules;
    int r = nd->x % 13, s = nd->s, v = ru->values[r];
    unsigned others = 0;
    for (int t = s + 1; t < RK_NUM_SUITS; t++)
        if ((nd->one >> (t * 13 + r)) & 1u) others |= 1u << t;
    /* subsets of the other suits in increasing numeric order */
    for (unsigned sub = 1; sub < 16; sub++) {
        if ((sub & others) != sub) continue;
        int n = 1 + rk__suit_count(sub);
        int jmin = n >= 3 ? 0 : 3 - n, jmax = 4 - n < nd->jokers ? 4 - n : nd->jokers;
        if (jmin > jmax) continue;
        rk_mask one = nd->one, two = nd->two;
        rems R = nd->rem;
        int inc = nd->inc;
        for (int t = 0; t < RK_NUM_SUITS; t++)
            if ((sub >> t) & 1u) {
                take(S, &one, &two, &R, t * 13 + r);
                if (t * 13 + r == S->include) inc = 1;
            }
        for (int j = jmin; j <= jmax; j++) {
            mrec rec = {RK_MELD_SET, (uint8_t)nd->x, (uint8_t)j, 0, 0, (uint16_t)(sub | (1u << s))};
            int32_t w = weight(S, (n + j) * v, n * v + j * ru->joker_penalty);
            push_and_recurse(S, nd, rec, w, one, two, R, inc || (j > 0 && S->include == RK_JOKER));
        }
    }
}

/* One run option: natural positions `nat` (anchor included) spanning `span`
 * positions with `gaps` jokers inside; tries every total joker count. */
static void run_option(search *S, const node *nd, uint16_t nat, int m_lo, int m_hi, int gaps, int saved_nat,
                       rk_mask one, rk_mask two, rems R, int inc) {
    const rk_multi_rules *ru = S->rules;
    int span = m_hi - m_lo + 1;
    int jmin = gaps + (span >= 3 ? 0 : 3 - span), jmax = nd->jokers;
    if (jmax > gaps + 13 - span) jmax = gaps + 13 - span;
    for (int j = jmin; j <= jmax; j++) {
        int L = span + j - gaps, lo, hi;
        if (m_hi == POS_ACE_HIGH) { /* anchored at the high ace: extend down */
            hi = POS_ACE_HIGH;
            lo = POS_ACE_HIGH + 1 - L;
        } else { /* extend up as far as it goes, then down */
            lo = m_lo < POS_ACE_HIGH + 1 - L ? m_lo : POS_ACE_HIGH + 1 - L;
            hi = lo + L - 1;
        }
        int value = S->pre[hi + 1] - S->pre[lo];
        mrec rec = {RK_MELD_RUN, (uint8_t)nd->x, (uint8_t)j, (uint8_t)lo, (uint8_t)hi, nat};
        int32_t w = weight(S, value, saved_nat + j * ru->joker_penalty);
        push_and_recurse(S, nd, rec, w, one, two, R, inc || (j > 0 && S->include == RK_JOKER));
    }
}

/* Runs growing from the anchor: up (dir +1) from position m = p (x's rank, or 0 for
 * a low ace), or down (dir -1) from a high ace (position 13); positions 1..12. */
static void runs_grow(search *S, const node *nd, uint16_t nat, int m, int dir, int gaps, int saved_nat,
                      rk_mask one, rk_mask two, rems R, int inc) {
    int reach = 1 + (nd->jokers - gaps), end = m + dir * reach;
    if (end > 12) end = 12;
    if (end < 1) end = 1;
    for (int q = m + dir; (q - end) * dir <= 0; q += dir) {
        if (!((nd->avail >> q) & 1u)) continue;
        int t = nd->s * 13 + q;
        rk_mask one2 = one, two2 = two;
        rems R2 = R;
        take(S, &one2, &two2, &R2, t);
        int inc2 = inc || t == S->include;
        int g2 = gaps + (q - m) * dir - 1, sv2 = saved_nat + S->rules->values[q];
        uint16_t nat2 = (uint16_t)(nat | (1u << q));
        if (dir > 0)
            run_option(S, nd, nat2, nd->p, q, g2, sv2, one2, two2, R2, inc2);
        else
            run_option(S, nd, nat2, q, POS_ACE_HIGH, g2, sv2, one2, two2, R2, inc2);
        runs_grow(S, nd, nat2, q, dir, g2, sv2, one2, two2, R2, inc2);
    }
}

/* x with jokers only: the better of a set and a run (a set on ties). */
static void try_joker_melds(search *S, const node *nd) {
    const rk_multi_rules *ru = S->rules;
    int r = nd->x % 13, v = ru->values[r];
    for (int j = 2; j <= nd->jokers && j <= 12; j++) {
        int L = 1 + j, lo, hi;
        if (r == 0) { /* Q-K-A beats A-2-3 */
            hi = POS_ACE_HIGH;
            lo = hi + 1 - L;
        } else {
            lo = r < POS_ACE_HIGH + 1 - L ? r : POS_ACE_HIGH + 1 - L;
            hi = lo + L - 1;
        }
        int saved = v + j * ru->joker_penalty;
        int run_value = S->pre[hi + 1] - S->pre[lo];
        int set_ok = L <= 4, set_value = L * v;
        mrec rec;
        int32_t w;
        if (set_ok && set_value >= run_value) {
            mrec a = {RK_MELD_SET, (uint8_t)nd->x, (uint8_t)j, 0, 0, (uint16_t)(1u << nd->s)};
            rec = a;
            w = weight(S, set_value, saved);
        } else {
            int pos = r == 0 ? POS_ACE_HIGH : r;
            mrec a = {RK_MELD_RUN, (uint8_t)nd->x, (uint8_t)j, (uint8_t)lo, (uint8_t)hi, (uint16_t)(1u << pos)};
            rec = a;
            w = weight(S, run_value, saved);
        }
        push_and_recurse(S, nd, rec, w, nd->one, nd->two, nd->rem, nd->inc || S->include == RK_JOKER);
    }
}

static void dfs(search *S, rk_mask one, rk_mask two, int J, int32_t cur, rems R, int inc) {
    int lev = J < 2 ? J : 2;
    if (S->first < 0 || cur + R.r[lev] + J * S->jbound <= S->best) return; /* first < 0: found, stop */
    if (!one) {
        if (inc && cur > S->best) {
            S->best = cur;
            if (S->first) S->first = -1;
            if (S->record) {
                S->best_n = S->n;
                memcpy(S->best_stack, S->stack, (size_t)S->n * sizeof S->stack[0]);
            }
        }
        return;
    }
    int x = rk__ctz(one);
    rk_mask b = (rk_mask)1 << x;
    node nd;
    nd.one = one;
    nd.two = two;
    nd.rem = R;
    take(S, &nd.one, &nd.two, &nd.rem, x);
    nd.jokers = J;
    nd.cur = cur;
    nd.x = x;
    nd.s = x / 13;
    nd.inc = inc || x == S->include;
    int r = x % 13;
    nd.avail = (uint16_t)((nd.one >> (nd.s * 13)) & RK_SUIT_BITS & ~1u); /* ranks 2..K = positions 1..12 */
    int saved_x = S->rules->values[r];

    /* sets with more natural cards */
    nd.p = r;
    try_sets(S, &nd);
    /* runs with more natural cards */
    if (r == 0) {
        nd.p = POS_ACE_HIGH;
        runs_grow(S, &nd, (uint16_t)(1u << POS_ACE_HIGH), POS_ACE_HIGH, -1, 0, saved_x, nd.one, nd.two, nd.rem, nd.inc);
        if (S->lowpos == 0) {
            nd.p = 0;
            runs_grow(S, &nd, 1u, 0, 1, 0, saved_x, nd.one, nd.two, nd.rem, nd.inc);
        }
        nd.p = r;
    } else {
        runs_grow(S, &nd, (uint16_t)(1u << r), r, 1, 0, saved_x, nd.one, nd.two, nd.rem, nd.inc);
    }
    /* x with jokers only */
    try_joker_melds(S, &nd);
    /* leave every remaining copy of x in hand */
    if (x != S->include || inc) {
        rk_mask one2 = one, two2 = two;
        rems R2 = R;
        if (two & b) take(S, &one2, &two2, &R2, x);
        take(S, &one2, &two2, &R2, x);
        dfs(S, one2, two2, J, cur, R2, inc);
    }
}

/* ---- setup --------------------------------------------------------------- */

static const uint8_t KALUKI_VALUES[RK_NUM_RANKS] = {11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};

const uint8_t *rk_kaluki_values(void) { return KALUKI_VALUES; }

rk_status rk_multi_rules_init(rk_multi_rules *rules, int ace_low_runs, int joker_penalty,
                              const uint8_t values[RK_NUM_RANKS]) {
    if (!rules || (ace_low_runs != 0 && ace_low_runs != 1) || joker_penalty < 0 || joker_penalty > 255)
        return RK_ERR_ARG;
    if (!values) values = KALUKI_VALUES;
    for (int r = 0; r < RK_NUM_RANKS; r++)
        if (values[r] == 0) return RK_ERR_ARG;
    rules->ace_low_runs = ace_low_runs;
    rules->joker_penalty = joker_penalty;
    memcpy(rules->values, values, RK_NUM_RANKS);
    return RK_OK;
}

rk_status rk_multi_hand_check(rk_multi_hand hand) {
    if ((hand.one | hand.two) & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    if (hand.two & ~hand.one) return RK_ERR_BAD_MASK;
    if (hand.jokers < 0 || hand.jokers > RK_MULTI_MAX_JOKERS) return RK_ERR_BAD_MASK;
    return RK_OK;
}

rk_status rk_multi_hand_from_counts(const uint8_t counts[RK_NUM_TYPES], rk_multi_hand *out) {
    if (!counts || !out) return RK_ERR_ARG;
    rk_multi_hand h = {0, 0, 0};
    for (int t = 0; t < RK_NUM_CARDS; t++) {
        if (counts[t] > 2) return RK_ERR_BAD_MASK;
        if (counts[t] >= 1) h.one |= (rk_mask)1 << t;
        if (counts[t] == 2) h.two |= (rk_mask)1 << t;
    }
    if (counts[RK_JOKER] > RK_MULTI_MAX_JOKERS) return RK_ERR_BAD_MASK;
    h.jokers = counts[RK_JOKER];
    *out = h;
    return RK_OK;
}

/* Position lane of a suit: bit q = position q held (ace at 13, and at 0 when low). */
static unsigned pos_lane(unsigned lane, int ace_low) {
    unsigned p = lane & ~1u & RK_SUIT_BITS;
    if (lane & 1u) p |= (1u << POS_ACE_HIGH) | (ace_low ? 1u : 0u);
    return p;
}

static unsigned lane_of_pos(unsigned p) {
    unsigned lane = p & 0x1FFEu;
    if (p & ((1u << POS_ACE_HIGH) | 1u)) lane |= 1u;
    return lane;
}

static int hand_penalty(const rk_multi_rules *rules, rk_mask one, rk_mask two, int jokers) {
    int total = jokers * rules->joker_penalty;
    for (rk_mask m = one; m; m &= m - 1) total += rules->values[rk__ctz(m) % 13];
    for (rk_mask m = two; m; m &= m - 1) total += rules->values[rk__ctz(m) % 13];
    return total;
}

static void search_init(search *S, const rk_multi_rules *rules, rk_multi_hand h, int objective, int include,
                        int record) {
    S->rules = rules;
    S->objective = objective;
    S->include = include;
    S->lowpos = rules->ace_low_runs ? 0 : 1;
    S->record = record;
    S->first = 0;
    S->n = S->best_n = 0;
    S->best = -1;
    int maxv = 0;
    for (int r = 0; r < RK_NUM_RANKS; r++)
        if (rules->values[r] > maxv) maxv = rules->values[r];
    for (int t = 0; t < RK_NUM_CARDS; t++) {
        int v = rules->values[t % 13];
        S->wbound[t] = weight(S, v, v);
    }
    S->jbound = weight(S, maxv, rules->joker_penalty);
    S->pre[0] = 0;
    for (int q = 0; q <= POS_ACE_HIGH; q++)
        S->pre[q + 1] = S->pre[q] + (q == 0 ? 1 : rules->values[rank_of_pos(q)]);
    /* cards in a meld of the whole hand with at most 0 / 1 / any jokers */
    rk_lanes l = rk__split(h.one), s0, s1;
    unsigned three = rk__three_of_a_rank(l), two = rk__two_of_a_rank(l);
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        s0.s[s] = (uint16_t)(l.s[s] & three);
        s1.s[s] = (uint16_t)(l.s[s] & two);
    }
    rk_mask m0 = rk__join(s0), m1 = rk__join(s1);
    unsigned starts = 0;
    for (int q = S->lowpos; q + 2 <= POS_ACE_HIGH; q++) starts |= 1u << q;
    rk_lanes r0, r1;
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        unsigned p = pos_lane(l.s[s], rules->ace_low_runs);
        unsigned w0 = p & (p >> 1) & (p >> 2) & starts;
        unsigned w1 = ((p & (p >> 1)) | (p & (p >> 2)) | ((p >> 1) & (p >> 2))) & starts;
        r0.s[s] = (uint16_t)lane_of_pos((w0 | (w0 << 1) | (w0 << 2)) & p);
        r1.s[s] = (uint16_t)lane_of_pos((w1 | (w1 << 1) | (w1 << 2)) & p);
    }
    S->lvl[0] = m0 | rk__join(r0);
    S->lvl[1] = S->lvl[0] | m1 | rk__join(r1);
    S->lvl[2] = h.one;
}

static rems initial_rems(const search *S, rk_multi_hand h) {
    rems R = {{0, 0, 0}};
    for (int l = 0; l < 3; l++) {
        for (rk_mask m = h.one & S->lvl[l]; m; m &= m - 1) R.r[l] += S->wbound[rk__ctz(m)];
        for (rk_mask m = h.two & S->lvl[l]; m; m &= m - 1) R.r[l] += S->wbound[rk__ctz(m)];
    }
    return R;
}

static rk_status check_args(const rk_multi_rules *rules, rk_multi_hand hand) {
    if (!rules) return RK_ERR_ARG;
    return rk_multi_hand_check(hand);
}

static void build_meld(const search *S, const mrec *rec, rk_multi_meld *out) {
    const rk_multi_rules *ru = S->rules;
    int s = rec->x / 13, k = 0;
    out->n_jokers = rec->jokers;
    if (rec->kind == RK_MELD_SET) {
        int r = rec->x % 13;
        out->kind = RK_MELD_SET;
        for (int t = 0; t < RK_NUM_SUITS; t++)
            if ((rec->nat >> t) & 1u) {
                out->cards[k] = (int8_t)(t * 13 + r);
                out->represents[k++] = (int8_t)(t * 13 + r);
            }
        int j = rec->jokers;
        for (int t = 0; t < RK_NUM_SUITS && j > 0; t++)
            if (!((rec->nat >> t) & 1u)) {
                out->cards[k] = RK_JOKER;
                out->represents[k++] = (int8_t)(t * 13 + r);
                j--;
            }
        out->value = k * ru->values[r];
    } else {
        out->kind = RK_MELD_RUN;
        for (int q = rec->lo; q <= rec->hi; q++) {
            int t = s * 13 + rank_of_pos(q);
            out->cards[k] = (int8_t)(((rec->nat >> q) & 1u) ? t : RK_JOKER);
            out->represents[k++] = (int8_t)t;
        }
        out->value = S->pre[rec->hi + 1] - S->pre[rec->lo];
    }
    out->n_cards = k;
}

/* The recorded best melds built into melds[], their total value in *value;
 * returns the cards of hand they leave. */
static rk_multi_hand best_melds(const search *S, rk_multi_hand hand, rk_multi_meld *melds, int *value) {
    *value = 0;
    for (int i = 0; i < S->best_n; i++) {
        rk_multi_meld *m = &melds[i];
        build_meld(S, &S->best_stack[i], m);
        *value += m->value;
        hand.jokers -= m->n_jokers;
        for (int k = 0; k < m->n_cards; k++) {
            if (m->cards[k] == RK_JOKER) continue;
            rk_mask b = (rk_mask)1 << m->cards[k];
            if (hand.two & b)
                hand.two &= ~b;
            else
                hand.one &= ~b;
        }
    }
    return hand;
}

rk_status rk_multi_best(const rk_multi_rules *rules, rk_multi_hand hand, rk_multi_objective objective,
                        int include, rk_multi_arrangement *out) {
    rk_status st = check_args(rules, hand);
    if (st != RK_OK) return st;
    if (!out || (objective != RK_MULTI_PENALTY && objective != RK_MULTI_VALUE)) return RK_ERR_ARG;
    if (include != -1) {
        if (include < 0 || include > RK_JOKER) return RK_ERR_ARG;
        if (include == RK_JOKER ? hand.jokers == 0 : !((hand.one >> include) & 1u)) return RK_ERR_ARG;
    }
    search S;
    search_init(&S, rules, hand, (int)objective, include, 1);
    dfs(&S, hand.one, hand.two, hand.jokers, 0, initial_rems(&S, hand), include < 0);
    if (S.best < 0) return RK_ERR_NO_MELD;
    out->n_melds = S.best_n;
    out->left = best_melds(&S, hand, out->melds, &out->value);
    out->penalty = hand_penalty(rules, out->left.one, out->left.two, out->left.jokers);
    return RK_OK;
}

/* Whether some collection of disjoint melds (melding a copy of include,
 * unless it is -1) is worth need or more: the value search with its bound
 * raised to need, stopped at the first such collection; *left (if not NULL)
 * receives the cards that collection leaves.  The hand and include are the
 * caller's to check (rk_multi_best's rules). */
int rk__multi_reaches(const rk_multi_rules *rules, rk_multi_hand hand, int include, int need, rk_multi_hand *left) {
    search S;
    rk_multi_meld melds[RK_MULTI_MAX_MELDS];
    int value;
    if (need >= RK__W) return 0; /* more than any hand's melds are worth */
    search_init(&S, rules, hand, RK_MULTI_VALUE, include, left != NULL);
    S.best = (need > 0 ? need : 0) * RK__W - 1; /* a weight above it is a value of need or more (saved < RK__W) */
    S.first = 1;
    dfs(&S, hand.one, hand.two, hand.jokers, 0, initial_rems(&S, hand), include < 0);
    if (S.first >= 0) return 0;
    if (left) *left = best_melds(&S, hand, melds, &value);
    return 1;
}

int rk_multi_penalty(const rk_multi_rules *rules, rk_multi_hand hand) {
    rk_status st = check_args(rules, hand);
    if (st != RK_OK) return st;
    search S;
    search_init(&S, rules, hand, RK_MULTI_PENALTY, -1, 0);
    dfs(&S, hand.one, hand.two, hand.jokers, 0, initial_rems(&S, hand), 1);
    return hand_penalty(rules, hand.one, hand.two, hand.jokers) - S.best / RK__W;
}

rk_status rk_multi_penalty_batch(const rk_multi_rules *rules, const uint8_t *counts, size_t n, int32_t *out,
                                 size_t *bad_index) {
    if (!rules || (n && (!counts || !out))) return RK_ERR_ARG;
    for (size_t i = 0; i < n; i++) {
        rk_multi_hand h;
        if (rk_multi_hand_from_counts(counts + i * RK_NUM_TYPES, &h) != RK_OK) {
            if (bad_index) *bad_index = i;
            return RK_ERR_BAD_MASK;
        }
        out[i] = rk_multi_penalty(rules, h);
    }
    return RK_OK;
}
