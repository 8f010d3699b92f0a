/* Internal helpers shared by the knock games' translation units
 * (knock_engine.c, knock_score.c, policy.c, playouts.c; not installed). */
#ifndef RK_KNOCK_INTERNAL_H
#define RK_KNOCK_INTERNAL_H

#include "internal.h"
#include "rummykit/knock.h"
#include "rummykit/policy.h"

/* Bounds on the integer options (rummykit.knock.rules.MAX_POINTS): the
 * scores then stay far inside an int. */
#define RK__MAX_OPTION 1000000
#define RK__MAX_COUNTER (1 << 30) /* turns and restocks: room to count on without overflow */

static inline int rk__in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }

static inline int rk__hand_size(const rk_knock_rules *pr) { return pr->num_players == 2 ? 10 : 7; }

/* RK_OK if pr is within what KnockRules can express. */
rk_status rk__knock_rules_check(const rk_knock_rules *pr);

/* The hand's knock limit, from the rules and the upcard. */
typedef struct rk__limits {
    int limit, gin_only, multiplier, knock_max; /* knock_max: most deadwood a knock may leave */
} rk__limits;

rk__limits rk__limits_of(const rk_knock_rules *pr, int upcard);

/* rk_position_check, or at the end of the hand the checks of a finished one. */
rk_status rk__position_check_any(const rk_knock_rules *pr, const rk_position *pos);

/* Whether the player to move in RK_PHASE_LAST_CHANCE may take the discard and knock. */
int rk__last_chance_knock_exists(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                                 const rk__limits *l);

/* rk_legal_actions and rk_apply_action on a checked position (the action legal). */
int rk__legal_actions(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                      int actions[RK_MAX_LEGAL]);
rk_status rk__apply_action(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int action,
                           rk_playout_result *out);

/* The meld of a manual-showdown meld id (0 if none), and the id of a meld (-1 if none). */
rk_mask rk__meld_of_id(int index);
int rk__meld_id(rk_mask meld);

/* rk_knock_arrangement without the argument checks (a legal knock). */
rk_status rk__knock_arrangement(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                                const rk__limits *l, rk_arrangement *out);

/* The knocker's explicit melds checked into *shown (rk_score_knock_shown's
 * errors), and the score of a knock showing them (hands in knock order). */
rk_status rk__shown_arrangement(const rk_rules *rules, rk_mask hand, const rk_mask *melds, int n_melds,
                                const rk__limits *l, int big_gin, rk_arrangement *shown);
void rk__score_shown(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                     const rk_arrangement *shown, int big_gin, const rk__limits *l, rk_playout_result *out);

/* The declared result of a finished manual showdown: players' final deadwood
 * (knock order) scored as rk_score_knock does. */
void rk__score_declared(const rk_knock_rules *pr, const int *dw, int big_gin, int upcard, rk_playout_result *out);

/* rk_playout on a checked position, seats[s] the policy of seat s. */
rk_status rk__playout(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, const rk_policy *seats,
                      rk_rng *rng, rk_playout_result *out);

/* rk_knock_observe without the argument checks: a position the engine made
 * under rules rk__knock_rules_check accepted, a seat in range. */
rk_status rk__knock_observe(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int player,
                            float *out);

#endif
