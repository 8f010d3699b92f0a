/* Table-game determinization and playouts (rummykit/table_playouts.h). */
#include "rummykit/table_playouts.h"

#include <string.h>

#include "table_internal.h"

#define NEVER INT32_MAX
#define OPEN 255


/* ---- checks ----------------------------------------------------------- */

rk_status rk_table_hidden_check(const rk_table_rules *r, const rk_table_state *s, const rk_table_hidden *h) {
    if (!h) return RK_OK;
    if (!r || !s || s->n_players != r->num_players) return RK_ERR_ARG;
    int n = r->num_players;
    if (h->mode != RK_TABLE_RESAMPLE_STOCK && h->mode != RK_TABLE_RESAMPLE_HIDDEN) return RK_ERR_ARG;
    if (h->observer < 0 || h->observer >= n || h->n_groups < 0 || h->n_places < 0 || h->n_fills < 0 ||
        h->n_bans < 0 || h->stock_group < -1 || h->stock_group >= (h->n_groups > 1 ? h->n_groups : 1))
        return RK_ERR_ARG;
    if (h->mode == RK_TABLE_RESAMPLE_STOCK) return RK_OK;
    if (h->n_groups < 1 || h->n_groups > 1 << 16 || h->n_places > 1 << 20 || h->n_fills > 1 << 20 ||
        h->n_bans > 1 << 20 || !h->pool || (h->n_places && (!h->place_seat || !h->place_group || !h->place_time)) ||
        (h->n_fills && (!h->fill_seat || !h->fill_type || !h->fill_time)) ||
        (h->n_bans && (!h->ban_seat || !h->ban_type || !h->ban_time)))
        return RK_ERR_ARG;
    /* every place takes one card of its group, and the stock group fills the stock */
    for (int g = 0; g < h->n_groups; g++) {
        long cards = 0, slots = g == h->stock_group ? s->n_stock : 0;
        for (int t = 0; t < RK_NUM_TYPES; t++) cards += h->pool[g * RK_NUM_TYPES + t];
        for (int i = 0; i < h->n_places; i++) slots += h->place_group[i] == g;
        if (cards != slots || cards > RK_TABLE_MAX_CARDS) return RK_ERR_ARG; /* w.cards holds one group */
    }
    int hidden[RK_TABLE_MAX_PLAYERS] = {0}; /* places per seat */
    for (int i = 0; i < h->n_places; i++) {
        if (h->place_seat[i] >= n || h->place_seat[i] == h->observer || h->place_group[i] >= h->n_groups ||
            h->place_time[i] < -1)
            return RK_ERR_ARG;
        hidden[h->place_seat[i]]++;
    }
    for (int i = 0; i < h->n_fills; i++) {
        if (h->fill_seat[i] >= n || h->fill_seat[i] == h->observer || h->fill_type[i] >= RK_NUM_TYPES ||
            (i && h->fill_time[i] < h->fill_time[i - 1]))
            return RK_ERR_ARG;
        if (h->fill_time[i] < h->now) hidden[h->fill_seat[i]]--; /* played; shown cards stay */
    }
    for (int i = 0; i < h->n_bans; i++)
        if (h->ban_seat[i] >= n || h->ban_type[i] >= RK_NUM_TYPES) return RK_ERR_ARG;
    /* each other seat holds its known cards and one card per open place */
    for (int q = 0; q < n; q++) {
        if (q == h->observer) continue;
        int counts[RK_NUM_TYPES] = {0}, held = 0, known = 0;
        for (int c = 0; c < RK_TABLE_MAX_CARDS; c++)
            if (has_card(s->hands[q], c)) {
                counts[card_type(c)]++;
                held++;
            }
        for (int t = 0; t < RK_NUM_TYPES; t++) {
            if (h->known[q][t] > counts[t]) return RK_ERR_ARG;
            known += h->known[q][t];
        }
        if (held != known + hidden[q]) return RK_ERR_ARG;
    }
    return RK_OK;
}

/* The work buffer: the pool counts, the type of each place, a list of indices and a card list. */
typedef struct work {
    uint8_t *pool;   /* n_groups * 53 */
    uint8_t *card;   /* n_places: OPEN or the type */
    int32_t *fits;   /* n_places */
    uint8_t *cards;  /* RK_TABLE_MAX_CARDS */
} work;

