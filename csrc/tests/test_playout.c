/* C tests of the playout kernel (no Python): the generator, deals, the
 * invariants of many greedy and random playouts of every base game, the
 * scoring of hand-built knocks, determinization and batch reproducibility.
 * Prints a timing line (greedy Oklahoma Gin playouts per second). */
#define _POSIX_C_SOURCE 199309L

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rummykit/knock.h"
#include "rummykit/policy.h"
#include "rummykit/rng.h"
#include "rummykit/rummykit.h"
#include "check.h"

static rk_rules rules;

static void random_deck(rk_rng *rng, uint8_t deck[52]) {
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    rk_rng_shuffle(rng, deck, 52);
}

static rk_mask parse(const char *text) {
    static const char ranks[] = "A23456789TJQK", suits[] = "CDHS";
    rk_mask m = 0;
    for (const char *p = text; *p; p++) {
        if (*p == ' ') continue;
        int r = (int)(strchr(ranks, p[0]) - ranks), s = (int)(strchr(suits, p[1]) - suits);
        m |= (rk_mask)1 << (13 * s + r);
        p++;
    }
    return m;
}

static void test_rng(void) {
    rk_rng a, b;
    rk_rng_seed(&a, 42, 7);
    rk_rng_seed(&b, 42, 7);
    for (int i = 0; i < 100; i++) CHECK(rk_rng_next(&a) == rk_rng_next(&b));
    rk_rng_seed(&b, 42, 8);
    CHECK(rk_rng_next(&a) != rk_rng_next(&b));
    int counts[5] = {0};
    for (int i = 0; i < 50000; i++) counts[rk_rng_below(&a, 5)]++;
    for (int i = 0; i < 5; i++) CHECK(counts[i] > 9500 && counts[i] < 10500);
    uint8_t cards[30];
    for (int i = 0; i < 30; i++) cards[i] = (uint8_t)i;
    rk_restock_shuffle(123, 0, cards, 30);
    uint64_t seen = 0;
    for (int i = 0; i < 30; i++) seen |= 1ull << cards[i];
    CHECK(seen == (1ull << 30) - 1);
}

static void test_deal(void) {
    rk_knock_rules pr;
    rk_position pos;
    uint8_t deck[52];
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    CHECK(rk_knock_rules_init(&pr, RK_GAME_GIN, 2) == RK_OK);
    CHECK(rk_position_deal(&pr, deck, 0, 1, &pos) == RK_OK);
    CHECK(rk_card_count(pos.hands[0]) == 10 && rk_card_count(pos.hands[1]) == 10);
    CHECK(pos.hands[1] & 1u); /* the first card goes to the dealer's left */
    CHECK(pos.upcard == 20 && pos.discards[0] == 20 && pos.n_stock == 31);
    CHECK(pos.stock[pos.n_stock - 1] == 21); /* the next card of the deck is the top of the stock */
    CHECK(pos.phase == RK_PHASE_OFFER_NONDEALER && pos.player == 1);
    CHECK(rk_position_check(&pr, &pos) == RK_OK);
    deck[5] = 4;
    CHECK(rk_position_deal(&pr, deck, 0, 1, &pos) == RK_ERR_ARG);
    CHECK(rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_RUMMY, 2) == RK_ERR_ARG);
}

/* The field table covers every field of rk_knock_rules once, in order,
 * and its ranges are what rk_position_check accepts. */
static void test_rules_fields(void) {
    size_t n = 0;
    const rk_field *f = rk_knock_rules_fields(&n);
    CHECK(f != NULL && n * sizeof(int) == sizeof(rk_knock_rules));
    for (size_t i = 0; i < n; i++) {
        CHECK(f[i].offset == i * sizeof(int));
        CHECK(f[i].name && f[i].lo <= f[i].hi);
        CHECK(f[i].text != NULL || (f[i].type != RK_FIELD_IS && f[i].type != RK_FIELD_CHOICE));
    }
    uint8_t deck[52];
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    rk_knock_rules pr;
    rk_position pos;
    CHECK(rk_knock_rules_init(&pr, RK_GAME_GIN, 2) == RK_OK);
    CHECK(rk_position_deal(&pr, deck, 0, 1, &pos) == RK_OK);
    /* every scoring model names options of the table and fills them within range */
    size_t n_options = 0;
    const char *const *options = rk_knock_scoring_model_options(&n_options);
    CHECK(n_options > 0 && strcmp(rk_knock_scoring_model_name(0), "classic_two_player") == 0);
    for (size_t k = 0; k < n_options; k++) {
        int found = 0;
        for (size_t i = 0; i < n; i++) found += strcmp(f[i].name, options[k]) == 0;
        CHECK(found == 1);
    }
    int models = 0;
    for (; rk_knock_scoring_model_name(models); models++) {
        rk_knock_rules scored = pr;
        CHECK(rk_knock_scoring_model_apply(&scored, models) == RK_OK);
        CHECK(scored.classic_two_player == (models == 0));
        CHECK(rk_position_check(&scored, &pos) == RK_OK);
    }
    CHECK(models >= 2 && rk_knock_scoring_model_apply(&pr, models) == RK_ERR_ARG);
    CHECK(rk_knock_scoring_model_apply(&pr, -1) == RK_ERR_ARG && rk_knock_scoring_model_apply(NULL, 0) == RK_ERR_ARG);
    for (size_t i = 0; i < n; i++) {
        rk_knock_rules bad = pr;
        int *field = (int *)((char *)&bad + f[i].offset);
        *field = f[i].lo;
        CHECK(rk_position_check(&bad, &pos) == RK_OK);
        *field = f[i].hi + 1;
        CHECK(rk_position_check(&bad, &pos) == RK_ERR_ARG);
        *field = f[i].lo - 1;
        CHECK(rk_position_check(&bad, &pos) == RK_ERR_ARG);
    }
}

