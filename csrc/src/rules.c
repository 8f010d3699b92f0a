/* Rules tables, card values, meld validity and meld enumeration. */
#include "internal.h"

static const uint8_t DEFAULT_VALUES[RK_NUM_RANKS] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};

/* A suit pattern as a linear sequence in which runs are contiguous bits:
 * ace-low order is the pattern itself; ace-high order moves the ace above
 * the king. */
static uint16_t to_high_order(uint16_t p) { return (uint16_t)((p >> 1) | ((p & 1u) << 12)); }
static uint16_t from_high_order(uint16_t q) { return (uint16_t)(((q << 1) & RK_SUIT_BITS) | (q >> 12)); }

/* Least deadwood of a linear sequence using runs only (v[i] = value at position i). */
static int linear_run_deadwood(uint16_t q, const int v[RK_NUM_RANKS]) {
    int best_from[RK_NUM_RANKS + 1];
    best_from[RK_NUM_RANKS] = 0;
    for (int i = RK_NUM_RANKS - 1; i >= 0; i--) {
        if (!((q >> i) & 1u)) {
            best_from[i] = best_from[i + 1];
            continue;
        }
        int best = v[i] + best_from[i + 1];
        for (int j = i; j < RK_NUM_RANKS && ((q >> j) & 1u); j++)
            if (j >= i + 2 && best_from[j + 1] < best) best = best_from[j + 1];
        best_from[i] = best;
    }
    return best_from[0];
}

static uint16_t linear_run_capable(uint16_t q) {
    unsigned w = q & (q >> 1) & (q >> 2);
    return (uint16_t)((w | (w << 1) | (w << 2)) & RK_SUIT_BITS);
}

rk_status rk_rules_init(rk_rules *rules, rk_aces aces, const uint8_t values[RK_NUM_RANKS]) {
    if (!rules || (aces != RK_ACES_LOW && aces != RK_ACES_HIGH && aces != RK_ACES_BOTH))
        return RK_ERR_ARG;
    if (!values) values = DEFAULT_VALUES;
    for (int r = 0; r < RK_NUM_RANKS; r++)
        if (values[r] == 0) return RK_ERR_ARG;
    rules->aces = aces;
    int low_v[RK_NUM_RANKS], high_v[RK_NUM_RANKS];
    for (int r = 0; r < RK_NUM_RANKS; r++) {
        rules->values[r] = values[r];
        low_v[r] = values[r];
        high_v[r] = values[(r + 1) % RK_NUM_RANKS];
    }
    for (unsigned p = 0; p < RK_SUIT_PATTERNS; p++) {
        int dw = RK_INF;
        uint16_t cap = 0;
        if (aces != RK_ACES_HIGH) {
            dw = linear_run_deadwood((uint16_t)p, low_v);
            cap |= linear_run_capable((uint16_t)p);
        }
        if (aces != RK_ACES_LOW) {
            uint16_t q = to_high_order((uint16_t)p);
            int h = linear_run_deadwood(q, high_v);
            if (h < dw) dw = h;
            cap |= from_high_order(linear_run_capable(q));
        }
        rules->run_deadwood[p] = (uint16_t)dw;
        rules->run_capable[p] = cap;
    }
    for (unsigned p = 0; p < RK_SUIT_PATTERNS; p++) {
        uint32_t best = UINT32_MAX;
        for (int r = 0; r < RK_NUM_RANKS; r++) {
            if (!((p >> r) & 1u)) continue;
            int gain = (int)rules->run_deadwood[p & ~(1u << r)] - (int)rules->run_deadwood[p];
            uint32_t key = ((uint32_t)(gain + RK_DROP_OFFSET) << 14) |
                           ((uint32_t)(255 - values[r]) << 6) | (uint32_t)(63 - r);
            if (key < best) best = key;
        }
        rules->drop_key[p] = best;
    }
    return RK_OK;
}

int rk_card_count(rk_mask mask) { return rk__popcount(mask); }

