/* What a seat of a knock game sees, the public step log and determinization
 * (rummykit/knock.h, "Hidden information"). */
#include "knock_internal.h"

#include <string.h>


/* ---- what a seat sees ------------------------------------------------- */

rk_mask rk_knock_seen(const rk_position *pos, int player, int seat) {
    rk_mask hand = pos->hands[seat];
    if (seat == player || pos->phase == RK_PHASE_END) return hand;
    rk_mask seen = pos->known[seat] & hand;
    if (pos->phase == RK_PHASE_SHOWDOWN && pos->knocker >= 0) {
        if (seat == pos->knocker) return hand;
        seen |= pos->used[seat];
    }
    return seen;
}

int rk_knock_card_seen(const rk_position *pos, int player) {
    int card = pos->knock_card, k = pos->knocker;
    if (card < 0 || card >= RK_NUM_CARDS) return 0;
    if (pos->phase == RK_PHASE_END || player == k) return 1;
    return k >= 0 && k < RK_MAX_PLAYERS && (int)(pos->known[k] >> card & 1);
}

/* ---- the public step log ---------------------------------------------- */

uint32_t rk_knock_step_encode(const rk_knock_step *s) {
    return (uint32_t)s->seat | (uint32_t)(s->card + 1) << 3 | (uint32_t)s->restocked << 9 | (uint32_t)s->drew << 15 |
           (uint32_t)s->removed << 16 | (uint32_t)s->added << 17 | (uint32_t)s->unseen << 18;
}

void rk_knock_step_decode(uint32_t code, rk_knock_step *s) {
    s->seat = (int)(code & 7);
    s->card = (int)(code >> 3 & 63) - 1;
    s->restocked = (int)(code >> 9 & 63);
    s->drew = (int)(code >> 15 & 1);
    s->removed = (int)(code >> 16 & 1);
    s->added = (int)(code >> 17 & 1);
    s->unseen = (int)(code >> 18 & 1);
}

uint32_t rk_knock_public_step(const rk_position *before, const rk_position *after, int action, int *drawn) {
    rk_knock_step s;
    int p = before->player;
    memset(&s, 0, sizeof s);
    s.seat = p;
    s.card = -1;
    if (drawn) *drawn = -1;
    if (action >= 0 && action < RK_ACTION_DRAW_STOCK) { /* a discard or a knock */
        s.card = action % RK_NUM_CARDS;
        s.unseen = !(before->known[p] >> s.card & 1);
    } else if (action == RK_ACTION_TAKE && before->n_discards > 0) {
        s.card = before->discards[before->n_discards - 1];
    } else if (action == RK_ACTION_DRAW_STOCK) {
        if (after->restocks > before->restocks) s.restocked = before->n_discards - 1;
        rk_mask got = after->hands[p] & ~before->hands[p];
        if (got) {
            s.drew = 1;
            if (drawn) *drawn = rk__ctz(got);
        }
    }
    s.removed = !s.restocked && after->n_discards < before->n_discards;
    s.added = after->n_discards > before->n_discards;
    return rk_knock_step_encode(&s);
}

/* ---- the public history, walked once ------------------------------------ */

/* What the history says of the hidden cards: per card the group it was last
 * seen going into (0: never), per group and seat the cards it holds that
 * nobody saw go in, and per step the group of a stock draw or of an unseen
 * card let go (in the work buffer: a hand may restock any number of times). */
typedef struct walk {
    int groups; /* restocks + 1 */
    int32_t group[RK_NUM_CARDS];
    int32_t *hidden;     /* hidden[g * RK_MAX_PLAYERS + seat], g < groups */
    int32_t *step_group; /* per step */
    int knocker, knock_time, knock_unseen;
} walk;

#define HIDDEN(w, g, q) ((w)->hidden[(size_t)(g) * RK_MAX_PLAYERS + (size_t)(q)])

static size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }

static size_t steps_room(int n_steps) { return n_steps > 0 ? (size_t)n_steps : 1; }

/* The walk's part of the work buffer: each step's group, then the hidden counts of up to
 * n + 1 groups (every restock is a step). */
static size_t walk_size(size_t n) { return align8(n * sizeof(int32_t)) + (n + 1) * RK_MAX_PLAYERS * sizeof(int32_t); }

