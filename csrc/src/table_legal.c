/* The legal actions of the table games (rk_table_legal): new melds, the
 * Kaluki opening answers (memoised multi-deck searches), lay-offs, joker
 * releases and discards, as TableState lists them.  See table_internal.h. */
#include <stdlib.h>

#include "table_internal.h"

/* ---- new melds (melds.meld_options) --------------------------------- */

typedef struct option {
    int32_t id;
    int jokers;
    int value;
    uint64_t naturals;
} option;

/* Every meld pattern from the natural types in pres and `jokers` jokers
 * (melds._new_sets + melds._new_runs), in no particular order. */
static int meld_options(const rk_table_rules *r, uint64_t pres, int jokers, option *out) {
    int n = 0;
    unsigned c[4];
    for (int s = 0; s < 4; s++) c[s] = (unsigned)(pres >> (13 * s)) & RK_SUIT_BITS;
    for (int rank = 0; rank < 13; rank++) {
        int avail = (c[0] >> rank & 1) | (c[1] >> rank & 1) << 1 | (c[2] >> rank & 1) << 2 | (c[3] >> rank & 1) << 3;
        if (!avail || rk__suit_count((unsigned)avail) + jokers < 3) continue;
        for (int sub = avail; sub; sub = (sub - 1) & avail) {
            int k = rk__suit_count((unsigned)sub);
            int lo = 3 - k > 0 ? 3 - k : 0, hi = jokers < 4 - k ? jokers : 4 - k;
            uint64_t nat = 0;
            for (int s = 0; s < 4; s++)
                if (sub >> s & 1) nat |= 1ull << (s * 13 + rank);
            for (int j = lo; j <= hi; j++) {
                option *o = &out[n++];
                o->id = rk_table_set_id(rank, sub, j);
                o->jokers = j;
                o->value = r->values[rank] * (k + j);
                o->naturals = nat;
            }
        }
    }
    int starts = r->wrap ? 13 : r->npos - 2;
    for (int suit = 0; suit < 4; suit++) {
        if (!c[suit]) continue;
        for (int start = 0; start < starts; start++) {
            int missing = 0, natural = 0, value = 0;
            unsigned mask = 0;
            uint64_t nat = 0;
            int limit = r->wrap ? 13 : (r->npos - start < 13 ? r->npos - start : 13);
            for (int i = 0; i < limit; i++) {
                int p = r->wrap ? (start + i) % 13 : start + i;
                int t = type_at(r, suit, p);
                if (c[suit] >> (t - suit * 13) & 1) {
                    natural = 1;
                    nat |= 1ull << t;
                } else {
                    if (++missing > jokers) break;
                    mask |= 1u << i;
                }
                value += position_value(r, suit, p);
                if (i >= 2 && natural) {
                    option *o = &out[n++];
                    o->id = rk_table_run_id(suit, start, i + 1, (int)mask);
                    o->jokers = missing;
                    o->value = value;
                    o->naturals = nat;
                }
            }
        }
    }
    return n;
}

/* Whether any meld exists (meld_options' early answer, the common case in
 * Rummy): no rank in three suits and no three ranks in a row (Q K A and
 * K A 2 included) in any suit, without jokers. */
static inline int no_meld_possible(uint64_t pres, int jokers) {
    if (jokers) return 0;
    const uint64_t starts = 0x7FFull | 0x7FFull << 13 | 0x7FFull << 26 | 0x7FFull << 39;
    const uint64_t aces = 1ull | 1ull << 13 | 1ull << 26 | 1ull << 39;
    unsigned c0 = pres & RK_SUIT_BITS, c1 = pres >> 13 & RK_SUIT_BITS, c2 = pres >> 26 & RK_SUIT_BITS,
             c3 = pres >> 39 & RK_SUIT_BITS;
    unsigned ranks = (c0 & c1 & (c2 | c3)) | (c2 & c3 & (c0 | c1));
    return !ranks && !(pres & pres >> 1 & pres >> 2 & starts) && !(pres >> 12 & pres & (pres >> 11 | pres >> 1) & aces);
}

/* ---- Kaluki opening answers (opening.can_open / can_hunt) ----------- */

#define MEMO_BITS 16
typedef struct memo_entry {
    uint64_t one, two;
    uint64_t tag; /* 0: empty; else the rest of the key, and the answer in bit 63 */
} memo_entry;

struct rk_table_memo {
    memo_entry e[1u << MEMO_BITS];
};

rk_table_memo *rk_table_memo_new(void) { return calloc(1, sizeof(rk_table_memo)); }
void rk_table_memo_free(rk_table_memo *memo) { free(memo); }

typedef struct ctx {
    const rk_table_rules *r;
    const rk_table_state *s;
    rk_table_memo *memo;
    rk_multi_rules mr;
    int mr_ready;
    int p;
    int must; /* TableState.must (_can_take tries it out) */
} ctx;

