/* Batched play (rummykit/vector.h): rows of knock or table hands stepped
 * together, every rule from the engines' own functions. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rummykit/policy.h"
#include "rummykit/table_playouts.h"
#include "knock_internal.h"
#include "table_internal.h"
#include "rummykit/vector.h"

#define LOG_START 128
#define KNOCK_WORDS ((RK_KNOCK_NUM_ACTIONS + 63) / 64) /* a knock row's legal ids as bits */

struct rk_vector {
    int table; /* 0 knock, 1 table */
    int fixed; /* table rows: 1 the fixed action space, 0 the dense per-state index (rk_vector_new_table) */
    int batch, threads, n_players, num_actions, obs_dim, deck_size, cap;
    int opponents; /* -1: every seat is the caller's, else the others' policy (rk_vector_set_opponents) */
    int broken;    /* a step or reset failed after rows changed: every call but a reset refuses (vector.h) */
    const rk_rules *rules;
    rk_knock_rules kr;
    rk_table_rules tr;
    rk_vector_buffers out;
    rk_position *kpos;
    rk_table_state *tst;
    uint8_t *known;       /* table: per row, n_players x RK_NUM_TYPES known counts */
    rk_table_memo **memo; /* table: one per thread */
    rk_rng *rng;
    rk_rng *orng;  /* per row, the opponents' random policy */
    int *learner;  /* per row, the caller's seat (-1 without opponents) */
    uint8_t *deck;
    int *dealer;
    uint64_t *shuffle_seed;
    int64_t *hands;
    /* Ours alone, never the caller's buffers (which are only written): the step's actions as
     * copied before any check, and per row the number of legal actions and the legal ids: a
     * table row's engine ids (cap of them, sorted: dense action k is legal[k], a fixed id's is
     * rk_table_fixed_resolve of them), a knock row's as KNOCK_WORDS
     * words of bits (compact: a row's check and mask clearing touch 88 bytes). */
    int32_t *actions;
    int32_t *legal;
    uint64_t *bits;
    int32_t *n_legal;
    int32_t **log;
    int *n_log, *log_cap;
};

void rk_vector_free(rk_vector *v) {
    if (!v) return;
    if (v->log)
        for (int i = 0; i < v->batch; i++) free(v->log[i]);
    if (v->memo)
        for (int t = 0; t < v->threads; t++) rk_table_memo_free(v->memo[t]);
    free(v->kpos);
    free(v->tst);
    free(v->known);
    free(v->memo);
    free(v->rng);
    free(v->orng);
    free(v->learner);
    free(v->deck);
    free(v->dealer);
    free(v->shuffle_seed);
    free(v->hands);
    free(v->actions);
    free(v->legal);
    free(v->bits);
    free(v->n_legal);
    free(v->log);
    free(v->n_log);
    free(v->log_cap);
    free(v);
}