static void play_many(rk_base_game game, int players, rk_policy policy, int hands, int stock_end, int partners) {
    rk_knock_rules pr;
    CHECK(rk_knock_rules_init(&pr, game, players) == RK_OK);
    if (stock_end >= 0) pr.stock_end = (rk_stock_end)stock_end;
    if (partners) pr.partnerships = pr.classic_two_player = 1; /* partnership_oklahoma */
    rk_rng rng;
    rk_rng_seed(&rng, 99, (uint64_t)(game * 10 + players));
    int outcomes[5] = {0};
    for (int h = 0; h < hands; h++) {
        uint8_t deck[52];
        rk_position pos;
        rk_playout_result r;
        random_deck(&rng, deck);
        CHECK(rk_position_deal(&pr, deck, h % players, rk_rng_next(&rng), &pos) == RK_OK);
        rk_status st = rk_playout(&rules, &pr, &pos, policy, &rng, &r);
        if (st != RK_OK) {
            failures++;
            fprintf(stderr, "playout failed: game %d players %d policy %d stock_end %d: %s\n", (int)game,
                    players, (int)policy.kind, stock_end, rk_status_message(st));
            return;
        }
        CHECK(pos.phase == RK_PHASE_END);
        CHECK(r.outcome >= 0 && r.outcome <= 4);
        outcomes[r.outcome]++;
        /* every card is somewhere, once */
        rk_mask all = 0;
        int count = 0;
        for (int s = 0; s < players; s++) {
            CHECK(!(all & pos.hands[s]));
            all |= pos.hands[s];
            count += rk_card_count(pos.hands[s]);
        }
        for (int i = 0; i < pos.n_stock; i++) all |= (rk_mask)1 << pos.stock[i];
        for (int i = 0; i < pos.n_discards; i++) all |= (rk_mask)1 << pos.discards[i];
        count += pos.n_stock + pos.n_discards;
        int knocked = r.outcome != RK_OUTCOME_DEAD && r.outcome != RK_OUTCOME_BIG_GIN; /* card face down */
        CHECK(count + knocked + (pr.refused_upcard_set_aside && count + knocked < 52) == 52);
        if (r.outcome == RK_OUTCOME_DEAD) {
            for (int s = 0; s < players; s++) CHECK(r.points[s] == 0);
            continue;
        }
        int sum = 0;
        for (int s = 0; s < players; s++) sum += r.points[s];
        if (!pr.losers_charged) {
            CHECK(r.points[r.winner] > 0 || (r.outcome == RK_OUTCOME_KNOCK && pr.knock_bonus == 0));
            /* with partnerships both members of the winning side score */
            CHECK(sum == (partners ? 2 : 1) * r.points[r.winner]);
            if (partners) CHECK(r.points[(r.winner + 2) % 4] == r.points[r.winner]);
        } else {
            CHECK(sum == 0 || pr.knock_bonus || pr.gin_bonus || pr.undercut_bonus); /* net_collect: bonuses */
        }
        CHECK(r.deadwood[r.knocker] == 0 || r.outcome != RK_OUTCOME_GIN);
    }
    if (policy.kind != RK_POLICY_RANDOM) CHECK(outcomes[RK_OUTCOME_GIN] + outcomes[RK_OUTCOME_KNOCK] > 0);
}

static void test_playouts(void) {
    rk_policy greedy = {RK_POLICY_GREEDY, -1}, gin_only = {RK_POLICY_GREEDY, 0}, random = {RK_POLICY_RANDOM, -1};
    rk_policy careful = {RK_POLICY_CAREFUL, -1};
    for (int i = 0; i < 3; i++) {
        rk_policy p = i == 0 ? greedy : i == 1 ? careful : random;
        play_many(RK_GAME_GIN, 2, p, 2000, -1, 0);
        play_many(RK_GAME_OKLAHOMA_GIN, 2, p, 2000, -1, 0);
        play_many(RK_GAME_OKLAHOMA_RUMMY, 3, p, 1000, -1, 0);
        play_many(RK_GAME_OKLAHOMA_RUMMY, 4, p, 1000, -1, 0);
        play_many(RK_GAME_OKLAHOMA_RUMMY, 4, p, 1000, -1, 1);
        play_many(RK_GAME_GIN, 2, p, 1000, RK_STOCK_DEAD_AT_2_LAST_CHANCE, 0);
        play_many(RK_GAME_GIN, 2, p, 1000, RK_STOCK_DEAD_ON_DRAW, 0);
        play_many(RK_GAME_GIN, 2, p, 1000, RK_STOCK_RESHUFFLE, 0);
    }
    play_many(RK_GAME_GIN, 2, gin_only, 1000, RK_STOCK_RESHUFFLE, 0);
    play_many(RK_GAME_GIN, 2, (rk_policy){RK_POLICY_CAREFUL, 0}, 1000, RK_STOCK_RESHUFFLE, 0);
}