static void multi_ready(ctx *c) {
    if (!c->mr_ready) {
        rk_multi_rules_init(&c->mr, c->r->ace_low_runs ? 1 : 0, c->r->joker_penalty, NULL);
        c->mr_ready = 1;
    }
}

/* _can_open: melds worth need or more (melding include), and with
 * go_out_requires_discard a card kept back; the searches stop at the first
 * collection of melds that is worth enough. */
static int can_open_raw(ctx *c, rk_multi_hand h, int need, int include) {
    rk_multi_hand left;
    multi_ready(c);
    if (!rk__multi_reaches(&c->mr, h, include, need, &left)) return 0;
    if (left.one || left.jokers || !c->r->go_out_requires_discard) return 1;
    /* the melds found use every card: keep one back (rare) */
    for (int t = 0; t <= RK_JOKER; t++) {
        rk_multi_hand rest = h;
        int still;
        if (t == RK_JOKER) {
            if (!h.jokers) continue;
            rest.jokers--;
            still = h.jokers > 1;
        } else {
            uint64_t bit = 1ull << t;
            if (!(h.one & bit)) continue;
            if (h.two & bit)
                rest.two &= ~bit;
            else
                rest.one &= ~bit;
            still = (rest.one & bit) != 0;
        }
        if (t == include && !still) continue;
        if (rk__multi_reaches(&c->mr, rest, include, need, NULL)) return 1;
    }
    return 0;
}

static int can_hunt_raw(ctx *c, rk_multi_hand h, int include) {
    rk_multi_arrangement a;
    multi_ready(c);
    if (rk_multi_best(&c->mr, h, RK_MULTI_PENALTY, include, &a) != RK_OK) return 0;
    int left = rk__popcount(a.left.one) + rk__popcount(a.left.two) + a.left.jokers;
    return left == (c->r->go_out_requires_discard ? 1 : 0);
}

/* kind 0: can_open(hand, need, include); kind 1: can_hunt(hand, include). */
static int opening_answer(ctx *c, hand hd, int kind, int need, int include) {
    rk_multi_hand h;
    h.one = hd.d0 | hd.d1;
    h.two = hd.d0 & hd.d1;
    h.jokers = jokers_of(hd);
    if (need < 1) need = 1;
    if (kind) need = 0;
    /* the key holds the rules the answer depends on, so a memo shared by two rules records stays right */
    uint64_t tag = 1ull | (uint64_t)h.jokers << 1 | (uint64_t)(include + 1) << 4 | (uint64_t)kind << 10 |
                   (uint64_t)(c->r->ace_low_runs != 0) << 11 | (uint64_t)(c->r->go_out_requires_discard != 0) << 12 |
                   (uint64_t)(c->r->joker_penalty & 255) << 13 | (uint64_t)(need & 0xFFFF) << 21;
    memo_entry *e = NULL;
    if (c->memo && need <= 0xFFFF) { /* a larger need (a hand-edited open_value) is not memoised */
        uint64_t x = h.one * 0x9E3779B97F4A7C15ull ^ h.two * 0xC2B2AE3D27D4EB4Full ^ tag * 0x165667B19E3779F9ull;
        x ^= x >> 29;
        e = &c->memo->e[(x * 0xBF58476D1CE4E5B9ull) >> (64 - MEMO_BITS)];
        if ((e->tag & ~(1ull << 63)) == tag && e->one == h.one && e->two == h.two) return (int)(e->tag >> 63);
    }
    int ans = kind ? can_hunt_raw(c, h, include) : can_open_raw(c, h, need, include);
    if (e) {
        e->one = h.one;
        e->two = h.two;
        e->tag = tag | (uint64_t)ans << 63;
    }
    return ans;
}

static inline int can_open(ctx *c, hand h, int need, int include) { return opening_answer(c, h, 0, need, include); }
static inline int can_hunt(ctx *c, hand h, int include) { return opening_answer(c, h, 1, 0, include); }

/* ---- legal actions ---------------------------------------------------- */

typedef struct out_list {
    int32_t *ids; /* room for MAX_LEGAL ids, or NULL to count them only */
    int n;
} out_list;

static inline void emit(out_list *o, int32_t id) {
    if (o->ids && o->n < MAX_LEGAL) o->ids[o->n] = id;
    o->n++;
}

static inline int may_go_out(const ctx *c) {
    return !(c->r->no_go_out_first_turn && c->s->turns < rk__table_present(c->s));
}

/* _ok_after: can a player left with h (pending jokers still to place) still end the turn? */
static int ok_after(const ctx *c, hand h, int pending) {
    const rk_table_rules *r = c->r;
    int count = hand_count(h) - pending;
    if (count == 0) return !r->go_out_requires_discard && may_go_out(c);
    if (count == 1 && !may_go_out(c)) return 0;
    if (free_naturals(h)) return 1;
    /* no natural card to discard: a joker may go even without joker_discard_allowed */
    return free_jokers(h) > pending;
}

