/* The observation tensors of the knock and table games (rummykit/observe.h),
 * read by the scalar states and by rummykit.vector; tests/ checks them
 * against plain Python encoders. */
#include <string.h>

#include "knock_internal.h"
#include "rummykit/observe.h"

/* ---- knock games ----------------------------------------------------- */


static void plane(float *out, int start, rk_mask mask) {
    while (mask) {
        out[start + __builtin_ctzll(mask)] = 1.0f;
        mask &= mask - 1;
    }
}

/* The history planes of both families: ``recent`` is a state's [seats][RK_RECENT_KINDS][RK_RECENT]
 * array (entries card + 1, 0 for none; ``width`` cards a plane), ``starts`` the planes' slices by
 * kind.  Per kind and relative seat, a card's recency (RK_RECENT - j) / RK_RECENT for the seat's
 * j-th newest move of the kind on it (the newest if several). */
static void recent_planes(const uint8_t *recent, int n, int width, int player, const int *starts, float *out) {
    for (int k = 0; k < RK_RECENT_KINDS; k++)
        for (int r = 0; r < n; r++) {
            const uint8_t *moves = recent + ((size_t)((player + r) % n) * RK_RECENT_KINDS + (size_t)k) * RK_RECENT;
            float *at = out + starts[k] + r * width;
            for (int j = RK_RECENT - 1; j >= 0; j--) /* oldest first: the newest writes last */
                if (moves[j] > 0 && moves[j] <= width) at[moves[j] - 1] = (float)(RK_RECENT - j) / RK_RECENT;
        }
}

/* The knocker's shown melds as one mask (0 before a knock). */
static rk_status shown_mask(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *p, rk_mask *out) {
    int n = pr->num_players, k = p->n_shown < 0 ? 0 : p->n_shown > 4 ? 4 : p->n_shown;
    rk_mask hands[RK_MAX_PLAYERS];
    rk_arrangement a;
    *out = 0;
    if (p->knocker < 0 || p->phase < RK_PHASE_SHOWDOWN) return RK_OK;
    if (p->phase == RK_PHASE_SHOWDOWN || p->shown_given || !pr->auto_showdown) {
        for (int i = 0; i < k; i++) *out |= p->shown[i];
        return RK_OK;
    }
    for (int i = 0; i < n; i++) hands[i] = p->hands[(p->knocker + i) % n];
    rk_status st = rk_knock_arrangement(rules, pr, hands, p->upcard, p->big_gin, &a);
    if (st != RK_OK) return st;
    for (int i = 0; i < a.n_melds; i++) *out |= a.melds[i];
    return RK_OK;
}

/* Deadwood on the planes' scale: / 100, capped at 1 (eleven unmatched high cards pass 100). */
static float deadwood_scale(int deadwood) { return deadwood >= 100 ? 1.0f : (float)(deadwood / 100.0); }

/* The deadwood planes of the observer's hand (deadwood_scale): its least deadwood, the least after
 * taking the top discard t and discarding another card, per card c the least after discarding c,
 * the cards melded in every least-deadwood arrangement (discarding c saves less than c's value) and
 * rk_best_discard's card (not the card taken this turn). */
static rk_status hand_planes(const rk_rules *rules, const rk_position *p, rk_mask hand, float *out) {
    int16_t after[RK_NUM_CARDS];
    int card, least, forbidden = -1;
    if (!hand) return RK_OK;
    int deadwood = rk_deadwood(rules, hand);
    if (deadwood < 0) return (rk_status)deadwood;
    out[RK_KOBS_DEADWOOD] = deadwood_scale(deadwood);
    if (p->n_discards > 0) {
        int top = p->discards[p->n_discards - 1];
        if (top >= 0 && top < RK_NUM_CARDS && !((hand >> top) & 1) &&
            rk_best_discard(rules, hand | (rk_mask)1 << top, top, &card, &least, NULL) == RK_OK)
            out[RK_KOBS_TAKE_DW] = deadwood_scale(least);
    }
    if (p->taken >= 0 && p->taken < RK_NUM_CARDS && ((hand >> p->taken) & 1)) forbidden = p->taken;
    rk_status st = rk_best_discard(rules, hand, forbidden, &card, &least, after);
    if (st == RK_ERR_EMPTY) return RK_OK; /* only the taken card is held: no best discard */
    if (st != RK_OK) return st;
    out[RK_KOBS_BEST_DISCARD + card] = 1.0f;
    for (rk_mask m = hand; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        out[RK_KOBS_DISCARD_DW + c] = deadwood_scale(after[c]);
        if (after[c] > deadwood - rules->values[c % 13]) out[RK_KOBS_MELDED + c] = 1.0f;
    }
    return RK_OK;
}

