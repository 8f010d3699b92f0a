/* The knock games' state machine: KnockState (docs/rules.md, Decision points)
 * with automatic showdown; the rules' defaults and checks, the deal, the
 * legal actions and their effects.  Scoring is in knock_score.c. */
#include "knock_internal.h"

#include <string.h>

rk_status rk_playout_rules_init(rk_playout_rules *pr, rk_base_game game, int num_players) {
    if (!pr) return RK_ERR_ARG;
    memset(pr, 0, sizeof *pr);
    pr->num_players = 2;
    pr->upcard_offer = 1;
    pr->forbid_taken_discard = 1;
    pr->stock_end = RK_STOCK_DEAD_AT_2;
    pr->max_restocks = -1;
    pr->max_turns = 1000;
    pr->knock_limit = 10;
    pr->spade_multiplier = 1;
    pr->allow_layoff_on_knock = 1;
    pr->classic_two_player = 1;
    pr->undercut_on_tie = 1;
    pr->undercut_bonus = 25;
    pr->gin_bonus = 25;
    pr->big_gin_bonus = -1;
    pr->collect_differences = 1;
    pr->gin_loser_multiplier = 1;
    switch (game) {
    case RK_GAME_GIN:
        if (num_players != 2) return RK_ERR_ARG;
        return RK_OK;
    case RK_GAME_OKLAHOMA_GIN:
        if (num_players != 2) return RK_ERR_ARG;
        pr->upcard_offer = 0;
        pr->limit_from_upcard = 1;
        pr->ace_upcard_gin_only = 1;
        pr->spade_multiplier = 2;
        return RK_OK;
    case RK_GAME_OKLAHOMA_RUMMY: /* scoring_model net_collect */
        if (num_players < 3 || num_players > 4) return RK_ERR_ARG;
        pr->num_players = num_players;
        pr->upcard_offer = 0;
        pr->limit_from_upcard = 1;
        pr->ace_upcard_gin_only = 1;
        pr->spade_multiplier = 2;
        pr->stock_end = RK_STOCK_RESHUFFLE;
        pr->classic_two_player = 0;
        pr->knock_bonus = 10;
        pr->undercut_bonus = 10;
        pr->gin_bonus = 20;
        pr->losers_charged = 1;
        return RK_OK;
    }
    return RK_ERR_ARG;
}

/* The rules parameters are the ones KnockRules can express. */
rk_status rk__knock_rules_check(const rk_playout_rules *pr) {
    if (!pr || !rk__in_range(pr->num_players, 2, RK_MAX_PLAYERS)) return RK_ERR_ARG;
    const int flags[] = {pr->upcard_offer, pr->forbid_taken_discard,
                         pr->refused_upcard_set_aside,
                         pr->limit_from_upcard, pr->knock_compare_lt, pr->ace_upcard_gin_only,
                         pr->allow_layoff_on_knock, pr->layoff_onto_prior_layoffs, pr->best_score_arrangement,
                         pr->classic_two_player, pr->undercut_on_tie, pr->collect_differences,
                         pr->losers_charged};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!rk__in_range(flags[i], 0, 1)) return RK_ERR_ARG;
    const int points[] = {pr->knock_limit, pr->knock_bonus, pr->undercut_bonus, pr->gin_bonus,
                          pr->gin_loser_extra, pr->undercut_knocker_extra};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        if (!rk__in_range(points[i], 0, RK__MAX_OPTION)) return RK_ERR_ARG;
    if (!rk__in_range((int)pr->stock_end, RK_STOCK_DEAD_AT_2, RK_STOCK_RESHUFFLE) ||
        !rk__in_range(pr->max_restocks, -1, RK__MAX_OPTION) || !rk__in_range(pr->max_turns, -1, RK__MAX_OPTION) ||
        !rk__in_range(pr->spade_multiplier, 1, 3) || !rk__in_range(pr->big_gin_bonus, -1, RK__MAX_OPTION) ||
        !rk__in_range(pr->gin_loser_multiplier, 0, 100))
        return RK_ERR_ARG;
    return RK_OK;
}

