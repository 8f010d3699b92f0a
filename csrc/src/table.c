/* The table-game state machine (Rummy, Kaluki): rummykit/table.h.
 *
 * A port of the plain Python engine (tests/reference_table.py, formerly
 * rummykit.table.state): the function names below are its method names,
 * and each one computes what the Python one does, in the same steps where
 * the steps decide the answer.  Hands are split into three parts while the
 * search works on them: d0 (types held as the deck-0 copy), d1 (types held
 * as the deck-1 copy) and a 4-bit joker mask, so that "the lowest physical
 * copy" is a bit test. */
#include "rummykit/table.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TYPE_MASK ((1ull << 52) - 1)
#define MAX_OPTIONS 1056 /* new melds of one hand: at most 13 * 29 sets + 4 * 169 runs */
#define MAX_LEGAL 4096
/* The most released jokers pending that rk_table_check accepts (a hand-edited state may exceed
 * the 4 jokers of the deck; a release that would go past it is refused). */
#define MAX_PENDING 64

/* ---- hands ---------------------------------------------------------- */

typedef struct hand {
    uint64_t d0, d1; /* 52-bit type masks of the deck-0 and deck-1 copies held */
    unsigned jm;     /* jokers held: bit j = physical card 104 + j */
    int tt;          /* the type of the card taken this turn while it is held and may not be discarded, else -1 */
} hand;

static inline hand hand_of(rk_table_cards c) {
    hand h;
    h.d0 = c.w[0] & TYPE_MASK;
    h.d1 = ((c.w[0] >> 52) | (c.w[1] << 12)) & TYPE_MASK;
    h.jm = (unsigned)(c.w[1] >> 40) & 15u;
    h.tt = -1;
    return h;
}

static inline rk_table_cards cards_of(hand h) {
    rk_table_cards c;
    c.w[0] = h.d0 | (h.d1 << 52);
    c.w[1] = (h.d1 >> 12) | ((uint64_t)h.jm << 40);
    return c;
}

static inline uint64_t present(hand h) { return h.d0 | h.d1; }
static inline int jokers_of(hand h) { return rk__suit_count(h.jm); }
static inline int hand_count(hand h) { return rk__popcount(h.d0) + rk__popcount(h.d1) + rk__suit_count(h.jm); }
static inline int hand_empty(hand h) { return !(h.d0 | h.d1 | h.jm); }

/* physical_copy: the lowest copy of type t held (-1 if none). */
static inline int phys_copy(hand h, int t) {
    if (t == RK_JOKER) return h.jm ? RK_TABLE_FIRST_JOKER + rk__ctz(h.jm) : -1;
    if (h.d0 >> t & 1) return t;
    return (h.d1 >> t & 1) ? t + 52 : -1;
}

/* The hand after a card of type t (held) goes on the table.  The copies
 * differ only in tt: the taken card goes first (rummykit/table.h), unless
 * it is a joker standing in for a released one (released). */
static inline hand without_type(hand h, int t, int released) {
    if (t == RK_JOKER)
        h.jm &= h.jm - 1;
    else if (h.d0 >> t & 1)
        h.d0 &= ~(1ull << t);
    else
        h.d1 &= ~(1ull << t);
    if (t == h.tt && !(t == RK_JOKER && released)) h.tt = -1;
    return h;
}

/* _table_cards for naturals: the hand after one card of each type in types goes on the table. */
static inline hand without_types(hand h, uint64_t types) {
    h.d1 &= ~(types & ~h.d0);
    h.d0 &= ~types;
    if (h.tt >= 0 && h.tt < RK_JOKER && types >> h.tt & 1) h.tt = -1;
    return h;
}

/* _table_cards: naturals and `jokers` jokers, the first `pending` of them for released ones. */
static inline hand without_option(hand h, uint64_t types, int jokers, int pending) {
    h = without_types(h, types);
    for (int i = 0; i < jokers; i++) h.jm &= h.jm - 1;
    if (h.tt == RK_JOKER && jokers > pending) h.tt = -1;
    return h;
}

/* The naturals of h that may be discarded: all but a taken card held in one copy. */
static inline uint64_t free_naturals(hand h) {
    uint64_t pres = present(h);
    if (h.tt >= 0 && h.tt < RK_JOKER && !((h.d0 & h.d1) >> h.tt & 1)) pres &= ~(1ull << h.tt);
    return pres;
}