static rk_vector *alloc_rows(int table, int fixed, int batch, int threads, int n_players, int deck_size,
                             const rk_vector_buffers *buffers) {
    size_t b = (size_t)batch;
    if (batch < 1 || threads < 1 || threads > RK_VECTOR_MAX_THREADS || !buffers || !buffers->legal_mask ||
        !buffers->observation || !buffers->current_player || !buffers->rewards || !buffers->terminated ||
        !buffers->num_legal || (fixed && !buffers->legal_ids))
        return NULL;
    rk_vector *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->table = table;
    v->fixed = fixed;
    v->batch = batch;
    v->threads = threads;
    v->n_players = n_players;
    v->deck_size = deck_size;
    v->out = *buffers;
    v->num_actions = !table ? RK_KNOCK_NUM_ACTIONS : fixed ? RK_TABLE_FIXED_ACTIONS : RK_VECTOR_TABLE_ACTIONS;
    v->obs_dim = table ? RK_TABLE_OBS_SIZE : RK_KNOCK_OBS_SIZE;
    v->cap = table ? RK_VECTOR_TABLE_ACTIONS : RK_MAX_LEGAL;
    v->opponents = -1;
    v->rng = calloc(b, sizeof *v->rng);
    v->orng = calloc(b, sizeof *v->orng);
    v->learner = calloc(b, sizeof *v->learner);
    v->deck = calloc(b * (size_t)deck_size, 1);
    v->dealer = calloc(b, sizeof *v->dealer);
    v->shuffle_seed = calloc(b, sizeof *v->shuffle_seed);
    v->hands = calloc(b, sizeof *v->hands);
    v->actions = calloc(b, sizeof *v->actions);
    if (table)
        v->legal = calloc(b * (size_t)v->cap, sizeof *v->legal);
    else
        v->bits = calloc(b * KNOCK_WORDS, sizeof *v->bits);
    v->n_legal = calloc(b, sizeof *v->n_legal);
    v->log = calloc(b, sizeof *v->log);
    v->n_log = calloc(b, sizeof *v->n_log);
    v->log_cap = calloc(b, sizeof *v->log_cap);
    if (table) {
        v->tst = calloc(b, sizeof *v->tst);
        v->known = calloc(b * (size_t)n_players * RK_NUM_TYPES, 1);
        v->memo = calloc((size_t)threads, sizeof *v->memo);
    } else {
        v->kpos = calloc(b, sizeof *v->kpos);
    }
    int ok = v->rng && v->orng && v->learner && v->deck && v->dealer && v->shuffle_seed && v->hands && v->actions && (table ? v->legal != NULL : v->bits != NULL) &&
             v->n_legal &&
             v->log && v->n_log && v->log_cap &&
             (table ? v->tst && v->known && v->memo : v->kpos != NULL);
    for (int i = 0; ok && i < batch; i++) {
        v->log[i] = malloc(LOG_START * sizeof(int32_t));
        v->log_cap[i] = LOG_START;
        ok = v->log[i] != NULL;
    }
    for (int t = 0; ok && table && t < threads; t++) ok = (v->memo[t] = rk_table_memo_new()) != NULL;
    if (!ok) {
        rk_vector_free(v);
        return NULL;
    }
    return v;
}

rk_vector *rk_vector_new_knock(const rk_rules *rules, const rk_knock_rules *pr, int batch, int threads,
                               const rk_vector_buffers *buffers) {
    rk_position probe;
    uint8_t deck[RK_NUM_CARDS];
    if (!rules || !pr) return NULL;
    for (int c = 0; c < RK_NUM_CARDS; c++) deck[c] = (uint8_t)c;
    if (rk__knock_rules_check(pr) != RK_OK || rk_position_deal(pr, deck, 0, 0, &probe) != RK_OK) return NULL;
    rk_vector *v = alloc_rows(0, 1, batch, threads, pr->num_players, RK_NUM_CARDS, buffers);
    if (!v) return NULL;
    v->rules = rules;
    v->kr = *pr;
    return v;
}

rk_vector *rk_vector_new_table(const rk_table_rules *rules, int action_space, int batch, int threads,
                               const rk_vector_buffers *buffers) {
    if (!rules || rk_table_rules_check(rules) != RK_OK ||
        (action_space != RK_VECTOR_FIXED && action_space != RK_VECTOR_DENSE))
        return NULL;
    rk_vector *v = alloc_rows(1, action_space == RK_VECTOR_FIXED, batch, threads, rules->num_players,
                              rules->deck_size, buffers);
    if (!v) return NULL;
    v->tr = *rules;
    return v;
}

rk_status rk_vector_set_opponents(rk_vector *v, int policy) {
    if (!v || policy < -1 || policy > RK_POLICY_GREEDY) return RK_ERR_ARG;
    v->opponents = policy;
    return RK_OK;
}

int rk_vector_num_actions(const rk_vector *v) { return v ? v->num_actions : RK_ERR_ARG; }
int rk_vector_obs_dim(const rk_vector *v) { return v ? v->obs_dim : RK_ERR_ARG; }
int rk_vector_num_players(const rk_vector *v) { return v ? v->n_players : RK_ERR_ARG; }

