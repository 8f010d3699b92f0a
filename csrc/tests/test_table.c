/* C tests of the table-game state machine (no Python): deals, and seeded
 * random hands of Rummy (2, 4, 6 players and option variants) and Kaluki
 * (2 and 4 players) with the invariants checked at every step: every
 * physical card in exactly one place, table melds valid (rk_table_check),
 * legal lists sorted and distinct, a released joker placed before the turn
 * ends, every hand ending.  Prints the time per step (legal + apply) of
 * random 2-player Rummy and 4-player Kaluki.  The step-by-step equality
 * with the Python engine is tests/table/test_core.py. */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rummykit/table.h"
#include "check.h"
#include "table_fixtures.h"

#define MAX_IDS 8192

static int bit(const rk_table_cards *c, int card) { return (int)(c->w[card >> 6] >> (card & 63) & 1); }

/* Every card of the deck in exactly one place. */
static int cards_in_place(const rk_table_rules *r, const rk_table_state *s) {
    int count[RK_TABLE_MAX_CARDS] = {0};
    for (int p = 0; p < s->n_players; p++)
        for (int c = 0; c < 128; c++)
            if (bit(&s->hands[p], c)) {
                if (c >= r->deck_size) return 0;
                count[c]++;
            }
    for (int i = 0; i < s->n_stock; i++) count[s->stock[i]]++;
    for (int i = 0; i < s->n_discards; i++) count[s->discards[i]]++;
    for (int i = 0; i < s->n_table; i++)
        for (int k = 0; k < s->table[i].n_cards; k++) count[s->table[i].cards[k]]++;
    for (int c = 0; c < r->deck_size; c++)
        if (count[c] != 1) return 0;
    return 1;
}

typedef struct play_stats {
    long steps, hands, ends[7], releases;
} play_stats;

/* One seeded random hand with the invariants checked at every step. */
static void random_hand(const rk_table_rules *r, rk_table_memo *memo, play_stats *st) {
    uint8_t deck[RK_TABLE_MAX_CARDS];
    rk_table_state s;
    int32_t ids[MAX_IDS];
    shuffled_deck(r->deck_size, deck);
    int dealer = (int)next_below((uint32_t)r->num_players);
    CHECK(rk_table_deal(r, deck, dealer, rng_state, &s) == RK_OK);
    CHECK(s.player == (dealer + 1) % r->num_players && s.n_discards == 1);
    for (long step = 0;; step++) {
        CHECK(rk_table_check(r, &s) == RK_OK);
        CHECK(cards_in_place(r, &s));
        int n = rk_table_legal(r, &s, memo, ids, MAX_IDS);
        CHECK(n >= 0 && n <= MAX_IDS);
        if (n <= 0) {
            CHECK(s.phase == RK_TABLE_PHASE_END && s.outcome != RK_TABLE_NOT_OVER);
            st->ends[s.outcome]++;
            rk_table_result res;
            CHECK(rk_table_score(r, &s, &res) == RK_OK);
            for (int q = 0; q < r->num_players; q++) {
                CHECK(res.values[q] == rk_table_hand_value(r, s.hands[q]));
                CHECK(q != s.winner || res.values[q] == 0);
            }
            break;
        }
        CHECK(s.phase != RK_TABLE_PHASE_END);
        for (int i = 1; i < n; i++) CHECK(ids[i - 1] < ids[i]);
        if (s.phase == RK_TABLE_PHASE_DRAW) CHECK(ids[0] == RK_TABLE_DRAW && n <= 2);
        if (ids[0] <= RK_JOKER) CHECK(s.pending == 0 && s.must < 0); /* a discard ends the turn */
        if (s.pending) CHECK(n > 0);                                 /* a released joker can be placed */
        int32_t a = ids[next_below((uint32_t)n)];
        int player = s.player, pending = s.pending;
        rk_table_state before = s;
        CHECK(rk_table_apply(r, &s, memo, a) == RK_OK);
        if (a >= RK_TABLE_RELEASE_RUN && a < RK_TABLE_MELD_SET) {
            st->releases++;
            CHECK(s.pending > pending);
        }
        if (s.phase != RK_TABLE_PHASE_PLAY || s.player != player) CHECK(s.pending == 0); /* no joker kept */
        CHECK(memcmp(&before, &s, sizeof s) != 0);
        CHECK(step < 100000);
        st->steps++;
    }
    st->hands++;
}

