/* C tests of the refusal reasons (rk_knock_why, rk_table_why; no Python):
 * along seeded random hands of several rule sets, every action id gets
 * RK_*_LEGAL exactly when the legal list holds it, and a named reason
 * otherwise; positions built by hand reach the codes random play rarely
 * meets; every code of both families is reached. */
#include <stdio.h>
#include <string.h>

#include "rummykit/knock.h"
#include "rummykit/policy.h"
#include "rummykit/rng.h"
#include "rummykit/rummykit.h"
#include "rummykit/table.h"
#include "check.h"
#include "table_fixtures.h"

static int knock_seen[RK_KNOCK_NUM_REASONS], table_seen[RK_TABLE_NUM_REASONS];

/* ---- knock ----------------------------------------------------------- */

static int lowest(rk_mask m) {
    for (int c = 0; c < 64; c++)
        if (m >> c & 1) return c;
    return -1;
}

static int count_cards(rk_mask m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static int knock_why(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int seat, int action) {
    int detail[2];
    int code = rk_knock_why(rules, pr, pos, seat, action, detail);
    CHECK(code >= 0 && code < RK_KNOCK_NUM_REASONS);
    if (code >= 0 && code < RK_KNOCK_NUM_REASONS) knock_seen[code]++;
    return code;
}

/* Every id at every step of random hands (half the time the highest legal id but done: knocks and
 * declarations come often), against the legal list. */
static void knock_hands(const rk_rules *rules, const rk_knock_rules *pr, int hands) {
    for (int h = 0; h < hands; h++) {
        uint8_t deck[52];
        rk_position pos;
        shuffled_deck(52, deck);
        CHECK(rk_position_deal(pr, deck, h % pr->num_players, (uint64_t)h, &pos) == RK_OK);
        for (int steps = 0; pos.phase != RK_PHASE_END && steps < 500; steps++) {
            int legal[RK_MAX_LEGAL], k = rk_legal_actions(rules, pr, &pos, legal);
            CHECK(k > 0);
            if (k <= 0) return;
            for (int a = 0; a <= RK_ACTION_DONE; a++) {
                int listed = 0;
                for (int i = 0; i < k; i++) listed |= legal[i] == a;
                CHECK((knock_why(rules, pr, &pos, -1, a) == RK_KNOCK_LEGAL) == listed);
            }
            int pick = legal[next_below((uint32_t)k)];
            if (next_below(2) && !(k > 1 && legal[k - 1] == RK_ACTION_DONE)) pick = legal[k - 1];
            CHECK(rk_apply_action(rules, pr, &pos, pick, NULL) == RK_OK);
        }
        CHECK(knock_why(rules, pr, &pos, -1, 0) == RK_KNOCK_WHY_HAND_OVER);
    }
}

static void test_knock(void) {
    rk_rules rules;
    rk_knock_rules pr;
    CHECK(rk_rules_init(&rules, RK_ACES_LOW, NULL) == RK_OK);
    CHECK(rk_knock_rules_init(&pr, RK_GAME_GIN, 2) == RK_OK);
    pr.auto_showdown = 0;
    pr.big_gin_bonus = 31;
    knock_hands(&rules, &pr, 30);
    CHECK(rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_GIN, 2) == RK_OK);
    pr.stock_end = RK_STOCK_DEAD_AT_2_LAST_CHANCE;
    pr.auto_showdown = 0;
    knock_hands(&rules, &pr, 30);
    CHECK(rk_knock_rules_init(&pr, RK_GAME_GIN, 2) == RK_OK);
    pr.auto_showdown = 0;
    pr.allow_layoff_on_knock = 0;
    knock_hands(&rules, &pr, 30);

    /* positions built from a fresh deal */
    uint8_t deck[52];
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    rk_position pos;
    CHECK(rk_knock_rules_init(&pr, RK_GAME_GIN, 2) == RK_OK);
    CHECK(rk_position_deal(&pr, deck, 0, 1, &pos) == RK_OK);
    CHECK(knock_why(&rules, &pr, &pos, -1, -1) == RK_KNOCK_WHY_NOT_ACTION);
    CHECK(knock_why(&rules, &pr, &pos, -1, RK_ACTION_DONE + 1) == RK_KNOCK_WHY_NOT_ACTION);
    CHECK(knock_why(&rules, &pr, &pos, 1 - pos.player, RK_ACTION_TAKE) == RK_KNOCK_WHY_OUT_OF_TURN);
    /* the draw with an empty pile: the upcard taken and the pile empty */
    rk_position empty = pos;
    empty.phase = RK_PHASE_DRAW;
    empty.stock[empty.n_stock++] = empty.discards[--empty.n_discards];
    CHECK(knock_why(&rules, &pr, &empty, -1, RK_ACTION_TAKE) == RK_KNOCK_WHY_PILE_EMPTY);
    /* after taking the last-chance discard: knock only */
    rk_position only = pos;
    only.phase = RK_PHASE_KNOCK_ONLY;
    only.hands[only.player] |= (rk_mask)1 << only.discards[only.n_discards - 1];
    only.n_discards--;
    int held = lowest(only.hands[only.player]);
    CHECK(knock_why(&rules, &pr, &only, -1, held) == RK_KNOCK_WHY_MUST_KNOCK);
    /* a manual showdown where the defender holds Q-K-A of spades, aces low: not a meld */
    pr.auto_showdown = 0;
    rk_position show = pos;
    rk_mask qka = (rk_mask)1 << 50 | (rk_mask)1 << 51 | (rk_mask)1 << 39;
    for (int s = 0; s < 2; s++) show.hands[s] &= ~qka;
    show.n_stock = 0;
    for (int c = 0; c < 52; c++) /* rebuild the stock from the cards in no hand and not the upcard */
        if (!((show.hands[0] | show.hands[1] | qka) >> c & 1) && c != show.discards[0])
            show.stock[show.n_stock++] = (uint8_t)c;
    show.hands[1] |= qka;
    while (count_cards(show.hands[1]) > 10) { /* back to ten cards: the extra ones to the stock */
        int c = lowest(show.hands[1] & ~qka);
        show.hands[1] &= ~((rk_mask)1 << c);
        show.stock[show.n_stock++] = (uint8_t)c;
    }
    show.phase = RK_PHASE_SHOWDOWN;
    show.knocker = 0;
    show.player = 1;
    show.n_shown = 0;
    show.can_lay_off = 1;
    CHECK(rk_position_check(&pr, &show) == RK_OK);
    int meld = -1;
    for (int id = 0; id < RK_NUM_MELD_IDS && meld < 0; id++) {
        int code = rk_knock_why(&rules, &pr, &show, -1, RK_ACTION_MELD + id, (int[2]){0, 0});
        if (code == RK_KNOCK_WHY_NOT_A_MELD) meld = id;
        if (code >= 0 && code < RK_KNOCK_NUM_REASONS) knock_seen[code]++;
    }
    CHECK(meld >= 0);
    for (int code = 0; code < RK_KNOCK_NUM_REASONS; code++) {
        if (!knock_seen[code]) fprintf(stderr, "knock reason %s never reached\n", rk_knock_reason_name(code));
        CHECK(knock_seen[code] > 0);
        CHECK(rk_knock_reason_name(code) != NULL);
    }
    CHECK(rk_knock_reason_name(RK_KNOCK_NUM_REASONS) == NULL && rk_knock_reason_name(-1) == NULL);
}