/* work: the walk's; for rk_knock_determinize then each seat's draws (out->drawn points there)
 * and one seat's places (its dealt cards and draws), however long the hand ran */
size_t rk_knock_work_size(int n_steps) {
    size_t n = steps_room(n_steps), places = RK_NUM_CARDS + n;
    return walk_size(n) + align8(RK_MAX_PLAYERS * n) + places * 4 * sizeof(int32_t);
}

static int is_knock(int32_t a) {
    return (a >= RK_ACTION_KNOCK && a < RK_ACTION_DRAW_STOCK) || a == RK_ACTION_BIG_GIN;
}

static rk_status walk_log(const rk_knock_rules *pr, const rk_position *pos, const rk_knock_log *log, void *work,
                          walk *w) {
    int n = pr->num_players, size = rk__hand_size(pr), n_pile = 1, restocks = 0;
    uint8_t pile[RK_NUM_CARDS];
    if (log->n < 0 || (log->n && (!log->actions || !log->steps || !work))) return RK_ERR_ARG;
    if (pos->upcard < 0 || pos->upcard >= RK_NUM_CARDS) return RK_ERR_ARG;
    memset(w, 0, sizeof *w);
    w->step_group = (int32_t *)work;
    w->hidden = (int32_t *)(void *)((uint8_t *)work + align8(steps_room(log->n) * sizeof(int32_t)));
    w->knocker = w->knock_time = -1;
    pile[0] = (uint8_t)pos->upcard;
    for (int q = 0; q < RK_MAX_PLAYERS; q++) HIDDEN(w, 0, q) = q < n ? size : 0;
    for (int i = 0; i < log->n; i++) {
        rk_knock_step s;
        rk_knock_step_decode(log->steps[i], &s);
        if (s.seat >= n || s.card >= RK_NUM_CARDS) return RK_ERR_ARG;
        w->step_group[i] = 0;
        if (s.restocked) {
            if (++restocks > log->n) return RK_ERR_ARG;
            for (int q = 0; q < RK_MAX_PLAYERS; q++) HIDDEN(w, restocks, q) = 0;
            for (int k = 0; k < n_pile - 1; k++) w->group[pile[k]] = restocks;
            pile[0] = pile[n_pile - 1];
            n_pile = 1;
        }
        if (s.drew) {
            HIDDEN(w, restocks, s.seat)++;
            w->step_group[i] = restocks;
        }
        if (s.unseen && s.card >= 0) {
            HIDDEN(w, w->group[s.card], s.seat)--;
            w->step_group[i] = w->group[s.card];
        }
        if (is_knock(log->actions[i])) {
            w->knocker = s.seat;
            w->knock_time = i;
            w->knock_unseen = s.unseen && log->actions[i] != RK_ACTION_BIG_GIN;
        }
        if (s.removed) {
            if (n_pile == 0) return RK_ERR_ARG;
            n_pile--;
        }
        if (s.added) {
            if (n_pile >= RK_NUM_CARDS || s.card < 0) return RK_ERR_ARG;
            pile[n_pile++] = (uint8_t)s.card;
        }
    }
    if (restocks != pos->restocks) return RK_ERR_ARG;
    w->groups = restocks + 1;
    return RK_OK;
}

/* ---- the hidden cards of one seat's view ------------------------------ */

/* The view of `player`: the position with the others' hands cut to the
 * cards player sees and no stock (known), and the hidden cards in groups
 * (hidden), every other seat's unseen cards, the stock and a face-down knock
 * card hidden from player; `keep` (a seat, or -1) keeps its real cards. */