/* rk_score_knock_shown: the knocker's own melds, checked. */
static void test_shown_melds(void) {
    rk_knock_rules pr;
    rk_playout_result r, best;
    rk_knock_rules_init(&pr, RK_GAME_GIN, 2);
    rk_mask hands[2] = {parse("AC 2C 3C 4D 5D 6D 7H 8H 9H 2S"), parse("4C KD KH KS 9C 9D 9S QC QD JH")};
    rk_mask melds[3] = {parse("AC 2C 3C"), parse("4D 5D 6D"), parse("7H 8H 9H")};
    CHECK(rk_score_knock(&rules, &pr, hands, 51, 0, &best) == RK_OK);
    CHECK(rk_score_knock_shown(&rules, &pr, hands, 51, 0, melds, 3, &r) == RK_OK);
    CHECK(r.outcome == best.outcome && r.points[0] == best.points[0] && r.deadwood[1] == best.deadwood[1]);
    CHECK(r.deadwood[1] == best.deadwood[1] && r.deadwood[0] == 2);
    /* showing fewer melds leaves more deadwood: over the limit */
    CHECK(rk_score_knock_shown(&rules, &pr, hands, 51, 0, melds, 2, &r) == RK_ERR_NO_KNOCK);
    rk_mask bad[2] = {parse("AC 2C 3C"), parse("AC 4D 5D")};
    CHECK(rk_score_knock_shown(&rules, &pr, hands, 51, 0, bad, 2, &r) == RK_ERR_BAD_MELD);
    bad[1] = parse("3C 4C 5C"); /* overlaps, and 4C 5C are not the knocker's */
    CHECK(rk_score_knock_shown(&rules, &pr, hands, 51, 0, bad, 2, &r) == RK_ERR_OVERLAP);
    CHECK(rk_score_knock_shown(&rules, &pr, hands, 51, 0, NULL, 1, &r) == RK_ERR_ARG);
    CHECK(rk_score_knock_shown(&rules, &pr, hands, 51, 0, melds, RK_MAX_MELDS + 1, &r) == RK_ERR_ARG);
    rk_arrangement a;
    CHECK(rk_knock_arrangement(&rules, &pr, hands, 51, 0, &a) == RK_OK);
    CHECK(a.n_melds == 3 && a.deadwood == 2 && a.deadwood_cards == parse("2S"));
    for (int i = 0; i < 3; i++) CHECK(a.melds[i] == melds[i]);
    CHECK(rk_knock_arrangement(&rules, &pr, hands, 13 * 3, 1, &a) == RK_ERR_NO_KNOCK); /* big gin off, deadwood */
    pr.big_gin_bonus = 31; /* big gin needs every card melded */
    CHECK(rk_score_knock_shown(&rules, &pr, hands, 51, 1, melds, 3, &r) == RK_ERR_NO_KNOCK);
}

/* auto_showdown 0: greedy play to the knock, then random declarations;
 * every hand ends, the legal actions stay sorted, a defender's declared
 * cards stay in its hand. */
static void test_manual_showdown(void) {
    rk_knock_rules pr;
    rk_rng rng;
    uint8_t deck[52];
    int declared = 0;
    rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_RUMMY, 3);
    pr.auto_showdown = 0;
    rk_rng_seed(&rng, 5, 0);
    for (int h = 0; h < 300; h++) {
        rk_position pos;
        rk_playout_result r;
        random_deck(&rng, deck);
        CHECK(rk_position_deal(&pr, deck, h % 3, 1, &pos) == RK_OK);
        for (int step = 0; step < 2000 && pos.phase != RK_PHASE_END; step++) {
            int legal[RK_MAX_LEGAL], a;
            int k = rk_legal_actions(&rules, &pr, &pos, legal);
            CHECK(k > 0);
            if (k <= 0) return;
            for (int i = 1; i < k; i++) CHECK(legal[i - 1] < legal[i]);
            if (pos.phase == RK_PHASE_SHOWDOWN) {
                CHECK(legal[k - 1] == RK_ACTION_DONE);
                a = legal[rk_rng_below(&rng, (uint32_t)k)];
                declared += a != RK_ACTION_DONE;
            } else {
                a = rk_policy_action(&rules, &pr, &pos, (rk_policy){RK_POLICY_GREEDY, -1}, NULL);
            }
            CHECK(rk_apply_action(&rules, &pr, &pos, a, &r) == RK_OK);
            for (int s = 0; s < 3; s++) CHECK(!(pos.used[s] & ~pos.hands[s]));
        }
        CHECK(pos.phase == RK_PHASE_END);
    }
    CHECK(declared > 100);
}

