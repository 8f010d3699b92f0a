/* Table-game policies, determinization and playouts
 * (rummykit/table_playouts.h) on hands of Rummy and Kaluki (default rules
 * with fuzzed option bits) dealt from a fuzzed seed and walked by
 * fuzz-chosen actions: the greedy and random policies' actions are legal;
 * playouts from the state (stock resampled) succeed and give the same
 * arrays in one call as one at a time; a hidden-card spec built from the
 * state and then fuzzed is refused by rk_table_hidden_check or, if
 * accepted, every determinization from it is an error status or a state
 * that rk_table_check accepts, and playouts from it succeed or fail with a
 * status.  The walk keeps its step log (rk_table_step): the hidden lists of a
 * fuzz-chosen seat fit the state (rk_table_hidden_of, rk_table_hidden_check),
 * its world (rk_table_world_of) passes rk_table_check with the same public
 * fields and its replay (rk_table_replay) ends there; with a fuzzed log byte
 * both give an error status or such a state. */
#include "fuzz_common.h"
#include "rummykit/table_playouts.h"

#define CAP 4096
#define MAX_PLACES 120
#define MAX_WALK 256

static rk_table_rules fuzz_table_rules(reader *rd) {
    uint8_t f = rd_u8(rd), g = rd_u8(rd);
    rk_table_rules r;
    memset(&r, 0, sizeof r);
    int kaluki = f & 1;
    r.kaluki = kaluki;
    r.num_players = 2 + (f >> 1) % (kaluki ? 4 : 5);
    int n = r.num_players;
    r.hand_size = kaluki ? 13 : n == 2 ? 10 : n <= 4 ? 7 : 6;
    r.deck_size = kaluki ? 104 + ((f >> 4 & 1) ? 4 : 2) : 52;
    r.forbid_taken_discard = f >> 5 & 1;
    r.restock_method = kaluki ? 0 : g % 3;
    r.max_restocks = -1;
    r.max_turns = 40 + (g >> 2) % 200;
    r.go_out_requires_discard = kaluki;
    r.max_melds_per_turn = -1;
    r.initial_meld_min = 40;
    r.joker_penalty = 15;
    r.max_build_per_run_end = 2;
    r.hunt_allows_building = 1;
    r.hunt_requires_opening_min = !(f >> 6 & 1);
    r.joker_discard_allowed = 1;
    r.unopened_discard_draw = kaluki ? (g >> 4) % 3 : 0;
    r.unopened_may_release_joker = kaluki && (f >> 7 & 1);
    r.npos = 13;
    r.shift = kaluki;
    for (int t = 0; t < 52; t++) {
        int rank = t % 13;
        r.values[t] = (uint8_t)(rank == 0 ? (kaluki ? 11 : 1) : rank < 9 ? rank + 1 : 10);
    }
    r.values[RK_JOKER] = (uint8_t)(kaluki ? 15 : 0);
    if (!kaluki) r.taken_discard_must_be_melded = g >> 6 & 1;
    return r;
}

static int in_list(const int32_t *ids, int n, int32_t a) {
    for (int i = 0; i < n; i++)
        if (ids[i] == a) return 1;
    return 0;
}