/* Row i's next deal from its generator (vector.h, DEALS). */
static rk_status deal(rk_vector *v, int i) {
    uint8_t *deck = v->deck + (size_t)i * (size_t)v->deck_size;
    rk_rng *rng = &v->rng[i];
    v->dealer[i] = (int)rk_rng_below(rng, (uint32_t)v->n_players);
    for (int c = 0; c < v->deck_size; c++) deck[c] = (uint8_t)c;
    rk_rng_shuffle(rng, deck, (size_t)v->deck_size);
    v->shuffle_seed[i] = rk_rng_next(rng) >> 2;
    v->learner[i] = v->opponents < 0 ? -1 : (int)rk_rng_below(rng, (uint32_t)v->n_players);
    v->n_log[i] = 0;
    if (!v->table) return rk_position_deal(&v->kr, deck, v->dealer[i], v->shuffle_seed[i], &v->kpos[i]);
    memset(v->known + (size_t)i * (size_t)v->n_players * RK_NUM_TYPES, 0, (size_t)v->n_players * RK_NUM_TYPES);
    return rk_table_deal(&v->tr, deck, v->dealer[i], v->shuffle_seed[i], &v->tst[i]);
}

/* The value of the cards seat q of table row i holds (TableState.result's hand_values). */
static int32_t table_hand_value(const rk_vector *v, int i, int q) {
    return rk_table_hand_value(&v->tr, v->tst[i].hands[q]);
}

/* Each seat's deadwood now (vector.h, rk_vector_buffers.deadwood), if asked for. */
static void write_deadwood(const rk_vector *v, int i) {
    if (!v->out.deadwood) return;
    int32_t *out = v->out.deadwood + (size_t)i * (size_t)v->n_players;
    for (int q = 0; q < v->n_players; q++)
        out[q] = v->table ? table_hand_value(v, i, q) : rk__deadwood_unchecked(v->rules, v->kpos[i].hands[q]);
}

/* The legal actions, their number, mask, observation and player of row i
 * (the old mask entries are cleared from our old legal list). */
static rk_status encode(rk_vector *v, int i, rk_table_memo *memo) {
    uint8_t *mask = v->out.legal_mask + (size_t)i * (size_t)v->num_actions;
    float *obs = v->out.observation + (size_t)i * (size_t)v->obs_dim;
    int n, player;
    rk_status st;
    if (v->table) {
        const int32_t *old = v->legal + (size_t)i * (size_t)v->cap;
        for (int k = 0; k < v->n_legal[i]; k++) mask[v->fixed ? rk_table_fixed_id(old[k]) : k] = 0;
    } else {
        uint64_t *bits = v->bits + (size_t)i * KNOCK_WORDS;
        for (int w = 0; w < KNOCK_WORDS; w++) {
            for (uint64_t word = bits[w]; word; word &= word - 1) mask[64 * w + rk__ctz(word)] = 0;
            bits[w] = 0;
        }
    }
    v->n_legal[i] = 0;
    v->out.num_legal[i] = 0;
    if (v->table) {
        int32_t *legal = v->legal + (size_t)i * (size_t)v->cap;
        const rk_table_state *s = &v->tst[i];
        n = rk_table_legal(&v->tr, s, memo, legal, v->cap);
        if (n > v->cap) return RK_ERR_CAPACITY;
        player = s->player;
        st = rk_table_observe(&v->tr, s, v->known + (size_t)i * (size_t)v->n_players * RK_NUM_TYPES, player, obs);
    } else {
        int ids[RK_MAX_LEGAL];
        const rk_position *p = &v->kpos[i];
        n = rk__legal_actions(v->rules, &v->kr, p, ids); /* the engine made p: no check needed */
        int32_t *out_ids = v->out.legal_ids + (size_t)i * (size_t)v->cap;
        uint64_t *bits = v->bits + (size_t)i * KNOCK_WORDS;
        for (int k = 0; k < n; k++) {
            out_ids[k] = ids[k];
            bits[ids[k] / 64] |= (uint64_t)1 << (ids[k] % 64);
            mask[ids[k]] = 1;
        }
        player = p->player;
        st = rk__knock_observe(v->rules, &v->kr, p, player, obs);
    }
    if (n < 0) return (rk_status)n;
    if (n == 0) return RK_ERR_ARG; /* a dealt or running hand always has a move */
    v->n_legal[i] = v->out.num_legal[i] = n;
    if (v->table && !v->fixed) {
        for (int k = 0; k < n; k++) mask[k] = 1;
    } else if (v->table) {
        /* the distinct fixed ids, ascending (the engine ids are sorted and rk_table_fixed_id keeps
         * their order, so ids that share a fixed id would be neighbours) */
        const int32_t *legal = v->legal + (size_t)i * (size_t)v->cap;
        int32_t *out_ids = v->out.legal_ids + (size_t)i * (size_t)v->cap;
        int m = 0;
        for (int k = 0; k < n; k++) {
            int32_t f = rk_table_fixed_id(legal[k]);
            if (f < 0) return RK_ERR_ARG; /* not reached: every legal id has a fixed id */
            if (m && out_ids[m - 1] == f) continue;
            out_ids[m++] = f;
            mask[f] = 1;
        }
        v->out.num_legal[i] = m;
    }
    v->out.current_player[i] = player;
    write_deadwood(v, i);
    return st;
}

