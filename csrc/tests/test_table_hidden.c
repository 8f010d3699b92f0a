/* C tests of the table games' hidden information (csrc/src/table_hidden.c, no
 * Python): seeded hands of Rummy (2-6 players, turned-over and blocked
 * stocks) and Kaluki (2-5, four jokers) played by the greedy policy and at
 * random, the step log kept with rk_table_step; at every few steps, for
 * every seat:
 *  - rk_table_hidden_of's lists fit the state (rk_table_hidden_check) and
 *    count what they must (places per seat, the observer's pool);
 *  - rk_table_world_of gives a world the seat cannot tell apart: the same
 *    public fields, discard pile types and hand sizes, its own hand's types,
 *    its dealt cards where they were in a deck of every card once, the same
 *    legal actions when it is to move, a legal action for another seat to
 *    move; the replay of that world (rk_table_replay) ends in that state,
 *    and its step log says what the real one says to the seat;
 *  - max_tries 0 keeps the real cards (the last resort).
 * Bad arguments give RK_ERR_ARG.  Prints determinizations per second.
 * The agreement with the plain Python oracle is tests/table/test_observe_core.py
 * and tests/table/test_hidden_oracle.py. */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rummykit/table.h"
#include "rummykit/table_playouts.h"
#include "check.h"
#include "table_fixtures.h"

#define MAX_IDS 4096
#define MAX_STEPS 4000

/* A hand with its log: the entries live in one buffer. */
typedef struct hand_log {
    uint8_t deck[RK_TABLE_MAX_CARDS];
    rk_table_state s;
    int32_t actions[MAX_STEPS];
    const uint8_t *steps[MAX_STEPS];
    uint8_t *entries; /* MAX_STEPS * RK_TABLE_STEP_MAX */
    int n;
} hand_log;

static void deal_log(const rk_table_rules *r, uint64_t seed, unsigned absent, hand_log *h) {
    rk_rng rng;
    for (int i = 0; i < r->deck_size; i++) h->deck[i] = (uint8_t)i;
    rk_rng_seed(&rng, seed, 99);
    rk_rng_shuffle(&rng, h->deck, (size_t)r->deck_size);
    int dealer = (int)(seed % (uint64_t)r->num_players);
    while (absent >> dealer & 1) dealer = (dealer + 1) % r->num_players;
    CHECK(rk_table_deal_present(r, h->deck, dealer, absent, seed, &h->s) == RK_OK);
    h->n = 0;
}

static void play(const rk_table_rules *r, rk_table_memo *memo, hand_log *h, int32_t a) {
    rk_table_state before = h->s;
    CHECK(rk_table_apply(r, &h->s, memo, a) == RK_OK);
    uint8_t *e = h->entries + (size_t)h->n * RK_TABLE_STEP_MAX;
    int k = rk_table_step(r, &before, &h->s, a, h->n ? h->steps[h->n - 1] : NULL, e);
    CHECK(k >= RK_TABLE_STEP_HEAD && (size_t)k == rk_table_step_length(e) && k <= RK_TABLE_STEP_MAX);
    h->actions[h->n] = a;
    h->steps[h->n] = e;
    h->n++;
}

static int type_count(rk_table_cards c, int t) {
    int k = 0;
    for (int card = 0; card < RK_TABLE_MAX_CARDS; card++)
        if ((c.w[card >> 6] >> (card & 63) & 1) && (card >= RK_TABLE_FIRST_JOKER ? RK_JOKER : card % 52) == t) k++;
    return k;
}

static int cards(rk_table_cards c) { return __builtin_popcountll(c.w[0]) + __builtin_popcountll(c.w[1]); }

static int ctype(int c) { return c >= RK_TABLE_FIRST_JOKER ? RK_JOKER : c % 52; }

