/* The built-in policies (RK_POLICY_GREEDY, RK_POLICY_RANDOM) and one
 * playout: a hand played to its end by a policy for every seat. */
#include "knock_internal.h"

#include <string.h>

/* What the greedy policy already knows during one playout: the last
 * unrestricted best discard (hand -> card, deadwood after it) and, per seat,
 * the least deadwood of the hand it kept after its last discard. */
typedef struct greedy_memo {
    rk_mask discard_hand;
    int discard_card, discard_dw;
    rk_mask kept[RK_MAX_PLAYERS];
    int kept_dw[RK_MAX_PLAYERS];
} greedy_memo;

static void memo_clear(greedy_memo *m) {
    memset(m, 0, sizeof *m); /* hand 0 never occurs in a decision */
}

static rk_status best_discard_memo(const rk_rules *rules, rk_mask hand, int *card, int *dw, greedy_memo *m) {
    if (m && m->discard_hand == hand) {
        *card = m->discard_card;
        *dw = m->discard_dw;
        return RK_OK;
    }
    rk_status st = rk_best_discard(rules, hand, -1, card, dw, NULL);
    if (m && st == RK_OK) {
        m->discard_hand = hand;
        m->discard_card = *card;
        m->discard_dw = *dw;
    }
    return st;
}

/* rk_best_discard with a forbidden card, faster: the search without it takes
 * the fast path, and its answer stands unless it is the forbidden card
 * (the keys are a total order, so the best other card is the same). */
static rk_status best_discard_but(const rk_rules *rules, rk_mask hand, int forbidden, int *card, int *dw,
                                  greedy_memo *m) {
    rk_status st = best_discard_memo(rules, hand, card, dw, m);
    if (st != RK_OK || forbidden < 0 || *card != forbidden) return st;
    return rk_best_discard(rules, hand, forbidden, card, dw, NULL);
}

static int kept_deadwood(const rk_rules *rules, int seat, rk_mask hand, const greedy_memo *m) {
    if (m && m->kept[seat] == hand) return m->kept_dw[seat];
    return rk__deadwood_unchecked(rules, hand);
}

/* The manual showdown: the melds of the least-deadwood arrangement of the
 * undeclared cards one at a time, then one lay-off at a time (the highest
 * card value, then the highest card id, then the first meld), then done. */
static int greedy_declaration(const rk_rules *rules, const rk_position *pos) {
    rk_mask rest = pos->hands[pos->player] & ~pos->used[pos->player];
    rk_arrangement a;
    if (rk_best_arrangement(rules, rest, &a) != RK_OK) return RK_ERR_ARG;
    if (a.n_melds) return RK_ACTION_MELD + rk__meld_id(a.melds[0]);
    int best = RK_ACTION_DONE, best_value = -1, best_card = -1;
    for (int slot = 0; slot < pos->n_shown && pos->can_lay_off; slot++)
        for (rk_mask r = rest; r; r &= r - 1) {
            int card = rk__ctz(r), value = rk_mask_value(rules, (rk_mask)1 << card);
            if (rk_meld_kind_of(rules, pos->table[slot] | (rk_mask)1 << card) == RK_MELD_NONE) continue;
            if (value > best_value || (value == best_value && card > best_card)) {
                best = RK_ACTION_LAYOFF + card * RK_LAYOFF_SLOTS + slot;
                best_value = value;
                best_card = card;
            }
        }
    return best;
}

