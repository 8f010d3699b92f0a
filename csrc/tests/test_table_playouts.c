/* C tests of the table-game policies, determinization and playouts (no
 * Python): the greedy policy plays a legal action at every step of seeded
 * hands of Rummy (2, 4, 6 players) and Kaluki (2, 4); determinizations of
 * a fresh deal keep the observer's cards and every card in one place;
 * batches give the same arrays however they are split; bad arguments give
 * errors.  Prints greedy playouts per second.  The step-by-step equality
 * with the Python policy is tests/table/test_playouts.py. */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rummykit/table_playouts.h"
#include "check.h"
#include "table_fixtures.h"

#define MAX_IDS 4096

static void deal(const rk_table_rules *r, uint64_t seed, rk_table_state *s) {
    uint8_t deck[RK_TABLE_MAX_CARDS];
    rk_rng rng;
    for (int i = 0; i < r->deck_size; i++) deck[i] = (uint8_t)i;
    rk_rng_seed(&rng, seed, 99);
    rk_rng_shuffle(&rng, deck, (size_t)r->deck_size);
    CHECK(rk_table_deal(r, deck, (int)(seed % (uint64_t)r->num_players), seed, s) == RK_OK);
}

static int in_list(const int32_t *ids, int n, int32_t a) {
    for (int i = 0; i < n; i++)
        if (ids[i] == a) return 1;
    return 0;
}

/* Greedy hands with the policy's action checked legal at every step. */
static void greedy_hands(const char *name, const rk_table_rules *r, int hands) {
    rk_table_memo *memo = rk_table_memo_new();
    int32_t ids[MAX_IDS];
    long steps = 0, ends[7] = {0};
    CHECK(memo != NULL);
    for (int h = 0; h < hands; h++) {
        rk_table_state s;
        deal(r, (uint64_t)h, &s);
        for (;;) {
            int n = rk_table_legal(r, &s, memo, ids, MAX_IDS);
            int32_t a = rk_table_greedy(r, &s, memo);
            if (n == 0) {
                CHECK(a == RK_ERR_EMPTY);
                break;
            }
            CHECK(a >= 0 && in_list(ids, n, a));
            if (a < 0) break;
            /* the same action with and without the memo */
            CHECK(rk_table_greedy(r, &s, NULL) == a);
            CHECK(rk_table_apply(r, &s, memo, a) == RK_OK);
            steps++;
            CHECK(steps < 10000000);
        }
        ends[s.outcome]++;
    }
    printf("%-12s greedy %4d hands %7ld steps, ends dead %ld blocked %ld rummy %ld out %ld hunt %ld call-off %ld\n",
           name, hands, steps, ends[1], ends[2], ends[3], ends[4], ends[5], ends[6]);
    rk_table_memo_free(memo);
}

static int bit(rk_table_cards c, int card) { return (int)(c.w[card >> 6] >> (card & 63) & 1); }

static int type_count(rk_table_cards c, int t) {
    int n = 0;
    for (int card = 0; card < RK_TABLE_MAX_CARDS; card++)
        n += bit(c, card) && (card >= RK_TABLE_FIRST_JOKER ? RK_JOKER : card % 52) == t;
    return n;
}

/* The hidden spec of a fresh deal for the seat to move: the other seats' dealt cards and
 * the stock are one group of places; seat 0's ... none known. */
typedef struct spec {
    rk_table_hidden h;
    uint8_t pool[RK_NUM_TYPES];
    uint8_t seat[RK_TABLE_MAX_CARDS];
    int32_t group[RK_TABLE_MAX_CARDS];
    int32_t time[RK_TABLE_MAX_CARDS];
} spec;

static void fresh_spec(const rk_table_rules *r, const rk_table_state *s, spec *sp) {
    memset(sp, 0, sizeof *sp);
    rk_table_hidden *h = &sp->h;
    h->mode = RK_TABLE_RESAMPLE_HIDDEN;
    h->observer = s->player;
    h->n_groups = 1;
    h->pool = sp->pool;
    h->place_seat = sp->seat;
    h->place_group = sp->group;
    h->place_time = sp->time;
    for (int q = 0; q < r->num_players; q++) {
        if (q == s->player) continue;
        for (int c = 0; c < RK_TABLE_MAX_CARDS; c++)
            if (bit(s->hands[q], c)) {
                sp->pool[c >= RK_TABLE_FIRST_JOKER ? RK_JOKER : c % 52]++;
                sp->seat[h->n_places] = (uint8_t)q;
                sp->time[h->n_places++] = -1;
            }
    }
    for (int i = 0; i < s->n_stock; i++) sp->pool[s->stock[i] >= RK_TABLE_FIRST_JOKER ? RK_JOKER : s->stock[i] % 52]++;
    h->stock_group = 0;
}

