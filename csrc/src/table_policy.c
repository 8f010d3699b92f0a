/* The table games' built-in policies (rummykit/table_playouts.h): greedy
 * (rummykit.agents.GreedyAgent; tests/reference/table_greedy.py is the Python
 * oracle it is checked against step by step) and random. */
#include "rummykit/table_playouts.h"

#include "internal.h"

/* rk_table_legal's own limit (MAX_LEGAL in table.c): a longer list is an error there. */
#define LEGAL_CAP 4096

static inline int is_meld(int32_t a) { return a >= RK_TABLE_MELD_SET; }
static inline int is_layoff(int32_t a) { return a >= RK_TABLE_LAYOFF && a < RK_TABLE_RELEASE_RUN; }
static inline int layoff_type(int32_t a) { return ((a - RK_TABLE_LAYOFF) % 106) >> 1; }

/* The cards a meld id puts on the table. */
static int meld_size(int32_t a) {
    if (a < RK_TABLE_MELD_RUN) {
        int x = a - RK_TABLE_MELD_SET;
        return rk__suit_count((unsigned)(x / 4 % 16)) + x % 4;
    }
    int suit, start, length, mask;
    rk_table_run_of(a, &suit, &start, &length, &mask);
    return length;
}

/* Whether meld id a puts a card of type t on the table. */
static int meld_uses(const rk_table_rules *r, int32_t a, int t) {
    if (a < RK_TABLE_MELD_RUN) {
        int x = a - RK_TABLE_MELD_SET;
        if (t == RK_JOKER) return x % 4 > 0;
        return x / 64 == t % 13 && (x / 4 % 16) >> (t / 13) & 1;
    }
    int suit, start, length, mask;
    rk_table_run_of(a, &suit, &start, &length, &mask);
    if (t == RK_JOKER) return mask != 0;
    if (t / 13 != suit) return 0;
    for (int i = 0; i < length; i++) {
        int p = r->wrap ? (start + i) % 13 : start + i;
        if (!(mask >> i & 1) && (p + r->shift) % 13 == t % 13) return 1;
    }
    return 0;
}

static inline int card_type(int c) { return c >= RK_TABLE_FIRST_JOKER ? RK_JOKER : c % 52; }

/* The natural types in the hand that pair towards a meld: another natural of the
 * same rank in another suit (Rummy: or a second copy, which one deck never has),
 * or of the same suit within two ranks, A and K adjacent (Q K A). */
static uint64_t useful_types(const rk_table_rules *r, rk_table_cards h) {
    const uint64_t types = (1ull << 52) - 1;
    uint64_t d0 = h.w[0] & types, d1 = ((h.w[0] >> 52) | (h.w[1] << 12)) & types, present = d0 | d1;
    uint64_t useful = 0;
    for (uint64_t rest = present; rest; rest &= rest - 1) {
        int t = rk__ctz(rest), rank = t % 13, suit = t / 13;
        int near = 0, same_rank = 0;
        for (int s = 0; s < 4; s++)
            if (s != suit && present >> (s * 13 + rank) & 1) same_rank = 1;
        if (!r->kaluki && d0 >> t & 1 && d1 >> t & 1) same_rank = 1;
        for (int k = rank - 2; k <= rank + 2; k++)
            if (k >= 0 && k < 13 && k != rank && present >> (suit * 13 + k) & 1) near = 1;
        if ((rank == 0 && present >> (suit * 13 + 12) & 1) || (rank == 12 && present >> (suit * 13) & 1)) near = 1;
        if (same_rank || near) useful |= 1ull << t;
    }
    return useful;
}

/* Draw phase: take iff a legal meld or lay-off after the take uses the taken type. */
static int32_t greedy_draw(const rk_table_rules *r, const rk_table_state *s, rk_table_memo *memo,
                           const int32_t *legal, int n) {
    if (n < 2 || legal[1] != RK_TABLE_TAKE) return RK_TABLE_DRAW;
    if (r->kaluki && !(s->opened >> s->player & 1)) return RK_TABLE_TAKE;
    int t = card_type(s->discards[s->n_discards - 1]);
    rk_table_state taken = *s;
    rk_status st = rk_table_apply(r, &taken, memo, RK_TABLE_TAKE);
    if (st != RK_OK) return st;
    int32_t after[LEGAL_CAP];
    int m = rk_table_legal(r, &taken, memo, after, LEGAL_CAP);
    if (m < 0) return m;
    if (m > LEGAL_CAP) return RK_ERR_CAPACITY;
    for (int i = 0; i < m; i++) {
        int32_t a = after[i];
        if ((is_meld(a) && meld_uses(r, a, t)) || (is_layoff(a) && layoff_type(a) == t)) return RK_TABLE_TAKE;
    }
    return RK_TABLE_DRAW;
}

static int32_t greedy_play(const rk_table_rules *r, const rk_table_state *s, const int32_t *legal, int n) {
    /* the meld that puts down the most cards, ties to the lowest id (the list is ascending) */
    int32_t best = -1;
    int best_size = 0;
    for (int i = n - 1; i >= 0 && is_meld(legal[i]); i--) {
        int size = meld_size(legal[i]);
        if (size >= best_size) {
            best = legal[i];
            best_size = size;
        }
    }
    if (best >= 0) return best;
    /* the natural lay-off of the highest value, then the highest type, then the lowest id */
    int best_value = -1, best_type = -1;
    for (int i = 0; i < n; i++) {
        int32_t a = legal[i];
        if (!is_layoff(a)) continue;
        int t = layoff_type(a);
        if (t == RK_JOKER) continue;
        int v = r->values[t];
        if (v > best_value || (v == best_value && t > best_type)) {
            best = a;
            best_value = v;
            best_type = t;
        }
    }
    if (best >= 0) return best;
    if (legal[0] > RK_JOKER) return legal[0]; /* only joker placements remain */
    /* the discard: not useful first, then the highest value, then the highest type */
    uint64_t useful = useful_types(r, s->hands[s->player]);
    int best_useful = 2;
    for (int i = 0; i < n && legal[i] <= RK_JOKER; i++) {
        int t = legal[i], u = t == RK_JOKER || (useful >> t & 1), v = r->values[t];
        if (u < best_useful || (u == best_useful && (v > best_value || (v == best_value && t > best_type)))) {
            best = t;
            best_useful = u;
            best_value = v;
            best_type = t;
        }
    }
    return best;
}

int32_t rk_table_greedy(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo) {
    if (!rules || !state) return RK_ERR_ARG;
    int32_t legal[LEGAL_CAP];
    int n = rk_table_legal(rules, state, memo, legal, LEGAL_CAP);
    if (n < 0) return n;
    if (n > LEGAL_CAP) return RK_ERR_CAPACITY;
    if (n == 0) return RK_ERR_EMPTY;
    if (state->phase == RK_TABLE_PHASE_DRAW) return greedy_draw(rules, state, memo, legal, n);
    return greedy_play(rules, state, legal, n);
}

int32_t rk_table_policy_action(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo,
                               int policy, rk_rng *rng) {
    if (policy == RK_TABLE_POLICY_GREEDY) return rk_table_greedy(rules, state, memo);
    if (policy != RK_TABLE_POLICY_RANDOM || !rng || !rules || !state) return RK_ERR_ARG;
    int32_t legal[LEGAL_CAP];
    int n = rk_table_legal(rules, state, memo, legal, LEGAL_CAP);
    if (n < 0) return n;
    if (n > LEGAL_CAP) return RK_ERR_CAPACITY;
    if (n == 0) return RK_ERR_EMPTY;
    return legal[rk_rng_below(rng, (uint32_t)n)];
}
