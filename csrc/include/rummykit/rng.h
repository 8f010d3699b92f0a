/*
 * rummykit random numbers: the generator of the playouts, the
 * determinizations and the restock shuffles.
 *
 * RANDOMNESS: rk_rng is splitmix64 (Steele, Lea and Flood 2014): a 64-bit
 * state advanced by 0x9E3779B97F4A7C15 and mixed on output.  rk_rng_seed
 * mixes a seed and a stream number into the state, so (seed, i) gives an
 * independent-looking sequence for every playout i.  rk_rng_below(n) is
 * Lemire's unbiased multiply-and-reject on the high 32 bits.  A shuffle is
 * Fisher-Yates from the last position down: for i = n-1..1 swap a[i] with
 * a[rk_rng_below(i + 1)].  The generator state is passed by pointer; there
 * is no global state.
 */
#ifndef RUMMYKIT_RNG_H
#define RUMMYKIT_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rk_rng {
    uint64_t state;
} rk_rng;

/* Seed a generator from a seed and a stream number. */
void rk_rng_seed(rk_rng *rng, uint64_t seed, uint64_t stream);
/* The next 64 random bits. */
uint64_t rk_rng_next(rk_rng *rng);
/* A uniform integer in [0, n) (n >= 1). */
uint32_t rk_rng_below(rk_rng *rng, uint32_t n);
/* Shuffle n cards in place (Fisher-Yates as above). */
void rk_rng_shuffle(rk_rng *rng, uint8_t *cards, size_t n);
/* The restock shuffle: rk_rng_seed(seed, restock) then rk_rng_shuffle. */
void rk_restock_shuffle(uint64_t seed, int restock, uint8_t *cards, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_RNG_H */
