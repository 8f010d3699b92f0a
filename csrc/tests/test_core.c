/* C tests of the rummykit core (no Python).  An independent brute force
 * checks the fast paths on random and meld-dense hands of many sizes. */
#include "rummykit/rummykit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---- helpers -------------------------------------------------------- */

static rk_mask parse(const char *text) {
    static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";
    rk_mask m = 0;
    for (const char *p = text; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        int r = (int)(strchr(RANKS, p[0]) - RANKS), s = (int)(strchr(SUITS, p[1]) - SUITS);
        m |= (rk_mask)1 << (13 * s + r);
        p += 2;
    }
    return m;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static rk_mask random_hand(int size) {
    rk_mask m = 0;
    while (__builtin_popcountll(m) < size) m |= (rk_mask)1 << (next_random() % RK_NUM_CARDS);
    return m;
}

/* cards drawn from a few adjacent ranks: many sets crossing runs */
static rk_mask dense_hand(int size) {
    int lo = (int)(next_random() % 10), width = 3 + (int)(next_random() % 3);
    if (size > 4 * width) size = 4 * width;
    rk_mask m = 0;
    while (__builtin_popcountll(m) < size) {
        int r = (lo + (int)(next_random() % (unsigned)width)) % 13, s = (int)(next_random() % 4);
        m |= (rk_mask)1 << (13 * s + r);
    }
    return m;
}

/* ---- independent brute force ---------------------------------------- */

static const int VALUES[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};

/* every meld in hand, listed from first principles */
static int brute_melds(rk_mask hand, rk_aces aces, rk_mask *out) {
    int n = 0;
    for (int r = 0; r < 13; r++) {
        rk_mask all = 0;
        for (int s = 0; s < 4; s++) all |= (rk_mask)1 << (13 * s + r);
        rk_mask held = hand & all;
        for (rk_mask sub = held; sub; sub = (sub - 1) & held)
            if (__builtin_popcountll(sub) >= 3) out[n++] = sub;
    }
    /* runs: rank sequences A..K (low) and 2..K,A (high) */
    int low[13], high[13];
    for (int i = 0; i < 13; i++) low[i] = i, high[i] = (i + 1) % 13;
    for (int s = 0; s < 4; s++)
        for (int order = 0; order < 2; order++) {
            if ((order == 0 && aces == RK_ACES_HIGH) || (order == 1 && aces == RK_ACES_LOW)) continue;
            const int *seq = order ? high : low;
            for (int i = 0; i < 13; i++)
                for (int j = i + 2; j < 13; j++) {
                    rk_mask m = 0;
                    for (int k = i; k <= j; k++) m |= (rk_mask)1 << (13 * s + seq[k]);
                    if ((m & hand) != m) continue;
                    int dup = 0;
                    for (int t = 0; t < n; t++) dup |= out[t] == m;
                    if (!dup) out[n++] = m;
                }
        }
    return n;
}

static int value_of(rk_mask m) {
    int v = 0;
    for (; m; m &= m - 1) v += VALUES[__builtin_ctzll(m) % 13];
    return v;
}

static int brute_rec(rk_mask rest, const rk_mask *melds, int n, const int *values) {
    if (!rest) return 0;
    rk_mask low = rest & -rest;
    int best = values[__builtin_ctzll(low) % 13] + brute_rec(rest & ~low, melds, n, values);
    for (int i = 0; i < n; i++)
        if ((melds[i] & low) && (melds[i] & rest) == melds[i]) {
            int v = brute_rec(rest & ~melds[i], melds, n, values);
            if (v < best) best = v;
        }
    return best;
}

static int brute_deadwood_values(rk_mask hand, rk_aces aces, const int *values) {
    rk_mask melds[2048];
    int n = brute_melds(hand, aces, melds);
    return brute_rec(hand, melds, n, values);
}

static int brute_deadwood(rk_mask hand, rk_aces aces) { return brute_deadwood_values(hand, aces, VALUES); }

/* ---- tests ---------------------------------------------------------- */

static rk_rules RULES[3];

static void test_worked_examples(void) {
    const rk_rules *r = &RULES[RK_ACES_LOW];
    CHECK(rk_deadwood(r, parse("2S 3S 4S 6H 6D 6C TH JH QH 9C")) == 9);
    CHECK(rk_deadwood(r, parse("KS KD KC 7D 8D 9D AH 4C TS QC")) == 25);
    CHECK(rk_deadwood(r, parse("AC 2C 3C 4H 4D 4S 7D 8D 9D TD")) == 0);
    CHECK(rk_deadwood(r, parse("KS KH KC 5C 6C 7C 8S 2D 3S 2H")) == 15);
    /* EX-G04: 11 cards, best discard 5S leaves 9, 4D leaves 10 */
    rk_mask g04 = parse("7S 8S 9S KC KD KH KS 2H 3C 4D 5S");
    int card, dw;
    int16_t after[52];
    CHECK(rk_deadwood(r, g04) == 14);
    CHECK(rk_best_discard(r, g04, -1, &card, &dw, after) == RK_OK);
    CHECK(dw == 9 && card == 13 * 3 + 4);
    CHECK(after[13 * 1 + 3] == 10 && after[13 * 3 + 4] == 9);
    CHECK(rk_best_discard(r, g04, 13 * 3 + 4, &card, &dw, NULL) == RK_OK);
    CHECK(dw == 10 && card == 13 * 1 + 3);
    /* ace modes */
    CHECK(rk_meld_kind_of(&RULES[RK_ACES_LOW], parse("QS KS AS")) == RK_MELD_NONE);
    CHECK(rk_meld_kind_of(&RULES[RK_ACES_HIGH], parse("QS KS AS")) == RK_MELD_RUN);
    CHECK(rk_meld_kind_of(&RULES[RK_ACES_BOTH], parse("QS KS AS")) == RK_MELD_RUN);
    CHECK(rk_meld_kind_of(&RULES[RK_ACES_HIGH], parse("AS 2S 3S")) == RK_MELD_NONE);
    for (int a = 0; a < 3; a++) CHECK(rk_meld_kind_of(&RULES[a], parse("KS AS 2S")) == RK_MELD_NONE);
    CHECK(rk_meld_kind_of(r, parse("7C 7D 7H 7S")) == RK_MELD_SET);
    CHECK(rk_meld_kind_of(r, parse("7C 7D")) == RK_MELD_NONE);
    /* EX-O02: lay-offs 24 -> 8 */
    rk_mask knocker[2] = {parse("7H 8H 9H TH"), parse("QC QD QS")};
    rk_layoff_result lr;
    CHECK(rk_layoff(r, knocker, 2, parse("9C TC JC 5S 5D 5C JH 6H 4C 4D"), &lr) == RK_OK);
    CHECK(lr.deadwood == 8 && lr.laid_off[0] == parse("JH 6H") && lr.laid_off[1] == 0);
    CHECK(lr.rest.deadwood == 8 && lr.rest.n_melds == 2);
    CHECK(rk_layoff_deadwood(r, knocker, 2, parse("9C TC JC 5S 5D 5C JH 6H 4C 4D")) == 8);
    CHECK(rk_layoff_deadwood(r, knocker, 2, parse("7H")) == RK_ERR_OVERLAP);
    /* EX-G01: no lay-off */
    rk_mask g01[3] = {parse("2S 3S 4S"), parse("6H 6D 6C"), parse("TH JH QH")};
    CHECK(rk_layoff(r, g01, 3, parse("KS KD KC 7D 8D 9D AH 4C TS QC"), &lr) == RK_OK);
    CHECK(lr.deadwood == 25 && lr.laid_off_all == 0);
}

static void test_knock_choice(void) {
    const rk_rules *r = &RULES[RK_ACES_LOW];
    /* Least deadwood shows A-2-3-4S (k 6) and the defender lays off 5S 6S;
     * showing 4S as deadwood (k 10) denies them: the better knock. */
    rk_mask knocker = parse("AS 2S 3S 4S 9D 9H 9C 2C AD 3H");
    rk_mask defender = parse("5S 6S TC JD QH KC 7C 8D 2D 4H");
    rk_knock_choice kc;
    CHECK(rk_choose_knock(r, knocker, defender, 10, 0, &kc) == RK_OK);
    CHECK(kc.knocker.deadwood == 10 && kc.defender.deadwood == 72 && kc.margin == 62);
    CHECK(kc.defender.laid_off_all == 0 && kc.n_candidates == 3);
    CHECK(rk_choose_knock(r, knocker, defender, 10, RK_KNOCK_MIN_DEADWOOD_ONLY, &kc) == RK_OK);
    CHECK(kc.knocker.deadwood == 6 && kc.defender.deadwood == 61 && kc.margin == 55);
    CHECK(kc.defender.laid_off_all == parse("5S 6S"));
    CHECK(rk_choose_knock(r, knocker, defender, 10, RK_KNOCK_NO_LAYOFFS, &kc) == RK_OK);
    CHECK(kc.knocker.deadwood == 6 && kc.defender.deadwood == 72);
    CHECK(rk_choose_knock(r, knocker, defender, 5, 0, &kc) == RK_ERR_NO_KNOCK);
    CHECK(rk_choose_knock(r, knocker, knocker, 10, 0, &kc) == RK_ERR_OVERLAP);
    /* gin: only gin arrangements, no lay-offs */
    CHECK(rk_choose_knock(r, parse("AS 2S 3S 4S 9D 9H 9C KS KD KH"), defender, 10, 0, &kc) == RK_OK);
    CHECK(kc.knocker.deadwood == 0 && kc.defender.deadwood == 72 && kc.defender.laid_off_all == 0);
}

static void test_random_against_brute_force(void) {
    for (int a = 0; a < 3; a++) {
        const rk_rules *r = &RULES[a];
        for (int i = 0; i < 6000; i++) {
            int size = i % 16;
            rk_mask h = (i & 1) ? dense_hand(size) : random_hand(size);
            int expect = brute_deadwood(h, (rk_aces)a);
            CHECK(rk_deadwood(r, h) == expect);
            rk_arrangement best;
            CHECK(rk_best_arrangement(r, h, &best) == RK_OK && best.deadwood == expect);
            rk_mask used = 0;
            for (int k = 0; k < best.n_melds; k++) {
                CHECK(rk_meld_kind_of(r, best.melds[k]) != RK_MELD_NONE);
                CHECK((used & best.melds[k]) == 0);
                used |= best.melds[k];
            }
            CHECK((used | best.deadwood_cards) == h && value_of(best.deadwood_cards) == expect);
            if (size >= 1) {
                int16_t after[52];
                int card, dw;
                CHECK(rk_best_discard(r, h, -1, &card, &dw, after) == RK_OK);
                int best_dw = 1 << 30;
                for (rk_mask b = h; b; b &= b - 1) {
                    int c = __builtin_ctzll(b);
                    int e = brute_deadwood(h & ~((rk_mask)1 << c), (rk_aces)a);
                    CHECK(after[c] == e);
                    if (e < best_dw) best_dw = e;
                }
                CHECK(dw == best_dw && after[card] == dw);
            }
        }
    }
}

static void test_large_hands(void) {
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 200; i++) {
            rk_mask h = random_hand(20 + (int)(next_random() % 33));
            int dw = rk_deadwood(&RULES[a], h);
            rk_arrangement best;
            CHECK(rk_best_arrangement(&RULES[a], h, &best) == RK_OK && best.deadwood == dw);
        }
    CHECK(rk_deadwood(&RULES[RK_ACES_LOW], RK_DECK_MASK) == 0);
}