static void check_world(const rk_table_rules *r, rk_table_memo *memo, const hand_log *h, int p, void *work,
                        uint64_t seed, long *sampled) {
    rk_table_log log = {h->actions, h->steps, h->n};
    rk_table_hidden hid;
    rk_table_world w;
    rk_rng rng;
    const rk_table_state *s = &h->s;
    CHECK(rk_table_hidden_of(r, s, h->deck, &log, p, work, &hid) == RK_OK);
    CHECK(rk_table_hidden_check(r, s, &hid) == RK_OK);
    CHECK(hid.observer == p && hid.now == h->n && hid.n_groups >= 1);
    for (int max_tries = -1; max_tries <= 0; max_tries++) {
        rk_rng_seed(&rng, seed, 0);
        rk_status st = rk_table_world_of(r, s, h->deck, &log, p, max_tries, &rng, memo, work, &w);
        CHECK(st == RK_OK);
        if (st != RK_OK) return;
        const rk_table_state *o = &w.state;
        if (max_tries < 0) *sampled += w.sampled;
        CHECK(max_tries < 0 || !w.sampled);
        CHECK(o->phase == s->phase && o->player == s->player && o->n_stock == s->n_stock &&
              o->n_discards == s->n_discards && o->n_table == s->n_table && o->turns == s->turns &&
              o->restocks == s->restocks && o->opened == s->opened && o->taken == s->taken && o->must == s->must);
        for (int i = 0; i < s->n_discards; i++) CHECK(ctype(o->discards[i]) == ctype(s->discards[i]));
        for (int q = 0; q < r->num_players; q++) CHECK(cards(o->hands[q]) == cards(s->hands[q]));
        for (int t = 0; t < RK_NUM_TYPES; t++) CHECK(type_count(o->hands[p], t) == type_count(s->hands[p], t));
        if (!w.sampled) /* the last resort: every hand as it is */
            for (int q = 0; q < r->num_players; q++)
                for (int t = 0; t < RK_NUM_TYPES; t++) CHECK(type_count(o->hands[q], t) == type_count(s->hands[q], t));
        CHECK(rk_table_check(r, o) == RK_OK);
        /* a deck of every card once */
        rk_table_cards seen = {{0, 0}};
        for (int i = 0; i < r->deck_size; i++) {
            CHECK(!(seen.w[w.deck[i] >> 6] >> (w.deck[i] & 63) & 1));
            seen.w[w.deck[i] >> 6] |= 1ull << (w.deck[i] & 63);
        }
        CHECK(cards(seen) == r->deck_size);
        /* the legal actions of the seat to move: the same for the observer, some for another seat */
        if (s->phase != RK_TABLE_PHASE_END) {
            int32_t a[MAX_IDS], b[MAX_IDS];
            int na = rk_table_legal(r, s, memo, a, MAX_IDS), nb = rk_table_legal(r, o, memo, b, MAX_IDS);
            CHECK(nb > 0);
            if (s->player == p) CHECK(na == nb && !memcmp(a, b, sizeof(int32_t) * (size_t)na));
        }
        /* its replay ends where it is, and logs what the real log says to p */
        rk_table_state *before = malloc(sizeof(rk_table_state) * (size_t)(h->n + 1)), end;
        CHECK(before != NULL);
        if (!before) return;
        CHECK(rk_table_replay(r, w.deck, s->dealer, s->absent, o->shuffle_seed, h->actions, h->n, w.orders,
                              w.n_orders, memo, before, &end) == RK_OK);
        CHECK(!memcmp(&end, o, sizeof end));
        uint8_t prev[RK_TABLE_STEP_MAX], e[RK_TABLE_STEP_MAX];
        for (int i = 0; i < h->n; i++) {
            const rk_table_state *after = i + 1 < h->n ? &before[i + 1] : &end;
            int k = rk_table_step(r, &before[i], after, h->actions[i], i ? prev : NULL, e);
            CHECK(k >= 0 && (size_t)k == rk_table_step_length(h->steps[i]));
            CHECK(e[2] == w.came[i]);
            /* the same entry but for another seat's draw (its type is the world's) */
            CHECK(!memcmp(e + 3, h->steps[i] + 3, (size_t)k - 3) && e[0] == h->steps[i][0] && e[1] == h->steps[i][1]);
            if (e[2] != h->steps[i][2]) CHECK(h->actions[i] == RK_TABLE_DRAW && e[0] != p && !(e[1] & RK_TABLE_STEP_PUBLIC));
            memcpy(prev, e, (size_t)k);
        }
        free(before);
    }
}

