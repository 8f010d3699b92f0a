/* C tests of batched play (rummykit/vector.h), no Python: seeded random
 * steps of Gin, 3-player Oklahoma Rummy, Rummy and Kaluki where every row's
 * buffers are checked against the row replayed by the engine from
 * rk_vector_row (legal mask, player, observation), the same arrays with 1
 * and 3 threads, an illegal action refused with nothing changed (also when
 * the caller wrote garbage into its counts and legal ids: the core never
 * reads them back), and with random or greedy opponents the learner's seat
 * to move all through a hand; rk_vector_step_some against rk_vector_step
 * (stepped rows as a full step's, skipped rows untouched).  The
 * equality with the Python states is tests/envs/test_vector.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rummykit/policy.h"
#include "rummykit/vector.h"
#include "check.h"
#include "table_fixtures.h"

typedef struct game {
    int table;
    int space; /* table games: RK_VECTOR_FIXED or RK_VECTOR_DENSE */
    rk_rules rules;
    rk_knock_rules kr;
    rk_table_rules tr;
} game;

typedef struct run {
    rk_vector *v;
    rk_vector_buffers b;
    int batch, actions, obs, players, ids_width; /* ids_width: a row's legal_ids (0: none) */
} run;

static run start(const game *g, int batch, uint64_t seed, int threads, int opponents) {
    run r;
    r.batch = batch;
    int fixed = g->table && g->space == RK_VECTOR_FIXED;
    r.actions = !g->table ? RK_KNOCK_NUM_ACTIONS : fixed ? RK_TABLE_FIXED_ACTIONS : RK_VECTOR_TABLE_ACTIONS;
    r.ids_width = !g->table ? RK_MAX_LEGAL : fixed ? RK_VECTOR_TABLE_ACTIONS : 0;
    r.obs = g->table ? RK_TABLE_OBS_SIZE : RK_KNOCK_OBS_SIZE;
    r.players = g->table ? g->tr.num_players : g->kr.num_players;
    r.b.legal_mask = calloc((size_t)batch * (size_t)r.actions, 1);
    r.b.observation = calloc((size_t)batch * (size_t)r.obs, sizeof(float));
    r.b.current_player = calloc((size_t)batch, sizeof(int32_t));
    r.b.rewards = calloc((size_t)batch * (size_t)r.players, sizeof(float));
    r.b.terminated = calloc((size_t)batch, 1);
    r.b.num_legal = calloc((size_t)batch, sizeof(int32_t));
    r.b.legal_ids = r.ids_width ? calloc((size_t)batch * (size_t)r.ids_width, sizeof(int32_t)) : NULL;
    r.b.outcome = calloc((size_t)batch, sizeof(int32_t));
    r.b.winner = calloc((size_t)batch, sizeof(int32_t));
    r.b.hand_score = calloc((size_t)batch * (size_t)r.players, sizeof(int32_t));
    r.b.deadwood = calloc((size_t)batch * (size_t)r.players, sizeof(int32_t));
    r.v = g->table ? rk_vector_new_table(&g->tr, g->space, batch, threads, &r.b)
                   : rk_vector_new_knock(&g->rules, &g->kr, batch, threads, &r.b);
    if (!r.v || rk_vector_set_opponents(r.v, opponents) != RK_OK || rk_vector_reset(r.v, seed) != RK_OK) {
        fprintf(stderr, "no vector\n");
        exit(1);
    }
    return r;
}

static void stop(run *r) {
    rk_vector_free(r->v);
    free(r->b.legal_mask);
    free(r->b.observation);
    free(r->b.current_player);
    free(r->b.rewards);
    free(r->b.terminated);
    free(r->b.outcome);
    free(r->b.winner);
    free(r->b.hand_score);
    free(r->b.deadwood);
    free(r->b.num_legal);
    free(r->b.legal_ids);
}

/* A random legal action of each row, from its mask. */
static void choose(const run *r, rk_rng *rng, int32_t *actions) {
    for (int i = 0; i < r->batch; i++) {
        const uint8_t *m = r->b.legal_mask + (size_t)i * (size_t)r->actions;
        int n = 0;
        for (int a = 0; a < r->actions; a++) n += m[a];
        int k = (int)rk_rng_below(rng, (uint32_t)n);
        for (int a = 0; a < r->actions; a++)
            if (m[a] && k-- == 0) actions[i] = a;
    }
}