/* A lay-off step of _build_steps: its id, the card type laid and its value. */
typedef struct step {
    int32_t id;
    int8_t type;
    int16_t value;
} step;

#define MAX_STEPS (RK_TABLE_MAX_SLOTS * 10)

static inline int built_on(const rk_table_state *s, int slot) { return slot < s->n_ends ? s->ends[slot] : 0; }

/* _build_steps: the lay-offs of the cards of h (the table's natural steps
 * for types held, all joker steps when a joker is held). */
static int build_steps(const ctx *c, hand h, step *out) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    uint64_t pres = present(h);
    int jok = h.jm != 0, n = 0;
    int limit = r->kaluki ? r->max_build_per_run_end : -1;
    for (int slot = 0; slot < s->n_table; slot++) {
        const rk_table_meld *m = &s->table[slot];
        int size = m->n_cards;
        if (meld_is_set(m)) {
            if (size >= 4) continue;
            int suits = natural_suits(m);
            for (int su = 0; su < 4; su++) {
                int t = su * 13 + m->key;
                if (!(suits >> su & 1) && (pres >> t & 1))
                    out[n++] = (step){rk_table_layoff_id(slot, t, 0), (int8_t)t, r->values[t]};
            }
            if (jok) out[n++] = (step){rk_table_layoff_id(slot, RK_JOKER, 0), RK_JOKER, r->values[m->key]};
            continue;
        }
        if (size >= 13) continue;
        int built = built_on(s, slot);
        for (int end = 0; end < 2; end++) {
            if (limit >= 0 && (built >> (4 * end) & 15) >= limit) continue;
            int pos;
            if (r->wrap) {
                pos = end == 0 ? (m->start + 12) % 13 : (m->start + size) % 13;
            } else {
                pos = end == 0 ? m->start - 1 : m->start + size;
                if (pos < 0 || pos >= r->npos) continue;
            }
            int t = type_at(r, m->key, pos);
            int16_t value = (int16_t)position_value(r, m->key, pos);
            if (pres >> t & 1) out[n++] = (step){rk_table_layoff_id(slot, t, end), (int8_t)t, value};
            if (jok) out[n++] = (step){rk_table_layoff_id(slot, RK_JOKER, end), RK_JOKER, value};
        }
    }
    return n;
}

/* A joker release of _release_steps. */
typedef struct release {
    int32_t id;
    hand after;
    int k; /* jokers released */
} release;

#define MAX_RELEASES (RK_TABLE_MAX_SLOTS * 14)

static int release_steps(const ctx *c, hand h, release *out) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    uint64_t pres = present(h);
    int n = 0;
    /* run jokers first, then sets (the Python order; the output is sorted anyway) */
    for (int slot = 0; slot < s->n_table; slot++) {
        const rk_table_meld *m = &s->table[slot];
        if (meld_is_set(m)) continue;
        for (int i = 0; i < m->n_cards; i++) {
            if (m->cards[i] < RK_TABLE_FIRST_JOKER) continue;
            int t = represents(r, m, i);
            if (pres >> t & 1) out[n++] = (release){RK_TABLE_RELEASE_RUN + slot * 52 + t, without_type(h, t, 0), 1};
        }
    }
    for (int slot = 0; slot < s->n_table; slot++) {
        const rk_table_meld *m = &s->table[slot];
        if (!meld_is_set(m) || m->n_cards != 3) continue;
        int jokers = meld_jokers(m);
        if (!jokers) continue;
        int missing = 15 & ~natural_suits(m), avail = 0;
        for (int su = 0; su < 4; su++)
            if (missing >> su & 1 && pres >> (su * 13 + m->key) & 1) avail |= 1 << su;
        if (!avail) continue;
        int opts[16], n_opts = 0;
        if (jokers == 1) {
            if (avail == missing) opts[n_opts++] = missing;
        } else {
            int one = r->two_joker_release_one_natural;
            for (int sub = avail; sub; sub = (sub - 1) & avail)
                if ((rk__suit_count((unsigned)sub) == 1) == one) opts[n_opts++] = sub;
        }
        for (int i = 0; i < n_opts; i++) {
            uint64_t types = 0;
            for (int su = 0; su < 4; su++)
                if (opts[i] >> su & 1) types |= 1ull << (su * 13 + m->key);
            int k = rk__suit_count((unsigned)opts[i]);
            out[n++] = (release){RK_TABLE_RELEASE_SET + slot * 16 + opts[i], without_types(h, types), k > 1 ? k - 1 : 1};
        }
    }
    return n;
}