static rk_status hidden_of(const rk_knock_rules *pr, const rk_position *pos, const walk *w, int player, int keep,
                           rk_position *known, rk_hidden *hidden) {
    int n = pr->num_players;
    rk_mask visible = pos->hands[player], seen[RK_MAX_PLAYERS];
    for (int i = 0; i < pos->n_discards; i++) visible |= (rk_mask)1 << pos->discards[i];
    for (int q = 0; q < n; q++) {
        seen[q] = rk_knock_seen(pos, player, q);
        visible |= pos->known[q] | seen[q];
    }
    if (pos->set_aside >= 0) visible |= (rk_mask)1 << pos->set_aside;
    int knock_hidden = pos->knock_card >= 0 && !rk_knock_card_seen(pos, player);
    int knock_group = knock_hidden ? w->group[pos->knock_card] : -1;
    if (pos->knock_card >= 0 && !knock_hidden) visible |= (rk_mask)1 << pos->knock_card;
    if (keep >= 0) {
        visible |= pos->hands[keep];
        seen[keep] = pos->hands[keep];
    }
    *known = *pos;
    known->n_stock = 0;
    if (knock_hidden) known->knock_card = -1;
    for (int q = 0; q < n; q++)
        if (q != player) known->hands[q] = seen[q];
    memset(hidden, 0, sizeof *hidden);
    int k = 0, n_groups = 0; /* groups without a hidden card are left out: at most 52 are not */
    for (int g = 0; g < w->groups; g++) {
        int start = k;
        for (int q = 0; q < n; q++) {
            if (q == player || q == keep) continue;
            int places = HIDDEN(w, g, q);
            for (rk_mask m = seen[q] & ~pos->known[q]; m; m &= m - 1)
                if (w->group[rk__ctz(m)] == g) places--;
            if (places < 0 || k + places > RK_NUM_CARDS) return RK_ERR_ARG;
            for (int i = 0; i < places; i++) hidden->dest[k++] = (uint8_t)q;
        }
        if (g == knock_group) {
            if (k >= RK_NUM_CARDS) return RK_ERR_ARG;
            hidden->dest[k++] = RK_DEST_KNOCK;
        }
        if (g == w->groups - 1) {
            if (k + pos->n_stock > RK_NUM_CARDS) return RK_ERR_ARG;
            for (int i = 0; i < pos->n_stock; i++) hidden->dest[k++] = RK_DEST_STOCK;
        }
        int c = start;
        for (int card = 0; card < RK_NUM_CARDS; card++)
            if (!(visible >> card & 1) && w->group[card] == g) {
                if (c >= k) return RK_ERR_ARG; /* more hidden cards than places */
                hidden->cards[c++] = (uint8_t)card;
            }
        if (c != k) return RK_ERR_ARG;
        if (k > start) hidden->group_end[n_groups++] = (uint8_t)k;
    }
    hidden->n_slots = k;
    hidden->n_groups = n_groups;
    return RK_OK;
}

rk_status rk_knock_hidden(const rk_knock_rules *pr, const rk_position *pos, const rk_knock_log *log, int player,
                          void *work, rk_position *known, rk_hidden *hidden) {
    walk w;
    if (!pr || !pos || !log || !known || !hidden || rk__knock_rules_check(pr) != RK_OK) return RK_ERR_ARG;
    if (player < 0 || player >= pr->num_players) return RK_ERR_ARG;
    rk_status st = rk__position_check_any(pr, pos);
    if (st == RK_OK) st = walk_log(pr, pos, log, work, &w);
    if (st == RK_OK) st = hidden_of(pr, pos, &w, player, -1, known, hidden);
    return st;
}

rk_status rk_knock_card_groups(const rk_knock_rules *pr, const rk_position *pos, const rk_knock_log *log, void *work,
                               int32_t *group) {
    walk w;
    if (!pr || !pos || !log || !group || rk__knock_rules_check(pr) != RK_OK) return RK_ERR_ARG;
    rk_status st = walk_log(pr, pos, log, work, &w);
    if (st == RK_OK) memcpy(group, w.group, sizeof w.group);
    return st;
}

void rk_knock_sample(const rk_position *known, const rk_hidden *hidden, rk_rng *rng, rk_position *out) {
    uint8_t cards[RK_NUM_CARDS];
    *out = *known;
    memcpy(cards, hidden->cards, (size_t)hidden->n_slots);
    int start = 0;
    for (int g = 0; g < hidden->n_groups; g++) {
        int end = hidden->group_end[g];
        rk_rng_shuffle(rng, cards + start, (size_t)(end - start));
        start = end;
    }
    for (int k = 0; k < hidden->n_slots; k++) {
        int d = hidden->dest[k];
        if (d == RK_DEST_STOCK)
            out->stock[out->n_stock++] = cards[k];
        else if (d == RK_DEST_KNOCK)
            out->knock_card = cards[k];
        else
            out->hands[d] |= (rk_mask)1 << cards[k];
    }
    out->shuffle_seed = rk_rng_next(rng);
}