/* ---- table ----------------------------------------------------------- */

static int table_why(const rk_table_rules *r, const rk_table_state *s, rk_table_memo *memo, int seat, int32_t a) {
    int detail[1];
    int code = rk_table_why(r, s, memo, seat, a, detail);
    CHECK(code >= 0 && code < RK_TABLE_NUM_REASONS);
    if (code >= 0 && code < RK_TABLE_NUM_REASONS) table_seen[code]++;
    return code;
}

static int listed(const int32_t *legal, int k, int32_t a) {
    for (int i = 0; i < k; i++)
        if (legal[i] == a) return 1;
    return 0;
}

static void check_id(const rk_table_rules *r, const rk_table_state *s, rk_table_memo *memo, const int32_t *legal,
                     int k, int32_t a) {
    CHECK((table_why(r, s, memo, -1, a) == RK_TABLE_LEGAL) == listed(legal, k, a));
}

/* Random hands (70% of the steps the highest legal id: melds and lay-offs come often); at each step
 * the discards, draws, every lay-off and release on the table and one slot past it, every set meld,
 * and the legal run melds with their neighbours, against the legal list. */
static void table_hands(const rk_table_rules *r, int hands) {
    rk_table_memo *memo = rk_table_memo_new();
    static int32_t legal[4096];
    for (int h = 0; h < hands; h++) {
        uint8_t deck[RK_TABLE_MAX_CARDS];
        rk_table_state s;
        shuffled_deck(r->deck_size, deck);
        CHECK(rk_table_deal(r, deck, h % r->num_players, (uint64_t)h, &s) == RK_OK);
        for (int steps = 0; s.phase != RK_TABLE_PHASE_END && steps < 400; steps++) {
            int k = rk_table_legal(r, &s, memo, legal, 4096);
            CHECK(k > 0 && k <= 4096);
            if (k <= 0 || k > 4096) break;
            for (int32_t a = 0; a <= RK_TABLE_TAKE; a++) check_id(r, &s, memo, legal, k, a);
            for (int slot = 0; slot <= s.n_table && slot < RK_TABLE_MAX_SLOTS; slot++) {
                for (int t = 0; t < 53; t++)
                    for (int end = 0; end < 2; end++) check_id(r, &s, memo, legal, k, rk_table_layoff_id(slot, t, end));
                for (int t = 0; t < 52; t++) check_id(r, &s, memo, legal, k, RK_TABLE_RELEASE_RUN + slot * 52 + t);
                for (int m = 0; m < 16; m++) check_id(r, &s, memo, legal, k, RK_TABLE_RELEASE_SET + slot * 16 + m);
            }
            for (int32_t a = RK_TABLE_MELD_SET; a < RK_TABLE_SET_END; a++) check_id(r, &s, memo, legal, k, a);
            for (int i = 0; i < k; i++)
                if (legal[i] >= RK_TABLE_MELD_RUN) {
                    check_id(r, &s, memo, legal, k, legal[i] + 1);
                    check_id(r, &s, memo, legal, k, legal[i] + 8192);
                    check_id(r, &s, memo, legal, k, legal[i] - 8192);
                }
            int32_t pick = next_below(10) < 7 ? legal[k - 1] : legal[next_below((uint32_t)k)];
            CHECK(rk_table_apply(r, &s, memo, pick) == RK_OK);
        }
        if (s.phase == RK_TABLE_PHASE_END) CHECK(table_why(r, &s, memo, -1, 0) == RK_TABLE_WHY_HAND_OVER);
    }
    rk_table_memo_free(memo);
}