/* rk_knock_observe on a position the engine made, under checked rules (rk_vector's rows). */
rk_status rk__knock_observe(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *p, int player,
                            float *out) {
    int n = pr->num_players;
    rk__limits limits = rk__limits_of(pr, p->upcard);
    rk_mask rest = 0, seen, table = 0, shown;
    rk_status st = shown_mask(rules, pr, p, &shown);
    if (st != RK_OK) return st;
    int showdown = p->phase == RK_PHASE_SHOWDOWN, end = p->phase == RK_PHASE_END;
    memset(out, 0, RK_KNOCK_OBS_SIZE * sizeof(float));
    if (!end) out[RK_KOBS_CUR + (p->player - player + n) % n] = 1.0f;
    out[RK_KOBS_DEALER + (p->dealer - player + n) % n] = 1.0f;
    out[RK_KOBS_NP + n - 2] = 1.0f;
    out[RK_KOBS_PHASE + (int)p->phase] = 1.0f;
    plane(out, RK_KOBS_HAND, p->hands[player]);
    if (p->n_discards > 0) {
        plane(out, RK_KOBS_TOP, (rk_mask)1 << p->discards[p->n_discards - 1]);
        for (int i = 0; i < p->n_discards - 1; i++) rest |= (rk_mask)1 << p->discards[i];
        plane(out, RK_KOBS_REST, rest);
    }
    plane(out, RK_KOBS_KSELF, p->known[player] & p->hands[player]);
    for (int r = 1; r < n; r++) {
        int q = (player + r) % n;
        plane(out, RK_KOBS_KOTHERS + (r - 1) * 52, p->known[q] & p->hands[q]);
        if (end || (showdown && q == p->knocker)) {
            seen = p->hands[q];
        } else {
            seen = p->known[q] & p->hands[q];
            if (showdown) seen |= p->used[q];
        }
        plane(out, RK_KOBS_SEEN + (r - 1) * 52, seen);
    }
    for (int r = 0; r < n; r++) out[RK_KOBS_SIZES + r] = (float)(rk_card_count(p->hands[(player + r) % n]) / 11.0);
    out[RK_KOBS_STOCK] = (float)(p->n_stock / 52.0);
    out[RK_KOBS_UP + p->upcard] = 1.0f;
    out[RK_KOBS_LIMIT] = (float)(limits.limit / 10.0);
    out[RK_KOBS_GIN] = (float)limits.gin_only;
    out[RK_KOBS_MULT] = (float)(limits.multiplier / 3.0);
    if (p->taken >= 0 && p->taken < RK_NUM_CARDS) out[RK_KOBS_TAKEN + p->taken] = 1.0f;
    if (p->set_aside >= 0 && p->set_aside < RK_NUM_CARDS) out[RK_KOBS_ASIDE + p->set_aside] = 1.0f;
    out[RK_KOBS_RESTOCKS] = (float)((p->restocks < 10 ? p->restocks : 10) / 10.0);
    if (p->knocker >= 0 && p->knocker < n) {
        out[RK_KOBS_KNOCKER + (p->knocker - player + n) % n] = 1.0f;
        /* the face-down knock card: to the knocker, at the end, or when the others saw it taken */
        if (p->knock_card >= 0 && p->knock_card < RK_NUM_CARDS &&
            (end || player == p->knocker || ((p->known[p->knocker] >> p->knock_card) & 1)))
            out[RK_KOBS_KCARD + p->knock_card] = 1.0f;
        if (!pr->auto_showdown) { /* the manual showdown, under way or over */
            int k = p->n_shown < 0 ? 0 : p->n_shown > 4 ? 4 : p->n_shown;
            plane(out, RK_KOBS_DECLARED, p->used[player]);
            for (int i = 0; i < k; i++) table |= p->table[i];
            plane(out, RK_KOBS_TABLE, table);
        }
        plane(out, RK_KOBS_SHOWN, shown);
    }
    recent_planes((const uint8_t *)p->recent, n, RK_NUM_CARDS, player,
                  (const int[]){RK_KOBS_RDISCARDS, RK_KOBS_RTAKES, RK_KOBS_RPASSES}, out);
    return hand_planes(rules, p, p->hands[player], out);
}


