/* What a seat of a table game knows, the public step log and determinization
 * (rummykit/table.h, "hidden information"). */
#include "table_internal.h"

#include <string.h>

#define NEVER INT32_MAX
#define OPEN 255

static size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }

/* ---- the public step log ---------------------------------------------- */

static void type_counts(rk_table_cards c, int *counts) {
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = c.w[w]; bits; bits &= bits - 1) counts[card_type(64 * w + rk__ctz(bits))]++;
}

void rk_table_known_step(const rk_table_rules *r, const rk_table_state *b, const rk_table_state *a, int32_t action,
                         uint8_t *counts, uint8_t *unseen) {
    int p = b->player, kept = -1, came = -1;
    int gone[RK_NUM_TYPES], got[RK_NUM_TYPES];
    rk_table_cards g, t;
    uint8_t *c = counts + RK_NUM_TYPES * p;
    for (int w = 0; w < 2; w++) {
        g.w[w] = b->hands[p].w[w] & ~a->hands[p].w[w];
        t.w[w] = a->hands[p].w[w] & ~b->hands[p].w[w];
    }
    memset(gone, 0, sizeof gone);
    memset(got, 0, sizeof got);
    if (unseen) memset(unseen, 0, RK_NUM_TYPES);
    type_counts(g, gone);
    type_counts(t, got);
    if (action == RK_TABLE_DRAW || action == RK_TABLE_TAKE) {
        for (int k = 0; k < RK_NUM_TYPES && came < 0; k++)
            if (got[k]) came = k;
        /* a stock draw is seen only from a turned-over pile, whose order is public */
        if (came >= 0 && (action == RK_TABLE_TAKE || (r->restock_method == 1 && a->restocks > 0))) c[came]++;
        return;
    }
    /* the card taken this turn, while held, may not be discarded: a discard of its type is then
     * another copy, known only if the seat is known to hold two */
    if (r->forbid_taken_discard && b->taken_card >= 0 && has_card(b->hands[p], b->taken_card))
        kept = card_type(b->taken_card);
    for (int k = 0; k < RK_NUM_TYPES; k++) {
        int floor = k == kept && action <= RK_JOKER ? 1 : 0;
        for (int j = 0; j < gone[k]; j++) {
            if (c[k] > floor)
                c[k]--;
            else if (unseen)
                unseen[k]++;
        }
        c[k] = (uint8_t)(c[k] + got[k]);
    }
}


/* The types of the physical cards of c, ascending, into out; returns how many. */
static int sorted_types(rk_table_cards c, uint8_t *out) {
    int counts[RK_NUM_TYPES] = {0}, n = 0;
    type_counts(c, counts);
    for (int t = 0; t < RK_NUM_TYPES; t++)
        for (int k = 0; k < counts[t]; k++) out[n++] = (uint8_t)t;
    return n;
}

int rk_table_step(const rk_table_rules *r, const rk_table_state *b, const rk_table_state *a, int32_t action,
                  const uint8_t *prev, uint8_t *e) {
    int p = b->player, n = r ? r->num_players : 0, came = RK_TABLE_NO_CARD, flags = 0, n_moved = 0;
    uint8_t outs[RK_TABLE_MAX_CARDS], ins[RK_TABLE_MAX_CARDS], unseen[RK_NUM_TYPES];
    rk_table_cards gone, got;
    if (!r || !e || n < 1 || n > RK_TABLE_MAX_PLAYERS || p < 0 || p >= n || b->n_discards < 0 ||
        b->n_discards > RK_TABLE_MAX_CARDS)
        return RK_ERR_ARG;
    for (int w = 0; w < 2; w++) {
        gone.w[w] = b->hands[p].w[w] & ~a->hands[p].w[w];
        got.w[w] = a->hands[p].w[w] & ~b->hands[p].w[w];
    }
    int n_out = sorted_types(gone, outs), n_in = sorted_types(got, ins);
    if (a->restocks > b->restocks) {
        flags |= RK_TABLE_STEP_RESTOCK;
        n_moved = r->restock_method == 1 ? b->n_discards : (b->n_discards > 0 ? b->n_discards - 1 : 0);
    }
    if (r->restock_method == 1 && a->restocks > 0) flags |= RK_TABLE_STEP_PUBLIC;
    if (action == RK_TABLE_DRAW || action == RK_TABLE_TAKE) {
        if (n_in) came = ins[0];
        n_in = 0;
    }
    e[0] = (uint8_t)p, e[1] = (uint8_t)flags, e[2] = (uint8_t)came, e[3] = (uint8_t)n_out;
    e[4] = (uint8_t)n_in, e[5] = (uint8_t)n_moved, e[6] = (uint8_t)n, e[7] = 0;
    uint8_t *counts = e + RK_TABLE_STEP_HEAD, *tail = counts + n * RK_NUM_TYPES;
    if (prev)
        memmove(counts, prev + RK_TABLE_STEP_HEAD, (size_t)n * RK_NUM_TYPES);
    else
        memset(counts, 0, (size_t)n * RK_NUM_TYPES);
    rk_table_known_step(r, b, a, action, counts, unseen);
    for (int i = n_out - 1; i >= 0; i--) /* the last copies of a type put down are the ones nobody knew of */
        if (unseen[outs[i]]) {
            unseen[outs[i]]--;
            outs[i] |= RK_TABLE_STEP_UNSEEN;
        }
    memcpy(tail, outs, (size_t)n_out);
    memcpy(tail + n_out, ins, (size_t)n_in);
    for (int i = 0; i < n_moved; i++) tail[n_out + n_in + i] = (uint8_t)card_type(b->discards[i]);
    return RK_TABLE_STEP_HEAD + n * RK_NUM_TYPES + n_out + n_in + n_moved;
}