/* Card values other than the default (a high ace, random values) change
 * which sets beat which runs: the fast path's set choices and bounds
 * depend on them.  Dense hands on any window of ranks, wrapping past the
 * king included. */
static void test_values_against_brute_force(void) {
    for (int trial = 0; trial < 6; trial++) {
        int values[13];
        uint8_t v8[13];
        for (int r = 0; r < 13; r++) {
            values[r] = trial < 3 ? (r == 0 ? 15 : VALUES[r]) : 1 + (int)(next_random() % 60);
            v8[r] = (uint8_t)values[r];
        }
        rk_aces aces = (rk_aces)(trial % 3);
        rk_rules rules;
        CHECK(rk_rules_init(&rules, aces, v8) == RK_OK);
        for (int i = 0; i < 1500; i++) {
            int size = 3 + i % 12, lo = (int)(next_random() % 13), width = 3 + (int)(next_random() % 3);
            rk_mask h = 0;
            if (size > 4 * width) size = 4 * width;
            while (__builtin_popcountll(h) < size)
                h |= (rk_mask)1 << (13 * (next_random() % 4) + (lo + next_random() % (unsigned)width) % 13);
            if (i % 4 == 0) h = random_hand(size);
            CHECK(rk_deadwood(&rules, h) == brute_deadwood_values(h, aces, values));
        }
    }
}