/* ---- the full determinization ------------------------------------------ */

/* Whether the last-chance taker's hand could knock with a discard other than the taken card. */
static int can_still_knock(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, rk_mask hand) {
    rk__limits l = rk__limits_of(pr, pos->upcard);
    int best, dw;
    if (rk_best_discard(rules, hand, pos->taken, &best, &dw, NULL) != RK_OK) return 0;
    return dw <= l.knock_max;
}

/* A dealt hand and a draw log for seat q that fit the public history (see knock.h). */
static rk_status rebuild_seat(const rk_knock_rules *pr, const rk_knock_log *log, const walk *w, int q,
                              int knock_card, rk_mask unseen, rk_rng *rng, int32_t *scratch, int max_places,
                              uint8_t *dealt, uint8_t *drawn, int *n_drawn) {
    int size = rk__hand_size(pr), n_places = size;
    int32_t *time = scratch, *card = scratch + max_places, *slots = scratch + 2 * max_places;
    int32_t *group = scratch + 3 * max_places;
    for (int i = 0; i < size; i++) time[i] = -1, group[i] = 0, card[i] = -1;
    for (int i = 0; i < log->n; i++) {
        rk_knock_step s;
        rk_knock_step_decode(log->steps[i], &s);
        if (s.seat != q || !s.drew) continue;
        if (n_places >= max_places) return RK_ERR_CAPACITY;
        time[n_places] = i, group[n_places] = w->step_group[i], card[n_places] = -1;
        n_places++;
    }
    /* each card let go unseen fills a free earlier place of its group */
    for (int i = 0; i < log->n; i++) {
        rk_knock_step s;
        rk_knock_step_decode(log->steps[i], &s);
        if (s.seat != q || !s.unseen || s.card < 0) continue;
        int c = i == w->knock_time && knock_card >= 0 ? knock_card : s.card, n_free = 0;
        for (int k = 0; k < n_places; k++)
            if (card[k] < 0 && group[k] == w->step_group[i] && time[k] < i) slots[n_free++] = k;
        if (!n_free) return RK_ERR_ARG;
        card[slots[rk_rng_below(rng, (uint32_t)n_free)]] = c;
    }
    /* the unseen cards held fill the rest, group by group, in a random order */
    for (int g = 0; g < w->groups; g++) {
        uint8_t mine[RK_NUM_CARDS];
        int n_mine = 0, at = 0;
        for (rk_mask m = unseen; m; m &= m - 1)
            if (w->group[rk__ctz(m)] == g) mine[n_mine++] = (uint8_t)rk__ctz(m);
        if (!n_mine) continue; /* its places, if any, are left free: refused below */
        rk_rng_shuffle(rng, mine, (size_t)n_mine);
        for (int k = 0; k < n_places; k++) {
            if (card[k] >= 0 || group[k] != g) continue;
            if (at >= n_mine) return RK_ERR_ARG;
            card[k] = mine[at++];
        }
        if (at != n_mine) return RK_ERR_ARG;
    }
    for (int k = 0; k < n_places; k++)
        if (card[k] < 0) return RK_ERR_ARG;
    for (int i = 0; i < size; i++) dealt[i] = (uint8_t)card[i];
    rk_rng_shuffle(rng, dealt, (size_t)size);
    *n_drawn = n_places - size;
    for (int k = size; k < n_places; k++) drawn[k - size] = (uint8_t)card[k];
    return RK_OK;
}

