/* Playout positions: rk_position_check, rk_legal_actions, rk_policy_action,
 * rk_apply_action, rk_playout and rk_playouts on dealt positions walked by
 * fuzz-chosen actions (legal or not) and on raw positions and rules.
 * Illegal input must give an error status and leave the position as it
 * was; legal play must conserve the cards, keep the legal actions sorted,
 * end, and give the same playouts whatever the split into calls. */
#include "fuzz_common.h"
#include "rummykit/knock.h"
#include "rummykit/policy.h"

static int count_cards(const rk_knock_rules *pr, const rk_position *pos) {
    int n = pos->n_stock + pos->n_discards;
    for (int s = 0; s < pr->num_players; s++) n += rk__popcount(pos->hands[s]);
    return n;
}

static void fuzz_playout_rules(reader *r, rk_knock_rules *pr) {
    uint8_t game = rd_u8(r) % 3, flags = rd_u8(r), more = rd_u8(r);
    int n = game == RK_GAME_OKLAHOMA_RUMMY ? 3 + (flags & 1u) : 2;
    FUZZ_CHECK(rk_knock_rules_init(pr, (rk_base_game)game, n) == RK_OK);
    pr->forbid_taken_discard = (flags >> 1) & 1u;
    pr->refused_upcard_set_aside = (flags >> 2) & 1u;
    pr->knock_compare_lt = (flags >> 3) & 1u;
    pr->best_score_arrangement = (flags >> 4) & 1u;
    pr->allow_layoff_on_knock = !((flags >> 5) & 1u);
    pr->layoff_onto_prior_layoffs = (flags >> 6) & 1u;
    pr->big_gin_bonus = (flags >> 7) ? 31 : -1;
    pr->stock_end = (rk_stock_end)(more & 3u);
    pr->max_restocks = (int)((more >> 2) & 3u) - 1;
    pr->max_turns = 1 + (int)rd_u8(r);
    pr->undercut_on_tie = (more >> 4) & 1u;
    pr->auto_showdown = !((more >> 5) & 1u); /* 0: the defenders declare */
    if (more >> 7) { /* a raw field: rules KnockRules cannot express must be refused */
        int value = (int)rd_u32(r); /* every field is an int or an int-sized enum */
        size_t k = rd_u8(r) % (sizeof *pr / sizeof(int));
        memcpy((char *)pr + k * sizeof(int), &value, sizeof value);
    }
}

/* Steps through the position by fuzz-chosen actions. */
static void walk(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, reader *r, int cards) {
    for (int step = 0; step < 400 && pos->phase != RK_PHASE_END; step++) {
        int legal[RK_MAX_LEGAL];
        int k = rk_legal_actions(rules, pr, pos, legal);
        FUZZ_CHECK(k > 0);
        for (int i = 1; i < k; i++) FUZZ_CHECK(legal[i - 1] < legal[i]);
        uint8_t b = rd_u8(r);
        int action = b < 200 ? legal[b % k] : (int)(int8_t)rd_u8(r) + 64;
        int is_legal = 0;
        for (int i = 0; i < k; i++) is_legal |= legal[i] == action;
        rk_position before = *pos;
        rk_playout_result res;
        rk_status st = rk_apply_action(rules, pr, pos, action, &res);
        if (!is_legal) {
            FUZZ_CHECK(st == RK_ERR_ARG && !memcmp(&before, pos, sizeof before));
            continue;
        }
        FUZZ_CHECK(st == RK_OK);
        /* the refused upcard may be set aside, and a knock's discard goes face down at the
         * end or the manual showdown; otherwise every card stays in play */
        int now = count_cards(pr, pos);
        int knocked = pos->phase == RK_PHASE_END || pos->phase == RK_PHASE_SHOWDOWN;
        FUZZ_CHECK(now == cards || ((pr->refused_upcard_set_aside || knocked) && now == cards - 1));
        cards = now;
        if (pos->phase == RK_PHASE_END) {
            FUZZ_CHECK(res.outcome >= RK_OUTCOME_DEAD && res.outcome <= RK_OUTCOME_UNDERCUT);
            FUZZ_CHECK(rk_position_check(pr, pos) == RK_ERR_ARG);
            /* the state wrapper's load path: the result again from the fields alone */
            rk_playout_result again;
            FUZZ_CHECK(rk_position_result(rules, pr, pos, &again) == RK_OK);
            FUZZ_CHECK(again.outcome == res.outcome && again.winner == res.winner &&
                       !memcmp(again.points, res.points, sizeof res.points));
            FUZZ_CHECK(rk_apply_action(rules, pr, pos, legal[0], &res) == RK_ERR_ARG);
        } else {
            FUZZ_CHECK(rk_position_check(pr, pos) == RK_OK);
        }
    }
}

/* A hidden part for rk_playouts: raw bytes, or the cards pos->player cannot
 * see (the other hands and the stock) taken out of the position, in one
 * group, to be dealt back. */
static void hidden_part(const rk_knock_rules *pr, rk_position *known, rk_hidden *h, reader *r) {
    memset(h, 0, sizeof *h);
    if (rd_u8(r) & 1u) {
        for (size_t i = 0; i < sizeof *h; i++) ((uint8_t *)h)[i] = rd_u8(r);
        return;
    }
    int n = known->n_stock >= 0 && known->n_stock <= RK_NUM_CARDS ? known->n_stock : 0;
    for (int i = 0; i < n && h->n_slots < RK_NUM_CARDS; i++) {
        h->cards[h->n_slots] = known->stock[i];
        h->dest[h->n_slots++] = RK_DEST_STOCK;
    }
    known->n_stock -= n;
    for (int s = 0; s < pr->num_players && s < RK_MAX_PLAYERS; s++) {
        if (s == known->player) continue;
        for (rk_mask m = known->hands[s] & RK_DECK_MASK; m && h->n_slots < RK_NUM_CARDS; m &= m - 1) {
            h->cards[h->n_slots] = (uint8_t)rk__ctz(m);
            h->dest[h->n_slots++] = (uint8_t)s;
        }
        known->hands[s] = 0;
    }
    h->n_groups = h->n_slots ? 1 : 0;
    if (h->n_slots) h->group_end[0] = (uint8_t)h->n_slots;
}

