/* Exact arrangements by dynamic programming over rank slots.
 *
 * Slots 0..13 are A(low), 2, ..., K, A(high).  Each ace sits in exactly one
 * slot: the high slot only when it ends a run there (Q-K-A), which makes
 * every canonical arrangement correspond to exactly one path.  The state
 * between slots is, per suit, the length of the run in progress (0, 1, 2
 * or "3 or more"); a run of 1 or 2 must continue.  A forward pass finds the
 * reachable states and the least cost to reach them, a backward pass the
 * least cost to finish, and a depth-first walk lists the arrangements
 * within a deadwood bound in a fixed order. */
#include "internal.h"

#include <string.h>

#define SLOTS 14
#define STATES 256

typedef struct plan {
    const rk_rules *rules;
    rk_mask hand;
    unsigned present[SLOTS]; /* suits holding a card in each slot */
    int value[SLOTS];
} plan;

typedef struct move {
    uint8_t run, set, next;
    int cost;
} move;

typedef int32_t cost_table[SLOTS + 1][STATES];

static unsigned run_len(unsigned st, int s) { return (st >> (2 * s)) & 3u; }

/* suits whose run in progress may stop here (none, or 3+ cards) */
static unsigned closable(unsigned st) {
    unsigned c = 0;
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        unsigned l = run_len(st, s);
        if (l == 0 || l == 3) c |= 1u << s;
    }
    return c;
}

static void plan_init(plan *pl, const rk_rules *rules, rk_mask hand, unsigned high_aces) {
    rk_lanes l = rk__split(hand);
    pl->rules = rules;
    pl->hand = hand;
    unsigned aces = 0;
    for (int s = 0; s < RK_NUM_SUITS; s++)
        if (l.s[s] & 1u) aces |= 1u << s;
    pl->present[0] = aces & ~high_aces;
    pl->present[13] = high_aces;
    for (int slot = 1; slot <= 12; slot++) {
        unsigned m = 0;
        for (int s = 0; s < RK_NUM_SUITS; s++)
            if ((l.s[s] >> slot) & 1u) m |= 1u << s;
        pl->present[slot] = m;
    }
    for (int slot = 0; slot < SLOTS; slot++) pl->value[slot] = rules->values[slot % RK_NUM_RANKS];
}

/* The legal moves at a slot from a state, in preference order: sets before
 * runs, longer runs before shorter, deadwood last. */
static int moves_at(const plan *pl, int slot, unsigned st, move out[32]) {
    unsigned m = pl->present[slot];
    unsigned must_run = 0xFu & ~closable(st);
    if (must_run & ~m) return 0;
    unsigned sets[6];
    int n_sets = 0;
    if (slot != 13) {
        int c = rk__suit_count(m);
        if (c >= 3) sets[n_sets++] = m;
        if (c == 4)
            for (int s = 0; s < RK_NUM_SUITS; s++) sets[n_sets++] = m & ~(1u << s);
    }
    sets[n_sets++] = 0;
    int n = 0;
    int runs_allowed = !(slot == 0 && pl->rules->aces == RK_ACES_HIGH);
    for (int i = 0; i < n_sets; i++) {
        unsigned rest = m & ~sets[i];
        for (unsigned r = rest;; r = (r - 1) & rest) {
            int ok = (must_run & ~r) == 0 && (runs_allowed || r == 0) && (slot != 13 || r == m);
            if (ok) {
                unsigned next = 0;
                for (int s = 0; s < RK_NUM_SUITS; s++) {
                    if (!((r >> s) & 1u)) continue;
                    unsigned l = run_len(st, s);
                    next |= (l == 3 ? 3u : l + 1) << (2 * s);
                }
                out[n].run = (uint8_t)r;
                out[n].set = (uint8_t)sets[i];
                out[n].next = (uint8_t)next;
                out[n].cost = rk__suit_count(rest & ~r) * pl->value[slot];
                n++;
            }
            if (r == 0) break;
        }
    }
    return n;
}