rk_status rk_position_deal(const rk_playout_rules *pr, const uint8_t deck[RK_NUM_CARDS], int dealer,
                           uint64_t shuffle_seed, rk_position *pos) {
    if (rk__knock_rules_check(pr) != RK_OK || !deck || !pos) return RK_ERR_ARG;
    int n = pr->num_players, size = rk__hand_size(pr);
    if (dealer < 0 || dealer >= n) return RK_ERR_ARG;
    rk_mask seen = 0;
    for (int i = 0; i < RK_NUM_CARDS; i++) {
        if (deck[i] >= RK_NUM_CARDS || ((seen >> deck[i]) & 1u)) return RK_ERR_ARG;
        seen |= (rk_mask)1 << deck[i];
    }
    memset(pos, 0, sizeof *pos);
    for (int i = 0; i < size * n; i++) pos->hands[(dealer + 1 + i) % n] |= (rk_mask)1 << deck[i];
    pos->upcard = deck[size * n];
    pos->discards[0] = deck[size * n];
    pos->n_discards = 1;
    for (int i = RK_NUM_CARDS - 1; i > size * n; i--) pos->stock[pos->n_stock++] = deck[i];
    pos->dealer = dealer;
    pos->player = (dealer + 1) % n;
    pos->phase = pr->upcard_offer ? RK_PHASE_OFFER_NONDEALER : RK_PHASE_DRAW;
    pos->taken = -1;
    pos->shuffle_seed = shuffle_seed;
    return RK_OK;
}