static rk_table_cards cards_of_types(const int *types, int n) {
    rk_table_cards c = {{0, 0}};
    for (int i = 0; i < n; i++) c.w[0] |= 1ull << types[i];
    return c;
}

static void test_table(void) {
    rk_table_rules r = rummy_rules(2);
    r.taken_discard_must_be_melded = 1;
    r.max_melds_per_turn = 1;
    r.no_go_out_first_turn = 1;
    table_hands(&r, 8);
    r = rummy_rules(3);
    table_hands(&r, 8);
    r = kaluki_rules(2, 2);
    table_hands(&r, 3);
    r = kaluki_rules(3, 2);
    r.unopened_discard_draw = 1;
    r.joker_discard_allowed = 0;
    r.unopened_may_release_joker = 1;
    r.building_counts_toward_opening = 1;
    table_hands(&r, 3);

    /* positions built by hand */
    uint8_t deck[RK_TABLE_MAX_CARDS];
    rk_table_state s, t;
    r = rummy_rules(2);
    r.no_go_out_first_turn = 1;
    shuffled_deck(52, deck);
    CHECK(rk_table_deal(&r, deck, 0, 1, &s) == RK_OK);
    CHECK(table_why(&r, &s, NULL, -1, RK_TABLE_TAKE + 1) == RK_TABLE_WHY_NOT_ACTION);
    CHECK(table_why(&r, &s, NULL, -1, -1) == RK_TABLE_WHY_NOT_ACTION);
    CHECK(table_why(&r, &s, NULL, 1 - s.player, RK_TABLE_DRAW) == RK_TABLE_WHY_OUT_OF_TURN);
    t = s;
    t.stock[t.n_stock++] = t.discards[--t.n_discards];
    CHECK(table_why(&r, &t, NULL, -1, RK_TABLE_TAKE) == RK_TABLE_WHY_PILE_EMPTY);
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_DRAW) == RK_OK);
    /* the first turn with one card left: no going out */
    int one[] = {20};
    t = s;
    t.hands[t.player] = cards_of_types(one, 1);
    CHECK(table_why(&r, &t, NULL, -1, 20) == RK_TABLE_WHY_FIRST_TURN_OUT);
    /* a lay-off on a run of all 13 ranks */
    t = s;
    t.n_table = 1;
    memset(&t.table[0], 0, sizeof t.table[0]);
    t.table[0].kind = RK_MELD_RUN;
    t.table[0].n_cards = 13;
    for (int i = 0; i < 13; i++) t.table[0].cards[i] = (uint8_t)(13 + i);
    t.table[0].key = 1;
    int held[] = {14, 30};
    t.hands[t.player] = cards_of_types(held, 2);
    CHECK(table_why(&r, &t, NULL, -1, rk_table_layoff_id(0, 14, 1)) == RK_TABLE_WHY_RUN_FULL);
    /* Kaluki: a run joker released with no room to place it this turn */
    r = kaluki_rules(2, 2);
    shuffled_deck(r.deck_size, deck);
    CHECK(rk_table_deal(&r, deck, 0, 1, &s) == RK_OK);
    CHECK(rk_table_apply(&r, &s, NULL, RK_TABLE_DRAW) == RK_OK);
    s.opened = 3;
    int hand[] = {31, 1, 21, 51}; /* 6H 2C 9D KS */
    s.hands[s.player] = cards_of_types(hand, 4);
    s.n_table = 1;
    memset(&s.table[0], 0, sizeof s.table[0]);
    s.table[0].kind = RK_MELD_RUN;
    s.table[0].key = 2;   /* hearts */
    s.table[0].start = 3; /* 5H: Kaluki position p is rank p + 1 */
    s.table[0].n_cards = 3;
    s.table[0].cards[0] = 30;
    s.table[0].cards[1] = RK_TABLE_FIRST_JOKER;
    s.table[0].cards[2] = 32;
    s.n_ends = 1;
    s.ends[0] = 2 | 2 << 4; /* both ends built up to max_build_per_run_end this turn */
    CHECK(table_why(&r, &s, NULL, -1, RK_TABLE_RELEASE_RUN + 31) == RK_TABLE_WHY_RELEASE_UNPLACEABLE);
    t = s;
    int more[] = {31, 1, 21, 51, 29}; /* and 4H, which fits below 5H */
    t.hands[t.player] = cards_of_types(more, 5);
    CHECK(table_why(&r, &t, NULL, -1, rk_table_layoff_id(0, 29, 0)) == RK_TABLE_WHY_BUILD_LIMIT);
    /* unopened, a release that does not lead on to the opening */
    r.unopened_may_release_joker = 1;
    s.opened = 0;
    CHECK(table_why(&r, &s, NULL, -1, RK_TABLE_RELEASE_RUN + 31) == RK_TABLE_WHY_RELEASE_OPENING);

    for (int code = 0; code < RK_TABLE_NUM_REASONS; code++) {
        if (!table_seen[code]) fprintf(stderr, "table reason %s never reached\n", rk_table_reason_name(code));
        CHECK(table_seen[code] > 0);
        CHECK(rk_table_reason_name(code) != NULL);
    }
    CHECK(rk_table_reason_name(RK_TABLE_NUM_REASONS) == NULL && rk_table_reason_name(-1) == NULL);
}

int main(void) {
    test_knock();
    test_table();
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
    return failures != 0;
}
