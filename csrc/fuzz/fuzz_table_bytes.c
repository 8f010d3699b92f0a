/* Table states from bytes: the load path of the Python bridge (_table.pxi), which
 * unpickles the bytes of an rk_table_state and its undo entries (the bytes
 * before each action), checks each with rk_table_check before the engine
 * reads it, reads fields through getters that bound every stored count, and
 * restores undo entries one by one, checking each before it is restored.
 *
 * A hand is dealt under one of a few rules records (Rummy and Kaluki, every
 * run geometry, both Kaluki decks) and walked by input-chosen listed
 * actions, keeping the undo entries; then the input tampers with the live
 * state and the entries (bytes anywhere, count and meld fields at their
 * edges, or a whole struct of raw input), each lying alone in a heap block
 * of its exact size so that ASan sees any read past it (UBSan's bounds
 * check sees an index past an array inside it).  Every tampered struct goes
 * through the bounded getters; every one rk_table_check accepts through
 * rk_table_legal (sorted ids) and rk_table_apply of listed and unlisted ids
 * (an error leaves it unchanged; success gives a state the check accepts,
 * with the same cards); then undo to the deal, as the bridge does it: an
 * entry the check refuses is not restored. */
#include <stddef.h>

#include "fuzz_table_cards.h"

#define CAP 4096 /* table_internal.h's MAX_LEGAL */
#define MAX_ENTRIES 48

static void set_values(rk_table_rules *r, int ace, int joker) {
    for (int t = 0; t < 52; t++) {
        int rank = t % 13;
        r->values[t] = (uint8_t)(rank == 0 ? ace : rank < 9 ? rank + 1 : 10);
    }
    r->values[RK_JOKER] = (uint8_t)joker;
}

/* Rules records as rummykit.table.state.table_spec() fills them from TableRules. */
static void rules_of(uint8_t f, uint8_t g, rk_table_rules *r) {
    memset(r, 0, sizeof *r);
    int kaluki = f & 1;
    r->kaluki = kaluki;
    r->num_players = 2 + (f >> 1) % (kaluki ? 4 : 5);
    int n = r->num_players;
    r->hand_size = kaluki ? 13 : n == 2 ? 10 : n <= 4 ? 7 : 6;
    r->deck_size = kaluki ? (g & 1 ? 108 : 106) : 52;
    r->forbid_taken_discard = g >> 1 & 1;
    r->restock_method = kaluki ? 0 : (g >> 2) % 3;
    r->max_restocks = (g >> 4 & 1) ? 1 : -1;
    r->max_turns = (g >> 5 & 1) ? 12 : -1;
    r->go_out_requires_discard = kaluki;
    r->max_melds_per_turn = -1;
    r->initial_meld_min = 40;
    r->joker_penalty = 15;
    r->max_build_per_run_end = 2;
    r->hunt_allows_building = 1;
    r->hunt_requires_opening_min = 1;
    r->joker_discard_allowed = 1;
    if (!kaluki) {
        int geo = (f >> 4) % 4; /* aces low, high, high or low, wrapping */
        r->wrap = geo == 3;
        r->npos = geo == 2 ? 14 : 13;
        r->shift = geo == 1;
        set_values(r, geo ? 11 : 1, 0);
        r->taken_discard_must_be_melded = g >> 6 & 1;
        return;
    }
    r->ace_low_runs = f >> 4 & 1;
    r->npos = r->ace_low_runs ? 14 : 13;
    r->shift = !r->ace_low_runs;
    r->low_ace_one = r->ace_low_runs;
    r->unopened_may_release_joker = f >> 5 & 1;
    r->unopened_discard_draw = (g >> 6) % 3;
    set_values(r, 11, r->joker_penalty);
}

/* ---- the bridge's reads --------------------------------------------------- */

static int bounded(int n, int most) { return n < 0 ? 0 : n > most ? most : n; }

/* What TableCore's getters read (hands, known, stock, discards, ends, the
 * table melds), each count bounded by its buffer: a checksum, so that
 * nothing is optimised away. */
static uint64_t getters(const rk_table_state *s) {
    uint64_t sum = 0;
    for (int p = 0; p < bounded(s->n_players, RK_TABLE_MAX_PLAYERS); p++)
        sum += s->hands[p].w[0] ^ s->hands[p].w[1] ^ s->known[p].w[0] ^ s->known[p].w[1];
    for (int i = 0; i < bounded(s->n_stock, RK_TABLE_MAX_CARDS); i++) sum += s->stock[i];
    for (int i = 0; i < bounded(s->n_discards, RK_TABLE_MAX_CARDS); i++) sum += s->discards[i];
    for (int i = 0; i < bounded(s->n_ends, RK_TABLE_MAX_SLOTS); i++) sum += s->ends[i];
    for (int i = 0; i < bounded(s->n_table, RK_TABLE_MAX_SLOTS); i++) {
        const rk_table_meld *m = &s->table[i];
        sum += (uint64_t)m->kind + m->key + m->start + m->owner;
        for (int k = 0; k < bounded(m->n_cards, RK_TABLE_MAX_MELD); k++) sum += m->cards[k];
    }
    return sum + (uint64_t)s->phase + (uint64_t)s->outcome + (uint64_t)s->winner;
}