rk_status rk_knock_observe(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *p, int player,
                           float *out) {
    if (!rules || !pr || !p || !out || rk__knock_rules_check(pr) != RK_OK) return RK_ERR_ARG;
    int n = pr->num_players;
    if (player < 0 || player >= n || p->player < 0 || p->player >= n || p->dealer < 0 || p->dealer >= n ||
        (int)p->phase < 0 || p->phase > RK_PHASE_END || p->n_discards < 0 || p->n_discards > RK_NUM_CARDS ||
        p->upcard < 0 || p->upcard >= RK_NUM_CARDS)
        return RK_ERR_ARG;
    return rk__knock_observe(rules, pr, p, player, out);
}

/* ---- table games ----------------------------------------------------- */


#define TYPES RK_NUM_TYPES
#define JOKER_TYPE 52

static int ctype(int c) { return c >= RK_TABLE_FIRST_JOKER ? JOKER_TYPE : c % 52; }

static void type_counts(rk_table_cards c, int *counts) {
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = c.w[w]; bits; bits &= bits - 1) counts[ctype(64 * w + __builtin_ctzll(bits))]++;
}

static int card_count(rk_table_cards c) { return __builtin_popcountll(c.w[0]) + __builtin_popcountll(c.w[1]); }

/* The type card i of a table meld stands for (rummykit.table.melds.TableMeld.represents). */
static int represents(const rk_table_rules *r, const rk_table_meld *m, int i) {
    int k = 0, naturals = 0;
    if (m->kind != RK_MELD_SET) {
        int j = r->wrap ? (m->start + i) % 13 : m->start + i;
        return m->key * 13 + (j + r->shift) % 13;
    }
    if (m->cards[i] < RK_TABLE_FIRST_JOKER) return ctype(m->cards[i]);
    for (int j = 0; j < m->n_cards; j++) {
        if (m->cards[j] < RK_TABLE_FIRST_JOKER)
            naturals |= 1 << (m->cards[j] % 52 / 13);
        else if (j < i)
            k++;
    }
    for (int s = 0; s < 4; s++)
        if ((~naturals >> s) & 1) {
            if (k == 0) return s * 13 + m->key;
            k--;
        }
    return -1;
}

static void put(float *out, int start, const int *counts, const float *scale) {
    for (int k = 0; k < TYPES; k++)
        if (counts[k]) out[start + k] = (float)counts[k] * scale[k];
}

static void put8(float *out, int start, const uint8_t *counts, const float *scale) {
    for (int k = 0; k < TYPES; k++)
        if (counts[k]) out[start + k] = (float)counts[k] * scale[k];
}