size_t rk_table_work_size(const rk_table_hidden *h) {
    if (!h || h->mode != RK_TABLE_RESAMPLE_HIDDEN || h->n_groups < 0 || h->n_places < 0) return 0;
    return (size_t)h->n_places * (sizeof(int32_t) + 1) + (size_t)h->n_groups * RK_NUM_TYPES + RK_TABLE_MAX_CARDS;
}

static work work_of(const rk_table_hidden *h, void *buf) {
    work w;
    w.fits = buf; /* the int32 list first: malloc'd buffers are aligned for it */
    w.pool = (uint8_t *)buf + (size_t)h->n_places * sizeof(int32_t);
    w.card = w.pool + (size_t)h->n_groups * RK_NUM_TYPES;
    w.cards = w.card + h->n_places;
    return w;
}

/* ---- sampling (observe._Places) ----------------------------------------- */

/* Whether place i may hold type t from its time until `until` (no ban of its seat in between). */
static int allowed(const rk_table_hidden *h, int i, int t, int32_t until) {
    int seat = h->place_seat[i];
    int32_t from = h->place_time[i];
    for (int b = 0; b < h->n_bans; b++)
        if (h->ban_type[b] == t && h->ban_seat[b] == seat && from < h->ban_time[b] && h->ban_time[b] < until)
            return 0;
    return 1;
}

/* One sample of the places and the stock (types, top first, in w.cards[0 .. *n_stock - 1]);
 * 0 if it ran out of places, -1 if the counts do not fit (rk_table_hidden_check). */
static int sample(const rk_table_hidden *h, rk_rng *rng, work *w, int *n_stock, int state_stock) {
    memcpy(w->pool, h->pool, (size_t)h->n_groups * RK_NUM_TYPES);
    memset(w->card, OPEN, (size_t)h->n_places);
    for (int f = 0; f < h->n_fills; f++) {
        int seat = h->fill_seat[f], t = h->fill_type[f], k = 0;
        int32_t time = h->fill_time[f];
        for (int i = 0; i < h->n_places; i++)
            if (h->place_seat[i] == seat && w->card[i] == OPEN && h->place_time[i] < time &&
                w->pool[h->place_group[i] * RK_NUM_TYPES + t] && allowed(h, i, t, time))
                w->fits[k++] = i;
        if (!k) return 0;
        int i = w->fits[rk_rng_below(rng, (uint32_t)k)];
        w->card[i] = (uint8_t)(time < h->now ? t : t | 0x80); /* a shown card is still held */
        w->pool[h->place_group[i] * RK_NUM_TYPES + t]--;
    }
    /* each group's cards left go to its open places (the cards held now), the stock group's
     * last so that its leftover, the stock, stays in w->cards */
    int n = 0;
    for (int x = 0; x < h->n_groups; x++) {
        int g = h->stock_group < 0 ? x : (h->stock_group + 1 + x) % h->n_groups, k = 0;
        n = 0;
        for (int t = 0; t < RK_NUM_TYPES; t++)
            for (int c = w->pool[g * RK_NUM_TYPES + t]; c > 0; c--) w->cards[n++] = (uint8_t)t;
        rk_rng_shuffle(rng, w->cards, (size_t)n);
        for (int i = 0; i < h->n_places; i++)
            if (w->card[i] == OPEN && h->place_group[i] == g) w->fits[k++] = i;
        /* the open places in a random order (a shuffle of their indices) */
        for (int j = k; j > 1; j--) {
            int at = (int)rk_rng_below(rng, (uint32_t)j);
            int32_t tmp = w->fits[j - 1];
            w->fits[j - 1] = w->fits[at];
            w->fits[at] = tmp;
        }
        for (int j = 0; j < k; j++) {
            int i = w->fits[j], pick = 0;
            while (pick < n && !allowed(h, i, w->cards[pick], NEVER)) pick++;
            if (pick == n) return 0;
            w->card[i] = (uint8_t)(w->cards[pick] | 0x80); /* filled now: still held */
            memmove(w->cards + pick, w->cards + pick + 1, (size_t)(n - pick - 1));
            n--;
        }
        if (n != (g == h->stock_group ? state_stock : 0)) return -1;
    }
    *n_stock = h->stock_group >= 0 ? n : 0;
    return 1;
}