static int card_type(int c) { return c >= RK_TABLE_FIRST_JOKER ? RK_JOKER : c % 52; }
static int bit(rk_table_cards c, int card) { return (int)(c.w[card >> 6] >> (card & 63) & 1); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader rd = {data, size};
    rk_table_rules r = fuzz_table_rules(&rd);
    FUZZ_CHECK(rk_table_rules_check(&r) == RK_OK);
    uint8_t deck[RK_TABLE_MAX_CARDS];
    rk_rng rng;
    for (int i = 0; i < r.deck_size; i++) deck[i] = (uint8_t)i;
    rk_rng_seed(&rng, rd_u64(&rd), 1);
    rk_rng_shuffle(&rng, deck, (size_t)r.deck_size);
    rk_table_state s;
    FUZZ_CHECK(rk_table_deal(&r, deck, 0, 7, &s) == RK_OK);
    static int32_t ids[CAP], actions[MAX_WALK];
    static uint8_t entries[MAX_WALK][RK_TABLE_STEP_MAX];
    static const uint8_t *log_steps[MAX_WALK];
    static uint64_t world_work[(1 << 17) / 8];
    int steps = rd_u8(&rd), n_log = 0;
    for (int k = 0; k < steps && s.phase != RK_TABLE_PHASE_END; k++) {
        int n = rk_table_legal(&r, &s, NULL, ids, CAP);
        FUZZ_CHECK(n > 0 && n <= CAP);
        uint8_t b = rd_u8(&rd);
        int32_t a = b < 128 ? rk_table_greedy(&r, &s, NULL) : ids[b % n];
        FUZZ_CHECK(in_list(ids, n, a));
        rk_rng pick;
        rk_rng_seed(&pick, b, 0);
        FUZZ_CHECK(in_list(ids, n, rk_table_policy_action(&r, &s, NULL, RK_TABLE_POLICY_RANDOM, &pick)));
        rk_table_state before = s;
        FUZZ_CHECK(rk_table_apply(&r, &s, NULL, a) == RK_OK);
        int len = rk_table_step(&r, &before, &s, a, n_log ? entries[n_log - 1] : NULL, entries[n_log]);
        FUZZ_CHECK(len >= RK_TABLE_STEP_HEAD && (size_t)len == rk_table_step_length(entries[n_log]));
        actions[n_log] = a;
        log_steps[n_log] = entries[n_log];
        n_log++;
    }
    /* the hidden lists and a world for a seat, from the log; then from a fuzzed log */
    {
        rk_table_log log = {actions, log_steps, n_log};
        rk_table_hidden lists;
        rk_table_world world;
        rk_table_state end;
        int p = rd_u8(&rd) % r.num_players;
        FUZZ_CHECK(rk_table_world_size(&r, n_log) <= sizeof world_work);
        FUZZ_CHECK(rk_table_hidden_of(&r, &s, deck, &log, p, world_work, &lists) == RK_OK);
        FUZZ_CHECK(rk_table_hidden_check(&r, &s, &lists) == RK_OK);
        rk_rng_seed(&rng, rd_u64(&rd), 0);
        FUZZ_CHECK(rk_table_world_of(&r, &s, deck, &log, p, rd_u8(&rd) % 3, &rng, NULL, world_work, &world) == RK_OK);
        FUZZ_CHECK(rk_table_check(&r, &world.state) == RK_OK);
        FUZZ_CHECK(world.state.phase == s.phase && world.state.player == s.player && world.state.n_stock == s.n_stock);
        FUZZ_CHECK(rk_table_replay(&r, world.deck, s.dealer, s.absent, world.state.shuffle_seed, actions, n_log,
                                   world.orders, world.n_orders, NULL, NULL, &end) == RK_OK);
        FUZZ_CHECK(!memcmp(&end, &world.state, sizeof end));
        if (n_log) {
            int i = rd_u8(&rd) % n_log;
            size_t len = rk_table_step_length(entries[i]);
            entries[i][rd_u8(&rd) % len] = rd_u8(&rd);
            if (rk_table_step_length(entries[i]) == len) { /* the caller checks each entry's length */
                if (rk_table_hidden_of(&r, &s, deck, &log, p, world_work, &lists) == RK_OK)
                    (void)rk_table_hidden_check(&r, &s, &lists);
                if (rk_table_world_of(&r, &s, deck, &log, p, 2, &rng, NULL, world_work, &world) == RK_OK)
                    FUZZ_CHECK(rk_table_check(&r, &world.state) == RK_OK);
            }
        }
    }
    if (s.phase == RK_TABLE_PHASE_END) {
        FUZZ_CHECK(rk_table_greedy(&r, &s, NULL) == RK_ERR_EMPTY);
        return 0;
    }
    /* playouts with the stock resampled: one call of 2 == two calls of 1 */
    int np = r.num_players, policy = rd_u8(&rd) & 1;
    int32_t v[2 * RK_TABLE_MAX_PLAYERS], w[2 * RK_TABLE_MAX_PLAYERS];
    uint8_t o[2], o2[2];
    int8_t win[2], win2[2];
    rk_table_hidden stock = {0};
    stock.mode = RK_TABLE_RESAMPLE_STOCK;
    stock.observer = s.player;
    FUZZ_CHECK(rk_table_playouts(&r, &s, &stock, policy, 3, 0, 2, NULL, NULL, v, o, win) == RK_OK);
    FUZZ_CHECK(rk_table_playouts(&r, &s, &stock, policy, 3, 0, 1, NULL, NULL, w, o2, win2) == RK_OK);
    FUZZ_CHECK(rk_table_playouts(&r, &s, &stock, policy, 3, 1, 1, NULL, NULL, w + np, o2 + 1, win2 + 1) == RK_OK);
    FUZZ_CHECK(!memcmp(v, w, sizeof(int32_t) * 2 * (size_t)np) && !memcmp(o, o2, 2) && !memcmp(win, win2, 2));
    /* a hidden-card spec: the other seats' cards and the stock one group, no history; then fuzzed */
    static int32_t group[MAX_PLACES];
    static uint8_t pool[2 * RK_NUM_TYPES], seat[MAX_PLACES], fseat[4], ftype[4], bseat[4],
        btype[4], types[MAX_PLACES];
    static int32_t time[MAX_PLACES], ftime[4], btime[4];
    memset(pool, 0, sizeof pool);
    rk_table_hidden h = {0};
    h.mode = RK_TABLE_RESAMPLE_HIDDEN;
    h.observer = s.player;
    h.n_groups = 1 + (rd_u8(&rd) & 1);
    h.now = 5;
    h.pool = pool;
    h.place_seat = seat;
    h.place_group = group;
    h.place_time = time;
    h.fill_seat = fseat;
    h.fill_type = ftype;
    h.fill_time = ftime;
    h.ban_seat = bseat;
    h.ban_type = btype;
    h.ban_time = btime;
    for (int q = 0; q < np; q++) {
        if (q == s.player) continue;
        for (int c = 0; c < RK_TABLE_MAX_CARDS && h.n_places < MAX_PLACES; c++)
            if (bit(s.hands[q], c)) {
                pool[card_type(c)]++;
                seat[h.n_places] = (uint8_t)q;
                group[h.n_places] = 0;
                time[h.n_places++] = -1;
            }
    }
    for (int i = 0; i < s.n_stock; i++) pool[card_type(s.stock[i])]++;
    for (int k = rd_u8(&rd) % 8; k > 0; k--) { /* fuzz the spec */
        uint8_t what = rd_u8(&rd), x = rd_u8(&rd), y = rd_u8(&rd);
        switch (what % 8) {
        case 0: pool[x % (2 * RK_NUM_TYPES)] = y; break;
        case 1: if (h.n_places) seat[x % h.n_places] = y % 8; break;
        case 2: if (h.n_places) group[x % h.n_places] = y % 3; break;
        case 3: if (h.n_places) time[x % h.n_places] = (int32_t)y - 2; break;
        case 4: if (h.n_fills < 4) { fseat[h.n_fills] = x % 8; ftype[h.n_fills] = y % 60; ftime[h.n_fills++] = (int32_t)(x % 8); } break;
        case 5: if (h.n_bans < 4) { bseat[h.n_bans] = x % 8; btype[h.n_bans] = y % 60; btime[h.n_bans++] = (int32_t)(x % 8); } break;
        case 6: h.known[x % RK_TABLE_MAX_PLAYERS][y % RK_NUM_TYPES] = (uint8_t)(rd_u8(&rd) % 3); break;
        default: h.stock_group = (int)(x % 4) - 1; h.observer = y % np; break;
        }
    }
    if (rk_table_hidden_check(&r, &s, &h) != RK_OK) return 0;
    static uint64_t work[(MAX_PLACES * 9 + 2 * RK_NUM_TYPES + RK_TABLE_MAX_CARDS + 64) / 8];
    FUZZ_CHECK(rk_table_work_size(&h) <= sizeof work);
    for (int k = 0; k < 3; k++) {
        rk_table_state out;
        rk_rng_seed(&rng, 11, (uint64_t)k);
        int got = rk_table_determinize(&r, &s, &h, &rng, NULL, work, &out, types);
        if (got >= 0) FUZZ_CHECK(rk_table_check(&r, &out) == RK_OK);
    }
    rk_status st = rk_table_playouts(&r, &s, &h, policy, 5, 0, 1, NULL, work, v, o, win);
    if (st == RK_OK) FUZZ_CHECK(o[0] >= RK_TABLE_DEAD && o[0] <= RK_TABLE_CALL_OFF);
    return 0;
}