static void play_many(const char *name, const rk_table_rules *r, int hands, uint64_t seed) {
    rk_table_memo *memo = rk_table_memo_new();
    play_stats st;
    memset(&st, 0, sizeof st);
    CHECK(memo != NULL && rk_table_rules_check(r) == RK_OK);
    rng_state = seed;
    for (int i = 0; i < hands; i++) random_hand(r, i % 2 ? memo : NULL, &st);
    printf("%-28s %4ld hands %7ld steps, ends dead %ld blocked %ld rummy %ld out %ld hunt %ld call-off %ld, "
           "releases %ld\n",
           name, st.hands, st.steps, st.ends[1], st.ends[2], st.ends[3], st.ends[4], st.ends[5], st.ends[6],
           st.releases);
    rk_table_memo_free(memo);
}

/* Mean time per step (legal + apply) of random hands. */
static double ns_per_step(const rk_table_rules *r, int hands, uint64_t seed) {
    rk_table_memo *memo = rk_table_memo_new();
    uint8_t deck[RK_TABLE_MAX_CARDS];
    int32_t ids[MAX_IDS];
    long steps = 0;
    struct timespec t0, t1;
    rng_state = seed;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int h = 0; h < hands; h++) {
        rk_table_state s;
        shuffled_deck(r->deck_size, deck);
        rk_table_deal(r, deck, h % r->num_players, (uint64_t)h, &s);
        for (;;) {
            int n = rk_table_legal(r, &s, memo, ids, MAX_IDS);
            if (n <= 0) break;
            rk_table_apply(r, &s, memo, ids[next_below((uint32_t)n)]);
            steps++;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    rk_table_memo_free(memo);
    double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    return steps ? ns / (double)steps : 0;
}

static void test_deal_and_errors(void) {
    rk_table_rules r = rummy_rules(2);
    uint8_t deck[52];
    rk_table_state s;
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    CHECK(rk_table_deal(&r, deck, 1, 7, &s) == RK_OK);
    /* one card at a time from the dealer's left: seat 0 gets cards 0, 2, 4, ... */
    CHECK(s.hands[0].w[0] == 0x55555ull && s.hands[1].w[0] == 0xAAAAAull);
    CHECK(s.discards[0] == 20 && s.n_stock == 31 && s.stock[30] == 21 && s.stock[0] == 51);
    CHECK(s.player == 0 && s.phase == RK_TABLE_PHASE_DRAW && s.fresh == 1 && s.opened == 3);
    int32_t ids[4];
    CHECK(rk_table_legal(&r, &s, NULL, ids, 4) == 2 && ids[0] == RK_TABLE_DRAW && ids[1] == RK_TABLE_TAKE);
    CHECK(rk_table_legal(&r, &s, NULL, NULL, 0) == 2);
    rk_table_state before = s;
    CHECK(rk_table_apply(&r, &s, NULL, 5) == RK_ERR_ARG); /* a discard in the draw phase */
    CHECK(rk_table_apply(&r, &s, NULL, 60) == RK_ERR_ARG);
    CHECK(memcmp(&before, &s, sizeof s) == 0);
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_DRAW) == RK_OK); /* seat 0 draws card 21 */
    CHECK(s.phase == RK_TABLE_PHASE_PLAY && (s.hands[0].w[0] >> 21 & 1) && s.n_stock == 30);
    before = s;
    CHECK(rk_table_apply(&r, &s, NULL, 1) == RK_ERR_ARG);                      /* a card seat 0 lacks */
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_LAYOFF) == RK_ERR_ARG);        /* no table meld */
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_RELEASE_SET + 3) == RK_ERR_ARG);
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_MELD_SET + 5 * 4) == RK_ERR_ARG); /* two naturals, no joker */
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_MELD_SET + 13 * 64) == RK_ERR_ARG);
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_MELD_RUN + 3 * 8192) == RK_ERR_ARG); /* length 3 of a card not held */
    CHECK(memcmp(&before, &s, sizeof s) == 0);
    /* seat 0 holds AC 3C 5C 7C 9C JC KC 2D 4D 6D and 9D: no meld, so eleven discards */
    CHECK(rk_table_legal(&r, &s, NULL, NULL, 0) == 11);
    CHECK(rk_table_apply(&r, &s, NULL, 21) == RK_OK);
    CHECK(s.player == 1 && s.phase == RK_TABLE_PHASE_DRAW && s.turns == 1 && s.discards[1] == 21);
    deck[3] = 0;
    CHECK(rk_table_deal(&r, deck, 0, 7, &s) == RK_ERR_ARG); /* a card twice */
    deck[3] = 3;
    CHECK(rk_table_deal(&r, deck, 2, 7, &s) == RK_ERR_ARG); /* no seat 2 */
    r.npos = 15;
    CHECK(rk_table_rules_check(&r) == RK_ERR_ARG);
    r = rummy_rules(2);
    r.joker_discard_allowed = 2; /* flags are 0 or 1 */
    CHECK(rk_table_rules_check(&r) == RK_ERR_ARG);
    /* Kaluki's geometry and values are those of its ace_low_runs and joker_penalty */
    r = kaluki_rules(2, 2);
    CHECK(rk_table_rules_check(&r) == RK_OK);
    r.ace_low_runs = 1;
    CHECK(rk_table_rules_check(&r) == RK_ERR_ARG);
    r = kaluki_rules(2, 2);
    r.values[0] = 1;
    CHECK(rk_table_rules_check(&r) == RK_ERR_ARG);
    r = kaluki_rules(2, 2);
    r.joker_penalty = 25;
    CHECK(rk_table_rules_check(&r) == RK_ERR_ARG);
    r = kaluki_rules(2, 2);
    r.max_melds_per_turn = 1; /* a Rummy option */
    CHECK(rk_table_rules_check(&r) == RK_ERR_ARG);
}

