/* The table-game state machine (Rummy, Kaluki): rummykit/table.h.  Skeleton. */
#include "rummykit/table.h"

#include <stdlib.h>

struct rk_table_memo {
    int unused;
};

rk_table_memo *rk_table_memo_new(void) { return calloc(1, sizeof(rk_table_memo)); }
void rk_table_memo_free(rk_table_memo *memo) { free(memo); }
rk_status rk_table_rules_check(const rk_table_rules *rules) { (void)rules; return RK_ERR_ARG; }
rk_status rk_table_deal(const rk_table_rules *rules, const uint8_t *deck, int dealer, uint64_t shuffle_seed,
                        rk_table_state *state) {
    (void)rules; (void)deck; (void)dealer; (void)shuffle_seed; (void)state;
    return RK_ERR_ARG;
}
rk_status rk_table_check(const rk_table_rules *rules, const rk_table_state *state) {
    (void)rules; (void)state;
    return RK_ERR_ARG;
}
int rk_table_legal(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo, int32_t *actions,
                   int capacity) {
    (void)rules; (void)state; (void)memo; (void)actions; (void)capacity;
    return RK_ERR_ARG;
}
rk_status rk_table_apply(const rk_table_rules *rules, rk_table_state *state, rk_table_memo *memo, int32_t action) {
    (void)rules; (void)state; (void)memo; (void)action;
    return RK_ERR_ARG;
}
