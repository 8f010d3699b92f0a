/* The particle filter (rk_track) on hostile events and particles: any event list, masks,
 * fixed draws, weights, rates, take styles (or none) and model are accepted or refused with a status, never read
 * or written out of bounds; on success every live story's cards are inside the deck and its
 * weight is a number. */
#include <math.h>

#include "fuzz_common.h"
#include "rummykit/track.h"

#define MAX_P 16
#define MAX_DRAWS 6
#define MAX_EVENTS 48

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    const rk_rules *rules = fuzz_rules(&r);
    size_t n = 1 + rd_u8(&r) % MAX_P, n_draws = rd_u8(&r) % (MAX_DRAWS + 1);
    rk_track_model model;
    model.beta = rd_u8(&r) / 16.0;
    model.epsilon = rd_u8(&r) / 255.0;
    model.high = (int8_t)rd_u8(&r) / 8.0;
    model.knock_max = (int8_t)rd_u8(&r);
    model.hand_size = (int8_t)rd_u8(&r) % 14;
    model.free = rd_mask(&r, -1);
    rk_mask dealt[MAX_P], used[MAX_P], hand[MAX_P], s_masks[3][MAX_P];
    int8_t draws[MAX_P * MAX_DRAWS], s_draws[MAX_P * MAX_DRAWS];
    double logw[MAX_P], rate[MAX_P], s_doubles[2][MAX_P];
    uint8_t taker[MAX_P], s_taker[MAX_P];
    int styled = rd_u8(&r) % 2;
    for (size_t i = 0; i < n; i++) {
        dealt[i] = rd_mask(&r, 12);
        used[i] = dealt[i] | rd_mask(&r, 6);
        uint8_t flags = rd_u8(&r);
        logw[i] = flags & 1 ? -INFINITY : flags & 2 ? NAN : (double)(flags >> 2) / 8;
        rate[i] = rd_u8(&r) / 200.0;
        taker[i] = (uint8_t)(rd_u8(&r) % 3); /* 2: refused */
        for (size_t d = 0; d < n_draws; d++) draws[i * n_draws + d] = (int8_t)(rd_u8(&r) % 70 - 8);
    }
    rk_track_event events[MAX_EVENTS];
    size_t n_events = rd_u8(&r) % (MAX_EVENTS + 1);
    int adds = 0;
    for (size_t e = 0; e < n_events; e++) {
        events[e].kind = (int8_t)(rd_u8(&r) % 6);
        if (events[e].kind == RK_EV_ADD && ++adds > 4) events[e].kind = RK_EV_DISCARD; /* hands stay small */
        events[e].card = (int8_t)(rd_u8(&r) % 60 - 2);
        events[e].flag = (int8_t)(rd_u8(&r) % 4);
        events[e].extra = (int8_t)(rd_u8(&r) % 60 - 2);
    }
    rk_particles p = {n, n_draws, dealt, hand, used, draws, logw, rate, styled ? taker : NULL};
    rk_particles s = {n, n_draws, s_masks[0], s_masks[1], s_masks[2], s_draws, s_doubles[0], s_doubles[1],
                      styled ? s_taker : NULL};
    rk_status st = rk_track(rules, &model, events, n_events, &p, &s, rd_u64(&r));
    FUZZ_CHECK(st == RK_OK || st == RK_ERR_ARG || st == RK_ERR_BAD_MASK || st == RK_ERR_EMPTY);
    if (st == RK_OK)
        for (size_t i = 0; i < n; i++) {
            FUZZ_CHECK(!isnan(logw[i]));
            if (logw[i] > -INFINITY) FUZZ_CHECK(!mask_bad(hand[i]) && !mask_bad(dealt[i]) && !mask_bad(used[i]));
        }
    return 0;
}