/* _joker_room: how many jokers the table could take as builds after this release. */
static int joker_room(const ctx *c, int32_t release_id) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    int limit = r->max_build_per_run_end, room = 0;
    for (int slot = 0; slot < s->n_table; slot++) {
        const rk_table_meld *m = &s->table[slot];
        int size = m->n_cards;
        if (meld_is_set(m)) {
            if (release_id >= RK_TABLE_RELEASE_SET && release_id < RK_TABLE_MELD_SET &&
                (release_id - RK_TABLE_RELEASE_SET) / 16 == slot)
                size = (!r->two_joker_release_one_natural || meld_jokers(m) == 1) ? 4 : 3;
            room += size < 4;
            continue;
        }
        int built = built_on(s, slot);
        int low = r->wrap ? 13 : m->start;
        int high = r->wrap ? 13 : r->npos - m->start - size;
        if (limit >= 0) {
            if (limit - (built & 15) < low) low = limit - (built & 15);
            if (limit - (built >> 4 & 15) < high) high = limit - (built >> 4 & 15);
        }
        int x = low + high < 13 - size ? low + high : 13 - size;
        room += x > 0 ? x : 0;
    }
    return room;
}

static int can_place(const ctx *c, int32_t release_id, hand after, int k) {
    int room = joker_room(c, release_id);
    if (room >= k) return 1;
    option opts[MAX_OPTIONS];
    int n = meld_options(c->r, present(after), k, opts);
    for (int i = 0; i < n; i++) {
        int used = opts[i].jokers;
        if (used && k - used <= room && ok_after(c, without_types(after, opts[i].naturals), 0)) return 1;
    }
    return 0;
}


static void opening_plays(ctx *c, hand h, out_list *o);

/* _release_opens: whether an unopened player's release of one joker leads on to the opening: the
 * hand with the joker can open, and the joker then has an opening step (the multi-deck search may
 * let it stand for a type the hand also holds, where no meld step puts a joker). */
static int release_opens(ctx *c, int32_t release_id, int need) {
    rk_table_state after = *c->s;
    if (rk__table_do_release(c->r, &after, c->p, release_id) != RK_OK) return 0;
    hand h = mover_hand(c->r, &after);
    if (!can_open(c, h, need, RK_JOKER)) return 0;
    ctx next = *c;
    next.s = &after;
    out_list count = {NULL, 0};
    opening_plays(&next, h, &count);
    return count.n > 0;
}

/* _opening_plays: Kaluki, not yet opened: meld steps toward the opening. */
static void opening_plays(ctx *c, hand h, out_list *o) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    int need = r->initial_meld_min - s->open_value;
    int pending = s->pending;
    int required = pending ? RK_JOKER : c->must;
    option opts[MAX_OPTIONS];
    int n = meld_options(r, present(h), jokers_of(h), opts);
    step steps[MAX_STEPS];
    int n_steps = r->building_counts_toward_opening ? build_steps(c, h, steps) : 0;
    for (int i = 0; i < n + n_steps; i++) {
        int32_t id;
        uint64_t naturals;
        int jokers, value;
        hand after;
        if (i < n) {
            id = opts[i].id;
            naturals = opts[i].naturals;
            jokers = opts[i].jokers;
            value = opts[i].value;
            after = without_option(h, naturals, jokers, pending);
        } else {
            const step *st = &steps[i - n];
            id = st->id;
            naturals = st->type == RK_JOKER ? 0 : 1ull << st->type;
            jokers = st->type == RK_JOKER;
            value = st->value;
            after = without_type(h, st->type, pending > 0);
        }
        if (pending && !jokers) continue; /* a released joker is placed first */
        int include = uses(naturals, jokers, required) ? -1 : required;
        int left = need - value;
        if (left <= 0 && include < 0) {
            if (ok_after(c, after, 0)) emit(o, id);
        } else if ((!hand_empty(after) || (include < 0 && ok_after(c, after, 0))) && /* empty: a hunt going out */
                   (can_open(c, after, left, include) || (!r->hunt_requires_opening_min && can_hunt(c, after, include)))) {
            emit(o, id);
        }
    }
    if (r->unopened_may_release_joker && !pending && c->must < 0) {
        release rel[MAX_RELEASES];
        int nr = release_steps(c, h, rel);
        for (int i = 0; i < nr; i++)
            if (rel[i].k == 1 && release_opens(c, rel[i].id, need)) emit(o, rel[i].id);
    }
}

