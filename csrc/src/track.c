/* The particle filter over an opponent's hidden hand (rummykit/track.h). */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "rummykit/rng.h"
#include "rummykit/track.h"

/* The k-th (from 0) card of m, lowest id first. */
static int nth_card(rk_mask m, uint32_t k) {
    while (k--) m &= m - 1;
    return rk__ctz(m);
}

/* A card drawn uniformly from m (not empty). */
static int pick(rk_rng *rng, rk_mask m) { return nth_card(m, rk_rng_below(rng, (uint32_t)rk__popcount(m))); }

static double uniform(rk_rng *rng) { return (double)(rk_rng_next(rng) >> 11) * 0x1.0p-53; }

/* Fill each story's deal up to hand_size from the free cards it has not placed. */
static void fill_deals(const rk_track_model *model, rk_particles *p, rk_rng *rng) {
    for (size_t i = 0; i < p->n; i++) {
        int need = model->hand_size - rk__popcount(p->dealt[i]);
        for (; need > 0; need--) {
            rk_mask allowed = model->free & ~p->used[i];
            if (!allowed) {
                p->logw[i] = -INFINITY;
                break;
            }
            rk_mask bit = (rk_mask)1 << pick(rng, allowed);
            p->dealt[i] |= bit;
            p->used[i] |= bit;
        }
        p->hand[i] = p->dealt[i];
    }
}

/* Deadwood gaps the walk looks up instead of calling exp for every story (a gap beyond the
 * tables, which no 11-card hand reaches, falls back to exp). */
#define GAPS 256

typedef struct tables {
    double soft[GAPS];            /* exp(-beta * k): a discard's softmax term, k above the least */
    double take[2][2 * GAPS + 1]; /* [taken][GAPS + d]: log p(choice), d = d_keep - d_take; NAN: not yet */
} tables;

static void tables_init(tables *t, const rk_track_model *model) {
    for (int k = 0; k < GAPS; k++) t->soft[k] = exp(-model->beta * k);
    for (int k = 0; k < 2 * GAPS + 1; k++) t->take[0][k] = t->take[1][k] = NAN;
}

/* log p(the offered card taken or not) for d = d_keep - d_take. */
static double take_logp(const rk_track_model *model, int d, int taken) {
    double prob = 1.0 / (1.0 + exp(-model->beta * (d - 0.5)));
    prob = (1 - model->epsilon) * prob + model->epsilon / 2;
    return log(taken ? prob : 1 - prob);
}

/* log of the probability of one choice of a story (or -INFINITY for a dead one). */
static double weigh(const rk_rules *rules, const rk_track_model *model, tables *t, const rk_track_event *ev,
                    rk_mask *hand, double rate, int taker) {
    const double mix = model->epsilon;
    const rk_mask bit = (rk_mask)1 << ev->card;
    int card = -1, least = 0;
    if (ev->kind == RK_EV_TAKE_CHOICE || ev->kind == RK_EV_LAST_CHANCE) {
        if (rk_best_discard(rules, *hand | bit, ev->card, &card, &least, NULL) != RK_OK) return -INFINITY;
        if (ev->kind == RK_EV_LAST_CHANCE) {
            int can = least <= model->knock_max;
            return log(can == (ev->flag != 0) ? 1 - mix / 2 : mix / 2);
        }
        int taken = ev->flag != 0;
        if (taker) return log(rk__meld_take(rules, *hand, ev->card, card, least, model->knock_max) == taken
                                  ? 1 - mix / 2
                                  : mix / 2);
        int keep = rk_deadwood(rules, *hand);
        if (keep < 0) return -INFINITY;
        int d = keep - least;
        if (d <= -GAPS || d >= GAPS) return take_logp(model, d, taken);
        double *slot = &t->take[taken][GAPS + d];
        if (isnan(*slot)) *slot = take_logp(model, d, taken);
        return *slot;
    }
    /* a discard */
    if (!(*hand & bit)) return -INFINITY;
    int16_t after[RK_NUM_CARDS];
    if (rk_best_discard(rules, *hand, ev->extra, &card, &least, after) != RK_OK) return -INFINITY;
    /* softmax terms relative to the best score; with no rank term, a table lookup by the gap */
    double top = -INFINITY, sum = 0, chosen = 0;
    int count = 0, can_knock = 0, lowest = INT16_MAX;
    for (rk_mask m = *hand; m; m &= m - 1) {
        int c = rk__ctz(m);
        if (c == ev->extra) continue;
        double score = -model->beta * after[c] + model->high * (c % 13) / 12;
        if (score > top) top = score;
        if (after[c] < lowest) lowest = after[c];
    }
    for (rk_mask m = *hand; m; m &= m - 1) {
        int c = rk__ctz(m);
        if (c == ev->extra) continue;
        int gap = after[c] - lowest;
        double soft = model->high == 0 && gap < GAPS ? t->soft[gap]
                                                     : exp(-model->beta * after[c] + model->high * (c % 13) / 12 - top);
        sum += soft;
        if (c == ev->card) chosen = soft;
        can_knock |= after[c] <= model->knock_max;
        count++;
    }
    if (!count) return -INFINITY;
    double logp = log((1 - mix) * chosen / sum + mix / count);
    if (!(ev->flag & 2)) { /* a discard step, not the knock-only step */
        int knocked = ev->flag & 1;
        double able = knocked ? rate : 1 - rate, unable = knocked ? mix / 2 : 1 - mix / 2;
        logp += log(can_knock ? able : unable);
    }
    *hand &= ~bit;
    return logp;
}

static int taker_of(const rk_particles *p, size_t i) { return p->taker ? p->taker[i] : 0; }