static int32_t min_i32(int32_t a, int32_t b) { return a < b ? a : b; }

#define MOVE_POOL 1024
#define UNCACHED 0xFFu

/* The states reached at each slot, as lists (typically a handful), and the
 * moves of each, listed once by the forward pass for the backward pass and
 * the walk (moves_at again only for what the pool could not hold). */
typedef struct reach {
    int n[SLOTS + 1];
    uint8_t state[SLOTS + 1][STATES];
    uint16_t first[SLOTS][STATES]; /* set for the reached states only */
    uint8_t count[SLOTS][STATES];  /* UNCACHED when the pool was full */
    int used;
    move pool[MOVE_POOL];
} reach;

/* The moves at (slot, st) of a reached state: the cached list, or tmp filled. */
static const move *moves_of(const plan *pl, const reach *R, int slot, unsigned st, move tmp[32], int *n) {
    if (R->count[slot][st] != UNCACHED) {
        *n = R->count[slot][st];
        return R->pool + R->first[slot][st];
    }
    *n = moves_at(pl, slot, st, tmp);
    return tmp;
}

/* Forward pass: F[slot][state] = least cost to reach it (valid only for
 * listed states).  Returns the least total cost (RK_INF if none). */
static int32_t forward(const plan *pl, cost_table F, reach *R) {
    uint64_t seen[4];
    move spare[32];
    R->n[0] = 1;
    R->state[0][0] = 0;
    R->used = 0;
    F[0][0] = 0;
    for (int slot = 0; slot < SLOTS; slot++) {
        memset(seen, 0, sizeof seen);
        R->n[slot + 1] = 0;
        for (int i = 0; i < R->n[slot]; i++) {
            unsigned st = R->state[slot][i];
            int room = R->used + 32 <= MOVE_POOL;
            move *mv = room ? R->pool + R->used : spare;
            int n = moves_at(pl, slot, st, mv);
            R->count[slot][st] = room ? (uint8_t)n : UNCACHED;
            R->first[slot][st] = (uint16_t)R->used;
            if (room) R->used += n;
            for (int k = 0; k < n; k++) {
                unsigned next = mv[k].next;
                int32_t c = F[slot][st] + mv[k].cost;
                if (!((seen[next >> 6] >> (next & 63)) & 1u)) {
                    seen[next >> 6] |= (uint64_t)1 << (next & 63);
                    R->state[slot + 1][R->n[slot + 1]++] = (uint8_t)next;
                    F[slot + 1][next] = c;
                } else {
                    F[slot + 1][next] = min_i32(F[slot + 1][next], c);
                }
            }
        }
    }
    int32_t best = RK_INF;
    for (int i = 0; i < R->n[SLOTS]; i++) {
        unsigned st = R->state[SLOTS][i];
        if (closable(st) == 0xFu) best = min_i32(best, F[SLOTS][st]);
    }
    return best;
}

/* Backward pass over the reached states: V[slot][state] = least cost to
 * finish from there. */
static void backward(const plan *pl, const reach *R, cost_table V) {
    move tmp[32];
    for (int i = 0; i < R->n[SLOTS]; i++) {
        unsigned st = R->state[SLOTS][i];
        V[SLOTS][st] = closable(st) == 0xFu ? 0 : RK_INF;
    }
    for (int slot = SLOTS - 1; slot >= 0; slot--)
        for (int i = 0; i < R->n[slot]; i++) {
            unsigned st = R->state[slot][i];
            int32_t best = RK_INF;
            int n;
            const move *mv = moves_of(pl, R, slot, st, tmp, &n);
            for (int k = 0; k < n; k++) best = min_i32(best, mv[k].cost + V[slot + 1][mv[k].next]);
            V[slot][st] = best;
        }
}

/* Aces that may take the high slot: in ace-high or both mode, with the
 * queen and king of their suit in hand. */