static void test_scoring(void) {
    rk_knock_rules pr;
    rk_playout_result r;
    rk_mask hands[4];
    /* EX-G02-like undercut: knocker deadwood 9 against 7 (no lay-off) */
    rk_knock_rules_init(&pr, RK_GAME_GIN, 2);
    hands[0] = parse("AC 2C 3C 4D 5D 6D 7H 8H 9H 9S");
    hands[1] = parse("KC KD KH 5S 6S 7S 2D 5H AS QD");
    /* defender: 3 + 7 (2D 5H) + 1 (AS) ... compute with the core */
    int d1 = rk_deadwood(&rules, hands[1]);
    CHECK(rk_score_knock(&rules, &pr, hands, 51, 0, &r) == RK_OK);
    CHECK(r.deadwood[0] == 9);
    if (d1 <= 9) {
        CHECK(r.outcome == RK_OUTCOME_UNDERCUT && r.winner == 1 && r.points[1] == 25 + 9 - r.deadwood[1]);
    } else {
        CHECK(r.outcome == RK_OUTCOME_KNOCK && r.points[0] == r.deadwood[1] - 9);
    }
    /* gin, Oklahoma Gin with a spade upcard: doubled */
    rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_GIN, 2);
    hands[0] = parse("AC 2C 3C 4D 5D 6D 7H 8H 9H TH");
    hands[1] = parse("KC KD 2H 5S 6S 8S 2D 5H AS QD");
    CHECK(rk_score_knock(&rules, &pr, hands, 51, 0, &r) == RK_OK);
    CHECK(r.outcome == RK_OUTCOME_GIN && r.multiplier == 2);
    CHECK(r.points[0] == 2 * (25 + rk_deadwood(&rules, hands[1])) && r.points[1] == 0);
    /* ace upcard: gin only */
    hands[0] = parse("AC 2C 3C 4D 5D 6D 7H 8H 9H 2S");
    CHECK(rk_score_knock(&rules, &pr, hands, 13, 0, &r) == RK_ERR_NO_KNOCK);
    /* lay-off: the defender lays 4C on AC 2C 3C */
    rk_knock_rules_init(&pr, RK_GAME_GIN, 2);
    hands[0] = parse("AC 2C 3C 4D 5D 6D 7H 8H 9H 2S");
    hands[1] = parse("4C KD KH KS 9C 9D 9S QC QD JH");
    CHECK(rk_score_knock(&rules, &pr, hands, 48, 0, &r) == RK_OK);
    CHECK(r.deadwood[0] == 2 && r.deadwood[1] == 30 && r.outcome == RK_OUTCOME_KNOCK && r.points[0] == 28);
    pr.allow_layoff_on_knock = 0;
    CHECK(rk_score_knock(&rules, &pr, hands, 48, 0, &r) == RK_OK && r.deadwood[1] == 34);
    /* net_collect, three players */
    rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_RUMMY, 3);
    hands[0] = parse("AC 2C 3C 4D 5D 6D 2S");
    hands[1] = parse("KC KD KH 9C 9D 4S 5S");
    hands[2] = parse("QC QD QH QS JD 5H 3H");
    CHECK(rk_score_knock(&rules, &pr, hands, 46, 0, &r) == RK_OK); /* 8S upcard: limit 8, multiplier 2 */
    CHECK(r.outcome == RK_OUTCOME_KNOCK && r.multiplier == 2);
    CHECK(r.points[0] == 2 * (10 + (r.deadwood[1] - 2) + (r.deadwood[2] - 2)));
    CHECK(r.points[1] == -2 * (r.deadwood[1] - 2) && r.points[0] + r.points[1] + r.points[2] == 20);
}