size_t rk_table_step_length(const uint8_t *e) {
    return RK_TABLE_STEP_HEAD + (size_t)e[6] * RK_NUM_TYPES + (size_t)e[3] + e[4] + e[5];
}

/* ---- what a seat knows: one walk of the log ------------------------------ */

/* The lists' capacities for a log of n steps. */
typedef struct caps {
    size_t places, fills, bans, groups;
} caps;

static caps caps_of(const rk_table_rules *r, int n_steps) {
    caps c;
    size_t steps = n_steps > 0 ? (size_t)n_steps : 0;
    int players = r && r->num_players > 0 && r->num_players <= RK_TABLE_MAX_PLAYERS ? r->num_players : RK_TABLE_MAX_PLAYERS;
    int size = r && r->hand_size > 0 && r->hand_size <= RK_TABLE_MAX_CARDS ? r->hand_size : RK_TABLE_MAX_CARDS;
    c.places = (size_t)players * (size_t)size + steps;
    c.fills = c.places + 2 * RK_TABLE_MAX_CARDS;
    c.bans = 13 * steps;
    c.groups = steps + 1;
    return c;
}

size_t rk_table_hidden_size(const rk_table_rules *r, int n_steps) {
    caps c = caps_of(r, n_steps);
    return align8((2 * c.places + c.fills + c.bans) * sizeof(int32_t)) + align8(c.places + 2 * (c.fills + c.bans)) +
           align8(c.groups * RK_NUM_TYPES);
}

/* The present seats in deal order (from the dealer's left); returns how many. */
static int deal_order(const rk_table_state *s, int *order) {
    int k = 0, n = s->n_players;
    for (int i = 1; i <= n; i++) {
        int q = (s->dealer + i) % n;
        if (!(s->absent >> q & 1)) order[k++] = q;
    }
    return k;
}

