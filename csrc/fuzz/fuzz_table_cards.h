/* Card sets of the table-game harnesses (rk_table_cards: one bit a physical
 * card): membership, edits, counts, and every card of a checked state. */
#ifndef RK_FUZZ_TABLE_CARDS_H
#define RK_FUZZ_TABLE_CARDS_H

#include "fuzz_common.h"
#include "rummykit/table.h"

static inline int has(const rk_table_cards *c, int card) { return (int)(c->w[card >> 6] >> (card & 63) & 1); }
static inline void put(rk_table_cards *c, int card) { c->w[card >> 6] |= 1ull << (card & 63); }
static inline void drop(rk_table_cards *c, int card) { c->w[card >> 6] &= ~(1ull << (card & 63)); }
static inline int count(rk_table_cards c) { return rk__popcount(c.w[0]) + rk__popcount(c.w[1]); }
static inline int same_cards(rk_table_cards a, rk_table_cards b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }

/* The cards anywhere in a checked state. */
static inline rk_table_cards all_cards(const rk_table_state *s) {
    rk_table_cards c = {{0, 0}};
    for (int p = 0; p < s->n_players; p++) {
        c.w[0] |= s->hands[p].w[0];
        c.w[1] |= s->hands[p].w[1];
    }
    for (int i = 0; i < s->n_stock; i++) put(&c, s->stock[i]);
    for (int i = 0; i < s->n_discards; i++) put(&c, s->discards[i]);
    for (int i = 0; i < s->n_table; i++)
        for (int k = 0; k < s->table[i].n_cards; k++) put(&c, s->table[i].cards[k]);
    return c;
}

#endif
