/* Speed of the C core on one core, without Python: ns per operation.
 * Build: cmake -S csrc -B build/c && cmake --build build/c; run build/c/rummykit_bench. */
#include "rummykit/rummykit.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t state = 88172645463325252ull;
static uint64_t next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static rk_mask random_hand(int size, rk_mask avoid) {
    rk_mask m = 0;
    while (__builtin_popcountll(m) < size) m |= ((rk_mask)1 << (next_random() % RK_NUM_CARDS)) & ~avoid;
    return m;
}

static rk_mask dense_hand(int size) {
    int lo = (int)(next_random() % 10);
    rk_mask m = 0;
    while (__builtin_popcountll(m) < size)
        m |= (rk_mask)1 << (13 * (next_random() % 4) + (unsigned)lo + next_random() % 4);
    return m;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define N 1000000
#define KNOCKS 20000

int main(void) {
    static rk_rules rules;
    if (rk_rules_init(&rules, RK_ACES_LOW, NULL) != RK_OK) return 1;
    rk_mask *ten = malloc(N * sizeof *ten), *dense = malloc(N * sizeof *dense),
            *eleven = malloc(N * sizeof *eleven);
    int16_t *dw = malloc(N * sizeof *dw);
    int8_t *card = malloc(N);
    static rk_arrangement shown[KNOCKS];
    static rk_mask defenders[KNOCKS], knockers[KNOCKS];
    if (!ten || !dense || !eleven || !dw || !card) return 1;
    for (int i = 0; i < N; i++) {
        ten[i] = random_hand(10, 0);
        dense[i] = dense_hand(10);
        eleven[i] = random_hand(11, 0);
    }
    int k = 0;
    while (k < KNOCKS) { /* knocks with at least one meld to lay off on */
        rk_mask knocker = dense_hand(10);
        rk_best_arrangement(&rules, knocker, &shown[k]);
        if (shown[k].n_melds == 0 || shown[k].deadwood > 10) continue;
        knockers[k] = knocker;
        defenders[k++] = random_hand(10, knocker);
    }
    rk_deadwood_batch(&rules, ten, N, dw, NULL); /* warm up */
    long sink = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = seconds();
        rk_deadwood_batch(&rules, ten, N, dw, NULL);
        double t1 = seconds();
        rk_deadwood_batch(&rules, dense, N, dw, NULL);
        double t2 = seconds();
        rk_best_discard_batch(&rules, eleven, N, dw, card, NULL);
        double t3 = seconds();
        rk_layoff_result lr;
        for (int i = 0; i < KNOCKS; i++) {
            rk_layoff(&rules, shown[i].melds, (size_t)shown[i].n_melds, defenders[i], &lr);
            sink += lr.deadwood;
        }
        double t4 = seconds();
        for (int i = 0; i < KNOCKS; i++)
            sink += rk_layoff_deadwood(&rules, shown[i].melds, (size_t)shown[i].n_melds, defenders[i]);
        double t4b = seconds();
        rk_knock_choice kc;
        for (int i = 0; i < KNOCKS; i++) {
            rk_choose_knock(&rules, knockers[i], defenders[i], 10, 0, &kc);
            sink += kc.margin;
        }
        double t5 = seconds();
        printf("deadwood 10 random %.1f ns | 10 dense %.1f ns | best discard 11 %.1f ns | "
               "layoff+melds %.0f ns | layoff deadwood %.0f ns | choose_knock %.0f ns\n",
               (t1 - t0) / N * 1e9, (t2 - t1) / N * 1e9, (t3 - t2) / N * 1e9,
               (t4 - t3) / KNOCKS * 1e9, (t4b - t4) / KNOCKS * 1e9, (t5 - t4b) / KNOCKS * 1e9);
    }
    free(ten);
    free(dense);
    free(eleven);
    free(dw);
    free(card);
    return sink == -1;
}