rk_status rk_table_observe(const rk_table_rules *r, const rk_table_state *s, const uint8_t *known, int player,
                           float *out) {
    static const uint8_t zero[TYPES];
    int counts[TYPES], sets[TYPES], runs[TYPES], stands[TYPES], owned[RK_TABLE_MAX_PLAYERS][TYPES];
    float scale[TYPES];
    if (!r || !s || !out) return RK_ERR_ARG;
    int n = r->num_players;
    if (n < 2 || n > RK_TABLE_MAX_PLAYERS || player < 0 || player >= n || s->player < 0 || s->player >= n ||
        s->dealer < 0 || s->dealer >= n || s->phase < 0 || s->phase > RK_TABLE_PHASE_END || s->n_discards < 0 ||
        s->n_discards > RK_TABLE_MAX_CARDS || s->n_table < 0 || s->n_table > RK_TABLE_MAX_SLOTS)
        return RK_ERR_ARG;
    int over = s->phase == RK_TABLE_PHASE_END, jokers = r->kaluki ? r->deck_size - 104 : 0;
    memset(out, 0, RK_TABLE_OBS_SIZE * sizeof(float));
    for (int k = 0; k < 52; k++) scale[k] = (float)(1.0 / (r->kaluki ? 2 : 1));
    scale[JOKER_TYPE] = jokers > 0 ? (float)(1.0 / jokers) : 0.0f;
    if (!over) out[RK_TOBS_CUR + (s->player - player + n) % n] = 1.0f;
    out[RK_TOBS_DEALER + (s->dealer - player + n) % n] = 1.0f;
    out[RK_TOBS_NP + n - 2] = 1.0f;
    out[RK_TOBS_GAME + (r->kaluki ? 1 : 0)] = 1.0f;
    out[RK_TOBS_PHASE + s->phase] = 1.0f;
    memset(counts, 0, sizeof counts);
    type_counts(s->hands[player], counts);
    put(out, RK_TOBS_HAND, counts, scale);
    if (s->n_discards > 0) {
        int top = ctype(s->discards[s->n_discards - 1]);
        out[RK_TOBS_TOP + top] = 1.0f * scale[top];
        memset(counts, 0, sizeof counts);
        for (int i = 0; i < s->n_discards - 1; i++) counts[ctype(s->discards[i])]++;
        put(out, RK_TOBS_REST, counts, scale);
    }
    put8(out, RK_TOBS_KSELF, known ? known + TYPES * player : zero, scale);
    for (int rel = 1; rel < n; rel++) {
        int q = (player + rel) % n;
        const uint8_t *kq = known ? known + TYPES * q : zero;
        put8(out, RK_TOBS_KOTHERS + (rel - 1) * TYPES, kq, scale);
        if (over) {
            memset(counts, 0, sizeof counts);
            type_counts(s->hands[q], counts);
            put(out, RK_TOBS_SEEN + (rel - 1) * TYPES, counts, scale);
        } else {
            put8(out, RK_TOBS_SEEN + (rel - 1) * TYPES, kq, scale);
        }
    }
    for (int q = 0; q < n; q++) {
        int rel = (q - player + n) % n;
        out[RK_TOBS_SIZES + rel] = (float)(card_count(s->hands[q]) / 16.0);
        out[RK_TOBS_OPENED + rel] = (s->opened >> q) & 1 ? 1.0f : 0.0f;
        out[RK_TOBS_PLAYED + rel] = (s->played >> q) & 1 ? 1.0f : 0.0f;
    }
    out[RK_TOBS_STOCK] = (float)((double)s->n_stock / r->deck_size);
    out[RK_TOBS_RESTOCKS] = (float)((s->restocks < 10 ? s->restocks : 10) / 10.0);
    memset(sets, 0, sizeof sets);
    memset(runs, 0, sizeof runs);
    memset(stands, 0, sizeof stands);
    memset(owned, 0, sizeof owned);
    for (int i = 0; i < s->n_table; i++) {
        const rk_table_meld *m = &s->table[i];
        if (m->owner >= n || m->n_cards > RK_TABLE_MAX_MELD) continue;
        for (int v = 0; v < m->n_cards; v++) {
            int t = ctype(m->cards[v]);
            if (m->kind == RK_MELD_SET)
                sets[t]++;
            else
                runs[t]++;
            owned[m->owner][t]++;
            if (m->cards[v] >= RK_TABLE_FIRST_JOKER) {
                int q = represents(r, m, v);
                if (q >= 0 && q < JOKER_TYPE) stands[q]++;
            }
        }
    }
    put(out, RK_TOBS_SETS, sets, scale);
    put(out, RK_TOBS_RUNS, runs, scale);
    put(out, RK_TOBS_STANDS, stands, scale);
    for (int q = 0; q < n; q++) put(out, RK_TOBS_OWNED + (q - player + n) % n * TYPES, owned[q], scale);
    if (s->taken >= 0 && s->taken < TYPES) out[RK_TOBS_TAKEN + s->taken] = 1.0f;
    if (s->must >= 0 && s->must < TYPES) out[RK_TOBS_MUST + s->must] = 1.0f;
    out[RK_TOBS_OPEN_VALUE] = (float)((s->open_value < 100 ? s->open_value : 100) / 100.0);
    out[RK_TOBS_PENDING] = (float)(s->pending / 4.0);
    out[RK_TOBS_TURN_MELDS] = (float)((s->turn_melds < 10 ? s->turn_melds : 10) / 10.0);
    out[RK_TOBS_FRESH] = s->fresh ? 1.0f : 0.0f;
    out[RK_TOBS_BUILT] = s->built_other ? 1.0f : 0.0f;
    out[RK_TOBS_MIN] = r->kaluki ? (float)(r->initial_meld_min / 100.0) : 0.0f;
    out[RK_TOBS_TURNS] = (float)((s->turns < 1000 ? s->turns : 1000) / 1000.0);
    if (over && s->outcome != 0) {
        if (s->winner >= 0 && s->winner < n) out[RK_TOBS_WINNER + (s->winner - player + n) % n] = 1.0f;
        for (int q = 0; q < n; q++) {
            int v = 0;
            memset(counts, 0, sizeof counts);
            type_counts(s->hands[q], counts);
            for (int t = 0; t < TYPES; t++) v += counts[t] * r->values[t];
            out[RK_TOBS_VALUES + (q - player + n) % n] = (float)((v < 200 ? v : 200) / 200.0);
        }
    }
    recent_planes((const uint8_t *)s->recent, n, TYPES, player,
                  (const int[]){RK_TOBS_RDISCARDS, RK_TOBS_RTAKES, RK_TOBS_RPASSES}, out);
    return RK_OK;
}

