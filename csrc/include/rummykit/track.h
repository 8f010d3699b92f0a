/*
 * rummykit particle filter: weighted stories of one opponent's hidden hand in a two-player
 * knock game, walked through the hand's public events (rummykit.agents.tracking prepares
 * the events and the particles and reads the result).
 *
 * A particle is a story: the cards the opponent was dealt (dealt), the card of each of its
 * stock draws (draws, -1 while open), the hand it holds now (hand) and its log weight.  The
 * events are the opponent's choices in order; each weighs every story by how likely that
 * choice is under a softened greedy model (docs/strength.md, "How best works"):
 *
 *   TAKE_CHOICE (card = the offered card, flag = taken):
 *       p(take) = sigmoid(beta * (d_keep - d_take - 0.5)), d_take the least deadwood after
 *       taking the card and throwing another; a meld-taking story (taker) takes exactly when
 *       the meld taker's rule says so (RK_POLICY_GREEDY with meld_takes, policy.h)
 *   DRAW (card = the draw's index): an open draw gets a card uniformly from the free cards
 *       the story has not placed (none left: the story dies)
 *   ADD (card): the opponent took the card into its hand
 *   DISCARD (card, flag bit 0 = knocked, bit 1 = the knock-only step, extra = the card it
 *       may not throw or -1): softmax over the legal cards c of -beta * deadwood(H - c) +
 *       high * rank(c) / 12; then, at a discard step, a story that could knock knocks with
 *       probability rate, one that could not knocks with probability epsilon / 2
 *   LAST_CHANCE (card, flag = taken): taken exactly when taking lets it knock
 *
 * every probability mixed with a uniform choice of weight epsilon.  A story without a card
 * it discards dies; a dead story (log weight -inf) is left as it is until resampled away.
 * After every weighing event the particles are resampled (systematic, the same uniform for
 * all) when the effective sample size falls below half of them.
 */
#ifndef RUMMYKIT_TRACK_H
#define RUMMYKIT_TRACK_H

#include "rummykit/rummykit.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { RK_EV_TAKE_CHOICE = 0, RK_EV_DRAW = 1, RK_EV_ADD = 2, RK_EV_DISCARD = 3, RK_EV_LAST_CHANCE = 4 };

typedef struct rk_track_event {
    int8_t kind, card, flag, extra;
} rk_track_event;

typedef struct rk_track_model {
    double beta, epsilon, high;
    int knock_max;   /* the most deadwood a knock may leave */
    int hand_size;   /* the cards dealt to the opponent */
    rk_mask free;    /* the cards the opponent's deal and draws may hold */
} rk_track_model;

/* n particles; every array has n rows (draws: n * n_draws, row-major).  rate: each story's
 * knock rate; taker (NULL: every story greedy's): 1 for a story whose opponent takes a
 * discard only into a meld or to knock, 0 for greedy's take rule; used: the cards each story has placed (its deal, its draws, the cards reserved
 * for discards).  On entry dealt may hold fewer than hand_size cards: each story's deal is
 * filled first with cards drawn uniformly from the free cards it has not placed. */
typedef struct rk_particles {
    size_t n, n_draws;
    rk_mask *dealt, *hand, *used;
    int8_t *draws;
    double *logw, *rate;
    uint8_t *taker;
} rk_particles;

/* Systematic resampling, one draw at a time: draw k (k = 0, 1, ..., count - 1, in order) takes
 * the first of the n weights w (none negative, sum > 0) whose running share of sum reaches
 * (u + k) / count, u in [0, 1) one uniform for every draw; a zero weight is never taken.  *j
 * and *share carry the walk between draws: start them at 0 and w[0] / sum. */
static inline size_t rk_systematic_next(const double *w, size_t n, double sum, double u, size_t k, size_t count,
                                        size_t *j, double *share) {
    double position = (u + (double)k) / (double)count;
    while ((*share < position || w[*j] == 0) && *j + 1 < n) *share += w[++*j] / sum;
    return *j;
}

/* Walk the events: p is updated in place; scratch (the same sizes) is work space for
 * resampling.  RK_ERR_EMPTY when no story explains the events (every weight zero),
 * RK_ERR_BAD_MASK when free has bits outside the deck, RK_ERR_ARG on a bad event or
 * argument (a mask outside the deck, a draw card >= 52, a NaN or +inf weight, a rate outside
 * [0, 1], a taker other than 0 or 1, taker given in only one of p and scratch).  A draw the caller fixed (>= 0) is taken as it is: its card should be in used. */
rk_status rk_track(const rk_rules *rules, const rk_track_model *model, const rk_track_event *events,
                   size_t n_events, rk_particles *p, rk_particles *scratch, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_TRACK_H */
