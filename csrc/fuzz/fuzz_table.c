/* Table games (Rummy, Kaluki): rk_table_rules_check, rk_table_deal,
 * rk_table_legal, rk_table_apply and rk_table_check on hands dealt from
 * fuzzed rules records and decks and walked by fuzz-chosen actions; on
 * hostile states (a played state with fields changed) and on ids nobody
 * listed.  Rules TableRules can express must be accepted, rules outside
 * the check's ranges refused, and wider rules the check accepts must play
 * as safely (every state before the end has a legal action).  Listed actions must apply; play
 * keeps every card in one place, lists sorted ids of the documented kinds,
 * ends the hand within max_turns turns and gives the same lists with and
 * without the memo.  Any action, listed or not, must give an error status
 * with the state unchanged, or a state that rk_table_check accepts with
 * the same cards in it. */
#include <stddef.h>

#include "fuzz_table_cards.h"

#define CAP 4096 /* table_internal.h's MAX_LEGAL: a longer list is RK_ERR_CAPACITY */
#define MAX_STEPS 600
#define NUM_ACTIONS (RK_TABLE_MELD_RUN + 4 * 14 * 14 * 8192)

static const size_t int_fields[] = {
    offsetof(rk_table_rules, kaluki),
    offsetof(rk_table_rules, num_players),
    offsetof(rk_table_rules, hand_size),
    offsetof(rk_table_rules, deck_size),
    offsetof(rk_table_rules, npos),
    offsetof(rk_table_rules, shift),
    offsetof(rk_table_rules, wrap),
    offsetof(rk_table_rules, low_ace_one),
    offsetof(rk_table_rules, forbid_taken_discard),
    offsetof(rk_table_rules, restock_method),
    offsetof(rk_table_rules, max_restocks),
    offsetof(rk_table_rules, max_turns),
    offsetof(rk_table_rules, go_out_requires_discard),
    offsetof(rk_table_rules, no_go_out_first_turn),
    offsetof(rk_table_rules, max_melds_per_turn),
    offsetof(rk_table_rules, taken_discard_must_be_melded),
    offsetof(rk_table_rules, initial_meld_min),
    offsetof(rk_table_rules, building_counts_toward_opening),
    offsetof(rk_table_rules, unopened_discard_draw),
    offsetof(rk_table_rules, first_turn_upcard_free),
    offsetof(rk_table_rules, ace_low_runs),
    offsetof(rk_table_rules, joker_penalty),
    offsetof(rk_table_rules, two_joker_release_one_natural),
    offsetof(rk_table_rules, max_build_per_run_end),
    offsetof(rk_table_rules, unopened_may_release_joker),
    offsetof(rk_table_rules, hunt_allows_building),
    offsetof(rk_table_rules, hunt_requires_opening_min),
    offsetof(rk_table_rules, joker_discard_allowed),
};
#define N_INT_FIELDS (sizeof int_fields / sizeof int_fields[0])

static const int32_t edge_ints[] = {INT32_MIN, -1000, -2, -1, 0, 1, 2, 3, 12, 13, 14, 15, 51, 52, 53,
                                    104, 105, 106, 107, 108, 255, 256, 1000000, INT32_MAX / 6 + 1, INT32_MAX};

static int32_t rd_int(reader *r) {
    uint8_t sel = rd_u8(r);
    if (sel < 200) return edge_ints[sel % (sizeof edge_ints / sizeof edge_ints[0])];
    return (int32_t)rd_u32(r);
}

static int max_turns_of(uint8_t b) { return b >= 250 ? -1 : b >= 230 ? 1000 : b % 40; }

/* Kaluki / Rummy card values by rank: ace, 2-9, 10-K. */
static void set_values(rk_table_rules *r, int ace, int joker) {
    for (int t = 0; t < 52; t++) {
        int rank = t % 13;
        r->values[t] = (uint8_t)(rank == 0 ? ace : rank < 9 ? rank + 1 : 10);
    }
    r->values[RK_JOKER] = (uint8_t)joker;
}

/* A rules record as rummykit.table.state.table_spec() fills it from
 * TableRules and melds.geometry(). */