/* A Kaluki play step for seat 0, opened, holding 2C, deck 1's 7H (taken from the pile this turn)
 * and, with both, deck 0's 7H; seat 1 holds 40..52, the rest is the stock. */
static void taken_position(const rk_table_rules *r, rk_table_state *s, int both) {
    uint8_t deck[106];
    for (int i = 0; i < 106; i++) deck[i] = (uint8_t)i;
    CHECK(rk_table_deal(r, deck, 1, 7, s) == RK_OK);
    memset(s->hands, 0, sizeof s->hands);
    s->n_stock = s->n_discards = 0;
    for (int c = 0; c < 106; c++) {
        int seat = c == 1 || c == 84 || (c == 32 && both) ? 0 : c >= 40 && c <= 52 ? 1 : -1;
        if (seat >= 0)
            s->hands[seat].w[c >> 6] |= 1ull << (c & 63);
        else
            s->stock[s->n_stock++] = (uint8_t)c;
    }
    s->known[0] = (rk_table_cards){{0, 1ull << (84 - 64)}};
    s->phase = RK_TABLE_PHASE_PLAY;
    s->player = 0;
    s->opened = 3;
    s->taken = 32;
    s->taken_card = 84;
}

/* forbid_taken_discard holds the physical card taken, not the other copy of it */
static void test_taken_card(void) {
    rk_table_rules r = kaluki_rules(2, 2);
    rk_table_state s;
    int32_t ids[8];
    taken_position(&r, &s, 1);
    CHECK(rk_table_check(&r, &s) == RK_OK);
    CHECK(rk_table_legal(&r, &s, NULL, ids, 8) == 2 && ids[0] == 1 && ids[1] == 32);
    CHECK(rk_table_apply(&r, &s, NULL, 32) == RK_OK);
    CHECK(s.discards[s.n_discards - 1] == 32 && bit(&s.hands[0], 84) && bit(&s.known[0], 84));
    taken_position(&r, &s, 0);
    CHECK(rk_table_legal(&r, &s, NULL, ids, 8) == 1 && ids[0] == 1);
    s.taken = 31; /* not the taken card's type */
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    s.taken = 32;
    s.taken_card = -1;
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    r.forbid_taken_discard = 0;
    taken_position(&r, &s, 0);
    CHECK(rk_table_legal(&r, &s, NULL, ids, 8) == 2 && ids[0] == 1 && ids[1] == 32);
}

