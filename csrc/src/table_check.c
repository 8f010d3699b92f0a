/* The checks of the table games: a rules record (rk_table_rules_check) and
 * a state (rk_table_check) before the engine works on them.  See
 * table_internal.h. */
#include "table_internal.h"

#include <stddef.h>
#include <string.h>

/* ---- deal and checks -------------------------------------------------- */

/* Kaluki plays only the geometry and values TableRules derives from ace_low_runs and joker_penalty
 * (the opening search, rk_multi_best, assumes them), and Rummy's own options at their defaults (an
 * opening plan may need any number of melds, and going out, in one turn): rules that disagreed
 * with the opening search could strand a hand. */
static int kaluki_consistent(const rk_table_rules *r) {
    if (r->max_melds_per_turn != -1 || r->no_go_out_first_turn || r->taken_discard_must_be_melded) return 0;
    int low = r->ace_low_runs;
    if (r->npos != (low ? 14 : 13) || r->shift != (low ? 0 : 1) || r->wrap || r->low_ace_one != low) return 0;
    const uint8_t *values = rk_kaluki_values();
    for (int t = 0; t < 52; t++)
        if (r->values[t] != values[t % 13]) return 0;
    return r->values[RK_JOKER] == r->joker_penalty;
}

/* The one schema of the options the engine reads (type, range, choices): rummykit.table.rules builds
 * their option records from it, adding the docs and the narrower sets each game plays.  An int
 * field's text lists the values the option offers (the variants of docs/rules.md); the engine
 * plays any value of the range (the fuzzer explores them). */