/* Row i replayed from its deal by the engine: the mask, player and observation agree. */
static void check_row(const game *g, const run *r, int i, rk_table_memo *memo) {
    const uint8_t *deck;
    const int32_t *log;
    int deck_size, dealer, n_log, n = 0;
    uint64_t seed;
    int64_t hands;
    /* either family's observation */
    static float obs[RK_TABLE_OBS_SIZE > RK_KNOCK_OBS_SIZE ? RK_TABLE_OBS_SIZE : RK_KNOCK_OBS_SIZE];
    static int32_t ids[RK_VECTOR_TABLE_ACTIONS];
    const uint8_t *mask = r->b.legal_mask + (size_t)i * (size_t)r->actions;
    CHECK(rk_vector_row(r->v, i, &deck, &deck_size, &dealer, &seed, &log, &n_log, &hands) == RK_OK);
    if (g->table) {
        static uint8_t known[RK_TABLE_MAX_PLAYERS * RK_NUM_TYPES];
        rk_table_state s, before;
        memset(known, 0, sizeof known);
        CHECK(rk_table_deal(&g->tr, deck, dealer, seed, &s) == RK_OK);
        for (int k = 0; k < n_log; k++) {
            before = s;
            CHECK(rk_table_apply(&g->tr, &s, memo, log[k]) == RK_OK);
            rk_table_known_step(&g->tr, &before, &s, log[k], known, NULL);
        }
        CHECK(rk_table_check(&g->tr, &s) == RK_OK);
        n = rk_table_legal(&g->tr, &s, memo, ids, RK_VECTOR_TABLE_ACTIONS);
        if (g->space == RK_VECTOR_DENSE) {
            for (int a = 0; a < r->actions; a++) CHECK(mask[a] == (a < n));
            CHECK(r->b.num_legal[i] == n);
        } else {
            /* the fixed ids: one per legal id, the mask exactly theirs, each resolving to its id */
            const int32_t *out = r->b.legal_ids + (size_t)i * (size_t)r->ids_width;
            int sum = 0;
            for (int a = 0; a < r->actions; a++) sum += mask[a];
            CHECK(sum == n && r->b.num_legal[i] == n);
            for (int k = 0; k < n; k++) {
                int32_t f = rk_table_fixed_id(ids[k]);
                CHECK(f >= 0 && f < RK_TABLE_FIXED_ACTIONS && mask[f] == 1 && out[k] == f);
                CHECK(rk_table_fixed_resolve(ids, n, f) == ids[k]);
            }
        }
        CHECK(r->b.current_player[i] == s.player);
        CHECK(rk_table_observe(&g->tr, &s, known, s.player, obs) == RK_OK);
    } else {
        rk_position p;
        int legal[RK_MAX_LEGAL];
        CHECK(rk_position_deal(&g->kr, deck, dealer, seed, &p) == RK_OK);
        for (int k = 0; k < n_log; k++) CHECK(rk_apply_action(&g->rules, &g->kr, &p, log[k], NULL) == RK_OK);
        n = rk_legal_actions(&g->rules, &g->kr, &p, legal);
        int sum = 0;
        for (int a = 0; a < r->actions; a++) sum += mask[a];
        CHECK(sum == n);
        for (int k = 0; k < n; k++) CHECK(mask[legal[k]] == 1 && r->b.legal_ids[(size_t)i * RK_MAX_LEGAL + k] == legal[k]);
        CHECK(r->b.num_legal[i] == n);
        CHECK(r->b.current_player[i] == p.player);
        CHECK(rk_knock_observe(&g->rules, &g->kr, &p, p.player, obs) == RK_OK);
    }
    CHECK(memcmp(obs, r->b.observation + (size_t)i * (size_t)r->obs, (size_t)r->obs * sizeof(float)) == 0);
}

static int same(const run *a, const run *b) {
    return !memcmp(a->b.legal_mask, b->b.legal_mask, (size_t)a->batch * (size_t)a->actions) &&
           !memcmp(a->b.observation, b->b.observation, (size_t)a->batch * (size_t)a->obs * sizeof(float)) &&
           !memcmp(a->b.current_player, b->b.current_player, (size_t)a->batch * sizeof(int32_t)) &&
           !memcmp(a->b.rewards, b->b.rewards, (size_t)a->batch * (size_t)a->players * sizeof(float)) &&
           !memcmp(a->b.terminated, b->b.terminated, (size_t)a->batch);
}