/* What a checked state promises its readers: every count within its buffer. */
static void check_bounds(const rk_table_state *s) {
    FUZZ_CHECK(s->n_players >= 2 && s->n_players <= RK_TABLE_MAX_PLAYERS);
    FUZZ_CHECK(s->n_stock >= 0 && s->n_stock <= RK_TABLE_MAX_CARDS);
    FUZZ_CHECK(s->n_discards >= 0 && s->n_discards <= RK_TABLE_MAX_CARDS);
    FUZZ_CHECK(s->n_table >= 0 && s->n_table <= RK_TABLE_MAX_SLOTS);
    FUZZ_CHECK(s->n_ends >= 0 && s->n_ends <= RK_TABLE_MAX_SLOTS);
    for (int i = 0; i < s->n_table; i++) FUZZ_CHECK(s->table[i].n_cards >= 3 && s->table[i].n_cards <= RK_TABLE_MAX_MELD);
    FUZZ_CHECK(s->phase >= RK_TABLE_PHASE_DRAW && s->phase <= RK_TABLE_PHASE_END);
    FUZZ_CHECK(s->outcome >= RK_TABLE_NOT_OVER && s->outcome <= RK_TABLE_CALL_OFF);
    FUZZ_CHECK(s->winner >= -1 && s->winner < s->n_players);
}

/* ---- a checked state's verbs ------------------------------------------------ */

static rk_table_memo *memo;
static int32_t ids[CAP];
static volatile uint64_t sink; /* what the getters read: kept, so that the reads happen */

/* A state in a heap block of its own size (ASan sees a read past its end). */
static rk_table_state *boxed(const rk_table_state *s) {
    rk_table_state *b = malloc(sizeof *b);
    FUZZ_CHECK(b != NULL);
    memcpy(b, s, sizeof *b);
    return b;
}

/* Applies a to a copy of s: an error leaves the copy as it was, success
 * gives a state the check accepts with the same cards. */
static void try_apply(const rk_table_rules *r, const rk_table_state *s, int32_t a) {
    rk_table_state *next = boxed(s);
    rk_status st = rk_table_apply(r, next, memo, a);
    if (st != RK_OK)
        FUZZ_CHECK(st == RK_ERR_ARG && !memcmp(next, s, sizeof *s));
    else
    {
        rk_table_cards before = all_cards(s), after = all_cards(next);
        FUZZ_CHECK(rk_table_check(r, next) == RK_OK && before.w[0] == after.w[0] && before.w[1] == after.w[1]);
    }
    free(next);
}

/* legal, then a few listed ids and a few others applied to copies. */
static void exercise(const rk_table_rules *r, const rk_table_state *s, reader *rd, int applies) {
    check_bounds(s);
    int n = rk_table_legal(r, s, memo, ids, CAP);
    if (n == RK_ERR_CAPACITY) return;
    FUZZ_CHECK(n >= 0 && n <= CAP);
    for (int i = 1; i < n; i++) FUZZ_CHECK(ids[i - 1] < ids[i]);
    if (s->phase == RK_TABLE_PHASE_END) FUZZ_CHECK(n == 0);
    for (int i = 0; i < applies && n; i++) try_apply(r, s, ids[rd_u8(rd) % n]);
    for (int i = rd_u8(rd) % 3; i > 0; i--) {
        int32_t a = (int32_t)rd_u32(rd);
        try_apply(r, s, rd_u8(rd) & 1 ? a % (RK_TABLE_MELD_RUN + 4 * 14 * 14 * 8192 + 64) : a);
    }
}

/* ---- tampering ----------------------------------------------------------- */

static const size_t count_fields[] = {offsetof(rk_table_state, n_stock), offsetof(rk_table_state, n_discards),
                                      offsetof(rk_table_state, n_table), offsetof(rk_table_state, n_ends),
                                      offsetof(rk_table_state, open_value), offsetof(rk_table_state, turn_melds)};
static const size_t byte_fields[] = {
    offsetof(rk_table_state, phase),      offsetof(rk_table_state, player),      offsetof(rk_table_state, dealer),
    offsetof(rk_table_state, n_players),  offsetof(rk_table_state, opened),      offsetof(rk_table_state, played),
    offsetof(rk_table_state, taken),      offsetof(rk_table_state, taken_card),  offsetof(rk_table_state, must),
    offsetof(rk_table_state, pending),    offsetof(rk_table_state, fresh),       offsetof(rk_table_state, built_other),
    offsetof(rk_table_state, outcome),    offsetof(rk_table_state, winner),      offsetof(rk_table_state, absent)};
static const int16_t edges16[] = {-32768, -1, 0, 1, 3, 13, 14, 15, 40, 41, 107, 108, 109, 255, 256, 32767};
static const uint8_t edges8[] = {0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 52, 53, 64, 65, 103, 104, 107, 108, 127, 128, 255};

