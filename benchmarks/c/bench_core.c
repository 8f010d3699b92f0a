/* C-level timings of the rummykit core, with no Python in the loop.
 *
 * Built and run by benchmarks/test_bench_core.py::test_c_core (or by hand):
 *   cc -std=c99 -O3 -DNDEBUG -Icsrc/include benchmarks/c/bench_core.c \
 *      csrc/src/{rules,deadwood,arrange,layoff}.c -o bench_core
 *   ./bench_core < deals.txt
 *
 * Input: one deal per line, "KNOCKER DEFENDER" as hexadecimal masks (the
 * knocker's 10 cards can knock); empty input prints only the size line.
 * Output:
 *   "size rk_rules BYTES"
 *   "deal I LAYOFF MARGIN DEFENDER_DEADWOOD LAYOFF_DEADWOOD" per deal:
 *       rk_layoff's deadwood (the knocker's melds are those of
 *       rk_best_arrangement), rk_choose_knock's margin (limit 10),
 *       rk_deadwood of the defender, rk_layoff_deadwood (same melds),
 *   "time NAME NS_PER_CALL" per timed function (median of 9 passes, each
 *       repeating the loop over all deals for at least 20 ms).
 *
 * "bench_core multi" times the two-deck Kaluki analysis instead.  Input: one
 * hand per line, "ONE TWO JOKERS" (masks in hexadecimal, see rk_multi_hand).
 * Output: "mhand I PENALTY VALUE" per hand (rk_multi_penalty; the value of
 * rk_multi_best for the value objective), then "time" lines for
 * rk_multi_penalty and rk_multi_best (both objectives).
 *
 * "bench_core kernels [N]" times the deadwood and best-discard kernels on N
 * (default 262144) hands per kind drawn here from a fixed seed: random 10-
 * and 11-card hands, and meld-dense ones (all suits on a window of 3-5
 * adjacent ranks, wrapping past the king).  CPU time (the process clock),
 * median of 9 passes.  Every pass repeats the same hands: with 65536 of
 * them the branch predictor learns much of the sequence of outcomes (a
 * kernel's branch on the hand's kind, mispredicted on fresh hands, looked
 * 1.6x cheaper), with 262144 it does not.  Each kernel is printed beside a baseline timed in
 * the same run over the same hands: the table-lookup floor, which reads
 * the rules tables the least any table method can (the run-only deadwood
 * of each suit, and for a discard each suit's best card to drop) and
 * ignores sets, so it is exact only for hands with no rank held 3 times;
 * the random kinds are timed again on those hands alone ("-no-set-rank").
 * Output: "khand KIND I MASK DEADWOOD CARD" for the first 40 hands of each
 * kind (rk_deadwood_batch's deadwood and card -1 for 10 cards,
 * rk_best_discard_batch's for 11), "kernel NAME NS_PER_HAND BASELINE_NS
 * RATIO" per kernel, "check KIND ..." (the share of hands with a rank held
 * 3+ times, the mean result). */
#define _POSIX_C_SOURCE 199309L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rummykit/rummykit.h"

#define MAX_DEALS 4096
#define PASSES 9

