/*
 * rummykit observation tensors: what one seat knows of a hand, as a float32
 * vector of fixed layout for learning (rummykit.knock.observe and
 * rummykit.table.observe name the slices and document them).  Every state
 * of a family has the same size of tensor, whatever the player count.
 */
#ifndef RUMMYKIT_OBSERVE_H
#define RUMMYKIT_OBSERVE_H

#include "rummykit/knock.h"
#include "rummykit/table.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RK_KNOCK_OBS_SIZE 1699
#define RK_TABLE_OBS_SIZE 2340
#define RK_KNOCK_OBS_SLICES 32
#define RK_TABLE_OBS_SLICES 34

/* The start of each slice of the knock tensor, in order (names: rummykit.knock.observe). */
enum rk_knock_obs_slice {
    RK_KOBS_CUR = 0, RK_KOBS_DEALER = 4, RK_KOBS_NP = 8, RK_KOBS_PHASE = 11, RK_KOBS_HAND = 20, RK_KOBS_TOP = 72, RK_KOBS_REST = 124, RK_KOBS_KSELF = 176,
    RK_KOBS_KOTHERS = 228, RK_KOBS_SEEN = 384, RK_KOBS_SIZES = 540, RK_KOBS_STOCK = 544, RK_KOBS_UP = 545, RK_KOBS_LIMIT = 597, RK_KOBS_GIN = 598,
    RK_KOBS_MULT = 599, RK_KOBS_TAKEN = 600, RK_KOBS_ASIDE = 652, RK_KOBS_RESTOCKS = 704, RK_KOBS_KNOCKER = 705, RK_KOBS_KCARD = 709,
    RK_KOBS_DECLARED = 761, RK_KOBS_TABLE = 813, RK_KOBS_SHOWN = 865, RK_KOBS_RDISCARDS = 917, RK_KOBS_RTAKES = 1125,
    RK_KOBS_RPASSES = 1333, RK_KOBS_DEADWOOD = 1541, RK_KOBS_TAKE_DW = 1542, RK_KOBS_DISCARD_DW = 1543,
    RK_KOBS_MELDED = 1595, RK_KOBS_BEST_DISCARD = 1647
};

/* The start of each slice of the table tensor, in order (names: rummykit.table.observe). */
enum rk_table_obs_slice {
    RK_TOBS_CUR = 0, RK_TOBS_DEALER = 6, RK_TOBS_NP = 12, RK_TOBS_GAME = 17, RK_TOBS_PHASE = 19, RK_TOBS_HAND = 22, RK_TOBS_TOP = 75, RK_TOBS_REST = 128,
    RK_TOBS_KSELF = 181, RK_TOBS_KOTHERS = 234, RK_TOBS_SEEN = 499, RK_TOBS_SIZES = 764, RK_TOBS_STOCK = 770, RK_TOBS_RESTOCKS = 771, RK_TOBS_OPENED = 772,
    RK_TOBS_PLAYED = 778, RK_TOBS_SETS = 784, RK_TOBS_RUNS = 837, RK_TOBS_STANDS = 890, RK_TOBS_OWNED = 943, RK_TOBS_TAKEN = 1261, RK_TOBS_MUST = 1314,
    RK_TOBS_OPEN_VALUE = 1367, RK_TOBS_PENDING = 1368, RK_TOBS_TURN_MELDS = 1369, RK_TOBS_FRESH = 1370, RK_TOBS_BUILT = 1371, RK_TOBS_MIN = 1372,
    RK_TOBS_TURNS = 1373, RK_TOBS_WINNER = 1374, RK_TOBS_VALUES = 1380, RK_TOBS_RDISCARDS = 1386, RK_TOBS_RTAKES = 1704,
    RK_TOBS_RPASSES = 2022
};

/* The slice starts of each tensor in order, then its size (RK_KNOCK_OBS_SLICES
 * + 1 and RK_TABLE_OBS_SLICES + 1 values): for bindings that name the slices. */
const int *rk_knock_obs_starts(void);
const int *rk_table_obs_starts(void);

/* Seat ``player``'s observation tensor of a knock position (the layout of
 * rummykit.knock.observe), written over all RK_KNOCK_OBS_SIZE floats of out.
 * A finished hand shown by the automatic showdown needs the knocker's
 * arrangement (rk_knock_arrangement, with its errors).  RK_ERR_ARG for a
 * seat out of range. */
rk_status rk_knock_observe(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int player,
                           float *out);

/* Seat ``player``'s observation tensor of a table state (the layout of
 * rummykit.table.observe) given the known counts (rk_table_known_step, rummykit/table.h;
 * NULL: none known), written over all RK_TABLE_OBS_SIZE floats of out.
 * RK_ERR_ARG for a seat out of range. */
rk_status rk_table_observe(const rk_table_rules *rules, const rk_table_state *state, const uint8_t *counts, int player,
                           float *out);

#ifdef __cplusplus
}
#endif

#endif