/* A random legal action, a meld or lay-off most of the time when there is one. */
static int32_t hurry(const rk_table_rules *r, const rk_table_state *s, rk_table_memo *memo) {
    int32_t ids[MAX_IDS], plays[MAX_IDS];
    int n = rk_table_legal(r, s, memo, ids, MAX_IDS), k = 0;
    for (int i = 0; i < n; i++)
        if (ids[i] >= RK_TABLE_LAYOFF) plays[k++] = ids[i];
    if (k && next_below(10) < 8) return plays[next_below((uint32_t)k)];
    return ids[next_below((uint32_t)n)];
}

static void test_hands(const char *name, const rk_table_rules *r, int hands, int every, unsigned absent) {
    rk_table_memo *memo = rk_table_memo_new();
    hand_log *h = malloc(sizeof *h);
    void *work = malloc(rk_table_world_size(r, MAX_STEPS));
    CHECK(memo && h && work);
    if (!memo || !h || !work) return;
    h->entries = malloc((size_t)MAX_STEPS * RK_TABLE_STEP_MAX);
    CHECK(h->entries != NULL);
    long nodes = 0, sampled = 0, restocks = 0;
    for (int hand = 0; hand < hands && h->entries; hand++) {
        deal_log(r, (uint64_t)hand + 7, absent, h);
        int greedy = hand % 2;
        while (h->s.phase != RK_TABLE_PHASE_END && h->n < MAX_STEPS - 1) {
            if (h->n % every == 0)
                for (int p = 0; p < r->num_players; p++)
                    if (!(absent >> p & 1)) {
                        check_world(r, memo, h, p, work, (uint64_t)(nodes * 7 + p), &sampled);
                        nodes++;
                    }
            int32_t a = greedy ? rk_table_greedy(r, &h->s, memo) : hurry(r, &h->s, memo);
            CHECK(a >= 0);
            if (a < 0) break;
            play(r, memo, h, a);
        }
        for (int p = 0; p < r->num_players; p++) /* the end: every hand shown */
            if (!(absent >> p & 1)) check_world(r, memo, h, p, work, (uint64_t)p, &sampled), nodes++;
        restocks += h->s.restocks;
    }
    CHECK(sampled > 0);
    printf("%-14s %3d hands, %5ld worlds (%ld sampled), %ld restocks\n", name, hands, nodes, sampled, restocks);
    free(h->entries);
    free(h);
    free(work);
    rk_table_memo_free(memo);
}

/* A hand that restocks hundreds of times (a small stock, nobody melds, no turn limit): more
 * groups than a byte counts. */
static void test_many_restocks(void) {
    rk_table_rules r = rummy_rules(2);
    r.hand_size = 24; /* a stock of 3 */
    r.max_turns = -1;
    CHECK(rk_table_rules_check(&r) == RK_OK);
    rk_table_memo *memo = rk_table_memo_new();
    hand_log *h = malloc(sizeof *h);
    void *work = malloc(rk_table_world_size(&r, MAX_STEPS));
    CHECK(memo && h && work);
    if (!memo || !h || !work) return;
    h->entries = malloc((size_t)MAX_STEPS * RK_TABLE_STEP_MAX);
    if (!h->entries) return;
    deal_log(&r, 5, 0, h);
    while (h->s.restocks < 300 && h->n < MAX_STEPS - 1) {
        int32_t ids[MAX_IDS], a = -1;
        int n = rk_table_legal(&r, &h->s, memo, ids, MAX_IDS);
        for (int i = 0; i < n && a < 0; i++)
            if (ids[i] == RK_TABLE_DRAW || ids[i] < RK_TABLE_DRAW) a = ids[i]; /* draw, then the lowest discard */
        CHECK(a >= 0);
        if (a < 0) break;
        play(&r, memo, h, a);
    }
    CHECK(h->s.restocks >= 300);
    long sampled = 0;
    for (int p = 0; p < 2; p++) check_world(&r, memo, h, p, work, 9, &sampled);
    CHECK(sampled == 2);
    printf("%-14s %d restocks in %d actions\n", "rummy-2-long", h->s.restocks, h->n);
    free(h->entries);
    free(h);
    free(work);
    rk_table_memo_free(memo);
}