static void python_rules(reader *rd, rk_table_rules *r) {
    uint8_t f = rd_u8(rd), g = rd_u8(rd), h = rd_u8(rd), players = rd_u8(rd);
    memset(r, 0, sizeof *r);
    int kaluki = f & 1;
    r->kaluki = kaluki;
    r->num_players = 2 + players % (kaluki ? 4 : 5);
    int n = r->num_players;
    r->hand_size = kaluki ? 13 : n == 2 ? 10 : n <= 4 ? 7 : 6;
    r->deck_size = kaluki ? 104 + ((f >> 1 & 1) ? 4 : 2) : 52;
    r->forbid_taken_discard = f >> 2 & 1;
    r->restock_method = kaluki ? 0 : g % 3;
    r->max_restocks = (int)(g >> 2 & 3) - 1;
    r->max_turns = max_turns_of(rd_u8(rd));
    r->go_out_requires_discard = (f >> 3 & 1) ^ kaluki; /* Kaluki's default is True */
    /* the options of the other game keep their TableRules defaults */
    r->max_melds_per_turn = -1;
    r->initial_meld_min = 40;
    r->joker_penalty = 15;
    r->max_build_per_run_end = 2;
    r->hunt_allows_building = 1;
    r->hunt_requires_opening_min = 1;
    r->joker_discard_allowed = 1;
    if (!kaluki) {
        static const int ace_values[3] = {1, 11, 15};
        int ace_rank = h % 3; /* low, high, high_or_low */
        r->wrap = h >> 2 & 1;
        r->npos = ace_rank == 2 && !r->wrap ? 14 : 13;
        r->shift = ace_rank == 1 && !r->wrap ? 1 : 0;
        set_values(r, ace_values[(h >> 3) % 3], 0);
        r->no_go_out_first_turn = f >> 4 & 1;
        r->max_melds_per_turn = (f >> 5 & 1) ? 1 : -1;
        r->taken_discard_must_be_melded = f >> 6 & 1;
        return;
    }
    r->initial_meld_min = (f >> 4 & 1) ? 51 : 40;
    r->building_counts_toward_opening = f >> 5 & 1;
    r->unopened_discard_draw = h % 3;
    r->first_turn_upcard_free = f >> 6 & 1;
    r->ace_low_runs = f >> 7 & 1;
    r->joker_penalty = (h >> 2 & 1) ? 25 : 15;
    r->two_joker_release_one_natural = h >> 3 & 1;
    r->max_build_per_run_end = (h >> 4 & 1) ? -1 : 2;
    r->unopened_may_release_joker = h >> 5 & 1;
    r->hunt_allows_building = !(h >> 6 & 1);
    r->hunt_requires_opening_min = !(h >> 7 & 1);
    r->joker_discard_allowed = !(g >> 4 & 1);
    r->npos = r->ace_low_runs ? 14 : 13;
    r->shift = r->ace_low_runs ? 0 : 1;
    r->low_ace_one = r->ace_low_runs;
    set_values(r, 11, r->joker_penalty);
}

/* Rules TableRules cannot express that rk_table_rules_check may accept:
 * other hand sizes, limits, minimums and restock methods, any of the four
 * geometries and other card values (refused in Kaluki, as are Rummy's own
 * options). */
static void widen_rules(reader *rd, rk_table_rules *r) {
    uint8_t f = rd_u8(rd), geo = rd_u8(rd);
    if (f & 1) { /* Kaluki hands stay near the 13 dealt (see the end of LLVMFuzzerTestOneInput) */
        int most = (r->deck_size - 1) / r->num_players;
        r->hand_size = 1 + rd_u8(rd) % (r->kaluki && most > 16 ? 16 : most);
    }
    if (f & 2) {
        r->wrap = geo % 4 == 3;
        r->npos = geo % 4 == 2 ? 14 : 13;
        r->shift = geo % 4 == 1;
        r->low_ace_one = r->npos == 14 && (geo >> 2 & 1);
    }
    if (f & 4) r->max_melds_per_turn = rd_u8(rd) % 5 - 1;
    if (f & 8) r->max_build_per_run_end = rd_u8(rd) % 5 - 1;
    if (f & 16) r->initial_meld_min = rd_u8(rd);
    if (f & 32) r->values[RK_JOKER] = (uint8_t)(r->joker_penalty = rd_u8(rd)); /* as Kaluki's values need */
    if (f & 64)
        for (int t = 0; t < RK_NUM_TYPES; t++) r->values[t] = rd_u8(rd);
    if (f & 128) {
        r->restock_method = geo >> 4 & 3 ? (geo >> 4 & 3) - 1 : 0;
        r->max_restocks = rd_u8(rd) % 6 - 1;
    }
}

