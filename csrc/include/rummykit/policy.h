/*
 * rummykit playouts: a knock hand played from a position to its end with a
 * built-in policy for every seat, scored with the full rules (rk_score_knock),
 * and batches of them from determinizations of a position.
 */
#include "rummykit/knock.h"

#ifndef RUMMYKIT_POLICY_H
#define RUMMYKIT_POLICY_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rk_policy_kind { RK_POLICY_RANDOM = 0, RK_POLICY_GREEDY = 1, RK_POLICY_CAREFUL = 2 } rk_policy_kind;

/* RK_POLICY_RANDOM: a uniform legal action (needs an rng).
 * RK_POLICY_GREEDY (rummykit.agents.GreedyAgent), with H the hand to move:
 *  - offer and draw: take the top discard t iff min over c in H of the
 *    least deadwood of H + t - c is below the least deadwood of H; else
 *    pass (offer) or draw from the stock; a forced stock draw draws; with
 *    meld_takes, take t iff, after taking it and throwing the best other
 *    card c, the deadwood left allows a knock or t lies in a meld of every
 *    least-deadwood arrangement of H + t - c (the rule of the published
 *    simple bots: a card taken only into a meld);
 *  - last chance: take iff taking is legal;
 *  - discard and knock-only: big gin if legal; else the card c (not the
 *    forbidden taken card) with the least deadwood of H - c, ties to the
 *    highest card value then the highest card id (rk_best_discard); knock
 *    with it if that knock is legal and (max_knock_deadwood < 0 or its
 *    deadwood <= max_knock_deadwood), else discard it; knock-only knocks;
 *  - the manual showdown: the melds of the least-deadwood arrangement of
 *    the undeclared cards one at a time, then one lay-off at a time (the
 *    highest card value, the highest card id, the first meld), then done. */
/* RK_POLICY_CAREFUL (rummykit.agents.CarefulAgent; the Python oracle is
 * tests/reference/careful.py), reading only what the player to move knows:
 * unseen U = the cards not in its hand, the discard pile, set_aside or
 * another seat's known; wanted = the same rank as, or the same suit within
 * two ranks of, a card of another seat's known or recent takes; shunned =
 * the rank of a card in another seat's recent discards.  cost(d) = 4d + 20 if
 * d exceeds the most deadwood a knock may leave, else 4d (quarter points);
 * ahead(K, d) = the mean over u in U of cost(min(d, least deadwood of K + u
 * less its best card)), rounded down (cost(d) if U is empty), d the least
 * deadwood of K:
 *  - offer and draw: take the top discard t iff d_take (as greedy's) < d_keep
 *    and cost(d_take) < ahead(H, d_keep); else pass or draw;
 *  - discard: big gin if legal; greedy's knock (with max_knock_deadwood as
 *    greedy's); else, among the cards c (not the forbidden one) with the
 *    least deadwood of H - c at most 4 above the least, the least
 *    ahead(H - c) - 4 * |outs(H - c)| + 16 * ([c wanted] - [c shunned]), outs
 *    the cards of U that make a meld of three with two cards of the hand;
 *    ties to the highest card value, then the highest card id;
 *  - the forced draw, last chance, knock-only and showdown as greedy. */
typedef struct rk_policy {
    rk_policy_kind kind;
    int max_knock_deadwood; /* greedy, careful: -1 knocks as soon as allowed, 0 gin only */
    int meld_takes;         /* greedy: nonzero takes a discard only into a meld or to knock */
} rk_policy;

/* The policy's action now (an rng is needed for RK_POLICY_RANDOM). */
int rk_policy_action(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                     rk_policy policy, rk_rng *rng);
/* Play pos to the end of the hand with the policy for every seat and score
 * it.  pos is left at the end. */
rk_status rk_playout(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos,
                     rk_policy policy, rk_rng *rng, rk_playout_result *out);
/* Playouts first .. first + n - 1 from determinizations of known + hidden
 * (hidden NULL: no resampling): playout i seeds an rk_rng with (seed, i),
 * deals the hidden cards, draws a fresh restock seed when hidden is given,
 * and plays.  points[i * num_players + seat], outcomes[i].  Results depend
 * on (seed, i) only, so any split over threads gives the same arrays. */
rk_status rk_playouts(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *known,
                      const rk_hidden *hidden, rk_policy policy, uint64_t seed, size_t first,
                      size_t n, int32_t *points, uint8_t *outcomes);
/* rk_playouts with a policy per seat: seats[s] plays seat s. */
rk_status rk_playouts_seats(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *known,
                            const rk_hidden *hidden, const rk_policy seats[RK_MAX_PLAYERS], uint64_t seed,
                            size_t first, size_t n, int32_t *points, uint8_t *outcomes);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_POLICY_H */