/* How a row's hand ended: outcome, winner (-1: none), per seat score (vector.h, hand_score). */
typedef struct hand_end {
    int outcome, winner;
    int32_t score[RK_TABLE_MAX_PLAYERS > RK_MAX_PLAYERS ? RK_TABLE_MAX_PLAYERS : RK_MAX_PLAYERS];
} hand_end;

/* Row i's ended-hand buffers (vector.h): the hand in *end if ended, else none. */
static void write_end(rk_vector *v, int i, int ended, const hand_end *end) {
    if (v->out.outcome) v->out.outcome[i] = ended ? end->outcome : -1;
    if (v->out.winner) v->out.winner[i] = ended ? end->winner : -1;
    if (v->out.hand_score)
        for (int q = 0; q < v->n_players; q++)
            v->out.hand_score[(size_t)i * (size_t)v->n_players + (size_t)q] = ended ? end->score[q] : 0;
}

/* Apply engine id ``id`` to row i and log it; *ended and end->winner (-1: none) say how the hand
 * stands, and an ended hand's outcome and scores are in *end. */
static rk_status apply_id(rk_vector *v, int i, int32_t id, rk_table_memo *memo, int *ended, hand_end *end) {
    rk_status st;
    if (v->n_log[i] == v->log_cap[i]) {
        int32_t *grown = realloc(v->log[i], 2 * (size_t)v->log_cap[i] * sizeof(int32_t));
        if (!grown) return RK_ERR_CAPACITY;
        v->log[i] = grown;
        v->log_cap[i] *= 2;
    }
    if (v->table) {
        rk_table_state before = v->tst[i];
        st = rk_table_apply(&v->tr, &v->tst[i], memo, id);
        if (st != RK_OK) return st;
        rk_table_known_step(&v->tr, &before, &v->tst[i], id,
                            v->known + (size_t)i * (size_t)v->n_players * RK_NUM_TYPES, NULL);
        *ended = v->tst[i].phase == RK_TABLE_PHASE_END;
        end->winner = v->tst[i].winner;
        end->outcome = v->tst[i].outcome;
        for (int q = 0; *ended && q < v->n_players; q++) end->score[q] = table_hand_value(v, i, q);
    } else {
        rk_playout_result res;
        st = rk_apply_legal(v->rules, &v->kr, &v->kpos[i], id, &res);
        if (st != RK_OK) return st;
        *ended = v->kpos[i].phase == RK_PHASE_END;
        end->winner = *ended ? res.winner : -1;
        end->outcome = res.outcome;
        for (int q = 0; *ended && q < v->n_players; q++) end->score[q] = res.points[q];
    }
    v->log[i][v->n_log[i]++] = id;
    return RK_OK;
}