static unsigned high_ace_candidates(const rk_rules *rules, rk_mask hand) {
    if (rules->aces == RK_ACES_LOW) return 0;
    rk_lanes l = rk__split(hand);
    unsigned c = 0;
    for (int s = 0; s < RK_NUM_SUITS; s++)
        if ((l.s[s] & 0x1801u) == 0x1801u) c |= 1u << s;
    return c;
}

int rk__deadwood_dp(const rk_rules *rules, rk_mask hand) {
    unsigned cand = high_ace_candidates(rules, hand);
    int32_t best = RK_INF;
    cost_table F;
    reach R;
    plan pl;
    for (unsigned hi = 0; hi < 16; hi++) {
        if (hi & ~cand) continue;
        plan_init(&pl, rules, hand, hi);
        best = min_i32(best, forward(&pl, F, &R));
    }
    return (int)best;
}

/* ---- depth-first listing -------------------------------------------- */

typedef int (*visit_fn)(void *user, const rk_arrangement *a);

typedef struct walker {
    const plan *pl;
    const reach *R;
    cost_table *V;
    int32_t bound;
    int slot_of_run_start[RK_NUM_SUITS];
    rk_mask melds[RK_MAX_MELDS];
    int n_melds;
    visit_fn visit;
    void *user;
    int stopped;
} walker;

static rk_mask slot_card(int s, int slot) { return (rk_mask)1 << (13 * s + slot % RK_NUM_RANKS); }

/* Appends the run of suit s over slots [from, to]; returns 0 if it is the
 * duplicate 2..K+A spelling of the full suit in both-aces mode. */
static int push_run(walker *w, int s, int from, int to) {
    if (w->pl->rules->aces == RK_ACES_BOTH && from == 1 && to == 13) return 0;
    rk_mask m = 0;
    for (int slot = from; slot <= to; slot++) m |= slot_card(s, slot);
    w->melds[w->n_melds++] = m;
    return 1;
}

static void emit_arrangement(walker *w, int32_t cost) {
    rk_arrangement a;
    memset(&a, 0, sizeof a);
    a.n_melds = w->n_melds;
    a.deadwood = (int)cost;
    rk_mask used = 0;
    for (int i = 0; i < w->n_melds; i++) {
        /* insertion sort by lowest card id */
        rk_mask m = w->melds[i];
        int j = i;
        while (j > 0 && rk__ctz(a.melds[j - 1]) > rk__ctz(m)) {
            a.melds[j] = a.melds[j - 1];
            j--;
        }
        a.melds[j] = m;
        used |= m;
    }
    a.deadwood_cards = w->pl->hand & ~used;
    if (w->visit(w->user, &a)) w->stopped = 1;
}

static void walk(walker *w, int slot, unsigned st, int32_t cost) {
    if (slot == SLOTS) {
        int saved = w->n_melds, ok = closable(st) == 0xFu;
        for (int s = 0; s < RK_NUM_SUITS && ok; s++)
            if (run_len(st, s) == 3) ok = push_run(w, s, w->slot_of_run_start[s], SLOTS - 1);
        if (ok) emit_arrangement(w, cost);
        w->n_melds = saved;
        return;
    }
    move tmp[32];
    int n;
    const move *mv = moves_of(w->pl, w->R, slot, st, tmp, &n);
    for (int k = 0; k < n && !w->stopped; k++) {
        int32_t c = cost + mv[k].cost;
        if (c + (*w->V)[slot + 1][mv[k].next] > w->bound) continue;
        int saved = w->n_melds, saved_start[RK_NUM_SUITS], ok = 1;
        memcpy(saved_start, w->slot_of_run_start, sizeof saved_start);
        for (int s = 0; s < RK_NUM_SUITS; s++) {
            int in_run = (mv[k].run >> s) & 1u;
            unsigned l = run_len(st, s);
            if (!in_run && l == 3) ok &= push_run(w, s, w->slot_of_run_start[s], slot - 1);
            if (in_run && l == 0) w->slot_of_run_start[s] = slot;
        }
        if (mv[k].set) {
            rk_mask m = 0;
            for (int s = 0; s < RK_NUM_SUITS; s++)
                if ((mv[k].set >> s) & 1u) m |= slot_card(s, slot);
            w->melds[w->n_melds++] = m;
        }
        if (ok) walk(w, slot + 1, mv[k].next, c);
        w->n_melds = saved;
        memcpy(w->slot_of_run_start, saved_start, sizeof saved_start);
    }
}

