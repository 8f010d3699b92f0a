/* The built-in policies (RK_POLICY_GREEDY, RK_POLICY_CAREFUL, RK_POLICY_RANDOM) and one
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

int rk__meld_take(const rk_rules *rules, rk_mask hand, int top, int card, int least, int knock_max) {
    if (least <= knock_max) return 1;
    rk_mask rest = hand & ~((rk_mask)1 << card);
    return least < rk__deadwood_unchecked(rules, rest) + rk_mask_value(rules, (rk_mask)1 << top);
}

static int greedy_action(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                         rk_policy policy, greedy_memo *memo) {
    rk_mask hand = pos->hands[pos->player];
    int card, dw, max_knock_deadwood = policy.max_knock_deadwood;
    switch (pos->phase) {
    case RK_PHASE_OFFER_NONDEALER:
    case RK_PHASE_OFFER_DEALER:
    case RK_PHASE_DRAW:
        if (pos->n_discards && policy.meld_takes) {
            int top = pos->discards[pos->n_discards - 1];
            rk__limits l = rk__limits_of(pr, pos->upcard);
            if (best_discard_but(rules, hand | (rk_mask)1 << top, top, &card, &dw, memo) == RK_OK &&
                rk__meld_take(rules, hand, top, card, dw, l.knock_max))
                return RK_ACTION_TAKE;
        } else if (pos->n_discards) {
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

/* ---- the careful policy (RK_POLICY_CAREFUL, policy.h) ------------------ */

#define CAREFUL_SLACK 4       /* discards searched: up to this much above the least deadwood */
#define CAREFUL_OUT 4         /* quarter points a live out is worth (one point) */
#define CAREFUL_DANGER 16     /* quarter points: a card next to one another seat took, less one of a rank it threw */
#define CAREFUL_OVER_LIMIT 20 /* quarter points for deadwood above the knock limit */

/* The cards of one suit lane (bit = rank) that make a run of three or more
 * with two of its cards, aces as the rules play them. */
static unsigned run_completions(const rk_rules *rules, unsigned s) {
    /* positions 0..13: 0 the ace low, 1..12 two to king, 13 the ace high */
    unsigned low = rules->aces != RK_ACES_HIGH, high = rules->aces != RK_ACES_LOW;
    unsigned e = (low ? s : s & ~1u) | (high ? (s & 1u) << 13 : 0u);
    unsigned pair = e & (e >> 1), gap = e & (e >> 2);
    unsigned c = ((pair >> 1) | (pair << 2) | (gap << 1)) & 0x3FFFu;
    unsigned ace = (low && (c & 1u)) || (high && ((c >> 13) & 1u));
    return ((c & 0x1FFEu) | ace) & ~s & RK_SUIT_BITS;
}

/* The cards not in hand that make a meld of three or more with two of its
 * cards (so also those that extend one of its melds). */
static rk_mask completions(const rk_rules *rules, rk_mask hand) {
    rk_lanes l = rk__split(hand), out;
    unsigned two = rk__two_of_a_rank(l);
    for (int s = 0; s < RK_NUM_SUITS; s++) out.s[s] = (uint16_t)((run_completions(rules, l.s[s]) | two) & ~l.s[s]);
    return rk__join(out);
}

/* The cards next to `cards`: their ranks in the other suits, their suits within two ranks
 * (aces low). */
static rk_mask neighbours(rk_mask cards) {
    rk_lanes l = rk__split(cards), out;
    unsigned ranks = l.s[0] | l.s[1] | l.s[2] | l.s[3];
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        unsigned x = l.s[s];
        out.s[s] = (uint16_t)((ranks | x << 1 | x << 2 | x >> 1 | x >> 2) & ~x & RK_SUIT_BITS);
    }
    return rk__join(out);
}

static rk_mask recent_cards(const rk_position *pos, int seat, int kind) {
    rk_mask m = 0;
    for (int j = 0; j < RK_RECENT; j++)
        if (pos->recent[seat][kind][j]) m |= (rk_mask)1 << (pos->recent[seat][kind][j] - 1);
    return m;
}