static int ended_total;

/* The most legal actions a row of this run could list. */
static int32_t r_max_count(const run *r) {
    return r->actions == RK_KNOCK_NUM_ACTIONS ? RK_MAX_LEGAL : RK_VECTOR_TABLE_ACTIONS;
}

/* With opponents (policy >= 0) the learner's seat is the player to move in every step of a hand. */
static void play(const char *name, const game *g, int batch, int steps, int opponents) {
    run one = start(g, batch, 7, 1, opponents), three = start(g, batch, 7, 3, opponents);
    int32_t *seats = malloc((size_t)batch * sizeof(int32_t));
    rk_table_memo *memo = rk_table_memo_new();
    int32_t *actions = malloc((size_t)batch * sizeof(int32_t));
    rk_rng rng;
    int ended = 0, bad = -1;
    rk_rng_seed(&rng, 11, 0);
    CHECK(same(&one, &three));
    for (int s = 0; s < steps; s++) {
        choose(&one, &rng, actions);
        memcpy(seats, one.b.current_player, (size_t)batch * sizeof(int32_t));
        if (s % 5 == 0) /* the caller's counts and legal ids scribbled on: only written by the core */
            for (int i = 0; i < batch; i++) {
                one.b.num_legal[i] = i % 2 ? INT32_MAX : INT32_MIN;
                for (int k = 0; k < one.ids_width; k++) one.b.legal_ids[(size_t)i * (size_t)one.ids_width + (size_t)k] = -k;
            }
        CHECK(rk_vector_step(one.v, actions, &bad) == RK_OK);
        CHECK(rk_vector_step(three.v, actions, &bad) == RK_OK);
        CHECK(same(&one, &three));
        for (int i = 0; i < batch; i++) {
            ended += one.b.terminated[i];
            if (opponents >= 0 && !one.b.terminated[i]) CHECK(one.b.current_player[i] == seats[i]);
            if (s % 7 == 0 || one.b.terminated[i]) check_row(g, &one, i, memo);
            /* the ended hand's report: an outcome, its winner the one the rewards name; none elsewhere */
            CHECK((one.b.outcome[i] >= 0) == one.b.terminated[i]);
            CHECK(one.b.winner[i] < 0 ? !one.b.rewards[(size_t)i * (size_t)one.players]
                                      : one.b.rewards[(size_t)i * (size_t)one.players + (size_t)one.b.winner[i]] == 1.0f);
        }
    }
    /* an illegal action in the last row: refused, naming it, nothing changed */
    choose(&one, &rng, actions);
    actions[batch - 1] = -1;
    CHECK(rk_vector_step(one.v, actions, &bad) == RK_ERR_ARG && bad == batch - 1);
    CHECK(same(&one, &three));
    /* the first illegal action of the last row, with the caller's count and ids saying it is legal */
    actions[batch - 1] = 0;
    if (g->table && g->space == RK_VECTOR_DENSE)
        actions[batch - 1] = one.b.num_legal[batch - 1];
    else
        while (one.b.legal_mask[(size_t)(batch - 1) * (size_t)one.actions + (size_t)actions[batch - 1]])
            actions[batch - 1]++;
    one.b.num_legal[batch - 1] = r_max_count(&one);
    if (one.b.legal_ids) one.b.legal_ids[(size_t)(batch - 1) * (size_t)one.ids_width] = actions[batch - 1];
    CHECK(rk_vector_step(one.v, actions, &bad) == RK_ERR_ARG && bad == batch - 1);
    /* a fixed id past the space, and one that is no move at all (a set meld of no suits) */
    if (g->table && g->space == RK_VECTOR_FIXED) {
        actions[batch - 1] = RK_TABLE_FIXED_ACTIONS;
        CHECK(rk_vector_step(one.v, actions, &bad) == RK_ERR_ARG && bad == batch - 1);
        actions[batch - 1] = RK_TABLE_FIXED_MELD_SET;
        CHECK(rk_vector_step(one.v, actions, &bad) == RK_ERR_ARG && bad == batch - 1);
    }
    one.b.num_legal[batch - 1] = three.b.num_legal[batch - 1];
    if (one.b.legal_ids) {
        size_t first = (size_t)(batch - 1) * (size_t)one.ids_width;
        one.b.legal_ids[first] = three.b.legal_ids[first];
    }
    CHECK(same(&one, &three));
    for (int i = 0; i < batch; i++) check_row(g, &one, i, memo);
    ended_total += ended;
    printf("%s (opponents %d): %d rows x %d steps, %d hands ended\n", name, opponents, batch, steps, ended);
    free(actions);
    free(seats);
    rk_table_memo_free(memo);
    stop(&one);
    stop(&three);
}

