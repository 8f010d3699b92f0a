/* Card masks and rules parameters: rk_mask_value, rk_meld_kind_of,
 * rk_enumerate_melds, rk_deadwood, rk_best_arrangement, rk_arrangements and
 * rk_best_discard, checked against each other and against plain
 * definitions (a meld by its definition, the deadwood by the dynamic
 * programme, every discard by a fresh deadwood). */
#include "fuzz_common.h"

static int naive_run(rk_aces aces, unsigned lane) {
    int n = rk__popcount(lane);
    if (n < 3) return 0;
    if (aces != RK_ACES_HIGH) { /* ranks A..K, consecutive */
        int lo = rk__ctz(lane);
        if (lane == ((1u << n) - 1u) << lo) return 1;
    }
    if (aces != RK_ACES_LOW) { /* ranks 2..A with the ace above the king */
        unsigned q = (lane >> 1) | ((lane & 1u) << 12);
        int lo = rk__ctz(q);
        if (q == ((1u << n) - 1u) << lo) return 1;
    }
    return 0;
}

static rk_meld_kind naive_kind(const rk_rules *rules, rk_mask m) {
    if (mask_bad(m)) return RK_MELD_NONE;
    int n = rk__popcount(m);
    if (n < 3) return RK_MELD_NONE;
    int rank = rk__ctz(m) % RK_NUM_RANKS, same_rank = 1, suits = 0;
    for (rk_mask b = m; b; b &= b - 1) {
        same_rank &= rk__ctz(b) % RK_NUM_RANKS == rank;
        suits |= 1 << (rk__ctz(b) / RK_NUM_RANKS);
    }
    if (same_rank && n <= 4) return RK_MELD_SET;
    if (rk__suit_count((unsigned)suits) != 1) return RK_MELD_NONE;
    int s = rk__ctz((uint64_t)suits);
    return naive_run(rules->aces, (unsigned)(m >> (13 * s)) & RK_SUIT_BITS) ? RK_MELD_RUN : RK_MELD_NONE;
}