static void test_batches(void) {
    rk_knock_rules pr;
    rk_position pos;
    uint8_t deck[52];
    rk_rng rng;
    rk_rng_seed(&rng, 5, 0);
    random_deck(&rng, deck);
    rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_GIN, 2);
    rk_position_deal(&pr, deck, 0, 77, &pos);
    /* hide seat 0's hand and the stock from seat 1 (to move: seat 1) */
    rk_hidden hidden;
    rk_position known = pos;
    int k = 0;
    for (int c = 0; c < 52; c++)
        if ((pos.hands[0] >> c) & 1u) hidden.cards[k] = (uint8_t)c, hidden.dest[k++] = 0;
    for (int i = 0; i < pos.n_stock; i++) hidden.cards[k] = pos.stock[i], hidden.dest[k++] = RK_DEST_STOCK;
    known.hands[0] = 0;
    known.n_stock = 0;
    hidden.n_slots = k;
    hidden.n_groups = 1;
    hidden.group_end[0] = (uint8_t)k;
    rk_policy greedy = {RK_POLICY_GREEDY, -1};
    int32_t pts_a[200 * 2], pts_b[200 * 2];
    uint8_t out_a[200], out_b[200];
    CHECK(rk_playouts(&rules, &pr, &known, &hidden, greedy, 9, 0, 200, pts_a, out_a) == RK_OK);
    CHECK(rk_playouts(&rules, &pr, &known, &hidden, greedy, 9, 0, 120, pts_b, out_b) == RK_OK);
    CHECK(rk_playouts(&rules, &pr, &known, &hidden, greedy, 9, 120, 80, pts_b + 240, out_b + 120) == RK_OK);
    CHECK(memcmp(pts_a, pts_b, sizeof pts_a) == 0 && memcmp(out_a, out_b, sizeof out_a) == 0);
    int differ = 0;
    for (int i = 1; i < 200; i++) differ += pts_a[2 * i] != pts_a[0] || pts_a[2 * i + 1] != pts_a[1];
    CHECK(differ > 0);
    /* a policy per seat: all greedy is rk_playouts; careful for seat 0 plays other hands */
    rk_policy seats[RK_MAX_PLAYERS] = {greedy, greedy, greedy, greedy};
    CHECK(rk_playouts_seats(&rules, &pr, &known, &hidden, seats, 9, 0, 200, pts_b, out_b) == RK_OK);
    CHECK(memcmp(pts_a, pts_b, sizeof pts_a) == 0 && memcmp(out_a, out_b, sizeof out_a) == 0);
    seats[0].kind = RK_POLICY_CAREFUL;
    CHECK(rk_playouts_seats(&rules, &pr, &known, &hidden, seats, 9, 0, 200, pts_b, out_b) == RK_OK);
    CHECK(memcmp(pts_a, pts_b, sizeof pts_a) != 0);
    seats[3].kind = (rk_policy_kind)7;
    CHECK(rk_playouts_seats(&rules, &pr, &known, &hidden, seats, 9, 0, 1, pts_b, out_b) == RK_ERR_ARG);
    CHECK(rk_playouts_seats(&rules, &pr, &known, &hidden, NULL, 9, 0, 1, pts_b, out_b) == RK_ERR_ARG);
    hidden.dest[0] = 3; /* not a seat of a two-player game */
    CHECK(rk_playouts(&rules, &pr, &known, &hidden, greedy, 9, 0, 1, pts_a, out_a) == RK_ERR_ARG);
    hidden.dest[0] = 1; /* a card twice */
    hidden.cards[0] = (uint8_t)rk_card_count(0);
    for (int c = 0; c < 52; c++)
        if ((pos.hands[1] >> c) & 1u) hidden.cards[0] = (uint8_t)c;
    CHECK(rk_playouts(&rules, &pr, &known, &hidden, greedy, 9, 0, 1, pts_a, out_a) == RK_ERR_OVERLAP);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void timing(void) {
    rk_knock_rules pr;
    rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_GIN, 2);
    rk_rng rng;
    rk_rng_seed(&rng, 1, 1);
    rk_policy greedy = {RK_POLICY_GREEDY, -1};
    int n = 20000;
    double t = now();
    long sink = 0;
    for (int h = 0; h < n; h++) {
        uint8_t deck[52];
        rk_position pos;
        rk_playout_result r;
        random_deck(&rng, deck);
        rk_position_deal(&pr, deck, h & 1, h, &pos);
        rk_playout(&rules, &pr, &pos, greedy, &rng, &r);
        sink += r.points[0];
    }
    t = now() - t;
    printf("greedy oklahoma gin playouts/s: %.0f (sink %ld)\n", n / t, sink);
}

/* Regressions found by fuzzing: a position or an action a
 * caller made up gives an error status and leaves the position alone (they
 * used to read and write out of bounds, or overflow a counter). */