static void test_batches_and_errors(void) {
    const rk_rules *r = &RULES[RK_ACES_LOW];
    rk_mask hands[300];
    int16_t dw[300], dw2[300];
    int8_t card[300];
    for (int i = 0; i < 300; i++) hands[i] = (i & 1) ? dense_hand(11) : random_hand(11);
    CHECK(rk_deadwood_batch(r, hands, 300, dw, NULL) == RK_OK);
    CHECK(rk_best_discard_batch(r, hands, 300, dw2, card, NULL) == RK_OK);
    for (int i = 0; i < 300; i++) {
        int c, d;
        CHECK(dw[i] == rk_deadwood(r, hands[i]));
        CHECK(rk_best_discard(r, hands[i], -1, &c, &d, NULL) == RK_OK && c == card[i] && d == dw2[i]);
    }
    size_t bad = 0;
    hands[7] |= (rk_mask)1 << 60;
    CHECK(rk_deadwood_batch(r, hands, 300, dw, &bad) == RK_ERR_BAD_MASK && bad == 7);
    CHECK(rk_deadwood(r, (rk_mask)1 << 52) == RK_ERR_BAD_MASK);
    int c, d;
    CHECK(rk_best_discard(r, 0, -1, &c, &d, NULL) == RK_ERR_EMPTY);
    CHECK(rk_best_discard(r, parse("AS"), 39, &c, &d, NULL) == RK_ERR_EMPTY);
    CHECK(rk_best_discard(r, parse("AS"), 3, &c, &d, NULL) == RK_ERR_ARG);
    rk_mask bad_meld[1] = {parse("AS 2S 4S")};
    rk_layoff_result lr;
    CHECK(rk_layoff(r, bad_meld, 1, parse("3S"), &lr) == RK_ERR_BAD_MELD);
    rk_mask meld[1] = {parse("AS 2S 3S")};
    CHECK(rk_layoff(r, meld, 1, parse("3S"), &lr) == RK_ERR_OVERLAP);
    rk_rules tmp;
    uint8_t zero[13] = {0};
    CHECK(rk_rules_init(&tmp, RK_ACES_LOW, zero) == RK_ERR_ARG);
    CHECK(rk_rules_init(&tmp, (rk_aces)7, NULL) == RK_ERR_ARG);
    size_t count;
    rk_mask melds[8];
    CHECK(rk_enumerate_melds(r, parse("AS 2S 3S 4S"), melds, 8, &count) == RK_OK && count == 3);
    CHECK(rk_enumerate_melds(r, RK_DECK_MASK, melds, 8, &count) == RK_ERR_CAPACITY && count > 8);
}