/* What the player to move knows that the careful policy uses. */
typedef struct careful_view {
    rk_mask unseen;  /* not in its hand, the discard pile, the set-aside upcard or another seat's known cards */
    rk_mask wanted;  /* next to a card another seat holds known or took in its last RK_RECENT takes */
    rk_mask shunned; /* of the rank of a card another seat threw in its last RK_RECENT discards */
    int knock_max;   /* the most deadwood a knock may leave */
} careful_view;

static careful_view careful_view_of(const rk_knock_rules *pr, const rk_position *pos) {
    careful_view v;
    int p = pos->player;
    rk_mask seen = pos->hands[p], took = 0, threw = 0;
    for (int i = 0; i < pos->n_discards; i++) seen |= (rk_mask)1 << pos->discards[i];
    if (pos->set_aside >= 0) seen |= (rk_mask)1 << pos->set_aside;
    for (int q = 0; q < pr->num_players; q++) {
        if (q == p) continue;
        seen |= pos->known[q];
        took |= pos->known[q] | recent_cards(pos, q, RK_RECENT_TAKE);
        threw |= recent_cards(pos, q, RK_RECENT_DISCARD);
    }
    rk_lanes l = rk__split(threw), t;
    unsigned ranks = l.s[0] | l.s[1] | l.s[2] | l.s[3];
    for (int s = 0; s < RK_NUM_SUITS; s++) t.s[s] = (uint16_t)ranks;
    v.unseen = RK_DECK_MASK & ~seen;
    v.wanted = neighbours(took);
    v.shunned = rk__join(t);
    v.knock_max = rk__limits_of(pr, pos->upcard).knock_max;
    return v;
}

/* A deadwood in quarter points, with the penalty for being above the knock limit. */
static int careful_cost(int deadwood, int knock_max) {
    return 4 * deadwood + CAREFUL_OVER_LIMIT * (deadwood > knock_max);
}

/* The mean careful_cost, over the unseen cards u, of the hand keep (least
 * deadwood now) after drawing u and throwing the card of least deadwood
 * (u itself included), rounded down; careful_cost(now) with no unseen card. */
static int careful_lookahead(const rk_rules *rules, const careful_view *v, rk_mask keep, int now) {
    int total = 0, n = 0, card, dw, rest;
    /* a card that makes no meld with two of keep stays deadwood in keep + u, so the best
     * is to throw it (now) or another card: keep's best discard, u kept */
    rk_mask comp = completions(rules, keep) & v->unseen;
    (void)rk_best_discard(rules, keep, -1, &card, &rest, NULL);
    for (rk_mask bits = v->unseen; bits; bits &= bits - 1) {
        rk_mask u = bits & (~bits + 1);
        if (u & comp)
            (void)rk_best_discard(rules, keep | u, -1, &card, &dw, NULL);
        else
            dw = rest + rk_mask_value(rules, u);
        total += careful_cost(dw < now ? dw : now, v->knock_max);
        n++;
    }
    return n ? total / n : careful_cost(now, v->knock_max);
}

/* The careful discard of hand (not the card forbid): among the cards leaving
 * at most CAREFUL_SLACK more than the least deadwood, the least
 * careful_lookahead(hand - c) - CAREFUL_OUT * live outs of hand - c
 * + CAREFUL_DANGER * ([c wanted] - [c shunned]); ties to the highest card
 * value, then the highest card id. */
static int careful_discard(const rk_rules *rules, const careful_view *v, rk_mask hand, int forbid) {
    int16_t after[RK_NUM_CARDS];
    int card = -1, least, best_key = 0, best_value = 0;
    (void)rk_best_discard(rules, hand, forbid, &card, &least, after);
    card = -1;
    for (rk_mask bits = hand; bits; bits &= bits - 1) {
        int c = rk__ctz(bits);
        if (c == forbid || after[c] > least + CAREFUL_SLACK) continue;
        rk_mask bit = (rk_mask)1 << c, keep = hand & ~bit;
        int outs = rk__popcount(completions(rules, keep) & v->unseen);
        int danger = ((v->wanted & bit) != 0) - ((v->shunned & bit) != 0);
        int key = careful_lookahead(rules, v, keep, after[c]) - CAREFUL_OUT * outs + CAREFUL_DANGER * danger;
        int value = rk_mask_value(rules, bit);
        if (card < 0 || key < best_key || (key == best_key && value >= best_value)) { /* c grows */
            card = c;
            best_key = key;
            best_value = value;
        }
    }
    return card;
}