/* rk_playouts: bad positions are refused; good ones give the same results
 * in one call as split into single playouts, and the policy's first action
 * is legal. */
static void playouts(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, reader *r) {
    rk_status check = rk_position_check(pr, pos);
    uint8_t kind = rd_u8(r);
    rk_policy policy = {(rk_policy_kind)(kind % 2), (int)(int8_t)rd_u8(r) % 12, (kind >> 1) % 2};
    uint64_t seed = rd_u64(r);
    int32_t points[4 * RK_MAX_PLAYERS], one[RK_MAX_PLAYERS];
    uint8_t outcomes[4], outcome;
    size_t n = 1 + rd_u8(r) % 4;
    /* determinized playouts: an error or results that do not depend on the split */
    rk_position known = *pos;
    rk_hidden hidden;
    hidden_part(pr, &known, &hidden, r);
    rk_status hs = rk_playouts(rules, pr, &known, &hidden, policy, seed, 0, n, points, outcomes);
    FUZZ_CHECK(hs <= RK_OK);
    for (size_t i = 0; hs == RK_OK && i < n; i++) {
        FUZZ_CHECK(rk_playouts(rules, pr, &known, &hidden, policy, seed, i, 1, one, &outcome) == RK_OK);
        FUZZ_CHECK(outcome == outcomes[i] &&
                   !memcmp(one, points + i * (size_t)pr->num_players, sizeof(int32_t) * (size_t)pr->num_players));
    }
    rk_status st = rk_playouts(rules, pr, pos, NULL, policy, seed, 0, n, points, outcomes);
    /* a checked position may still be unplayable (say, nothing to discard): an error, not a crash */
    FUZZ_CHECK(check == RK_OK ? st <= RK_OK : st == check);
    rk_rng rng;
    rk_rng_seed(&rng, seed, 0);
    int a = rk_policy_action(rules, pr, pos, policy, &rng);
    int legal[RK_MAX_LEGAL];
    int k = rk_legal_actions(rules, pr, pos, legal);
    if (check != RK_OK) {
        FUZZ_CHECK(a == (int)check && k == (int)check);
        return;
    }
    int found = 0;
    for (int i = 0; i < k; i++) found |= legal[i] == a;
    FUZZ_CHECK(found || a < 0);
    if (st != RK_OK) return;
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(outcomes[i] <= RK_OUTCOME_UNDERCUT);
        FUZZ_CHECK(rk_playouts(rules, pr, pos, NULL, policy, seed, i, 1, one, &outcome) == RK_OK);
        FUZZ_CHECK(outcome == outcomes[i] &&
                   !memcmp(one, points + i * (size_t)pr->num_players, sizeof(int32_t) * (size_t)pr->num_players));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    const rk_rules *rules = fuzz_rules(&r);
    rk_knock_rules pr;
    fuzz_playout_rules(&r, &pr);
    rk_position pos;
    if (rd_u8(&r) & 1u) { /* raw bytes: whatever a caller could pass */
        memset(&pos, 0, sizeof pos);
        for (size_t i = 0; i < sizeof pos; i++) ((uint8_t *)&pos)[i] = rd_u8(&r);
        playouts(rules, &pr, &pos, &r);
        int legal[RK_MAX_LEGAL], action = (int)(rd_u32(&r) % 200);
        int k = rk_legal_actions(rules, &pr, &pos, legal), found = 0;
        for (int i = 0; i < k; i++) found |= legal[i] == action;
        rk_position before = pos;
        rk_playout_result res;
        rk_status st = rk_apply_action(rules, &pr, &pos, action, &res);
        FUZZ_CHECK(st != RK_OK || found);
        if (st != RK_OK) FUZZ_CHECK(!memcmp(&before, &pos, sizeof pos));
        /* a finished hand's fields, as a pickle could hold them: a result or an error */
        pos.phase = RK_PHASE_END;
        st = rk_position_result(rules, &pr, &pos, &res);
        FUZZ_CHECK(st <= RK_OK);
        if (st == RK_OK) FUZZ_CHECK(res.outcome >= RK_OUTCOME_DEAD && res.outcome <= RK_OUTCOME_UNDERCUT);
        return 0;
    }
    uint8_t deck[RK_NUM_CARDS];
    for (int i = 0; i < RK_NUM_CARDS; i++) deck[i] = (uint8_t)i;
    for (int i = RK_NUM_CARDS - 1; i > 0; i--) {
        int j = rd_u8(&r) % (i + 1);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    int dealer = rd_u8(&r) % 5;
    memset(&pos, 0, sizeof pos);
    rk_status st = rk_position_deal(&pr, deck, dealer, rd_u64(&r), &pos);
    if (st != RK_OK) { /* rules or dealer out of range */
        FUZZ_CHECK(st == RK_ERR_ARG && rk_position_check(&pr, &pos) == RK_ERR_ARG);
        playouts(rules, &pr, &pos, &r);
        return 0;
    }
    FUZZ_CHECK(rk_position_check(&pr, &pos) == RK_OK);
    playouts(rules, &pr, &pos, &r);
    walk(rules, &pr, &pos, &r, RK_NUM_CARDS);
    if (pos.phase != RK_PHASE_END) playouts(rules, &pr, &pos, &r);
    return 0;
}
