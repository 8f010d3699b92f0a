/* The table games' default rules records, shared by the C tests. */
#ifndef RUMMYKIT_TESTS_TABLE_FIXTURES_H
#define RUMMYKIT_TESTS_TABLE_FIXTURES_H

#include <string.h>

#include "rummykit/table.h"

/* The rules record of rummykit.table.state.table_spec for the defaults of
 * "rummy" and "kaluki" (num_players players; Kaluki with `jokers` jokers). */
static inline rk_table_rules rummy_rules(int players) {
    rk_table_rules r;
    memset(&r, 0, sizeof r);
    r.num_players = players;
    r.hand_size = players == 2 ? 10 : players <= 4 ? 7 : 6;
    r.deck_size = 52;
    r.npos = 13;
    for (int t = 0; t < 52; t++) r.values[t] = (uint8_t)(t % 13 == 0 ? 1 : t % 13 < 9 ? t % 13 + 1 : 10);
    r.forbid_taken_discard = 1;
    r.max_restocks = -1;
    r.max_turns = 1000;
    r.max_melds_per_turn = -1;
    r.initial_meld_min = 40;
    r.joker_penalty = 15;
    r.max_build_per_run_end = 2;
    r.hunt_allows_building = 1;
    r.hunt_requires_opening_min = 1;
    r.joker_discard_allowed = 1;
    r.call_off_bonus = 20;
    r.hunt_bonus = 40;
    return r;
}

static inline rk_table_rules kaluki_rules(int players, int jokers) {
    rk_table_rules r = rummy_rules(players);
    r.kaluki = 1;
    r.hand_size = 13;
    r.deck_size = 104 + jokers;
    r.shift = 1;
    r.go_out_requires_discard = 1;
    for (int t = 0; t < 52; t++) r.values[t] = (uint8_t)(t % 13 == 0 ? 11 : t % 13 < 9 ? t % 13 + 1 : 10);
    r.values[RK_JOKER] = 15;
    return r;
}

/* A seeded xorshift for the tests' decks and choices (set rng_state first; not 0). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static inline uint32_t next_below(uint32_t n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 32) * n >> 32);
}

static inline void shuffled_deck(int size, uint8_t *deck) {
    for (int i = 0; i < size; i++) deck[i] = (uint8_t)i;
    for (int i = size - 1; i > 0; i--) {
        int j = (int)next_below((uint32_t)i + 1);
        uint8_t x = deck[i];
        deck[i] = deck[j];
        deck[j] = x;
    }
}

#endif
