/* Meld lists and lay-off inputs: rk_layoff, rk_layoff_deadwood and
 * rk_choose_knock.  The knocker's melds are raw masks (bad masks, non-melds,
 * overlaps, too many melds) or disjoint melds picked from a hand; the
 * answers are checked against each other and against the deadwood of what
 * is left. */
#include "fuzz_common.h"

static void check_layoff(const rk_rules *rules, const rk_mask *melds, size_t n, rk_mask defender,
                         const rk_layoff_result *lr, int no_layoffs) {
    FUZZ_CHECK(lr->n_knocker_melds == (int)n);
    rk_mask all = 0;
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK((lr->laid_off[i] & ~defender) == 0 && !(lr->laid_off[i] & all));
        if (lr->laid_off[i]) FUZZ_CHECK(rk_meld_kind_of(rules, melds[i] | lr->laid_off[i]) != RK_MELD_NONE);
        all |= lr->laid_off[i];
    }
    FUZZ_CHECK(all == lr->laid_off_all);
    if (no_layoffs) FUZZ_CHECK(all == 0);
    FUZZ_CHECK(lr->deadwood == rk_deadwood(rules, defender & ~all));
    FUZZ_CHECK(lr->deadwood <= rk_deadwood(rules, defender));
    FUZZ_CHECK(lr->rest.deadwood == lr->deadwood);
    rk_mask rest = lr->rest.deadwood_cards;
    for (int i = 0; i < lr->rest.n_melds; i++) rest |= lr->rest.melds[i];
    FUZZ_CHECK(rest == (defender & ~all));
}

/* The status the documented checks give, in their order. */
static rk_status expected_status(const rk_rules *rules, const rk_mask *melds, size_t n, rk_mask defender) {
    if (mask_bad(defender)) return RK_ERR_BAD_MASK;
    if (n > RK_MAX_MELDS) return RK_ERR_ARG;
    rk_mask seen = defender;
    for (size_t i = 0; i < n; i++) {
        if (mask_bad(melds[i])) return RK_ERR_BAD_MASK;
        if (rk_meld_kind_of(rules, melds[i]) == RK_MELD_NONE) return RK_ERR_BAD_MELD;
        if (melds[i] & seen) return RK_ERR_OVERLAP;
        seen |= melds[i];
    }
    return RK_OK;
}

/* Disjoint melds of `hand`, chosen by the next input bytes. */
static size_t pick_melds(const rk_rules *rules, reader *r, rk_mask hand, rk_mask *out) {
    rk_mask all[512];
    size_t count = 0, n = 0;
    if (rk_enumerate_melds(rules, hand, all, 512, &count) != RK_OK) return 0;
    rk_mask used = 0;
    for (size_t k = 0; k < count && n < RK_MAX_MELDS; k++) {
        rk_mask m = all[(k + rd_u8(r)) % count];
        if (m & used) continue;
        out[n++] = m;
        used |= m;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    const rk_rules *rules = fuzz_rules(&r);
    uint8_t mode = rd_u8(&r);
    rk_mask melds[RK_MAX_MELDS + 4];
    size_t n;
    if (mode & 1u) {
        n = rd_u8(&r) % (RK_MAX_MELDS + 4);
        for (size_t i = 0; i < n; i++) melds[i] = rd_mask(&r, 13);
    } else {
        n = pick_melds(rules, &r, rd_mask(&r, 20) & RK_DECK_MASK, melds);
    }
    rk_mask on_table = 0;
    for (size_t i = 0; i < n; i++) on_table |= melds[i];
    rk_mask defender = rd_mask(&r, 11);
    if (mode & 2u) defender &= ~on_table; /* mostly disjoint from the melds */

    rk_layoff_result lr;
    rk_status st = rk_layoff(rules, melds, n, defender, &lr);
    int dw = rk_layoff_deadwood(rules, melds, n, defender);
    if (st == RK_OK) {
        FUZZ_CHECK(expected_status(rules, melds, n, defender) == RK_OK && dw == lr.deadwood);
        check_layoff(rules, melds, n, defender, &lr, 0);
    } else {
        FUZZ_CHECK(dw == (int)st && st < 0);
        FUZZ_CHECK(st == expected_status(rules, melds, n, defender));
    }

    /* the knocker's choice against a known defender */
    rk_mask knocker = rd_mask(&r, 11), other = rd_mask(&r, 11);
    if (mode & 4u) other &= ~knocker;
    int limit = (int)(int8_t)rd_u8(&r);
    unsigned flags = rd_u8(&r) & 3u;
    rk_knock_choice kc;
    st = rk_choose_knock(rules, knocker, other, limit, flags, &kc);
    if (limit < 0) {
        FUZZ_CHECK(st == RK_ERR_ARG);
    } else if (mask_bad(knocker) || mask_bad(other)) {
        FUZZ_CHECK(st == RK_ERR_BAD_MASK);
    } else if (knocker & other) {
        FUZZ_CHECK(st == RK_ERR_OVERLAP);
    } else if (rk_deadwood(rules, knocker) > limit) {
        FUZZ_CHECK(st == RK_ERR_NO_KNOCK);
    } else {
        FUZZ_CHECK(st == RK_OK);
        int least = rk_deadwood(rules, knocker);
        FUZZ_CHECK(kc.knocker.deadwood <= limit && kc.knocker.deadwood >= least);
        if ((flags & RK_KNOCK_MIN_DEADWOOD_ONLY) || least == 0) FUZZ_CHECK(kc.knocker.deadwood == least);
        FUZZ_CHECK(kc.margin == kc.defender.deadwood - kc.knocker.deadwood && kc.n_candidates >= 1);
        FUZZ_CHECK(rk_mask_value(rules, kc.knocker.deadwood_cards) == kc.knocker.deadwood);
        check_layoff(rules, kc.knocker.melds, (size_t)kc.knocker.n_melds, other, &kc.defender,
                     (flags & RK_KNOCK_NO_LAYOFFS) || kc.knocker.deadwood == 0);
        if (!(flags & RK_KNOCK_NO_LAYOFFS) && kc.knocker.deadwood > 0) /* the reply is the defender's best */
            FUZZ_CHECK(kc.defender.deadwood ==
                       rk_layoff_deadwood(rules, kc.knocker.melds, (size_t)kc.knocker.n_melds, other));
    }
    return 0;
}
