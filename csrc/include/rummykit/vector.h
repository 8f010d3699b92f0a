/*
 * rummykit batched play: many independent hands of one game stepped by one
 * call, for reinforcement learning (rummykit.vector.VectorGame).
 *
 * A batch of rows, each one hand of a knock game (rk_position) or a table
 * game (rk_table_state).  After every call the caller-provided buffers hold,
 * per row: the legal-action mask, the observation tensor of the player to
 * move, and that player.  rk_vector_step checks every row's action first
 * (nothing changes if one is illegal), then applies them; a hand that ends
 * is scored (win_loss: +1 to the winner, -1 to the others, 0 to all in a
 * hand without a winner) and the row restarts at once from its next deal.
 *
 * ACTIONS: knock games use the engine ids (0 .. RK_ACTION_DONE, 686 of
 * them); table games the fixed action space of table.h (RK_VECTOR_FIXED:
 * RK_TABLE_FIXED_ACTIONS ids, one per move, the same move in every state;
 * rk_table_fixed_resolve gives a row's engine id) or a dense per-state
 * index (RK_VECTOR_DENSE: action k of a row is the k-th of its sorted
 * legal ids, rk_table_legal, out of RK_VECTOR_TABLE_ACTIONS slots; for
 * search), as rummykit.envs' ActionIndex numbers them.
 *
 * DEALS: row i's deals come from its own generator, rk_rng_seed(seed, i);
 * each deal draws the dealer (rk_rng_below(players)), shuffles the deck
 * (the identity order, rk_rng_shuffle), draws the restock seed
 * (rk_rng_next >> 2) and, with opponents, the learner's seat
 * (rk_rng_below(players)), then deals as rk_position_deal / rk_table_deal.
 * So a row never depends on the others, nor on how rows are split among
 * threads.
 *
 * OPPONENTS (rk_vector_set_opponents): one seat per row is the caller's
 * (the learner, drawn per deal), the others play a policy in C (random,
 * from the row's stream rk_rng_seed(seed, 2^32 + i), or greedy:
 * rk_policy_action / rk_table_policy_action) until the learner is to move
 * or the hand ends; a step's reward then covers the opponents' replies.  A
 * hand that ends before the learner's first move is dealt again.
 *
 * Each row keeps its deck, dealer, restock seed and the engine ids played
 * since the deal (rk_vector_row), from which the scalar state replays it.
 *
 * THREADS: rk_vector_step splits the rows into contiguous blocks, one per
 * thread (POSIX threads started for the call); the table games' opening
 * memo is one per thread.  A vector is not safe to use from two threads at
 * once.  No allocation on the step path except the action logs, which
 * double when full.
 *
 * CALLER MEMORY: the buffers are only written, never read back (the legal
 * lists and counts the checks use are the vector's own copies), and
 * rk_vector_step reads the caller's actions once, into its own copy, before
 * checking any: a caller that writes its buffers or its action array during
 * a step (another thread) gets wrong numbers in its buffers, never an
 * unchecked move or a read or write outside the vector's memory.
 */
#ifndef RUMMYKIT_VECTOR_H
#define RUMMYKIT_VECTOR_H

#include "rummykit/knock.h"
#include "rummykit/observe.h"
#include "rummykit/table.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RK_KNOCK_NUM_ACTIONS 686   /* rummykit.knock.actions.NUM_ACTIONS */
#define RK_VECTOR_TABLE_ACTIONS 4096 /* rummykit.envs DENSE_ACTIONS */
#define RK_VECTOR_FIXED 0 /* a table vector's action space: the fixed ids (table.h) */
#define RK_VECTOR_DENSE 1 /* the dense per-state index */
#define RK_VECTOR_MAX_THREADS 256