/* The jokers of h that may be discarded, released ones included: all but a taken one. */
static inline int free_jokers(hand h) { return jokers_of(h) - (h.tt == RK_JOKER); }

static inline int card_type(int c) { return c >= RK_TABLE_FIRST_JOKER ? RK_JOKER : c % 52; }

static inline int has_card(rk_table_cards c, int card) { return (int)(c.w[card >> 6] >> (card & 63) & 1); }
static inline void add_card(rk_table_cards *c, int card) { c->w[card >> 6] |= 1ull << (card & 63); }

/* The hand without physical card `card` (held). */
static inline hand without_card(hand h, int card) {
    if (card >= RK_TABLE_FIRST_JOKER)
        h.jm &= ~(1u << (card - RK_TABLE_FIRST_JOKER));
    else if (card < 52)
        h.d0 &= ~(1ull << card);
    else
        h.d1 &= ~(1ull << (card - 52));
    return h;
}

/* The mover's hand, tt set while the card taken this turn is held and may not be discarded. */
static hand mover_hand(const rk_table_rules *r, const rk_table_state *s) {
    rk_table_cards cards = s->hands[s->player];
    hand h = hand_of(cards);
    if (r->forbid_taken_discard && s->taken_card >= 0 && has_card(cards, s->taken_card))
        h.tt = card_type(s->taken_card);
    return h;
}

/* ---- geometry ------------------------------------------------------- */

static inline int rank_at(const rk_table_rules *r, int p) { return (p + r->shift) % 13; }
static inline int type_at(const rk_table_rules *r, int suit, int p) { return suit * 13 + rank_at(r, p); }
static inline int position_value(const rk_table_rules *r, int suit, int p) {
    if (r->low_ace_one && p == 0) return 1;
    return r->values[type_at(r, suit, p)];
}
static inline int meld_is_set(const rk_table_meld *m) { return m->kind == RK_MELD_SET; }

static int natural_suits(const rk_table_meld *m) {
    int s = 0;
    for (int i = 0; i < m->n_cards; i++)
        if (m->cards[i] < RK_TABLE_FIRST_JOKER) s |= 1 << (m->cards[i] % 52 / 13);
    return s;
}

static int meld_jokers(const rk_table_meld *m) {
    int n = 0;
    for (int i = 0; i < m->n_cards; i++) n += m->cards[i] >= RK_TABLE_FIRST_JOKER;
    return n;
}

/* TableMeld.represents for card i (sets: jokers stand for the missing suits in order). */
static int represents(const rk_table_rules *r, const rk_table_meld *m, int i) {
    if (!meld_is_set(m)) return type_at(r, m->key, r->wrap ? (m->start + i) % 13 : m->start + i);
    if (m->cards[i] < RK_TABLE_FIRST_JOKER) return card_type(m->cards[i]);
    int k = 0; /* this joker is the k-th joker of the meld */
    for (int j = 0; j < i; j++) k += m->cards[j] >= RK_TABLE_FIRST_JOKER;
    int missing = 15 & ~natural_suits(m);
    for (int s = 0; s < 4; s++)
        if (missing >> s & 1 && k-- == 0) return s * 13 + m->key;
    return -1; /* more jokers than missing suits: not a valid set */
}

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
                o->id = RK_TABLE_MELD_SET + rank * 64 + sub * 4 + j;
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
                    o->id = RK_TABLE_MELD_RUN + ((suit * 14 + start) * 14 + i + 1) * 8192 + (int32_t)mask;
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

/* _best_value: 0 if include cannot be melded, else 1 with *value and *left. */
static int best_value(ctx *c, rk_multi_hand h, int include, int *value, int *left) {
    rk_multi_arrangement a;
    multi_ready(c);
    if (rk_multi_best(&c->mr, h, RK_MULTI_VALUE, include, &a) != RK_OK) return 0;
    *value = a.value;
    *left = a.left.one != 0 || a.left.two != 0 || a.left.jokers != 0;
    return 1;
}

static int can_open_raw(ctx *c, rk_multi_hand h, int need, int include) {
    int value, left;
    if (!best_value(c, h, include, &value, &left) || value < need) return 0;
    if (left || !c->r->go_out_requires_discard) return 1;
    /* the best opening melds every card: keep one back (rare) */
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
        if (best_value(c, rest, include, &value, &left) && value >= need) return 1;
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
    return !(c->r->no_go_out_first_turn && c->s->turns < c->s->n_players);
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

static inline int layoff_id(int slot, int t, int end) { return RK_TABLE_LAYOFF + (slot * 53 + t) * 2 + end; }

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
                    out[n++] = (step){layoff_id(slot, t, 0), (int8_t)t, r->values[t]};
            }
            if (jok) out[n++] = (step){layoff_id(slot, RK_JOKER, 0), RK_JOKER, r->values[m->key]};
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
            if (pres >> t & 1) out[n++] = (step){layoff_id(slot, t, end), (int8_t)t, value};
            if (jok) out[n++] = (step){layoff_id(slot, RK_JOKER, end), RK_JOKER, value};
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