static void test_hostile_positions(void) {
    rk_knock_rules pr;
    rk_position pos, before;
    rk_playout_result r;
    uint8_t deck[52];
    int32_t points[2];
    uint8_t outcome;
    int actions[RK_MAX_LEGAL];
    rk_policy greedy = {RK_POLICY_GREEDY, -1};
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    CHECK(rk_knock_rules_init(&pr, RK_GAME_GIN, 2) == RK_OK);
    CHECK(rk_position_deal(&pr, deck, 0, 1, &pos) == RK_OK);
    before = pos;
    /* illegal actions: a card not held, a knock in the offer, an id out of range */
    const int illegal[] = {0, RK_ACTION_KNOCK + 3, RK_ACTION_DRAW_STOCK, RK_ACTION_BIG_GIN, -1, 500};
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
        CHECK(rk_apply_action(&rules, &pr, &pos, illegal[i], &r) == RK_ERR_ARG);
        CHECK(!memcmp(&pos, &before, sizeof pos));
    }
    CHECK(rk_apply_action(&rules, &pr, &pos, RK_ACTION_PASS, &r) == RK_OK);
    /* the offer with an empty discard pile (read discards[-1]) */
    pos = before;
    pos.n_discards = 0;
    CHECK(rk_position_check(&pr, &pos) == RK_ERR_ARG);
    CHECK(rk_legal_actions(&rules, &pr, &pos, actions) == RK_ERR_ARG);
    CHECK(rk_apply_action(&rules, &pr, &pos, RK_ACTION_TAKE, &r) == RK_ERR_ARG);
    CHECK(rk_playouts(&rules, &pr, &pos, NULL, greedy, 1, 0, 1, points, &outcome) == RK_ERR_ARG);
    /* stock and pile sizes whose sum overflows an int (found by fuzz_playout) */
    pos = before;
    pos.n_stock = pos.n_discards = 2088533116;
    CHECK(rk_position_check(&pr, &pos) == RK_ERR_ARG);
    /* a negative stock size with a hidden part (check_hidden wrote stock[-5]) */
    pos = before;
    pos.n_stock = -5;
    rk_hidden one;
    memset(&one, 0, sizeof one);
    one.n_slots = one.n_groups = 1;
    one.group_end[0] = 1;
    one.cards[0] = (uint8_t)pos.stock[0];
    one.dest[0] = RK_DEST_STOCK;
    CHECK(rk_playouts(&rules, &pr, &pos, &one, greedy, 1, 0, 1, points, &outcome) == RK_ERR_ARG);
    /* a seat out of range (indexed hands[]) */
    pos = before;
    pos.player = 7;
    CHECK(rk_legal_actions(&rules, &pr, &pos, actions) == RK_ERR_ARG);
    CHECK(rk_policy_action(&rules, &pr, &pos, greedy, NULL) == RK_ERR_ARG);
    CHECK(rk_playout(&rules, &pr, &pos, greedy, NULL, &r) == RK_ERR_ARG);
    /* a turn counter at INT_MAX with no cap (signed overflow) and a 20-card hand */
    pos = before;
    pr.max_turns = -1;
    pos.turns = INT_MAX;
    CHECK(rk_position_check(&pr, &pos) == RK_ERR_ARG);
    pos = before;
    pos.hands[0] |= pos.hands[1];
    pos.hands[1] = 0;
    CHECK(rk_position_check(&pr, &pos) == RK_ERR_ARG);
    /* rules KnockRules cannot express */
    pos = before;
    rk_knock_rules bad = pr;
    bad.num_players = 9;
    CHECK(rk_position_check(&bad, &pos) == RK_ERR_ARG);
    CHECK(rk_playouts(&rules, &bad, &pos, NULL, greedy, 1, 0, 1, points, &outcome) == RK_ERR_ARG);
    bad = pr;
    bad.stock_end = (rk_stock_end)7;
    CHECK(rk_apply_action(&rules, &bad, &pos, RK_ACTION_PASS, &r) == RK_ERR_ARG);
    bad = pr;
    bad.spade_multiplier = 1000000; /* the points would overflow an int */
    CHECK(rk_position_check(&bad, &pos) == RK_ERR_ARG);
    rk_mask hands[2] = {parse("AS 2S 3S 4S 5S 6S 7S 8S 9S TS"), parse("AC 2C")};
    CHECK(rk_score_knock(&rules, &bad, hands, 0, 0, &r) == RK_ERR_ARG);
    /* no rules at all, with a hidden part (check_hidden read pr first) */
    rk_hidden hidden;
    memset(&hidden, 0, sizeof hidden);
    CHECK(rk_playouts(&rules, NULL, &pos, &hidden, greedy, 1, 0, 1, points, &outcome) == RK_ERR_ARG);
    CHECK(rk_playouts(&rules, &pr, &pos, &hidden, greedy, 1, 0, 1, points, &outcome) == RK_OK);
}

/* The state wrapper's entry points: hands played with rk_apply_legal end
 * with the result rk_position_result recomputes from the fields, and
 * rk_explain_knock's deadwood is the scored one; rk_score_hand's formula. */
static void test_state_entry_points(void) {
    rk_rng rng;
    rk_rng_seed(&rng, 77, 0);
    for (int game = 0; game < 3; game++) {
        for (int manual = 0; manual < 2; manual++) {
            rk_knock_rules pr;
            CHECK(rk_knock_rules_init(&pr, (rk_base_game)game, game == 2 ? 4 : 2) == RK_OK);
            pr.auto_showdown = !manual;
            int knocks = 0;
            for (int hand = 0; hand < 200; hand++) {
                uint8_t deck[52];
                rk_position pos;
                rk_playout_result out, again;
                random_deck(&rng, deck);
                CHECK(rk_position_deal(&pr, deck, hand % pr.num_players, 5, &pos) == RK_OK);
                CHECK(pos.knocker == -1);
                while (pos.phase != RK_PHASE_END) {
                    int a = rk_policy_action(&rules, &pr, &pos, (rk_policy){RK_POLICY_GREEDY, -1}, NULL);
                    CHECK(a >= 0);
                    if (a < 0) break;
                    CHECK(rk_apply_legal(&rules, &pr, &pos, a, &out) == RK_OK);
                }
                CHECK(rk_position_result(&rules, &pr, &pos, &again) == RK_OK);
                CHECK(again.outcome == out.outcome && again.winner == out.winner);
                for (int s = 0; s < pr.num_players; s++) CHECK(again.points[s] == out.points[s]);
                if (out.outcome == RK_OUTCOME_DEAD) continue;
                knocks++;
                if (manual) continue;
                rk_mask hands[RK_MAX_PLAYERS];
                rk_knock_details d;
                for (int i = 0; i < pr.num_players; i++) hands[i] = pos.hands[(out.knocker + i) % pr.num_players];
                CHECK(rk_explain_knock(&rules, &pr, hands, pos.upcard, pos.big_gin, NULL, -1, &d) == RK_OK);
                for (int i = 0; i < pr.num_players; i++)
                    CHECK(d.deadwood[i] == out.deadwood[(out.knocker + i) % pr.num_players]);
            }
            CHECK(knocks > 20);
        }
    }
    rk_knock_rules pr;
    rk_playout_result r;
    int dw[3] = {5, 12, 20};
    CHECK(rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_RUMMY, 3) == RK_OK);
    pr.knock_bonus = 10, pr.collect_differences = 1, pr.losers_charged = 1; /* net_collect, EX-M01 */
    CHECK(rk_score_hand(&pr, 3, dw, 0, RK_OUTCOME_KNOCK, 0, 2, &r) == RK_OK);
    CHECK(r.points[0] == 64 && r.points[1] == -14 && r.points[2] == -30);
    CHECK(rk_score_hand(&pr, 5, dw, 0, RK_OUTCOME_KNOCK, 0, 2, &r) == RK_ERR_ARG);
    CHECK(rk_score_hand(&pr, 3, dw, 0, RK_OUTCOME_DEAD, 0, 2, &r) == RK_ERR_ARG);
    int limits[4];
    CHECK(rk_knock_limits(&pr, 13 * 3 + 6, limits) == RK_OK); /* 7S */
    CHECK(rk_knock_limits(&pr, 52, limits) == RK_ERR_ARG);
}