/* _plays: the ids of each legal meld, lay-off and release step. */
static void plays(ctx *c, hand h, out_list *o) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    if (!(s->opened >> c->p & 1)) {
        opening_plays(c, h, o);
        return;
    }
    int must = c->must, pending = s->pending, jokers = jokers_of(h);
    if (r->max_melds_per_turn < 0 || s->turn_melds < r->max_melds_per_turn) {
        uint64_t pres = present(h);
        if (!no_meld_possible(pres, jokers)) {
            option opts[MAX_OPTIONS];
            int n = meld_options(r, pres, jokers, opts);
            for (int i = 0; i < n; i++) {
                const option *op = &opts[i];
                if ((pending && !op->jokers) || (must >= 0 && !uses(op->naturals, op->jokers, must))) continue;
                hand after = without_option(h, op->naturals, op->jokers, pending);
                int left = pending - op->jokers > 0 ? pending - op->jokers : 0;
                /* _ok_after's usual answer without the call: two cards or more left, one of them discardable */
                if ((hand_count(after) - left >= 2 && free_naturals(after)) || ok_after(c, after, left))
                    emit(o, op->id);
            }
        }
    }
    if (s->n_table) {
        step steps[MAX_STEPS];
        int n = build_steps(c, h, steps);
        for (int i = 0; i < n; i++) {
            int t = steps[i].type;
            if ((pending && t != RK_JOKER) || (must >= 0 && t != must)) continue;
            hand after = without_type(h, t, pending > 0);
            int left = pending - (t == RK_JOKER) > 0 ? pending - (t == RK_JOKER) : 0;
            if ((hand_count(after) - left >= 2 && free_naturals(after)) || ok_after(c, after, left))
                emit(o, steps[i].id);
        }
    }
    if (r->kaluki && !pending && must < 0 && s->n_table) {
        release rel[MAX_RELEASES];
        int nr = release_steps(c, h, rel);
        for (int i = 0; i < nr; i++)
            if (ok_after(c, rel[i].after, 0) && can_place(c, rel[i].id, rel[i].after, rel[i].k))
                emit(o, rel[i].id);
    }
}

static int can_take(ctx *c) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    if (!s->n_discards) return 0;
    int card = s->discards[s->n_discards - 1], t = card_type(card);
    rk_table_cards with = s->hands[c->p];
    add_card(&with, card);
    hand h = hand_of(with);
    if (r->forbid_taken_discard) h.tt = t;
    if (unopened_take(r, s, c->p)) {
        if (r->unopened_discard_draw == 1) return 0;
        if (can_open(c, h, r->initial_meld_min, t)) return 1;
        return !r->hunt_requires_opening_min && can_hunt(c, h, t);
    }
    if (r->taken_discard_must_be_melded && !r->kaluki) {
        int32_t ids[MAX_LEGAL];
        out_list o = {ids, 0};
        c->must = t;
        plays(c, h, &o);
        return o.n > 0;
    }
    return ok_after(c, h, 0); /* never a hand of nothing but the taken card */
}

/* _discards: the discard ids (ascending). */
static void discards(const ctx *c, hand h, out_list *o) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    if (s->pending || c->must >= 0) return;
    int count = hand_count(h);
    if (r->kaluki && !(s->opened >> c->p & 1) && s->open_value) {
        /* an opening in progress: only a Hunt's last card may go */
        if (r->hunt_requires_opening_min || count != 1) return;
    }
    if (count == 1 && !may_go_out(c)) return;
    uint64_t pres = free_naturals(h);
    int joker_ok = r->joker_discard_allowed || !pres; /* jokers alone: one may go (no dead end) */
    while (pres) {
        emit(o, rk__ctz(pres));
        pres &= pres - 1;
    }
    if (free_jokers(h) > 0 && joker_ok) emit(o, RK_JOKER);
}

static void sort_ids(int32_t *a, int n) {
    /* shell sort (Ciura gaps): no allocation, fast on the short lists of play */
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
        int gap = gaps[g];
        for (int i = gap; i < n; i++) {
            int32_t x = a[i];
            int j = i;
            for (; j >= gap && a[j - gap] > x; j -= gap) a[j] = a[j - gap];
            a[j] = x;
        }
    }
}

static void ctx_init(ctx *c, const rk_table_rules *r, const rk_table_state *s, rk_table_memo *memo) {
    c->r = r;
    c->s = s;
    c->memo = memo;
    c->mr_ready = 0;
    c->p = s->player;
    c->must = s->must;
}

int rk_table_legal(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo, int32_t *actions,
                   int capacity) {
    if (!rules || !state || capacity < 0 || (capacity > 0 && !actions)) return RK_ERR_ARG;
    ctx c;
    ctx_init(&c, rules, state, memo);
    int32_t ids[MAX_LEGAL];
    out_list o = {ids, 0};
    if (state->phase == RK_TABLE_PHASE_DRAW) {
        emit(&o, RK_TABLE_DRAW);
        if (can_take(&c)) emit(&o, RK_TABLE_TAKE);
    } else if (state->phase == RK_TABLE_PHASE_PLAY) {
        hand h = mover_hand(rules, state);
        discards(&c, h, &o);
        int first = o.n;
        plays(&c, h, &o);
        if (o.n > MAX_LEGAL) return RK_ERR_CAPACITY;
        sort_ids(ids + first, o.n - first);
    }
    int n = o.n < capacity ? o.n : capacity;
    if (n) memcpy(actions, ids, (size_t)n * sizeof *ids);
    return o.n;
}