static void test_bad_arguments(void) {
    rk_table_rules r = rummy_rules(3);
    rk_table_memo *memo = rk_table_memo_new();
    hand_log *h = malloc(sizeof *h);
    void *work = malloc(rk_table_world_size(&r, 64));
    CHECK(memo && h && work);
    if (!memo || !h || !work) return;
    h->entries = malloc((size_t)64 * RK_TABLE_STEP_MAX);
    if (!h->entries) return;
    deal_log(&r, 3, 0, h);
    for (int i = 0; i < 12; i++) play(&r, memo, h, rk_table_greedy(&r, &h->s, memo));
    rk_table_log log = {h->actions, h->steps, h->n}, bad;
    rk_table_hidden hid;
    rk_table_world w;
    rk_rng rng;
    rk_rng_seed(&rng, 1, 0);
    CHECK(rk_table_hidden_of(&r, &h->s, h->deck, &log, 3, work, &hid) == RK_ERR_ARG);
    CHECK(rk_table_hidden_of(&r, &h->s, h->deck, &log, -1, work, &hid) == RK_ERR_ARG);
    CHECK(rk_table_hidden_of(NULL, &h->s, h->deck, &log, 0, work, &hid) == RK_ERR_ARG);
    CHECK(rk_table_hidden_of(&r, &h->s, h->deck, &log, 0, NULL, &hid) == RK_ERR_ARG);
    bad = log;
    bad.n = h->n - 1; /* a log shorter than the state's history: the cards do not fit */
    CHECK(rk_table_world_of(&r, &h->s, h->deck, &bad, 0, -1, &rng, memo, work, &w) == RK_ERR_ARG);
    bad.n = -1;
    CHECK(rk_table_hidden_of(&r, &h->s, h->deck, &bad, 0, work, &hid) == RK_ERR_ARG);
    /* an entry of another player count */
    uint8_t e[RK_TABLE_STEP_MAX];
    const uint8_t *steps[64];
    memcpy(steps, h->steps, sizeof(steps[0]) * (size_t)h->n);
    memcpy(e, h->steps[2], rk_table_step_length(h->steps[2]));
    e[6] = 4;
    steps[2] = e;
    bad = log;
    bad.steps = steps;
    CHECK(rk_table_hidden_of(&r, &h->s, h->deck, &bad, 0, work, &hid) == RK_ERR_ARG);
    /* a seat out of range in an entry */
    e[6] = 3;
    e[0] = 5;
    CHECK(rk_table_hidden_of(&r, &h->s, h->deck, &bad, 0, work, &hid) == RK_ERR_ARG);
    /* a state that the log does not lead to */
    rk_table_state edited = h->s;
    int c = edited.stock[edited.n_stock - 1];
    edited.n_stock--;
    edited.discards[edited.n_discards++] = (uint8_t)c;
    CHECK(rk_table_world_of(&r, &edited, h->deck, &log, 0, -1, &rng, memo, work, &w) == RK_ERR_ARG);
    CHECK(rk_table_world_of(&r, &h->s, h->deck, &log, 0, -1, NULL, memo, work, &w) == RK_ERR_ARG);
    /* replays that do not fit */
    rk_table_state end;
    CHECK(rk_table_replay(&r, h->deck, h->s.dealer, 0, 1, h->actions, h->n, NULL, 0, memo, NULL, &end) == RK_OK);
    CHECK(rk_table_replay(&r, h->deck, h->s.dealer, 0, 1, h->actions, h->n, NULL, 1, memo, NULL, &end) == RK_ERR_ARG);
    int32_t wrong[64];
    memcpy(wrong, h->actions, sizeof(int32_t) * (size_t)h->n);
    wrong[1] = 12345; /* not an action */
    CHECK(rk_table_replay(&r, h->deck, h->s.dealer, 0, 1, wrong, h->n, NULL, 0, memo, NULL, &end) != RK_OK);
    CHECK(rk_table_step(&r, &h->s, &h->s, RK_TABLE_DRAW, NULL, NULL) == RK_ERR_ARG);
    edited = h->s;
    edited.player = 7;
    CHECK(rk_table_step(&r, &edited, &h->s, RK_TABLE_DRAW, NULL, e) == RK_ERR_ARG);
    free(h->entries);
    free(h);
    free(work);
    rk_table_memo_free(memo);
}