/* ---- the determinized state --------------------------------------------- */

/* Physical ids of the hidden cards by type: the other seats' cards but the known
 * ones they keep (state.known first), and the stock if it is resampled. */
typedef struct loose {
    uint8_t ids[RK_NUM_TYPES][8];
    uint8_t n[RK_NUM_TYPES];
} loose;

static int take_loose(loose *l, int t) { return l->n[t] ? l->ids[t][--l->n[t]] : -1; }

/* Build out from state: the other seats keep their known cards and get the
 * sampled types of their held places; the stock gets the sampled order. */
static rk_status build(const rk_table_hidden *h, const rk_table_state *s, const work *w, int n_stock,
                       rk_table_state *out) {
    loose l;
    memset(&l, 0, sizeof l);
    *out = *s;
    for (int q = 0; q < s->n_players; q++) {
        if (q == h->observer) continue;
        rk_table_cards keep = {{0, 0}};
        uint8_t want[RK_NUM_TYPES];
        memcpy(want, h->known[q], sizeof want);
        for (int pass = 0; pass < 2; pass++) /* the cards state.known says first */
            for (int c = 0; c < RK_TABLE_MAX_CARDS; c++) {
                int t = card_type(c);
                if (!has_card(s->hands[q], c) || has_card(keep, c) || !want[t]) continue;
                if (pass == 0 && !has_card(s->known[q], c)) continue;
                add_card(&keep, c);
                want[t]--;
            }
        for (int c = 0; c < RK_TABLE_MAX_CARDS; c++)
            if (has_card(s->hands[q], c) && !has_card(keep, c)) {
                int t = card_type(c);
                if (l.n[t] >= 8) return RK_ERR_ARG;
                l.ids[t][l.n[t]++] = (uint8_t)c;
            }
        out->hands[q] = keep;
    }
    if (h->stock_group >= 0)
        for (int i = 0; i < s->n_stock; i++) {
            int c = s->stock[i], t = card_type(c);
            if (l.n[t] >= 8) return RK_ERR_ARG;
            l.ids[t][l.n[t]++] = (uint8_t)c;
        }
    for (int i = 0; i < h->n_places; i++) {
        if (w->card[i] == OPEN || !(w->card[i] & 0x80)) continue; /* played */
        int c = take_loose(&l, w->card[i] & 0x7F);
        if (c < 0) return RK_ERR_ARG;
        add_card(&out->hands[h->place_seat[i]], c);
    }
    if (h->stock_group >= 0) {
        if (n_stock != s->n_stock) return RK_ERR_ARG;
        for (int k = 0; k < n_stock; k++) {
            int c = take_loose(&l, w->cards[k]);
            if (c < 0) return RK_ERR_ARG;
            out->stock[n_stock - 1 - k] = (uint8_t)c; /* cards[0] is the top */
        }
    }
    for (int t = 0; t < RK_NUM_TYPES; t++)
        if (l.n[t]) return RK_ERR_ARG; /* every hidden card goes somewhere */
    for (int q = 0; q < s->n_players; q++) {
        out->known[q].w[0] &= out->hands[q].w[0];
        out->known[q].w[1] &= out->hands[q].w[1];
    }
    return RK_OK;
}

/* The last resort (and RK_TABLE_RESAMPLE_STOCK): the real cards, the stock shuffled. */
static void real_cards(const rk_table_hidden *h, const rk_table_state *s, rk_rng *rng, rk_table_state *out) {
    *out = *s;
    if (h->stock_group >= 0) {
        /* top first as a list, shuffled, then stored top last: a uniform order either way */
        rk_rng_shuffle(rng, out->stock, (size_t)out->n_stock);
    }
}

