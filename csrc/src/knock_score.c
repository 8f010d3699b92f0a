/* Scoring a knock: the knocker's arrangement (docs/rules.md, D26) or its
 * own melds, the defenders' lay-offs (or their declarations) and the
 * "Multi-player scoring models" points and boxes (reference_knock.resolve_knock,
 * declared_result, scoring.score_hand). */
#include "knock_internal.h"

#include <string.h>

/* ---- scoring -------------------------------------------------------- */

/* The points of a hand once its outcome and winner are known (the formula
 * of rk_score_hand, on checked arguments): credits and charges per seat. */
static void hand_points(const rk_knock_rules *pr, int n, const int *dw, int knocker, int outcome, int winner,
                        int multiplier, rk_playout_result *out) {
    int bonus = outcome == RK_OUTCOME_GIN       ? pr->gin_bonus
                : outcome == RK_OUTCOME_BIG_GIN ? pr->big_gin_bonus
                : outcome == RK_OUTCOME_UNDERCUT ? pr->undercut_bonus
                                                 : pr->knock_bonus;
    int w = dw[winner], gin = outcome == RK_OUTCOME_GIN || outcome == RK_OUTCOME_BIG_GIN, collected = 0;
    for (int i = 0; i < n; i++)
        if (i != winner) collected += dw[i] - w;
    for (int i = 0; i < n; i++) out->credits[i] = out->charges[i] = 0;
    out->credits[winner] = (bonus + (pr->collect_differences ? collected : 0)) * multiplier;
    if (pr->losers_charged) {
        for (int i = 0; i < n; i++) {
            if (i == winner) continue;
            int charge = gin ? pr->gin_loser_multiplier * dw[i] + pr->gin_loser_extra : dw[i] - w;
            if (outcome == RK_OUTCOME_UNDERCUT && i == knocker) charge += pr->undercut_knocker_extra;
            out->charges[i] = charge * multiplier;
        }
    }
    for (int i = 0; i < n; i++) out->points[i] = out->credits[i] - out->charges[i];
    out->outcome = outcome;
    out->winner = winner;
}

/* reference_knock._outcome: the outcome and the winner of a knock (knock order),
 * then its points. */
static void score_seats(const rk_knock_rules *pr, int n, const int *dw, int big_gin, int multiplier,
                        rk_playout_result *out) {
    int k = dw[0], winner = 0, outcome;
    if (k == 0) {
        outcome = big_gin ? RK_OUTCOME_BIG_GIN : RK_OUTCOME_GIN;
    } else {
        int m = dw[1];
        winner = 1;
        for (int i = 2; i < n; i++)
            if (dw[i] < m) m = dw[i], winner = i;
        if (m < k || (m == k && pr->undercut_on_tie)) {
            outcome = RK_OUTCOME_UNDERCUT;
        } else {
            outcome = RK_OUTCOME_KNOCK;
            winner = 0;
        }
    }
    hand_points(pr, n, dw, 0, outcome, winner, multiplier, out);
}

rk_status rk_score_hand(const rk_knock_rules *pr, int n, const int *dw, int knocker, int outcome, int winner,
                        int multiplier, rk_playout_result *out) {
    if (!pr || !dw || !out || n < 2 || n > RK_MAX_PLAYERS || knocker < 0 || knocker >= n || winner < 0 ||
        winner >= n || outcome < RK_OUTCOME_GIN || outcome > RK_OUTCOME_UNDERCUT ||
        !rk__in_range(multiplier, 1, RK__MAX_OPTION))
        return RK_ERR_ARG;
    if (outcome == RK_OUTCOME_BIG_GIN && pr->big_gin_bonus < 0) return RK_ERR_ARG;
    for (int i = 0; i < n; i++)
        if (!rk__in_range(dw[i], 0, RK__MAX_OPTION)) return RK_ERR_ARG;
    memset(out, 0, sizeof *out);
    hand_points(pr, n, dw, knocker, outcome, winner, multiplier, out);
    out->knocker = knocker;
    out->multiplier = multiplier;
    return RK_OK;
}

