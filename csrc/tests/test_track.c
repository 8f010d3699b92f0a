/* C tests of the particle filter (rummykit/track.h; its rules are checked story by story
 * against a Python restatement in tests/agents/test_track.py): argument checks, the deal
 * fill, draws from the free cards only, hand sizes through events, dead stories, resampling
 * towards the stories that explain a discard, a walk no story explains, and the take styles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rummykit/rummykit.h"
#include "rummykit/track.h"
#include "check.h"

#define N 64
#define DRAWS 4

static rk_rules rules;

typedef struct {
    rk_mask dealt[N], hand[N], used[N];
    int8_t draws[N * DRAWS];
    double logw[N], rate[N];
    uint8_t taker[N];
    rk_particles p;
} store;

static void setup(store *s, size_t n_draws) {
    memset(s, 0, sizeof *s);
    memset(s->draws, -1, sizeof s->draws);
    for (int i = 0; i < N; i++) s->rate[i] = 0.975;
    s->p.n = N;
    s->p.n_draws = n_draws;
    s->p.dealt = s->dealt;
    s->p.hand = s->hand;
    s->p.used = s->used;
    s->p.draws = s->draws;
    s->p.logw = s->logw;
    s->p.rate = s->rate;
}

static int popcount(rk_mask m) {
    int c = 0;
    for (; m; m &= m - 1) c++;
    return c;
}

static rk_track_model model(rk_mask free) {
    rk_track_model m;
    m.beta = 1.0;
    m.epsilon = 0.05;
    m.high = 0.0;
    m.knock_max = 10;
    m.hand_size = 10;
    m.free = free;
    return m;
}

static void test_arguments(void) {
    store a, b;
    setup(&a, DRAWS);
    setup(&b, DRAWS);
    rk_track_model m = model(((rk_mask)1 << 52) - 1);
    rk_track_event bad[] = {{9, 0, 0, 0}, {RK_EV_DRAW, DRAWS, 0, 0}, {RK_EV_DISCARD, 52, 0, 0}, {RK_EV_ADD, -1, 0, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(rk_track(&rules, &m, &bad[i], 1, &a.p, &b.p, 1) == RK_ERR_ARG);
    CHECK(rk_track(NULL, &m, NULL, 0, &a.p, &b.p, 1) == RK_ERR_ARG);
    m.epsilon = 0;
    CHECK(rk_track(&rules, &m, NULL, 0, &a.p, &b.p, 1) == RK_ERR_ARG);
    m = model(((rk_mask)1 << 52) - 1);
    m.beta = NAN;
    CHECK(rk_track(&rules, &m, NULL, 0, &a.p, &b.p, 1) == RK_ERR_ARG);
    m = model(((rk_mask)1 << 52) - 1);
    b.p.n = N - 1;
    CHECK(rk_track(&rules, &m, NULL, 0, &a.p, &b.p, 1) == RK_ERR_ARG);
    b.p.n = N;
    a.p.taker = a.taker; /* a take style in one of the two only */
    CHECK(rk_track(&rules, &m, NULL, 0, &a.p, &b.p, 1) == RK_ERR_ARG);
    b.p.taker = b.taker;
    a.taker[3] = 2;
    CHECK(rk_track(&rules, &m, NULL, 0, &a.p, &b.p, 1) == RK_ERR_ARG);
}

static void test_fill_and_draws(void) {
    store a, b;
    setup(&a, DRAWS);
    setup(&b, DRAWS);
    rk_mask free = ((rk_mask)1 << 20) - 1; /* 20 free cards: 10 dealt, 4 drawn, 6 left */
    rk_track_model m = model(free);
    a.dealt[0] = 1; /* story 0 already holds card 0 */
    a.used[0] = 1;
    rk_track_event ev[] = {{RK_EV_DRAW, 0, 0, 0}, {RK_EV_DRAW, 1, 0, 0}, {RK_EV_DRAW, 2, 0, 0}, {RK_EV_DRAW, 3, 0, 0}};
    CHECK(rk_track(&rules, &m, ev, 4, &a.p, &b.p, 7) == RK_OK);
    for (int i = 0; i < N; i++) {
        CHECK(popcount(a.dealt[i]) == 10 && (a.dealt[i] & ~free) == 0);
        CHECK(popcount(a.hand[i]) == 14 && (a.hand[i] & a.dealt[i]) == a.dealt[i]);
        for (int d = 0; d < DRAWS; d++) {
            int c = a.draws[i * DRAWS + d];
            CHECK(c >= 0 && c < 20 && !(a.dealt[i] >> c & 1) && (a.hand[i] >> c & 1));
        }
        CHECK(a.logw[i] == 0);
    }
    CHECK(a.dealt[0] & 1);
    /* fewer free cards than the deal and draws need: every story dies */
    setup(&a, DRAWS);
    m = model(((rk_mask)1 << 12) - 1);
    CHECK(rk_track(&rules, &m, ev, 4, &a.p, &b.p, 7) == RK_ERR_EMPTY);
}