rk_status rk_position_check(const rk_playout_rules *pr, const rk_position *pos) {
    rk_status st = rk__knock_rules_check(pr);
    if (st != RK_OK || !pos) return RK_ERR_ARG;
    int n = pr->num_players;
    if (pos->phase < RK_PHASE_OFFER_NONDEALER || pos->phase > RK_PHASE_KNOCK_ONLY) return RK_ERR_ARG;
    if (pos->player < 0 || pos->player >= n || pos->dealer < 0 || pos->dealer >= n) return RK_ERR_ARG;
    if (pos->upcard < 0 || pos->upcard >= RK_NUM_CARDS) return RK_ERR_ARG;
    if (!rk__in_range(pos->n_stock, 0, RK_NUM_CARDS) || !rk__in_range(pos->n_discards, 0, RK_NUM_CARDS) ||
        pos->n_stock + pos->n_discards > RK_NUM_CARDS)
        return RK_ERR_ARG;
    /* the offers and the last chance are about the top discard */
    if (pos->n_discards == 0 && (pos->phase == RK_PHASE_OFFER_NONDEALER || pos->phase == RK_PHASE_OFFER_DEALER ||
                                 pos->phase == RK_PHASE_LAST_CHANCE))
        return RK_ERR_ARG;
    if (pos->taken < -1 || pos->taken >= RK_NUM_CARDS || !rk__in_range(pos->restocks, 0, RK__MAX_COUNTER) ||
        !rk__in_range(pos->turns, 0, RK__MAX_COUNTER))
        return RK_ERR_ARG;
    rk_mask seen = 0;
    for (int s = 0; s < RK_MAX_PLAYERS; s++) {
        rk_mask h = pos->hands[s];
        if (h & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
        /* a hand never holds more than one card over its deal (the knock searches are exponential) */
        if ((s >= n && h) || rk__popcount(h) > rk__hand_size(pr) + 1) return RK_ERR_ARG;
        if (h & seen) return RK_ERR_OVERLAP;
        seen |= h;
    }
    for (int i = 0; i < pos->n_stock + pos->n_discards; i++) {
        int c = i < pos->n_stock ? pos->stock[i] : pos->discards[i - pos->n_stock];
        if (c >= RK_NUM_CARDS) return RK_ERR_BAD_MASK;
        if ((seen >> c) & 1u) return RK_ERR_OVERLAP;
        seen |= (rk_mask)1 << c;
    }
    if (pos->taken >= 0 && !((pos->hands[pos->player] >> pos->taken) & 1u)) return RK_ERR_ARG;
    return RK_OK;
}

/* showdown.limit_and_multiplier and KnockState._knock_max */
rk__limits rk__limits_of(const rk_playout_rules *pr, int upcard) {
                         rk__limits l;
                         int rank = upcard % RK_NUM_RANKS, spade = upcard / RK_NUM_RANKS == 3;
                         if (pr->limit_from_upcard) {
        l.limit = rank + 1 < 10 ? rank + 1 : 10;
        l.gin_only = rank == 0 && pr->ace_upcard_gin_only;
    } else {
        l.limit = pr->knock_limit;
        l.gin_only = 0;
    }
    l.multiplier = spade ? pr->spade_multiplier : 1;
    l.knock_max = l.gin_only ? 0 : l.limit - (pr->knock_compare_lt ? 1 : 0);
    return l;
}

/* ---- the state machine ---------------------------------------------- */

static void end_dead(rk_position *pos, const rk__limits *l, rk_playout_result *out) {
    pos->phase = RK_PHASE_END;
    if (out) {
        memset(out, 0, sizeof *out);
        out->outcome = RK_OUTCOME_DEAD;
        out->knocker = out->winner = -1;
        out->multiplier = l->multiplier;
    }
}

static rk_status end_knock(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos,
                           rk_mask final, int big_gin, rk_playout_result *out) {
    int n = pr->num_players, p = pos->player;
    rk_mask hands[RK_MAX_PLAYERS];
    rk_playout_result r;
    for (int i = 0; i < n; i++) hands[i] = pos->hands[(p + i) % n];
    hands[0] = final;
    pos->hands[p] = final;
    pos->phase = RK_PHASE_END;
    rk_status st = rk_score_knock(rules, pr, hands, pos->upcard, big_gin, &r);
    if (st != RK_OK) return st;
    if (out) {
        memset(out, 0, sizeof *out);
        out->outcome = r.outcome;
        out->knocker = p;
        out->winner = (p + r.winner) % n;
        out->multiplier = r.multiplier;
        for (int i = 0; i < n; i++) {
            out->points[(p + i) % n] = r.points[i];
            out->deadwood[(p + i) % n] = r.deadwood[i];
        }
    }
    return RK_OK;
}

static void next_turn(const rk_playout_rules *pr, rk_position *pos, const rk__limits *l, rk_playout_result *out) {
    pos->turns++;
    if (pr->max_turns >= 0 && pos->turns >= pr->max_turns) {
        end_dead(pos, l, out);
        return;
    }
    pos->player = (pos->player + 1) % pr->num_players;
    pos->phase = RK_PHASE_DRAW;
    pos->taken = -1;
}

static int restock(const rk_playout_rules *pr, rk_position *pos) {
    if (pos->n_discards < 2 || (pr->max_restocks >= 0 && pos->restocks >= pr->max_restocks)) return 0;
    int m = pos->n_discards - 1;
    memcpy(pos->stock, pos->discards, (size_t)m);
    rk_restock_shuffle(pos->shuffle_seed, pos->restocks, pos->stock, (size_t)m);
    pos->n_stock = m;
    pos->discards[0] = pos->discards[m];
    pos->n_discards = 1;
    pos->restocks++;
    return 1;
}

/* rk_apply_action on a checked position with a legal action. */
rk_status rk__apply_action(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos, int action,
                           rk_playout_result *out) {
    int p = pos->player, n = pr->num_players;
    rk__limits l = rk__limits_of(pr, pos->upcard);
    if (action < RK_ACTION_KNOCK) { /* discard */
        pos->hands[p] &= ~((rk_mask)1 << action);
        pos->discards[pos->n_discards++] = (uint8_t)action;
        if (pr->stock_end != RK_STOCK_RESHUFFLE && pos->n_stock <= 2) {
            if (pr->stock_end == RK_STOCK_DEAD_AT_2_LAST_CHANCE && pos->phase == RK_PHASE_DISCARD) {
                pos->player = (p + 1) % n;
                pos->phase = RK_PHASE_LAST_CHANCE;
                pos->taken = -1;
                return RK_OK;
            }
            end_dead(pos, &l, out);
            return RK_OK;
        }
        next_turn(pr, pos, &l, out);
        return RK_OK;
    }
    if (action < RK_ACTION_DRAW_STOCK) /* knock */
        return end_knock(rules, pr, pos, pos->hands[p] & ~((rk_mask)1 << (action - RK_ACTION_KNOCK)), 0, out);
    switch (action) {
    case RK_ACTION_DRAW_STOCK:
        if (pos->n_stock == 0 && !restock(pr, pos)) {
            end_dead(pos, &l, out);
            return RK_OK;
        }
        pos->hands[p] |= (rk_mask)1 << pos->stock[--pos->n_stock];
        pos->phase = RK_PHASE_DISCARD;
        pos->taken = -1;
        if (pr->stock_end == RK_STOCK_DEAD_ON_DRAW && pos->n_stock <= 2) end_dead(pos, &l, out);
        return RK_OK;
    case RK_ACTION_TAKE: {
        int card = pos->discards[--pos->n_discards];
        pos->hands[p] |= (rk_mask)1 << card;
        pos->taken = card;
        pos->phase = pos->phase == RK_PHASE_LAST_CHANCE ? RK_PHASE_KNOCK_ONLY : RK_PHASE_DISCARD;
        return RK_OK;
    }
    case RK_ACTION_PASS:
        if (pos->phase == RK_PHASE_OFFER_NONDEALER) {
            pos->player = pos->dealer;
            pos->phase = RK_PHASE_OFFER_DEALER;
        } else if (pos->phase == RK_PHASE_OFFER_DEALER) {
            pos->player = (pos->dealer + 1) % n;
            pos->phase = RK_PHASE_FORCED_STOCK_DRAW;
            if (pr->refused_upcard_set_aside) pos->n_discards--;
        } else {
            end_dead(pos, &l, out);
        }
        return RK_OK;
    case RK_ACTION_BIG_GIN:
        return end_knock(rules, pr, pos, pos->hands[p], 1, out);
    default:
        return RK_ERR_ARG;
    }
}

/* KnockState._last_chance_knock_exists */
int rk__last_chance_knock_exists(const rk_rules *rules, const rk_playout_rules *pr,
                                 const rk_position *pos, const rk__limits *l) {
    int card = pos->discards[pos->n_discards - 1], best, dw;
    rk_mask hand = pos->hands[pos->player] | (rk_mask)1 << card;
    if (rk_best_discard(rules, hand, pr->forbid_taken_discard ? card : -1, &best, &dw, NULL) != RK_OK)
        return 0;
    return dw <= l->knock_max;
}

/* rk_legal_actions on a checked position. */
int rk__legal_actions(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *pos,
                      int actions[RK_MAX_LEGAL]) {
    rk__limits l = rk__limits_of(pr, pos->upcard);
    int k = 0;
    switch (pos->phase) {
    case RK_PHASE_DISCARD:
    case RK_PHASE_KNOCK_ONLY: {
        int16_t after[RK_NUM_CARDS];
        int card, dw;
        rk_mask hand = pos->hands[pos->player];
        int forbid = pr->forbid_taken_discard ? pos->taken : -1;
        rk_status st = rk_best_discard(rules, hand, -1, &card, &dw, after);
        if (st != RK_OK) return st;
        if (pos->phase == RK_PHASE_DISCARD)
            for (int c = 0; c < RK_NUM_CARDS; c++)
                if (after[c] >= 0 && c != forbid) actions[k++] = c;
        for (int c = 0; c < RK_NUM_CARDS; c++)
            if (after[c] >= 0 && c != forbid && after[c] <= l.knock_max) actions[k++] = RK_ACTION_KNOCK + c;
        if (pos->phase == RK_PHASE_DISCARD && pr->big_gin_bonus >= 0 && rk__deadwood_unchecked(rules, hand) == 0)
            actions[k++] = RK_ACTION_BIG_GIN;
        return k;
    }
    case RK_PHASE_DRAW:
        actions[k++] = RK_ACTION_DRAW_STOCK;
        if (pos->n_discards) actions[k++] = RK_ACTION_TAKE;
        return k;
    case RK_PHASE_OFFER_NONDEALER:
    case RK_PHASE_OFFER_DEALER:
        actions[k++] = RK_ACTION_TAKE;
        actions[k++] = RK_ACTION_PASS;
        return k;
    case RK_PHASE_FORCED_STOCK_DRAW:
        actions[k++] = RK_ACTION_DRAW_STOCK;
        return k;
    case RK_PHASE_LAST_CHANCE:
        if (rk__last_chance_knock_exists(rules, pr, pos, &l)) actions[k++] = RK_ACTION_TAKE;
        actions[k++] = RK_ACTION_PASS;
        return k;
    default:
        return 0;
    }
}

int rk_legal_actions(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *pos,
                     int actions[RK_MAX_LEGAL]) {
    if (!rules || !actions) return RK_ERR_ARG;
    rk_status st = rk_position_check(pr, pos);
    return st != RK_OK ? st : rk__legal_actions(rules, pr, pos, actions);
}

rk_status rk_apply_action(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos, int action,
                          rk_playout_result *out) {
    int actions[RK_MAX_LEGAL];
    int k = rk_legal_actions(rules, pr, pos, actions);
    if (k < 0) return (rk_status)k;
    for (int i = 0; i < k; i++)
        if (actions[i] == action) return rk__apply_action(rules, pr, pos, action, out);
    return RK_ERR_ARG; /* not legal now: the position is untouched */
}