/* rk_table_check on hostile fields: the hand's end, flags, counters, Kaluki hand sizes, and a
 * saturating open_value (a hand-edited value at the top stays in range). */
static void test_state_checks(void) {
    rk_table_rules r = rummy_rules(2);
    rk_table_state s, good;
    uint8_t deck[108];
    for (int i = 0; i < 108; i++) deck[i] = (uint8_t)i;
    CHECK(rk_table_deal(&r, deck, 0, 3, &good) == RK_OK && rk_table_check(&r, &good) == RK_OK);
    static const int8_t bad_outcomes[] = {-1, 7, 100};
    for (size_t i = 0; i < sizeof bad_outcomes; i++) {
        s = good;
        s.phase = RK_TABLE_PHASE_END;
        s.outcome = bad_outcomes[i];
        CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    }
    s = good;
    s.outcome = RK_TABLE_DEAD; /* an outcome while the hand is on */
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    s.phase = RK_TABLE_PHASE_END;
    CHECK(rk_table_check(&r, &s) == RK_OK);
    s.phase = RK_TABLE_PHASE_END; /* the end without an outcome */
    s.outcome = RK_TABLE_NOT_OVER;
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    s.outcome = RK_TABLE_OUT; /* went out: a winner, with no cards */
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    s.winner = 2;
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    s.winner = 0;
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG); /* seat 0 still holds cards */
    for (int i = 0; i < 52; i++) s.stock[i] = (uint8_t)i; /* everything else to the stock, seat 0 empty */
    s.n_stock = 52 - 1;
    s.n_discards = 1;
    s.discards[0] = 51;
    memset(s.hands, 0, sizeof s.hands);
    memset(s.known, 0, sizeof s.known);
    CHECK(rk_table_check(&r, &s) == RK_OK);
    s.outcome = RK_TABLE_HUNT; /* a Kaluki outcome in Rummy */
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    s.outcome = RK_TABLE_DEAD; /* a winner of a dead hand */
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    s = good;
    s.fresh = 2;
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    s = good;
    s.turn_melds = -1;
    CHECK(rk_table_check(&r, &s) == RK_ERR_ARG);
    /* Kaluki: hand sizes up to RK_TABLE_MAX_KALUKI_HAND (the opening search is exponential) */
    r = kaluki_rules(2, 2);
    CHECK(rk_table_deal(&r, deck, 1, 3, &good) == RK_OK && rk_table_check(&r, &good) == RK_OK);
    s = good;
    for (int held = 13; held < 40 && s.n_stock; held++) { /* stock cards to seat 0, one at a time */
        int c = s.stock[--s.n_stock];
        s.hands[0].w[c >> 6] |= 1ull << (c & 63);
        CHECK(rk_table_check(&r, &s) == (held + 1 <= RK_TABLE_MAX_KALUKI_HAND ? RK_OK : RK_ERR_ARG));
    }
    r.hand_size = RK_TABLE_MAX_KALUKI_HAND;
    CHECK(rk_table_rules_check(&r) == RK_ERR_ARG);
    r.hand_size = RK_TABLE_MAX_KALUKI_HAND - 1;
    CHECK(rk_table_rules_check(&r) == RK_OK);
    /* open_value saturates: an opening meld on a hand-edited open_value of 32760 */
    r = kaluki_rules(2, 2);
    s = good;
    s.phase = RK_TABLE_PHASE_PLAY;
    memset(s.hands, 0, sizeof s.hands);
    s.n_stock = s.n_discards = 0;
    int p = s.player;
    for (int c = 0; c < 106; c++) { /* the player holds 8 9 T J of suit 1 (deck 0) and deck 1's K of suit 3 */
        int mine = c == 20 || c == 21 || c == 22 || c == 23 || c == 51 + 52;
        if (mine)
            s.hands[p].w[c >> 6] |= 1ull << (c & 63);
        else
            s.stock[s.n_stock++] = (uint8_t)c;
    }
    s.open_value = 32760;
    CHECK(rk_table_check(&r, &s) == RK_OK);
    /* the run 8-J of suit 1: positions 6..9 (Kaluki's aces high: position p is rank p + 1) */
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_MELD_RUN + ((1 * 14 + 6) * 14 + 4) * 8192) == RK_OK);
    CHECK(s.open_value == 32767 && (s.opened >> p & 1) && rk_table_check(&r, &s) == RK_OK);
}