/* Row i's buffers, the ones a step leaves alone in a skipped row (mask, observation, player, counts,
 * legal ids, deadwood), equal in runs a and b. */
static int same_row(const run *a, int i, const run *b) {
    size_t p = (size_t)a->players;
    return !memcmp(a->b.legal_mask + (size_t)i * (size_t)a->actions, b->b.legal_mask + (size_t)i * (size_t)a->actions,
                   (size_t)a->actions) &&
           !memcmp(a->b.observation + (size_t)i * (size_t)a->obs, b->b.observation + (size_t)i * (size_t)a->obs,
                   (size_t)a->obs * sizeof(float)) &&
           a->b.current_player[i] == b->b.current_player[i] && a->b.num_legal[i] == b->b.num_legal[i] &&
           (!a->ids_width || !memcmp(a->b.legal_ids + (size_t)i * (size_t)a->ids_width,
                                     b->b.legal_ids + (size_t)i * (size_t)a->ids_width,
                                     (size_t)a->b.num_legal[i] * sizeof(int32_t))) &&
           !memcmp(a->b.deadwood + (size_t)i * p, b->b.deadwood + (size_t)i * p, p * sizeof(int32_t));
}

/* Row i's step report (rewards, terminated, outcome, winner, hand score) equal in runs a and b. */
static int same_report(const run *a, int i, const run *b) {
    size_t p = (size_t)a->players;
    return !memcmp(a->b.rewards + (size_t)i * p, b->b.rewards + (size_t)i * p, p * sizeof(float)) &&
           a->b.terminated[i] == b->b.terminated[i] && a->b.outcome[i] == b->b.outcome[i] &&
           a->b.winner[i] == b->b.winner[i] &&
           !memcmp(a->b.hand_score + (size_t)i * p, b->b.hand_score + (size_t)i * p, p * sizeof(int32_t));
}

/* Row i's report of a skipped row: nothing ended. */
static int no_report(const run *a, int i) {
    for (int q = 0; q < a->players; q++)
        if (a->b.rewards[(size_t)i * (size_t)a->players + (size_t)q] != 0.0f ||
            a->b.hand_score[(size_t)i * (size_t)a->players + (size_t)q] != 0)
            return 0;
    return !a->b.terminated[i] && a->b.outcome[i] == -1 && a->b.winner[i] == -1;
}

/* Row i's engine state (deck, dealer, restock seed, log, hands finished) equal in runs a and b. */
static int same_engine_row(const run *a, int i, const run *b) {
    const uint8_t *deck[2];
    const int32_t *log[2];
    int deck_size[2], dealer[2], n_log[2];
    uint64_t seed[2];
    int64_t hands[2];
    CHECK(rk_vector_row(a->v, i, &deck[0], &deck_size[0], &dealer[0], &seed[0], &log[0], &n_log[0], &hands[0]) == RK_OK);
    CHECK(rk_vector_row(b->v, i, &deck[1], &deck_size[1], &dealer[1], &seed[1], &log[1], &n_log[1], &hands[1]) == RK_OK);
    return deck_size[0] == deck_size[1] && !memcmp(deck[0], deck[1], (size_t)deck_size[0]) && dealer[0] == dealer[1] &&
           seed[0] == seed[1] && n_log[0] == n_log[1] && !memcmp(log[0], log[1], (size_t)n_log[0] * sizeof(int32_t)) &&
           hands[0] == hands[1];
}

/* rk_vector_step_some against rk_vector_step: run `some` (3 threads) steps a random subset of the rows
 * with the actions run `full` (1 thread) plays in every row, then the other rows.  After the first call
 * the stepped rows equal full's (buffers, report, engine row) and the skipped ones are byte for byte
 * what they were, reporting nothing ended; after the second the two runs agree everywhere.  Then the
 * refusals: an illegal action in a stepped row (nothing changed, skipped rows included), an id below
 * RK_VECTOR_SKIP, and a skip every row (nothing changed but the reports). */
