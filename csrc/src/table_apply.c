/* The transitions of the table games: the deal (rk_table_deal) and the
 * actions (rk_table_apply), as TableState makes them.  See table_internal.h. */
#include "table_internal.h"

/* ---- transitions ------------------------------------------------------ */

static void start_turn(rk_table_state *s) {
    s->taken = -1;
    s->taken_card = -1;
    s->must = -1;
    s->open_value = 0;
    s->turn_melds = 0;
    s->n_ends = 0;
    memset(s->ends, 0, sizeof s->ends);
    s->pending = 0;
    s->fresh = !(s->played >> s->player & 1);
    s->built_other = 0;
}

static void end_hand(rk_table_state *s, int outcome, int winner) {
    s->phase = RK_TABLE_PHASE_END;
    s->outcome = (int8_t)outcome;
    s->winner = (int8_t)winner;
}

/* _set_hand: the known cards follow the hand. */
static void set_hand(rk_table_state *s, int p, hand h) {
    s->hands[p] = cards_of(h);
    s->known[p].w[0] &= s->hands[p].w[0];
    s->known[p].w[1] &= s->hands[p].w[1];
}

static void next_turn(const rk_table_rules *r, rk_table_state *s) {
    if (s->turns < INT32_MAX) s->turns++; /* a hand-edited count saturates */
    if (r->max_turns >= 0 && r->max_turns <= s->turns) {
        end_hand(s, RK_TABLE_DEAD, -1);
        return;
    }
    if (r->restock_method == 2 && !s->n_stock) {
        end_hand(s, RK_TABLE_BLOCKED, -1);
        return;
    }
    s->player = (int8_t)rk__table_next_seat(s, s->player);
    s->phase = RK_TABLE_PHASE_DRAW;
    start_turn(s);
}

static void go_out(const rk_table_rules *r, rk_table_state *s, int p) {
    int fresh = s->fresh && (r->hunt_allows_building || !s->built_other || !r->kaluki);
    if (r->kaluki)
        end_hand(s, fresh ? RK_TABLE_HUNT : RK_TABLE_CALL_OFF, p);
    else
        end_hand(s, fresh ? RK_TABLE_RUMMY : RK_TABLE_OUT, p);
}

/* _placed: bookkeeping after cards went on the table (jokers: how many of them). */
static void placed(const rk_table_rules *r, rk_table_state *s, int p, uint64_t naturals, int jokers, int value) {
    s->played |= (uint8_t)(1u << p);
    if (s->must >= 0 && uses(naturals, jokers, s->must)) s->must = -1;
    if (s->pending) s->pending = (int8_t)(s->pending > jokers ? s->pending - jokers : 0);
    if (!(s->opened >> p & 1)) {
        /* saturates (a hand-edited value near the top): only its comparison with initial_meld_min counts */
        s->open_value = (int16_t)(s->open_value + value < INT16_MAX ? s->open_value + value : INT16_MAX);
        if (s->open_value >= r->initial_meld_min && s->must < 0 && !s->pending) s->opened |= (uint8_t)(1u << p);
    }
    if (!s->hands[p].w[0] && !s->hands[p].w[1]) go_out(r, s, p);
}

/* _restock (docs/rules.md, Restocking); 0 if the pile cannot be restocked. */
static int restock(const rk_table_rules *r, rk_table_state *s) {
    if (s->n_discards < 2 || (r->max_restocks >= 0 && s->restocks >= r->max_restocks)) return 0;
    int n = s->n_discards;
    if (r->restock_method == 1) {
        for (int i = 0; i < n; i++) s->stock[i] = s->discards[n - 1 - i];
        s->n_stock = (int16_t)n;
        s->n_discards = 0;
    } else {
        memcpy(s->stock, s->discards, (size_t)(n - 1));
        rk_restock_shuffle(s->shuffle_seed, s->restocks, s->stock, (size_t)(n - 1));
        s->n_stock = (int16_t)(n - 1);
        s->discards[0] = s->discards[n - 1];
        s->n_discards = 1;
    }
    if (s->restocks < INT32_MAX) s->restocks++;
    return 1;
}