static inline int uses(uint64_t naturals, int jokers, int t) {
    if (t == RK_JOKER) return jokers > 0;
    return t >= 0 && (naturals >> t & 1);
}

static rk_status do_release(const rk_table_rules *r, rk_table_state *s, int p, int32_t id);
static void opening_plays(ctx *c, hand h, out_list *o);

/* _release_opens: whether an unopened player's release of one joker leads on to the opening: the
 * hand with the joker can open, and the joker then has an opening step (the multi-deck search may
 * let it stand for a type the hand also holds, where no meld step puts a joker). */
static int release_opens(ctx *c, int32_t release_id, int need) {
    rk_table_state after = *c->s;
    if (do_release(c->r, &after, c->p, release_id) != RK_OK) return 0;
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
        } else if (!hand_empty(after) &&
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

static int take_needs_opening(const ctx *c) {
    const rk_table_rules *r = c->r;
    return !(r->unopened_discard_draw == 2 || (r->first_turn_upcard_free && c->s->turns == 0));
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
    if (r->kaluki && !(s->opened >> c->p & 1) && take_needs_opening(c)) {
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

/* ---- transitions ------------------------------------------------------ */

static void start_turn(rk_table_state *s) {
    s->taken = -1;
    s->taken_card = -1;
    s->must = -1;
    s->open_value = 0;
    s->turn_melds = 0;
    s->n_ends = 0;
    memset(s->ends, 0, sizeof s->ends);
    s->pending = 0;
    s->fresh = !(s->played >> s->player & 1);
    s->built_other = 0;
}

static void end_hand(rk_table_state *s, int outcome, int winner) {
    s->phase = RK_TABLE_PHASE_END;
    s->outcome = (int8_t)outcome;
    s->winner = (int8_t)winner;
}

/* _set_hand: the known cards follow the hand. */
static void set_hand(rk_table_state *s, int p, hand h) {
    s->hands[p] = cards_of(h);
    s->known[p].w[0] &= s->hands[p].w[0];
    s->known[p].w[1] &= s->hands[p].w[1];
}

static void next_turn(const rk_table_rules *r, rk_table_state *s) {
    if (s->turns < INT32_MAX) s->turns++; /* a hand-edited count saturates */
    if (r->max_turns >= 0 && r->max_turns <= s->turns) {
        end_hand(s, RK_TABLE_DEAD, -1);
        return;
    }
    if (r->restock_method == 2 && !s->n_stock) {
        end_hand(s, RK_TABLE_BLOCKED, -1);
        return;
    }
    s->player = (int8_t)((s->player + 1) % s->n_players);
    s->phase = RK_TABLE_PHASE_DRAW;
    start_turn(s);
}

static void go_out(const rk_table_rules *r, rk_table_state *s, int p) {
    int fresh = s->fresh && (r->hunt_allows_building || !s->built_other || !r->kaluki);
    if (r->kaluki)
        end_hand(s, fresh ? RK_TABLE_HUNT : RK_TABLE_CALL_OFF, p);
    else
        end_hand(s, fresh ? RK_TABLE_RUMMY : RK_TABLE_OUT, p);
}

/* _placed: bookkeeping after cards went on the table (jokers: how many of them). */
static void placed(const rk_table_rules *r, rk_table_state *s, int p, uint64_t naturals, int jokers, int value) {
    s->played |= (uint8_t)(1u << p);
    if (s->must >= 0 && uses(naturals, jokers, s->must)) s->must = -1;
    if (s->pending) s->pending = (int8_t)(s->pending > jokers ? s->pending - jokers : 0);
    if (!(s->opened >> p & 1)) {
        s->open_value = (int16_t)(s->open_value + value);
        if (s->open_value >= r->initial_meld_min && s->must < 0 && !s->pending) s->opened |= (uint8_t)(1u << p);
    }
    if (!s->hands[p].w[0] && !s->hands[p].w[1]) go_out(r, s, p);
}

/* _restock (docs/rules.md, Restocking); 0 if the pile cannot be restocked. */
static int restock(const rk_table_rules *r, rk_table_state *s) {
    if (s->n_discards < 2 || (r->max_restocks >= 0 && s->restocks >= r->max_restocks)) return 0;
    int n = s->n_discards;
    if (r->restock_method == 1) {
        for (int i = 0; i < n; i++) s->stock[i] = s->discards[n - 1 - i];
        s->n_stock = (int16_t)n;
        s->n_discards = 0;
    } else {
        memcpy(s->stock, s->discards, (size_t)(n - 1));
        rk_restock_shuffle(s->shuffle_seed, s->restocks, s->stock, (size_t)(n - 1));
        s->n_stock = (int16_t)(n - 1);
        s->discards[0] = s->discards[n - 1];
        s->n_discards = 1;
    }
    if (s->restocks < INT32_MAX) s->restocks++;
    return 1;
}

/* A meld pattern decoded from its id (actions.id_pattern) as the types it
 * uses in table order; 0 if the id is not a valid pattern. */
static int pattern_types(const rk_table_rules *r, int32_t id, rk_table_meld *m, int *types, int *value) {
    if (id < RK_TABLE_MELD_RUN) {
        int x = id - RK_TABLE_MELD_SET, jokers = x % 4, suits = x / 4 % 16, rank = x / 64;
        int k = rk__suit_count((unsigned)suits);
        if (rank >= 13 || !suits || k + jokers < 3 || k + jokers > 4) return 0;
        int n = 0;
        for (int su = 0; su < 4; su++)
            if (suits >> su & 1) types[n++] = su * 13 + rank;
        for (int j = 0; j < jokers; j++) types[n++] = RK_JOKER;
        m->kind = RK_MELD_SET;
        m->key = (uint8_t)rank;
        m->start = 0;
        m->n_cards = (uint8_t)n;
        *value = r->values[rank] * n;
        return 1;
    }
    int x = id - RK_TABLE_MELD_RUN, mask = x % 8192;
    x /= 8192;
    int length = x % 14, start = x / 14 % 14, suit = x / 196;
    if (suit >= 4 || length < 3 || length > 13 || mask >> length || mask == (1 << length) - 1) return 0;
    if (r->wrap ? start >= 13 : start + length > r->npos) return 0;
    *value = 0;
    for (int i = 0; i < length; i++) {
        int p = r->wrap ? (start + i) % 13 : start + i;
        types[i] = mask >> i & 1 ? RK_JOKER : type_at(r, suit, p);
        *value += position_value(r, suit, p);
    }
    m->kind = RK_MELD_RUN;
    m->key = (uint8_t)suit;
    m->start = (uint8_t)start;
    m->n_cards = (uint8_t)length;
    return 1;
}

static inline int hand_has(hand h, int card) {
    if (card >= RK_TABLE_FIRST_JOKER) return (int)(h.jm >> (card - RK_TABLE_FIRST_JOKER) & 1);
    return (int)((card < 52 ? h.d0 >> card : h.d1 >> (card - 52)) & 1);
}

/* _table_copy: the physical card of type t that goes on the table from the
 * mover's cards h: the card taken this turn while it may not be discarded
 * (the other copy stays free), but for a joker standing in for a released
 * one (released) another joker; else the lowest copy.  -1 if none. */
static int table_copy(const rk_table_rules *r, const rk_table_state *s, hand h, int t, int released) {
    int tc = r->forbid_taken_discard ? s->taken_card : -1;
    if (tc < 0 || card_type(tc) != t || !hand_has(h, tc)) return phys_copy(h, t);
    if (!released) return tc;
    int other = phys_copy(without_card(h, tc), t);
    return other >= 0 ? other : tc;
}

/* _discard_copy: the physical card a discard of type t takes: the lowest copy but the taken card. */
static int discard_copy(const rk_table_rules *r, const rk_table_state *s, hand h, int t) {
    int tc = r->forbid_taken_discard ? s->taken_card : -1;
    return phys_copy(tc >= 0 && hand_has(h, tc) ? without_card(h, tc) : h, t);
}

static rk_status do_meld(const rk_table_rules *r, rk_table_state *s, int p, int32_t id) {
    rk_table_meld m;
    int types[RK_TABLE_MAX_MELD], value;
    memset(&m, 0, sizeof m);
    if (s->n_table >= RK_TABLE_MAX_SLOTS || !pattern_types(r, id, &m, types, &value)) return RK_ERR_ARG;
    hand rest = hand_of(s->hands[p]);
    uint64_t naturals = 0;
    int jokers = 0;
    for (int i = 0; i < m.n_cards; i++) {
        int joker = types[i] == RK_JOKER;
        int c = table_copy(r, s, rest, types[i], joker && jokers < s->pending);
        if (c < 0) return RK_ERR_ARG;
        rest = without_card(rest, c);
        m.cards[i] = (uint8_t)c;
        if (joker)
            jokers++;
        else
            naturals |= 1ull << types[i];
    }
    m.owner = (uint8_t)p;
    set_hand(s, p, rest);
    s->table[s->n_table++] = m;
    s->turn_melds++;
    placed(r, s, p, naturals, jokers, value);
    return RK_OK;
}

static rk_status do_lay_off(const rk_table_rules *r, rk_table_state *s, int p, int slot, int t, int end) {
    if (slot >= s->n_table) return RK_ERR_ARG;
    rk_table_meld *m = &s->table[slot];
    hand h = hand_of(s->hands[p]);
    int card = table_copy(r, s, h, t, t == RK_JOKER && s->pending > 0), size = m->n_cards, value;
    if (card < 0 || size >= RK_TABLE_MAX_MELD) return RK_ERR_ARG;
    if (meld_is_set(m)) {
        if (end || size >= 4 || (t != RK_JOKER && (t % 13 != m->key || natural_suits(m) >> (t / 13) & 1)))
            return RK_ERR_ARG;
        value = r->values[m->key];
        m->cards[size] = (uint8_t)card;
    } else {
        int pos;
        if (r->wrap)
            pos = end == 0 ? (m->start + 12) % 13 : (m->start + size) % 13;
        else
            pos = end == 0 ? m->start - 1 : m->start + size;
        if (size >= 13 || pos < 0 || pos >= r->npos || (t != RK_JOKER && t != type_at(r, m->key, pos)))
            return RK_ERR_ARG;
        value = position_value(r, m->key, pos);
        if (end == 0) {
            memmove(m->cards + 1, m->cards, (size_t)size);
            m->cards[0] = (uint8_t)card;
            m->start = (uint8_t)pos;
        } else {
            m->cards[size] = (uint8_t)card;
        }
        if (s->n_ends < slot + 1) {
            for (int i = s->n_ends; i <= slot; i++) s->ends[i] = 0;
            s->n_ends = (int16_t)(slot + 1);
        }
        s->ends[slot] = (uint8_t)(s->ends[slot] + (1u << 4 * end));
    }
    m->n_cards++;
    set_hand(s, p, without_card(h, card));
    if (m->owner != p) s->built_other = 1;
    placed(r, s, p, t == RK_JOKER ? 0 : 1ull << t, t == RK_JOKER, r->building_counts_toward_opening ? value : 0);
    return RK_OK;
}

static rk_status do_release(const rk_table_rules *r, rk_table_state *s, int p, int32_t id) {
    hand h = hand_of(s->hands[p]);
    rk_table_meld *m;
    if (id < RK_TABLE_RELEASE_SET) {
        int slot = (id - RK_TABLE_RELEASE_RUN) / 52, t = (id - RK_TABLE_RELEASE_RUN) % 52;
        if (slot >= s->n_table || meld_is_set(&s->table[slot])) return RK_ERR_ARG;
        m = &s->table[slot];
        int i = 0;
        while (i < m->n_cards && represents(r, m, i) != t) i++;
        int natural = table_copy(r, s, h, t, 0);
        if (i == m->n_cards || m->cards[i] < RK_TABLE_FIRST_JOKER || natural < 0 || s->pending >= MAX_PENDING)
            return RK_ERR_ARG;
        int joker = m->cards[i];
        m->cards[i] = (uint8_t)natural;
        h = without_card(h, natural);
        h.jm |= 1u << (joker - RK_TABLE_FIRST_JOKER);
        set_hand(s, p, h);
        s->pending++;
    } else {
        int slot = (id - RK_TABLE_RELEASE_SET) / 16, suits = (id - RK_TABLE_RELEASE_SET) % 16;
        if (slot >= s->n_table || !meld_is_set(&s->table[slot]) || !suits) return RK_ERR_ARG;
        m = &s->table[slot];
        int k = rk__suit_count((unsigned)suits), take = k > 1 ? k - 1 : 1;
        if (suits & natural_suits(m) || meld_jokers(m) < take || m->n_cards - take + k > 4 ||
            s->pending + take > MAX_PENDING)
            return RK_ERR_ARG;
        for (int su = 0; su < 4; su++)
            if (suits >> su & 1 && phys_copy(h, su * 13 + m->key) < 0) return RK_ERR_ARG;
        uint8_t cards[RK_TABLE_MAX_MELD];
        int n = 0, taken = 0;
        for (int i = 0; i < m->n_cards; i++) {
            int c = m->cards[i];
            if (c >= RK_TABLE_FIRST_JOKER && taken < take) {
                h.jm |= 1u << (c - RK_TABLE_FIRST_JOKER);
                taken++;
            } else {
                cards[n++] = (uint8_t)c;
            }
        }
        for (int su = 0; su < 4; su++) {
            if (!(suits >> su & 1)) continue;
            int c = table_copy(r, s, h, su * 13 + m->key, 0);
            cards[n++] = (uint8_t)c;
            h = without_card(h, c);
        }
        memcpy(m->cards, cards, (size_t)n);
        m->n_cards = (uint8_t)n;
        set_hand(s, p, h);
        s->pending = (int8_t)(s->pending + take);
    }
    s->played |= (uint8_t)(1u << p);
    if (m->owner != p) s->built_other = 1;
    return RK_OK;
}

rk_status rk_table_apply(const rk_table_rules *rules, rk_table_state *state, rk_table_memo *memo, int32_t action) {
    (void)memo; /* the transitions ask no opening questions */
    if (!rules || !state || action < 0) return RK_ERR_ARG;
    rk_table_state *s = state;
    int p = s->player;
    if (s->phase == RK_TABLE_PHASE_DRAW) {
        if (action == RK_TABLE_DRAW) {
            if (!s->n_stock && !restock(rules, s)) {
                end_hand(s, RK_TABLE_DEAD, -1);
                return RK_OK;
            }
            add_card(&s->hands[p], s->stock[--s->n_stock]);
            s->phase = RK_TABLE_PHASE_PLAY;
            return RK_OK;
        }
        if (action != RK_TABLE_TAKE || !s->n_discards) return RK_ERR_ARG;
        int card = s->discards[--s->n_discards], t = card_type(card);
        add_card(&s->hands[p], card);
        add_card(&s->known[p], card);
        s->taken = (int8_t)t;
        s->taken_card = (int8_t)card;
        if (rules->kaluki) {
            ctx c;
            ctx_init(&c, rules, s, NULL);
            if (!(s->opened >> p & 1) && take_needs_opening(&c)) s->must = (int8_t)t;
        } else if (rules->taken_discard_must_be_melded) {
            s->must = (int8_t)t;
        }
        s->phase = RK_TABLE_PHASE_PLAY;
        return RK_OK;
    }
    if (s->phase != RK_TABLE_PHASE_PLAY) return RK_ERR_ARG;
    if (action <= RK_JOKER) {
        hand h = hand_of(s->hands[p]);
        int card = discard_copy(rules, s, h, action);
        if (card < 0) return RK_ERR_ARG;
        set_hand(s, p, without_card(h, card));
        s->discards[s->n_discards++] = (uint8_t)card;
        if (!s->hands[p].w[0] && !s->hands[p].w[1])
            go_out(rules, s, p);
        else
            next_turn(rules, s);
        return RK_OK;
    }
    if (action < RK_TABLE_LAYOFF) return RK_ERR_ARG;
    if (action < RK_TABLE_RELEASE_RUN) {
        int x = action - RK_TABLE_LAYOFF, slot = x / 106, rest = x % 106;
        return do_lay_off(rules, s, p, slot, rest >> 1, rest & 1);
    }
    if (action < RK_TABLE_MELD_SET) return do_release(rules, s, p, action);
    if (action < RK_TABLE_MELD_RUN && action >= RK_TABLE_MELD_SET + 13 * 64) return RK_ERR_ARG;
    if (action >= RK_TABLE_MELD_RUN + 4 * 14 * 14 * 8192) return RK_ERR_ARG;
    return do_meld(rules, s, p, action);
}

/* ---- deal and checks -------------------------------------------------- */

/* Kaluki plays only the geometry and values TableRules derives from ace_low_runs and joker_penalty
 * (the opening search, rk_multi_best, assumes them), and Rummy's own options at their defaults (an
 * opening plan may need any number of melds, and going out, in one turn): rules that disagreed
 * with the opening search could strand a hand. */
static int kaluki_consistent(const rk_table_rules *r) {
    if (r->max_melds_per_turn != -1 || r->no_go_out_first_turn || r->taken_discard_must_be_melded) return 0;
    int low = r->ace_low_runs;
    if (r->npos != (low ? 14 : 13) || r->shift != (low ? 0 : 1) || r->wrap || r->low_ace_one != low) return 0;
    for (int t = 0; t < 52; t++) {
        int rank = t % 13;
        if (r->values[t] != (rank == 0 ? 11 : rank < 9 ? rank + 1 : 10)) return 0;
    }
    return r->values[RK_JOKER] == r->joker_penalty;
}

rk_status rk_table_rules_check(const rk_table_rules *r) {
    if (!r) return RK_ERR_ARG;
    const int flags[] = {r->wrap,
                         r->low_ace_one,
                         r->forbid_taken_discard,
                         r->go_out_requires_discard,
                         r->no_go_out_first_turn,
                         r->taken_discard_must_be_melded,
                         r->building_counts_toward_opening,
                         r->first_turn_upcard_free,
                         r->ace_low_runs,
                         r->two_joker_release_one_natural,
                         r->unopened_may_release_joker,
                         r->hunt_allows_building,
                         r->hunt_requires_opening_min,
                         r->joker_discard_allowed};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i] != 0 && flags[i] != 1) return RK_ERR_ARG;
    int players_max = r->kaluki ? 5 : 6;
    if ((r->kaluki != 0 && r->kaluki != 1) || r->num_players < 2 || r->num_players > players_max) return RK_ERR_ARG;
    if (r->kaluki ? (r->deck_size != 106 && r->deck_size != 108) : r->deck_size != 52) return RK_ERR_ARG;
    if (r->hand_size < 1 || r->hand_size > r->deck_size || r->hand_size * r->num_players + 1 > r->deck_size)
        return RK_ERR_ARG;
    if (r->wrap ? (r->npos != 13 || r->shift != 0) : !((r->npos == 13 && (r->shift == 0 || r->shift == 1)) ||
                                                       (r->npos == 14 && r->shift == 0)))
        return RK_ERR_ARG;
    if (r->low_ace_one && (r->npos != 14 || r->wrap)) return RK_ERR_ARG;
    if (r->restock_method < 0 || r->restock_method > 2 || r->max_restocks < -1 || r->max_turns < -1) return RK_ERR_ARG;
    if (r->max_melds_per_turn < -1 || r->max_build_per_run_end < -1 || r->unopened_discard_draw < 0 ||
        r->unopened_discard_draw > 2 || r->joker_penalty < 0 || r->joker_penalty > 255 || r->initial_meld_min < 0 ||
        r->initial_meld_min > 255)
        return RK_ERR_ARG;
    if (r->kaluki && !kaluki_consistent(r)) return RK_ERR_ARG;
    return RK_OK;
}

rk_status rk_table_deal(const rk_table_rules *rules, const uint8_t *deck, int dealer, uint64_t shuffle_seed,
                        rk_table_state *state) {
    if (!deck || !state || rk_table_rules_check(rules) != RK_OK) return RK_ERR_ARG;
    int n = rules->num_players, size = rules->hand_size, total = rules->deck_size;
    if (dealer < 0 || dealer >= n) return RK_ERR_ARG;
    rk_table_cards seen = {{0, 0}};
    for (int i = 0; i < total; i++) {
        int c = deck[i];
        int ok = c < 104 ? (rules->kaluki || c < 52) : c - RK_TABLE_FIRST_JOKER < total - 104;
        if (!ok || has_card(seen, c)) return RK_ERR_ARG;
        add_card(&seen, c);
    }
    rk_table_state *s = state;
    memset(s, 0, sizeof *s);
    for (int i = 0; i < size * n; i++) add_card(&s->hands[(dealer + 1 + i) % n], deck[i]);
    s->discards[0] = deck[size * n];
    s->n_discards = 1;
    for (int i = size * n + 1; i < total; i++) s->stock[total - 1 - i] = deck[i];
    s->n_stock = (int16_t)(total - size * n - 1);
    s->opened = rules->kaluki ? 0 : (uint8_t)((1u << n) - 1);
    s->n_players = (int8_t)n;
    s->dealer = (int8_t)dealer;
    s->player = (int8_t)((dealer + 1) % n);
    s->phase = RK_TABLE_PHASE_DRAW;
    s->outcome = RK_TABLE_NOT_OVER;
    s->winner = -1;
    s->shuffle_seed = shuffle_seed;
    start_turn(s);
    return RK_OK;
}

/* Whether m is a valid table meld whose cards are in the deck. */
static int meld_valid(const rk_table_rules *r, const rk_table_meld *m) {
    int n = m->n_cards;
    if (n < 3 || n > RK_TABLE_MAX_MELD || meld_jokers(m) == n) return 0; /* n first: meld_jokers reads n cards */
    if (meld_is_set(m)) {
        if (m->key >= 13 || m->start || n > 4) return 0;
        int suits = 0;
        for (int i = 0; i < n; i++) {
            int c = m->cards[i];
            if (c >= RK_TABLE_FIRST_JOKER) continue;
            if (c % 13 != m->key || suits >> (c % 52 / 13) & 1) return 0;
            suits |= 1 << (c % 52 / 13);
        }
        return 1;
    }
    if (m->kind != RK_MELD_RUN || m->key >= 4 || n > 13) return 0;
    if (r->wrap ? m->start >= 13 : m->start + n > r->npos) return 0;
    for (int i = 0; i < n; i++)
        if (m->cards[i] < RK_TABLE_FIRST_JOKER && card_type(m->cards[i]) != represents(r, m, i)) return 0;
    return 1;
}

rk_status rk_table_check(const rk_table_rules *rules, const rk_table_state *s) {
    if (!s || rk_table_rules_check(rules) != RK_OK) return RK_ERR_ARG;
    int n = rules->num_players;
    if (s->n_players != n || s->player < 0 || s->player >= n || s->dealer < 0 || s->dealer >= n) return RK_ERR_ARG;
    if (s->phase < 0 || s->phase > RK_TABLE_PHASE_END || s->n_stock < 0 || s->n_stock > RK_TABLE_MAX_CARDS ||
        s->n_discards < 0 || s->n_discards > RK_TABLE_MAX_CARDS || s->n_table < 0 || s->n_table > RK_TABLE_MAX_SLOTS ||
        s->n_ends < 0 || s->n_ends > RK_TABLE_MAX_SLOTS)
        return RK_ERR_ARG;
    if (s->taken_card < -1 || s->taken_card >= rules->deck_size ||
        s->taken != (s->taken_card < 0 ? -1 : card_type(s->taken_card)))
        return RK_ERR_ARG;
    if (s->taken < -1 || s->taken > RK_JOKER || s->must < -1 || s->must > RK_JOKER || s->pending < 0 ||
        s->pending > MAX_PENDING || s->turns < 0 || s->restocks < 0 || (s->opened | s->played) >> n)
        return RK_ERR_ARG;
    rk_table_cards deck = {{0, 0}}, seen = {{0, 0}};
    for (int c = 0; c < rules->deck_size; c++) add_card(&deck, c); /* physical ids 0 .. deck_size - 1 */
#define PLACE(card)                                                                \
    do {                                                                           \
        int c_ = (card);                                                           \
        if (c_ >= 128 || !has_card(deck, c_) || has_card(seen, c_)) return RK_ERR_ARG; \
        add_card(&seen, c_);                                                       \
    } while (0)
    for (int p = 0; p < n; p++) {
        rk_table_cards h = s->hands[p];
        if ((h.w[0] & ~deck.w[0]) || (h.w[1] & ~deck.w[1]) || (h.w[0] & seen.w[0]) || (h.w[1] & seen.w[1]))
            return RK_ERR_ARG;
        if ((s->known[p].w[0] & ~h.w[0]) || (s->known[p].w[1] & ~h.w[1])) return RK_ERR_ARG;
        seen.w[0] |= h.w[0];
        seen.w[1] |= h.w[1];
    }
    for (int p = n; p < RK_TABLE_MAX_PLAYERS; p++)
        if (s->hands[p].w[0] | s->hands[p].w[1] | s->known[p].w[0] | s->known[p].w[1]) return RK_ERR_ARG;
    for (int i = 0; i < s->n_stock; i++) PLACE(s->stock[i]);
    for (int i = 0; i < s->n_discards; i++) PLACE(s->discards[i]);
    for (int i = 0; i < s->n_table; i++) {
        const rk_table_meld *m = &s->table[i];
        if (m->owner >= n || !meld_valid(rules, m)) return RK_ERR_ARG;
        for (int k = 0; k < m->n_cards; k++) PLACE(m->cards[k]);
    }
#undef PLACE
    return RK_OK;
}