/* ---- why an action is not legal (rk_table_why) ------------------------- */

/* The naturals, jokers and value of a meld id, 0 if no hand can lay it under r. */
static int meld_pattern(const rk_table_rules *r, int32_t id, uint64_t *naturals, int *jokers, int *value) {
    rk_table_meld m;
    int types[RK_TABLE_MAX_MELD];
    if (!rk__table_pattern(r, id, &m, types, value)) return 0;
    *naturals = 0;
    *jokers = 0;
    for (int i = 0; i < m.n_cards; i++) {
        if (types[i] == RK_JOKER)
            ++*jokers;
        else
            *naturals |= 1ull << types[i];
    }
    return 1;
}

/* The first type of naturals (or RK_JOKER for jokers) that h lacks, -1 if it holds them all. */
static int missing_card(hand h, uint64_t naturals, int jokers) {
    uint64_t lack = naturals & ~present(h);
    if (lack) return rk__ctz(lack);
    return jokers > jokers_of(h) ? RK_JOKER : -1;
}

static int why_take(ctx *c) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    if (!s->n_discards) return RK_TABLE_WHY_PILE_EMPTY;
    if (unopened_take(r, s, c->p))
        return r->unopened_discard_draw == 1 ? RK_TABLE_WHY_TAKE_FORBIDDEN : RK_TABLE_WHY_TAKE_TO_OPEN;
    if (r->taken_discard_must_be_melded && !r->kaluki) return RK_TABLE_WHY_TAKE_MUST_MELD;
    return RK_TABLE_WHY_DEAD_END;
}

static int why_discard(const ctx *c, hand h, int t, int detail[1]) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    if (missing_card(h, t == RK_JOKER ? 0 : 1ull << t, t == RK_JOKER) >= 0) {
        detail[0] = t;
        return RK_TABLE_WHY_NOT_IN_HAND;
    }
    uint64_t free = free_naturals(h);
    if (t == RK_JOKER ? free_jokers(h) == 0 : !(free >> t & 1)) return RK_TABLE_WHY_TAKEN_CARD;
    if (t == RK_JOKER && !r->joker_discard_allowed && free) return RK_TABLE_WHY_JOKER_DISCARD;
    int count = hand_count(h);
    if (r->kaluki && !(s->opened >> c->p & 1) && s->open_value && (r->hunt_requires_opening_min || count != 1)) {
        detail[0] = s->open_value;
        return RK_TABLE_WHY_OPENING_UNFINISHED;
    }
    if (count == 1 && !may_go_out(c)) return RK_TABLE_WHY_FIRST_TURN_OUT;
    return RK_TABLE_WHY_DEAD_END; /* not reached: discards() lists every other discard */
}

static int why_meld(const ctx *c, hand h, int32_t id, int opened, int detail[1]) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    uint64_t naturals;
    int jokers, value;
    if (!meld_pattern(r, id, &naturals, &jokers, &value)) return RK_TABLE_WHY_NOT_A_MELD;
    if (s->pending && !jokers) return RK_TABLE_WHY_PLACE_JOKER;
    if (opened && c->must >= 0 && !uses(naturals, jokers, c->must)) {
        detail[0] = c->must;
        return r->kaluki ? RK_TABLE_WHY_OPEN_WITH_TAKEN : RK_TABLE_WHY_MELD_TAKEN;
    }
    int lack = missing_card(h, naturals, jokers);
    if (lack >= 0) {
        detail[0] = lack;
        return RK_TABLE_WHY_NOT_IN_HAND;
    }
    if (!opened) {
        detail[0] = s->open_value + value;
        return RK_TABLE_WHY_OPENING_SHORT;
    }
    if (r->max_melds_per_turn >= 0 && s->turn_melds >= r->max_melds_per_turn) return RK_TABLE_WHY_MELD_LIMIT;
    return RK_TABLE_WHY_DEAD_END;
}