int rk__table_pattern(const rk_table_rules *r, int32_t id, rk_table_meld *m, int *types, int *value) {
    if (id < RK_TABLE_MELD_SET || (id >= RK_TABLE_SET_END && id < RK_TABLE_MELD_RUN) || id >= RK_TABLE_NUM_ACTIONS)
        return 0;
    if (id < RK_TABLE_MELD_RUN) {
        int x = id - RK_TABLE_MELD_SET, jokers = x % 4, suits = x / 4 % 16, rank = x / 64;
        int k = rk__suit_count((unsigned)suits);
        if (rank >= 13 || !suits || k + jokers < 3 || k + jokers > 4) return 0;
        int n = 0;
        for (int su = 0; su < 4; su++)
            if (suits >> su & 1) types[n++] = su * 13 + rank;
        for (int j = 0; j < jokers; j++) types[n++] = RK_JOKER;
        m->kind = RK_MELD_SET;
        m->key = (uint8_t)rank;
        m->start = 0;
        m->n_cards = (uint8_t)n;
        *value = r->values[rank] * n;
        return 1;
    }
    int suit, start, length, mask;
    rk_table_run_of(id, &suit, &start, &length, &mask);
    if (suit >= 4 || length < 3 || length > 13 || mask >> length || mask == (1 << length) - 1) return 0;
    if (r->wrap ? start >= 13 : start + length > r->npos) return 0;
    *value = 0;
    for (int i = 0; i < length; i++) {
        int p = r->wrap ? (start + i) % 13 : start + i;
        types[i] = mask >> i & 1 ? RK_JOKER : type_at(r, suit, p);
        *value += position_value(r, suit, p);
    }
    m->kind = RK_MELD_RUN;
    m->key = (uint8_t)suit;
    m->start = (uint8_t)start;
    m->n_cards = (uint8_t)length;
    return 1;
}

static inline int hand_has(hand h, int card) {
    if (card >= RK_TABLE_FIRST_JOKER) return (int)(h.jm >> (card - RK_TABLE_FIRST_JOKER) & 1);
    return (int)((card < 52 ? h.d0 >> card : h.d1 >> (card - 52)) & 1);
}

/* _table_copy: the physical card of type t that goes on the table from the
 * mover's cards h: the card taken this turn while it may not be discarded
 * (the other copy stays free), but for a joker standing in for a released
 * one (released) another joker; else the lowest copy.  -1 if none. */
static int table_copy(const rk_table_rules *r, const rk_table_state *s, hand h, int t, int released) {
    int tc = r->forbid_taken_discard ? s->taken_card : -1;
    if (tc < 0 || card_type(tc) != t || !hand_has(h, tc)) return phys_copy(h, t);
    if (!released) return tc;
    int other = phys_copy(without_card(h, tc), t);
    return other >= 0 ? other : tc;
}

/* _discard_copy: the physical card a discard of type t takes: the lowest copy but the taken card. */
static int discard_copy(const rk_table_rules *r, const rk_table_state *s, hand h, int t) {
    int tc = r->forbid_taken_discard ? s->taken_card : -1;
    return phys_copy(tc >= 0 && hand_has(h, tc) ? without_card(h, tc) : h, t);
}

static rk_status do_meld(const rk_table_rules *r, rk_table_state *s, int p, int32_t id) {
    rk_table_meld m;
    int types[RK_TABLE_MAX_MELD], value;
    memset(&m, 0, sizeof m);
    if (s->n_table >= RK_TABLE_MAX_SLOTS || !rk__table_pattern(r, id, &m, types, &value)) return RK_ERR_ARG;
    hand rest = hand_of(s->hands[p]);
    uint64_t naturals = 0;
    int jokers = 0;
    for (int i = 0; i < m.n_cards; i++) {
        int joker = types[i] == RK_JOKER;
        int c = table_copy(r, s, rest, types[i], joker && jokers < s->pending);
        if (c < 0) return RK_ERR_ARG;
        rest = without_card(rest, c);
        m.cards[i] = (uint8_t)c;
        if (joker)
            jokers++;
        else
            naturals |= 1ull << types[i];
    }
    m.owner = (uint8_t)p;
    set_hand(s, p, rest);
    s->table[s->n_table++] = m;
    if (s->turn_melds < INT16_MAX) s->turn_melds++; /* a hand-edited count saturates */
    placed(r, s, p, naturals, jokers, value);
    return RK_OK;
}