static rk_mask knocker[MAX_DEALS], defender[MAX_DEALS];
static rk_arrangement knocker_arr[MAX_DEALS];
static size_t n_deals;
static rk_rules rules;
static volatile long sink;

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void) {
    struct timespec ts;
    clock_gettime(clock_id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run_deadwood(void) {
    long s = 0;
    for (size_t i = 0; i < n_deals; i++) s += rk_deadwood(&rules, defender[i]);
    sink += s;
}

static void run_best_arrangement(void) {
    rk_arrangement a;
    long s = 0;
    for (size_t i = 0; i < n_deals; i++) {
        rk_best_arrangement(&rules, defender[i], &a);
        s += a.deadwood;
    }
    sink += s;
}

static void run_layoff(void) {
    rk_layoff_result r;
    long s = 0;
    for (size_t i = 0; i < n_deals; i++) {
        rk_layoff(&rules, knocker_arr[i].melds, (size_t)knocker_arr[i].n_melds, defender[i], &r);
        s += r.deadwood;
    }
    sink += s;
}

static void run_layoff_deadwood(void) {
    long s = 0;
    for (size_t i = 0; i < n_deals; i++)
        s += rk_layoff_deadwood(&rules, knocker_arr[i].melds, (size_t)knocker_arr[i].n_melds, defender[i]);
    sink += s;
}

static void run_choose_knock(void) {
    rk_knock_choice c;
    long s = 0;
    for (size_t i = 0; i < n_deals; i++) {
        rk_choose_knock(&rules, knocker[i], defender[i], 10, 0, &c);
        s += c.margin;
    }
    sink += s;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median over PASSES of the time per call (n calls per run of fn). */
static double time_n_ns(void (*fn)(void), size_t n) {
    double per_call[PASSES];
    fn(); /* warm-up */
    for (int p = 0; p < PASSES; p++) {
        long reps = 0;
        double t0 = now(), t;
        do {
            fn();
            reps++;
            t = now();
        } while (t - t0 < 0.02);
        per_call[p] = (t - t0) / (double)reps / (double)n * 1e9;
    }
    qsort(per_call, PASSES, sizeof per_call[0], cmp_double);
    return per_call[PASSES / 2];
}

static double time_ns(void (*fn)(void)) { return time_n_ns(fn, n_deals); }

/* ---- two-deck Kaluki hands ------------------------------------------- */

static rk_multi_hand multi_hands[MAX_DEALS];
static rk_multi_rules multi_rules;
static size_t n_multi;

static void run_multi_penalty(void) {
    long s = 0;
    for (size_t i = 0; i < n_multi; i++) s += rk_multi_penalty(&multi_rules, multi_hands[i]);
    sink += s;
}

static void run_multi_best(void) {
    rk_multi_arrangement a;
    long s = 0;
    for (size_t i = 0; i < n_multi; i++)
        for (int objective = 0; objective < 2; objective++) {
            rk_multi_best(&multi_rules, multi_hands[i], (rk_multi_objective)objective, -1, &a);
            s += a.value;
        }
    sink += s;
}

static int main_multi(void) {
    uint64_t one, two;
    int jokers;
    while (n_multi < MAX_DEALS && scanf("%" SCNx64 " %" SCNx64 " %d", &one, &two, &jokers) == 3) {
        rk_multi_hand h = {one, two, jokers};
        if (rk_multi_hand_check(h) != RK_OK) return 1;
        multi_hands[n_multi++] = h;
    }
    if (rk_multi_rules_init(&multi_rules, 0, 15, NULL) != RK_OK || n_multi == 0) return 1;
    for (size_t i = 0; i < n_multi; i++) {
        rk_multi_arrangement a;
        if (rk_multi_best(&multi_rules, multi_hands[i], RK_MULTI_VALUE, -1, &a) != RK_OK) return 1;
        printf("mhand %zu %d %d\n", i, rk_multi_penalty(&multi_rules, multi_hands[i]), a.value);
    }
    printf("time rk_multi_penalty %.1f\n", time_n_ns(run_multi_penalty, n_multi));
    printf("time rk_multi_best %.1f\n", time_n_ns(run_multi_best, 2 * n_multi));
    return 0;
}

/* ---- deadwood and best-discard kernels ------------------------------- */

#define MAX_KERNEL_HANDS (1 << 20)

static rk_mask *kernel_hands;
static size_t n_kernel;
static int16_t *kernel_dw;
static int8_t *kernel_card;

static uint64_t seed_state = 20261205;
static uint64_t splitmix(void) {
    uint64_t z = (seed_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int count_cards(rk_mask m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static rk_mask random_hand(int size) {
    rk_mask m = 0;
    while (count_cards(m) < size) m |= (rk_mask)1 << (splitmix() % RK_NUM_CARDS);
    return m;
}

static rk_mask dense_hand(int size) {
    int lo = (int)(splitmix() % 13), width = 3 + (int)(splitmix() % 3);
    if (4 * width < size) width = (size + 3) / 4;
    rk_mask m = 0;
    while (count_cards(m) < size)
        m |= (rk_mask)1 << (13 * (splitmix() % 4) + (lo + splitmix() % (unsigned)width) % 13);
    return m;
}

static void run_deadwood_batch(void) {
    rk_deadwood_batch(&rules, kernel_hands, n_kernel, kernel_dw, NULL);
    sink += kernel_dw[n_kernel - 1];
}

static void run_best_discard_batch(void) {
    rk_best_discard_batch(&rules, kernel_hands, n_kernel, kernel_dw, kernel_card, NULL);
    sink += kernel_card[n_kernel - 1];
}

static void run_best_discard_scalar(void) {
    long s = 0;
    for (size_t i = 0; i < n_kernel; i++) {
        int card, dw;
        rk_best_discard(&rules, kernel_hands[i], -1, &card, &dw, NULL);
        s += card + dw;
    }
    sink += s;
}

static void run_best_discard_after(void) {
    long s = 0;
    int16_t after[RK_NUM_CARDS];
    for (size_t i = 0; i < n_kernel; i++) {
        int card, dw;
        rk_best_discard(&rules, kernel_hands[i], -1, &card, &dw, after);
        s += card + after[card];
    }
    sink += s;
}

/* The baselines: the same loop shape as the batch kernels (a mask check and
 * a store per hand), reading only the run-only tables. */
static void run_floor_deadwood(void) {
    const uint16_t *rd = rules.run_deadwood;
    for (size_t i = 0; i < n_kernel; i++) {
        rk_mask h = kernel_hands[i];
        if (h & ~RK_DECK_MASK) return;
        kernel_dw[i] = (int16_t)(rd[h & 0x1FFF] + rd[(h >> 13) & 0x1FFF] + rd[(h >> 26) & 0x1FFF] + rd[h >> 39]);
    }
    sink += kernel_dw[n_kernel - 1];
}

static void run_floor_discard(void) {
    const uint16_t *rd = rules.run_deadwood;
    const uint32_t *dk = rules.drop_key;
    for (size_t i = 0; i < n_kernel; i++) {
        rk_mask h = kernel_hands[i];
        if (h & ~RK_DECK_MASK) return;
        unsigned p0 = (unsigned)(h & 0x1FFF), p1 = (unsigned)((h >> 13) & 0x1FFF),
                 p2 = (unsigned)((h >> 26) & 0x1FFF), p3 = (unsigned)(h >> 39);
        uint32_t k0 = dk[p0], k1 = dk[p1] - 13, k2 = dk[p2] - 26, k3 = dk[p3] - 39;
        uint32_t a = k0 < k1 ? k0 : k1, b = k2 < k3 ? k2 : k3, key = a < b ? a : b;
        int base = rd[p0] + rd[p1] + rd[p2] + rd[p3];
        kernel_dw[i] = (int16_t)(base + (int)(key >> 14) - RK_DROP_OFFSET);
        kernel_card[i] = (int8_t)(63 - (int)(key & 63u));
    }
    sink += kernel_card[n_kernel - 1];
}

static void kernel_line(const char *name, void (*fn)(void), void (*floor)(void)) {
    double ns = time_n_ns(fn, n_kernel), base = time_n_ns(floor, n_kernel);
    printf("kernel %s %.2f %.2f %.2f\n", name, ns, base, ns / base);
}

static int main_kernels(size_t n) {
    if (n == 0 || n > MAX_KERNEL_HANDS) return 1;
    if (rk_rules_init(&rules, RK_ACES_LOW, NULL) != RK_OK) return 1;
    kernel_hands = malloc(n * sizeof *kernel_hands);
    kernel_dw = malloc(n * sizeof *kernel_dw);
    kernel_card = malloc(n * sizeof *kernel_card);
    if (!kernel_hands || !kernel_dw || !kernel_card) return 1;
    n_kernel = n;
    clock_id = CLOCK_PROCESS_CPUTIME_ID;
    static const struct {
        const char *name;
        int size, dense;
    } kinds[] = {{"random10", 10, 0}, {"dense10", 10, 1}, {"random11", 11, 0}, {"dense11", 11, 1}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        long sets = 0, dw_sum = 0;
        for (size_t i = 0; i < n; i++) {
            kernel_hands[i] = kinds[k].dense ? dense_hand(kinds[k].size) : random_hand(kinds[k].size);
            rk_mask h = kernel_hands[i];
            unsigned a = h & 0x1FFF, b = (h >> 13) & 0x1FFF, c = (h >> 26) & 0x1FFF, d = (unsigned)(h >> 39);
            sets += ((a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)) != 0;
        }
        char name[64];
        if (kinds[k].size == 10) {
            run_deadwood_batch();
            for (size_t i = 0; i < n; i++) dw_sum += kernel_dw[i];
            for (size_t i = 0; i < n && i < 40; i++)
                printf("khand %s %zu %" PRIx64 " %d -1\n", kinds[k].name, i, kernel_hands[i], kernel_dw[i]);
            snprintf(name, sizeof name, "rk_deadwood_batch/%s", kinds[k].name);
            kernel_line(name, run_deadwood_batch, run_floor_deadwood);
        } else {
            run_best_discard_batch();
            for (size_t i = 0; i < n; i++) dw_sum += kernel_dw[i];
            for (size_t i = 0; i < n && i < 40; i++)
                printf("khand %s %zu %" PRIx64 " %d %d\n", kinds[k].name, i, kernel_hands[i], kernel_dw[i],
                       kernel_card[i]);
            snprintf(name, sizeof name, "rk_best_discard_batch/%s", kinds[k].name);
            kernel_line(name, run_best_discard_batch, run_floor_discard);
            snprintf(name, sizeof name, "rk_best_discard/%s", kinds[k].name);
            kernel_line(name, run_best_discard_scalar, run_floor_discard);
            snprintf(name, sizeof name, "rk_best_discard+after/%s", kinds[k].name);
            kernel_line(name, run_best_discard_after, run_floor_discard);
        }
        if (!kinds[k].dense) { /* the same kernel on the hands where the floor is exact */
            size_t kept = 0;
            rk_mask *all = kernel_hands;
            for (size_t i = 0; i < n; i++) {
                rk_mask h = all[i];
                unsigned a = h & 0x1FFF, b = (h >> 13) & 0x1FFF, c = (h >> 26) & 0x1FFF, d = (unsigned)(h >> 39);
                if (!((a & b & c) | (a & b & d) | (a & c & d) | (b & c & d))) all[kept++] = h;
            }
            n_kernel = kept;
            snprintf(name, sizeof name, "%s/%s-no-set-rank", kinds[k].size == 10 ? "rk_deadwood_batch" :
                     "rk_best_discard_batch", kinds[k].name);
            kernel_line(name, kinds[k].size == 10 ? run_deadwood_batch : run_best_discard_batch,
                        kinds[k].size == 10 ? run_floor_deadwood : run_floor_discard);
            n_kernel = n;
        }
        printf("check %s hands %zu with_a_set %.3f mean_deadwood %.3f\n", kinds[k].name, n, (double)sets / (double)n,
               (double)dw_sum / (double)n);
    }
    free(kernel_hands);
    free(kernel_dw);
    free(kernel_card);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "multi") == 0) return main_multi();
    if (argc > 1 && strcmp(argv[1], "kernels") == 0) return main_kernels(argc > 2 ? (size_t)atol(argv[2]) : 262144);
    uint64_t k, d;
    while (n_deals < MAX_DEALS && scanf("%" SCNx64 " %" SCNx64, &k, &d) == 2) {
        knocker[n_deals] = k;
        defender[n_deals] = d;
        n_deals++;
    }
    printf("size rk_rules %zu\n", sizeof(rk_rules));
    if (n_deals == 0) return 0; /* only the size */
    if (rk_rules_init(&rules, RK_ACES_LOW, NULL) != RK_OK) return 1;
    for (size_t i = 0; i < n_deals; i++) {
        rk_layoff_result r;
        rk_knock_choice c;
        if (rk_best_arrangement(&rules, knocker[i], &knocker_arr[i]) != RK_OK ||
            rk_layoff(&rules, knocker_arr[i].melds, (size_t)knocker_arr[i].n_melds, defender[i], &r) !=
                RK_OK ||
            rk_choose_knock(&rules, knocker[i], defender[i], 10, 0, &c) != RK_OK) {
            fprintf(stderr, "deal %zu failed\n", i);
            return 1;
        }
        printf("deal %zu %d %d %d %d\n", i, r.deadwood, c.margin, rk_deadwood(&rules, defender[i]),
               rk_layoff_deadwood(&rules, knocker_arr[i].melds, (size_t)knocker_arr[i].n_melds,
                                  defender[i]));
    }
    printf("time rk_deadwood %.1f\n", time_ns(run_deadwood));
    printf("time rk_best_arrangement %.1f\n", time_ns(run_best_arrangement));
    printf("time rk_layoff %.1f\n", time_ns(run_layoff));
    printf("time rk_layoff_deadwood %.1f\n", time_ns(run_layoff_deadwood));
    printf("time rk_choose_knock %.1f\n", time_ns(run_choose_knock));
    return 0;
}