rk_status rk_table_hidden_of(const rk_table_rules *r, const rk_table_state *s, const uint8_t *deck,
                             const rk_table_log *log, int player, void *work, rk_table_hidden *h) {
    if (!r || !s || !deck || !log || !h || !work || log->n < 0 || (log->n && (!log->actions || !log->steps)))
        return RK_ERR_ARG;
    int n = r->num_players, size = r->hand_size, turn_over = r->restock_method == 1;
    if (n < 2 || n > RK_TABLE_MAX_PLAYERS || s->n_players != n || player < 0 || player >= n || s->dealer < 0 ||
        s->dealer >= n || size < 1 || r->deck_size > RK_TABLE_MAX_CARDS)
        return RK_ERR_ARG;
    caps c = caps_of(r, log->n);
    int32_t *place_time = work, *place_group = place_time + c.places, *fill_time = place_group + c.places;
    int32_t *ban_time = fill_time + c.fills;
    uint8_t *bytes = (uint8_t *)work + align8((2 * c.places + c.fills + c.bans) * sizeof(int32_t));
    uint8_t *place_seat = bytes, *fill_seat = place_seat + c.places;
    uint8_t *fill_type = fill_seat + c.fills, *ban_seat = fill_type + c.fills, *ban_type = ban_seat + c.bans;
    uint8_t *pool = bytes + align8(c.places + 2 * (c.fills + c.bans));
    int order[RK_TABLE_MAX_PLAYERS], k = deal_order(s, order), present = 0;
    if (size * k >= r->deck_size) return RK_ERR_ARG;
    memset(h, 0, sizeof *h);
    h->mode = RK_TABLE_RESAMPLE_HIDDEN;
    h->observer = player;
    /* group 0: every card less the upcard and player's dealt cards */
    for (int t = 0; t < 52; t++) pool[t] = r->kaluki ? 2 : 1;
    pool[RK_JOKER] = (uint8_t)(r->kaluki ? r->deck_size - 104 : 0);
    size_t places = 0, fills = 0, bans = 0;
    int groups = 1, group = 0, turned = 0;
#define TAKE_FROM(g, t)                                                      \
    do {                                                                     \
        if (!pool[(size_t)(g) * RK_NUM_TYPES + (t)]) return RK_ERR_ARG;      \
        pool[(size_t)(g) * RK_NUM_TYPES + (t)]--;                            \
    } while (0)
    TAKE_FROM(0, card_type(deck[size * k]));
    for (int i = 0; i < size * k; i++)
        if (order[i % k] == player) TAKE_FROM(0, card_type(deck[i]));
    for (int q = 0; q < n; q++) {
        if (s->absent >> q & 1) continue;
        present |= 1 << q;
        if (q == player) continue;
        for (int i = 0; i < size; i++, places++) place_seat[places] = (uint8_t)q, place_group[places] = 0, place_time[places] = -1;
    }
    for (int time = 0; time < log->n; time++) {
        const uint8_t *e = log->steps[time];
        if (!e) return RK_ERR_ARG;
        int q = e[0], n_out = e[3], n_in = e[4], n_moved = e[5];
        int32_t action = log->actions[time];
        if (q >= n || !(present >> q & 1) || e[6] != n) return RK_ERR_ARG;
        const uint8_t *tail = e + RK_TABLE_STEP_HEAD + n * RK_NUM_TYPES;
        if (e[1] & RK_TABLE_STEP_RESTOCK) {
            if (turn_over) {
                turned = 1;
            } else {
                if ((size_t)groups >= c.groups) return RK_ERR_ARG;
                group = groups++;
                memset(pool + (size_t)group * RK_NUM_TYPES, 0, RK_NUM_TYPES);
                for (int i = 0; i < n_moved; i++) {
                    int t = tail[n_out + n_in + i];
                    if (t >= RK_NUM_TYPES) return RK_ERR_ARG;
                    pool[(size_t)group * RK_NUM_TYPES + t]++;
                }
            }
        }
        if (action == RK_TABLE_DRAW) {
            if (e[2] == RK_TABLE_NO_CARD || turned) continue;
            if (e[2] >= RK_NUM_TYPES) return RK_ERR_ARG;
            if (q == player) {
                TAKE_FROM(group, e[2]);
            } else {
                if (places >= c.places) return RK_ERR_ARG;
                place_seat[places] = (uint8_t)q, place_group[places] = group, place_time[places] = time;
                places++;
            }
            continue;
        }
        if (q == player) continue;
        if (action >= RK_TABLE_MELD_RUN) { /* a joker in a run: its owner held no such card then */
            int suit, start, length, mask;
            rk_table_run_of(action, &suit, &start, &length, &mask);
            for (int i = 0; i < length && i < 13; i++) {
                if (!(mask >> i & 1)) continue;
                int pos = r->wrap ? (start + i) % 13 : start + i;
                if (bans >= c.bans) return RK_ERR_ARG;
                ban_seat[bans] = (uint8_t)q, ban_type[bans] = (uint8_t)(suit * 13 + (pos + r->shift) % 13);
                ban_time[bans++] = time;
            }
        }
        for (int i = 0; i < n_out; i++)
            if (tail[i] & RK_TABLE_STEP_UNSEEN) {
                if (fills >= c.fills || (tail[i] & ~RK_TABLE_STEP_UNSEEN) >= RK_NUM_TYPES) return RK_ERR_ARG;
                fill_seat[fills] = (uint8_t)q, fill_type[fills] = (uint8_t)(tail[i] & ~RK_TABLE_STEP_UNSEEN);
                fill_time[fills++] = time;
            }
    }
#undef TAKE_FROM
    if (log->n) memcpy(h->known, log->steps[log->n - 1] + RK_TABLE_STEP_HEAD, (size_t)n * RK_NUM_TYPES);
    if (s->phase == RK_TABLE_PHASE_END) /* every hand is shown */
        for (int q = 0; q < n; q++) {
            if (q == player) continue;
            int shown[RK_NUM_TYPES] = {0};
            type_counts(s->hands[q], shown);
            for (int t = 0; t < RK_NUM_TYPES; t++)
                for (int j = h->known[q][t]; j < shown[t]; j++) {
                    if (fills >= c.fills) return RK_ERR_ARG;
                    fill_seat[fills] = (uint8_t)q, fill_type[fills] = (uint8_t)t, fill_time[fills++] = log->n;
                }
        }
    h->stock_group = turned ? -1 : group;
    h->now = log->n;
    h->n_groups = groups, h->n_places = (int)places, h->n_fills = (int)fills, h->n_bans = (int)bans;
    h->pool = pool;
    h->place_seat = place_seat, h->place_group = place_group, h->place_time = place_time;
    h->fill_seat = fill_seat, h->fill_type = fill_type, h->fill_time = fill_time;
    h->ban_seat = ban_seat, h->ban_type = ban_type, h->ban_time = ban_time;
    return RK_OK;
}