static void test_arrangement_lists(void) {
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 1500; i++) {
            rk_mask h = dense_hand(6 + i % 8);
            size_t count;
            rk_arrangement out[512];
            int least = rk_deadwood(&RULES[a], h);
            rk_status st = rk_arrangements(&RULES[a], h, least + 5, out, 512, &count);
            CHECK(st == RK_OK || st == RK_ERR_CAPACITY);
            size_t n = count < 512 ? count : 512;
            for (size_t k = 0; k < n; k++) {
                CHECK(out[k].deadwood <= least + 5 && out[k].deadwood >= least);
                CHECK(value_of(out[k].deadwood_cards) == out[k].deadwood);
                for (size_t j = 0; j < k; j++) /* distinct */
                    CHECK(out[j].n_melds != out[k].n_melds ||
                          memcmp(out[j].melds, out[k].melds, sizeof(rk_mask) * (size_t)out[k].n_melds));
            }
            /* at most: the same first ones, and a stop at one more than fits */
            size_t cap = (size_t)(i % 9), got;
            rk_arrangement first[8];
            rk_status st2 = rk_arrangements_at_most(&RULES[a], h, least + 5, first, cap, &got);
            CHECK(st2 == (count > cap ? RK_ERR_CAPACITY : RK_OK) && got == (count > cap ? cap + 1 : count));
            for (size_t k = 0; k < cap && k < count && k < n; k++)
                CHECK(!memcmp(&first[k], &out[k], sizeof first[k]));
        }
    /* the whole deck: 313,457 optimal arrangements; at most 100 of them is quick */
    size_t count;
    rk_arrangement few[100];
    CHECK(rk_arrangements_at_most(&RULES[0], RK_DECK_MASK, -1, few, 100, &count) == RK_ERR_CAPACITY && count == 101);
    CHECK(rk_arrangements_at_most(&RULES[0], RK_DECK_MASK, -1, NULL, 0, &count) == RK_ERR_CAPACITY && count == 1);
    CHECK(rk_arrangements_at_most(&RULES[0], RK_DECK_MASK, -1, NULL, 5, &count) == RK_ERR_ARG);
}