static int greedy_action(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                         int max_knock_deadwood, greedy_memo *memo) {
    rk_mask hand = pos->hands[pos->player];
    int card, dw;
    switch (pos->phase) {
    case RK_PHASE_OFFER_NONDEALER:
    case RK_PHASE_OFFER_DEALER:
    case RK_PHASE_DRAW:
        if (pos->n_discards) {
            /* d_take = min over c in H of dw(H + t - c) < d_keep = dw(H).  Over all cards of
             * H + t the best is either t itself (dw(H): then no c in H does better, no take)
             * or a card of H, whose result is d_take. */
            int top = pos->discards[pos->n_discards - 1];
            if (best_discard_memo(rules, hand | (rk_mask)1 << top, &card, &dw, memo) == RK_OK && card != top &&
                dw < kept_deadwood(rules, pos->player, hand, memo))
                return RK_ACTION_TAKE;
        }
        return pos->phase == RK_PHASE_DRAW ? RK_ACTION_DRAW_STOCK : RK_ACTION_PASS;
    case RK_PHASE_FORCED_STOCK_DRAW:
        return RK_ACTION_DRAW_STOCK;
    case RK_PHASE_LAST_CHANCE: {
        rk__limits l = rk__limits_of(pr, pos->upcard);
        return rk__last_chance_knock_exists(rules, pr, pos, &l) ? RK_ACTION_TAKE : RK_ACTION_PASS;
    }
    case RK_PHASE_DISCARD:
    case RK_PHASE_KNOCK_ONLY: {
        rk__limits l = rk__limits_of(pr, pos->upcard);
        if (pos->phase == RK_PHASE_DISCARD && pr->big_gin_bonus >= 0 && rk__deadwood_unchecked(rules, hand) == 0)
            return RK_ACTION_BIG_GIN;
        int forbid = pr->forbid_taken_discard ? pos->taken : -1;
        if (best_discard_but(rules, hand, forbid, &card, &dw, memo) != RK_OK) return RK_ERR_EMPTY;
        if (dw <= l.knock_max &&
            (pos->phase == RK_PHASE_KNOCK_ONLY || max_knock_deadwood < 0 || dw <= max_knock_deadwood))
            return RK_ACTION_KNOCK + card;
        if (memo) {
            memo->kept[pos->player] = hand & ~((rk_mask)1 << card);
            memo->kept_dw[pos->player] = dw;
        }
        return card;
    }
    case RK_PHASE_SHOWDOWN:
        return greedy_declaration(rules, pos);
    default:
        return RK_ERR_ARG;
    }
}

static int random_action(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, rk_rng *rng) {
    int actions[RK_MAX_LEGAL];
    int k = rk__legal_actions(rules, pr, pos, actions);
    if (k <= 0) return k < 0 ? k : RK_ERR_EMPTY;
    return actions[rk_rng_below(rng, (uint32_t)k)];
}

int rk_policy_action(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                     rk_policy policy, rk_rng *rng) {
    if (!rules || (policy.kind != RK_POLICY_GREEDY && (policy.kind != RK_POLICY_RANDOM || !rng))) return RK_ERR_ARG;
    rk_status st = rk_position_check(pr, pos);
    if (st != RK_OK) return st;
    if (policy.kind == RK_POLICY_GREEDY) return greedy_action(rules, pr, pos, policy.max_knock_deadwood, NULL);
    return random_action(rules, pr, pos, rng);
}

/* rk_playout on a checked position. */
rk_status rk__playout(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, rk_policy policy,
                      rk_rng *rng, rk_playout_result *out) {
    int actions = 0;
    greedy_memo memo;
    memo_clear(&memo);
    while (pos->phase != RK_PHASE_END) {
        int a = policy.kind == RK_POLICY_GREEDY ? greedy_action(rules, pr, pos, policy.max_knock_deadwood, &memo)
                                                : random_action(rules, pr, pos, rng);
        if (a < 0) return (rk_status)a;
        rk_status st = rk__apply_action(rules, pr, pos, a, out);
        if (st != RK_OK) return st;
        actions++;
    }
    out->actions = actions;
    return RK_OK;
}

rk_status rk_playout(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos,
                     rk_policy policy, rk_rng *rng, rk_playout_result *out) {
    if (!rules || !out || (policy.kind != RK_POLICY_GREEDY && (policy.kind != RK_POLICY_RANDOM || !rng)))
        return RK_ERR_ARG;
    rk_status st = rk_position_check(pr, pos);
    return st != RK_OK ? st : rk__playout(rules, pr, pos, policy, rng, out);
}