/* The opponents' moves in row i until its learner is to move or the hand ends. */
static rk_status opponents_play(rk_vector *v, int i, rk_table_memo *memo, int *ended, hand_end *end) {
    rk_policy policy = {(rk_policy_kind)v->opponents, -1, 0}; /* greedy: knock as soon as allowed */
    while (!*ended && v->opponents >= 0) {
        int player = v->table ? v->tst[i].player : v->kpos[i].player;
        if (player == v->learner[i]) break;
        int32_t id = v->table ? rk_table_policy_action(&v->tr, &v->tst[i], memo, v->opponents, &v->orng[i])
                              : rk_policy_action(v->rules, &v->kr, &v->kpos[i], policy, &v->orng[i]);
        if (id < 0) return (rk_status)id;
        rk_status st = apply_id(v, i, id, memo, ended, end);
        if (st != RK_OK) return st;
    }
    return RK_OK;
}

/* Row i's next deal, played by the opponents up to the learner's first
 * move; a hand that ends before it is dealt again (nothing to learn from,
 * as in the scalar Gymnasium env). */
static rk_status restart(rk_vector *v, int i, rk_table_memo *memo) {
    int ended = 1;
    hand_end end;
    while (ended) {
        ended = 0;
        rk_status st = deal(v, i);
        if (st == RK_OK) st = opponents_play(v, i, memo, &ended, &end);
        if (st != RK_OK) return st;
    }
    return encode(v, i, memo);
}

rk_status rk_vector_reset(rk_vector *v, uint64_t seed) {
    if (!v) return RK_ERR_ARG;
    v->broken = 0;
    memset(v->out.legal_mask, 0, (size_t)v->batch * (size_t)v->num_actions);
    memset(v->out.rewards, 0, (size_t)v->batch * (size_t)v->n_players * sizeof(float));
    memset(v->out.terminated, 0, (size_t)v->batch);
    for (int i = 0; i < v->batch; i++) write_end(v, i, 0, NULL);
    for (int i = 0; i < v->batch; i++) {
        rk_rng_seed(&v->rng[i], seed, (uint64_t)i);
        rk_rng_seed(&v->orng[i], seed, ((uint64_t)1 << 32) + (uint64_t)i);
        v->hands[i] = 0;
        v->n_legal[i] = v->out.num_legal[i] = 0;
        rk_status st = restart(v, i, v->table ? v->memo[0] : NULL);
        if (st != RK_OK) {
            v->broken = 1;
            return st;
        }
    }
    return RK_OK;
}

/* The engine id of row i's action a (checked by is_legal). */
static int32_t engine_id(const rk_vector *v, int i, int32_t a) {
    if (!v->table) return a;
    const int32_t *legal = v->legal + (size_t)i * (size_t)v->cap;
    return v->fixed ? rk_table_fixed_resolve(legal, v->n_legal[i], a) : legal[a];
}

static int is_legal(const rk_vector *v, int i, int32_t a) {
    if (v->table && v->fixed) return rk_table_fixed_resolve(v->legal + (size_t)i * (size_t)v->cap, v->n_legal[i], a) >= 0;
    if (v->table) return a >= 0 && a < v->n_legal[i];
    return a >= 0 && a < RK_KNOCK_NUM_ACTIONS && (v->bits[(size_t)i * KNOCK_WORDS + (size_t)(a / 64)] >> (a % 64) & 1);
}

/* Row i's (checked) action, the opponents' replies; an ended hand scored and restarted. */
static rk_status step_row(rk_vector *v, int i, int32_t a, rk_table_memo *memo) {
    float *rewards = v->out.rewards + (size_t)i * (size_t)v->n_players;
    if (a == RK_VECTOR_SKIP) { /* rk_vector_step_some: the row stays */
        for (int q = 0; q < v->n_players; q++) rewards[q] = 0.0f;
        v->out.terminated[i] = 0;
        write_end(v, i, 0, NULL);
        return RK_OK;
    }
    int32_t id = engine_id(v, i, a);
    int ended;
    hand_end end;
    rk_status st = apply_id(v, i, id, memo, &ended, &end);
    if (st == RK_OK) st = opponents_play(v, i, memo, &ended, &end);
    if (st != RK_OK) return st;
    int winner = ended ? end.winner : -1;
    for (int q = 0; q < v->n_players; q++) rewards[q] = !ended || winner < 0 ? 0.0f : q == winner ? 1.0f : -1.0f;
    v->out.terminated[i] = (uint8_t)ended;
    write_end(v, i, ended, &end);
    if (!ended) return encode(v, i, memo);
    v->hands[i]++;
    return restart(v, i, memo);
}