static void test_determinize(const rk_table_rules *r) {
    rk_table_state s, d;
    spec sp;
    rk_rng rng;
    deal(r, 5, &s);
    fresh_spec(r, &s, &sp);
    CHECK(rk_table_hidden_check(r, &s, &sp.h) == RK_OK);
    size_t size = rk_table_work_size(&sp.h);
    void *work = malloc(size);
    uint8_t types[RK_TABLE_MAX_CARDS];
    CHECK(work != NULL);
    rk_rng_seed(&rng, 1, 2);
    int moved = 0;
    for (int k = 0; k < 50; k++) {
        CHECK(rk_table_determinize(r, &s, &sp.h, &rng, NULL, work, &d, types) == 1);
        CHECK(rk_table_check(r, &d) == RK_OK);
        CHECK(memcmp(&d.hands[s.player], &s.hands[s.player], sizeof d.hands[0]) == 0);
        CHECK(d.n_stock == s.n_stock && d.shuffle_seed != s.shuffle_seed);
        for (int q = 0; q < r->num_players; q++) {
            int held = 0;
            for (int t = 0; t < RK_NUM_TYPES; t++) held += type_count(d.hands[q], t);
            CHECK(held == r->hand_size);
            moved += memcmp(&d.hands[q], &s.hands[q], sizeof d.hands[0]) != 0;
        }
        for (int i = 0; i < sp.h.n_places; i++) CHECK(type_count(d.hands[sp.seat[i]], types[i]) > 0);
    }
    CHECK(moved > 40);
    /* inconsistent specs */
    sp.pool[0]++;
    CHECK(rk_table_hidden_check(r, &s, &sp.h) == RK_ERR_ARG);
    sp.pool[0]--;
    uint8_t seat = sp.seat[0];
    sp.seat[0] = (uint8_t)s.player; /* a place of the observer */
    CHECK(rk_table_hidden_check(r, &s, &sp.h) == RK_ERR_ARG);
    sp.seat[0] = seat;
    sp.h.known[sp.seat[0]][0] = 3; /* more copies known than held */
    CHECK(rk_table_hidden_check(r, &s, &sp.h) == RK_ERR_ARG);
    sp.h.known[sp.seat[0]][0] = 0;
    CHECK(rk_table_hidden_check(r, &s, &sp.h) == RK_OK);
    CHECK(rk_table_determinize(r, &s, &sp.h, &rng, NULL, NULL, &d, NULL) == RK_ERR_ARG); /* no work buffer */
    /* stock mode: every hand stays */
    rk_table_hidden stock = {0};
    stock.mode = RK_TABLE_RESAMPLE_STOCK;
    stock.observer = 0;
    CHECK(rk_table_determinize(r, &s, &stock, &rng, NULL, NULL, &d, NULL) == 1);
    CHECK(memcmp(d.hands, s.hands, sizeof d.hands) == 0 && d.n_stock == s.n_stock);
    CHECK(memcmp(d.stock, s.stock, (size_t)s.n_stock) != 0);
    stock.stock_group = -1; /* a public stock stays */
    CHECK(rk_table_determinize(r, &s, &stock, &rng, NULL, NULL, &d, NULL) == 1);
    CHECK(memcmp(d.stock, s.stock, (size_t)s.n_stock) == 0 && d.shuffle_seed != s.shuffle_seed);
    free(work);
}

