/*
 * rummykit table-game playouts in C: the greedy policy of Rummy and Kaluki
 * (rummykit.agents.GreedyAgent), and batches of hands played to their end
 * by a policy from determinizations of a position (rummykit.playouts).
 *
 * They run on the state machine of rummykit/table.h, each playout from
 * a determinization (rk_table_determinize, rummykit/table.h).  Each playout's
 * returns (rk_table_score), outcome and winner come back.
 *
 * Plain data and caller-provided buffers: no allocation and no globals, so
 * calls on different memos and work buffers may run in parallel.
 */
#ifndef RUMMYKIT_TABLE_PLAYOUTS_H
#define RUMMYKIT_TABLE_PLAYOUTS_H

#include "rummykit/rng.h"
#include "rummykit/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The policies (the same numbers as the knock games' rk_policy_kind). */
#define RK_TABLE_POLICY_RANDOM 0 /* a uniform legal action */
#define RK_TABLE_POLICY_GREEDY 1 /* rk_table_greedy */

/* The most actions one playout may take before it gives up with
 * RK_ERR_CAPACITY (only rules with max_turns unlimited can get there). */
#define RK_TABLE_PLAYOUT_MAX_ACTIONS 1000000

/* The greedy policy (rummykit.agents.GreedyAgent, table games): the action
 * to play now, or a negative rk_status (RK_ERR_EMPTY at the end of the
 * hand).  With t the top discard and "uses t" a legal meld or lay-off
 * (build) that puts a card of type t on the table:
 *  - draw: draw unless taking is legal; Kaluki, not yet opened: take (the
 *    engine offers it only when the card can open); else take iff some
 *    legal action after the take uses t;
 *  - play: the legal meld that puts down the most cards (ties: the lowest
 *    id); else the lay-off of a natural card with the highest value (ties:
 *    the highest type, then the lowest id); else discard the card type
 *    that is not useful with the highest value (ties: the highest type),
 *    useful being a joker, or a natural with another natural of its rank
 *    in another suit, or of its suit within two ranks (A and K adjacent);
 *    if every card is useful the highest value of them all; with no
 *    discard legal, the lowest legal id. */
int32_t rk_table_greedy(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo);

/* The policy's action now (rng: for RK_TABLE_POLICY_RANDOM). */
int32_t rk_table_policy_action(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo,
                               int policy, rk_rng *rng);

/* Play state to the end of the hand with the policy for every seat (state
 * is left at the end); *actions (if not NULL) counts the actions taken. */
rk_status rk_table_playout(const rk_table_rules *rules, rk_table_state *state, rk_table_memo *memo, int policy,
                           rk_rng *rng, long *actions);

/* Playouts first .. first + n - 1 from determinizations of state (hidden
 * NULL: state as it is): playout i seeds an rk_rng with (seed, i),
 * determinizes, and plays.  returns[i * num_players + seat] is the seat's
 * return for the hand (rk_table_result.returns), outcomes[i] the
 * rk_table_outcome, winners[i] the seat that went out or -1.  Results
 * depend on (seed, i) only, so any split over threads gives the same
 * arrays.  work: rk_table_work_size(hidden) bytes (NULL if hidden is). */
rk_status rk_table_playouts(const rk_table_rules *rules, const rk_table_state *state, const rk_table_hidden *hidden,
                            int policy, uint64_t seed, size_t first, size_t n, rk_table_memo *memo, void *work,
                            int32_t *returns, uint8_t *outcomes, int8_t *winners);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_TABLE_PLAYOUTS_H */