int rk_table_determinize(const rk_table_rules *rules, const rk_table_state *state, const rk_table_hidden *hidden,
                         rk_rng *rng, rk_table_memo *memo, void *work_buf, rk_table_state *out, uint8_t *place_types) {
    if (!rules || !state || !rng || !out) return RK_ERR_ARG;
    if (!hidden) {
        *out = *state;
        return 1;
    }
    const rk_table_hidden *h = hidden;
    int mover = state->phase == RK_TABLE_PHASE_PLAY && state->player != h->observer ? state->player : -1;
    if (h->mode == RK_TABLE_RESAMPLE_HIDDEN) {
        if (!work_buf) return RK_ERR_ARG;
        work w = work_of(h, work_buf);
        for (int tries = 0; tries < RK_TABLE_MAX_TRIES; tries++) {
            int n_stock = 0, got = sample(h, rng, &w, &n_stock, state->n_stock);
            if (got < 0) return RK_ERR_ARG;
            if (!got) continue;
            rk_status st = build(h, state, &w, n_stock, out);
            if (st != RK_OK) return st;
            /* another seat in the middle of its turn must be able to finish it */
            if (mover >= 0 && rk_table_legal(rules, out, memo, NULL, 0) <= 0) continue;
            out->shuffle_seed = rk_rng_next(rng);
            if (place_types)
                for (int i = 0; i < h->n_places; i++) place_types[i] = (uint8_t)(w.card[i] & 0x7F);
            return 1;
        }
        if (place_types) memset(place_types, OPEN, (size_t)h->n_places);
    }
    real_cards(h, state, rng, out);
    out->shuffle_seed = rk_rng_next(rng);
    return h->mode == RK_TABLE_RESAMPLE_HIDDEN ? 0 : 1;
}

/* ---- playouts ------------------------------------------------------------ */

rk_status rk_table_playout(const rk_table_rules *rules, rk_table_state *state, rk_table_memo *memo, int policy,
                           rk_rng *rng, long *actions) {
    long k = 0;
    while (state->phase != RK_TABLE_PHASE_END) {
        if (k >= RK_TABLE_PLAYOUT_MAX_ACTIONS) return RK_ERR_CAPACITY;
        int32_t a = rk_table_policy_action(rules, state, memo, policy, rng);
        if (a < 0) return (rk_status)a;
        rk_status st = rk_table_apply(rules, state, memo, a);
        if (st != RK_OK) return st;
        k++;
    }
    if (actions) *actions = k;
    return RK_OK;
}

rk_status rk_table_playouts(const rk_table_rules *rules, const rk_table_state *state, const rk_table_hidden *hidden,
                            int policy, uint64_t seed, size_t first, size_t n, rk_table_memo *memo, void *work_buf,
                            int32_t *returns, uint8_t *outcomes, int8_t *winners) {
    if (!rules || !state || (n && (!returns || !outcomes || !winners))) return RK_ERR_ARG;
    if (policy != RK_TABLE_POLICY_RANDOM && policy != RK_TABLE_POLICY_GREEDY) return RK_ERR_ARG;
    rk_status st = rk_table_check(rules, state);
    if (st == RK_OK) st = rk_table_hidden_check(rules, state, hidden);
    if (st != RK_OK) return st;
    if (hidden && hidden->mode == RK_TABLE_RESAMPLE_HIDDEN && !work_buf) return RK_ERR_ARG;
    int np = rules->num_players;
    for (size_t i = 0; i < n; i++) {
        rk_rng rng;
        rk_table_state s;
        rk_rng_seed(&rng, seed, (uint64_t)(first + i));
        if (state->phase == RK_TABLE_PHASE_END) {
            s = *state;
        } else {
            int got = rk_table_determinize(rules, state, hidden, &rng, memo, work_buf, &s, NULL);
            if (got < 0) return (rk_status)got;
        }
        st = rk_table_playout(rules, &s, memo, policy, &rng, NULL);
        if (st != RK_OK) return st;
        rk_table_result score;
        st = rk__table_score(rules, &s, &score);
        if (st != RK_OK) return st;
        memcpy(returns + i * (size_t)np, score.returns, sizeof(int32_t) * (size_t)np);
        outcomes[i] = (uint8_t)s.outcome;
        winners[i] = s.winner;
    }
    return RK_OK;
}