static void test_batches(const rk_table_rules *r) {
    enum { N = 40 };
    rk_table_state s;
    spec sp;
    int np = r->num_players;
    int32_t v1[N * 6], v2[N * 6];
    uint8_t o1[N], o2[N];
    int8_t w1[N], w2[N];
    rk_table_memo *memo = rk_table_memo_new();
    deal(r, 11, &s);
    fresh_spec(r, &s, &sp);
    void *work = malloc(rk_table_work_size(&sp.h));
    CHECK(work != NULL && memo != NULL);
    for (int policy = 0; policy < 2; policy++) {
        CHECK(rk_table_playouts(r, &s, &sp.h, policy, 7, 0, N, memo, work, v1, o1, w1) == RK_OK);
        /* split in two, without the memo: the same arrays */
        CHECK(rk_table_playouts(r, &s, &sp.h, policy, 7, 0, N / 4, NULL, work, v2, o2, w2) == RK_OK);
        CHECK(rk_table_playouts(r, &s, &sp.h, policy, 7, N / 4, N - N / 4, NULL, work, v2 + N / 4 * np, o2 + N / 4,
                                w2 + N / 4) == RK_OK);
        CHECK(memcmp(v1, v2, sizeof(int32_t) * N * (size_t)np) == 0 && memcmp(o1, o2, N) == 0 &&
              memcmp(w1, w2, N) == 0);
        int differ = 0;
        for (int i = 0; i < N; i++) {
            CHECK(o1[i] >= RK_TABLE_DEAD && o1[i] <= RK_TABLE_CALL_OFF);
            CHECK((w1[i] >= 0) == (o1[i] != RK_TABLE_DEAD && o1[i] != RK_TABLE_BLOCKED));
            for (int q = 0; q < np && w1[i] >= 0; q++) CHECK(v1[i * np + q] <= v1[i * np + w1[i]]);
            differ += memcmp(v1 + i * np, v1, sizeof(int32_t) * (size_t)np) != 0;
        }
        CHECK(differ > 0);
    }
    /* no resampling: greedy playouts all reach the same end */
    CHECK(rk_table_playouts(r, &s, NULL, RK_TABLE_POLICY_GREEDY, 3, 0, N, memo, NULL, v1, o1, w1) == RK_OK);
    for (int i = 1; i < N; i++) CHECK(memcmp(v1 + i * np, v1, sizeof(int32_t) * (size_t)np) == 0 && o1[i] == o1[0]);
    /* bad arguments */
    CHECK(rk_table_playouts(r, &s, NULL, 2, 3, 0, N, memo, NULL, v1, o1, w1) == RK_ERR_ARG);
    CHECK(rk_table_playouts(r, &s, &sp.h, 1, 3, 0, N, memo, NULL, v1, o1, w1) == RK_ERR_ARG); /* no work */
    CHECK(rk_table_playouts(r, &s, NULL, 1, 3, 0, N, memo, NULL, NULL, o1, w1) == RK_ERR_ARG);
    CHECK(rk_table_playouts(r, &s, NULL, 1, 3, 0, 0, memo, NULL, NULL, NULL, NULL) == RK_OK);
    rk_table_state bad = s;
    bad.hands[0] = bad.hands[1]; /* a card in two places */
    CHECK(rk_table_playouts(r, &bad, NULL, 1, 3, 0, N, memo, NULL, v1, o1, w1) == RK_ERR_ARG);
    CHECK(rk_table_greedy(NULL, &s, memo) == RK_ERR_ARG);
    CHECK(rk_table_policy_action(r, &s, memo, RK_TABLE_POLICY_RANDOM, NULL) == RK_ERR_ARG);
    rk_table_memo_free(memo);
    free(work);
}

static void rate(const char *name, const rk_table_rules *r, int hands) {
    rk_table_memo *memo = rk_table_memo_new();
    rk_table_state s;
    struct timespec t0, t1;
    long actions = 0, total = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int h = 0; h < hands; h++) {
        rk_rng rng;
        deal(r, (uint64_t)h + 1000, &s);
        rk_rng_seed(&rng, 1, (uint64_t)h);
        CHECK(rk_table_playout(r, &s, memo, RK_TABLE_POLICY_GREEDY, &rng, &actions) == RK_OK);
        total += actions;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%-12s greedy playouts from fresh deals: %8.0f hands/s, %.1f actions per hand\n", name, hands / sec,
           (double)total / hands);
    rk_table_memo_free(memo);
}

int main(void) {
    const struct {
        const char *name;
        rk_table_rules r;
    } games[] = {{"rummy-2", rummy_rules(2)},   {"rummy-4", rummy_rules(4)}, {"rummy-6", rummy_rules(6)},
                 {"kaluki-2", kaluki_rules(2, 2)}, {"kaluki-4", kaluki_rules(4, 2)}};
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        CHECK(rk_table_rules_check(&games[g].r) == RK_OK);
        greedy_hands(games[g].name, &games[g].r, games[g].r.kaluki ? 20 : 100);
        test_determinize(&games[g].r);
        test_batches(&games[g].r);
    }
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++)
        rate(games[g].name, &games[g].r, games[g].r.kaluki ? 200 : 2000);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all table playout tests passed\n");
    return 0;
}
