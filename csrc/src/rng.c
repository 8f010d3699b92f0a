/* The splitmix64 generator, its unbiased bounded draws and the shuffles
 * (RANDOMNESS in rummykit/rng.h). */
#include "internal.h"
#include "rummykit/rng.h"

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
