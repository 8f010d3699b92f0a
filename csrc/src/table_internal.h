/* Internals of the table-game state machine (rummykit/table.h), shared by
 * table_legal.c (the legal actions), table_apply.c (the deal and the
 * transitions) and table_check.c (the rules and state checks).
 *
 * A port of the plain Python engine (tests/reference/table.py, formerly
 * rummykit.table.state): the function names are its method names, and each
 * one computes what the Python one does, in the same steps where the steps
 * decide the answer.  Hands are split into three parts while the search
 * works on them: d0 (types held as the deck-0 copy), d1 (types held as the
 * deck-1 copy) and a 4-bit joker mask, so that "the lowest physical copy"
 * is a bit test. */
#ifndef RUMMYKIT_TABLE_INTERNAL_H
#define RUMMYKIT_TABLE_INTERNAL_H

#include "rummykit/table.h"

#include <string.h>

#include "internal.h"
#include "rummykit/rng.h"

#define TYPE_MASK ((1ull << 52) - 1)
#define MAX_OPTIONS 1056 /* new melds of one hand: at most 13 * 29 sets + 4 * 169 runs */
#define MAX_LEGAL 4096
/* The most released jokers pending that rk_table_check accepts (a hand-edited state may exceed
 * the 4 jokers of the deck; a release that would go past it is refused). */
#define MAX_PENDING RK_TABLE_MAX_PENDING

/* ---- hands ---------------------------------------------------------- */

typedef struct hand {
    uint64_t d0, d1; /* 52-bit type masks of the deck-0 and deck-1 copies held */
    unsigned jm;     /* jokers held: bit j = physical card 104 + j */
    int tt;          /* the type of the card taken this turn while it is held and may not be discarded, else -1 */
} hand;

static inline hand hand_of(rk_table_cards c) {
    hand h;
    h.d0 = c.w[0] & TYPE_MASK;
    h.d1 = ((c.w[0] >> 52) | (c.w[1] << 12)) & TYPE_MASK;
    h.jm = (unsigned)(c.w[1] >> 40) & 15u;
    h.tt = -1;
    return h;
}

static inline rk_table_cards cards_of(hand h) {
    rk_table_cards c;
    c.w[0] = h.d0 | (h.d1 << 52);
    c.w[1] = (h.d1 >> 12) | ((uint64_t)h.jm << 40);
    return c;
}

static inline uint64_t present(hand h) { return h.d0 | h.d1; }
static inline int jokers_of(hand h) { return rk__suit_count(h.jm); }
static inline int hand_count(hand h) { return rk__popcount(h.d0) + rk__popcount(h.d1) + rk__suit_count(h.jm); }
static inline int hand_empty(hand h) { return !(h.d0 | h.d1 | h.jm); }

/* physical_copy: the lowest copy of type t held (-1 if none). */
static inline int phys_copy(hand h, int t) {
    if (t == RK_JOKER) return h.jm ? RK_TABLE_FIRST_JOKER + rk__ctz(h.jm) : -1;
    if (h.d0 >> t & 1) return t;
    return (h.d1 >> t & 1) ? t + 52 : -1;
}

/* The hand after a card of type t (held) goes on the table.  The copies
 * differ only in tt: the taken card goes first (rummykit/table.h), unless
 * it is a joker standing in for a released one (released). */
static inline hand without_type(hand h, int t, int released) {
    if (t == RK_JOKER)
        h.jm &= h.jm - 1;
    else if (h.d0 >> t & 1)
        h.d0 &= ~(1ull << t);
    else
        h.d1 &= ~(1ull << t);
    if (t == h.tt && !(t == RK_JOKER && released)) h.tt = -1;
    return h;
}

/* _table_cards for naturals: the hand after one card of each type in types goes on the table. */
static inline hand without_types(hand h, uint64_t types) {
    h.d1 &= ~(types & ~h.d0);
    h.d0 &= ~types;
    if (h.tt >= 0 && h.tt < RK_JOKER && types >> h.tt & 1) h.tt = -1;
    return h;
}

/* _table_cards: naturals and `jokers` jokers, the first `pending` of them for released ones. */
static inline hand without_option(hand h, uint64_t types, int jokers, int pending) {
    h = without_types(h, types);
    for (int i = 0; i < jokers; i++) h.jm &= h.jm - 1;
    if (h.tt == RK_JOKER && jokers > pending) h.tt = -1;
    return h;
}

/* The naturals of h that may be discarded: all but a taken card held in one copy. */
static inline uint64_t free_naturals(hand h) {
    uint64_t pres = present(h);
    if (h.tt >= 0 && h.tt < RK_JOKER && !((h.d0 & h.d1) >> h.tt & 1)) pres &= ~(1ull << h.tt);
    return pres;
}

/* The jokers of h that may be discarded, released ones included: all but a taken one. */
static inline int free_jokers(hand h) { return jokers_of(h) - (h.tt == RK_JOKER); }

static inline int card_type(int c) { return c >= RK_TABLE_FIRST_JOKER ? RK_JOKER : c % 52; }

static inline int has_card(rk_table_cards c, int card) { return (int)(c.w[card >> 6] >> (card & 63) & 1); }
static inline void add_card(rk_table_cards *c, int card) { c->w[card >> 6] |= 1ull << (card & 63); }