/* Resample when the effective sample size is below n / 2: RK_ERR_EMPTY if every weight is 0. */
static rk_status resample(rk_particles *p, rk_particles *s, rk_rng *rng) {
    const size_t n = p->n;
    double top = -INFINITY, sum = 0, squares = 0;
    for (size_t i = 0; i < n; i++)
        if (p->logw[i] > top) top = p->logw[i];
    if (top == -INFINITY) return RK_ERR_EMPTY;
    for (size_t i = 0; i < n; i++) sum += s->logw[i] = exp(p->logw[i] - top);
    for (size_t i = 0; i < n; i++) {
        double w = s->logw[i] / sum;
        squares += w * w;
    }
    if (1.0 / squares >= (double)n / 2) return RK_OK;
    double u = uniform(rng), share = s->logw[0] / sum;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        rk_systematic_next(s->logw, n, sum, u, i, n, &j, &share);
        s->dealt[i] = p->dealt[j];
        s->hand[i] = p->hand[j];
        s->used[i] = p->used[j];
        s->rate[i] = p->rate[j];
        if (p->taker) s->taker[i] = p->taker[j];
        if (p->n_draws) memcpy(s->draws + i * p->n_draws, p->draws + j * p->n_draws, p->n_draws);
    }
    memcpy(p->dealt, s->dealt, n * sizeof *p->dealt);
    memcpy(p->hand, s->hand, n * sizeof *p->hand);
    memcpy(p->used, s->used, n * sizeof *p->used);
    memcpy(p->rate, s->rate, n * sizeof *p->rate);
    if (p->taker) memcpy(p->taker, s->taker, n * sizeof *p->taker);
    if (p->n_draws) memcpy(p->draws, s->draws, n * p->n_draws);
    for (size_t i = 0; i < n; i++) p->logw[i] = 0;
    return RK_OK;
}

rk_status rk_track(const rk_rules *rules, const rk_track_model *model, const rk_track_event *events,
                   size_t n_events, rk_particles *p, rk_particles *scratch, uint64_t seed) {
    if (!rules || !model || (n_events && !events) || !p || !scratch || !p->n || scratch->n != p->n ||
        scratch->n_draws != p->n_draws || model->hand_size < 1 || model->hand_size > RK_NUM_CARDS ||
        !(model->epsilon > 0 && model->epsilon <= 1) || !(model->beta >= 0) || !isfinite(model->beta) ||
        !isfinite(model->high) || !p->taker != !scratch->taker)
        return RK_ERR_ARG;
    for (size_t e = 0; e < n_events; e++) {
        const rk_track_event *ev = &events[e];
        int needs_card = ev->kind != RK_EV_DRAW;
        if (ev->kind < RK_EV_TAKE_CHOICE || ev->kind > RK_EV_LAST_CHANCE ||
            (needs_card && (ev->card < 0 || ev->card >= RK_NUM_CARDS)) ||
            (!needs_card && (ev->card < 0 || (size_t)ev->card >= p->n_draws)) || ev->extra >= RK_NUM_CARDS)
            return RK_ERR_ARG;
    }
    if (model->free & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    for (size_t i = 0; i < p->n; i++) {
        if ((p->dealt[i] | p->used[i]) & ~RK_DECK_MASK || !(p->logw[i] < INFINITY) ||
            !(p->rate[i] >= 0 && p->rate[i] <= 1) || (p->taker && p->taker[i] > 1))
            return RK_ERR_ARG;
        for (size_t d = 0; d < p->n_draws; d++)
            if (p->draws[i * p->n_draws + d] >= RK_NUM_CARDS) return RK_ERR_ARG;
    }
    rk_rng rng;
    rk_rng_seed(&rng, seed, 0);
    tables t;
    tables_init(&t, model);
    fill_deals(model, p, &rng);
    for (size_t e = 0; e < n_events; e++) {
        const rk_track_event *ev = &events[e];
        /* resampling leaves copies of a story side by side: a copy weighs what its original did */
        rk_mask last_hand = 0, last_after = 0;
        double last_rate = -1, last_logp = 0;
        int last_taker = -1;
        for (size_t i = 0; i < p->n; i++) {
            if (p->logw[i] == -INFINITY) continue; /* a dead story stays dead until resampled */
            if (ev->kind == RK_EV_ADD) {
                p->hand[i] |= (rk_mask)1 << ev->card;
            } else if (ev->kind == RK_EV_DRAW) {
                int8_t *slot = &p->draws[i * p->n_draws + (size_t)ev->card];
                if (*slot < 0) {
                    rk_mask left = model->free & ~p->used[i];
                    if (!left) {
                        p->logw[i] = -INFINITY;
                        continue;
                    }
                    *slot = (int8_t)pick(&rng, left);
                    p->used[i] |= (rk_mask)1 << *slot;
                }
                p->hand[i] |= (rk_mask)1 << *slot;
            } else if (p->hand[i] == last_hand && p->rate[i] == last_rate && taker_of(p, i) == last_taker) {
                p->logw[i] += last_logp;
                p->hand[i] = last_after;
            } else {
                last_hand = p->hand[i];
                last_rate = p->rate[i];
                last_taker = taker_of(p, i);
                last_logp = weigh(rules, model, &t, ev, &p->hand[i], p->rate[i], last_taker);
                last_after = p->hand[i];
                p->logw[i] += last_logp;
            }
        }
        if (ev->kind != RK_EV_ADD) {
            rk_status st = resample(p, scratch, &rng);
            if (st != RK_OK) return st;
        }
    }
    /* a story with no weight left at the end was never resampled away: report none alive */
    for (size_t i = 0; i < p->n; i++)
        if (p->logw[i] != -INFINITY) return RK_OK;
    return RK_ERR_EMPTY;
}