/* reference_knock._score: with partnerships (docs/rules.md, D30) the knocker (0)
 * and partner (2) against 1 and 3, settled as a two-player hand on the side
 * totals (after gin: the side difference, not below 0); both members of a
 * side get its points; the hand winner is the knocker or the opponent with
 * less deadwood (1 on a tie). */
static void score(const rk_knock_rules *pr, int n, const int *dw, int big_gin, int multiplier,
                  rk_playout_result *out) {
    if (!pr->partnerships) {
        score_seats(pr, n, dw, big_gin, multiplier, out);
        return;
    }
    int k_side = dw[0] + dw[2], d_side = dw[1] + dw[3], side[2];
    rk_playout_result two;
    side[0] = dw[0] == 0 ? 0 : k_side;
    side[1] = dw[0] == 0 ? (d_side > k_side ? d_side - k_side : 0) : d_side;
    score_seats(pr, 2, side, big_gin, multiplier, &two);
    for (int i = 0; i < 4; i++) {
        out->points[i] = two.points[i % 2];
        out->credits[i] = two.credits[i % 2];
        out->charges[i] = two.charges[i % 2];
    }
    out->outcome = two.outcome;
    out->winner = two.winner == 0 ? 0 : dw[1] <= dw[3] ? 1 : 3;
}

/* reference_knock._defender_replies: final deadwood per player, knock order;
 * with d (not NULL) the details of each reply as well. */
static void replies(const rk_rules *rules, const rk_knock_rules *pr, int n, const rk_mask *hands,
                    const rk_arrangement *shown, int *dw, rk_knock_details *d) {
    rk_mask table[RK_MAX_MELDS];
    int n_table = shown->n_melds;
    int can_lay_off = shown->deadwood > 0 && pr->allow_layoff_on_knock && n_table > 0;
    memcpy(table, shown->melds, sizeof(rk_mask) * (size_t)n_table);
    dw[0] = shown->deadwood;
    for (int i = 1; i < n; i++) {
        if (d) memcpy(d->table[i], table, sizeof(rk_mask) * (size_t)n_table);
        if (!can_lay_off) {
            if (d) {
                rk_best_arrangement(rules, hands[i], &d->own[i]); /* hands[i] checked by the caller */
                dw[i] = d->own[i].deadwood;
            } else {
                dw[i] = rk__deadwood_unchecked(rules, hands[i]);
            }
            continue;
        }
        rk_layoff_result lr;
        dw[i] = rk__best_layoff(rules, table, (size_t)n_table, hands[i], &lr);
        if (d) {
            memcpy(d->laid_off[i], lr.laid_off, sizeof(rk_mask) * (size_t)n_table);
            rk_best_arrangement(rules, hands[i] & ~lr.laid_off_all, &d->own[i]); /* lr.rest is not filled */
        }
        if (pr->layoff_onto_prior_layoffs)
            for (int j = 0; j < n_table; j++) table[j] |= lr.laid_off[j];
    }
}

typedef struct arrangement_search {
    const rk_rules *rules;
    const rk_knock_rules *pr;
    int n, multiplier;
    const rk_mask *hands;
    int found, best_points;
    rk_arrangement best;
} arrangement_search;

/* reference_knock._choose_arrangement, general case: the best knocker score against
 * the defenders' replies, then the smaller deadwood, then the canonical order. */
static int consider_arrangement(void *user, const rk_arrangement *a) {
    arrangement_search *s = (arrangement_search *)user;
    int dw[RK_MAX_PLAYERS];
    rk_playout_result r;
    replies(s->rules, s->pr, s->n, s->hands, a, dw, NULL);
    score(s->pr, s->n, dw, 0, s->multiplier, &r);
    int p = r.points[0];
    if (!s->found || p > s->best_points ||
        (p == s->best_points && (a->deadwood < s->best.deadwood ||
                                 (a->deadwood == s->best.deadwood && rk__compare_arrangements(a, &s->best) < 0)))) {
        s->found = 1;
        s->best_points = p;
        s->best = *a;
    }
    return 0;
}