/* The hand without physical card `card` (held). */
static inline hand without_card(hand h, int card) {
    if (card >= RK_TABLE_FIRST_JOKER)
        h.jm &= ~(1u << (card - RK_TABLE_FIRST_JOKER));
    else if (card < 52)
        h.d0 &= ~(1ull << card);
    else
        h.d1 &= ~(1ull << (card - 52));
    return h;
}

/* The mover's hand, tt set while the card taken this turn is held and may not be discarded. */
static inline hand mover_hand(const rk_table_rules *r, const rk_table_state *s) {
    rk_table_cards cards = s->hands[s->player];
    hand h = hand_of(cards);
    if (r->forbid_taken_discard && s->taken_card >= 0 && has_card(cards, s->taken_card))
        h.tt = card_type(s->taken_card);
    return h;
}

/* ---- geometry ------------------------------------------------------- */

static inline int rank_at(const rk_table_rules *r, int p) { return (p + r->shift) % 13; }
static inline int type_at(const rk_table_rules *r, int suit, int p) { return suit * 13 + rank_at(r, p); }
static inline int position_value(const rk_table_rules *r, int suit, int p) {
    if (r->low_ace_one && p == 0) return 1;
    return r->values[type_at(r, suit, p)];
}
static inline int meld_is_set(const rk_table_meld *m) { return m->kind == RK_MELD_SET; }

static inline int natural_suits(const rk_table_meld *m) {
    int s = 0;
    for (int i = 0; i < m->n_cards; i++)
        if (m->cards[i] < RK_TABLE_FIRST_JOKER) s |= 1 << (m->cards[i] % 52 / 13);
    return s;
}

static inline int meld_jokers(const rk_table_meld *m) {
    int n = 0;
    for (int i = 0; i < m->n_cards; i++) n += m->cards[i] >= RK_TABLE_FIRST_JOKER;
    return n;
}

/* TableMeld.represents for card i (sets: jokers stand for the missing suits in order). */
static inline int represents(const rk_table_rules *r, const rk_table_meld *m, int i) {
    if (!meld_is_set(m)) return type_at(r, m->key, r->wrap ? (m->start + i) % 13 : m->start + i);
    if (m->cards[i] < RK_TABLE_FIRST_JOKER) return card_type(m->cards[i]);
    int k = 0; /* this joker is the k-th joker of the meld */
    for (int j = 0; j < i; j++) k += m->cards[j] >= RK_TABLE_FIRST_JOKER;
    int missing = 15 & ~natural_suits(m);
    for (int s = 0; s < 4; s++)
        if (missing >> s & 1 && k-- == 0) return s * 13 + m->key;
    return -1; /* more jokers than missing suits: not a valid set */
}

/* Whether a step of `naturals` and `jokers` jokers puts a card of type t on the table. */
static inline int uses(uint64_t naturals, int jokers, int t) {
    if (t == RK_JOKER) return jokers > 0;
    return t >= 0 && (naturals >> t & 1);
}

/* The next seat after p in turn order: the seats absent from the hand are skipped (n_players
 * bounded, and at least one seat present: rk_table_check). */
static inline int rk__table_next_seat(const rk_table_state *s, int p) {
    int n = s->n_players;
    for (int i = 1; i <= n; i++)
        if (!(s->absent >> (p + i) % n & 1)) return (p + i) % n;
    return p;
}

/* The number of seats in the hand (not absent). */
static inline int rk__table_present(const rk_table_state *s) { return s->n_players - rk__popcount(s->absent); }

/* _take_needs_opening: Kaluki: whether an unopened player must open with the card taken. */
static inline int take_needs_opening(const rk_table_rules *r, const rk_table_state *s) {
    return !(r->unopened_discard_draw == 2 || (r->first_turn_upcard_free && s->turns == 0));
}

/* Kaluki: whether seat p, not yet opened, must open with the top discard to take it (under
 * unopened_discard_draw "forbidden" it may not take it at all). */
static inline int unopened_take(const rk_table_rules *r, const rk_table_state *s, int p) {
    return r->kaluki && !(s->opened >> p & 1) && take_needs_opening(r, s);
}

/* table_apply.c: a meld id decoded (actions.id_pattern): the meld's kind, key, start and size in *m,
 * the types it puts down in table order and its value; 0 if no hand can lay it under r. */
int rk__table_pattern(const rk_table_rules *r, int32_t id, rk_table_meld *m, int *types, int *value);

/* table_apply.c: a joker release (_release) on s, for player p; RK_ERR_ARG with s unchanged if it
 * cannot be made.  table_legal.c tries a release on a copy of the state. */
rk_status rk__table_do_release(const rk_table_rules *r, rk_table_state *s, int p, int32_t id);

/* table_score.c: rk_table_score of a checked rules record and a state at the end of the hand. */
rk_status rk__table_score(const rk_table_rules *r, const rk_table_state *s, rk_table_result *out);
/* rk_table_deal_present on arguments it accepts (checked by the caller). */
void rk__table_deal(const rk_table_rules *rules, const uint8_t *deck, int dealer, unsigned absent,
                    uint64_t shuffle_seed, rk_table_state *state);

#endif /* RUMMYKIT_TABLE_INTERNAL_H */