rk_status rk_knock_determinize(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                               const rk_knock_log *log, const uint8_t *deck, const uint8_t *own_drawn,
                               int n_own_drawn, int player, int max_tries, rk_rng *rng, void *work,
                               rk_knock_sample_out *out) {
    walk w;
    rk_position known;
    rk_hidden hidden;
    if (!rules || !pr || !pos || !log || !deck || (n_own_drawn && !own_drawn) || !rng || !out ||
        rk__knock_rules_check(pr) != RK_OK || player < 0 || player >= pr->num_players)
        return RK_ERR_ARG;
    rk_status st = rk__position_check_any(pr, pos);
    if (st == RK_OK) st = walk_log(pr, pos, log, work, &w);
    if (st == RK_OK) st = hidden_of(pr, pos, &w, player, -1, &known, &hidden);
    if (st != RK_OK) return st;
    int n = pr->num_players, size = rk__hand_size(pr);
    size_t steps = steps_room(log->n);
    uint8_t *draws = (uint8_t *)work + walk_size(steps);
    int32_t *scratch = (int32_t *)(void *)(draws + align8(RK_MAX_PLAYERS * steps));
    for (int q = 0; q < RK_MAX_PLAYERS; q++) out->drawn[q] = draws + (size_t)q * steps;
    int mover = pos->phase == RK_PHASE_KNOCK_ONLY && pos->player != player ? pos->player : -1;
    out->kept = 0;
    for (int attempt = 0;; attempt++) {
        if (mover >= 0 && attempt == (max_tries < 0 ? RK_KNOCK_MAX_TRIES : max_tries)) { /* the taker keeps the hidden cards it holds */
            st = hidden_of(pr, pos, &w, player, mover, &known, &hidden);
            if (st != RK_OK) return st;
            out->kept = 1;
        }
        rk_knock_sample(&known, &hidden, rng, &out->pos);
        if (mover < 0 || out->kept || can_still_knock(rules, pr, pos, out->pos.hands[mover])) break;
    }
    /* the dealt hands and draw logs behind the sample */
    uint8_t dealt[RK_MAX_PLAYERS][RK_NUM_CARDS];
    int knock_hidden = pos->knock_card >= 0 && known.knock_card < 0;
    if (knock_hidden && w.knock_time < 0) return RK_ERR_ARG;
    out->knock_time = knock_hidden ? w.knock_time : -1;
    for (int q = 0; q < n; q++) {
        if (q == player) {
            int first = ((q - pos->dealer - 1) % n + n) % n;
            for (int i = 0; i < size; i++) dealt[q][i] = deck[first + i * n];
            if (n_own_drawn > log->n) return RK_ERR_ARG;
            memcpy(out->drawn[q], own_drawn, (size_t)n_own_drawn);
            out->n_drawn[q] = n_own_drawn;
            continue;
        }
        rk_mask unseen = out->pos.hands[q] & ~pos->known[q];
        int kc = q == w.knocker && out->knock_time >= 0 ? out->pos.knock_card : -1;
        st = rebuild_seat(pr, log, &w, q, kc, unseen, rng, scratch, RK_NUM_CARDS + (int)steps, dealt[q], out->drawn[q],
                          &out->n_drawn[q]);
        if (st != RK_OK) return st;
    }
    /* the deck: the deal, the upcard, the draws from the first stock in order, then (no restock) the stock */
    int k = 0, next[RK_MAX_PLAYERS] = {0};
    rk_mask in_deck = 0;
    for (int i = 0; i < size * n; i++) out->deck[k++] = dealt[(pos->dealer + 1 + i) % n][i / n];
    out->deck[k++] = (uint8_t)pos->upcard;
    for (int i = 0; i < log->n; i++) {
        rk_knock_step s;
        rk_knock_step_decode(log->steps[i], &s);
        if (!s.drew) continue;
        if (next[s.seat] >= out->n_drawn[s.seat]) return RK_ERR_ARG;
        uint8_t c = out->drawn[s.seat][next[s.seat]++];
        if (w.step_group[i] != 0) continue;
        if (k >= RK_NUM_CARDS) return RK_ERR_ARG;
        out->deck[k++] = c;
    }
    if (w.groups == 1)
        for (int i = out->pos.n_stock - 1; i >= 0; i--) {
            if (k >= RK_NUM_CARDS) return RK_ERR_ARG;
            out->deck[k++] = out->pos.stock[i];
        }
    for (int i = 0; i < k; i++) in_deck |= (rk_mask)1 << out->deck[i];
    if (k != RK_NUM_CARDS || in_deck != ((rk_mask)1 << RK_NUM_CARDS) - 1) return RK_ERR_ARG;
    if (out->knock_time >= 0) {
        rk_knock_step s;
        rk_knock_step_decode(log->steps[out->knock_time], &s);
        s.card = out->pos.knock_card;
        out->knock_step = rk_knock_step_encode(&s);
    }
    return RK_OK;
}