typedef struct margin_search {
    const rk_rules *rules;
    rk_mask defender;
    int plain, best;
} margin_search;

static int consider_margin(void *user, const rk_arrangement *a) {
    margin_search *m = (margin_search *)user;
    rk_layoff_result lr;
    int d = a->n_melds ? rk__best_layoff(m->rules, a->melds, (size_t)a->n_melds, m->defender, &lr) : m->plain;
    if (d > m->best) m->best = d;
    return m->best >= m->plain;
}

/* Whether the defender might lay a card off on some meld of some
 * arrangement of the knocker's cards: it holds the 4th card of a rank the
 * knocker holds three of, or a card next to (same suit, rank +-1, K-A
 * wrapping) a knocker card that lies in a run.  When no defender can, every
 * arrangement meets the plain deadwoods, and the least-deadwood one scores
 * best for the knocker (its points never grow with its deadwood): the
 * search over arrangements can be skipped. */
static int layoff_possible(const rk_rules *rules, rk_mask knocker, rk_mask defender) {
    rk_lanes k = rk__split(knocker), d = rk__split(defender);
    unsigned three = rk__three_of_a_rank(k);
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        unsigned rc = rules->run_capable[k.s[s]];
        unsigned near = ((rc << 1) | (rc >> 1) | ((rc & 1u) << 12) | ((rc >> 12) & 1u)) & RK_SUIT_BITS;
        if (d.s[s] & (three | near)) return 1;
    }
    return 0;
}

/* reference_knock._choose_arrangement, least deadwood > 0: the knocker's arrangement
 * among those with deadwood <= bound that scores best against the defenders'
 * replies (two players, classic scoring: rk_choose_knock); *shown receives
 * it and dw (if not NULL) each player's final deadwood, knock order. */
static rk_status choose_arrangement(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                                    int bound, int multiplier, rk_arrangement *shown, int *dw) {
    int n = pr->num_players, least = rk__deadwood_unchecked(rules, hands[0]);
    if (n == 2 && pr->classic_two_player) {
        rk_knock_choice choice;
        unsigned flags = (bound == least ? RK_KNOCK_MIN_DEADWOOD_ONLY : 0u) |
                         (pr->allow_layoff_on_knock ? 0u : RK_KNOCK_NO_LAYOFFS);
        rk_status st = rk__choose_knock(rules, hands[0], hands[1], bound, flags, &choice);
        if (st != RK_OK) return st;
        *shown = choice.knocker;
        if (dw) {
            dw[0] = choice.knocker.deadwood; /* the defender's reply is the one replies() finds */
            dw[1] = choice.defender.deadwood;
        }
        return RK_OK;
    }
    arrangement_search s;
    memset(&s, 0, sizeof s);
    s.rules = rules;
    s.pr = pr;
    s.n = n;
    s.multiplier = multiplier;
    s.hands = hands;
    rk_status st = rk__visit_arrangements(rules, hands[0], bound, consider_arrangement, &s);
    if (st != RK_OK) return st;
    if (!s.found) return RK_ERR_NO_KNOCK;
    *shown = s.best;
    if (dw) replies(rules, pr, n, hands, &s.best, dw, NULL);
    return RK_OK;
}

/* The checks of both scoring entry points: the arguments, and whether the
 * knocker's hand may knock at all (reference_knock.knocker_arrangement: its least
 * deadwood within the limit); *least receives that deadwood. */
