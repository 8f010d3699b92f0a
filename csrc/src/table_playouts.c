/* Table-game playouts (rummykit/table_playouts.h). */
#include "rummykit/table_playouts.h"

#include <string.h>

#include "table_internal.h"


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
