/*
 * rummykit table-game playouts in C: the greedy policy of Rummy and Kaluki
 * (rummykit.agents.GreedyAgent), and batches of hands played to their end
 * by a policy from determinizations of a position (rummykit.playouts).
 *
 * They run on the state machine of rummykit/table.h.  Each playout's
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

/* What seat `observer` knows of a hand, for determinization: the
 * bookkeeping of rummykit.table.observe.determinize, built from the public
 * history by rummykit.playouts.
 *
 * The cards the observer cannot see came from groups (group 0: the first
 * stock; group k: the pile that the k-th reshuffle restock put into the
 * stock); pool[g * 53 + type] counts the cards of group g the observer
 * has not seen dealt to it, drawn by it, or as the upcard.  A place is a
 * card another seat got unseen: dealt (time -1) or drawn from the stock of
 * its group at history index `time`.  A fill is a card another seat played
 * at history index `time` that nobody knew it held: it came from one of
 * that seat's places of an earlier time whose group still has a copy (at
 * the end of the hand the cards shown are fills too, at time `now`, the
 * history length, and stay in the hand).  A ban
 * says the seat laid a run with a joker standing for `type` at `time` (so
 * it held no such card then: no place of that seat from before `time` may
 * hold it after `time`).  known[seat][type] counts the cards everyone knows
 * a seat holds now.
 *
 * A determinization walks the fills in order, each to a random fitting
 * place, then deals what is left of each group to its open places (in a
 * random order, each taking the first card of a shuffled list that no ban
 * forbids) and, for stock_group, to the stock; a sample that runs out of
 * places is drawn again, and so is one where another seat in the middle of
 * its turn would have no legal action.  After RK_TABLE_MAX_TRIES samples
 * the other seats keep their real cards and only the stock order is drawn.
 * A new shuffle_seed is drawn every time.  stock_group -1: the stock is
 * public (turned over) and stays as it is.
 *
 * mode RK_TABLE_RESAMPLE_STOCK uses none of the places: every hand stays,
 * the stock is shuffled (unless stock_group is -1) and a new shuffle_seed
 * drawn. */
#define RK_TABLE_RESAMPLE_STOCK 1
#define RK_TABLE_RESAMPLE_HIDDEN 2
#define RK_TABLE_MAX_TRIES 500
typedef struct rk_table_hidden {
    int mode;     /* RK_TABLE_RESAMPLE_STOCK or RK_TABLE_RESAMPLE_HIDDEN */
    int observer; /* the seat whose view is kept */
    int stock_group;
    int32_t now; /* the history length */
    int n_groups, n_places, n_fills, n_bans;
    const uint8_t *pool;                                    /* n_groups * 53 counts */
    const uint8_t *place_seat, *place_group;                /* n_places */
    const int32_t *place_time;                              /* n_places, ascending per seat */
    const uint8_t *fill_seat, *fill_type;                   /* n_fills */
    const int32_t *fill_time;                               /* n_fills, ascending */
    const uint8_t *ban_seat, *ban_type;                     /* n_bans */
    const int32_t *ban_time;                                /* n_bans */
    uint8_t known[RK_TABLE_MAX_PLAYERS][RK_NUM_TYPES];
} rk_table_hidden;

/* RK_OK if hidden fits state: counts in range, each group holding exactly
 * one card per place of the group (and the stock, for stock_group), the
 * known cards held.  rk_table_playouts checks it (and rk_table_check) once;
 * rk_table_determinize assumes both. */
rk_status rk_table_hidden_check(const rk_table_rules *rules, const rk_table_state *state,
                                const rk_table_hidden *hidden);

/* Bytes of work buffer a determinization with hidden needs. */
size_t rk_table_work_size(const rk_table_hidden *hidden);

/* One determinization of state into out (see rk_table_hidden; hidden NULL:
 * out is state).  place_types (n_places, or NULL) receives the type of
 * each place (255 for the last resort).  Returns 1 if a sample was drawn,
 * 0 if the last resort was taken, or a negative rk_status. */
int rk_table_determinize(const rk_table_rules *rules, const rk_table_state *state, const rk_table_hidden *hidden,
                         rk_rng *rng, rk_table_memo *memo, void *work, rk_table_state *out, uint8_t *place_types);

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