static int careful_action(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                          int max_knock_deadwood) {
    rk_mask hand = pos->hands[pos->player];
    switch (pos->phase) {
    case RK_PHASE_OFFER_NONDEALER:
    case RK_PHASE_OFFER_DEALER:
    case RK_PHASE_DRAW: {
        int card, taken, kept = rk__deadwood_unchecked(rules, hand);
        if (pos->n_discards) {
            int top = pos->discards[pos->n_discards - 1];
            careful_view v = careful_view_of(pr, pos);
            if (rk_best_discard(rules, hand | (rk_mask)1 << top, top, &card, &taken, NULL) == RK_OK &&
                taken < kept && careful_cost(taken, v.knock_max) < careful_lookahead(rules, &v, hand, kept))
                return RK_ACTION_TAKE;
        }
        return pos->phase == RK_PHASE_DRAW ? RK_ACTION_DRAW_STOCK : RK_ACTION_PASS;
    }
    case RK_PHASE_DISCARD: {
        rk__limits l = rk__limits_of(pr, pos->upcard);
        int card, dw, forbid = pr->forbid_taken_discard ? pos->taken : -1;
        if (pr->big_gin_bonus >= 0 && rk__deadwood_unchecked(rules, hand) == 0) return RK_ACTION_BIG_GIN;
        if (rk_best_discard(rules, hand, forbid, &card, &dw, NULL) != RK_OK) return RK_ERR_EMPTY;
        if (dw <= l.knock_max && (max_knock_deadwood < 0 || dw <= max_knock_deadwood)) return RK_ACTION_KNOCK + card;
        careful_view v = careful_view_of(pr, pos);
        return careful_discard(rules, &v, hand, forbid);
    }
    default: /* the forced draw, the last chance, knock-only and the showdown */
        return greedy_action(rules, pr, pos, (rk_policy){RK_POLICY_GREEDY, max_knock_deadwood, 0}, NULL);
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
    if (!rules || (policy.kind != RK_POLICY_GREEDY && policy.kind != RK_POLICY_CAREFUL &&
                   (policy.kind != RK_POLICY_RANDOM || !rng)))
        return RK_ERR_ARG;
    rk_status st = rk_position_check(pr, pos);
    if (st != RK_OK) return st;
    if (policy.kind == RK_POLICY_GREEDY) return greedy_action(rules, pr, pos, policy, NULL);
    if (policy.kind == RK_POLICY_CAREFUL) return careful_action(rules, pr, pos, policy.max_knock_deadwood);
    return random_action(rules, pr, pos, rng);
}

/* rk_playout on a checked position, seats[s] the policy of seat s. */
rk_status rk__playout(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, const rk_policy *seats,
                      rk_rng *rng, rk_playout_result *out) {
    int actions = 0;
    greedy_memo memo;
    memo_clear(&memo);
    while (pos->phase != RK_PHASE_END) {
        rk_policy policy = seats[pos->player];
        int a = policy.kind == RK_POLICY_GREEDY    ? greedy_action(rules, pr, pos, policy, &memo)
                : policy.kind == RK_POLICY_CAREFUL ? careful_action(rules, pr, pos, policy.max_knock_deadwood)
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
    if (!rules || !out ||
        (policy.kind != RK_POLICY_GREEDY && policy.kind != RK_POLICY_CAREFUL &&
         (policy.kind != RK_POLICY_RANDOM || !rng)))
        return RK_ERR_ARG;
    rk_status st = rk_position_check(pr, pos);
    rk_policy seats[RK_MAX_PLAYERS] = {policy, policy, policy, policy};
    return st != RK_OK ? st : rk__playout(rules, pr, pos, seats, rng, out);
}