/* Random hands with the public step log (rk_knock_public_step); at every
 * node each seat's determinization (rk_knock_determinize) keeps what the
 * seat sees, has the hidden cards in their places, and (before any restock)
 * replays: the rebuilt deck dealt and the history applied give the sampled
 * hands.  rk_knock_hidden's deal (rk_knock_sample) keeps the seat's view too. */
static void test_determinize(rk_base_game game, int players, int stock_end, int hands) {
    enum { MAX_STEPS = 400 };
    rk_knock_rules pr;
    CHECK(rk_knock_rules_init(&pr, game, players) == RK_OK);
    if (stock_end >= 0) pr.stock_end = (rk_stock_end)stock_end;
    rk_rng rng;
    rk_rng_seed(&rng, 5, (uint64_t)(game * 10 + players));
    static int32_t actions[MAX_STEPS];
    static uint32_t steps[MAX_STEPS];
    uint8_t *work = malloc(rk_knock_work_size(MAX_STEPS));
    CHECK(work != NULL);
    static rk_knock_sample_out out;
    long checked = 0, replayed = 0;
    for (int h = 0; h < hands; h++) {
        static uint8_t drawn[RK_MAX_PLAYERS][MAX_STEPS];
        uint8_t deck[52];
        int n_drawn[RK_MAX_PLAYERS] = {0}, n = 0;
        rk_position pos;
        random_deck(&rng, deck);
        CHECK(rk_position_deal(&pr, deck, h % players, rk_rng_next(&rng), &pos) == RK_OK);
        while (pos.phase != RK_PHASE_END && n < MAX_STEPS) {
            int legal[RK_MAX_LEGAL];
            int k = rk_legal_actions(&rules, &pr, &pos, legal);
            CHECK(k > 0);
            if (k <= 0) break;
            int a = legal[rk_rng_below(&rng, (uint32_t)k)], card;
            rk_position before = pos;
            CHECK(rk_apply_action(&rules, &pr, &pos, a, NULL) == RK_OK);
            actions[n] = a;
            steps[n++] = rk_knock_public_step(&before, &pos, a, &card);
            if (card >= 0) drawn[before.player][n_drawn[before.player]++] = (uint8_t)card;
            rk_knock_log log = {actions, steps, n};
            for (int p = 0; p < players; p++) {
                CHECK(rk_knock_determinize(&rules, &pr, &pos, &log, deck, drawn[p], n_drawn[p], p, -1, &rng, work,
                                           &out) == RK_OK);
                checked++;
                for (int q = 0; q < players; q++) {
                    CHECK(rk_knock_seen(&out.pos, p, q) == rk_knock_seen(&pos, p, q));
                    CHECK(rk_card_count(out.pos.hands[q]) == rk_card_count(pos.hands[q]));
                }
                CHECK(out.pos.n_stock == pos.n_stock && out.pos.n_discards == pos.n_discards);
                CHECK(memcmp(out.pos.discards, pos.discards, (size_t)pos.n_discards) == 0);
                CHECK(rk_knock_card_seen(&out.pos, p) == rk_knock_card_seen(&pos, p));
                CHECK(n_drawn[p] == out.n_drawn[p] && memcmp(out.drawn[p], drawn[p], (size_t)n_drawn[p]) == 0);
                if (pos.restocks == 0) { /* replay the history from the rebuilt deck */
                    rk_position re;
                    CHECK(rk_position_deal(&pr, out.deck, pos.dealer, 1, &re) == RK_OK);
                    for (int i = 0; i < n; i++) {
                        int a2 = i == out.knock_time ? RK_ACTION_KNOCK + out.pos.knock_card : actions[i];
                        CHECK(rk_apply_action(&rules, &pr, &re, a2, NULL) == RK_OK);
                    }
                    CHECK(memcmp(re.hands, out.pos.hands, sizeof re.hands) == 0);
                    replayed++;
                }
                rk_position known, sample;
                rk_hidden hidden;
                if (pos.phase == RK_PHASE_END) continue;
                CHECK(rk_knock_hidden(&pr, &pos, &log, p, work, &known, &hidden) == RK_OK);
                rk_knock_sample(&known, &hidden, &rng, &sample);
                for (int q = 0; q < players; q++) CHECK(rk_knock_seen(&sample, p, q) == rk_knock_seen(&pos, p, q));
            }
        }
    }
    CHECK(checked > 100 && replayed > 10);
    /* a history that does not fit the position */
    rk_position pos;
    uint8_t deck[52];
    random_deck(&rng, deck);
    CHECK(rk_position_deal(&pr, deck, 0, 1, &pos) == RK_OK);
    actions[0] = RK_ACTION_DRAW_STOCK;
    rk_knock_step bad = {0, -1, 5, 1, 0, 0, 0}; /* a restock the position never had */
    steps[0] = rk_knock_step_encode(&bad);
    rk_knock_log log = {actions, steps, 1};
    CHECK(rk_knock_determinize(&rules, &pr, &pos, &log, deck, NULL, 0, 0, -1, &rng, work, &out) == RK_ERR_ARG);
    CHECK(rk_knock_determinize(&rules, &pr, &pos, &log, deck, NULL, 0, 7, -1, &rng, work, &out) == RK_ERR_ARG);
    rk_knock_step back;
    rk_knock_step_decode(steps[0], &back);
    CHECK(memcmp(&back, &bad, sizeof back) == 0);
    free(work);
}