#define FIELD(name, member, type, lo, hi, text) {name, offsetof(rk_table_rules, member), type, lo, hi, text}
static const rk_field fields[] = {
    FIELD("is_kaluki", kaluki, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("num_players", num_players, RK_FIELD_INT, 2, 6, NULL),
    FIELD("hand_size", hand_size, RK_FIELD_INT, 1, 107, NULL),
    FIELD("deck_size", deck_size, RK_FIELD_INT, 52, 108, NULL),
    FIELD("npos", npos, RK_FIELD_INT, 13, 14, NULL),
    FIELD("shift", shift, RK_FIELD_INT, 0, 1, NULL),
    FIELD("wrap", wrap, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("low_ace_one", low_ace_one, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("forbid_discarding_taken_card", forbid_taken_discard, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("restock_method", restock_method, RK_FIELD_CHOICE, 0, 2, "reshuffle_keep_top|turn_over|block"),
    FIELD("max_restocks", max_restocks, RK_FIELD_INT, -1, 1000000, NULL),
    FIELD("max_turns", max_turns, RK_FIELD_INT, -1, 1000000, NULL),
    FIELD("go_out_requires_discard", go_out_requires_discard, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("no_go_out_first_turn", no_go_out_first_turn, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("max_melds_per_turn", max_melds_per_turn, RK_FIELD_INT, -1, 1000000, "-1|1"),
    FIELD("taken_discard_must_be_melded", taken_discard_must_be_melded, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("initial_meld_min", initial_meld_min, RK_FIELD_INT, 0, 255, "40|51"),
    FIELD("building_counts_toward_opening", building_counts_toward_opening, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("unopened_discard_draw", unopened_discard_draw, RK_FIELD_CHOICE, 0, 2, "only_if_used_in_opening|forbidden|free"),
    FIELD("first_turn_upcard_free", first_turn_upcard_free, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("ace_low_runs", ace_low_runs, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("joker_penalty", joker_penalty, RK_FIELD_INT, 0, 255, "15|25"),
    FIELD("two_joker_set_release", two_joker_release_one_natural, RK_FIELD_CHOICE, 0, 1, "two_naturals|one_natural"),
    FIELD("max_build_per_run_end", max_build_per_run_end, RK_FIELD_INT, -1, 1000000, "-1|2"),
    FIELD("unopened_may_release_joker", unopened_may_release_joker, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("hunt_allows_building", hunt_allows_building, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("hunt_requires_opening_min", hunt_requires_opening_min, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("joker_discard_allowed", joker_discard_allowed, RK_FIELD_FLAG, 0, 1, NULL),
    FIELD("rummy_bonus", rummy_bonus, RK_FIELD_CHOICE, 0, 3, "double|flat_25|flat_10|none"),
    FIELD("rummy_scoring", rummy_scoring, RK_FIELD_CHOICE, 0, 1, "winner_collects|penalty"),
    FIELD("call_off_bonus", call_off_bonus, RK_FIELD_INT, 0, RK_TABLE_MAX_VALUE, "20"),
    FIELD("hunt_bonus", hunt_bonus, RK_FIELD_INT, 0, RK_TABLE_MAX_VALUE, "40"),
    FIELD("hunt_penalty_mode", hunt_penalty_mode, RK_FIELD_CHOICE, 0, 1, "double|plus_25"),
    FIELD("kaluki_bonus_accounting", kaluki_bonus_accounting, RK_FIELD_CHOICE, 0, 1, "separate|subtract_from_penalty"),
};
#undef FIELD

const rk_field *rk_table_rules_fields(size_t *n) {
    if (n) *n = sizeof fields / sizeof fields[0];
    return fields;
}

rk_status rk_table_rules_check(const rk_table_rules *r) {
    if (!r) return RK_ERR_ARG;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) { /* every field within its table range */
        int v;
        memcpy(&v, (const char *)r + fields[i].offset, sizeof v);
        if (v < fields[i].lo || v > fields[i].hi) return RK_ERR_ARG;
    }
    /* what the ranges alone do not say */
    if (r->kaluki && r->num_players > RK_TABLE_MAX_KALUKI_PLAYERS) return RK_ERR_ARG;
    if (r->kaluki ? (r->deck_size != 106 && r->deck_size != 108) : r->deck_size != 52) return RK_ERR_ARG;
    if (r->hand_size > r->deck_size || r->hand_size * r->num_players + 1 > r->deck_size ||
        (r->kaluki && r->hand_size >= RK_TABLE_MAX_KALUKI_HAND))
        return RK_ERR_ARG;
    if (r->wrap ? (r->npos != 13 || r->shift != 0) : !(r->npos == 13 || (r->npos == 14 && r->shift == 0)))
        return RK_ERR_ARG;
    if (r->low_ace_one && (r->npos != 14 || r->wrap)) return RK_ERR_ARG;
    if (r->kaluki && !kaluki_consistent(r)) return RK_ERR_ARG;
    return RK_OK;
}

/* Whether m is a valid table meld whose cards are in the deck. */
static int meld_valid(const rk_table_rules *r, const rk_table_meld *m) {
    int n = m->n_cards;
    if (n < 3 || n > RK_TABLE_MAX_MELD || meld_jokers(m) == n) return 0; /* n first: meld_jokers reads n cards */
    if (meld_is_set(m)) {
        if (m->key >= 13 || m->start || n > 4) return 0;
        int suits = 0;
        for (int i = 0; i < n; i++) {
            int c = m->cards[i];
            if (c >= RK_TABLE_FIRST_JOKER) continue;
            if (c % 13 != m->key || suits >> (c % 52 / 13) & 1) return 0;
            suits |= 1 << (c % 52 / 13);
        }
        return 1;
    }
    if (m->kind != RK_MELD_RUN || m->key >= 4 || n > 13) return 0;
    if (r->wrap ? m->start >= 13 : m->start + n > r->npos) return 0;
    for (int i = 0; i < n; i++)
        if (m->cards[i] < RK_TABLE_FIRST_JOKER && card_type(m->cards[i]) != represents(r, m, i)) return 0;
    return 1;
}

rk_status rk_table_check(const rk_table_rules *rules, const rk_table_state *s) {
    if (!s || rk_table_rules_check(rules) != RK_OK) return RK_ERR_ARG;
    int n = rules->num_players;
    if (s->n_players != n || s->player < 0 || s->player >= n || s->dealer < 0 || s->dealer >= n) return RK_ERR_ARG;
    if (s->phase < 0 || s->phase > RK_TABLE_PHASE_END || s->n_stock < 0 || s->n_stock > RK_TABLE_MAX_CARDS ||
        s->n_discards < 0 || s->n_discards > RK_TABLE_MAX_CARDS || s->n_table < 0 || s->n_table > RK_TABLE_MAX_SLOTS ||
        s->n_ends < 0 || s->n_ends > RK_TABLE_MAX_SLOTS)
        return RK_ERR_ARG;
    if (s->taken_card < -1 || s->taken_card >= rules->deck_size ||
        s->taken != (s->taken_card < 0 ? -1 : card_type(s->taken_card)))
        return RK_ERR_ARG;
    if (s->taken < -1 || s->taken > RK_JOKER || s->must < -1 || s->must > RK_JOKER || s->pending < 0 ||
        s->pending > MAX_PENDING || s->turns < 0 || s->restocks < 0 || (s->opened | s->played) >> n)
        return RK_ERR_ARG;
    if ((s->fresh & ~1) || (s->built_other & ~1) || s->open_value < 0 || s->turn_melds < 0) return RK_ERR_ARG;
    /* how the hand ended: no outcome while it is on; a winner exactly when someone went out, in an
     * outcome of the game's kind (scoring reads them) */
    if (s->outcome < RK_TABLE_NOT_OVER || s->outcome > RK_TABLE_CALL_OFF || s->winner < -1 || s->winner >= n)
        return RK_ERR_ARG;
    int went_out = s->outcome >= RK_TABLE_RUMMY;
    if ((s->phase == RK_TABLE_PHASE_END) != (s->outcome != RK_TABLE_NOT_OVER) || went_out != (s->winner >= 0) ||
        (went_out && (s->outcome >= RK_TABLE_HUNT) != (rules->kaluki != 0)))
        return RK_ERR_ARG;
    /* seats absent from the hand: at least two present, the player, dealer and winner among them */
    if (s->absent >> n || n - rk__popcount(s->absent) < 2 || s->absent >> s->player & 1 || s->absent >> s->dealer & 1 ||
        (s->winner >= 0 && s->absent >> s->winner & 1))
        return RK_ERR_ARG;
    rk_table_cards deck = {{0, 0}}, seen = {{0, 0}};
    for (int c = 0; c < rules->deck_size; c++) add_card(&deck, c); /* physical ids 0 .. deck_size - 1 */
#define PLACE(card)                                                                \
    do {                                                                           \
        int c_ = (card);                                                           \
        if (c_ >= 128 || !has_card(deck, c_) || has_card(seen, c_)) return RK_ERR_ARG; \
        add_card(&seen, c_);                                                       \
    } while (0)
    for (int p = 0; p < n; p++) {
        rk_table_cards h = s->hands[p];
        if ((h.w[0] & ~deck.w[0]) || (h.w[1] & ~deck.w[1]) || (h.w[0] & seen.w[0]) || (h.w[1] & seen.w[1]))
            return RK_ERR_ARG;
        if ((s->known[p].w[0] & ~h.w[0]) || (s->known[p].w[1] & ~h.w[1])) return RK_ERR_ARG;
        if (s->absent >> p & 1 && (h.w[0] | h.w[1])) return RK_ERR_ARG; /* an absent seat holds no cards */
        if (rules->kaluki && rk__popcount(h.w[0]) + rk__popcount(h.w[1]) > RK_TABLE_MAX_KALUKI_HAND) return RK_ERR_ARG;
        seen.w[0] |= h.w[0];
        seen.w[1] |= h.w[1];
    }
    for (int p = n; p < RK_TABLE_MAX_PLAYERS; p++)
        if (s->hands[p].w[0] | s->hands[p].w[1] | s->known[p].w[0] | s->known[p].w[1]) return RK_ERR_ARG;
    for (int p = 0; p < RK_TABLE_MAX_PLAYERS; p++) /* the history: types + 1, none for seats not in the game */
        for (int k = 0; k < RK_RECENT_KINDS; k++)
            for (int j = 0; j < RK_RECENT; j++)
                if (s->recent[p][k][j] > RK_NUM_TYPES || (p >= n && s->recent[p][k][j])) return RK_ERR_ARG;
    for (int i = 0; i < s->n_stock; i++) PLACE(s->stock[i]);
    for (int i = 0; i < s->n_discards; i++) PLACE(s->discards[i]);
    for (int i = 0; i < s->n_table; i++) {
        const rk_table_meld *m = &s->table[i];
        if (m->owner >= n || !meld_valid(rules, m)) return RK_ERR_ARG;
        for (int k = 0; k < m->n_cards; k++) PLACE(m->cards[k]);
    }
#undef PLACE
    if (s->winner >= 0 && (s->hands[s->winner].w[0] | s->hands[s->winner].w[1])) return RK_ERR_ARG; /* went out */
    return RK_OK;
}