static void check_score(const rk_table_rules *r, int outcome, int winner, const int32_t *values,
                        const int32_t *points, const int32_t *penalties, const int32_t *bonuses,
                        const int32_t *returns) {
    rk_table_result res;
    int n = r->num_players;
    size_t size = sizeof(int32_t) * (size_t)n;
    CHECK(rk_table_score_values(r, outcome, winner, values, &res) == RK_OK);
    CHECK(memcmp(res.values, values, size) == 0 && memcmp(res.points, points, size) == 0);
    CHECK(memcmp(res.penalties, penalties, size) == 0 && memcmp(res.bonuses, bonuses, size) == 0);
    CHECK(memcmp(res.returns, returns, size) == 0);
}

/* rk_table_score_values: each scoring option by hand (docs/rules.md, Rummy and Kaluki scoring). */
static void test_score(void) {
    const int32_t z[3] = {0, 0, 0}, v[3] = {0, 21, 7};
    rk_table_rules r = rummy_rules(3);
    check_score(&r, RK_TABLE_OUT, 0, v, (int32_t[]){28, 0, 0}, z, z, (int32_t[]){28, 0, 0});
    check_score(&r, RK_TABLE_RUMMY, 0, v, (int32_t[]){56, 0, 0}, z, z, (int32_t[]){56, 0, 0});
    r.rummy_bonus = 1; /* flat_25 */
    check_score(&r, RK_TABLE_RUMMY, 0, v, (int32_t[]){53, 0, 0}, z, z, (int32_t[]){53, 0, 0});
    r.rummy_bonus = 3; /* none */
    check_score(&r, RK_TABLE_RUMMY, 0, v, (int32_t[]){28, 0, 0}, z, z, (int32_t[]){28, 0, 0});
    check_score(&r, RK_TABLE_BLOCKED, -1, (int32_t[]){3, 4, 5}, z, z, z, z);
    check_score(&r, RK_TABLE_DEAD, -1, (int32_t[]){3, 4, 5}, z, z, z, z);
    r.rummy_scoring = 1; /* penalty */
    r.rummy_bonus = 0;
    check_score(&r, RK_TABLE_OUT, 0, v, z, (int32_t[]){0, 21, 7}, z, (int32_t[]){0, -21, -7});
    check_score(&r, RK_TABLE_RUMMY, 0, v, z, (int32_t[]){0, 42, 14}, z, (int32_t[]){0, -42, -14});
    r.rummy_bonus = 2; /* flat_10 */
    check_score(&r, RK_TABLE_RUMMY, 0, v, z, (int32_t[]){0, 31, 17}, z, (int32_t[]){0, -31, -17});
    check_score(&r, RK_TABLE_BLOCKED, -1, (int32_t[]){3, 4, 5}, z, (int32_t[]){3, 4, 5}, z, (int32_t[]){-3, -4, -5});
    const int32_t k[3] = {0, 32, 14};
    r = kaluki_rules(3, 2);
    check_score(&r, RK_TABLE_CALL_OFF, 0, k, z, k, (int32_t[]){20, 0, 0}, (int32_t[]){0, -32, -14});
    check_score(&r, RK_TABLE_HUNT, 0, k, z, (int32_t[]){0, 64, 28}, (int32_t[]){40, 0, 0}, (int32_t[]){0, -64, -28});
    r.hunt_penalty_mode = 1; /* plus_25 */
    r.kaluki_bonus_accounting = 1; /* subtract_from_penalty */
    check_score(&r, RK_TABLE_HUNT, 0, k, z, (int32_t[]){0, 57, 39}, (int32_t[]){40, 0, 0}, (int32_t[]){40, -57, -39});
    check_score(&r, RK_TABLE_DEAD, -1, k, z, z, z, z);
    /* refused: outcomes of the other game, winners, values, rules */
    rk_table_result res;
    CHECK(rk_table_score_values(&r, RK_TABLE_OUT, 0, k, &res) == RK_ERR_ARG);
    CHECK(rk_table_score_values(&r, RK_TABLE_NOT_OVER, -1, k, &res) == RK_ERR_ARG);
    CHECK(rk_table_score_values(&r, RK_TABLE_HUNT, -1, k, &res) == RK_ERR_ARG);
    CHECK(rk_table_score_values(&r, RK_TABLE_HUNT, 3, k, &res) == RK_ERR_ARG);
    CHECK(rk_table_score_values(&r, RK_TABLE_DEAD, 0, k, &res) == RK_ERR_ARG);
    CHECK(rk_table_score_values(&r, RK_TABLE_HUNT, 0, (int32_t[]){0, -1, 3}, &res) == RK_ERR_ARG);
    CHECK(rk_table_score_values(&r, RK_TABLE_HUNT, 0, (int32_t[]){0, RK_TABLE_MAX_VALUE + 1, 3}, &res) == RK_ERR_ARG);
    r.hunt_penalty_mode = 2;
    CHECK(rk_table_score_values(&r, RK_TABLE_HUNT, 0, k, &res) == RK_ERR_ARG);
    r = rummy_rules(3);
    CHECK(rk_table_score_values(&r, RK_TABLE_CALL_OFF, 0, k, &res) == RK_ERR_ARG);
    CHECK(rk_table_score_values(&r, 7, 0, k, &res) == RK_ERR_ARG);
    CHECK(rk_table_score_values(NULL, RK_TABLE_OUT, 0, k, &res) == RK_ERR_ARG);
    rk_table_state s;
    uint8_t deck[RK_TABLE_MAX_CARDS];
    shuffled_deck(r.deck_size, deck);
    CHECK(rk_table_deal(&r, deck, 0, 1, &s) == RK_OK);
    CHECK(rk_table_score(&r, &s, &res) == RK_ERR_ARG); /* not over */
    CHECK(strcmp(rk_table_outcome_name(RK_TABLE_CALL_OFF), "call_off") == 0 && rk_table_outcome_name(0) == NULL &&
          rk_table_outcome_name(7) == NULL && rk_table_outcome_name(-1) == NULL);
}