/* Calls visit for every canonical arrangement with deadwood <= max_deadwood
 * (every optimal one if max_deadwood < 0) until it returns nonzero. */
static rk_status visit_arrangements(const rk_rules *rules, rk_mask hand, int max_deadwood,
                                    visit_fn visit, void *user) {
    if (!rules) return RK_ERR_ARG;
    if (hand & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    int32_t bound = max_deadwood < 0 ? rk__deadwood_dp(rules, hand) : max_deadwood;
    if (bound > RK_NUM_CARDS * 255) bound = RK_NUM_CARDS * 255; /* every card as deadwood */
    unsigned cand = high_ace_candidates(rules, hand);
    cost_table F, V;
    reach R;
    plan pl;
    walker w;
    memset(&w, 0, sizeof w);
    w.pl = &pl;
    w.R = &R;
    w.V = &V;
    w.bound = bound;
    w.visit = visit;
    w.user = user;
    for (unsigned hi = 0; hi < 16 && !w.stopped; hi++) {
        if (hi & ~cand) continue;
        plan_init(&pl, rules, hand, hi);
        if (forward(&pl, F, &R) > bound) continue;
        backward(&pl, &R, V);
        walk(&w, 0, 0, 0);
    }
    return RK_OK;
}

static int take_first(void *user, const rk_arrangement *a) {
    *(rk_arrangement *)user = *a;
    return 1;
}

rk_status rk_best_arrangement(const rk_rules *rules, rk_mask hand, rk_arrangement *out) {
    if (!out) return RK_ERR_ARG;
    return visit_arrangements(rules, hand, -1, take_first, out);
}

typedef struct collector {
    rk_arrangement *out;
    size_t capacity, count;
} collector;

static int collect(void *user, const rk_arrangement *a) {
    collector *c = (collector *)user;
    if (c->count < c->capacity) c->out[c->count] = *a;
    c->count++;
    return 0;
}

rk_status rk_arrangements(const rk_rules *rules, rk_mask hand, int max_deadwood,
                          rk_arrangement *out, size_t capacity, size_t *count) {
    if (!count || (capacity && !out)) return RK_ERR_ARG;
    collector c = {out, capacity, 0};
    rk_status st = visit_arrangements(rules, hand, max_deadwood, collect, &c);
    if (st != RK_OK) return st;
    *count = c.count;
    return c.count > capacity ? RK_ERR_CAPACITY : RK_OK;
}

static int collect_at_most(void *user, const rk_arrangement *a) {
    collector *c = (collector *)user;
    if (c->count < c->capacity) c->out[c->count] = *a;
    c->count++;
    return c->count > c->capacity; /* one more than fits: stop */
}

rk_status rk_arrangements_at_most(const rk_rules *rules, rk_mask hand, int max_deadwood,
                                  rk_arrangement *out, size_t capacity, size_t *count) {
    if (!count || (capacity && !out)) return RK_ERR_ARG;
    collector c = {out, capacity, 0};
    rk_status st = visit_arrangements(rules, hand, max_deadwood, collect_at_most, &c);
    if (st != RK_OK) return st;
    *count = c.count;
    return c.count > capacity ? RK_ERR_CAPACITY : RK_OK;
}

rk_status rk__visit_arrangements(const rk_rules *rules, rk_mask hand, int max_deadwood,
                                 int (*visit)(void *user, const rk_arrangement *a), void *user) {
    return visit_arrangements(rules, hand, max_deadwood, visit, user);
}
