/* C tests of the multi-deck (Kaluki) hand analysis, no Python: the worked
 * examples of docs/rules.md, Kaluki examples, every reported meld checked from first
 * principles, and an independent brute force (every meld with every joker
 * placement, then every disjoint collection) on random small hands. */
#include "rummykit/rummykit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "internal.h" /* rk__multi_reaches, the opening test of the table engine */

static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";

/* "QS KS Jk 5H 5H" -> counts */
static void parse(const char *text, uint8_t counts[RK_NUM_TYPES]) {
    memset(counts, 0, RK_NUM_TYPES);
    for (const char *p = text; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        if (p[0] == 'J' && p[1] == 'k') {
            counts[RK_JOKER]++;
        } else {
            int r = (int)(strchr(RANKS, p[0]) - RANKS), s = (int)(strchr(SUITS, p[1]) - SUITS);
            counts[13 * s + r]++;
        }
        p += 2;
    }
}

static rk_multi_hand hand_of(const char *text) {
    uint8_t c[RK_NUM_TYPES];
    rk_multi_hand h;
    parse(text, c);
    if (rk_multi_hand_from_counts(c, &h) != RK_OK) abort();
    return h;
}

static int type_of(const char *card) {
    return 13 * (int)(strchr(SUITS, card[1]) - SUITS) + (int)(strchr(RANKS, card[0]) - RANKS);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* size cards from two decks plus `jokers` jokers; `span` > 0 keeps the
 * naturals on `span` adjacent ranks (dense: many melds) */
static void random_counts(uint8_t c[RK_NUM_TYPES], int naturals, int jokers, int span) {
    memset(c, 0, RK_NUM_TYPES);
    int lo = (int)(next_random() % 13);
    for (int k = 0; k < naturals;) {
        int t = (int)(next_random() % 52);
        if (span) t = 13 * (int)(next_random() % 4) + (lo + (int)(next_random() % (unsigned)span)) % 13;
        if (c[t] < 2) c[t]++, k++;
    }
    c[RK_JOKER] = (uint8_t)jokers;
}

/* ---- first-principles checks ------------------------------------------ */

static int value_of_pos(const rk_multi_rules *ru, int q) { return q == 0 ? 1 : ru->values[q == 13 ? 0 : q]; }

/* opening value of a meld if valid (kind, cards, represents), else -1 */
static int check_meld(const rk_multi_rules *ru, const rk_multi_meld *m) {
    int n = m->n_cards, naturals = 0, jokers = 0;
    if (n < 3 || n > 13) return -1;
    for (int i = 0; i < n; i++) {
        if (m->represents[i] < 0 || m->represents[i] >= 52) return -1;
        if (m->cards[i] == RK_JOKER)
            jokers++;
        else if (m->cards[i] != m->represents[i])
            return -1;
        else
            naturals++;
    }
    if (naturals == 0 || jokers != m->n_jokers) return -1;
    int value = 0;
    if (m->kind == RK_MELD_SET) {
        if (n > 4) return -1;
        unsigned suits = 0;
        for (int i = 0; i < n; i++) {
            if (m->represents[i] % 13 != m->represents[0] % 13) return -1;
            unsigned b = 1u << (m->represents[i] / 13);
            if (suits & b) return -1; /* two cards of one suit (duplicates included) */
            suits |= b;
            value += ru->values[m->represents[0] % 13];
        }
        return value;
    }
    if (m->kind != RK_MELD_RUN) return -1;
    /* positions: an ace is 0 at the start of a run starting A-2, else 13 */
    int s = m->represents[0] / 13;
    int first = m->represents[0] % 13;
    int q0 = first == 0 && n >= 2 && m->represents[1] % 13 == 1 ? 0 : (first == 0 ? 13 : first);
    if (q0 == 0 && !ru->ace_low_runs) return -1;
    for (int i = 0; i < n; i++) {
        int q = q0 + i;
        if (q > 13 || m->represents[i] / 13 != s || m->represents[i] % 13 != (q == 13 ? 0 : q)) return -1;
        value += value_of_pos(ru, q);
    }
    return value;
}

static int hand_penalty(const rk_multi_rules *ru, const uint8_t c[RK_NUM_TYPES]) {
    int p = c[RK_JOKER] * ru->joker_penalty;
    for (int t = 0; t < 52; t++) p += c[t] * ru->values[t % 13];
    return p;
}

/* every reported meld valid, drawn from the hand; value, penalty, left add up */
static void check_arrangement(const rk_multi_rules *ru, const uint8_t hand[RK_NUM_TYPES],
                              const rk_multi_arrangement *a) {
    uint8_t left[RK_NUM_TYPES];
    memcpy(left, hand, RK_NUM_TYPES);
    int value = 0;
    for (int i = 0; i < a->n_melds; i++) {
        int v = check_meld(ru, &a->melds[i]);
        CHECK(v >= 0 && v == a->melds[i].value);
        value += a->melds[i].value;
        for (int k = 0; k < a->melds[i].n_cards; k++) {
            int t = a->melds[i].cards[k];
            CHECK(t >= 0 && t <= RK_JOKER && left[t] > 0);
            if (t >= 0 && t <= RK_JOKER && left[t] > 0) left[t]--;
        }
    }
    CHECK(value == a->value);
    CHECK(hand_penalty(ru, left) == a->penalty);
    rk_multi_hand lh;
    CHECK(rk_multi_hand_from_counts(left, &lh) == RK_OK);
    CHECK(lh.one == a->left.one && lh.two == a->left.two && lh.jokers == a->left.jokers);
}

/* ---- independent brute force -------------------------------------------- */

typedef struct bmeld {
    int8_t types[13];
    int n, jokers, value, saved;
} bmeld;

#define BMAX 20000
static bmeld bm[BMAX];
static int n_bm;

static void add_meld(const rk_multi_rules *ru, const int8_t *types, int n, int jokers, int value) {
    if (n == 0 || n_bm >= BMAX) return;
    bmeld *m = &bm[n_bm++];
    memcpy(m->types, types, (size_t)n);
    m->n = n;
    m->jokers = jokers;
    m->value = value;
    m->saved = jokers * ru->joker_penalty;
    for (int i = 0; i < n; i++) m->saved += ru->values[types[i] % 13];
}

/* every meld in the hand, every joker placement (duplicates are harmless) */
static void enumerate(const rk_multi_rules *ru, const uint8_t c[RK_NUM_TYPES]) {
    n_bm = 0;
    int J = c[RK_JOKER];
    for (int r = 0; r < 13; r++)
        for (unsigned suits = 1; suits < 16; suits++) {
            int8_t t[4];
            int n = 0;
            for (int s = 0; s < 4; s++)
                if ((suits >> s) & 1u) t[n++] = (int8_t)(13 * s + r);
            int ok = 1;
            for (int i = 0; i < n; i++) ok &= c[t[i]] > 0;
            if (!ok) continue;
            for (int j = 0; j <= J && n + j <= 4; j++)
                if (n + j >= 3) add_meld(ru, t, n, j, (n + j) * ru->values[r]);
        }
    for (int s = 0; s < 4; s++)
        for (int lo = ru->ace_low_runs ? 0 : 1; lo <= 13; lo++)
            for (int hi = lo + 2; hi <= 13 && hi - lo + 1 <= 13; hi++) {
                int L = hi - lo + 1;
                unsigned present = 0; /* bit i: natural at lo + i held */
                for (int i = 0; i < L; i++) {
                    int q = lo + i;
                    if (c[13 * s + (q == 13 ? 0 : q)]) present |= 1u << i;
                }
                for (unsigned pick = present; pick; pick = (pick - 1) & present) {
                    int8_t t[13];
                    int n = 0, ok = 1, value = 0;
                    for (int i = 0; i < L; i++) {
                        int q = lo + i, type = 13 * s + (q == 13 ? 0 : q);
                        value += value_of_pos(ru, q);
                        if ((pick >> i) & 1u) {
                            ok &= c[type] > 0;
                            t[n++] = (int8_t)type;
                        }
                    }
                    if (ok && L - n <= J) add_meld(ru, t, n, L - n, value);
                }
            }
}

static long long brute_best;
static int brute_include;

/* lowest natural left in hand, or placed in a meld containing it */
static void brute(uint8_t c[RK_NUM_TYPES], int J, long long cur, int inc, int objective, int used_first) {
    int x = used_first;
    while (x < 52 && !c[x]) x++;
    if (x == 52) {
        if (inc && cur > brute_best) brute_best = cur;
        return;
    }
    for (int i = 0; i < n_bm; i++) {
        const bmeld *m = &bm[i];
        int has = 0, ok = m->jokers <= J;
        for (int k = 0; k < m->n; k++) has |= m->types[k] == x;
        if (!has || !ok) continue;
        for (int k = 0; k < m->n; k++) ok &= c[m->types[k]] > 0;
        if (!ok) continue;
        int inc2 = inc || (brute_include == RK_JOKER && m->jokers > 0);
        for (int k = 0; k < m->n; k++) c[m->types[k]]--, inc2 |= m->types[k] == brute_include;
        long long w = objective == RK_MULTI_PENALTY ? (long long)m->saved * 100000 + m->value
                                                    : (long long)m->value * 100000 + m->saved;
        brute(c, J - m->jokers, cur + w, inc2, objective, x);
        for (int k = 0; k < m->n; k++) c[m->types[k]]++;
    }
    if (x != brute_include || inc) {
        int keep = c[x];
        c[x] = 0;
        brute(c, J, cur, inc, objective, x + 1);
        c[x] = (uint8_t)keep;
    }
}

/* (primary, secondary) of the best, or -1 when include cannot be melded */
static long long brute_force(const rk_multi_rules *ru, const uint8_t hand[RK_NUM_TYPES], int objective,
                             int include) {
    uint8_t c[RK_NUM_TYPES];
    memcpy(c, hand, RK_NUM_TYPES);
    enumerate(ru, c);
    brute_best = -1;
    brute_include = include;
    brute(c, c[RK_JOKER], 0, include < 0, objective, 0);
    return brute_best;
}

/* ---- tests -------------------------------------------------------------- */

static rk_multi_rules R_DEFAULT, R_LOW, R_25;

static int best_value(const rk_multi_rules *ru, const char *text, int include) {
    rk_multi_arrangement a;
    rk_status st = rk_multi_best(ru, hand_of(text), RK_MULTI_VALUE, include, &a);
    if (st == RK_ERR_NO_MELD) return -1;
    CHECK(st == RK_OK);
    uint8_t c[RK_NUM_TYPES];
    parse(text, c);
    check_arrangement(ru, c, &a);
    return a.value;
}

static void test_worked_examples(void) {
    /* EX-K02 */
    CHECK(best_value(&R_DEFAULT, "TS JS QS 5H 5D 5C", -1) == 45);
    CHECK(best_value(&R_DEFAULT, "TS JS QS 3H 3D 3C", -1) == 39);
    CHECK(best_value(&R_DEFAULT, "QS KS Jk 3H 3D 3C", -1) == 40);
    CHECK(best_value(&R_DEFAULT, "7C 8C 9C", -1) == 24);
    CHECK(best_value(&R_DEFAULT, "QH KH AH", -1) == 31);
    CHECK(best_value(&R_DEFAULT, "AD 2D 3D", -1) == 0);
    CHECK(best_value(&R_LOW, "AD 2D 3D", -1) == 6);
    /* EX-K03: the discard 9H must be used */
    CHECK(best_value(&R_DEFAULT, "9H 9S 9D JC QC KC", type_of("9H")) == 57);
    CHECK(best_value(&R_DEFAULT, "9H 9S 9D 2C 3C 4C", type_of("9H")) == 36);
    CHECK(best_value(&R_DEFAULT, "9H JC QC KC 8S 8D 8H", type_of("9H")) == -1);
    CHECK(best_value(&R_DEFAULT, "9H JC QC KC 8S 8D 8H", -1) == 54);
    /* the joker run is reported with its identity */
    rk_multi_arrangement a;
    CHECK(rk_multi_best(&R_DEFAULT, hand_of("QS KS Jk 3H 3D 3C"), RK_MULTI_VALUE, -1, &a) == RK_OK);
    CHECK(a.n_melds == 2 && a.melds[1].kind == RK_MELD_RUN && a.melds[1].cards[2] == RK_JOKER &&
          a.melds[1].represents[2] == type_of("AS"));
    /* EX-K07: penalties in hand */
    CHECK(rk_multi_penalty(&R_DEFAULT, hand_of("KS 7D Jk")) == 32);
    CHECK(rk_multi_penalty(&R_25, hand_of("KS 7D Jk")) == 42);
    CHECK(rk_multi_penalty(&R_DEFAULT, hand_of("AH 3C")) == 14);
    /* duplicates never share a set; two copies of a run are two runs */
    CHECK(rk_multi_penalty(&R_DEFAULT, hand_of("5H 5H 5D")) == 15);
    CHECK(rk_multi_penalty(&R_DEFAULT, hand_of("5H 6H 7H 5H 6H 7H")) == 0);
    CHECK(rk_multi_penalty(&R_DEFAULT, hand_of("Jk Jk")) == 30);
    CHECK(rk_multi_penalty(&R_DEFAULT, hand_of("KC Jk Jk")) == 0);
    /* a 13-card run is full, but the joker splits it in two */
    CHECK(rk_multi_penalty(&R_DEFAULT, hand_of("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC Jk")) == 0);
    /* a 4-card set is full: the joker stands in for a natural card, which stays in hand */
    CHECK(rk_multi_penalty(&R_DEFAULT, hand_of("5C 5D 5H 5S Jk")) == 5);
    CHECK(best_value(&R_DEFAULT, "5C 5D 5H 5S Jk", -1) == 20);
}

static void test_errors(void) {
    rk_multi_arrangement a;
    rk_multi_hand bad = {1, 2, 0}, h = hand_of("5H 6H 7H");
    CHECK(rk_multi_best(&R_DEFAULT, bad, RK_MULTI_VALUE, -1, &a) == RK_ERR_BAD_MASK);
    bad.two = 0;
    bad.jokers = 5;
    CHECK(rk_multi_penalty(&R_DEFAULT, bad) == RK_ERR_BAD_MASK);
    CHECK(rk_multi_best(&R_DEFAULT, h, (rk_multi_objective)7, -1, &a) == RK_ERR_ARG);
    CHECK(rk_multi_best(&R_DEFAULT, h, RK_MULTI_VALUE, 0, &a) == RK_ERR_ARG);
    CHECK(rk_multi_best(&R_DEFAULT, h, RK_MULTI_VALUE, RK_JOKER, &a) == RK_ERR_ARG);
    CHECK(rk_multi_best(NULL, h, RK_MULTI_VALUE, -1, &a) == RK_ERR_ARG);
    rk_multi_rules r;
    CHECK(rk_multi_rules_init(&r, 2, 15, NULL) == RK_ERR_ARG);
    CHECK(rk_multi_rules_init(&r, 0, 256, NULL) == RK_ERR_ARG);
    uint8_t rows[2 * RK_NUM_TYPES] = {0};
    int32_t out[2];
    size_t bad_index = 99;
    rows[RK_NUM_TYPES + 3] = 3;
    CHECK(rk_multi_penalty_batch(&R_DEFAULT, rows, 2, out, &bad_index) == RK_ERR_BAD_MASK && bad_index == 1);
}

/* rk__multi_reaches(need) says whether the best value (brute force) is need or more; the cards
 * it leaves are the hand's. */
static void check_reaches(const rk_multi_rules *ru, rk_multi_hand h, int include, int best) {
    int needs[5] = {0, 1, best - 1, best, best + 1};
    for (int k = 0; k < 5; k++) {
        rk_multi_hand left;
        int reached = rk__multi_reaches(ru, h, include, needs[k], &left);
        CHECK(reached == (best >= needs[k]));
        CHECK(rk__multi_reaches(ru, h, include, needs[k], NULL) == reached);
        if (reached)
            CHECK(!(left.one & ~h.one) && !(left.two & ~h.two) && !(left.two & ~left.one) && left.jokers >= 0 &&
                  left.jokers <= h.jokers);
    }
}

static void test_against_brute_force(void) {
    const rk_multi_rules *rules[3] = {&R_DEFAULT, &R_LOW, &R_25};
    for (int i = 0; i < 600; i++) {
        uint8_t c[RK_NUM_TYPES];
        int naturals = 1 + (int)(next_random() % 9), jokers = (int)(next_random() % 3);
        if (i % 10 == 0) jokers = 3 + (int)(next_random() % 2);
        random_counts(c, naturals, jokers, i % 2 ? 3 + (int)(next_random() % 3) : 0);
        const rk_multi_rules *ru = rules[i % 3];
        rk_multi_hand h;
        CHECK(rk_multi_hand_from_counts(c, &h) == RK_OK);
        int total = hand_penalty(ru, c);
        for (int objective = 0; objective < 2; objective++) {
            int include = -1;
            if (i % 4 >= 2) { /* a held type, or any joker */
                int held[RK_NUM_TYPES], n = 0;
                for (int t = 0; t <= RK_JOKER; t++)
                    if (c[t]) held[n++] = t;
                include = held[next_random() % (unsigned)n];
            }
            long long expect = brute_force(ru, c, objective, include);
            rk_multi_arrangement a;
            rk_status st = rk_multi_best(ru, h, (rk_multi_objective)objective, include, &a);
            if (expect < 0) {
                CHECK(st == RK_ERR_NO_MELD);
                CHECK(!rk__multi_reaches(ru, h, include, 0, NULL));
                continue;
            }
            CHECK(st == RK_OK);
            if (st != RK_OK) continue;
            check_arrangement(ru, c, &a);
            long long saved = total - a.penalty;
            long long got = objective == RK_MULTI_PENALTY ? saved * 100000 + a.value : a.value * 100000LL + saved;
            CHECK(got == expect);
            if (got != expect) fprintf(stderr, "  hand %d objective %d include %d: %lld != %lld\n", i, objective,
                                       include, got, expect);
            if (objective == RK_MULTI_VALUE) check_reaches(ru, h, include, (int)(expect / 100000));
            if (objective == RK_MULTI_PENALTY && include < 0) CHECK(rk_multi_penalty(ru, h) == a.penalty);
        }
    }
}

static void test_batch(void) {
    enum { N = 200 };
    static uint8_t rows[N * RK_NUM_TYPES];
    int32_t out[N];
    for (int i = 0; i < N; i++) random_counts(rows + i * RK_NUM_TYPES, 12, 2, i % 2 ? 4 : 0);
    CHECK(rk_multi_penalty_batch(&R_DEFAULT, rows, N, out, NULL) == RK_OK);
    for (int i = 0; i < N; i++) {
        rk_multi_hand h;
        rk_multi_arrangement a;
        CHECK(rk_multi_hand_from_counts(rows + i * RK_NUM_TYPES, &h) == RK_OK);
        CHECK(rk_multi_best(&R_DEFAULT, h, RK_MULTI_PENALTY, -1, &a) == RK_OK);
        check_arrangement(&R_DEFAULT, rows + i * RK_NUM_TYPES, &a);
        CHECK(out[i] == a.penalty);
    }
}

int main(void) {
    if (rk_multi_rules_init(&R_DEFAULT, 0, 15, NULL) != RK_OK || rk_multi_rules_init(&R_LOW, 1, 15, NULL) != RK_OK ||
        rk_multi_rules_init(&R_25, 0, 25, NULL) != RK_OK)
        return 1;
    test_worked_examples();
    test_errors();
    test_against_brute_force();
    test_batch();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all multideck tests passed\n");
    return 0;
}
