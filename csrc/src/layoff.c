/* Lay-offs onto a knocker's melds, and the knocker's choice of melds. */
#include "internal.h"

#include <string.h>

#define MAX_EXTENSIONS 128

typedef struct extensions {
    int n;
    rk_mask opt[MAX_EXTENSIONS]; /* defender cards that may go on this meld; opt[0] = none */
} extensions;

static void add_option(extensions *e, rk_mask m) {
    for (int i = 0; i < e->n; i++)
        if (e->opt[i] == m) return;
    if (e->n < MAX_EXTENSIONS) e->opt[e->n++] = m;
}

/* Chains below and above a run in one linear order of a suit.  `to_seq`
 * maps rank bits to positions where the run is contiguous. */
static void run_extensions(extensions *e, int suit, uint16_t run, uint16_t held, int high_order) {
#define TO_SEQ(p) (high_order ? (uint16_t)(((p) >> 1) | (((p)&1u) << 12)) : (uint16_t)(p))
#define FROM_SEQ(q) (high_order ? (uint16_t)((((q) << 1) & RK_SUIT_BITS) | ((q) >> 12)) : (uint16_t)(q))
    uint16_t q = TO_SEQ(run), h = TO_SEQ(held);
    if (!q || ((q >> rk__ctz(q)) & ((q >> rk__ctz(q)) + 1))) return; /* not a run in this order */
    int lo = rk__ctz(q), hi = 31 - __builtin_clz(q);
    uint16_t below = 0;
    for (int i = 0;; i++) {
        uint16_t above = 0;
        for (int j = 0;; j++) {
            add_option(e, (rk_mask)FROM_SEQ((uint16_t)(below | above)) << (13 * suit));
            int pos = hi + j + 1;
            if (pos >= RK_NUM_RANKS || !((h >> pos) & 1u)) break;
            above |= (uint16_t)(1u << pos);
        }
        int pos = lo - i - 1;
        if (pos < 0 || !((h >> pos) & 1u)) break;
        below |= (uint16_t)(1u << pos);
    }
#undef TO_SEQ
#undef FROM_SEQ
}

static void meld_extensions(const rk_rules *rules, rk_mask meld, rk_mask defender, extensions *e) {
    e->n = 0;
    add_option(e, 0);
    rk_lanes run = rk__split(meld), held = rk__split(defender);
    if (rk__popcount(run.s[0] | run.s[1] | run.s[2] | run.s[3]) == 1) { /* a set: one rank */
        if (rk__popcount(meld) == 3) {
            int rank = rk__ctz(meld) % RK_NUM_RANKS;
            rk_mask rank_cards = 0;
            for (int s = 0; s < RK_NUM_SUITS; s++) rank_cards |= (rk_mask)1 << (13 * s + rank);
            rk_mask fourth = rank_cards & ~meld & defender;
            if (fourth) add_option(e, fourth);
        }
        return;
    }
    int suit = rk__ctz(meld) / RK_NUM_RANKS;
    if (!held.s[suit]) return;
    if (rules->aces != RK_ACES_HIGH) run_extensions(e, suit, run.s[suit], held.s[suit], 0);
    if (rules->aces != RK_ACES_LOW) run_extensions(e, suit, run.s[suit], held.s[suit], 1);
}

typedef struct layoff_search {
    const rk_rules *rules;
    rk_mask defender;
    int n;
    const extensions *ext;
    int choice[RK_MAX_MELDS];
    int best_choice[RK_MAX_MELDS];
    int best_deadwood, best_count;
} layoff_search;

static void search(layoff_search *ls, int k, rk_mask used) {
    if (k == ls->n) {
        int d = rk__deadwood_unchecked(ls->rules, ls->defender & ~used);
        int count = rk__popcount(used);
        if (d < ls->best_deadwood || (d == ls->best_deadwood && count < ls->best_count)) {
            ls->best_deadwood = d;
            ls->best_count = count;
            memcpy(ls->best_choice, ls->choice, sizeof(int) * (size_t)ls->n);
        }
        return;
    }
    for (int i = 0; i < ls->ext[k].n; i++) {
        rk_mask m = ls->ext[k].opt[i];
        if (m & used) continue;
        ls->choice[k] = i;
        search(ls, k + 1, used | m);
    }
}