/* ---- determinization: the checks ---------------------------------------- */

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
        if (h->place_seat[i] >= n || h->place_seat[i] == h->observer || h->place_group[i] < 0 ||
            h->place_group[i] >= h->n_groups ||
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

/* The work buffer: the pool counts, the type of each place, two lists of indices and a card list. */
typedef struct work {
    uint8_t *pool;   /* n_groups * 53 */
    uint8_t *card;   /* n_places: OPEN or the type */
    int32_t *fits;   /* n_places */
    int32_t *mine;   /* n_places: the places seat by seat */
    uint8_t *cards;  /* RK_TABLE_MAX_CARDS */
} work;

size_t rk_table_work_size(const rk_table_hidden *h) {
    if (!h || h->mode != RK_TABLE_RESAMPLE_HIDDEN || h->n_groups < 0 || h->n_places < 0) return 0;
    return (size_t)h->n_places * (2 * sizeof(int32_t) + 1) + (size_t)h->n_groups * RK_NUM_TYPES + RK_TABLE_MAX_CARDS;
}

static work work_of(const rk_table_hidden *h, void *buf) {
    work w;
    w.fits = buf; /* the int32 lists first: malloc'd buffers are aligned for them */
    w.mine = w.fits + h->n_places;
    w.pool = (uint8_t *)buf + (size_t)h->n_places * 2 * sizeof(int32_t);
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
    int from[RK_TABLE_MAX_PLAYERS + 1] = {0}, end[RK_TABLE_MAX_PLAYERS];
    memcpy(w->pool, h->pool, (size_t)h->n_groups * RK_NUM_TYPES);
    memset(w->card, OPEN, (size_t)h->n_places);
    /* each seat's places in index order (rk_table_hidden_check: seats in range) */
    for (int i = 0; i < h->n_places; i++) from[h->place_seat[i] + 1]++;
    for (int q = 0; q < RK_TABLE_MAX_PLAYERS; q++) end[q] = from[q + 1] += from[q];
    for (int i = h->n_places - 1; i >= 0; i--) w->mine[--end[h->place_seat[i]]] = i;
    for (int f = 0; f < h->n_fills; f++) {
        int seat = h->fill_seat[f], t = h->fill_type[f], k = 0;
        int32_t time = h->fill_time[f];
        for (int j = from[seat]; j < from[seat + 1]; j++) {
            int i = w->mine[j];
            if (w->card[i] == OPEN && h->place_time[i] < time && w->pool[(size_t)h->place_group[i] * RK_NUM_TYPES + t] &&
                allowed(h, i, t, time))
                w->fits[k++] = i;
        }
        if (!k) return 0;
        int i = w->fits[rk_rng_below(rng, (uint32_t)k)];
        w->card[i] = (uint8_t)(time < h->now ? t : t | 0x80); /* a shown card is still held */
        w->pool[(size_t)h->place_group[i] * RK_NUM_TYPES + t]--;
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


/* ---- the whole world: a deck, the past restocks and a replay ------------- */

/* rk_table_replay on a deck and deal that rk_table_deal_present accepts. */
static rk_status replay(const rk_table_rules *r, const uint8_t *deck, int dealer, unsigned absent,
                        uint64_t shuffle_seed, const int32_t *actions, int n, const uint8_t *orders, int n_orders,
                        rk_table_memo *memo, rk_table_state *before, rk_table_state *out) {
    rk_table_state s, b;
    rk__table_deal(r, deck, dealer, absent, shuffle_seed, &s);
    int at = 0;
    for (int i = 0; i < n; i++) {
        if (before) before[i] = s;
        int restock = actions[i] == RK_TABLE_DRAW && s.n_stock == 0 && r->restock_method == 0;
        if (restock) b = s;
        rk_status st = rk_table_apply(r, &s, memo, actions[i]);
        if (st != RK_OK) return st;
        if (!restock || s.restocks <= b.restocks) continue;
        /* a reshuffle: the pile but its top card, in the given order (top first) */
        int nd = b.n_discards - 1, p = b.player;
        uint8_t cards[RK_TABLE_MAX_CARDS], used[RK_TABLE_MAX_CARDS] = {0};
        if (nd < 1 || nd > n_orders - at) return RK_ERR_ARG;
        for (int k = 0; k < nd; k++) {
            int t = orders[at + k], j = nd - 1;
            while (j >= 0 && (used[j] || card_type(b.discards[j]) != t)) j--;
            if (j < 0) return RK_ERR_ARG;
            used[j] = 1;
            cards[k] = b.discards[j];
        }
        at += nd;
        s.hands[p] = b.hands[p];
        add_card(&s.hands[p], cards[0]);
        for (int k = 0; k < nd; k++) s.stock[k] = cards[nd - 1 - k]; /* stock[nd - 1]: the card drawn */
        s.n_stock = (int16_t)(nd - 1);
    }
    if (at != n_orders) return RK_ERR_ARG;
    *out = s;
    return RK_OK;
}

rk_status rk_table_replay(const rk_table_rules *r, const uint8_t *deck, int dealer, unsigned absent,
                          uint64_t shuffle_seed, const int32_t *actions, int n, const uint8_t *orders, int n_orders,
                          rk_table_memo *memo, rk_table_state *before, rk_table_state *out) {
    rk_table_state s;
    if (!out || n < 0 || n_orders < 0 || (n && !actions) || (n_orders && !orders)) return RK_ERR_ARG;
    rk_status st = rk_table_deal_present(r, deck, dealer, absent, shuffle_seed, &s); /* the arguments checked */
    if (st != RK_OK) return st;
    return replay(r, deck, dealer, absent, shuffle_seed, actions, n, orders, n_orders, memo, before, out);
}

/* The work of rk_table_world_of: the hidden lists, the sampler's, then the orders, came and the place types
 * (offsets from the start, in bytes; the last one is the size). */
typedef struct world_work {
    void *hidden, *sampler;
    uint8_t *orders, *came, *types;
} world_work;

static void world_offsets(const rk_table_rules *r, int n_steps, size_t at[6]) {
    caps c = caps_of(r, n_steps);
    size_t steps = n_steps > 0 ? (size_t)n_steps : 0;
    at[0] = 0;
    at[1] = at[0] + align8(rk_table_hidden_size(r, n_steps));
    at[2] = at[1] + align8(c.places * (2 * sizeof(int32_t) + 1) + c.groups * RK_NUM_TYPES + RK_TABLE_MAX_CARDS);
    at[3] = at[2] + align8(steps + RK_TABLE_MAX_CARDS);
    at[4] = at[3] + align8(steps);
    at[5] = at[4] + align8(c.places);
}

static world_work world_work_of(const rk_table_rules *r, int n_steps, void *buf) {
    size_t at[6];
    world_offsets(r, n_steps, at);
    world_work w;
    w.hidden = buf;
    w.sampler = (uint8_t *)buf + at[1];
    w.orders = (uint8_t *)buf + at[2];
    w.came = (uint8_t *)buf + at[3];
    w.types = (uint8_t *)buf + at[4];
    return w;
}

size_t rk_table_world_size(const rk_table_rules *r, int n_steps) {
    size_t at[6];
    world_offsets(r, n_steps, at);
    return at[5];
}

/* The deck and the past of one sample: types[i] the type of place i, stock the stock's types (top first);
 * writes out->deck, out->orders (n_orders) and came.  RK_ERR_ARG if they do not make a deck. */
static rk_status make_world(const rk_table_rules *r, const rk_table_state *s, const uint8_t *deck,
                            const rk_table_log *log, const rk_table_hidden *h, const uint8_t *types,
                            const uint8_t *stock, int n_stock, world_work *w, rk_table_world *out) {
    int n = r->num_players, size = r->hand_size, order[RK_TABLE_MAX_PLAYERS], k = deal_order(s, order);
    uint8_t dealt[RK_TABLE_MAX_PLAYERS][RK_TABLE_MAX_CARDS], deck_types[RK_TABLE_MAX_CARDS];
    int n_dealt[RK_TABLE_MAX_PLAYERS] = {0}, at = 0, n_deck = 0, place = 0;
    /* the places: the dealt ones first (seat by seat), then the draws in time order */
    for (; place < h->n_places && h->place_time[place] < 0; place++) {
        int q = h->place_seat[place];
        if (n_dealt[q] >= size) return RK_ERR_ARG;
        dealt[q][n_dealt[q]++] = types[place];
    }
    for (int i = 0; i < size * k; i++)
        if (order[i % k] == h->observer) dealt[h->observer][n_dealt[h->observer]++] = (uint8_t)card_type(deck[i]);
    for (int i = 0; i < size * k; i++) {
        int q = order[i % k];
        if (n_dealt[q] != size) return RK_ERR_ARG;
        deck_types[n_deck++] = dealt[q][i / k];
    }
    deck_types[n_deck++] = (uint8_t)card_type(deck[size * k]);
    /* the draws of each stock in order: the first stock's into the deck, a reshuffle's into its order */
    uint8_t *to = deck_types + n_deck;
    int *count = &n_deck, cap = RK_TABLE_MAX_CARDS - n_deck, n_orders = 0, none = 0;
    for (int time = 0; time < log->n; time++) {
        const uint8_t *e = log->steps[time];
        w->came[time] = e[2];
        if (log->actions[time] != RK_TABLE_DRAW) continue;
        if (e[1] & RK_TABLE_STEP_RESTOCK) {
            if (r->restock_method == 1) {
                count = &none; /* a turned-over stock: its draws are public */
            } else {
                to = w->orders + n_orders, count = &n_orders, cap = log->n + RK_TABLE_MAX_CARDS - n_orders;
                at = 0;
            }
        }
        if (e[2] == RK_TABLE_NO_CARD) continue;
        if (place < h->n_places && h->place_time[place] == time) w->came[time] = types[place++];
        if (count == &none) continue;
        if (at >= cap) return RK_ERR_ARG;
        to[at++] = w->came[time];
        (*count)++;
    }
    if (place != h->n_places) return RK_ERR_ARG;
    if (h->stock_group >= 0)
        for (int i = 0; i < n_stock; i++) {
            if (at >= cap) return RK_ERR_ARG;
            to[at++] = stock[i];
            (*count)++;
        }
    if (n_deck != r->deck_size) return RK_ERR_ARG;
    /* physical ids: the j-th copy of a type in the deck is deck j's */
    uint8_t copies[RK_NUM_TYPES] = {0};
    int jokers = r->kaluki ? r->deck_size - 104 : 0;
    for (int i = 0; i < n_deck; i++) {
        int t = deck_types[i], j = copies[t]++;
        if (t == RK_JOKER ? j >= jokers : j >= (r->kaluki ? 2 : 1)) return RK_ERR_ARG;
        out->deck[i] = (uint8_t)(t == RK_JOKER ? RK_TABLE_FIRST_JOKER + j : t + 52 * j);
    }
    out->n_orders = n_orders;
    (void)n;
    return RK_OK;
}

/* Whether out's public part is state's: what a replay must give. */
static int same_public(const rk_table_state *a, const rk_table_state *b) {
    if (a->n_stock != b->n_stock || a->n_discards != b->n_discards || a->n_table != b->n_table ||
        a->phase != b->phase || a->player != b->player || a->turns != b->turns || a->restocks != b->restocks ||
        a->opened != b->opened || a->played != b->played || a->outcome != b->outcome || a->winner != b->winner)
        return 0;
    for (int q = 0; q < a->n_players; q++)
        if (rk__popcount(a->hands[q].w[0]) + rk__popcount(a->hands[q].w[1]) !=
            rk__popcount(b->hands[q].w[0]) + rk__popcount(b->hands[q].w[1]))
            return 0;
    for (int i = 0; i < a->n_discards; i++)
        if (card_type(a->discards[i]) != card_type(b->discards[i])) return 0;
    return 1;
}

rk_status rk_table_world_of(const rk_table_rules *r, const rk_table_state *s, const uint8_t *deck,
                            const rk_table_log *log, int player, int max_tries, rk_rng *rng, rk_table_memo *memo,
                            void *work_buf, rk_table_world *out) {
    rk_table_hidden h;
    if (!rng || !out || !work_buf || !log || rk_table_rules_check(r) != RK_OK) return RK_ERR_ARG;
    world_work w = world_work_of(r, log->n, work_buf);
    rk_status st = rk_table_hidden_of(r, s, deck, log, player, w.hidden, &h); /* checks the seats */
    if (st == RK_OK) st = rk_table_hidden_check(r, s, &h);
    if (st != RK_OK) return st;
    unsigned absent = s->absent; /* the replay's deal, as rk_table_deal_present checks it */
    if (absent >> r->num_players || absent >> s->dealer & 1 || r->num_players - rk__popcount(absent) < 2)
        return RK_ERR_ARG;
    out->orders = w.orders;
    out->came = w.came;
    int mover = s->phase == RK_TABLE_PHASE_PLAY && s->player != player ? s->player : -1;
    int tries = max_tries < 0 ? RK_TABLE_WORLD_TRIES : max_tries;
    work sw = work_of(&h, w.sampler);
    for (int attempt = 0; attempt < tries; attempt++) {
        int n_stock = 0, got = sample(&h, rng, &sw, &n_stock, s->n_stock);
        if (got < 0) return RK_ERR_ARG;
        if (!got) continue;
        for (int i = 0; i < h.n_places; i++) w.types[i] = (uint8_t)(sw.card[i] & 0x7F);
        if (make_world(r, s, deck, log, &h, w.types, sw.cards, n_stock, &w, out) != RK_OK) continue;
        if (replay(r, out->deck, s->dealer, s->absent, 0, log->actions, log->n, w.orders, out->n_orders, memo, NULL,
                   &out->state) != RK_OK ||
            !same_public(&out->state, s))
            continue;
        /* another seat in the middle of its turn must be able to finish it */
        if (mover >= 0 && rk_table_legal(r, &out->state, memo, NULL, 0) <= 0) continue;
        out->state.shuffle_seed = rk_rng_next(rng);
        out->sampled = 1;
        return RK_OK;
    }
    /* the last resort: the real cards, the stock order drawn */
    uint8_t stock[RK_TABLE_MAX_CARDS];
    int n_stock = s->n_stock;
    memcpy(stock, s->stock, (size_t)n_stock);
    if (h.stock_group >= 0) rk_rng_shuffle(rng, stock, (size_t)n_stock);
    uint8_t top_first[RK_TABLE_MAX_CARDS];
    for (int i = 0; i < n_stock; i++) top_first[i] = (uint8_t)card_type(stock[n_stock - 1 - i]);
    int order[RK_TABLE_MAX_PLAYERS], k = deal_order(s, order), seen[RK_TABLE_MAX_PLAYERS] = {0};
    for (int i = 0; i < h.n_places; i++) {
        int q = h.place_seat[i];
        if (h.place_time[i] >= 0) {
            w.types[i] = log->steps[h.place_time[i]][2];
            continue;
        }
        int j = seen[q]++, pos = 0;
        while (pos < k && order[pos] != q) pos++;
        if (pos == k || j >= r->hand_size) return RK_ERR_ARG;
        w.types[i] = (uint8_t)card_type(deck[j * k + pos]);
    }
    st = make_world(r, s, deck, log, &h, w.types, top_first, n_stock, &w, out);
    if (st == RK_OK)
        st = replay(r, out->deck, s->dealer, s->absent, 0, log->actions, log->n, w.orders, out->n_orders, memo, NULL,
                    &out->state);
    if (st == RK_OK && !same_public(&out->state, s)) st = RK_ERR_ARG;
    if (st != RK_OK) return st;
    out->state.shuffle_seed = rk_rng_next(rng);
    out->sampled = 0;
    return RK_OK;
}
