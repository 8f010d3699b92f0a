/* Why a knock-game action is not legal now (rk_knock_why, knock.h): the rules
 * of rk__legal_actions (knock_engine.c) taken one at a time, in its order, so
 * that the first one the action breaks names the refusal. */
#include <stddef.h>

#include "knock_internal.h"

/* Draw, take and pass outside the phases that offer them. */
static int why_draw_verbs(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int action,
                          int detail[2]) {
    switch (pos->phase) {
    case RK_PHASE_OFFER_NONDEALER:
    case RK_PHASE_OFFER_DEALER:
        return RK_KNOCK_WHY_OFFER_FIRST; /* a stock draw during the offer */
    case RK_PHASE_FORCED_STOCK_DRAW:
        return RK_KNOCK_WHY_STOCK_ONLY;
    case RK_PHASE_DRAW:
        if (action == RK_ACTION_TAKE) return RK_KNOCK_WHY_PILE_EMPTY;
        return RK_KNOCK_WHY_NOTHING_TO_PASS;
    case RK_PHASE_LAST_CHANCE: {
        if (action != RK_ACTION_TAKE) return RK_KNOCK_WHY_LAST_CHANCE;
        rk__limits l = rk__limits_of(pr, pos->upcard);
        int card = pos->discards[pos->n_discards - 1], best, dw;
        rk_mask hand = pos->hands[pos->player] | (rk_mask)1 << card;
        if (rk_best_discard(rules, hand, pr->forbid_taken_discard ? card : -1, &best, &dw, NULL) == RK_OK) {
            detail[0] = dw;
            detail[1] = l.knock_max;
        }
        return l.gin_only ? RK_KNOCK_WHY_GIN_ONLY : RK_KNOCK_WHY_NO_LAST_CHANCE_KNOCK;
    }
    default:
        return RK_KNOCK_WHY_ALREADY_DRAWN;
    }
}

/* A discard, knock or big gin before the draw (0 in the discard phases). */
static int why_before_draw(const rk_position *pos) {
    switch (pos->phase) {
    case RK_PHASE_DISCARD:
    case RK_PHASE_KNOCK_ONLY:
        return 0;
    case RK_PHASE_OFFER_NONDEALER:
    case RK_PHASE_OFFER_DEALER:
        return RK_KNOCK_WHY_OFFER_FIRST;
    case RK_PHASE_LAST_CHANCE:
        return RK_KNOCK_WHY_LAST_CHANCE;
    default:
        return RK_KNOCK_WHY_DRAW_FIRST;
    }
}

/* A discard or knock of card. */
static int why_card(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int action,
                    int detail[2]) {
    int card = action % RK_NUM_CARDS, knock = action >= RK_ACTION_KNOCK;
    int before = why_before_draw(pos);
    if (before) return before;
    rk_mask hand = pos->hands[pos->player];
    if (!(hand >> card & 1u)) return RK_KNOCK_WHY_NOT_IN_HAND;
    if (card == pos->taken && pr->forbid_taken_discard) return RK_KNOCK_WHY_TAKEN_CARD;
    if (!knock) return RK_KNOCK_WHY_MUST_KNOCK; /* a held discard is refused only in the knock-only phase */
    rk__limits l = rk__limits_of(pr, pos->upcard);
    int16_t after[RK_NUM_CARDS];
    int best, dw;
    rk_status st = rk_best_discard(rules, hand, -1, &best, &dw, after);
    if (st != RK_OK) return st;
    detail[0] = after[card];
    detail[1] = l.knock_max;
    return l.gin_only ? RK_KNOCK_WHY_GIN_ONLY : RK_KNOCK_WHY_OVER_LIMIT;
}

/* A meld, lay-off or done of the manual showdown. */
static int why_declare(const rk_rules *rules, const rk_position *pos, int action, int detail[2]) {
    if (pos->phase != RK_PHASE_SHOWDOWN) return RK_KNOCK_WHY_SHOWDOWN_ONLY;
    rk_mask rest = pos->hands[pos->player] & ~pos->used[pos->player];
    if (action < RK_ACTION_LAYOFF) {
        rk_mask meld = rk__meld_of_id(action - RK_ACTION_MELD);
        if (meld & ~rest) return RK_KNOCK_WHY_NOT_UNDECLARED;
        return RK_KNOCK_WHY_NOT_A_MELD; /* its cards are free: the aces of these rules refuse it */
    }
    int card = (action - RK_ACTION_LAYOFF) / RK_LAYOFF_SLOTS, slot = (action - RK_ACTION_LAYOFF) % RK_LAYOFF_SLOTS;
    if (!(rest >> card & 1u)) return RK_KNOCK_WHY_NOT_UNDECLARED;
    if (!pos->can_lay_off) return RK_KNOCK_WHY_NO_LAYOFF;
    if (slot >= pos->n_shown) {
        detail[0] = pos->n_shown;
        return RK_KNOCK_WHY_NO_SUCH_MELD;
    }
    (void)rules;
    return RK_KNOCK_WHY_DOES_NOT_FIT;
}

