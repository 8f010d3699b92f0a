/* The deadwood and best-discard kernels against the straightforward
 * algorithm they replace, kept here as the oracle: every choice at every
 * rank held 3+ times (no set, the set of every card, each 3-set), the
 * other cards in runs by the rules tables' run-only deadwood, and the best
 * discard as the least of one such deadwood per card with the documented
 * tie-break.  Exhaustive over every subset of 4 adjacent ranks x 4 suits
 * (the meld-dense hands, wrapping past the king) and randomized over hand
 * sizes 0..20 (the oracle's time grows sixfold a rank held four times) and
 * on hands with six or seven ranks held 3+ times,
 * for the three ace modes and other card values.
 * RUMMYKIT_LONG=1 in the environment: every window, more random hands. */
#include "rummykit/rummykit.h"

#include <stdio.h>
#include <stdlib.h>
#include "check.h"

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t next_random(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static int count(rk_mask m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static int lowest(rk_mask m) {
    int i = 0;
    while (!((m >> i) & 1u)) i++;
    return i;
}

static rk_mask random_hand(int size) {
    rk_mask m = 0;
    while (count(m) < size) m |= (rk_mask)1 << (next_random() % RK_NUM_CARDS);
    return m;
}

static rk_mask rank_cards(int r) {
    rk_mask m = 0;
    for (int s = 0; s < RK_NUM_SUITS; s++) m |= (rk_mask)1 << (13 * s + r);
    return m;
}

/* ---- the oracle ------------------------------------------------------ */

static int runs_only(const rk_rules *rules, rk_mask hand) {
    int total = 0;
    for (int s = 0; s < RK_NUM_SUITS; s++) total += rules->run_deadwood[(hand >> (13 * s)) & 0x1FFFu];
    return total;
}

/* The least deadwood of hand: at each rank from r up held 3+ times, every
 * choice of the cards given to a set. */
static int oracle_from(const rk_rules *rules, rk_mask hand, int r) {
    while (r < RK_NUM_RANKS && count(hand & rank_cards(r)) < 3) r++;
    if (r == RK_NUM_RANKS) return runs_only(rules, hand);
    rk_mask held = hand & rank_cards(r);
    int best = oracle_from(rules, hand, r + 1); /* no set */
    for (rk_mask set = held; set; set = (set - 1) & held)
        if (count(set) >= 3) {
            int v = oracle_from(rules, hand & ~set, r + 1);
            if (v < best) best = v;
        }
    return best;
}

static int oracle_deadwood(const rk_rules *rules, rk_mask hand) { return oracle_from(rules, hand, 0); }

/* The best discard (other than forbidden, or -1): the least deadwood left,
 * then the highest card value, then the highest card id.  Fills after[]
 * as rk_best_discard documents.  Returns the card, -1 when none may go. */
static int oracle_discard(const rk_rules *rules, rk_mask hand, int forbidden, int *deadwood, int16_t after[52]) {
    int best = -1, best_dw = 0;
    for (int c = 0; c < RK_NUM_CARDS; c++) {
        after[c] = -1;
        if (!((hand >> c) & 1u)) continue;
        int v = oracle_deadwood(rules, hand & ~((rk_mask)1 << c));
        after[c] = (int16_t)v;
        if (c == forbidden) continue;
        int value = rules->values[c % RK_NUM_RANKS], best_value = best < 0 ? 0 : rules->values[best % RK_NUM_RANKS];
        if (best < 0 || v < best_dw || (v == best_dw && (value > best_value || (value == best_value && c > best)))) {
            best = c;
            best_dw = v;
        }
    }
    *deadwood = best_dw;
    return best;
}

/* ---- the checks ------------------------------------------------------ */

static long hands_checked;

/* rk_deadwood, rk_best_discard (no card forbidden, the lowest card
 * forbidden, with and without after[]) against the oracle. */
static void check_hand(const rk_rules *rules, rk_mask hand) {
    int expect = oracle_deadwood(rules, hand);
    CHECK(rk_deadwood(rules, hand) == expect);
    hands_checked++;
    if (!hand) {
        int card, dw;
        CHECK(rk_best_discard(rules, hand, -1, &card, &dw, NULL) == RK_ERR_EMPTY);
        return;
    }
    int16_t after[52], oracle_after[52];
    int oracle_dw, oracle_card = oracle_discard(rules, hand, -1, &oracle_dw, oracle_after);
    int card = -2, dw = -2;
    CHECK(rk_best_discard(rules, hand, -1, &card, &dw, NULL) == RK_OK);
    CHECK(card == oracle_card && dw == oracle_dw);
    if (card != oracle_card || dw != oracle_dw)
        fprintf(stderr, "  hand %#llx: card %d deadwood %d, oracle %d %d\n", (unsigned long long)hand, card, dw,
                oracle_card, oracle_dw);
    card = dw = -2;
    CHECK(rk_best_discard(rules, hand, -1, &card, &dw, after) == RK_OK);
    CHECK(card == oracle_card && dw == oracle_dw);
    for (int c = 0; c < RK_NUM_CARDS; c++) CHECK(after[c] == oracle_after[c]);
    int forbidden = lowest(hand);
    if (count(hand) == 1) {
        CHECK(rk_best_discard(rules, hand, forbidden, &card, &dw, NULL) == RK_ERR_EMPTY);
        return;
    }
    oracle_card = oracle_discard(rules, hand, forbidden, &oracle_dw, oracle_after);
    CHECK(rk_best_discard(rules, hand, forbidden, &card, &dw, NULL) == RK_OK);
    CHECK(card == oracle_card && dw == oracle_dw);
}

/* The batches agree with the scalar calls (checked above against the oracle). */
static void check_batches(const rk_rules *rules, const rk_mask *hands, size_t n) {
    int16_t dw[256], bdw[256];
    int8_t card[256];
    CHECK(n <= 256);
    CHECK(rk_deadwood_batch(rules, hands, n, dw, NULL) == RK_OK);
    CHECK(rk_best_discard_batch(rules, hands, n, bdw, card, NULL) == RK_OK);
    for (size_t i = 0; i < n; i++) {
        int c = -1, d = 0;
        CHECK(dw[i] == rk_deadwood(rules, hands[i]));
        if (hands[i]) CHECK(rk_best_discard(rules, hands[i], -1, &c, &d, NULL) == RK_OK);
        CHECK(bdw[i] == d && card[i] == c);
    }
}

/* Every subset of the 16 cards of ranks lo..lo+3 (mod 13). */
static void exhaustive_window(const rk_rules *rules, int lo) {
    rk_mask cards[16];
    for (int i = 0; i < 16; i++) cards[i] = (rk_mask)1 << (13 * (i % 4) + (lo + i / 4) % RK_NUM_RANKS);
    for (unsigned sub = 0; sub < (1u << 16); sub++) {
        rk_mask hand = 0;
        for (int i = 0; i < 16; i++)
            if ((sub >> i) & 1u) hand |= cards[i];
        check_hand(rules, hand);
    }
}

/* Random hands of every size, and meld-dense ones: cards of all suits on a
 * window of 3-6 adjacent ranks. */
static void randomized(const rk_rules *rules, int n) {
    rk_mask batch[256];
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        int size = (int)(next_random() % (i % 4 == 0 ? 21 : 16));
        rk_mask hand = random_hand(size);
        if (i % 2) {
            int lo = (int)(next_random() % 13), width = 3 + (int)(next_random() % 4);
            hand = 0;
            size = size > 4 * width ? 4 * width : size;
            while (count(hand) < size)
                hand |= (rk_mask)1 << (13 * (next_random() % 4) + (lo + next_random() % (unsigned)width) % 13);
        }
        check_hand(rules, hand);
        batch[k++] = hand;
        if (k == 256) {
            check_batches(rules, batch, k);
            k = 0;
        }
    }
    check_batches(rules, batch, k);
}

/* Six or seven ranks held 3+ times (18+ cards): past the one-pass search. */
static void many_set_ranks(const rk_rules *rules, int n) {
    for (int i = 0; i < n; i++) {
        rk_mask hand = 0;
        int ranks = 6 + i % 2;
        while (ranks) {
            int r = (int)(next_random() % 13);
            if (hand & rank_cards(r)) continue;
            hand |= rank_cards(r) & ~((rk_mask)1 << (13 * (next_random() % 4) + r)); /* three suits */
            ranks--;
        }
        if (i % 3 == 0) hand |= rank_cards(lowest(hand) % 13); /* one held four times */
        check_hand(rules, hand);
    }
}

int main(void) {
    const char *env = getenv("RUMMYKIT_LONG");
    int is_long = env && env[0] && env[0] != '0';
    for (int trial = 0; trial < 5; trial++) {
        uint8_t values[RK_NUM_RANKS];
        for (int r = 0; r < RK_NUM_RANKS; r++) /* default, a 15-point ace, random values */
            values[r] = trial < 3 ? (uint8_t)(r < 9 ? r + 1 : 10) : (uint8_t)(1 + next_random() % 40);
        if (trial == 1) values[0] = 15;
        rk_rules rules;
        CHECK(rk_rules_init(&rules, (rk_aces)(trial % 3), values) == RK_OK);
        /* windows: ace-low ends, the middle, across the king (both ace runs) */
        static const int windows[] = {0, 11, 5, 10, 12};
        if (is_long)
            for (int lo = 0; lo < RK_NUM_RANKS; lo++) exhaustive_window(&rules, lo);
        else
            exhaustive_window(&rules, windows[trial]);
        randomized(&rules, is_long ? 400000 : 20000);
        many_set_ranks(&rules, is_long ? 600 : 30);
    }
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("kernels agree with the oracle on %ld hands\n", hands_checked);
    return 0;
}