static void step_some(const char *name, const game *g, int batch, int steps, int opponents) {
    run full = start(g, batch, 5, 1, opponents), some = start(g, batch, 5, 3, opponents), before;
    int32_t *actions = malloc((size_t)batch * sizeof(int32_t)), *part = malloc((size_t)batch * sizeof(int32_t));
    uint8_t *chosen = malloc((size_t)batch);
    rk_rng rng;
    int bad = -1, stepped = 0, skipped = 0, ended = 0;
    rk_rng_seed(&rng, 13, 0);
    before = start(g, batch, 5, 1, opponents); /* a copy of some's buffers before each call */
    for (int s = 0; s < steps; s++) {
        choose(&full, &rng, actions);
        /* s % 4 == 0: every row in one call (the other call skips them all), else a random subset */
        for (int i = 0; i < batch; i++) chosen[i] = s % 4 == 0 ? 1 : (uint8_t)rk_rng_below(&rng, 2);
        for (int half = 0; half < 2; half++) {
            for (int i = 0; i < batch; i++) part[i] = chosen[i] == !half ? actions[i] : RK_VECTOR_SKIP;
            memcpy(before.b.legal_mask, some.b.legal_mask, (size_t)batch * (size_t)some.actions);
            memcpy(before.b.observation, some.b.observation, (size_t)batch * (size_t)some.obs * sizeof(float));
            memcpy(before.b.current_player, some.b.current_player, (size_t)batch * sizeof(int32_t));
            memcpy(before.b.num_legal, some.b.num_legal, (size_t)batch * sizeof(int32_t));
            if (some.ids_width)
                memcpy(before.b.legal_ids, some.b.legal_ids, (size_t)batch * (size_t)some.ids_width * sizeof(int32_t));
            memcpy(before.b.deadwood, some.b.deadwood, (size_t)batch * (size_t)some.players * sizeof(int32_t));
            if (half == 0) CHECK(rk_vector_step(full.v, actions, &bad) == RK_OK);
            CHECK(rk_vector_step_some(some.v, part, &bad) == RK_OK && bad == -1);
            for (int i = 0; i < batch; i++) {
                if (part[i] == RK_VECTOR_SKIP) {
                    CHECK(same_row(&some, i, &before) && no_report(&some, i));
                    skipped++;
                } else {
                    CHECK(same_row(&some, i, &full) && same_report(&some, i, &full) && same_engine_row(&some, i, &full));
                    stepped++;
                    ended += some.b.terminated[i];
                }
            }
        }
        for (int i = 0; i < batch; i++) CHECK(same_row(&some, i, &full) && same_engine_row(&some, i, &full));
    }
    /* an illegal action in the last stepped row, the first row skipped: refused naming it, nothing played */
    choose(&full, &rng, actions);
    for (int i = 0; i < batch; i++) part[i] = i == 0 ? RK_VECTOR_SKIP : actions[i];
    part[batch - 1] = 0;
    if (g->table && g->space == RK_VECTOR_DENSE)
        part[batch - 1] = some.b.num_legal[batch - 1];
    else
        while (some.b.legal_mask[(size_t)(batch - 1) * (size_t)some.actions + (size_t)part[batch - 1]]) part[batch - 1]++;
    memcpy(before.b.rewards, some.b.rewards, (size_t)batch * (size_t)some.players * sizeof(float));
    memcpy(before.b.terminated, some.b.terminated, (size_t)batch);
    CHECK(rk_vector_step_some(some.v, part, &bad) == RK_ERR_ARG && bad == batch - 1);
    part[batch - 1] = -2; /* below RK_VECTOR_SKIP: no action, not a skip */
    CHECK(rk_vector_step_some(some.v, part, &bad) == RK_ERR_ARG && bad == batch - 1);
    part[batch - 1] = INT32_MIN;
    CHECK(rk_vector_step_some(some.v, part, &bad) == RK_ERR_ARG && bad == batch - 1);
    CHECK(!memcmp(before.b.rewards, some.b.rewards, (size_t)batch * (size_t)some.players * sizeof(float)) &&
          !memcmp(before.b.terminated, some.b.terminated, (size_t)batch));
    for (int i = 0; i < batch; i++) CHECK(same_row(&some, i, &full) && same_engine_row(&some, i, &full));
    /* a skip every row: nothing moves, every row reports nothing ended */
    for (int i = 0; i < batch; i++) part[i] = RK_VECTOR_SKIP;
    CHECK(rk_vector_step_some(some.v, part, &bad) == RK_OK && bad == -1);
    for (int i = 0; i < batch; i++) CHECK(same_row(&some, i, &full) && same_engine_row(&some, i, &full) && no_report(&some, i));
    /* rk_vector_step is not rk_vector_step_some: a skip there is an illegal action */
    CHECK(rk_vector_step(some.v, part, &bad) == RK_ERR_ARG && bad == 0);
    CHECK(rk_vector_step_some(NULL, part, &bad) == RK_ERR_ARG && bad == -1);
    CHECK(rk_vector_step_some(some.v, NULL, &bad) == RK_ERR_ARG);
    CHECK(stepped > 0 && skipped > 0 && ended > 0);
    printf("%s step_some (opponents %d): %d rows stepped, %d skipped, %d hands ended\n", name, opponents, stepped,
           skipped, ended);
    free(actions);
    free(part);
    free(chosen);
    stop(&full);
    stop(&some);
    stop(&before);
}