static rk_status check_knock(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands, int upcard,
                             const void *out, rk__limits *l, int *least) {
    if (!rules || rk__knock_rules_check(pr) != RK_OK || !hands || !out || upcard < 0 || upcard >= RK_NUM_CARDS)
        return RK_ERR_ARG;
    rk_mask seen = 0; /* the upcard may be in a hand: it only sets the limit */
    for (int i = 0; i < pr->num_players; i++) {
        if (hands[i] & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
        if (rk__popcount(hands[i]) > rk__hand_size(pr) + 1) return RK_ERR_ARG;
        if (hands[i] & seen) return RK_ERR_OVERLAP;
        seen |= hands[i];
    }
    *l = rk__limits_of(pr, upcard);
    *least = rk__deadwood_unchecked(rules, hands[0]);
    if (*least > l->knock_max) return RK_ERR_NO_KNOCK; /* reference_knock._within (gin is always allowed) */
    return RK_OK;
}

/* reference_knock.declared_result: the score, the deadwood and the boxes. */
static void finish(const rk_knock_rules *pr, const int *dw, int big_gin, const rk__limits *l,
                   rk_playout_result *out) {
    int n = pr->num_players;
    score(pr, n, dw, big_gin, l->multiplier, out);
    int extra = out->outcome == RK_OUTCOME_UNDERCUT ? pr->undercut_extra_boxes
                : out->outcome == RK_OUTCOME_KNOCK  ? 0
                                                    : pr->gin_extra_boxes;
    int won = (1 + extra) * (pr->spade_double_boxes ? l->multiplier : 1);
    for (int i = 0; i < n; i++) {
        out->deadwood[i] = dw[i];
        /* with partnerships both members of the winning side */
        out->boxes[i] = i == out->winner || (pr->partnerships && i == (out->winner + 2) % 4) ? won : 0;
    }
    out->knocker = 0;
    out->multiplier = l->multiplier;
    out->knock_limit = l->limit;
}

rk_status rk_score_knock(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                         int upcard, int big_gin, rk_playout_result *out) {
    rk__limits l;
    int least;
    rk_status st = check_knock(rules, pr, hands, upcard, out, &l, &least);
    if (st != RK_OK) return st;
    if (big_gin && least > 0) return RK_ERR_NO_KNOCK; /* big gin shows every card melded */
    int n = pr->num_players;
    int dw[RK_MAX_PLAYERS];
    memset(out, 0, sizeof *out);
    if (least == 0) {
        dw[0] = 0;
        for (int i = 1; i < n; i++) dw[i] = rk__deadwood_unchecked(rules, hands[i]);
    } else {
        int any = 0;
        for (int i = 1; i < n && pr->allow_layoff_on_knock && !any; i++)
            any = layoff_possible(rules, hands[0], hands[i]);
        if (!any) {
            dw[0] = least;
            for (int i = 1; i < n; i++) dw[i] = rk__deadwood_unchecked(rules, hands[i]);
            goto scored;
        }
        int bound = pr->best_score_arrangement ? l.limit - (pr->knock_compare_lt ? 1 : 0) : least;
        if (n == 2 && pr->classic_two_player && bound == least) {
            /* rk_choose_knock's margin among least-deadwood arrangements is the defender's
             * largest final deadwood; the plain deadwood is the most it can be, so the
             * search stops there (the points depend on that deadwood alone). */
            margin_search m;
            m.rules = rules;
            m.defender = hands[1];
            m.plain = rk__deadwood_unchecked(rules, hands[1]);
            m.best = -1;
            st = rk__visit_arrangements(rules, hands[0], bound, consider_margin, &m);
            if (st != RK_OK) return st;
            if (m.best < 0) return RK_ERR_NO_KNOCK;
            dw[0] = least;
            dw[1] = m.best;
        } else {
            rk_arrangement shown;
            st = choose_arrangement(rules, pr, hands, bound, l.multiplier, &shown, dw);
            if (st != RK_OK) return st;
        }
    }
scored:
    finish(pr, dw, big_gin, &l, out);
    return RK_OK;
}

rk_status rk_knock_arrangement(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands, int upcard,
                               int big_gin, rk_arrangement *out) {
    rk__limits l;
    int least;
    rk_status st = check_knock(rules, pr, hands, upcard, out, &l, &least);
    if (st != RK_OK) return st;
    if (big_gin && least > 0) return RK_ERR_NO_KNOCK;
    return rk__knock_arrangement(rules, pr, hands, &l, out);
}

rk_status rk__knock_arrangement(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                                const rk__limits *l, rk_arrangement *out) {
    int least = rk__deadwood_unchecked(rules, hands[0]);
    if (least == 0) return rk_best_arrangement(rules, hands[0], out); /* showdown: best_melds */
    return choose_arrangement(rules, pr, hands, pr->best_score_arrangement ? l->knock_max : least, l->multiplier,
                              out, NULL);
}

void rk__score_declared(const rk_knock_rules *pr, const int *dw, int big_gin, int upcard, rk_playout_result *out) {
    rk__limits l = rk__limits_of(pr, upcard);
    memset(out, 0, sizeof *out);
    finish(pr, dw, big_gin, &l, out);
}

rk_status rk_score_knock_shown(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands, int upcard,
                               int big_gin, const rk_mask *melds, int n_melds, rk_playout_result *out) {
    rk__limits l;
    int least;
    rk_status st = check_knock(rules, pr, hands, upcard, out, &l, &least);
    if (st != RK_OK) return st;
    rk_arrangement shown;
    st = rk__shown_arrangement(rules, hands[0], melds, n_melds, &l, big_gin, &shown);
    if (st != RK_OK) return st;
    rk__score_shown(rules, pr, hands, &shown, big_gin, &l, out);
    return RK_OK;
}

rk_status rk__shown_arrangement(const rk_rules *rules, rk_mask hand, const rk_mask *melds, int n_melds,
                                const rk__limits *l, int big_gin, rk_arrangement *shown) {
    if (n_melds < 0 || n_melds > RK_MAX_MELDS || (n_melds && !melds)) return RK_ERR_ARG;
    rk_mask used = 0;
    shown->n_melds = n_melds;
    for (int i = 0; i < n_melds; i++) {
        if (melds[i] & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
        if (rk_meld_kind_of(rules, melds[i]) == RK_MELD_NONE) return RK_ERR_BAD_MELD;
        if ((melds[i] & used) || (melds[i] & ~hand)) return RK_ERR_OVERLAP;
        used |= melds[i];
        shown->melds[i] = melds[i]; /* in the order given: the lay-off table's order */
    }
    shown->deadwood_cards = hand & ~used;
    shown->deadwood = rk_mask_value(rules, shown->deadwood_cards);
    if (shown->deadwood > l->knock_max || (big_gin && shown->deadwood > 0)) return RK_ERR_NO_KNOCK;
    return RK_OK;
}

void rk__score_shown(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                     const rk_arrangement *shown, int big_gin, const rk__limits *l, rk_playout_result *out) {
    int dw[RK_MAX_PLAYERS];
    memset(out, 0, sizeof *out);
    replies(rules, pr, pr->num_players, hands, shown, dw, NULL);
    finish(pr, dw, big_gin, l, out);
}

rk_status rk_explain_knock(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands, int upcard,
                          int big_gin, const rk_mask *melds, int n_melds, rk_knock_details *out) {
    rk__limits l;
    int least;
    rk_status st = check_knock(rules, pr, hands, upcard, out, &l, &least);
    if (st != RK_OK) return st;
    memset(out, 0, sizeof *out);
    if (n_melds >= 0) {
        st = rk__shown_arrangement(rules, hands[0], melds, n_melds, &l, big_gin, &out->shown);
    } else {
        if (big_gin && least > 0) return RK_ERR_NO_KNOCK;
        st = rk__knock_arrangement(rules, pr, hands, &l, &out->shown);
    }
    if (st != RK_OK) return st;
    out->n_table = out->shown.n_melds;
    out->own[0] = out->shown;
    replies(rules, pr, pr->num_players, hands, &out->shown, out->deadwood, out);
    return RK_OK;
}

const char *rk_knock_outcome_name(int outcome) {
    static const char *const names[] = {"dead", "gin", "big_gin", "knock", "undercut"};
    return outcome >= 0 && outcome <= RK_OUTCOME_UNDERCUT ? names[outcome] : NULL;
}
