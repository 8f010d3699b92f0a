/* Shared helpers of the libFuzzer harnesses: a byte reader over the fuzz
 * input (zeros once it runs out, so every input is usable), cached rules
 * tables, and a check that aborts with a message (the fuzzer saves the
 * input that made it fail). */
#ifndef RK_FUZZ_COMMON_H
#define RK_FUZZ_COMMON_H

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static inline uint8_t rd_u8(reader *r) {
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

static inline uint32_t rd_u32(reader *r) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)rd_u8(r) << (8 * i);
    return v;
}

static inline uint64_t rd_u64(reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)rd_u8(r) << (8 * i);
    return v;
}

/* A card mask: usually inside the deck (sometimes with stray bits above
 * it, to exercise the mask checks), optionally thinned to at most
 * max_cards cards so that the exponential searches stay fast. */
static inline rk_mask rd_mask(reader *r, int max_cards) {
    uint8_t mode = rd_u8(r);
    rk_mask m = rd_u64(r);
    if ((mode & 7u) != 0) m &= RK_DECK_MASK;
    while (max_cards >= 0 && rk__popcount(m & RK_DECK_MASK) > max_cards) m &= m - 1;
    return m;
}

#define FUZZ_CHECK(cond)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

/* rk_rules_init takes about a millisecond: the three default tables are
 * built once, and custom card values reuse the last table built. */
static inline const rk_rules *fuzz_rules(reader *r) {
    static rk_rules defaults[3], custom;
    static int ready;
    static rk_aces custom_aces = (rk_aces)-1;
    static uint8_t custom_values[RK_NUM_RANKS];
    if (!ready) {
        for (int a = 0; a < 3; a++) FUZZ_CHECK(rk_rules_init(&defaults[a], (rk_aces)a, NULL) == RK_OK);
        ready = 1;
    }
    uint8_t sel = rd_u8(r);
    rk_aces aces = (rk_aces)(sel % 3);
    if (!(sel & 0x80u)) return &defaults[aces];
    uint8_t values[RK_NUM_RANKS];
    for (int i = 0; i < RK_NUM_RANKS; i++) values[i] = rd_u8(r);
    if (aces == custom_aces && !memcmp(values, custom_values, sizeof values)) return &custom;
    rk_status st = rk_rules_init(&custom, aces, values);
    int has_zero = memchr(values, 0, sizeof values) != NULL;
    FUZZ_CHECK(st == (has_zero ? RK_ERR_ARG : RK_OK));
    if (st != RK_OK) {
        custom_aces = (rk_aces)-1;
        return &defaults[aces];
    }
    custom_aces = aces;
    memcpy(custom_values, values, sizeof values);
    return &custom;
}

static inline int mask_bad(rk_mask m) { return (m & ~RK_DECK_MASK) != 0; }

#endif