static void tamper(rk_table_state *s, reader *rd) {
    uint8_t *bytes = (uint8_t *)s;
    uint8_t op = rd_u8(rd);
    switch (op % 6) {
    case 0: { /* bytes anywhere */
        size_t at = (rd_u8(rd) | (size_t)rd_u8(rd) << 8) % sizeof *s;
        for (int k = 1 + op / 6 % 8; k > 0 && at < sizeof *s; k--) bytes[at++] = rd_u8(rd);
        break;
    }
    case 1: { /* a count at an edge */
        int16_t v = edges16[rd_u8(rd) % (sizeof edges16 / sizeof edges16[0])];
        memcpy(bytes + count_fields[rd_u8(rd) % (sizeof count_fields / sizeof count_fields[0])], &v, sizeof v);
        break;
    }
    case 2: /* a one-byte field at an edge */
        bytes[byte_fields[rd_u8(rd) % (sizeof byte_fields / sizeof byte_fields[0])]] =
            edges8[rd_u8(rd) % sizeof edges8];
        break;
    case 3: { /* a table meld's field or card */
        rk_table_meld *m = &s->table[rd_u8(rd) % RK_TABLE_MAX_SLOTS];
        uint8_t v = edges8[rd_u8(rd) % sizeof edges8], which = rd_u8(rd) % 6;
        if (which == 0) m->kind = v;
        if (which == 1) m->key = v;
        if (which == 2) m->start = v;
        if (which == 3) m->n_cards = v;
        if (which == 4) m->owner = v;
        if (which == 5) m->cards[rd_u8(rd) % RK_TABLE_MAX_MELD] = v;
        break;
    }
    case 4: /* a card in a pile or a hand bit */
        if (op & 64)
            s->stock[rd_u8(rd) % RK_TABLE_MAX_CARDS] = edges8[rd_u8(rd) % sizeof edges8];
        else
            s->hands[rd_u8(rd) % RK_TABLE_MAX_PLAYERS].w[rd_u8(rd) & 1] ^= 1ull << (rd_u8(rd) & 63);
        break;
    default: /* a whole struct of input bytes (zeros once the input runs out) */
        for (size_t i = 0; i < sizeof *s; i++) bytes[i] = rd_u8(rd);
        break;
    }
}

/* ---- entry ----------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader rd = {data, size};
    if (!memo) memo = rk_table_memo_new(); /* one memo for every rules record (its keys hold the rules) */
    FUZZ_CHECK(memo != NULL);
    rk_table_rules r;
    uint8_t f = rd_u8(&rd), g = rd_u8(&rd);
    rules_of(f, g, &r);
    FUZZ_CHECK(rk_table_rules_check(&r) == RK_OK);
    uint8_t deck[RK_TABLE_MAX_CARDS];
    for (int i = 0; i < RK_TABLE_MAX_CARDS; i++) deck[i] = (uint8_t)i;
    for (int i = r.deck_size - 1; i > 0; i--) {
        int j = rd_u8(&rd) % (i + 1);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    rk_table_state live;
    FUZZ_CHECK(rk_table_deal(&r, deck, rd_u8(&rd) % r.num_players, rd_u64(&rd), &live) == RK_OK);
    /* a walk by listed actions, keeping the undo entries */
    static rk_table_state entries[MAX_ENTRIES];
    int k = 0, steps = rd_u8(&rd) % MAX_ENTRIES;
    while (k < steps && live.phase != RK_TABLE_PHASE_END) {
        int n = rk_table_legal(&r, &live, memo, ids, CAP);
        FUZZ_CHECK(n > 0);
        entries[k++] = live;
        FUZZ_CHECK(rk_table_apply(&r, &live, memo, ids[rd_u8(&rd) % n]) == RK_OK);
    }
    /* tampering: the live state (target k) or an entry */
    for (int t = rd_u8(&rd) % 5; t > 0; t--) {
        int target = rd_u8(&rd) % (k + 1);
        tamper(target == k ? &live : &entries[target], &rd);
    }
    /* the load: each struct read by the getters, and checked before anything else reads it */
    uint64_t sum = 0;
    rk_table_state *state = boxed(&live);
    sum += getters(state);
    int live_ok = rk_table_check(&r, state) == RK_OK;
    int entries_ok = 1;
    for (int i = 0; i < k; i++) {
        rk_table_state *e = boxed(&entries[i]);
        sum += getters(e);
        entries_ok &= rk_table_check(&r, e) == RK_OK;
        free(e);
    }
    if (live_ok) exercise(&r, state, &rd, 4);
    /* undo to the deal (the bridge refuses a pickle with a bad entry; undo checks again, so
     * a state loaded whole is walked back here even when it was refused) */
    for (int i = k - 1; i >= 0; i--) {
        rk_table_state *e = boxed(&entries[i]);
        if (rk_table_check(&r, e) != RK_OK) { /* not restored: the state stays as it was */
            free(e);
            break;
        }
        memcpy(state, e, sizeof *state);
        free(e);
        exercise(&r, state, &rd, i == 0 ? 2 : rd_u8(&rd) % 2);
    }
    free(state);
    sink += sum + (uint64_t)entries_ok;
    return 0;
}
