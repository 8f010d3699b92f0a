/* Playouts of the knock games: the KnockState machine (docs/rules.md, Decision points)
 * with automatic showdown, the random and greedy policies, determinization
 * and the "Multi-player scoring models" scoring.  See "playouts" in rummykit.h. */
#include "internal.h"

#include <string.h>

/* ---- random numbers ------------------------------------------------- */

#define GOLDEN 0x9E3779B97F4A7C15ull

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rk_rng_seed(rk_rng *rng, uint64_t seed, uint64_t stream) {
    rng->state = mix64(seed ^ mix64(stream + 0x632BE59BD9B4E019ull));
}

uint64_t rk_rng_next(rk_rng *rng) {
    rng->state += GOLDEN;
    return mix64(rng->state);
}

uint32_t rk_rng_below(rk_rng *rng, uint32_t n) {
    uint64_t m = (rk_rng_next(rng) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(0u - n) % n;
        while (low < threshold) {
            m = (rk_rng_next(rng) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void rk_rng_shuffle(rk_rng *rng, uint8_t *cards, size_t n) {
    for (size_t i = n; i > 1; i--) {
        size_t j = rk_rng_below(rng, (uint32_t)i);
        uint8_t t = cards[i - 1];
        cards[i - 1] = cards[j];
        cards[j] = t;
    }
}

void rk_restock_shuffle(uint64_t seed, int restock, uint8_t *cards, size_t n) {
    rk_rng rng;
    rk_rng_seed(&rng, seed, (uint64_t)(int64_t)restock);
    rk_rng_shuffle(&rng, cards, n);
}

/* ---- rules ---------------------------------------------------------- */

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

static int hand_size(const rk_playout_rules *pr) { return pr->num_players == 2 ? 10 : 7; }

/* Bounds on the integer options (rummykit.knock.rules.MAX_POINTS): the
 * scores then stay far inside an int. */
#define MAX_OPTION 1000000
#define MAX_COUNTER (1 << 30) /* turns and restocks: room to count on without overflow */

static int in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }

/* The rules parameters are the ones KnockRules can express. */
static rk_status rules_check(const rk_playout_rules *pr) {
    if (!pr || !in_range(pr->num_players, 2, RK_MAX_PLAYERS)) return RK_ERR_ARG;
    const int flags[] = {pr->upcard_offer, pr->forbid_taken_discard, pr->refused_upcard_set_aside,
                         pr->limit_from_upcard, pr->knock_compare_lt, pr->ace_upcard_gin_only,
                         pr->allow_layoff_on_knock, pr->layoff_onto_prior_layoffs, pr->best_score_arrangement,
                         pr->classic_two_player, pr->undercut_on_tie, pr->collect_differences,
                         pr->losers_charged};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!in_range(flags[i], 0, 1)) return RK_ERR_ARG;
    const int points[] = {pr->knock_limit, pr->knock_bonus, pr->undercut_bonus, pr->gin_bonus,
                          pr->gin_loser_extra, pr->undercut_knocker_extra};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        if (!in_range(points[i], 0, MAX_OPTION)) return RK_ERR_ARG;
    if (!in_range((int)pr->stock_end, RK_STOCK_DEAD_AT_2, RK_STOCK_RESHUFFLE) ||
        !in_range(pr->max_restocks, -1, MAX_OPTION) || !in_range(pr->max_turns, -1, MAX_OPTION) ||
        !in_range(pr->spade_multiplier, 1, 3) || !in_range(pr->big_gin_bonus, -1, MAX_OPTION) ||
        !in_range(pr->gin_loser_multiplier, 0, 100))
        return RK_ERR_ARG;
    return RK_OK;
}

rk_status rk_position_deal(const rk_playout_rules *pr, const uint8_t deck[RK_NUM_CARDS], int dealer,
                           uint64_t shuffle_seed, rk_position *pos) {
    if (rules_check(pr) != RK_OK || !deck || !pos) return RK_ERR_ARG;
    int n = pr->num_players, size = hand_size(pr);
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
    rk_status st = rules_check(pr);
    if (st != RK_OK || !pos) return RK_ERR_ARG;
    int n = pr->num_players;
    if (pos->phase < RK_PHASE_OFFER_NONDEALER || pos->phase > RK_PHASE_KNOCK_ONLY) return RK_ERR_ARG;
    if (pos->player < 0 || pos->player >= n || pos->dealer < 0 || pos->dealer >= n) return RK_ERR_ARG;
    if (pos->upcard < 0 || pos->upcard >= RK_NUM_CARDS) return RK_ERR_ARG;
    if (!in_range(pos->n_stock, 0, RK_NUM_CARDS) || !in_range(pos->n_discards, 0, RK_NUM_CARDS) ||
        pos->n_stock + pos->n_discards > RK_NUM_CARDS)
        return RK_ERR_ARG;
    /* the offers and the last chance are about the top discard */
    if (pos->n_discards == 0 && (pos->phase == RK_PHASE_OFFER_NONDEALER || pos->phase == RK_PHASE_OFFER_DEALER ||
                                 pos->phase == RK_PHASE_LAST_CHANCE))
        return RK_ERR_ARG;
    if (pos->taken < -1 || pos->taken >= RK_NUM_CARDS || !in_range(pos->restocks, 0, MAX_COUNTER) ||
        !in_range(pos->turns, 0, MAX_COUNTER))
        return RK_ERR_ARG;
    rk_mask seen = 0;
    for (int s = 0; s < RK_MAX_PLAYERS; s++) {
        rk_mask h = pos->hands[s];
        if (h & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
        /* a hand never holds more than one card over its deal (the knock searches are exponential) */
        if ((s >= n && h) || rk__popcount(h) > hand_size(pr) + 1) return RK_ERR_ARG;
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

/* ---- the hand's knock limit ----------------------------------------- */

typedef struct limits {
    int limit, gin_only, multiplier, knock_max; /* knock_max: most deadwood a knock may leave */
} limits;

/* showdown.limit_and_multiplier and KnockState._knock_max */
static limits limits_of(const rk_playout_rules *pr, int upcard) {
    limits l;
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

/* ---- scoring -------------------------------------------------------- */

/* showdown._outcome and scoring.score_hand, knock order; fills outcome,
 * winner (knock order), points. */
static void score(const rk_playout_rules *pr, int n, const int *dw, int big_gin, int multiplier,
                  rk_playout_result *out) {
    int k = dw[0], winner = 0, outcome, bonus;
    if (k == 0) {
        outcome = big_gin ? RK_OUTCOME_BIG_GIN : RK_OUTCOME_GIN;
        bonus = big_gin ? pr->big_gin_bonus : pr->gin_bonus;
    } else {
        int m = dw[1];
        winner = 1;
        for (int i = 2; i < n; i++)
            if (dw[i] < m) m = dw[i], winner = i;
        if (m < k || (m == k && pr->undercut_on_tie)) {
            outcome = RK_OUTCOME_UNDERCUT;
            bonus = pr->undercut_bonus;
        } else {
            outcome = RK_OUTCOME_KNOCK;
            bonus = pr->knock_bonus;
            winner = 0;
        }
    }
    int w = dw[winner], gin = k == 0, collected = 0;
    for (int i = 0; i < n; i++)
        if (i != winner) collected += dw[i] - w;
    for (int i = 0; i < n; i++) out->points[i] = 0;
    out->points[winner] = (bonus + (pr->collect_differences ? collected : 0)) * multiplier;
    if (pr->losers_charged) {
        for (int i = 0; i < n; i++) {
            if (i == winner) continue;
            int charge = gin ? pr->gin_loser_multiplier * dw[i] + pr->gin_loser_extra : dw[i] - w;
            if (outcome == RK_OUTCOME_UNDERCUT && i == 0) charge += pr->undercut_knocker_extra;
            out->points[i] = -charge * multiplier;
        }
    }
    out->outcome = outcome;
    out->winner = winner;
}

/* showdown._defender_replies: final deadwood per player, knock order. */
static void replies(const rk_rules *rules, const rk_playout_rules *pr, int n, const rk_mask *hands,
                    const rk_arrangement *shown, int *dw) {
    rk_mask table[RK_MAX_MELDS];
    int n_table = shown->n_melds;
    int can_lay_off = shown->deadwood > 0 && pr->allow_layoff_on_knock && n_table > 0;
    memcpy(table, shown->melds, sizeof(rk_mask) * (size_t)n_table);
    dw[0] = shown->deadwood;
    for (int i = 1; i < n; i++) {
        if (!can_lay_off) {
            dw[i] = rk__deadwood_unchecked(rules, hands[i]);
            continue;
        }
        rk_layoff_result lr;
        dw[i] = rk__best_layoff(rules, table, (size_t)n_table, hands[i], &lr);
        if (pr->layoff_onto_prior_layoffs)
            for (int j = 0; j < n_table; j++) table[j] |= lr.laid_off[j];
    }
}

static int compare_melds(rk_mask a, rk_mask b) {
    while (a && b) {
        int x = rk__ctz(a), y = rk__ctz(b);
        if (x != y) return x < y ? -1 : 1;
        a &= a - 1;
        b &= b - 1;
    }
    return a ? 1 : b ? -1 : 0;
}

/* Python's list order on [[sorted card ids of each meld] ...]. */
static int compare_arrangements(const rk_arrangement *a, const rk_arrangement *b) {
    for (int i = 0; i < a->n_melds && i < b->n_melds; i++) {
        int c = compare_melds(a->melds[i], b->melds[i]);
        if (c) return c;
    }
    return (a->n_melds > b->n_melds) - (a->n_melds < b->n_melds);
}

typedef struct arrangement_search {
    const rk_rules *rules;
    const rk_playout_rules *pr;
    int n, multiplier;
    const rk_mask *hands;
    int found, best_points;
    rk_arrangement best;
} arrangement_search;

/* showdown._choose_arrangement, general case: the best knocker score against
 * the defenders' replies, then the smaller deadwood, then the canonical order. */
static int consider_arrangement(void *user, const rk_arrangement *a) {
    arrangement_search *s = (arrangement_search *)user;
    int dw[RK_MAX_PLAYERS];
    rk_playout_result r;
    replies(s->rules, s->pr, s->n, s->hands, a, dw);
    score(s->pr, s->n, dw, 0, s->multiplier, &r);
    int p = r.points[0];
    if (!s->found || p > s->best_points ||
        (p == s->best_points && (a->deadwood < s->best.deadwood ||
                                 (a->deadwood == s->best.deadwood && compare_arrangements(a, &s->best) < 0)))) {
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

rk_status rk_score_knock(const rk_rules *rules, const rk_playout_rules *pr, const rk_mask *hands,
                         int upcard, int big_gin, rk_playout_result *out) {
    if (!rules || rules_check(pr) != RK_OK || !hands || !out || upcard < 0 || upcard >= RK_NUM_CARDS)
        return RK_ERR_ARG;
    int n = pr->num_players;
    rk_mask seen = 0; /* the upcard may be in a hand: it only sets the limit */
    for (int i = 0; i < n; i++) {
        if (hands[i] & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
        if (rk__popcount(hands[i]) > hand_size(pr) + 1) return RK_ERR_ARG;
        if (hands[i] & seen) return RK_ERR_OVERLAP;
        seen |= hands[i];
    }
    limits l = limits_of(pr, upcard);
    int least = rk__deadwood_unchecked(rules, hands[0]);
    /* showdown._within */
    if (least > 0 && (l.gin_only || least > l.limit - (pr->knock_compare_lt ? 1 : 0)))
        return RK_ERR_NO_KNOCK;
    if (big_gin && least > 0) return RK_ERR_NO_KNOCK;
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
            rk_status st = rk__visit_arrangements(rules, hands[0], bound, consider_margin, &m);
            if (st != RK_OK) return st;
            if (m.best < 0) return RK_ERR_NO_KNOCK;
            dw[0] = least;
            dw[1] = m.best;
        } else if (n == 2 && pr->classic_two_player) {
            rk_knock_choice choice;
            unsigned flags = (bound == least ? RK_KNOCK_MIN_DEADWOOD_ONLY : 0u) |
                             (pr->allow_layoff_on_knock ? 0u : RK_KNOCK_NO_LAYOFFS);
            rk_status st = rk__choose_knock(rules, hands[0], hands[1], bound, flags, &choice);
            if (st != RK_OK) return st;
            dw[0] = choice.knocker.deadwood; /* the defender's reply is the one replies() finds */
            dw[1] = choice.defender.deadwood;
        } else {
            arrangement_search s;
            memset(&s, 0, sizeof s);
            s.rules = rules;
            s.pr = pr;
            s.n = n;
            s.multiplier = l.multiplier;
            s.hands = hands;
            rk_status st = rk__visit_arrangements(rules, hands[0], bound, consider_arrangement, &s);
            if (st != RK_OK) return st;
            if (!s.found) return RK_ERR_NO_KNOCK;
            replies(rules, pr, n, hands, &s.best, dw);
        }
    }
scored:
    score(pr, n, dw, big_gin, l.multiplier, out);
    for (int i = 0; i < n; i++) out->deadwood[i] = dw[i];
    out->knocker = 0;
    out->multiplier = l.multiplier;
    return RK_OK;
}

/* ---- the state machine ---------------------------------------------- */

static void end_dead(rk_position *pos, const limits *l, rk_playout_result *out) {
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

static void next_turn(const rk_playout_rules *pr, rk_position *pos, const limits *l, rk_playout_result *out) {
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
static rk_status apply_action(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos, int action,
                              rk_playout_result *out) {
    int p = pos->player, n = pr->num_players;
    limits l = limits_of(pr, pos->upcard);
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
static int last_chance_knock_exists(const rk_rules *rules, const rk_playout_rules *pr,
                                    const rk_position *pos, const limits *l) {
    int card = pos->discards[pos->n_discards - 1], best, dw;
    rk_mask hand = pos->hands[pos->player] | (rk_mask)1 << card;
    if (rk_best_discard(rules, hand, pr->forbid_taken_discard ? card : -1, &best, &dw, NULL) != RK_OK)
        return 0;
    return dw <= l->knock_max;
}

/* rk_legal_actions on a checked position. */
static int legal_actions(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *pos,
                         int actions[RK_MAX_LEGAL]) {
    limits l = limits_of(pr, pos->upcard);
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
        if (last_chance_knock_exists(rules, pr, pos, &l)) actions[k++] = RK_ACTION_TAKE;
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
    return st != RK_OK ? st : legal_actions(rules, pr, pos, actions);
}

rk_status rk_apply_action(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos, int action,
                          rk_playout_result *out) {
    int actions[RK_MAX_LEGAL];
    int k = rk_legal_actions(rules, pr, pos, actions);
    if (k < 0) return (rk_status)k;
    for (int i = 0; i < k; i++)
        if (actions[i] == action) return apply_action(rules, pr, pos, action, out);
    return RK_ERR_ARG; /* not legal now: the position is untouched */
}

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

static int greedy_action(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *pos,
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
        limits l = limits_of(pr, pos->upcard);
        return last_chance_knock_exists(rules, pr, pos, &l) ? RK_ACTION_TAKE : RK_ACTION_PASS;
    }
    case RK_PHASE_DISCARD:
    case RK_PHASE_KNOCK_ONLY: {
        limits l = limits_of(pr, pos->upcard);
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
    default:
        return RK_ERR_ARG;
    }
}

static int random_action(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *pos, rk_rng *rng) {
    int actions[RK_MAX_LEGAL];
    int k = legal_actions(rules, pr, pos, actions);
    if (k <= 0) return k < 0 ? k : RK_ERR_EMPTY;
    return actions[rk_rng_below(rng, (uint32_t)k)];
}

int rk_policy_action(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *pos,
                     rk_policy policy, rk_rng *rng) {
    if (!rules || (policy.kind != RK_POLICY_GREEDY && (policy.kind != RK_POLICY_RANDOM || !rng))) return RK_ERR_ARG;
    rk_status st = rk_position_check(pr, pos);
    if (st != RK_OK) return st;
    if (policy.kind == RK_POLICY_GREEDY) return greedy_action(rules, pr, pos, policy.max_knock_deadwood, NULL);
    return random_action(rules, pr, pos, rng);
}

/* rk_playout on a checked position. */
static rk_status playout(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos, rk_policy policy,
                         rk_rng *rng, rk_playout_result *out) {
    int actions = 0;
    greedy_memo memo;
    memo_clear(&memo);
    while (pos->phase != RK_PHASE_END) {
        if (pos->phase == RK_PHASE_SHOWDOWN) return RK_ERR_ARG;
        int a = policy.kind == RK_POLICY_GREEDY ? greedy_action(rules, pr, pos, policy.max_knock_deadwood, &memo)
                                                : random_action(rules, pr, pos, rng);
        if (a < 0) return (rk_status)a;
        rk_status st = apply_action(rules, pr, pos, a, out);
        if (st != RK_OK) return st;
        actions++;
    }
    out->actions = actions;
    return RK_OK;
}

rk_status rk_playout(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos,
                     rk_policy policy, rk_rng *rng, rk_playout_result *out) {
    if (!rules || !out || (policy.kind != RK_POLICY_GREEDY && (policy.kind != RK_POLICY_RANDOM || !rng)))
        return RK_ERR_ARG;
    rk_status st = rk_position_check(pr, pos);
    return st != RK_OK ? st : playout(rules, pr, pos, policy, rng, out);
}

/* ---- determinization and batches ------------------------------------ */

static void determinize(const rk_position *known, const rk_hidden *hidden, rk_rng *rng, rk_position *out) {
    uint8_t cards[RK_NUM_CARDS];
    *out = *known;
    memcpy(cards, hidden->cards, (size_t)hidden->n_slots);
    int start = 0;
    for (int g = 0; g < hidden->n_groups; g++) {
        int end = hidden->group_end[g];
        rk_rng_shuffle(rng, cards + start, (size_t)(end - start));
        start = end;
    }
    for (int k = 0; k < hidden->n_slots; k++) {
        int d = hidden->dest[k];
        if (d == RK_DEST_STOCK)
            out->stock[out->n_stock++] = cards[k];
        else
            out->hands[d] |= (rk_mask)1 << cards[k];
    }
    out->shuffle_seed = rk_rng_next(rng);
}

static rk_status check_hidden(const rk_playout_rules *pr, const rk_position *known, const rk_hidden *h) {
    if (rules_check(pr) != RK_OK || !in_range(known->n_stock, 0, RK_NUM_CARDS) ||
        !in_range(known->n_discards, 0, RK_NUM_CARDS))
        return RK_ERR_ARG; /* the stock slots are appended below */
    if (h->n_slots < 0 || h->n_slots > RK_NUM_CARDS || h->n_groups < 0 || h->n_groups > RK_NUM_CARDS)
        return RK_ERR_ARG;
    if (h->n_groups == 0 ? h->n_slots != 0 : h->group_end[h->n_groups - 1] != h->n_slots) return RK_ERR_ARG;
    for (int g = 1; g < h->n_groups; g++)
        if (h->group_end[g] < h->group_end[g - 1]) return RK_ERR_ARG;
    rk_position full = *known;
    for (int k = 0; k < h->n_slots; k++) {
        int d = h->dest[k], c = h->cards[k];
        if (c >= RK_NUM_CARDS) return RK_ERR_BAD_MASK;
        if (d == RK_DEST_STOCK) {
            if (full.n_stock + full.n_discards >= RK_NUM_CARDS) return RK_ERR_ARG;
            full.stock[full.n_stock++] = (uint8_t)c;
        } else if (d < pr->num_players) {
            if ((full.hands[d] >> c) & 1u) return RK_ERR_OVERLAP;
            full.hands[d] |= (rk_mask)1 << c;
        } else {
            return RK_ERR_ARG;
        }
    }
    return rk_position_check(pr, &full);
}

rk_status rk_playouts(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *known,
                      const rk_hidden *hidden, rk_policy policy, uint64_t seed, size_t first,
                      size_t n, int32_t *points, uint8_t *outcomes) {
    if (!rules || !known || (n && (!points || !outcomes))) return RK_ERR_ARG;
    if (policy.kind != RK_POLICY_RANDOM && policy.kind != RK_POLICY_GREEDY) return RK_ERR_ARG;
    rk_status st = hidden ? check_hidden(pr, known, hidden) : rk_position_check(pr, known);
    if (st != RK_OK) return st;
    int np = pr->num_players;
    for (size_t i = 0; i < n; i++) {
        rk_rng rng;
        rk_position pos;
        rk_playout_result r;
        rk_rng_seed(&rng, seed, (uint64_t)(first + i));
        if (hidden)
            determinize(known, hidden, &rng, &pos);
        else
            pos = *known;
        st = playout(rules, pr, &pos, policy, &rng, &r);
        if (st != RK_OK) return st;
        for (int s = 0; s < np; s++) points[i * (size_t)np + (size_t)s] = r.points[s];
        outcomes[i] = (uint8_t)r.outcome;
    }
    return RK_OK;
}