/* What rk_table_rules_check must refuse (table.h and TableRules' ranges). */
static int must_reject(const rk_table_rules *r) {
    if (r->kaluki != 0 && r->kaluki != 1) return 1;
    if (r->num_players < 2 || r->num_players > (r->kaluki ? 5 : 6)) return 1;
    if (r->kaluki ? r->deck_size != 106 && r->deck_size != 108 : r->deck_size != 52) return 1;
    if (r->hand_size < 1 || (int64_t)r->hand_size * r->num_players + 1 > r->deck_size) return 1;
    if (r->kaluki && r->hand_size >= RK_TABLE_MAX_KALUKI_HAND) return 1;
    int geo_ok = r->wrap ? r->npos == 13 && r->shift == 0
                         : (r->npos == 13 && (r->shift == 0 || r->shift == 1)) || (r->npos == 14 && r->shift == 0);
    if (!geo_ok || (r->low_ace_one && (r->npos != 14 || r->wrap))) return 1;
    if (r->restock_method < 0 || r->restock_method > 2 || r->max_restocks < -1 || r->max_turns < -1) return 1;
    if (r->max_melds_per_turn < -1 || r->max_build_per_run_end < -1) return 1;
    if (r->unopened_discard_draw < 0 || r->unopened_discard_draw > 2) return 1;
    if (r->joker_penalty < 0 || r->joker_penalty > 255 || r->initial_meld_min < 0 || r->initial_meld_min > 255) return 1;
    const int flags[] = {r->wrap, r->low_ace_one, r->forbid_taken_discard, r->go_out_requires_discard,
                         r->no_go_out_first_turn, r->taken_discard_must_be_melded, r->building_counts_toward_opening,
                         r->first_turn_upcard_free, r->ace_low_runs, r->two_joker_release_one_natural,
                         r->unopened_may_release_joker, r->hunt_allows_building, r->hunt_requires_opening_min,
                         r->joker_discard_allowed};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i] != 0 && flags[i] != 1) return 1;
    if (!r->kaluki) return 0;
    if (r->max_melds_per_turn != -1 || r->no_go_out_first_turn || r->taken_discard_must_be_melded) return 1;
    /* Kaluki: the geometry and values python_rules derives from ace_low_runs and joker_penalty */
    int low = r->ace_low_runs;
    rk_table_rules k;
    set_values(&k, 11, r->joker_penalty);
    return r->npos != (low ? 14 : 13) || r->shift != !low || r->wrap || r->low_ace_one != low ||
           memcmp(k.values, r->values, sizeof k.values) != 0;
}

/* ---- cards ------------------------------------------------------------ */

/* Every physical card 0..deck_size-1 in exactly one place (rk_table_check
 * allows cards to be missing). */
static int cards_in_place(const rk_table_rules *r, const rk_table_state *s) {
    int n = s->n_stock + s->n_discards;
    for (int p = 0; p < s->n_players; p++) n += count(s->hands[p]);
    for (int i = 0; i < s->n_table; i++) n += s->table[i].n_cards;
    rk_table_cards c = all_cards(s);
    return n == r->deck_size && count(c) == n;
}

/* ---- legal lists -------------------------------------------------------- */

/* An id of a kind the state can list (actions.py's table), its slot on the table. */
static int id_ok(const rk_table_rules *r, const rk_table_state *s, int32_t a) {
    if (s->phase == RK_TABLE_PHASE_DRAW) return a == RK_TABLE_DRAW || a == RK_TABLE_TAKE;
    if (a < 0) return 0;
    if (a <= RK_JOKER) return 1;
    if (a < RK_TABLE_LAYOFF) return 0;
    if (a < RK_TABLE_RELEASE_RUN) {
        int x = a - RK_TABLE_LAYOFF, slot = x / 106, end = x & 1;
        return slot < s->n_table && (s->table[slot].kind == RK_MELD_RUN || end == 0);
    }
    if (a < RK_TABLE_RELEASE_SET) {
        int slot = (a - RK_TABLE_RELEASE_RUN) / 52;
        return r->kaluki && slot < s->n_table && s->table[slot].kind == RK_MELD_RUN;
    }
    if (a < RK_TABLE_MELD_SET) {
        int slot = (a - RK_TABLE_RELEASE_SET) / 16;
        return r->kaluki && slot < s->n_table && s->table[slot].kind == RK_MELD_SET && (a - RK_TABLE_RELEASE_SET) % 16;
    }
    if (a < RK_TABLE_MELD_RUN) {
        int x = a - RK_TABLE_MELD_SET, jokers = x % 4, suits = x / 4 % 16, rank = x / 64;
        int k = rk__suit_count((unsigned)suits);
        return rank < 13 && suits && k + jokers >= 3 && k + jokers <= 4 && (r->kaluki || !jokers);
    }
    if (a >= NUM_ACTIONS) return 0;
    int x = a - RK_TABLE_MELD_RUN, mask = x % 8192;
    x /= 8192;
    int length = x % 14, start = x / 14 % 14, suit = x / 196;
    if (length < 3 || length > 13 || mask >> length || mask == (1 << length) - 1 || (!r->kaluki && mask)) return 0;
    return suit < 4 && (r->wrap ? start < 13 : start + length <= r->npos);
}