typedef struct block {
    rk_vector *v;
    const int32_t *actions;
    int lo, hi, bad;
    rk_table_memo *memo;
    rk_status status;
} block;

static void *run_block(void *arg) {
    block *b = arg;
    b->status = RK_OK;
    for (int i = b->lo; i < b->hi; i++) {
        rk_status st = step_row(b->v, i, b->actions[i], b->memo);
        if (st != RK_OK) {
            b->status = st;
            b->bad = i;
            break;
        }
    }
    return NULL;
}

static rk_status step_rows(rk_vector *v, const int32_t *actions, int *bad_row, int some);

rk_status rk_vector_step(rk_vector *v, const int32_t *actions, int *bad_row) {
    return step_rows(v, actions, bad_row, 0);
}

rk_status rk_vector_step_some(rk_vector *v, const int32_t *actions, int *bad_row) {
    return step_rows(v, actions, bad_row, 1);
}

/* rk_vector_step (some = 0) or rk_vector_step_some (some = 1: RK_VECTOR_SKIP leaves a row alone). */
static rk_status step_rows(rk_vector *v, const int32_t *actions, int *bad_row, int some) {
    block blocks[RK_VECTOR_MAX_THREADS];
    pthread_t ids[RK_VECTOR_MAX_THREADS];
    int started[RK_VECTOR_MAX_THREADS];
    if (bad_row) *bad_row = -1;
    if (!v || !actions) return RK_ERR_ARG;
    if (v->broken) return RK_ERR_CAPACITY;
    /* the caller's array is read once, here: every check and every move use our copy, so a
     * caller that changes its array meanwhile (another thread) cannot slip an unchecked id in */
    memcpy(v->actions, actions, (size_t)v->batch * sizeof *v->actions);
    for (int i = 0; i < v->batch; i++) {
        if (!(some && v->actions[i] == RK_VECTOR_SKIP) && !is_legal(v, i, v->actions[i])) {
            if (bad_row) *bad_row = i;
            return RK_ERR_ARG;
        }
    }
    int t = v->threads < v->batch ? v->threads : v->batch;
    for (int k = 0; k < t; k++) {
        blocks[k].v = v;
        blocks[k].actions = v->actions;
        blocks[k].lo = (int)((int64_t)v->batch * k / t);
        blocks[k].hi = (int)((int64_t)v->batch * (k + 1) / t);
        blocks[k].bad = -1;
        blocks[k].memo = v->table ? v->memo[k] : NULL;
        started[k] = k > 0 && pthread_create(&ids[k], NULL, run_block, &blocks[k]) == 0;
    }
    for (int k = 0; k < t; k++)
        if (!started[k]) run_block(&blocks[k]); /* block 0, and any whose thread did not start */
    for (int k = 1; k < t; k++)
        if (started[k]) pthread_join(ids[k], NULL);
    for (int k = 0; k < t; k++)
        if (blocks[k].status != RK_OK) {
            if (bad_row) *bad_row = blocks[k].bad;
            v->broken = 1;
            return blocks[k].status;
        }
    return RK_OK;
}

rk_status rk_vector_row(const rk_vector *v, int i, const uint8_t **deck, int *deck_size, int *dealer,
                        uint64_t *shuffle_seed, const int32_t **log, int *n_log, int64_t *hands) {
    if (!v || i < 0 || i >= v->batch || !deck || !deck_size || !dealer || !shuffle_seed || !log || !n_log || !hands)
        return RK_ERR_ARG;
    if (v->broken) return RK_ERR_CAPACITY;
    *deck = v->deck + (size_t)i * (size_t)v->deck_size;
    *deck_size = v->deck_size;
    *dealer = v->dealer[i];
    *shuffle_seed = v->shuffle_seed[i];
    *log = v->log[i];
    *n_log = v->n_log[i];
    *hands = v->hands[i];
    return RK_OK;
}
