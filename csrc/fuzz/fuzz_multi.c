/* Multi-deck hands with jokers: rk_multi_rules_init, rk_multi_hand_check,
 * rk_multi_hand_from_counts, rk_multi_best (both objectives, with and
 * without a card that must be melded) and rk_multi_penalty.  Every meld
 * reported is checked against the definition (docs/rules.md, Card values and runs, Melds, Kaluki) and
 * the cards are conserved. */
#include "fuzz_common.h"

#define MAX_FUZZ_CARDS 18 /* rk_multi_best is meant for hands up to about 20 cards */

static int hand_cost(const rk_multi_rules *ru, rk_multi_hand h) {
    int total = h.jokers * ru->joker_penalty;
    for (rk_mask m = h.one; m; m &= m - 1) total += ru->values[rk__ctz(m) % RK_NUM_RANKS];
    for (rk_mask m = h.two; m; m &= m - 1) total += ru->values[rk__ctz(m) % RK_NUM_RANKS];
    return total;
}

/* Checks one meld and removes its cards from counts. */
static void check_meld(const rk_multi_rules *ru, const rk_multi_meld *m, uint8_t counts[RK_NUM_TYPES]) {
    int jokers = 0, naturals = 0, value = 0;
    FUZZ_CHECK(m->n_cards >= 3 && m->n_cards <= (m->kind == RK_MELD_SET ? 4 : RK_MULTI_MAX_MELD_CARDS));
    for (int k = 0; k < m->n_cards; k++) {
        int c = m->cards[k], t = m->represents[k];
        FUZZ_CHECK(t >= 0 && t < RK_NUM_CARDS);
        FUZZ_CHECK(c == RK_JOKER || c == t);
        FUZZ_CHECK(counts[c] > 0);
        counts[c]--;
        jokers += c == RK_JOKER;
        naturals += c != RK_JOKER;
        value += ru->values[t % RK_NUM_RANKS];
    }
    FUZZ_CHECK(jokers == m->n_jokers && naturals >= 1);
    if (m->kind == RK_MELD_SET) {
        int suits = 0;
        for (int k = 0; k < m->n_cards; k++) {
            FUZZ_CHECK(m->represents[k] % RK_NUM_RANKS == m->represents[0] % RK_NUM_RANKS);
            FUZZ_CHECK(!((suits >> (m->represents[k] / RK_NUM_RANKS)) & 1));
            suits |= 1 << (m->represents[k] / RK_NUM_RANKS);
        }
    } else {
        FUZZ_CHECK(m->kind == RK_MELD_RUN);
        int suit = m->represents[0] / RK_NUM_RANKS, first = m->represents[0] % RK_NUM_RANKS;
        int ace_low = first == 0 && m->represents[1] % RK_NUM_RANKS == 1;
        FUZZ_CHECK(!ace_low || ru->ace_low_runs);
        int pos0 = ace_low ? 0 : (first == 0 ? 13 : first); /* positions: ace 0 (low) or 13 (high) */
        for (int k = 0; k < m->n_cards; k++) {
            int t = m->represents[k], rank = t % RK_NUM_RANKS, want = pos0 + k;
            FUZZ_CHECK(t / RK_NUM_RANKS == suit && want <= 13);
            FUZZ_CHECK(rank == (want == 13 ? 0 : want));
        }
        if (ace_low) value -= ru->values[0] - 1; /* the bottom ace of A-2-3 counts 1 */
    }
    FUZZ_CHECK(m->value == value);
}