int rk_knock_why(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int seat, int action,
                 int detail[2]) {
    if (!rules || !detail) return RK_ERR_ARG;
    detail[0] = detail[1] = 0;
    if (action < 0 || action > RK_ACTION_DONE) return RK_KNOCK_WHY_NOT_ACTION;
    if (pos->phase == RK_PHASE_END) return RK_KNOCK_WHY_HAND_OVER; /* rk_position_check refuses an ended hand */
    rk_status st = rk_position_check(pr, pos);
    if (st != RK_OK) return st;
    if (seat >= 0 && seat != pos->player) return RK_KNOCK_WHY_OUT_OF_TURN;
    int actions[RK_MAX_LEGAL];
    int k = rk__legal_actions(rules, pr, pos, actions);
    if (k < 0) return k;
    for (int i = 0; i < k; i++)
        if (actions[i] == action) return RK_KNOCK_LEGAL;
    if (pos->phase == RK_PHASE_SHOWDOWN && action < RK_ACTION_MELD) return RK_KNOCK_WHY_DECLARE;
    if (action < RK_ACTION_DRAW_STOCK) return why_card(rules, pr, pos, action, detail);
    if (action >= RK_ACTION_MELD) return why_declare(rules, pos, action, detail);
    if (action == RK_ACTION_BIG_GIN) {
        if (pr->big_gin_bonus < 0) return RK_KNOCK_WHY_NO_BIG_GIN;
        if (pos->phase == RK_PHASE_KNOCK_ONLY) return RK_KNOCK_WHY_MUST_KNOCK;
        if (pos->phase != RK_PHASE_DISCARD) return why_before_draw(pos);
        detail[0] = rk__deadwood_unchecked(rules, pos->hands[pos->player]);
        return RK_KNOCK_WHY_BIG_GIN_DEADWOOD;
    }
    return why_draw_verbs(rules, pr, pos, action, detail);
}

static const char *const reason_names[RK_KNOCK_NUM_REASONS] = {
    [RK_KNOCK_LEGAL] = "legal",
    [RK_KNOCK_WHY_NOT_ACTION] = "not_action",
    [RK_KNOCK_WHY_OUT_OF_TURN] = "out_of_turn",
    [RK_KNOCK_WHY_HAND_OVER] = "hand_over",
    [RK_KNOCK_WHY_OFFER_FIRST] = "offer_first",
    [RK_KNOCK_WHY_DRAW_FIRST] = "draw_first",
    [RK_KNOCK_WHY_STOCK_ONLY] = "stock_only",
    [RK_KNOCK_WHY_LAST_CHANCE] = "last_chance",
    [RK_KNOCK_WHY_ALREADY_DRAWN] = "already_drawn",
    [RK_KNOCK_WHY_PILE_EMPTY] = "pile_empty",
    [RK_KNOCK_WHY_NOTHING_TO_PASS] = "nothing_to_pass",
    [RK_KNOCK_WHY_NOT_IN_HAND] = "not_in_hand",
    [RK_KNOCK_WHY_TAKEN_CARD] = "taken_card",
    [RK_KNOCK_WHY_MUST_KNOCK] = "must_knock",
    [RK_KNOCK_WHY_GIN_ONLY] = "gin_only",
    [RK_KNOCK_WHY_OVER_LIMIT] = "over_limit",
    [RK_KNOCK_WHY_NO_LAST_CHANCE_KNOCK] = "no_last_chance_knock",
    [RK_KNOCK_WHY_NO_BIG_GIN] = "no_big_gin",
    [RK_KNOCK_WHY_BIG_GIN_DEADWOOD] = "big_gin_deadwood",
    [RK_KNOCK_WHY_SHOWDOWN_ONLY] = "showdown_only",
    [RK_KNOCK_WHY_DECLARE] = "declare",
    [RK_KNOCK_WHY_NOT_UNDECLARED] = "not_undeclared",
    [RK_KNOCK_WHY_NOT_A_MELD] = "not_a_meld",
    [RK_KNOCK_WHY_NO_LAYOFF] = "no_layoff",
    [RK_KNOCK_WHY_NO_SUCH_MELD] = "no_such_meld",
    [RK_KNOCK_WHY_DOES_NOT_FIT] = "does_not_fit",
};

const char *rk_knock_reason_name(int code) {
    return code >= 0 && code < RK_KNOCK_NUM_REASONS ? reason_names[code] : NULL;
}