int rk_mask_value(const rk_rules *rules, rk_mask mask) {
    if (!rules) return RK_ERR_ARG;
    if (mask & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    int total = 0;
    for (rk_mask m = mask; m; m &= m - 1) total += rules->values[rk__ctz(m) % RK_NUM_RANKS];
    return total;
}

static int is_contiguous(unsigned q) { return q && (((q >> rk__ctz(q)) + 1) & (q >> rk__ctz(q))) == 0; }

rk_meld_kind rk_meld_kind_of(const rk_rules *rules, rk_mask mask) {
    if (!rules || (mask & ~RK_DECK_MASK)) return RK_MELD_NONE;
    int n = rk__popcount(mask);
    if (n < 3) return RK_MELD_NONE;
    rk_lanes l = rk__split(mask);
    if (n <= 4 && rk__popcount(l.s[0] | l.s[1] | l.s[2] | l.s[3]) == 1)
        return RK_MELD_SET;
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        if (l.s[s] == 0) continue;
        if (rk__join(l) != ((rk_mask)l.s[s] << (13 * s))) return RK_MELD_NONE; /* several suits */
        if (rules->aces != RK_ACES_HIGH && is_contiguous(l.s[s])) return RK_MELD_RUN;
        if (rules->aces != RK_ACES_LOW && is_contiguous(to_high_order(l.s[s]))) return RK_MELD_RUN;
        return RK_MELD_NONE;
    }
    return RK_MELD_NONE;
}

static void emit(rk_mask m, rk_mask *out, size_t capacity, size_t *n) {
    if (*n < capacity) out[*n] = m;
    (*n)++;
}

rk_status rk_enumerate_melds(const rk_rules *rules, rk_mask hand, rk_mask *out, size_t capacity,
                             size_t *count) {
    if (!rules || !count || (capacity && !out)) return RK_ERR_ARG;
    if (hand & ~RK_DECK_MASK) return RK_ERR_BAD_MASK;
    rk_lanes l = rk__split(hand);
    size_t n = 0;
    /* sets, by rank: the 4-set, then the 3-sets leaving out C, D, H, S */
    for (int r = 0; r < RK_NUM_RANKS; r++) {
        rk_mask rank_cards = 0;
        for (int s = 0; s < RK_NUM_SUITS; s++)
            if ((l.s[s] >> r) & 1u) rank_cards |= (rk_mask)1 << (13 * s + r);
        int c = rk__popcount(rank_cards);
        if (c >= 3) emit(rank_cards, out, capacity, &n);
        if (c == 4)
            for (rk_mask m = rank_cards; m; m &= m - 1) emit(rank_cards & ~(m & -m), out, capacity, &n);
    }
    /* runs, by suit, start and length: ace-low order, then the ace-high
     * runs not already listed */
    for (int s = 0; s < RK_NUM_SUITS; s++) {
        for (int order = 0; order < 2; order++) {
            if (order == 0 && rules->aces == RK_ACES_HIGH) continue;
            if (order == 1 && rules->aces == RK_ACES_LOW) continue;
            uint16_t q = order ? to_high_order(l.s[s]) : l.s[s];
            for (int i = 0; i < RK_NUM_RANKS; i++) {
                unsigned run = 0;
                for (int j = i; j < RK_NUM_RANKS && ((q >> j) & 1u); j++) {
                    run |= 1u << j;
                    if (j < i + 2) continue;
                    int len = j - i + 1;
                    /* in BOTH mode ace-high runs without the ace, and the
                     * full suit, are already listed in ace-low order */
                    if (order == 1 && rules->aces == RK_ACES_BOTH && (j != 12 || len == 13))
                        continue;
                    uint16_t p = order ? from_high_order((uint16_t)run) : (uint16_t)run;
                    emit((rk_mask)p << (13 * s), out, capacity, &n);
                }
            }
        }
    }
    *count = n;
    return n > capacity ? RK_ERR_CAPACITY : RK_OK;
}

const char *rk_status_message(rk_status status) {
    switch (status) {
    case RK_OK: return "ok";
    case RK_ERR_ARG: return "invalid argument";
    case RK_ERR_BAD_MASK: return "mask has bits outside the 52-card deck";
    case RK_ERR_BAD_MELD: return "not a valid set or run";
    case RK_ERR_OVERLAP: return "a card is used twice";
    case RK_ERR_CAPACITY: return "output buffer too small";
    case RK_ERR_EMPTY: return "no card to choose";
    case RK_ERR_NO_KNOCK: return "no arrangement within the knock limit";
    case RK_ERR_NO_MELD: return "the required card cannot be melded";
    }
    return "unknown status";
}