static void check_best(const rk_multi_rules *ru, rk_multi_hand h, const uint8_t counts[RK_NUM_TYPES],
                       const rk_multi_arrangement *a, int include) {
    uint8_t left[RK_NUM_TYPES];
    memcpy(left, counts, sizeof left);
    int value = 0, included = include < 0;
    FUZZ_CHECK(a->n_melds >= 0 && a->n_melds <= RK_MULTI_MAX_MELDS);
    for (int i = 0; i < a->n_melds; i++) {
        check_meld(ru, &a->melds[i], left);
        value += a->melds[i].value;
        for (int k = 0; k < a->melds[i].n_cards; k++) included |= a->melds[i].cards[k] == include;
    }
    FUZZ_CHECK(included && value == a->value);
    uint8_t reported[RK_NUM_TYPES];
    for (int t = 0; t < RK_NUM_CARDS; t++)
        reported[t] = (uint8_t)(((a->left.one >> t) & 1u) + ((a->left.two >> t) & 1u));
    reported[RK_JOKER] = (uint8_t)a->left.jokers;
    FUZZ_CHECK(!memcmp(reported, left, sizeof left));
    FUZZ_CHECK(rk_multi_hand_check(a->left) == RK_OK && a->penalty == hand_cost(ru, a->left));
    FUZZ_CHECK(a->penalty <= hand_cost(ru, h));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    static rk_multi_rules kaluki, custom;
    static int ready;
    if (!ready) {
        FUZZ_CHECK(rk_multi_rules_init(&kaluki, 0, 25, NULL) == RK_OK);
        ready = 1;
    }
    const rk_multi_rules *ru = &kaluki;
    uint8_t sel = rd_u8(&r);
    if (sel & 1u) {
        int ace_low = (int)(int8_t)rd_u8(&r) % 3, penalty = (int)(int16_t)(rd_u32(&r) & 0xFFFFu) % 300;
        uint8_t values[RK_NUM_RANKS];
        for (int i = 0; i < RK_NUM_RANKS; i++) values[i] = rd_u8(&r);
        rk_status st = rk_multi_rules_init(&custom, ace_low, penalty, (sel & 2u) ? values : NULL);
        int ok = (ace_low == 0 || ace_low == 1) && penalty >= 0 && penalty <= 255 &&
                 (!(sel & 2u) || !memchr(values, 0, sizeof values));
        FUZZ_CHECK(st == (ok ? RK_OK : RK_ERR_ARG));
        if (ok) ru = &custom;
    }

    /* counts: raw (bad counts included) or a small well-formed hand */
    uint8_t counts[RK_NUM_TYPES];
    memset(counts, 0, sizeof counts);
    int n_cards = 0, raw = (sel & 4u) != 0;
    size_t pairs = rd_u8(&r) % (MAX_FUZZ_CARDS + 1);
    for (size_t i = 0; i < pairs; i++) {
        int t = rd_u8(&r) % RK_NUM_TYPES;
        uint8_t c = rd_u8(&r);
        int cap = t == RK_JOKER ? RK_MULTI_MAX_JOKERS : 2;
        if (raw) {
            counts[t] = c;
        } else if (counts[t] < cap && n_cards < MAX_FUZZ_CARDS) {
            counts[t]++;
            n_cards++;
        }
    }
    rk_multi_hand h;
    rk_status st = rk_multi_hand_from_counts(counts, &h);
    int valid = counts[RK_JOKER] <= RK_MULTI_MAX_JOKERS;
    int total = counts[RK_JOKER];
    for (int t = 0; t < RK_NUM_CARDS; t++) valid &= counts[t] <= 2, total += counts[t];
    FUZZ_CHECK(st == (valid ? RK_OK : RK_ERR_BAD_MASK));
    if (!valid) return 0;
    FUZZ_CHECK(rk_multi_hand_check(h) == RK_OK);
    if (total > MAX_FUZZ_CARDS) return 0;

    /* a raw hand struct: the checks reject what the counts cannot express */
    rk_multi_hand odd = {rd_u64(&r), rd_u64(&r), (int)(int8_t)rd_u8(&r)};
    int odd_ok = !mask_bad(odd.one | odd.two) && !(odd.two & ~odd.one) && odd.jokers >= 0 &&
                 odd.jokers <= RK_MULTI_MAX_JOKERS;
    FUZZ_CHECK((rk_multi_hand_check(odd) == RK_OK) == odd_ok);
    if (!odd_ok) FUZZ_CHECK(rk_multi_penalty(ru, odd) == RK_ERR_BAD_MASK);

    rk_multi_arrangement by_penalty, by_value;
    FUZZ_CHECK(rk_multi_best(ru, h, RK_MULTI_PENALTY, -1, &by_penalty) == RK_OK);
    check_best(ru, h, counts, &by_penalty, -1);
    FUZZ_CHECK(rk_multi_penalty(ru, h) == by_penalty.penalty);
    FUZZ_CHECK(rk_multi_best(ru, h, RK_MULTI_VALUE, -1, &by_value) == RK_OK);
    check_best(ru, h, counts, &by_value, -1);
    FUZZ_CHECK(by_penalty.penalty <= by_value.penalty && by_value.value >= by_penalty.value);

    /* a card that must be melded: any type id, held or not */
    int include = (int)(int8_t)rd_u8(&r) % 60;
    rk_multi_arrangement with;
    st = rk_multi_best(ru, h, (rk_multi_objective)(sel >> 7), include, &with);
    int held = include >= 0 && include < RK_NUM_TYPES && counts[include] > 0;
    if (include == -1) {
        FUZZ_CHECK(st == RK_OK);
    } else if (!held) {
        FUZZ_CHECK(st == RK_ERR_ARG);
    } else if (st == RK_OK) {
        check_best(ru, h, counts, &with, include);
        if (sel >> 7 == RK_MULTI_PENALTY) FUZZ_CHECK(with.penalty >= by_penalty.penalty);
        else FUZZ_CHECK(with.value <= by_value.value);
    } else {
        FUZZ_CHECK(st == RK_ERR_NO_MELD);
    }
    return 0;
}
