/* Batches of playouts from determinizations of a position. */
#include "knock_internal.h"

#include <string.h>

/* ---- determinization and batches ------------------------------------ */

static rk_status check_hidden(const rk_knock_rules *pr, const rk_position *known, const rk_hidden *h) {
    if (rk__knock_rules_check(pr) != RK_OK || !rk__in_range(known->n_stock, 0, RK_NUM_CARDS) ||
        !rk__in_range(known->n_discards, 0, RK_NUM_CARDS))
        return RK_ERR_ARG; /* the stock slots are appended below */
    if (h->n_slots < 0 || h->n_slots > RK_NUM_CARDS || h->n_groups < 0 || h->n_groups > RK_NUM_CARDS)
        return RK_ERR_ARG;
    if (h->n_groups == 0 ? h->n_slots != 0 : h->group_end[h->n_groups - 1] != h->n_slots) return RK_ERR_ARG;
    for (int g = 1; g < h->n_groups; g++)
        if (h->group_end[g] < h->group_end[g - 1]) return RK_ERR_ARG;
    rk_position full = *known;
    int n_knock = 0;
    for (int k = 0; k < h->n_slots; k++) {
        int d = h->dest[k], c = h->cards[k];
        if (c >= RK_NUM_CARDS) return RK_ERR_BAD_MASK;
        if (d == RK_DEST_STOCK) {
            if (full.n_stock + full.n_discards >= RK_NUM_CARDS) return RK_ERR_ARG;
            full.stock[full.n_stock++] = (uint8_t)c;
        } else if (d == RK_DEST_KNOCK) {
            if (full.knock_card >= 0 || n_knock++) return RK_ERR_ARG;
            full.knock_card = c;
        } else if (d < pr->num_players) {
            if ((full.hands[d] >> c) & 1u) return RK_ERR_OVERLAP;
            full.hands[d] |= (rk_mask)1 << c;
        } else {
            return RK_ERR_ARG;
        }
    }
    return rk_position_check(pr, &full);
}

rk_status rk_playouts(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *known,
                      const rk_hidden *hidden, rk_policy policy, uint64_t seed, size_t first,
                      size_t n, int32_t *points, uint8_t *outcomes) {
    rk_policy seats[RK_MAX_PLAYERS] = {policy, policy, policy, policy};
    return rk_playouts_seats(rules, pr, known, hidden, seats, seed, first, n, points, outcomes);
}

rk_status rk_playouts_seats(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *known,
                            const rk_hidden *hidden, const rk_policy seats[RK_MAX_PLAYERS], uint64_t seed,
                            size_t first, size_t n, int32_t *points, uint8_t *outcomes) {
    if (!rules || !known || !seats || (n && (!points || !outcomes))) return RK_ERR_ARG;
    for (int s = 0; s < RK_MAX_PLAYERS; s++)
        if (seats[s].kind != RK_POLICY_RANDOM && seats[s].kind != RK_POLICY_GREEDY &&
            seats[s].kind != RK_POLICY_CAREFUL)
            return RK_ERR_ARG;
    rk_status st = hidden ? check_hidden(pr, known, hidden) : rk_position_check(pr, known);
    if (st != RK_OK) return st;
    int np = pr->num_players;
    for (size_t i = 0; i < n; i++) {
        rk_rng rng;
        rk_position pos;
        rk_playout_result r;
        rk_rng_seed(&rng, seed, (uint64_t)(first + i));
        if (hidden)
            rk_knock_sample(known, hidden, &rng, &pos);
        else
            pos = *known;
        st = rk__playout(rules, pr, &pos, seats, &rng, &r);
        if (st != RK_OK) return st;
        for (int s = 0; s < np; s++) points[i * (size_t)np + (size_t)s] = r.points[s];
        outcomes[i] = (uint8_t)r.outcome;
    }
    return RK_OK;
}