/* The fixed ids' codec (table.h): every fixed id's factored form maps back to it, each engine id
 * of a fixed id's range maps to it, and the blocks tile 0 .. RK_TABLE_FIXED_ACTIONS - 1. */
static void fixed_codec(void) {
    int32_t heads[RK_TABLE_NUM_HEADS], moves = 0;
    for (int32_t f = -1; f <= RK_TABLE_FIXED_ACTIONS; f++) {
        int32_t first = rk_table_fixed_first(f);
        if (f < 0 || f == RK_TABLE_FIXED_ACTIONS) {
            CHECK(first == -1 && rk_table_fixed_factor(f, heads) == -1);
            continue;
        }
        CHECK(first >= 0 && rk_table_is_action_id(first) && rk_table_fixed_id(first) == f);
        if (f >= RK_TABLE_FIXED_MELD_RUN) CHECK(rk_table_fixed_id(first + 8191) == f && rk_table_fixed_id(first + 8192) != f);
        if (rk_table_fixed_factor(f, heads) != 0) continue; /* a set meld or release of no suits */
        moves++;
        unsigned use = rk_table_kind_heads(heads[RK_TABLE_HEAD_KIND]);
        for (int h = 0; h < RK_TABLE_NUM_HEADS; h++)
            CHECK((use >> h & 1) ? heads[h] >= 0 && heads[h] < rk_table_head_size(h) : heads[h] == -1);
        CHECK(rk_table_fixed_unfactor(heads) == f);
        for (int h = 1; h < RK_TABLE_NUM_HEADS; h++) /* a head the kind does not use is ignored */
            if (!(use >> h & 1)) {
                heads[h] = 99;
                CHECK(rk_table_fixed_unfactor(heads) == f);
                heads[h] = -1;
            }
    }
    /* 53 discards, draw, take, 40 x 106 lay-offs, 40 x 52 run and 40 x 15 set releases, 13 x 29 sets of 3-4
     * cards, 616 runs */
    CHECK(moves == 55 + 4240 + 2080 + 600 + 13 * 29 + 616);
    heads[RK_TABLE_HEAD_KIND] = RK_TABLE_KIND_RELEASE_RUN;
    heads[RK_TABLE_HEAD_SLOT] = 0;
    heads[RK_TABLE_HEAD_CARD] = RK_JOKER;
    CHECK(rk_table_fixed_unfactor(heads) == -1);
    heads[RK_TABLE_HEAD_KIND] = RK_TABLE_NUM_KINDS;
    CHECK(rk_table_fixed_unfactor(heads) == -1);
    CHECK(rk_table_fixed_id(RK_TABLE_TAKE + 1) == -1 && rk_table_fixed_id(RK_TABLE_NUM_ACTIONS) == -1);
    CHECK(rk_table_fixed_id(rk_table_run_id(0, 0, 2, 0)) == -1);
}