static int why_layoff(const ctx *c, hand h, int32_t id, int opened, int detail[1]) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    int x = id - RK_TABLE_LAYOFF, end = x % 2, t = x / 2 % 53, slot = x / 2 / 53;
    if (slot >= s->n_table) {
        detail[0] = s->n_table;
        return RK_TABLE_WHY_NO_SLOT;
    }
    if (s->pending && t != RK_JOKER) return RK_TABLE_WHY_PLACE_JOKER;
    if (opened && c->must >= 0 && t != c->must) {
        detail[0] = c->must;
        return r->kaluki ? RK_TABLE_WHY_OPEN_WITH_TAKEN : RK_TABLE_WHY_MELD_TAKEN;
    }
    if (missing_card(h, t == RK_JOKER ? 0 : 1ull << t, t == RK_JOKER) >= 0) {
        detail[0] = t;
        return RK_TABLE_WHY_NOT_IN_HAND;
    }
    if (!opened && !r->building_counts_toward_opening) return RK_TABLE_WHY_BUILD_BEFORE_OPENING;
    const rk_table_meld *m = &s->table[slot];
    int size = m->n_cards;
    if (meld_is_set(m)) {
        if (size >= 4) return RK_TABLE_WHY_SET_CLOSED;
        if (end || (t != RK_JOKER && (t % 13 != m->key || natural_suits(m) >> (t / 13) & 1)))
            return RK_TABLE_WHY_DOES_NOT_FIT;
    } else {
        if (size >= 13) return RK_TABLE_WHY_RUN_FULL;
        int limit = r->kaluki ? r->max_build_per_run_end : -1;
        if (limit >= 0 && (built_on(s, slot) >> (4 * end) & 15) >= limit) {
            detail[0] = limit;
            return RK_TABLE_WHY_BUILD_LIMIT;
        }
        int pos;
        if (r->wrap) {
            pos = end == 0 ? (m->start + 12) % 13 : (m->start + size) % 13;
        } else {
            pos = end == 0 ? m->start - 1 : m->start + size;
            if (pos < 0 || pos >= r->npos) return RK_TABLE_WHY_DOES_NOT_FIT;
        }
        if (t != RK_JOKER && t != type_at(r, m->key, pos)) return RK_TABLE_WHY_DOES_NOT_FIT;
    }
    if (!opened) {
        detail[0] = s->open_value;
        return RK_TABLE_WHY_OPENING_SHORT;
    }
    return RK_TABLE_WHY_DEAD_END;
}

static int why_release(ctx *c, hand h, int32_t id, int opened, int detail[1]) {
    const rk_table_rules *r = c->r;
    const rk_table_state *s = c->s;
    int run = id < RK_TABLE_RELEASE_SET;
    int x = run ? id - RK_TABLE_RELEASE_RUN : id - RK_TABLE_RELEASE_SET;
    int slot = run ? x / 52 : x / 16, arg = run ? x % 52 : x % 16;
    if (slot >= s->n_table) {
        detail[0] = s->n_table;
        return RK_TABLE_WHY_NO_SLOT;
    }
    if (s->pending) return RK_TABLE_WHY_PLACE_JOKER;
    if (c->must >= 0) {
        detail[0] = c->must;
        return r->kaluki ? RK_TABLE_WHY_OPEN_WITH_TAKEN : RK_TABLE_WHY_MELD_TAKEN;
    }
    const rk_table_meld *m = &s->table[slot];
    hand after;
    if (run) {
        int stands = 0;
        for (int i = 0; i < m->n_cards && !meld_is_set(m); i++)
            stands |= m->cards[i] >= RK_TABLE_FIRST_JOKER && represents(r, m, i) == arg;
        if (!stands) return RK_TABLE_WHY_NO_JOKER_FOR;
        if (!(present(h) >> arg & 1)) {
            detail[0] = arg;
            return RK_TABLE_WHY_NOT_IN_HAND;
        }
        after = without_type(h, arg, 0);
    } else {
        int jokers = meld_jokers(m), missing = 15 & ~natural_suits(m);
        if (!meld_is_set(m) || m->n_cards != 3 || !jokers) return RK_TABLE_WHY_RELEASE_SHAPE;
        if (!arg || arg & ~missing) return RK_TABLE_WHY_RELEASE_NATURALS;
        uint64_t types = 0;
        for (int su = 0; su < 4; su++)
            if (arg >> su & 1) types |= 1ull << (su * 13 + m->key);
        int lack = missing_card(h, types, 0);
        if (lack >= 0) {
            detail[0] = lack;
            return RK_TABLE_WHY_NOT_IN_HAND;
        }
        if (jokers == 1 ? arg != missing : (rk__suit_count((unsigned)arg) == 1) != r->two_joker_release_one_natural)
            return RK_TABLE_WHY_RELEASE_NATURALS;
        after = without_types(h, types);
    }
    if (!opened)
        return r->unopened_may_release_joker ? RK_TABLE_WHY_RELEASE_OPENING : RK_TABLE_WHY_RELEASE_BEFORE_OPENING;
    if (!ok_after(c, after, 0)) return RK_TABLE_WHY_DEAD_END;
    return RK_TABLE_WHY_RELEASE_UNPLACEABLE;
}