static rk_status check_melds(const rk_rules *rules, const rk_mask *melds, size_t n, rk_mask other) {
    if (n > RK_MAX_MELDS || (n && !melds)) return RK_ERR_ARG;
    rk_mask seen = other;
    for (size_t i = 0; i < n; i++) {
        if (melds[i] & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
        if (rk_meld_kind_of(rules, melds[i]) == RK_MELD_NONE) return RK_ERR_BAD_MELD;
        if (melds[i] & seen) return RK_ERR_OVERLAP;
        seen |= melds[i];
    }
    return RK_OK;
}

/* Least final deadwood; fills out->laid_off[] (not out->rest). */
static int best_layoff(const rk_rules *rules, const rk_mask *melds, size_t n, rk_mask defender,
                       rk_layoff_result *out) {
    extensions ext[RK_MAX_MELDS];
    for (size_t i = 0; i < n; i++) meld_extensions(rules, melds[i], defender, &ext[i]);
    layoff_search ls;
    ls.rules = rules;
    ls.defender = defender;
    ls.n = (int)n;
    ls.ext = ext;
    ls.best_deadwood = RK_INF;
    ls.best_count = RK_INF;
    search(&ls, 0, 0);
    out->deadwood = ls.best_deadwood;
    out->n_knocker_melds = (int)n;
    out->laid_off_all = 0;
    for (size_t i = 0; i < n; i++) {
        out->laid_off[i] = ext[i].opt[ls.best_choice[i]];
        out->laid_off_all |= out->laid_off[i];
    }
    return ls.best_deadwood;
}

rk_status rk_layoff(const rk_rules *rules, const rk_mask *knocker_melds, size_t n_melds,
                    rk_mask defender, rk_layoff_result *out) {
    if (!rules || !out) return RK_ERR_ARG;
    if (defender & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    rk_status st = check_melds(rules, knocker_melds, n_melds, defender);
    if (st != RK_OK) return st;
    memset(out, 0, sizeof *out);
    best_layoff(rules, knocker_melds, n_melds, defender, out);
    return rk_best_arrangement(rules, defender & ~out->laid_off_all, &out->rest);
}

int rk_layoff_deadwood(const rk_rules *rules, const rk_mask *knocker_melds, size_t n_melds,
                       rk_mask defender) {
    if (!rules) return RK_ERR_ARG;
    if (defender & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    rk_status st = check_melds(rules, knocker_melds, n_melds, defender);
    if (st != RK_OK) return st;
    rk_layoff_result out;
    return best_layoff(rules, knocker_melds, n_melds, defender, &out);
}

/* ---- the knocker's choice ------------------------------------------- */

/* Compares melds as sorted lists of card ids. */
static int compare_melds(rk_mask a, rk_mask b) {
    while (a && b) {
        int x = rk__ctz(a), y = rk__ctz(b);
        if (x != y) return x < y ? -1 : 1;
        a &= a - 1;
        b &= b - 1;
    }
    return a ? 1 : b ? -1 : 0;
}

/* Arrangements keep their melds sorted by lowest card id, which for
 * disjoint melds is their sorted order. */
int rk__compare_arrangements(const rk_arrangement *a, const rk_arrangement *b) {
    for (int i = 0; i < a->n_melds && i < b->n_melds; i++) {
        int c = compare_melds(a->melds[i], b->melds[i]);
        if (c) return c;
    }
    return (a->n_melds > b->n_melds) - (a->n_melds < b->n_melds);
}

typedef struct knock_search {
    const rk_rules *rules;
    rk_mask defender;
    int no_layoffs;
    int defender_plain; /* the defender's deadwood with no lay-offs */
    int found;
    rk_knock_choice best;
} knock_search;

static int consider_knock(void *user, const rk_arrangement *a) {
    knock_search *ks = (knock_search *)user;
    rk_layoff_result lr;
    int d;
    if (a->deadwood == 0 || ks->no_layoffs) {
        memset(&lr, 0, sizeof lr);
        lr.n_knocker_melds = a->n_melds;
        lr.deadwood = d = ks->defender_plain;
    } else {
        d = best_layoff(ks->rules, a->melds, (size_t)a->n_melds, ks->defender, &lr);
    }
    int margin = d - a->deadwood;
    ks->best.n_candidates++;
    int better = !ks->found || margin > ks->best.margin ||
                 (margin == ks->best.margin &&
                  (a->deadwood < ks->best.knocker.deadwood ||
                   (a->deadwood == ks->best.knocker.deadwood &&
                    rk__compare_arrangements(a, &ks->best.knocker) < 0)));
    if (better) {
        ks->found = 1;
        ks->best.knocker = *a;
        ks->best.defender = lr;
        ks->best.margin = margin;
    }
    return 0;
}

int rk__best_layoff(const rk_rules *rules, const rk_mask *melds, size_t n, rk_mask defender,
                    rk_layoff_result *out) {
    return best_layoff(rules, melds, n, defender, out);
}

rk_status rk__choose_knock(const rk_rules *rules, rk_mask knocker, rk_mask defender, int limit,
                           unsigned flags, rk_knock_choice *out) {
    int least = rk__deadwood_unchecked(rules, knocker);
    if (least > limit) return RK_ERR_NO_KNOCK;
    int bound = (least == 0 || (flags & RK_KNOCK_MIN_DEADWOOD_ONLY)) ? least : limit;
    knock_search ks;
    memset(&ks, 0, sizeof ks);
    ks.rules = rules;
    ks.defender = defender;
    ks.no_layoffs = (flags & RK_KNOCK_NO_LAYOFFS) != 0;
    ks.defender_plain = rk__deadwood_unchecked(rules, defender);
    rk_status st = rk__visit_arrangements(rules, knocker, bound, consider_knock, &ks);
    if (st != RK_OK) return st;
    *out = ks.best;
    return RK_OK;
}

rk_status rk_choose_knock(const rk_rules *rules, rk_mask knocker, rk_mask defender, int limit,
                          unsigned flags, rk_knock_choice *out) {
    if (!rules || !out || limit < 0) return RK_ERR_ARG;
    if ((knocker | defender) & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    if (knocker & defender) return RK_ERR_OVERLAP;
    rk_status st = rk__choose_knock(rules, knocker, defender, limit, flags, out);
    if (st != RK_OK) return st;
    return rk_best_arrangement(rules, defender & ~out->defender.laid_off_all, &out->defender.rest);
}