/* Determinizations per second at the decisions of greedy hands (the cost an agent's copy adds in C). */
static void rate(const char *name, const rk_table_rules *r, int hands) {
    rk_table_memo *memo = rk_table_memo_new();
    hand_log *h = malloc(sizeof *h);
    void *work = malloc(rk_table_world_size(r, MAX_STEPS));
    if (!memo || !h || !work) return;
    h->entries = malloc((size_t)MAX_STEPS * RK_TABLE_STEP_MAX);
    if (!h->entries) return;
    struct timespec t0, t1;
    double sec = 0;
    long n = 0;
    for (int hand = 0; hand < hands; hand++) {
        deal_log(r, (uint64_t)hand + 100, 0, h);
        while (h->s.phase != RK_TABLE_PHASE_END && h->n < MAX_STEPS - 1) {
            rk_table_log log = {h->actions, h->steps, h->n};
            rk_table_world w;
            rk_rng rng;
            rk_rng_seed(&rng, (uint64_t)n, 0);
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
            CHECK(rk_table_world_of(r, &h->s, h->deck, &log, h->s.player, -1, &rng, memo, work, &w) == RK_OK);
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
            sec += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            n++;
            play(r, memo, h, rk_table_greedy(r, &h->s, memo));
        }
    }
    printf("%-14s rk_table_world_of at the seat to move: %.2f us a call (%ld calls)\n", name, 1e6 * sec / (double)n, n);
    free(h->entries);
    free(h);
    free(work);
    rk_table_memo_free(memo);
}

int main(void) {
    rk_table_rules turn_over = rummy_rules(3), block = rummy_rules(4), no_jd = kaluki_rules(5, 4);
    turn_over.restock_method = 1;
    block.restock_method = 2;
    no_jd.joker_discard_allowed = 0;
    const struct {
        const char *name;
        rk_table_rules r;
        unsigned absent;
    } games[] = {
        {"rummy-2", rummy_rules(2), 0},      {"rummy-3", rummy_rules(3), 0},     {"rummy-4", rummy_rules(4), 0},
        {"rummy-5", rummy_rules(5), 0},      {"rummy-6", rummy_rules(6), 0},     {"rummy-3-turn", turn_over, 0},
        {"rummy-4-block", block, 0},         {"kaluki-2", kaluki_rules(2, 2), 0}, {"kaluki-3", kaluki_rules(3, 2), 0},
        {"kaluki-4", kaluki_rules(4, 2), 0}, {"kaluki-5-4j", no_jd, 0},          {"kaluki-4-absent", kaluki_rules(4, 2), 2},
    };
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        CHECK(rk_table_rules_check(&games[g].r) == RK_OK);
        test_hands(games[g].name, &games[g].r, games[g].r.kaluki ? 4 : 8, games[g].r.kaluki ? 7 : 5, games[g].absent);
    }
    test_many_restocks();
    test_bad_arguments();
    rate("rummy-3", &games[1].r, 20);
    rate("kaluki-3", &games[8].r, 10);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all table hidden-information tests passed\n");
    return 0;
}
