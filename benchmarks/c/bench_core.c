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
 * rk_multi_penalty and rk_multi_best (both objectives). */
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

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "multi") == 0) return main_multi();
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