/* Seats absent from the hand (a match's eliminated players): dealt nothing, skipped in turn,
 * never the player, dealer or winner; the others keep their seat numbers. */
static void test_absent_seats(void) {
    rk_table_rules r = kaluki_rules(4, 2);
    uint8_t deck[RK_TABLE_MAX_CARDS];
    rk_table_state s;
    for (int i = 0; i < r.deck_size; i++) deck[i] = (uint8_t)i;
    CHECK(rk_table_deal_present(&r, deck, 0, 1u << 2, 7, &s) == RK_OK);
    CHECK(s.absent == 4 && s.player == 1 && s.n_stock == r.deck_size - 3 * r.hand_size - 1);
    CHECK(!s.hands[2].w[0] && !s.hands[2].w[1] && bit(&s.hands[1], 0) && bit(&s.hands[3], 1) && bit(&s.hands[0], 2));
    CHECK(s.discards[0] == 3 * r.hand_size && rk_table_check(&r, &s) == RK_OK);
    for (int turn = 0; turn < 12 && s.phase != RK_TABLE_PHASE_END; turn++) { /* draw and discard: seat 2 never moves */
        int32_t ids[512];
        CHECK(s.player != 2);
        CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_DRAW) == RK_OK);
        int n = rk_table_legal(&r, &s, NULL, ids, 512);
        CHECK(n > 0 && rk_table_apply(&r, &s, NULL, ids[0] < RK_TABLE_DRAW ? ids[0] : ids[n - 1]) == RK_OK);
        CHECK(rk_table_check(&r, &s) == RK_OK && !s.hands[2].w[0] && !s.hands[2].w[1]);
    }
    rk_table_state bad = s;
    bad.player = 2; /* an absent seat to move */
    CHECK(rk_table_check(&r, &bad) == RK_ERR_ARG);
    bad = s;
    bad.absent = 1u << 4; /* no seat 4 */
    CHECK(rk_table_check(&r, &bad) == RK_ERR_ARG);
    bad = s;
    bad.absent = (uint8_t)(15u & ~(1u << s.player)); /* only the player left */
    CHECK(rk_table_check(&r, &bad) == RK_ERR_ARG);
    CHECK(rk_table_deal_present(&r, deck, 2, 1u << 2, 7, &s) == RK_ERR_ARG); /* an absent dealer */
    CHECK(rk_table_deal_present(&r, deck, 0, 14, 7, &s) == RK_ERR_ARG);     /* one seat left */
}