int rk_table_why(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo, int seat,
                 int32_t action, int detail[1]) {
    if (!rules || !state || !detail) return RK_ERR_ARG;
    detail[0] = 0;
    if (!rk_table_is_action_id(action)) return RK_TABLE_WHY_NOT_ACTION;
    if (state->phase == RK_TABLE_PHASE_END) return RK_TABLE_WHY_HAND_OVER;
    if (seat >= 0 && seat != state->player) return RK_TABLE_WHY_OUT_OF_TURN;
    int32_t ids[MAX_LEGAL];
    int n = rk_table_legal(rules, state, memo, ids, MAX_LEGAL);
    if (n < 0) return n;
    for (int i = 0; i < n && i < MAX_LEGAL; i++)
        if (ids[i] == action) return RK_TABLE_LEGAL;
    ctx c;
    ctx_init(&c, rules, state, memo);
    if (state->phase == RK_TABLE_PHASE_DRAW) return action == RK_TABLE_TAKE ? why_take(&c) : RK_TABLE_WHY_DRAW_FIRST;
    if (action == RK_TABLE_DRAW || action == RK_TABLE_TAKE) return RK_TABLE_WHY_ALREADY_DRAWN;
    hand h = mover_hand(rules, state);
    int opened = !rules->kaluki || (state->opened >> c.p & 1);
    if (action <= RK_JOKER) {
        if (state->pending) return RK_TABLE_WHY_PLACE_JOKER;
        if (c.must >= 0) {
            detail[0] = c.must;
            return rules->kaluki ? RK_TABLE_WHY_OPEN_WITH_TAKEN : RK_TABLE_WHY_MELD_TAKEN;
        }
        return why_discard(&c, h, action, detail);
    }
    if (action >= RK_TABLE_MELD_SET) return why_meld(&c, h, action, opened, detail);
    if (action < RK_TABLE_RELEASE_RUN) return why_layoff(&c, h, action, opened, detail);
    return why_release(&c, h, action, opened, detail);
}

static const char *const reason_names[RK_TABLE_NUM_REASONS] = {
    [RK_TABLE_LEGAL] = "legal",
    [RK_TABLE_WHY_NOT_ACTION] = "not_action",
    [RK_TABLE_WHY_OUT_OF_TURN] = "out_of_turn",
    [RK_TABLE_WHY_HAND_OVER] = "hand_over",
    [RK_TABLE_WHY_DRAW_FIRST] = "draw_first",
    [RK_TABLE_WHY_PILE_EMPTY] = "pile_empty",
    [RK_TABLE_WHY_TAKE_FORBIDDEN] = "take_forbidden",
    [RK_TABLE_WHY_TAKE_TO_OPEN] = "take_to_open",
    [RK_TABLE_WHY_TAKE_MUST_MELD] = "take_must_meld",
    [RK_TABLE_WHY_DEAD_END] = "dead_end",
    [RK_TABLE_WHY_ALREADY_DRAWN] = "already_drawn",
    [RK_TABLE_WHY_PLACE_JOKER] = "place_joker",
    [RK_TABLE_WHY_OPEN_WITH_TAKEN] = "open_with_taken",
    [RK_TABLE_WHY_MELD_TAKEN] = "meld_taken",
    [RK_TABLE_WHY_NOT_IN_HAND] = "not_in_hand",
    [RK_TABLE_WHY_TAKEN_CARD] = "taken_card",
    [RK_TABLE_WHY_JOKER_DISCARD] = "joker_discard",
    [RK_TABLE_WHY_OPENING_UNFINISHED] = "opening_unfinished",
    [RK_TABLE_WHY_FIRST_TURN_OUT] = "first_turn_out",
    [RK_TABLE_WHY_NOT_A_MELD] = "not_a_meld",
    [RK_TABLE_WHY_OPENING_SHORT] = "opening_short",
    [RK_TABLE_WHY_MELD_LIMIT] = "meld_limit",
    [RK_TABLE_WHY_NO_SLOT] = "no_slot",
    [RK_TABLE_WHY_BUILD_BEFORE_OPENING] = "build_before_opening",
    [RK_TABLE_WHY_RELEASE_BEFORE_OPENING] = "release_before_opening",
    [RK_TABLE_WHY_SET_CLOSED] = "set_closed",
    [RK_TABLE_WHY_RUN_FULL] = "run_full",
    [RK_TABLE_WHY_BUILD_LIMIT] = "build_limit",
    [RK_TABLE_WHY_DOES_NOT_FIT] = "does_not_fit",
    [RK_TABLE_WHY_NO_JOKER_FOR] = "no_joker_for",
    [RK_TABLE_WHY_RELEASE_SHAPE] = "release_shape",
    [RK_TABLE_WHY_RELEASE_NATURALS] = "release_naturals",
    [RK_TABLE_WHY_RELEASE_OPENING] = "release_opening",
    [RK_TABLE_WHY_RELEASE_UNPLACEABLE] = "release_unplaceable",
};

const char *rk_table_reason_name(int code) {
    return code >= 0 && code < RK_TABLE_NUM_REASONS ? reason_names[code] : NULL;
}
