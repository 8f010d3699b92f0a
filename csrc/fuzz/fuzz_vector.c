/* libFuzzer harness: batched play (rummykit/vector.h) stepped with hostile
 * action arrays and with the caller's count and legal-id buffers scribbled
 * on between steps.
 *
 * A vector of 1..8 rows of Gin, Oklahoma Rummy 3p, Rummy (2..4 players) or
 * Kaluki 2p (the table games in the fixed or the dense action space), on 1..3 threads, with or without opponents, each buffer alone
 * in a heap block of its exact size.  Then up to 64 steps, each with an
 * action array of fuzz-chosen legal actions, raw int32 values (INT32_MIN,
 * -1, the first id past the slots, an id just off a legal one...), or legal
 * actions with one row's replaced; before some steps the caller's num_legal
 * and legal_ids are overwritten with fuzz bytes (the core must never read
 * them back).
 *
 * Checks: a step succeeds iff every row's action is legal by the harness's
 * own copy of the buffers from the previous step; a refused step names the
 * first illegal row and changes no buffer; after a successful step each
 * row's count is the number of its mask entries, its legal ids (knock
 * games, fixed table games) are the mask's in increasing order, the player is a seat, and
 * rk_vector_row gives a log that the engine replays from the deal to the
 * same player (every few steps).  ASan and UBSan catch any read or write
 * outside the blocks. */
#include "fuzz_common.h"

#include <limits.h>

#include "rummykit/policy.h"
#include "rummykit/vector.h"
#include "../tests/table_fixtures.h"

#define MAX_BATCH 8
#define MAX_STEPS 64

typedef struct shadow {
    uint8_t *mask;
    int32_t *num_legal, *legal_ids, *player;
} shadow;

static void *block(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    FUZZ_CHECK(p != NULL);
    memset(p, 0xA5, bytes); /* garbage: the core must write before anyone reads */
    return p;
}

static int legal_in(const shadow *sh, int num_actions, int i, int32_t a) {
    if (a < 0 || a >= num_actions) return 0;
    return sh->mask[(size_t)i * (size_t)num_actions + (size_t)a] != 0;
}