/* The list's own invariants: sorted, distinct, of the documented kinds. */
static void check_list(const rk_table_rules *r, const rk_table_state *s, const int32_t *ids, int n) {
    FUZZ_CHECK(n >= 0 && n <= CAP);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(id_ok(r, s, ids[i]));
        if (i) FUZZ_CHECK(ids[i - 1] < ids[i]);
    }
    if (s->phase == RK_TABLE_PHASE_DRAW) FUZZ_CHECK(n >= 1 && ids[0] == RK_TABLE_DRAW);
    if (n && ids[0] <= RK_JOKER) FUZZ_CHECK(s->pending == 0 && s->must < 0); /* a discard ends the turn */
    if (s->phase == RK_TABLE_PHASE_END) FUZZ_CHECK(n == 0);
}

typedef struct game {
    const rk_table_rules *r;
    rk_table_memo *memo;
    int cross_check; /* compare lists with the memo-less one (slow: no memo) */
    int lists;
    int32_t ids[CAP], other[CAP];
} game;

/* rk_table_legal into g->ids; every fourth list, the capacity and memo checks. */
static int legal(game *g, const rk_table_state *s, reader *rd) {
    int n = rk_table_legal(g->r, s, g->memo, g->ids, CAP);
    if (n == RK_ERR_CAPACITY) return n;
    FUZZ_CHECK(n >= 0);
    if (g->lists++ % 4) return n;
    FUZZ_CHECK(rk_table_legal(g->r, s, g->memo, NULL, 0) == n);
    int cap = n ? rd_u8(rd) % n : 0; /* a short buffer gets the first cap ids */
    FUZZ_CHECK(rk_table_legal(g->r, s, g->memo, g->other, cap) == n);
    FUZZ_CHECK(!memcmp(g->other, g->ids, (size_t)cap * sizeof(int32_t)));
    if (g->cross_check) {
        FUZZ_CHECK(rk_table_legal(g->r, s, NULL, g->other, CAP) == n);
        FUZZ_CHECK(!memcmp(g->other, g->ids, (size_t)n * sizeof(int32_t)));
    }
    return n;
}