/* A hand that never knocks (turn cap lifted) restocks far more often than a deck has cards,
 * and its seats draw hundreds of times: every seat's determinization along the way keeps what
 * the seat sees and its own draws. */
static void test_determinize_long(void) {
    enum { MAX_STEPS = 12000 };
    rk_knock_rules pr;
    CHECK(rk_knock_rules_init(&pr, RK_GAME_OKLAHOMA_RUMMY, 4) == RK_OK);
    pr.stock_end = RK_STOCK_RESHUFFLE;
    pr.max_turns = -1;
    rk_rng rng;
    rk_rng_seed(&rng, 11, 4);
    int32_t *actions = malloc(MAX_STEPS * sizeof *actions);
    uint32_t *steps = malloc(MAX_STEPS * sizeof *steps);
    uint8_t(*drawn)[MAX_STEPS] = malloc(RK_MAX_PLAYERS * sizeof *drawn);
    uint8_t *work = malloc(rk_knock_work_size(MAX_STEPS));
    static rk_knock_sample_out out;
    CHECK(actions && steps && drawn && work);
    if (!actions || !steps || !drawn || !work) return;
    uint8_t deck[52];
    int n_drawn[RK_MAX_PLAYERS] = {0}, n = 0, checked = 0;
    rk_position pos;
    random_deck(&rng, deck);
    CHECK(rk_position_deal(&pr, deck, 0, rk_rng_next(&rng), &pos) == RK_OK);
    while (pos.phase != RK_PHASE_END && n < MAX_STEPS) {
        int legal[RK_MAX_LEGAL], k = rk_legal_actions(&rules, &pr, &pos, legal), plain = 0;
        CHECK(k > 0);
        if (k <= 0) break;
        for (int i = 0; i < k; i++)
            if (legal[i] < RK_ACTION_KNOCK || legal[i] >= RK_ACTION_DRAW_STOCK) legal[plain++] = legal[i];
        int a = legal[rk_rng_below(&rng, (uint32_t)plain)], card;
        rk_position before = pos;
        CHECK(rk_apply_action(&rules, &pr, &pos, a, NULL) == RK_OK);
        actions[n] = a;
        steps[n++] = rk_knock_public_step(&before, &pos, a, &card);
        if (card >= 0) drawn[before.player][n_drawn[before.player]++] = (uint8_t)card;
        if (n % 997 && n != MAX_STEPS) continue;
        rk_knock_log log = {actions, steps, n};
        for (int p = 0; p < 4; p++) {
            CHECK(rk_knock_determinize(&rules, &pr, &pos, &log, deck, drawn[p], n_drawn[p], p, -1, &rng, work, &out) ==
                  RK_OK);
            for (int q = 0; q < 4; q++) CHECK(rk_knock_seen(&out.pos, p, q) == rk_knock_seen(&pos, p, q));
            CHECK(n_drawn[p] == out.n_drawn[p] && memcmp(out.drawn[p], drawn[p], (size_t)n_drawn[p]) == 0);
            checked++;
        }
    }
    CHECK(pos.restocks > 100 && n_drawn[0] > 300 && checked >= 40);
    free(actions);
    free(steps);
    free(drawn);
    free(work);
}

int main(void) {
    if (rk_rules_init(&rules, RK_ACES_LOW, NULL) != RK_OK) return 1;
    test_rng();
    test_determinize(RK_GAME_GIN, 2, -1, 12);
    test_determinize(RK_GAME_GIN, 2, RK_STOCK_DEAD_AT_2_LAST_CHANCE, 12);
    test_determinize(RK_GAME_OKLAHOMA_RUMMY, 3, RK_STOCK_RESHUFFLE, 6);
    test_determinize_long();
    test_deal();
    test_rules_fields();
    test_scoring();
    test_shown_melds();
    test_manual_showdown();
    test_playouts();
    test_batches();
    test_hostile_positions();
    test_state_entry_points();
    timing();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("playout tests passed\n");
    return 0;
}
