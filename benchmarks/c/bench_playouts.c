/* C-level timings of the playout kernel (no Python in the loop): greedy
 * and random playouts per second from fresh deals, one core.
 *
 *   cc -std=c99 -O3 -DNDEBUG -Icsrc/include benchmarks/c/bench_playouts.c \
 *      csrc/src/{rules,deadwood,arrange,layoff,playout}.c -o bench_playouts
 *   ./bench_playouts [hands]
 *
 * Output: "rate GAME POLICY PLAYOUTS_PER_SECOND MEAN_ACTIONS" per line (the
 * best of 5 passes over the same decks). */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rummykit/knock.h"
#include "rummykit/policy.h"
#include "rummykit/rummykit.h"

#define MAX_HANDS 200000

static uint8_t decks[MAX_HANDS][52];

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run(const rk_rules *rules, const char *name, rk_base_game game, int players, rk_policy policy,
                int hands) {
    rk_knock_rules pr;
    if (rk_knock_rules_init(&pr, game, players) != RK_OK) return;
    double best = 0;
    long actions = 0;
    for (int pass = 0; pass < 5; pass++) {
        rk_rng rng;
        rk_rng_seed(&rng, 7, 0);
        long total = 0;
        double t = now();
        for (int h = 0; h < hands; h++) {
            rk_position pos;
            rk_playout_result r;
            rk_position_deal(&pr, decks[h], h % players, (uint64_t)h, &pos);
            if (rk_playout(rules, &pr, &pos, policy, &rng, &r) != RK_OK) {
                fprintf(stderr, "playout failed\n");
                exit(1);
            }
            total += r.actions;
        }
        t = now() - t;
        if (hands / t > best) best = hands / t;
        actions = total;
    }
    printf("rate %s %s %.0f %.1f\n", name, policy.kind == RK_POLICY_GREEDY ? "greedy" : "random", best,
           (double)actions / hands);
}

int main(int argc, char **argv) {
    int hands = argc > 1 ? atoi(argv[1]) : 50000;
    if (hands < 1 || hands > MAX_HANDS) return 2;
    static rk_rules rules;
    if (rk_rules_init(&rules, RK_ACES_LOW, NULL) != RK_OK) return 1;
    rk_rng rng;
    rk_rng_seed(&rng, 2026, 0);
    for (int h = 0; h < hands; h++) {
        for (int i = 0; i < 52; i++) decks[h][i] = (uint8_t)i;
        rk_rng_shuffle(&rng, decks[h], 52);
    }
    rk_policy greedy = {RK_POLICY_GREEDY, -1}, random = {RK_POLICY_RANDOM, -1};
    run(&rules, "oklahoma_gin", RK_GAME_OKLAHOMA_GIN, 2, greedy, hands);
    run(&rules, "gin", RK_GAME_GIN, 2, greedy, hands);
    run(&rules, "oklahoma_rummy_3", RK_GAME_OKLAHOMA_RUMMY, 3, greedy, hands);
    run(&rules, "oklahoma_gin", RK_GAME_OKLAHOMA_GIN, 2, random, hands / 10);
    return 0;
}