int main(void) {
    test_score();
    test_deal_and_errors();
    test_absent_seats();
    test_taken_card();
    test_state_checks();
    rk_table_rules r;
    for (int players = 2; players <= 6; players += 2) {
        char name[40];
        snprintf(name, sizeof name, "rummy %dp", players);
        r = rummy_rules(players);
        play_many(name, &r, 200, 11u + (uint64_t)players);
    }
    r = rummy_rules(3);
    r.npos = 14; /* ace high or low */
    r.taken_discard_must_be_melded = 1;
    r.restock_method = 1;
    play_many("rummy 3p high_or_low", &r, 100, 5);
    r = rummy_rules(2);
    r.wrap = 1; /* allow_wraparound */
    r.restock_method = 2;
    r.no_go_out_first_turn = 1;
    r.max_melds_per_turn = 1;
    play_many("rummy 2p wrap block", &r, 100, 6);
    r = kaluki_rules(2, 2);
    play_many("kaluki 2p", &r, 40, 21);
    r = kaluki_rules(4, 2);
    play_many("kaluki 4p", &r, 40, 22);
    r = kaluki_rules(4, 4); /* kalooki_51 */
    r.initial_meld_min = 51;
    r.values[RK_JOKER] = r.joker_penalty = 25;
    r.unopened_may_release_joker = 1;
    r.hunt_requires_opening_min = 0;
    r.building_counts_toward_opening = 1;
    play_many("kalooki_51 4p variants", &r, 30, 23);
    r = kaluki_rules(3, 2);
    r.npos = 14;
    r.shift = 0;
    r.low_ace_one = r.ace_low_runs = 1;
    r.two_joker_release_one_natural = 1;
    r.max_build_per_run_end = -1;
    r.unopened_discard_draw = 2;
    play_many("kaluki 3p ace_low_runs", &r, 30, 24);

    r = rummy_rules(2);
    printf("rummy 2p random: %.0f ns per step (legal + apply)\n", ns_per_step(&r, 2000, 99));
    r = kaluki_rules(4, 2);
    printf("kaluki 4p random: %.0f ns per step (legal + apply)\n", ns_per_step(&r, 100, 98));
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
