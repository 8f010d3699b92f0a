/* The score of a finished table-game hand (rk_table_score, rummykit/table.h). */
#include "table_internal.h"

int32_t rk_table_hand_value(const rk_table_rules *rules, rk_table_cards cards) {
    int32_t v = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = cards.w[w]; bits; bits &= bits - 1) v += rules->values[card_type(64 * w + rk__ctz(bits))];
    return v;
}

/* What going rummy adds to a hand value under rules->rummy_bonus (0 double, 1 +25, 2 +10, 3 nothing). */
static int32_t rummy_extra(const rk_table_rules *r, int32_t v) {
    static const int32_t flat[] = {0, 25, 10, 0};
    return r->rummy_bonus == 0 ? v : flat[r->rummy_bonus];
}

/* rk_table_score_values on checked rules. */
static rk_status score_values(const rk_table_rules *r, int outcome, int winner, const int32_t *values,
                              rk_table_result *out) {
    int n = r->num_players;
    int winnerless = outcome == RK_TABLE_DEAD || outcome == RK_TABLE_BLOCKED;
    int won = r->kaluki ? outcome == RK_TABLE_HUNT || outcome == RK_TABLE_CALL_OFF
                        : outcome == RK_TABLE_RUMMY || outcome == RK_TABLE_OUT;
    if (!winnerless && !won) return RK_ERR_ARG;
    if (winnerless ? winner != -1 : (winner < 0 || winner >= n)) return RK_ERR_ARG;
    for (int q = 0; q < n; q++)
        if (values[q] < 0 || values[q] > RK_TABLE_MAX_VALUE) return RK_ERR_ARG;
    memset(out, 0, sizeof *out);
    for (int q = 0; q < n; q++) out->values[q] = values[q];
    if (outcome == RK_TABLE_DEAD) return RK_OK;
    if (r->kaluki && outcome != RK_TABLE_BLOCKED) {
        int hunt = outcome == RK_TABLE_HUNT;
        for (int q = 0; q < n; q++) {
            int32_t v = values[q];
            if (q == winner) {
                out->bonuses[q] = hunt ? r->hunt_bonus : r->call_off_bonus;
            } else {
                out->penalties[q] = !hunt ? v : r->hunt_penalty_mode ? v + 25 : 2 * v;
            }
            out->returns[q] = -out->penalties[q] + (r->kaluki_bonus_accounting ? out->bonuses[q] : 0);
        }
        return RK_OK;
    }
    int rummy = outcome == RK_TABLE_RUMMY;
    if (!r->kaluki && !r->rummy_scoring) { /* winner_collects */
        if (outcome == RK_TABLE_BLOCKED) return RK_OK;
        int32_t total = 0;
        for (int q = 0; q < n; q++) total += values[q];
        if (rummy) total += rummy_extra(r, total);
        out->points[winner] = out->returns[winner] = total;
        return RK_OK;
    }
    for (int q = 0; q < n; q++) {
        if (q == winner) continue;
        out->penalties[q] = values[q] + (rummy ? rummy_extra(r, values[q]) : 0);
        out->returns[q] = -out->penalties[q];
    }
    return RK_OK;
}

rk_status rk_table_score_values(const rk_table_rules *rules, int outcome, int winner, const int32_t *values,
                                rk_table_result *out) {
    if (!values || !out || rk_table_rules_check(rules) != RK_OK) return RK_ERR_ARG;
    return score_values(rules, outcome, winner, values, out);
}

rk_status rk__table_score(const rk_table_rules *rules, const rk_table_state *state, rk_table_result *out) {
    int32_t values[RK_TABLE_MAX_PLAYERS];
    for (int q = 0; q < rules->num_players; q++) values[q] = rk_table_hand_value(rules, state->hands[q]);
    rk_status st = score_values(rules, state->outcome, state->winner, values, out);
    for (int q = 0; st == RK_OK && q < rules->num_players; q++)
        if (state->absent >> q & 1) out->penalties[q] = out->returns[q] = 0; /* out of the hand: scores nothing */
    return st;
}

rk_status rk_table_score(const rk_table_rules *rules, const rk_table_state *state, rk_table_result *out) {
    if (!out || !state || rk_table_rules_check(rules) != RK_OK || state->n_players != rules->num_players)
        return RK_ERR_ARG;
    return rk__table_score(rules, state, out);
}