/* The caller's arrays, C order, written by rk_vector_reset and rk_vector_step. */
typedef struct rk_vector_buffers {
    uint8_t *legal_mask;    /* batch x num_actions, 1 = legal */
    float *observation;     /* batch x obs_dim */
    int32_t *current_player;/* batch */
    float *rewards;         /* batch x num_players: the last step's */
    uint8_t *terminated;    /* batch: the hands the last step ended */
    int32_t *num_legal;     /* batch: the number of legal actions of each row (the mask's 1s) */
    int32_t *legal_ids;     /* knock games and fixed table games (required): batch x RK_MAX_LEGAL (knock) or
                             * RK_VECTOR_TABLE_ACTIONS (table), row i's legal actions in increasing order (the
                             * first num_legal[i]); dense table games: unused (may be NULL), their legal
                             * actions are 0 .. num_legal[i] - 1 */
    /* Optional (each may be NULL): the hands the last step ended, and each seat's potential. */
    int32_t *outcome;       /* batch: the ended hand's outcome (RK_OUTCOME_* / rk_table_outcome), -1 on a row
                             * whose hand did not end */
    int32_t *winner;        /* batch: the ended hand's winner, -1 for none or a row whose hand did not end */
    int32_t *hand_score;    /* batch x num_players: the ended hand per seat, 0 on other rows: knock games
                             * its points (rk_playout_result.points, state.returns()), table games the
                             * value of the cards the seat held (scored in Python, rummykit.table.scoring) */
    int32_t *deadwood;      /* batch x num_players: each seat's cards now: knock games rk_deadwood of its
                             * hand, table games the value of the cards it holds (the reward shaping's
                             * potential) */
} rk_vector_buffers;

typedef struct rk_vector rk_vector;

/* A batch of knock-game rows (the rules are copied; ``rules`` must outlive
 * the vector) or of table-game rows in an action space (RK_VECTOR_FIXED or
 * RK_VECTOR_DENSE); NULL for bad arguments (batch < 1,
 * threads outside 1..RK_VECTOR_MAX_THREADS, rules that rk_knock_rules_init /
 * rk_table_rules_check would refuse, a NULL pointer) or no memory.  The
 * rows are dealt by rk_vector_reset. */
rk_vector *rk_vector_new_knock(const rk_rules *rules, const rk_knock_rules *pr, int batch, int threads,
                               const rk_vector_buffers *buffers);
rk_vector *rk_vector_new_table(const rk_table_rules *rules, int action_space, int batch, int threads,
                               const rk_vector_buffers *buffers);
void rk_vector_free(rk_vector *v);

int rk_vector_num_actions(const rk_vector *v);
int rk_vector_obs_dim(const rk_vector *v);
int rk_vector_num_players(const rk_vector *v);

/* Opponents from the next rk_vector_reset: policy RK_POLICY_RANDOM or
 * RK_POLICY_GREEDY (rummykit/policy.h; the table games' numbers are the
 * same), or -1 for none (every seat the caller's, the default). */
rk_status rk_vector_set_opponents(rk_vector *v, int policy);

/* Seed the rows (DEALS), deal each its first hand and write the buffers
 * (rewards 0, terminated 0).  Clears a failed vector (rk_vector_step). */
rk_status rk_vector_reset(rk_vector *v, uint64_t seed);

/* Play actions[i] in row i for every row (actions: batch ids, copied
 * first, see CALLER MEMORY).  RK_ERR_ARG and *bad_row = the first row whose
 * action is not legal, with nothing changed (every row is checked before
 * any is played).  After rows changed, RK_ERR_CAPACITY and *bad_row: a table
 * row reached more legal actions than RK_VECTOR_TABLE_ACTIONS, or an action
 * log could not grow (no memory); the vector is then failed, and every
 * rk_vector_step and rk_vector_row returns RK_ERR_CAPACITY (*bad_row -1)
 * until rk_vector_reset, as after a failed reset. */
rk_status rk_vector_step(rk_vector *v, const int32_t *actions, int *bad_row);

/* rk_vector_step for some rows only: a row whose action is RK_VECTOR_SKIP
 * stays as it is (its buffers unchanged, but rewards 0, terminated 0 and no
 * ended hand); the others as rk_vector_step, with its errors.  For callers
 * that play some seats themselves (rummykit.vector.VectorGame's batched
 * opponents): they step the rows where those seats are to move. */
#define RK_VECTOR_SKIP (-1)
rk_status rk_vector_step_some(rk_vector *v, const int32_t *actions, int *bad_row);

/* Row i now: its deck (deck_size ids, top first; *deck_size = 52 or the
 * table game's), dealer, restock seed, the engine ids played since the deal,
 * the opponents' included (*log, valid until the next step) and their
 * number, and the number of hands it finished. */
rk_status rk_vector_row(const rk_vector *v, int i, const uint8_t **deck, int *deck_size, int *dealer,
                        uint64_t *shuffle_seed, const int32_t **log, int *n_log, int64_t *hands);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_VECTOR_H */
