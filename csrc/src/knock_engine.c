/* The knock games' state machine: KnockState (docs/rules.md, Decision points);
 * the deal, the legal actions and their effects, the manual showdown.  The
 * rules are in knock_rules.c, scoring in knock_score.c, the meld ids in
 * knock_melds.c. */
#include "knock_internal.h"

#include <string.h>

rk_status rk_position_deal(const rk_knock_rules *pr, const uint8_t deck[RK_NUM_CARDS], int dealer,
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
    pos->set_aside = pos->knock_card = pos->knocker = -1;
    pos->shuffle_seed = shuffle_seed;
    return RK_OK;
}

/* rk_position_check, or with end 1 the same checks of a finished hand. */
static rk_status check_position(const rk_knock_rules *pr, const rk_position *pos, int end) {
    rk_status st = rk__knock_rules_check(pr);
    if (st != RK_OK || !pos) return RK_ERR_ARG;
    int n = pr->num_players;
    if (end ? pos->phase != RK_PHASE_END : pos->phase < RK_PHASE_OFFER_NONDEALER || pos->phase > RK_PHASE_SHOWDOWN)
        return RK_ERR_ARG;
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
    if (!rk__in_range(pos->set_aside, -1, RK_NUM_CARDS - 1) || !rk__in_range(pos->knock_card, -1, RK_NUM_CARDS - 1))
        return RK_ERR_ARG;
    for (int s = 0; s < RK_MAX_PLAYERS; s++)
        if (pos->known[s] & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    /* the knock's fields (read only in the showdown and at the end) */
    if (!rk__in_range(pos->knocker, -1, n - 1) || !rk__in_range(pos->shown_given, 0, 1) ||
        !rk__in_range(pos->n_shown, 0, RK_LAYOFF_SLOTS))
        return RK_ERR_ARG;
    if (!rk__in_range(pos->big_gin, 0, 1) || !rk__in_range(pos->can_lay_off, 0, 1) ||
        !rk__in_range(pos->shown_deadwood, 0, RK__MAX_OPTION))
        return RK_ERR_ARG;
    for (int i = 0; i < pos->n_shown; i++)
        if ((pos->shown[i] | pos->table[i]) & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    for (int s = 0; s < RK_MAX_PLAYERS; s++)
        if (pos->used[s] & ~pos->hands[s]) return RK_ERR_ARG;
    for (int s = 0; s < RK_MAX_PLAYERS; s++)
        for (int k = 0; k < RK_RECENT_KINDS; k++)
            for (int j = 0; j < RK_RECENT; j++)
                if (pos->recent[s][k][j] > RK_NUM_CARDS || (s >= n && pos->recent[s][k][j])) return RK_ERR_ARG;
    if (end) return RK_OK; /* taken may have gone in the knock or the last discard */
    if (pos->phase != RK_PHASE_SHOWDOWN)
        return pos->taken >= 0 && !((pos->hands[pos->player] >> pos->taken) & 1u) ? RK_ERR_ARG : RK_OK;
    /* the manual showdown (taken stays the card the knocker took) */
    return pr->auto_showdown || pos->knocker < 0 || pos->player == pos->knocker ? RK_ERR_ARG : RK_OK;
}

rk_status rk_position_check(const rk_knock_rules *pr, const rk_position *pos) { return check_position(pr, pos, 0); }

rk_status rk__position_check_any(const rk_knock_rules *pr, const rk_position *pos) {
    return check_position(pr, pos, pos && pos->phase == RK_PHASE_END);
}

/* ---- the state machine ---------------------------------------------- */

static void end_dead(rk_position *pos, const rk__limits *l, rk_playout_result *out) {
    pos->phase = RK_PHASE_END;
    if (out) {
        memset(out, 0, sizeof *out);
        out->outcome = RK_OUTCOME_DEAD;
        out->knocker = out->winner = -1;
        out->multiplier = l->multiplier;
        out->knock_limit = l->limit;
    }
}

/* A result in knock order, knocker p, moved to seats. */
static void seat_result(const rk_knock_rules *pr, int p, const rk_playout_result *r, rk_playout_result *out) {
    int n = pr->num_players;
    if (!out) return;
    memset(out, 0, sizeof *out);
    out->outcome = r->outcome;
    out->knocker = p;
    out->winner = (p + r->winner) % n;
    out->multiplier = r->multiplier;
    out->knock_limit = r->knock_limit;
    for (int i = 0; i < n; i++) {
        int s = (p + i) % n;
        out->points[s] = r->points[i];
        out->deadwood[s] = r->deadwood[i];
        out->credits[s] = r->credits[i];
        out->charges[s] = r->charges[i];
        out->boxes[s] = r->boxes[i];
    }
}

/* ReferenceKnockState._end_with_knock: the knocker p keeps final and shows *given
 * (checked by the caller) or the automatic arrangement. */
static rk_status end_knock(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, rk_mask final,
                           int big_gin, const rk_arrangement *given, rk_playout_result *out) {
    int n = pr->num_players, p = pos->player;
    rk_mask hands[RK_MAX_PLAYERS];
    rk_playout_result r;
    rk__limits l = rk__limits_of(pr, pos->upcard);
    for (int i = 0; i < n; i++) hands[i] = pos->hands[(p + i) % n];
    hands[0] = final;
    pos->hands[p] = final;
    pos->knocker = p;
    pos->big_gin = big_gin;
    pos->shown_given = given != NULL;
    if (given) {
        if (given->n_melds > RK_LAYOFF_SLOTS) return RK_ERR_CAPACITY;
        pos->n_shown = given->n_melds;
        pos->shown_deadwood = given->deadwood;
        memset(pos->shown, 0, sizeof pos->shown);
        memcpy(pos->shown, given->melds, sizeof(rk_mask) * (size_t)given->n_melds);
    }
    if (!pr->auto_showdown) { /* the knocker shows, the defenders declare */
        rk_arrangement shown;
        if (given) {
            shown = *given;
        } else {
            rk_status st = rk__knock_arrangement(rules, pr, hands, &l, &shown);
            if (st != RK_OK) return st;
        }
        if (shown.n_melds > RK_LAYOFF_SLOTS) return RK_ERR_CAPACITY;
        pos->n_shown = shown.n_melds;
        pos->shown_deadwood = shown.deadwood;
        pos->can_lay_off = shown.deadwood > 0 && pr->allow_layoff_on_knock && shown.n_melds > 0;
        memset(pos->shown, 0, sizeof pos->shown);
        memcpy(pos->shown, shown.melds, sizeof(rk_mask) * (size_t)shown.n_melds);
        memcpy(pos->table, pos->shown, sizeof pos->table);
        memset(pos->used, 0, sizeof pos->used);
        pos->player = (p + 1) % n;
        pos->phase = RK_PHASE_SHOWDOWN;
        return RK_OK;
    }
    pos->phase = RK_PHASE_END;
    if (given) {
        rk__score_shown(rules, pr, hands, given, big_gin, &l, &r);
    } else {
        rk_status st = rk_score_knock(rules, pr, hands, pos->upcard, big_gin, &r);
        if (st != RK_OK) return st;
    }
    seat_result(pr, p, &r, out);
    return RK_OK;
}

/* ReferenceKnockState._declare: a defender's meld, lay-off or done. */
static rk_status declare(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int action,
                         rk_playout_result *out) {
    int p = pos->player, n = pr->num_players;
    if (action < RK_ACTION_LAYOFF) {
        pos->used[p] |= rk__meld_of_id(action - RK_ACTION_MELD);
        return RK_OK;
    }
    if (action < RK_ACTION_DONE) {
        int card = (action - RK_ACTION_LAYOFF) / RK_LAYOFF_SLOTS, slot = (action - RK_ACTION_LAYOFF) % RK_LAYOFF_SLOTS;
        pos->used[p] |= (rk_mask)1 << card;
        pos->table[slot] |= (rk_mask)1 << card;
        return RK_OK;
    }
    int next = (p + 1) % n;
    if (next != pos->knocker) {
        if (!pr->layoff_onto_prior_layoffs) memcpy(pos->table, pos->shown, sizeof pos->table);
        pos->player = next;
        return RK_OK;
    }
    /* ReferenceKnockState._end_declared: what is not declared is deadwood */
    int dw[RK_MAX_PLAYERS];
    rk_playout_result r;
    dw[0] = pos->shown_deadwood;
    for (int i = 1; i < n; i++) {
        int s = (pos->knocker + i) % n;
        dw[i] = rk_mask_value(rules, pos->hands[s] & ~pos->used[s]);
    }
    rk__score_declared(pr, dw, pos->big_gin, pos->upcard, &r);
    pos->phase = RK_PHASE_END;
    seat_result(pr, pos->knocker, &r, out);
    return RK_OK;
}

static void next_turn(const rk_knock_rules *pr, rk_position *pos, const rk__limits *l, rk_playout_result *out) {
    pos->turns++;
    if (pr->max_turns >= 0 && pos->turns >= pr->max_turns) {
        end_dead(pos, l, out);
        return;
    }
    pos->player = (pos->player + 1) % pr->num_players;
    pos->phase = RK_PHASE_DRAW;
    pos->taken = -1;
}

static int restock(const rk_knock_rules *pr, rk_position *pos) {
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

/* Seat p's move of ``kind`` on ``card``, newest first in pos->recent (rk_position). */
static void remember(rk_position *pos, int p, int kind, int card) {
    uint8_t *r = pos->recent[p][kind];
    memmove(r + 1, r, RK_RECENT - 1);
    r[0] = (uint8_t)(card + 1);
}

/* rk_apply_action on a checked position with a legal action. */
rk_status rk__apply_action(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int action,
                           rk_playout_result *out) {
    int p = pos->player, n = pr->num_players;
    rk__limits l = rk__limits_of(pr, pos->upcard);
    if (action < RK_ACTION_KNOCK) { /* discard */
        remember(pos, p, RK_RECENT_DISCARD, action);
        pos->hands[p] &= ~((rk_mask)1 << action);
        pos->known[p] &= ~((rk_mask)1 << action);
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
    if (action >= RK_ACTION_MELD) return declare(rules, pr, pos, action, out);
    if (action < RK_ACTION_DRAW_STOCK) { /* knock: known keeps the card if the others saw it taken */
        pos->knock_card = action - RK_ACTION_KNOCK;
        return end_knock(rules, pr, pos, pos->hands[p] & ~((rk_mask)1 << (action - RK_ACTION_KNOCK)), 0, NULL, out);
    }
    switch (action) {
    case RK_ACTION_DRAW_STOCK:
        if (pos->phase == RK_PHASE_DRAW && pos->n_discards > 0) /* the top discard declined */
            remember(pos, p, RK_RECENT_PASS, pos->discards[pos->n_discards - 1]);
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
        remember(pos, p, RK_RECENT_TAKE, card);
        pos->hands[p] |= (rk_mask)1 << card;
        pos->known[p] |= (rk_mask)1 << card; /* the others saw it taken */
        pos->taken = card;
        pos->phase = pos->phase == RK_PHASE_LAST_CHANCE ? RK_PHASE_KNOCK_ONLY : RK_PHASE_DISCARD;
        return RK_OK;
    }
    case RK_ACTION_PASS:
        remember(pos, p, RK_RECENT_PASS, pos->discards[pos->n_discards - 1]); /* offers, last chance: a top */
        if (pos->phase == RK_PHASE_OFFER_NONDEALER) {
            pos->player = pos->dealer;
            pos->phase = RK_PHASE_OFFER_DEALER;
        } else if (pos->phase == RK_PHASE_OFFER_DEALER) {
            pos->player = (pos->dealer + 1) % n;
            pos->phase = RK_PHASE_FORCED_STOCK_DRAW;
            if (pr->refused_upcard_set_aside) pos->set_aside = pos->discards[--pos->n_discards];
        } else {
            end_dead(pos, &l, out);
        }
        return RK_OK;
    case RK_ACTION_BIG_GIN:
        return end_knock(rules, pr, pos, pos->hands[p], 1, NULL, out);
    default:
        return RK_ERR_ARG;
    }
}

/* ReferenceKnockState._showdown_actions: the melds among the defender's undeclared
 * cards, their lay-offs on the knocker's melds, done; sorted. */
static int showdown_actions(const rk_rules *rules, const rk_position *pos, int actions[RK_MAX_LEGAL]) {
    rk_mask melds[RK_MAX_LEGAL], rest = pos->hands[pos->player] & ~pos->used[pos->player];
    size_t count;
    int k = 0;
    rk_status st = rk_enumerate_melds(rules, rest, melds, RK_MAX_LEGAL, &count);
    if (st != RK_OK) return st;
    for (size_t i = 0; i < count; i++) actions[k++] = RK_ACTION_MELD + rk__meld_id(melds[i]);
    for (int slot = 0; slot < pos->n_shown && pos->can_lay_off; slot++)
        for (rk_mask r = rest; r; r &= r - 1) {
            int card = rk__ctz(r);
            if (rk_meld_kind_of(rules, pos->table[slot] | (rk_mask)1 << card) == RK_MELD_NONE) continue;
            if (k >= RK_MAX_LEGAL - 1) return RK_ERR_CAPACITY; /* room for done */
            actions[k++] = RK_ACTION_LAYOFF + card * RK_LAYOFF_SLOTS + slot;
        }
    if (k >= RK_MAX_LEGAL) return RK_ERR_CAPACITY;
    actions[k++] = RK_ACTION_DONE;
    for (int i = 1; i < k; i++) /* insertion sort: a few dozen ids */
        for (int j = i; j > 0 && actions[j - 1] > actions[j]; j--) {
            int t = actions[j];
            actions[j] = actions[j - 1];
            actions[j - 1] = t;
        }
    return k;
}

/* ReferenceKnockState._last_chance_knock_exists */
int rk__last_chance_knock_exists(const rk_rules *rules, const rk_knock_rules *pr,
                                 const rk_position *pos, const rk__limits *l) {
    int card = pos->discards[pos->n_discards - 1], best, dw;
    rk_mask hand = pos->hands[pos->player] | (rk_mask)1 << card;
    if (rk_best_discard(rules, hand, pr->forbid_taken_discard ? card : -1, &best, &dw, NULL) != RK_OK)
        return 0;
    return dw <= l->knock_max;
}

/* rk_legal_actions on a checked position. */
int rk__legal_actions(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                      int actions[RK_MAX_LEGAL]) {
    rk__limits l = rk__limits_of(pr, pos->upcard);
    int k = 0;
    switch (pos->phase) {
    case RK_PHASE_DISCARD:
    case RK_PHASE_KNOCK_ONLY: {
        rk_mask hand = pos->hands[pos->player];
        int forbid = pr->forbid_taken_discard ? pos->taken : -1;
        int whole = rk__deadwood_unchecked(rules, hand), top_value = 0;
        if (pos->phase == RK_PHASE_DISCARD)
            for (rk_mask r = hand; r; r &= r - 1)
                if (rk__ctz(r) != forbid) actions[k++] = rk__ctz(r);
        /* Discarding c leaves at least whole - value(c) (the melds of hand - c are melds of
         * hand): search the discards only when some card may bring the hand to the limit. */
        for (rk_mask r = hand; r; r &= r - 1) {
            int v = rules->values[rk__ctz(r) % RK_NUM_RANKS];
            top_value = v > top_value ? v : top_value;
        }
        if (whole - top_value <= l.knock_max) {
            int16_t after[RK_NUM_CARDS];
            int card, dw;
            rk_status st = rk_best_discard(rules, hand, -1, &card, &dw, after);
            if (st != RK_OK) return st;
            for (int c = 0; c < RK_NUM_CARDS; c++)
                if (after[c] >= 0 && c != forbid && after[c] <= l.knock_max) actions[k++] = RK_ACTION_KNOCK + c;
        }
        if (pos->phase == RK_PHASE_DISCARD && pr->big_gin_bonus >= 0 && whole == 0) actions[k++] = RK_ACTION_BIG_GIN;
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
    case RK_PHASE_SHOWDOWN:
        return showdown_actions(rules, pos, actions);
    default:
        return 0;
    }
}

int rk_legal_actions(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                     int actions[RK_MAX_LEGAL]) {
    if (!rules || !actions) return RK_ERR_ARG;
    rk_status st = rk_position_check(pr, pos);
    return st != RK_OK ? st : rk__legal_actions(rules, pr, pos, actions);
}

rk_status rk_apply_action(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int action,
                          rk_playout_result *out) {
    int actions[RK_MAX_LEGAL];
    int k = rk_legal_actions(rules, pr, pos, actions);
    if (k < 0) return (rk_status)k;
    for (int i = 0; i < k; i++)
        if (actions[i] == action) return rk__apply_action(rules, pr, pos, action, out);
    return RK_ERR_ARG; /* not legal now: the position is untouched */
}

rk_status rk_apply_legal(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int action,
                         rk_playout_result *out) {
    return rk__apply_action(rules, pr, pos, action, out);
}

rk_status rk_knock_melds(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int card,
                         const rk_mask *melds, int n_melds, rk_playout_result *out) {
    int actions[RK_MAX_LEGAL], legal = 0;
    int k = rk_legal_actions(rules, pr, pos, actions);
    if (k < 0) return (rk_status)k;
    for (int i = 0; i < k; i++) legal |= actions[i] == RK_ACTION_KNOCK + card;
    if (!legal) return RK_ERR_ARG;
    rk__limits l = rk__limits_of(pr, pos->upcard);
    rk_mask final = pos->hands[pos->player] & ~((rk_mask)1 << card);
    rk_arrangement shown;
    rk_status st = rk__shown_arrangement(rules, final, melds, n_melds, &l, 0, &shown);
    if (st != RK_OK) return st;
    pos->knock_card = card;
    return end_knock(rules, pr, pos, final, 0, &shown, out);
}

rk_status rk_position_result(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                             rk_playout_result *out) {
    if (!rules || !out) return RK_ERR_ARG;
    rk_status st = check_position(pr, pos, 1);
    if (st != RK_OK) return st;
    rk__limits l = rk__limits_of(pr, pos->upcard);
    rk_position copy = *pos;
    if (pos->knocker < 0) {
        end_dead(&copy, &l, out);
        return RK_OK;
    }
    int n = pr->num_players, p = pos->knocker;
    rk_mask hands[RK_MAX_PLAYERS];
    rk_playout_result r;
    for (int i = 0; i < n; i++) hands[i] = pos->hands[(p + i) % n];
    if (!pr->auto_showdown) {
        int dw[RK_MAX_PLAYERS];
        dw[0] = pos->shown_deadwood;
        for (int i = 1; i < n; i++) dw[i] = rk_mask_value(rules, hands[i] & ~pos->used[(p + i) % n]);
        rk__score_declared(pr, dw, pos->big_gin, pos->upcard, &r);
    } else if (pos->shown_given) {
        rk_arrangement shown;
        st = rk__shown_arrangement(rules, hands[0], pos->shown, pos->n_shown, &l, pos->big_gin, &shown);
        if (st != RK_OK) return st;
        rk__score_shown(rules, pr, hands, &shown, pos->big_gin, &l, &r);
    } else {
        st = rk_score_knock(rules, pr, hands, pos->upcard, pos->big_gin, &r);
        if (st != RK_OK) return st;
    }
    seat_result(pr, p, &r, out);
    return RK_OK;
}