static void test_a_discard_weighs_the_stories(void) {
    store a, b;
    setup(&a, 1);
    setup(&b, 1);
    rk_track_model m = model(((rk_mask)1 << 52) - 1);
    /* a quarter of the stories hold the king of spades (card 51), which the opponent throws */
    for (int i = 0; i < N; i += 4) {
        a.dealt[i] = (rk_mask)1 << 51;
        a.used[i] = a.dealt[i];
    }
    for (int i = 0; i < N; i++)
        if (i % 4) a.used[i] = (rk_mask)1 << 51; /* the others may not */
    rk_track_event ev[] = {{RK_EV_DRAW, 0, 0, 0}, {RK_EV_DISCARD, 51, 0, -1}};
    CHECK(rk_track(&rules, &m, ev, 2, &a.p, &b.p, 3) == RK_OK);
    for (int i = 0; i < N; i++) {
        /* resampled: every story left held the king and threw it */
        CHECK(!(a.hand[i] >> 51 & 1) && (a.dealt[i] >> 51 & 1));
        CHECK(popcount(a.hand[i]) == 10 && isfinite(a.logw[i]));
    }
    /* a discard no story holds */
    setup(&a, 1);
    for (int i = 0; i < N; i++) a.used[i] = (rk_mask)1 << 51;
    CHECK(rk_track(&rules, &m, ev, 2, &a.p, &b.p, 3) == RK_ERR_EMPTY);
}

/* A pass of a card that makes no meld but would lower the deadwood by 9: the greedy-taking
 * stories pay for it, the meld-taking ones do not, which then hold most of the weight. */
static void test_take_styles(void) {
    store a, b;
    setup(&a, 0);
    setup(&b, 0);
    a.p.taker = a.taker;
    b.p.taker = b.taker;
    /* 10C JC KC 9D JD QD 10H KH 8S 9S: no meld, two kings; the ace of spades is offered */
    const int cards[10] = {9, 10, 12, 21, 23, 24, 35, 38, 46, 47};
    rk_mask hand = 0;
    for (int k = 0; k < 10; k++) hand |= (rk_mask)1 << cards[k];
    rk_track_model m = model((((rk_mask)1 << 52) - 1) & ~((rk_mask)1 << 39));
    for (int i = 0; i < N; i++) {
        a.taker[i] = (uint8_t)(i % 2);
        a.dealt[i] = a.used[i] = hand;
    }
    rk_track_event ev[] = {{RK_EV_TAKE_CHOICE, 39, 0, 0}};
    CHECK(rk_track(&rules, &m, ev, 1, &a.p, &b.p, 5) == RK_OK);
    double meld = 0, total = 0;
    for (int i = 0; i < N; i++) {
        total += exp(a.logw[i]);
        if (a.taker[i]) meld += exp(a.logw[i]);
    }
    CHECK(meld / total > 0.8); /* the pass is a surprise only under greedy's rule */
}

static void test_systematic(void) {
    /* shares 0, .5, .5, .75, 1 at positions .125, .375, .625, .875: zero weights never taken */
    const double w[5] = {0, 2, 0, 1, 1};
    const size_t want[4] = {1, 1, 3, 4};
    size_t j = 0;
    double share = w[0] / 4;
    for (size_t k = 0; k < 4; k++) CHECK(rk_systematic_next(w, 5, 4, 0.5, k, 4, &j, &share) == want[k]);
}

int main(void) {
    if (rk_rules_init(&rules, RK_ACES_LOW, NULL) != RK_OK) return 1;
    test_arguments();
    test_fill_and_draws();
    test_a_discard_weighs_the_stories();
    test_take_styles();
    test_systematic();
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