static void bad_arguments(void) {
    game g;
    rk_vector_buffers b;
    uint8_t mask[RK_KNOCK_NUM_ACTIONS];
    float obs[RK_TABLE_OBS_SIZE > RK_KNOCK_OBS_SIZE ? RK_TABLE_OBS_SIZE : RK_KNOCK_OBS_SIZE], rewards[2];
    int32_t player, num_legal, ids[RK_MAX_LEGAL];
    uint8_t terminated;
    b.num_legal = &num_legal;
    b.legal_ids = ids;
    b.legal_mask = mask;
    b.observation = obs;
    b.current_player = &player;
    b.rewards = rewards;
    b.terminated = &terminated;
    b.outcome = b.winner = b.hand_score = b.deadwood = NULL; /* optional */
    CHECK(rk_rules_init(&g.rules, RK_ACES_LOW, NULL) == RK_OK);
    CHECK(rk_knock_rules_init(&g.kr, RK_GAME_GIN, 2) == RK_OK);
    CHECK(rk_vector_new_knock(&g.rules, &g.kr, 0, 1, &b) == NULL);
    CHECK(rk_vector_new_knock(&g.rules, &g.kr, 1, 0, &b) == NULL);
    CHECK(rk_vector_new_knock(&g.rules, &g.kr, 1, 1, NULL) == NULL);
    b.legal_ids = NULL; /* required by knock games */
    CHECK(rk_vector_new_knock(&g.rules, &g.kr, 1, 1, &b) == NULL);
    b.legal_ids = ids;
    g.kr.num_players = 7;
    CHECK(rk_vector_new_knock(&g.rules, &g.kr, 1, 1, &b) == NULL);
    g.tr = rummy_rules(2);
    g.tr.num_players = 9;
    CHECK(rk_vector_new_table(&g.tr, RK_VECTOR_FIXED, 1, 1, &b) == NULL);
    g.tr.num_players = 2;
    CHECK(rk_vector_new_table(&g.tr, 2, 1, 1, &b) == NULL); /* no such action space */
    b.legal_ids = NULL; /* required by the fixed space */
    CHECK(rk_vector_new_table(&g.tr, RK_VECTOR_FIXED, 1, 1, &b) == NULL);
    CHECK(rk_vector_step(NULL, NULL, NULL) == RK_ERR_ARG);
    CHECK(rk_vector_num_actions(NULL) == RK_ERR_ARG);
    rk_vector_free(NULL);
}

int main(void) {
    game g;
    memset(&g, 0, sizeof g);
    CHECK(rk_rules_init(&g.rules, RK_ACES_LOW, NULL) == RK_OK);
    CHECK(rk_knock_rules_init(&g.kr, RK_GAME_GIN, 2) == RK_OK);
    play("gin", &g, 24, 150, -1);
    play("gin", &g, 24, 100, RK_POLICY_GREEDY);
    step_some("gin", &g, 16, 120, -1);
    step_some("gin", &g, 16, 60, RK_POLICY_GREEDY);
    CHECK(rk_knock_rules_init(&g.kr, RK_GAME_OKLAHOMA_RUMMY, 3) == RK_OK);
    play("oklahoma-rummy 3p", &g, 12, 150, -1);
    play("oklahoma-rummy 3p", &g, 12, 60, RK_POLICY_RANDOM);
    g.table = 1;
    for (g.space = RK_VECTOR_FIXED; g.space <= RK_VECTOR_DENSE; g.space++) {
        g.tr = rummy_rules(4);
        play(g.space == RK_VECTOR_FIXED ? "rummy 4p fixed" : "rummy 4p dense", &g, 12, 150, -1);
        play("rummy 4p", &g, 12, 60, RK_POLICY_GREEDY);
        g.tr = kaluki_rules(3, 2);
        play(g.space == RK_VECTOR_FIXED ? "kaluki 3p fixed" : "kaluki 3p dense", &g, 6, 150, -1);
        play("kaluki 3p", &g, 6, 40, RK_POLICY_RANDOM);
        step_some(g.space == RK_VECTOR_FIXED ? "kaluki 3p fixed" : "kaluki 3p dense", &g, 6, 80, RK_POLICY_RANDOM);
        g.tr = rummy_rules(2);
        step_some(g.space == RK_VECTOR_FIXED ? "rummy 2p fixed" : "rummy 2p dense", &g, 8, 80, RK_POLICY_GREEDY);
    }
    fixed_codec();
    CHECK(ended_total > 0);
    bad_arguments();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("all vector tests passed\n");
    return 0;
}