static rk_status do_lay_off(const rk_table_rules *r, rk_table_state *s, int p, int slot, int t, int end) {
    if (slot >= s->n_table) return RK_ERR_ARG;
    rk_table_meld *m = &s->table[slot];
    hand h = hand_of(s->hands[p]);
    int card = table_copy(r, s, h, t, t == RK_JOKER && s->pending > 0), size = m->n_cards, value;
    if (card < 0 || size >= RK_TABLE_MAX_MELD) return RK_ERR_ARG;
    if (meld_is_set(m)) {
        if (end || size >= 4 || (t != RK_JOKER && (t % 13 != m->key || natural_suits(m) >> (t / 13) & 1)))
            return RK_ERR_ARG;
        value = r->values[m->key];
        m->cards[size] = (uint8_t)card;
    } else {
        int pos;
        if (r->wrap)
            pos = end == 0 ? (m->start + 12) % 13 : (m->start + size) % 13;
        else
            pos = end == 0 ? m->start - 1 : m->start + size;
        if (size >= 13 || pos < 0 || pos >= r->npos || (t != RK_JOKER && t != type_at(r, m->key, pos)))
            return RK_ERR_ARG;
        value = position_value(r, m->key, pos);
        if (end == 0) {
            memmove(m->cards + 1, m->cards, (size_t)size);
            m->cards[0] = (uint8_t)card;
            m->start = (uint8_t)pos;
        } else {
            m->cards[size] = (uint8_t)card;
        }
        if (s->n_ends < slot + 1) {
            for (int i = s->n_ends; i <= slot; i++) s->ends[i] = 0;
            s->n_ends = (int16_t)(slot + 1);
        }
        s->ends[slot] = (uint8_t)(s->ends[slot] + (1u << 4 * end));
    }
    m->n_cards++;
    set_hand(s, p, without_card(h, card));
    if (m->owner != p) s->built_other = 1;
    placed(r, s, p, t == RK_JOKER ? 0 : 1ull << t, t == RK_JOKER, r->building_counts_toward_opening ? value : 0);
    return RK_OK;
}

rk_status rk__table_do_release(const rk_table_rules *r, rk_table_state *s, int p, int32_t id) {
    hand h = hand_of(s->hands[p]);
    rk_table_meld *m;
    if (id < RK_TABLE_RELEASE_SET) {
        int slot = (id - RK_TABLE_RELEASE_RUN) / 52, t = (id - RK_TABLE_RELEASE_RUN) % 52;
        if (slot >= s->n_table || meld_is_set(&s->table[slot])) return RK_ERR_ARG;
        m = &s->table[slot];
        int i = 0;
        while (i < m->n_cards && represents(r, m, i) != t) i++;
        int natural = table_copy(r, s, h, t, 0);
        if (i == m->n_cards || m->cards[i] < RK_TABLE_FIRST_JOKER || natural < 0 || s->pending >= MAX_PENDING)
            return RK_ERR_ARG;
        int joker = m->cards[i];
        m->cards[i] = (uint8_t)natural;
        h = without_card(h, natural);
        h.jm |= 1u << (joker - RK_TABLE_FIRST_JOKER);
        set_hand(s, p, h);
        s->pending++;
    } else {
        int slot = (id - RK_TABLE_RELEASE_SET) / 16, suits = (id - RK_TABLE_RELEASE_SET) % 16;
        if (slot >= s->n_table || !meld_is_set(&s->table[slot]) || !suits) return RK_ERR_ARG;
        m = &s->table[slot];
        int k = rk__suit_count((unsigned)suits), take = k > 1 ? k - 1 : 1;
        if (suits & natural_suits(m) || meld_jokers(m) < take || m->n_cards - take + k > 4 ||
            s->pending + take > MAX_PENDING)
            return RK_ERR_ARG;
        for (int su = 0; su < 4; su++)
            if (suits >> su & 1 && phys_copy(h, su * 13 + m->key) < 0) return RK_ERR_ARG;
        uint8_t cards[RK_TABLE_MAX_MELD];
        int n = 0, taken = 0;
        for (int i = 0; i < m->n_cards; i++) {
            int c = m->cards[i];
            if (c >= RK_TABLE_FIRST_JOKER && taken < take) {
                h.jm |= 1u << (c - RK_TABLE_FIRST_JOKER);
                taken++;
            } else {
                cards[n++] = (uint8_t)c;
            }
        }
        for (int su = 0; su < 4; su++) {
            if (!(suits >> su & 1)) continue;
            int c = table_copy(r, s, h, su * 13 + m->key, 0);
            cards[n++] = (uint8_t)c;
            h = without_card(h, c);
        }
        memcpy(m->cards, cards, (size_t)n);
        m->n_cards = (uint8_t)n;
        set_hand(s, p, h);
        s->pending = (int8_t)(s->pending + take);
    }
    s->played |= (uint8_t)(1u << p);
    if (m->owner != p) s->built_other = 1;
    return RK_OK;
}