/* tests/data/vectors.csv, shared with the Python tests */
static void test_vectors(const char *dir) {
    char path[4096], line[512];
    snprintf(path, sizeof path, "%s/vectors.csv", dir);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f) return;
    int rows = 0;
    CHECK(fgets(line, sizeof line, f) != NULL); /* header */
    while (fgets(line, sizeof line, f)) {
        char hand[256], aces[8], discard[4];
        int dw, after, card, got_dw;
        if (sscanf(line, "%255[^,],%7[^,],%d,%3[^,],%d", hand, aces, &dw, discard, &after) != 5) {
            CHECK(0);
            continue;
        }
        int mode = aces[0] == 'l' ? RK_ACES_LOW : aces[0] == 'h' ? RK_ACES_HIGH : RK_ACES_BOTH;
        rk_mask h = parse(hand);
        CHECK(rk_deadwood(&RULES[mode], h) == dw);
        CHECK(rk_best_discard(&RULES[mode], h, -1, &card, &got_dw, NULL) == RK_OK);
        CHECK((rk_mask)1 << card == parse(discard) && got_dw == after);
        rows++;
    }
    fclose(f);
    CHECK(rows == 1200);
}

int main(int argc, char **argv) {
    for (int a = 0; a < 3; a++) CHECK(rk_rules_init(&RULES[a], (rk_aces)a, NULL) == RK_OK);
    test_worked_examples();
    test_knock_choice();
    test_batches_and_errors();
    test_arrangement_lists();
    test_random_against_brute_force();
    test_large_hands();
    test_values_against_brute_force();
    if (argc > 1) test_vectors(argv[1]);
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("all C core checks passed\n");
    return 0;
}