static void check_arrangement(const rk_rules *rules, rk_mask hand, const rk_arrangement *a) {
    FUZZ_CHECK(a->n_melds >= 0 && a->n_melds <= RK_MAX_MELDS);
    rk_mask melded = 0;
    for (int i = 0; i < a->n_melds; i++) {
        FUZZ_CHECK(rk_meld_kind_of(rules, a->melds[i]) != RK_MELD_NONE);
        FUZZ_CHECK(!(a->melds[i] & melded));
        if (i) FUZZ_CHECK(rk__ctz(a->melds[i - 1]) < rk__ctz(a->melds[i]));
        melded |= a->melds[i];
    }
    FUZZ_CHECK(!(melded & a->deadwood_cards) && (melded | a->deadwood_cards) == hand);
    FUZZ_CHECK(rk_mask_value(rules, a->deadwood_cards) == a->deadwood);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    const rk_rules *rules = fuzz_rules(&r);
    uint8_t big = rd_u8(&r); /* big hands now and then: their searches are slow */
    rk_mask hand = rd_mask(&r, (big & 3u) ? 16 : (big & 60u) ? 26 : -1);
    int forbidden = (int)(int8_t)rd_u8(&r);
    int bad = mask_bad(hand);

    /* meld validity of a small mask against the definition */
    rk_mask small = rd_mask(&r, 5);
    FUZZ_CHECK(rk_meld_kind_of(rules, small) == naive_kind(rules, small));

    int value = rk_mask_value(rules, hand);
    int dw = rk_deadwood(rules, hand);
    if (bad) {
        FUZZ_CHECK(value == RK_ERR_BAD_MASK && dw == RK_ERR_BAD_MASK);
    } else {
        FUZZ_CHECK(dw >= 0 && dw <= value && dw == rk__deadwood_dp(rules, hand));
    }

    /* every meld: a meld inside the hand; sizing call, then the full list */
    size_t count = 0, again = 0;
    rk_status st = rk_enumerate_melds(rules, hand, NULL, 0, &count);
    FUZZ_CHECK(st == (bad ? RK_ERR_BAD_MASK : count ? RK_ERR_CAPACITY : RK_OK));
    rk_mask melds[512];
    if (!bad) {
        FUZZ_CHECK(count <= 512);
        FUZZ_CHECK(rk_enumerate_melds(rules, hand, melds, count, &again) == RK_OK && again == count);
        for (size_t i = 0; i < count; i++) {
            FUZZ_CHECK((melds[i] & ~hand) == 0 && rk_meld_kind_of(rules, melds[i]) != RK_MELD_NONE);
            for (size_t j = 0; j < i; j++) FUZZ_CHECK(melds[i] != melds[j]);
        }
    }

    rk_arrangement best;
    st = rk_best_arrangement(rules, hand, &best);
    FUZZ_CHECK(st == (bad ? RK_ERR_BAD_MASK : RK_OK));
    if (!bad) {
        check_arrangement(rules, hand, &best);
        FUZZ_CHECK(best.deadwood == dw);
        for (int i = 0; i < best.n_melds; i++) {
            /* a long run is a run of the list; a set in the list too */
            int listed = 0;
            for (size_t j = 0; j < count; j++) listed |= melds[j] == best.melds[i];
            FUZZ_CHECK(listed);
        }
    }

    /* the optimal arrangements (and, for small hands, those within a bound) */
    if (!bad && rk__popcount(hand) <= 14) {
        int bound = (int)(rd_u8(&r) % 24) - 1;
        rk_arrangement arr[64];
        st = rk_arrangements(rules, hand, bound, arr, 64, &count);
        FUZZ_CHECK(st == RK_OK || st == RK_ERR_CAPACITY);
        FUZZ_CHECK((st == RK_OK) == (count <= 64));
        if (bound < 0) FUZZ_CHECK(count >= 1);
        for (size_t i = 0; i < count && i < 64; i++) {
            check_arrangement(rules, hand, &arr[i]);
            FUZZ_CHECK(arr[i].deadwood >= dw);
            FUZZ_CHECK(bound < 0 ? arr[i].deadwood == dw : arr[i].deadwood <= bound);
        }
        if (bound < 0) FUZZ_CHECK(!memcmp(&arr[0], &best, sizeof best));
    }

    /* the best discard: no card does better, after[] agrees with deadwood */
    int card = -2, after_dw = -2;
    int16_t after[RK_NUM_CARDS];
    st = rk_best_discard(rules, hand, forbidden, &card, &after_dw, after);
    if (forbidden < -1 || forbidden >= RK_NUM_CARDS) {
        FUZZ_CHECK(st == RK_ERR_ARG);
    } else if (bad) {
        FUZZ_CHECK(st == RK_ERR_BAD_MASK);
    } else if (forbidden >= 0 && !((hand >> forbidden) & 1u)) {
        FUZZ_CHECK(st == RK_ERR_ARG);
    } else if ((hand & ~(forbidden >= 0 ? (rk_mask)1 << forbidden : 0)) == 0) {
        FUZZ_CHECK(st == RK_ERR_EMPTY);
    } else {
        FUZZ_CHECK(st == RK_OK && card != forbidden && ((hand >> card) & 1u));
        for (int c = 0; c < RK_NUM_CARDS; c++) {
            if (!((hand >> c) & 1u)) {
                FUZZ_CHECK(after[c] == -1);
                continue;
            }
            FUZZ_CHECK(after[c] == rk_deadwood(rules, hand & ~((rk_mask)1 << c)));
            if (c != forbidden) FUZZ_CHECK(after_dw <= after[c]);
        }
        FUZZ_CHECK(after[card] == after_dw);
        int card2 = -2, dw2 = -2; /* the fast path (no per-card vector) agrees */
        FUZZ_CHECK(rk_best_discard(rules, hand, forbidden, &card2, &dw2, NULL) == RK_OK);
        FUZZ_CHECK(card2 == card && dw2 == after_dw);
    }
    return 0;
}