/* Seat p's move of ``kind`` on a card of type t, newest first in s->recent (rk_table_state). */
static void remember(rk_table_state *s, int p, int kind, int t) {
    uint8_t *r = s->recent[p][kind];
    memmove(r + 1, r, RK_RECENT - 1);
    r[0] = (uint8_t)(t + 1);
}

rk_status rk_table_apply(const rk_table_rules *rules, rk_table_state *state, rk_table_memo *memo, int32_t action) {
    (void)memo; /* the transitions ask no opening questions */
    if (!rules || !state || action < 0) return RK_ERR_ARG;
    rk_table_state *s = state;
    int p = s->player;
    if (s->phase == RK_TABLE_PHASE_DRAW) {
        if (action == RK_TABLE_DRAW) {
            /* the top discard declined, unless the rules forbade taking it (public either way) */
            if (s->n_discards && !(rules->unopened_discard_draw == 1 && unopened_take(rules, s, p)))
                remember(s, p, RK_RECENT_PASS, card_type(s->discards[s->n_discards - 1]));
            if (!s->n_stock && !restock(rules, s)) {
                end_hand(s, RK_TABLE_DEAD, -1);
                return RK_OK;
            }
            add_card(&s->hands[p], s->stock[--s->n_stock]);
            s->phase = RK_TABLE_PHASE_PLAY;
            return RK_OK;
        }
        if (action != RK_TABLE_TAKE || !s->n_discards) return RK_ERR_ARG;
        int card = s->discards[--s->n_discards], t = card_type(card);
        remember(s, p, RK_RECENT_TAKE, t);
        add_card(&s->hands[p], card);
        add_card(&s->known[p], card);
        s->taken = (int8_t)t;
        s->taken_card = (int8_t)card;
        if (rules->kaluki) {
            if (unopened_take(rules, s, p)) s->must = (int8_t)t;
        } else if (rules->taken_discard_must_be_melded) {
            s->must = (int8_t)t;
        }
        s->phase = RK_TABLE_PHASE_PLAY;
        return RK_OK;
    }
    if (s->phase != RK_TABLE_PHASE_PLAY) return RK_ERR_ARG;
    if (action <= RK_JOKER) {
        hand h = hand_of(s->hands[p]);
        int card = discard_copy(rules, s, h, action);
        if (card < 0) return RK_ERR_ARG;
        remember(s, p, RK_RECENT_DISCARD, action);
        set_hand(s, p, without_card(h, card));
        s->discards[s->n_discards++] = (uint8_t)card;
        if (!s->hands[p].w[0] && !s->hands[p].w[1])
            go_out(rules, s, p);
        else
            next_turn(rules, s);
        return RK_OK;
    }
    if (action < RK_TABLE_LAYOFF) return RK_ERR_ARG;
    if (action < RK_TABLE_RELEASE_RUN) {
        int x = action - RK_TABLE_LAYOFF, slot = x / 106, rest = x % 106;
        return do_lay_off(rules, s, p, slot, rest >> 1, rest & 1);
    }
    if (action < RK_TABLE_MELD_SET) return rk__table_do_release(rules, s, p, action);
    if (action < RK_TABLE_MELD_RUN && action >= RK_TABLE_MELD_SET + 13 * 64) return RK_ERR_ARG;
    if (action >= RK_TABLE_NUM_ACTIONS) return RK_ERR_ARG;
    return do_meld(rules, s, p, action);
}