static int listed(const int32_t *ids, int n, int32_t a) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (ids[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ids[lo] == a;
}

/* An id from the input: near a listed one, of some kind's range, or any int. */
static int32_t random_id(reader *rd, const int32_t *ids, int n) {
    uint8_t how = rd_u8(rd);
    switch (how % 4) {
    case 0:
        return n ? ids[rd_u8(rd) % n] + (int8_t)rd_u8(rd) : (int8_t)rd_u8(rd);
    case 1:
        return (int32_t)(rd_u32(rd) % (RK_TABLE_MELD_RUN + 64)); /* the dense ids */
    case 2:
        return (int32_t)(rd_u32(rd) % (NUM_ACTIONS + 8192)) - 64;
    default:
        return rd_int(rd);
    }
}

/* Applies a to a copy of s: an error leaves it as it was; success keeps
 * the same cards in a state rk_table_check accepts, even for an id nobody
 * listed (table.h leaves listing to the caller, but a state the check
 * refuses could not be used again).  Returns the status, the result in
 * *out. */
static rk_status try_apply(game *g, const rk_table_state *s, int32_t a, rk_table_state *out) {
    *out = *s;
    rk_status st = rk_table_apply(g->r, out, g->memo, a);
    if (st != RK_OK) {
        FUZZ_CHECK(st == RK_ERR_ARG && !memcmp(out, s, sizeof *s));
        return st;
    }
    FUZZ_CHECK(rk_table_check(g->r, out) == RK_OK && same_cards(all_cards(out), all_cards(s)));
    return st;
}

/* ---- play --------------------------------------------------------------- */

static void check_end(const rk_table_rules *r, const rk_table_state *s, int32_t last) {
    if (s->phase != RK_TABLE_PHASE_END) {
        FUZZ_CHECK(s->outcome == RK_TABLE_NOT_OVER && s->winner == -1);
        return;
    }
    int o = s->outcome;
    FUZZ_CHECK(o >= RK_TABLE_DEAD && o <= RK_TABLE_CALL_OFF);
    if (o < RK_TABLE_RUMMY) {
        FUZZ_CHECK(s->winner == -1);
        if (o == RK_TABLE_BLOCKED) FUZZ_CHECK(r->restock_method == 2 && s->n_stock == 0);
        if (o == RK_TABLE_DEAD) FUZZ_CHECK((r->max_turns >= 0 && s->turns >= r->max_turns) || s->n_stock == 0);
        return;
    }
    FUZZ_CHECK(r->kaluki ? o >= RK_TABLE_HUNT : o <= RK_TABLE_OUT);
    FUZZ_CHECK(s->winner == s->player && count(s->hands[s->winner]) == 0);
    if (r->go_out_requires_discard) FUZZ_CHECK(last <= RK_JOKER);
    if (r->no_go_out_first_turn) FUZZ_CHECK(s->turns >= s->n_players);
}

/* Where a walk is: the bookkeeping of the turn in progress. */
typedef struct trail {
    int hostile;    /* not a dealt-and-played state: only each call's contract is checked */
    int turn_steps; /* steps since the turn's draw */
    int turn_cards; /* cards held at the turn's draw */
    int32_t last;   /* the last action applied */
} trail;

/* Walks s by input-chosen listed actions (now and then an id from
 * random_id, applied to a copy and adopted if it applied), at most
 * max_steps of them.  Returns how many it took. */
static int walk(game *g, rk_table_state *s, trail *t, reader *rd, int max_steps) {
    const rk_table_rules *r = g->r;
    int steps = 0;
    for (; steps < max_steps; steps++) {
        FUZZ_CHECK(rk_table_check(r, s) == RK_OK);
        if (!t->hostile) {
            FUZZ_CHECK(cards_in_place(r, s));
            check_end(r, s, t->last);
            /* next_turn counts the turn, then ends the hand at max_turns */
            if (r->max_turns >= 0) FUZZ_CHECK(s->turns <= (r->max_turns > 1 ? r->max_turns : 1));
        }
        int n = legal(g, s, rd);
        if (n == RK_ERR_CAPACITY) {
            FUZZ_CHECK(t->hostile);
            return steps;
        }
        check_list(r, s, g->ids, n);
        if (!t->hostile) FUZZ_CHECK(n > 0 || s->phase == RK_TABLE_PHASE_END);
        if (n && !t->hostile) FUZZ_CHECK(s->phase != RK_TABLE_PHASE_END);
        if (n == 0) return steps;
        uint8_t b = rd_u8(rd);
        int32_t a = b < 240 ? g->ids[b % n] : random_id(rd, g->ids, n);
        int is_listed = b < 240 || listed(g->ids, n, a);
        int player = s->player, pending = s->pending, hand = count(s->hands[player]), turns = s->turns;
        int top = s->n_discards ? s->discards[s->n_discards - 1] : -1;
        rk_table_state next;
        rk_status st = try_apply(g, s, a, &next);
        if (!is_listed) { /* adopted now and then: the walk goes on from a state nobody listed */
            if (st == RK_OK && (b & 1)) {
                *s = next;
                t->hostile = 1;
                t->last = a;
            }
            continue;
        }
        if (st != RK_OK) { /* a listed action may fail only on a hostile state */
            FUZZ_CHECK(t->hostile);
            return steps;
        }
        if (s->phase == RK_TABLE_PHASE_DRAW) {
            t->turn_steps = 0;
            t->turn_cards = hand;
        }
        *s = next;
        t->last = a;
        if (t->hostile) continue;
        /* a turn: the draw, at most two steps per card held (a release and the joker's placement), the discard */
        FUZZ_CHECK(++t->turn_steps <= 2 + 2 * (t->turn_cards + 1));
        if (a == RK_TABLE_TAKE) {
            FUZZ_CHECK(has(&s->hands[player], top) && has(&s->known[player], top));
            FUZZ_CHECK(s->phase == RK_TABLE_PHASE_PLAY && s->taken == (top >= 104 ? RK_JOKER : top % 52) &&
                       s->taken_card == top);
        } else if (a == RK_TABLE_DRAW) {
            FUZZ_CHECK(s->phase == RK_TABLE_PHASE_END ? s->outcome == RK_TABLE_DEAD
                                                      : s->phase == RK_TABLE_PHASE_PLAY &&
                                                            count(s->hands[player]) == hand + 1);
        } else if (a >= RK_TABLE_RELEASE_RUN && a < RK_TABLE_MELD_SET) {
            /* naturals for jokers: one for one from a run, k for k - 1 (or one) from a set */
            FUZZ_CHECK(s->pending > pending && count(s->hands[player]) <= hand);
        } else {
            FUZZ_CHECK(count(s->hands[player]) < hand);
        }
        if (s->phase != RK_TABLE_PHASE_PLAY || s->player != player) FUZZ_CHECK(s->pending == 0);
        if (s->phase == RK_TABLE_PHASE_DRAW) FUZZ_CHECK(a <= RK_JOKER && s->player == (player + 1) % s->n_players);
        /* a discard ends the turn (and the hand, at max_turns or a blocked stock) unless it went out */
        FUZZ_CHECK(s->turns == turns + (a <= RK_JOKER && s->winner < 0));
    }
    return steps;
}

/* ---- hostile states ----------------------------------------------------- */

/* A card's place, for moves: 0..5 a hand, 6 stock, 7 discards, 8 the table. */
static int take_card(rk_table_state *s, int from, uint8_t pick) {
    if (from < s->n_players) {
        rk_table_cards h = s->hands[from];
        int n = count(h);
        if (!n) return -1;
        for (int k = pick % n; k; k--) h.w[h.w[0] ? 0 : 1] &= h.w[h.w[0] ? 0 : 1] - 1;
        int c = h.w[0] ? rk__ctz(h.w[0]) : 64 + rk__ctz(h.w[1]);
        drop(&s->hands[from], c);
        drop(&s->known[from], c);
        return c;
    }
    if (from == 6) return s->n_stock ? s->stock[--s->n_stock] : -1;
    if (from == 7) return s->n_discards ? s->discards[--s->n_discards] : -1;
    return -1;
}

static void give_card(rk_table_state *s, int to, int c, int known) {
    if (to < s->n_players) {
        put(&s->hands[to], c);
        if (known) put(&s->known[to], c);
    } else if (to == 6) {
        s->stock[s->n_stock++] = (uint8_t)c;
    } else {
        s->discards[s->n_discards++] = (uint8_t)c;
    }
}

/* Changes a few fields of a played state: whatever a caller of the C API
 * (or a Python user setting TableState fields) could write. */
static void mutate(reader *rd, rk_table_state *s) {
    int k = 1 + rd_u8(rd) % 4, n_pokes = 0;
    size_t poke_at[4];
    uint8_t poke[4];
    for (int i = 0; i < k; i++) {
        uint8_t op = rd_u8(rd), v = rd_u8(rd);
        switch (op % 14) {
        case 0: /* any byte, written last (the moves below need the counts in range) */
            poke_at[n_pokes] = (v | (size_t)rd_u8(rd) << 8) % sizeof *s;
            poke[n_pokes++] = rd_u8(rd);
            break;
        case 1:
            s->turns = rd_int(rd);
            break;
        case 2:
            s->restocks = rd_int(rd);
            break;
        case 3:
            s->pending = (int8_t)(v % 70); /* the check allows up to 64 */
            s->must = (int8_t)(rd_u8(rd) % 55 - 1);
            s->taken_card = (int8_t)(rd_u8(rd) % 109 - 1); /* the check wants taken to be its type */
            s->taken = (int8_t)(s->taken_card < 0 ? -1 : s->taken_card >= 104 ? RK_JOKER : s->taken_card % 52);
            break;
        case 4:
            s->phase = (int8_t)(v % 3);
            s->player = (int8_t)(rd_u8(rd) % s->n_players);
            break;
        case 5:
            s->opened = (uint8_t)(v & ((1u << s->n_players) - 1));
            s->played = (uint8_t)(rd_u8(rd) & ((1u << s->n_players) - 1));
            break;
        case 6: { /* a card from one place to another (keeps them all) */
            int from = rd_u8(rd) % 8, to = rd_u8(rd) % 8;
            int c = take_card(s, from == 6 || from == 7 ? from : from % s->n_players, v);
            if (c >= 0) give_card(s, to == 6 || to == 7 ? to : to % s->n_players, c, rd_u8(rd) & 1);
            break;
        }
        case 7: /* a card lost */
            take_card(s, v % 8 == 6 || v % 8 == 7 ? v % 8 : v % s->n_players, rd_u8(rd));
            break;
        case 8: /* swap a table card with a held one: a joker for a natural, the other copy of a type, ... */
            if (s->n_table) {
                rk_table_meld *m = &s->table[v % s->n_table];
                int p = rd_u8(rd) % s->n_players, c = take_card(s, p, rd_u8(rd));
                if (c >= 0) {
                    int at = rd_u8(rd) % m->n_cards;
                    give_card(s, p, m->cards[at], 0);
                    m->cards[at] = (uint8_t)c;
                }
            }
            break;
        case 9:
            s->n_ends = (int16_t)(v % (RK_TABLE_MAX_SLOTS + 1));
            s->ends[rd_u8(rd) % RK_TABLE_MAX_SLOTS] = rd_u8(rd);
            break;
        case 10:
            s->open_value = (int16_t)(v | rd_u8(rd) << 8);
            s->turn_melds = (int16_t)(rd_u8(rd) | rd_u8(rd) << 8);
            break;
        case 11:
            s->fresh = (int8_t)(v & 1);
            s->built_other = (int8_t)(v >> 1 & 1);
            s->outcome = (int8_t)(v >> 2 & 7);
            s->winner = (int8_t)(rd_u8(rd) % 8 - 1);
            break;
        case 12: /* a table meld's owner, start or length */
            if (s->n_table) {
                rk_table_meld *m = &s->table[v % s->n_table];
                uint8_t w = rd_u8(rd);
                if (w & 1) m->owner = w >> 1;
                if (w & 2) m->start = (uint8_t)(w >> 2);
                if (w & 128) s->n_table--;
            }
            break;
        default:
            s->shuffle_seed = rd_u64(rd);
            break;
        }
    }
    for (int i = 0; i < n_pokes; i++) ((uint8_t *)s)[poke_at[i]] = poke[i];
}

/* A changed copy of s: if rk_table_check accepts it, every listed action
 * and some unlisted ids must be safe; then a short walk. */
static void hostile(game *g, const rk_table_state *base, reader *rd) {
    rk_table_state s = *base, next;
    mutate(rd, &s);
    if (rk_table_check(g->r, &s) != RK_OK) return;
    int n = rk_table_legal(g->r, &s, g->memo, g->ids, CAP);
    FUZZ_CHECK(n >= 0 || n == RK_ERR_CAPACITY);
    if (n < 0) return;
    check_list(g->r, &s, g->ids, n);
    int32_t ids[16];
    int m = n < 16 ? n : 16, first = n ? rd_u8(rd) % n : 0;
    for (int i = 0; i < m; i++) ids[i] = g->ids[(first + i) % n];
    for (int i = 0; i < m; i++) try_apply(g, &s, ids[i], &next);
    for (int i = rd_u8(rd) % 8; i > 0; i--) try_apply(g, &s, random_id(rd, ids, m), &next);
    trail t = {1, 0, 0, -1};
    walk(g, &s, &t, rd, 8);
}

/* ---- entry -------------------------------------------------------------- */

static void null_args(const rk_table_rules *r, rk_table_state *s) {
    int32_t ids[4];
    FUZZ_CHECK(rk_table_rules_check(NULL) == RK_ERR_ARG);
    FUZZ_CHECK(rk_table_check(r, NULL) == RK_ERR_ARG && rk_table_check(NULL, s) == RK_ERR_ARG);
    FUZZ_CHECK(rk_table_legal(NULL, s, NULL, ids, 4) < 0 && rk_table_legal(r, NULL, NULL, ids, 4) < 0);
    FUZZ_CHECK(rk_table_legal(r, s, NULL, ids, -1) < 0 && rk_table_legal(r, s, NULL, NULL, 4) < 0);
    FUZZ_CHECK(rk_table_apply(NULL, s, NULL, RK_TABLE_DRAW) == RK_ERR_ARG);
    FUZZ_CHECK(rk_table_apply(r, NULL, NULL, RK_TABLE_DRAW) == RK_ERR_ARG);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader rd = {data, size};
    uint8_t head = rd_u8(&rd);
    rk_table_rules r;
    python_rules(&rd, &r);
    if (head % 4 == 2) widen_rules(&rd, &r);
    if (head % 4 == 3) { /* one raw field: what the check's ranges exclude must be refused */
        int32_t v = rd_int(&rd);
        memcpy((char *)&r + int_fields[rd_u8(&rd) % N_INT_FIELDS], &v, sizeof v);
    }
    rk_status rst = rk_table_rules_check(&r);
    int wide = head % 4 >= 2; /* maybe outside TableRules: the check may refuse them */
    if (!wide) FUZZ_CHECK(rst == RK_OK);
    if (must_reject(&r)) FUZZ_CHECK(rst == RK_ERR_ARG);
    uint8_t deck[RK_TABLE_MAX_CARDS];
    int total = rst == RK_OK ? r.deck_size : RK_TABLE_MAX_CARDS;
    for (int i = 0; i < RK_TABLE_MAX_CARDS; i++) deck[i] = (uint8_t)i;
    for (int i = total - 1; i > 0; i--) {
        int j = rd_u8(&rd) % (i + 1);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    uint8_t how = rd_u8(&rd);
    int dealer = how >= 0xF0 ? (how & 1 ? -1 : r.num_players) : how % (rst == RK_OK ? r.num_players : 6);
    uint64_t seed = rd_u64(&rd);
    rk_table_state s;
    memset(&s, 0, sizeof s);
    if (rst != RK_OK) { /* refused rules are refused everywhere */
        FUZZ_CHECK(rk_table_deal(&r, deck, dealer, seed, &s) == RK_ERR_ARG && rk_table_check(&r, &s) == RK_ERR_ARG);
        return 0;
    }
    null_args(&r, &s);
    if (head & 4) { /* a bad deck: a card twice, or one outside the deck */
        uint8_t bad[RK_TABLE_MAX_CARDS];
        memcpy(bad, deck, sizeof bad);
        int i = rd_u8(&rd) % total, j = rd_u8(&rd) % total;
        bad[i] = i != j ? bad[j] : (uint8_t)(total + rd_u8(&rd) % (256 - total));
        FUZZ_CHECK(rk_table_deal(&r, bad, dealer, seed, &s) == RK_ERR_ARG);
    }
    rk_status dst = rk_table_deal(&r, deck, dealer, seed, &s);
    if (dealer < 0 || dealer >= r.num_players) {
        FUZZ_CHECK(dst == RK_ERR_ARG);
        return 0;
    }
    FUZZ_CHECK(dst == RK_OK && s.player == (dealer + 1) % r.num_players && s.n_discards == 1);
    FUZZ_CHECK(rk_table_check(&r, &s) == RK_OK && cards_in_place(&r, &s));
    /* the multi-deck searches are exponential in the hand: Kaluki hands well over the 13 dealt are only dealt */
    if (r.kaluki && r.hand_size > 16) return 0;
    static game g; /* 32 KB of lists */
    g.r = &r;
    g.memo = rk_table_memo_new();
    FUZZ_CHECK(g.memo != NULL);
    g.cross_check = head >> 3 & 1;
    g.lists = 0;
    /* the walk stops every few steps for a hostile copy of the state (head >> 4), and goes on */
    int every = head >> 4 ? (head >> 4) * 8 : MAX_STEPS, done = 0;
    trail t = {0, 0, 0, -1};
    while (done < MAX_STEPS && s.phase != RK_TABLE_PHASE_END) {
        int steps = walk(&g, &s, &t, &rd, every);
        done += steps;
        if (head >> 4 && rd.n) hostile(&g, &s, &rd);
        if (steps < every) break;
    }
    /* a hand that is still going: only without a turn limit, or with too many turns for the steps walked */
    if (!t.hostile && s.phase != RK_TABLE_PHASE_END)
        FUZZ_CHECK(r.max_turns < 0 || (int64_t)r.max_turns * (2 + 2 * (RK_TABLE_MAX_CARDS + 1)) > done);
    rk_table_memo_free(g.memo);
    return 0;
}