static const int knock_starts[RK_KNOCK_OBS_SLICES + 1] = {
    RK_KOBS_CUR, RK_KOBS_DEALER, RK_KOBS_NP, RK_KOBS_PHASE, RK_KOBS_HAND, RK_KOBS_TOP, RK_KOBS_REST, RK_KOBS_KSELF,
    RK_KOBS_KOTHERS, RK_KOBS_SEEN, RK_KOBS_SIZES, RK_KOBS_STOCK, RK_KOBS_UP, RK_KOBS_LIMIT, RK_KOBS_GIN, RK_KOBS_MULT,
    RK_KOBS_TAKEN, RK_KOBS_ASIDE, RK_KOBS_RESTOCKS, RK_KOBS_KNOCKER, RK_KOBS_KCARD, RK_KOBS_DECLARED, RK_KOBS_TABLE,
    RK_KOBS_SHOWN, RK_KOBS_RDISCARDS, RK_KOBS_RTAKES, RK_KOBS_RPASSES, RK_KOBS_DEADWOOD, RK_KOBS_TAKE_DW,
    RK_KOBS_DISCARD_DW, RK_KOBS_MELDED, RK_KOBS_BEST_DISCARD, RK_KNOCK_OBS_SIZE};

static const int table_starts[RK_TABLE_OBS_SLICES + 1] = {
    RK_TOBS_CUR, RK_TOBS_DEALER, RK_TOBS_NP, RK_TOBS_GAME, RK_TOBS_PHASE, RK_TOBS_HAND, RK_TOBS_TOP, RK_TOBS_REST,
    RK_TOBS_KSELF, RK_TOBS_KOTHERS, RK_TOBS_SEEN, RK_TOBS_SIZES, RK_TOBS_STOCK, RK_TOBS_RESTOCKS, RK_TOBS_OPENED,
    RK_TOBS_PLAYED, RK_TOBS_SETS, RK_TOBS_RUNS, RK_TOBS_STANDS, RK_TOBS_OWNED, RK_TOBS_TAKEN, RK_TOBS_MUST,
    RK_TOBS_OPEN_VALUE, RK_TOBS_PENDING, RK_TOBS_TURN_MELDS, RK_TOBS_FRESH, RK_TOBS_BUILT, RK_TOBS_MIN, RK_TOBS_TURNS,
    RK_TOBS_WINNER, RK_TOBS_VALUES, RK_TOBS_RDISCARDS, RK_TOBS_RTAKES, RK_TOBS_RPASSES, RK_TABLE_OBS_SIZE};

const int *rk_knock_obs_starts(void) { return knock_starts; }

const int *rk_table_obs_starts(void) { return table_starts; }