rk_status rk_table_deal_present(const rk_table_rules *rules, const uint8_t *deck, int dealer, unsigned absent,
                                uint64_t shuffle_seed, rk_table_state *state) {
    if (!deck || !state || rk_table_rules_check(rules) != RK_OK) return RK_ERR_ARG;
    int n = rules->num_players, total = rules->deck_size;
    if (dealer < 0 || dealer >= n || absent >> n || absent >> dealer & 1 || n - rk__popcount(absent) < 2)
        return RK_ERR_ARG;
    rk_table_cards seen = {{0, 0}};
    for (int i = 0; i < total; i++) {
        int c = deck[i];
        int ok = c < 104 ? (rules->kaluki || c < 52) : c - RK_TABLE_FIRST_JOKER < total - 104;
        if (!ok || has_card(seen, c)) return RK_ERR_ARG;
        add_card(&seen, c);
    }
    rk__table_deal(rules, deck, dealer, absent, shuffle_seed, state);
    return RK_OK;
}

void rk__table_deal(const rk_table_rules *rules, const uint8_t *deck, int dealer, unsigned absent,
                    uint64_t shuffle_seed, rk_table_state *state) {
    int n = rules->num_players, size = rules->hand_size, total = rules->deck_size;
    rk_table_state *s = state;
    memset(s, 0, sizeof *s);
    s->n_players = (int8_t)n;
    s->absent = (uint8_t)absent;
    int k = n - rk__popcount(absent), dealt = size * k; /* the present seats, one card each in turn */
    for (int i = 0, p = dealer; i < dealt; i++) {
        p = rk__table_next_seat(s, p);
        add_card(&s->hands[p], deck[i]);
    }
    s->discards[0] = deck[dealt];
    s->n_discards = 1;
    for (int i = dealt + 1; i < total; i++) s->stock[total - 1 - i] = deck[i];
    s->n_stock = (int16_t)(total - dealt - 1);
    s->opened = rules->kaluki ? 0 : (uint8_t)((1u << n) - 1);
    s->dealer = (int8_t)dealer;
    s->player = (int8_t)rk__table_next_seat(s, dealer);
    s->phase = RK_TABLE_PHASE_DRAW;
    s->outcome = RK_TABLE_NOT_OVER;
    s->winner = -1;
    s->shuffle_seed = shuffle_seed;
    start_turn(s);
}

int rk_table_is_action(const rk_table_rules *rules, int32_t action) {
    if (!rules || !rk_table_is_action_id(action)) return 0;
    if (action < RK_TABLE_MELD_SET) return 1;
    rk_table_meld m;
    int types[RK_TABLE_MAX_MELD], value;
    return rk__table_pattern(rules, action, &m, types, &value);
}

const char *rk_table_outcome_name(int outcome) {
    static const char *const names[] = {NULL, "dead", "blocked", "rummy", "out", "hunt", "call_off"};
    return outcome > 0 && outcome <= RK_TABLE_CALL_OFF ? names[outcome] : NULL;
}

rk_status rk_table_deal(const rk_table_rules *rules, const uint8_t *deck, int dealer, uint64_t shuffle_seed,
                        rk_table_state *state) {
    return rk_table_deal_present(rules, deck, dealer, 0, shuffle_seed, state);
}