/* The i-th legal action of row i by the shadow copy (k taken modulo their number). */
static int32_t pick(const shadow *sh, int num_actions, int i, uint32_t k) {
    int n = sh->num_legal[i];
    FUZZ_CHECK(n > 0);
    k %= (uint32_t)n;
    for (int a = 0; a < num_actions; a++)
        if (sh->mask[(size_t)i * (size_t)num_actions + (size_t)a] && k-- == 0) return a;
    FUZZ_CHECK(0);
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static rk_rules rules;
    static int ready;
    if (!ready) {
        FUZZ_CHECK(rk_rules_init(&rules, RK_ACES_LOW, NULL) == RK_OK);
        ready = 1;
    }
    reader rd = {data, size};
    uint8_t game_byte = rd_u8(&rd), game = game_byte % 4;
    int batch = 1 + rd_u8(&rd) % MAX_BATCH;
    int threads = 1 + rd_u8(&rd) % 3;
    int opponents = (int)(rd_u8(&rd) % 3) - 1;
    uint64_t seed = rd_u64(&rd);
    int table = game >= 2, dense = table && (game_byte >> 2 & 1);
    rk_knock_rules kr;
    rk_table_rules tr;
    int players;
    if (game == 0) {
        FUZZ_CHECK(rk_knock_rules_init(&kr, RK_GAME_GIN, 2) == RK_OK);
        players = 2;
    } else if (game == 1) {
        FUZZ_CHECK(rk_knock_rules_init(&kr, RK_GAME_OKLAHOMA_RUMMY, 3) == RK_OK);
        players = 3;
    } else if (game == 2) {
        players = 2 + rd_u8(&rd) % 3;
        tr = rummy_rules(players);
        tr.max_turns = 40; /* hands end within the steps now and then */
    } else {
        players = 2;
        tr = kaluki_rules(2, 2);
        tr.max_turns = 40;
    }
    int num_actions = !table ? RK_KNOCK_NUM_ACTIONS : dense ? RK_VECTOR_TABLE_ACTIONS : RK_TABLE_FIXED_ACTIONS;
    size_t ids_width = !table ? RK_MAX_LEGAL : dense ? 0 : RK_VECTOR_TABLE_ACTIONS; /* a row's legal_ids */
    int obs = table ? RK_TABLE_OBS_SIZE : RK_KNOCK_OBS_SIZE;
    size_t b = (size_t)batch;
    rk_vector_buffers buf;
    buf.legal_mask = block(b * (size_t)num_actions);
    buf.observation = block(b * (size_t)obs * sizeof(float));
    buf.current_player = block(b * sizeof(int32_t));
    buf.rewards = block(b * (size_t)players * sizeof(float));
    buf.terminated = block(b);
    buf.num_legal = block(b * sizeof(int32_t));
    buf.legal_ids = ids_width ? block(b * ids_width * sizeof(int32_t)) : NULL;
    buf.outcome = block(b * sizeof(int32_t));
    buf.winner = block(b * sizeof(int32_t));
    buf.hand_score = block(b * (size_t)players * sizeof(int32_t));
    buf.deadwood = block(b * (size_t)players * sizeof(int32_t));
    shadow sh = {block(b * (size_t)num_actions), block(b * sizeof(int32_t)), block(b * (ids_width ? ids_width : 1) * sizeof(int32_t)),
                 block(b * sizeof(int32_t))};
    int32_t *actions = block(b * sizeof(int32_t));
    rk_table_memo *memo = rk_table_memo_new();
    FUZZ_CHECK(memo != NULL);
    rk_vector *v = table ? rk_vector_new_table(&tr, dense ? RK_VECTOR_DENSE : RK_VECTOR_FIXED, batch, threads, &buf)
                         : rk_vector_new_knock(&rules, &kr, batch, threads, &buf);
    FUZZ_CHECK(v != NULL);
    FUZZ_CHECK(rk_vector_set_opponents(v, opponents) == RK_OK);
    FUZZ_CHECK(rk_vector_reset(v, seed) == RK_OK);
    for (int step = 0; step < MAX_STEPS && rd.n > 0; step++) {
        /* the harness's copy of what the core wrote */
        memcpy(sh.mask, buf.legal_mask, b * (size_t)num_actions);
        memcpy(sh.num_legal, buf.num_legal, b * sizeof(int32_t));
        memcpy(sh.player, buf.current_player, b * sizeof(int32_t));
        if (ids_width) memcpy(sh.legal_ids, buf.legal_ids, b * ids_width * sizeof(int32_t));
        uint8_t mode = rd_u8(&rd);
        int first_bad = -1;
        for (int i = 0; i < batch; i++) {
            int32_t a;
            switch (mode & 3u) {
            case 0: /* legal */
                a = pick(&sh, num_actions, i, rd_u8(&rd));
                break;
            case 1: /* raw */
                a = (int32_t)rd_u32(&rd);
                break;
            case 2: { /* edge values */
                static const int32_t edges[] = {INT32_MIN, -1, 0, 1, RK_KNOCK_NUM_ACTIONS - 1, RK_KNOCK_NUM_ACTIONS,
                                                RK_MAX_LEGAL, RK_VECTOR_TABLE_ACTIONS - 1, RK_VECTOR_TABLE_ACTIONS,
                                                RK_TABLE_FIXED_MELD_SET, RK_TABLE_FIXED_ACTIONS - 1,
                                                RK_TABLE_FIXED_ACTIONS, INT32_MAX};
                uint8_t e = rd_u8(&rd);
                a = e < 13 ? edges[e] : pick(&sh, num_actions, i, e) + (int32_t)(e % 3) - 1;
                break;
            }
            default: /* legal, but one row's replaced */
                a = pick(&sh, num_actions, i, rd_u8(&rd));
                if ((uint8_t)i == (mode >> 2) % (uint8_t)batch) a = (int32_t)rd_u32(&rd);
                break;
            }
            actions[i] = a;
            if (first_bad < 0 && !legal_in(&sh, num_actions, i, a)) first_bad = i;
        }
        if (mode & 0x40u) { /* scribble on the caller's counts and ids: the core never reads them back */
            for (int i = 0; i < batch; i++) buf.num_legal[i] = (int32_t)rd_u32(&rd);
            int32_t stride = (int32_t)rd_u8(&rd) - 128, offset = (int32_t)rd_u32(&rd) % 1024;
            for (size_t k = 0; k < b * ids_width; k++) buf.legal_ids[k] = (int32_t)(k % 97) * stride + offset;
        }
        int bad = -2;
        rk_status st = rk_vector_step(v, actions, &bad);
        if (first_bad >= 0) {
            FUZZ_CHECK(st == RK_ERR_ARG && bad == first_bad);
            FUZZ_CHECK(!memcmp(sh.mask, buf.legal_mask, b * (size_t)num_actions));
            FUZZ_CHECK(!memcmp(sh.player, buf.current_player, b * sizeof(int32_t)));
            /* what the caller scribbled is its own business: restore the true buffers */
            memcpy(buf.num_legal, sh.num_legal, b * sizeof(int32_t));
            if (ids_width) memcpy(buf.legal_ids, sh.legal_ids, b * ids_width * sizeof(int32_t));
            continue;
        }
        FUZZ_CHECK(st == RK_OK && bad == -1);
        for (int i = 0; i < batch; i++) {
            const uint8_t *m = buf.legal_mask + (size_t)i * (size_t)num_actions;
            int n = 0;
            for (int a = 0; a < num_actions; a++) {
                FUZZ_CHECK(m[a] <= 1);
                if (m[a]) {
                    if (dense) FUZZ_CHECK(a == n);
                    else FUZZ_CHECK(buf.legal_ids[(size_t)i * ids_width + (size_t)n] == a);
                    n++;
                }
            }
            FUZZ_CHECK(n > 0 && n == buf.num_legal[i]);
            FUZZ_CHECK(buf.current_player[i] >= 0 && buf.current_player[i] < players);
            FUZZ_CHECK(buf.terminated[i] <= 1);
        }
        if (step % 8 == 7) { /* each row's log replays from its deal to the same player */
            for (int i = 0; i < batch; i++) {
                const uint8_t *deck;
                const int32_t *log;
                int deck_size, dealer, n_log;
                uint64_t shuffle;
                int64_t hands;
                FUZZ_CHECK(rk_vector_row(v, i, &deck, &deck_size, &dealer, &shuffle, &log, &n_log, &hands) == RK_OK);
                int player;
                if (table) {
                    rk_table_state s;
                    FUZZ_CHECK(rk_table_deal(&tr, deck, dealer, shuffle, &s) == RK_OK);
                    for (int k = 0; k < n_log; k++) FUZZ_CHECK(rk_table_apply(&tr, &s, memo, log[k]) == RK_OK);
                    player = s.player;
                } else {
                    rk_position p;
                    FUZZ_CHECK(rk_position_deal(&kr, deck, dealer, shuffle, &p) == RK_OK);
                    for (int k = 0; k < n_log; k++) FUZZ_CHECK(rk_apply_action(&rules, &kr, &p, log[k], NULL) == RK_OK);
                    player = p.player;
                }
                FUZZ_CHECK(player == buf.current_player[i]);
            }
        }
    }
    rk_vector_free(v);
    rk_table_memo_free(memo);
    free(actions);
    free(sh.mask);
    free(sh.num_legal);
    free(sh.legal_ids);
    free(sh.player);
    free(buf.legal_mask);
    free(buf.observation);
    free(buf.current_player);
    free(buf.rewards);
    free(buf.terminated);
    free(buf.num_legal);
    free(buf.legal_ids);
    free(buf.outcome);
    free(buf.winner);
    free(buf.hand_score);
    free(buf.deadwood);
    return 0;
}
