/* Batch arrays: rk_deadwood_batch, rk_best_discard_batch and
 * rk_multi_penalty_batch equal the scalar calls element by element, stop
 * at the first bad element and report its index, and never write past the
 * arrays (ASan sees exact-size heap buffers). */
#include "fuzz_common.h"

#define MAX_ROWS 64

/* A zeroed buffer of exactly `bytes` (NULL for none), so that ASan flags
 * any write past it. */
static void *exact(size_t bytes) {
    if (!bytes) return NULL;
    void *p = calloc(bytes, 1);
    FUZZ_CHECK(p != NULL);
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    const rk_rules *rules = fuzz_rules(&r);
    size_t n = rd_u8(&r) % (MAX_ROWS + 1);
    rk_mask *hands = exact(n * sizeof *hands);
    int16_t *dw = exact(n * sizeof *dw), *bdw = exact(n * sizeof *bdw);
    int8_t *card = exact(n);
    size_t first_bad = n;
    for (size_t i = 0; i < n; i++) {
        /* up to 26 cards: a full deck costs 80 ms a best discard (ace-high), ~1 s under ASan */
        hands[i] = rd_mask(&r, (i & 7u) ? 16 : 26);
        if (mask_bad(hands[i]) && first_bad == n) first_bad = i;
    }
    size_t bad_index = (size_t)-1;
    rk_status st = rk_deadwood_batch(rules, hands, n, dw, &bad_index);
    FUZZ_CHECK(st == (first_bad < n ? RK_ERR_BAD_MASK : RK_OK));
    if (first_bad < n) FUZZ_CHECK(bad_index == first_bad);
    for (size_t i = 0; i < first_bad; i++) FUZZ_CHECK(dw[i] == rk_deadwood(rules, hands[i]));

    bad_index = (size_t)-1;
    st = rk_best_discard_batch(rules, hands, n, bdw, card, &bad_index);
    FUZZ_CHECK(st == (first_bad < n ? RK_ERR_BAD_MASK : RK_OK));
    if (first_bad < n) FUZZ_CHECK(bad_index == first_bad);
    for (size_t i = 0; i < first_bad; i++) {
        int c = -1, d = 0;
        rk_status s1 = rk_best_discard(rules, hands[i], -1, &c, &d, NULL);
        FUZZ_CHECK(s1 == (hands[i] ? RK_OK : RK_ERR_EMPTY));
        FUZZ_CHECK(card[i] == c && bdw[i] == d);
    }
    FUZZ_CHECK(rk_deadwood_batch(rules, NULL, 1, dw, NULL) == RK_ERR_ARG);
    FUZZ_CHECK(rk_best_discard_batch(rules, hands, 1, NULL, card, NULL) == RK_ERR_ARG);
    free(hands), free(dw), free(bdw), free(card);

    /* multi-deck rows: a few cards each (the search is exponential), a bad count sometimes */
    static rk_multi_rules mr;
    static int ready;
    if (!ready) {
        FUZZ_CHECK(rk_multi_rules_init(&mr, 0, 25, NULL) == RK_OK);
        ready = 1;
    }
    size_t rows = rd_u8(&r) % 17;
    uint8_t *counts = exact(rows * RK_NUM_TYPES);
    int32_t *pen = exact(rows * sizeof *pen);
    size_t row_bad = rows;
    for (size_t i = 0; i < rows; i++) {
        uint8_t *row = counts + i * RK_NUM_TYPES;
        int k = rd_u8(&r) % 15;
        for (int j = 0; j < k; j++) {
            int t = rd_u8(&r) % RK_NUM_TYPES;
            if (row[t] < (t == RK_JOKER ? RK_MULTI_MAX_JOKERS : 2)) row[t]++;
        }
        uint8_t poke = rd_u8(&r);
        if (poke >= 250) row[poke % RK_NUM_TYPES] = 9; /* too many copies */
        if (poke >= 250 && row_bad == rows) row_bad = i;
    }
    bad_index = (size_t)-1;
    st = rk_multi_penalty_batch(&mr, counts, rows, pen, &bad_index);
    FUZZ_CHECK(st == (row_bad < rows ? RK_ERR_BAD_MASK : RK_OK));
    if (row_bad < rows) FUZZ_CHECK(bad_index == row_bad);
    for (size_t i = 0; i < row_bad; i++) {
        rk_multi_hand h;
        FUZZ_CHECK(rk_multi_hand_from_counts(counts + i * RK_NUM_TYPES, &h) == RK_OK);
        FUZZ_CHECK(pen[i] == rk_multi_penalty(&mr, h));
    }
    free(counts), free(pen);
    return 0;
}
