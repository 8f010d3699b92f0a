/*
 * rummykit table games in C: the hand state machine of traditional Rummy
 * (one deck) and Kaluki (two decks and jokers), docs/rules.md, Decision points.
 *
 * It is the state machine of rummykit.table.state.TableState: the same
 * deal, the same action ids (rummykit.table.actions), the same legal
 * actions in the same order for every state, the same transitions.  The
 * Python class keeps its state in an rk_table_state and calls these
 * functions; rk_table_score scores the hand from its outcome.
 *
 * CARDS: physical ids as in rummykit.table.cards: 0-51 deck 0 (type = id),
 * 52-103 deck 1 (type = id - 52), 104-107 jokers (type RK_JOKER).  A set of
 * physical cards is an rk_table_cards, bit c % 64 of word c / 64.  Where
 * the rules need one card of a type, the engine takes the lowest physical
 * copy held (rummykit.table.cards.physical_copy), except for the card taken
 * from the pile this turn (taken_card), which alone may not be discarded
 * under forbid_taken_discard: a discard takes another copy, and a card put
 * on the table takes the taken card first (a joker standing in for a
 * released one excepted), so that another copy stays free to discard.
 *
 * RESTOCKS (reshuffle_keep_top): the pile but its top card is shuffled with
 * rk_restock_shuffle(shuffle_seed, restock index, pile) and becomes the
 * stock (the last card of the shuffled array on top), as in the knock games.
 *
 * Not thread-safe per state or memo; states and memos are plain data, so
 * one per thread is safe.  No allocation except rk_table_memo_new.
 */
#ifndef RUMMYKIT_TABLE_H
#define RUMMYKIT_TABLE_H

#include "rummykit/rng.h"
#include "rummykit/rummykit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RK_TABLE_MAX_PLAYERS 6
#define RK_TABLE_MAX_KALUKI_PLAYERS 5 /* Kaluki seats 2-5 (rk_table_rules_check) */
#define RK_TABLE_MAX_CARDS 108 /* 104 + 4 jokers (kalooki_51) */
#define RK_TABLE_FIRST_JOKER 104
#define RK_TABLE_MAX_SLOTS 40 /* table melds (rummykit.table.actions.MAX_SLOTS) */
#define RK_TABLE_MAX_MELD 14  /* cards in one table meld (a 14-position run line) */
#define RK_TABLE_MAX_PENDING 64 /* released jokers pending that rk_table_check accepts (a hand-edited state) */
/* The most cards in one Kaluki hand (13 are dealt): the opening answers are multi-deck searches of
 * the hand, exponential in its size (about 0.03 s at 26 cards, 0.7 s at 32, a minute at 50). */
#define RK_TABLE_MAX_KALUKI_HAND 26
#define RK_TABLE_MAX_VALUE 100000 /* the most a hand value or a bonus may be (rk_table_score) */

/* Action ids (rummykit.table.actions). */
#define RK_TABLE_DRAW 53
#define RK_TABLE_TAKE 54
#define RK_TABLE_LAYOFF 64                                           /* + (slot * 53 + type) * 2 + end */
#define RK_TABLE_RELEASE_RUN (RK_TABLE_LAYOFF + RK_TABLE_MAX_SLOTS * 106) /* + slot * 52 + type */
#define RK_TABLE_RELEASE_SET (RK_TABLE_RELEASE_RUN + RK_TABLE_MAX_SLOTS * 52) /* + slot * 16 + suits */
#define RK_TABLE_MELD_SET (RK_TABLE_RELEASE_SET + RK_TABLE_MAX_SLOTS * 16)   /* + rank * 64 + suits * 4 + jokers */
#define RK_TABLE_MELD_RUN 8192 /* + ((suit * 14 + start) * 14 + length) * 8192 + joker position mask */
#define RK_TABLE_SET_END (RK_TABLE_MELD_SET + 13 * 64)            /* the set melds end here; ids up to MELD_RUN are unused */
#define RK_TABLE_NUM_ACTIONS (RK_TABLE_MELD_RUN + 4 * 14 * 14 * 8192) /* the bound of the ids */

/* The action codec (rummykit.table.actions reads it through the bridge). */
static inline int32_t rk_table_layoff_id(int slot, int type, int end) {
    return RK_TABLE_LAYOFF + (slot * 53 + type) * 2 + end;
}
static inline int32_t rk_table_set_id(int rank, int suits, int jokers) {
    return RK_TABLE_MELD_SET + rank * 64 + suits * 4 + jokers;
}
static inline int32_t rk_table_run_id(int suit, int start, int length, int joker_mask) {
    return RK_TABLE_MELD_RUN + ((suit * 14 + start) * 14 + length) * 8192 + joker_mask;
}
/* The run of a run-meld id (id >= RK_TABLE_MELD_RUN): suit, start position, length, joker position mask. */
static inline void rk_table_run_of(int32_t id, int *suit, int *start, int *length, int *joker_mask) {
    int32_t x = (id - RK_TABLE_MELD_RUN) / 8192;
    *joker_mask = (int)((id - RK_TABLE_MELD_RUN) % 8192);
    *length = (int)(x % 14);
    *start = (int)(x / 14 % 14);
    *suit = (int)(x / 196);
}
/* Whether id is in the action id space (not whether it is a playable meld or legal). */
static inline int rk_table_is_action_id(int64_t id) {
    return (id >= 0 && id <= RK_TABLE_TAKE) || (id >= RK_TABLE_LAYOFF && id < RK_TABLE_SET_END) ||
           (id >= RK_TABLE_MELD_RUN && id < RK_TABLE_NUM_ACTIONS);
}

/* THE FIXED ACTION SPACE (for learners; rummykit.table.fixed, docs/vector.md): one id per move, the
 * same move in every state, RK_TABLE_FIXED_ACTIONS ids.  It is the engine ids packed:
 *   0-52 discard type t, 53 draw, 54 take (as the engine ids);
 *   RK_TABLE_FIXED_LAYOFF + (slot * 53 + type) * 2 + end, RK_TABLE_FIXED_RELEASE_RUN + slot * 52 + type,
 *   RK_TABLE_FIXED_RELEASE_SET + slot * 16 + suits, RK_TABLE_FIXED_MELD_SET + rank * 64 + suits * 4 +
 *   jokers: the engine's blocks RK_TABLE_LAYOFF .. RK_TABLE_SET_END - 1 moved down by
 *   RK_TABLE_FIXED_SHIFT;
 *   RK_TABLE_FIXED_MELD_RUN + (suit * 14 + start) * 11 + length - 3: a run meld by suit, start position
 *   and length (3..13), its jokers where the hand lacks the naturals.
 * Cards are types (the engine picks the physical copy, as for every engine id), table melds are
 * slots (their order on the table).  A run's joker positions are the engine's: rk_table_legal lists
 * at most one run meld of a suit, start and length (jokers stand exactly for the naturals the hand
 * lacks), so no two legal engine ids share a fixed id; rk_table_fixed_resolve would give the lowest. */
#define RK_TABLE_FIXED_LAYOFF 55
#define RK_TABLE_FIXED_SHIFT (RK_TABLE_LAYOFF - RK_TABLE_FIXED_LAYOFF)
#define RK_TABLE_FIXED_RELEASE_RUN (RK_TABLE_RELEASE_RUN - RK_TABLE_FIXED_SHIFT)
#define RK_TABLE_FIXED_RELEASE_SET (RK_TABLE_RELEASE_SET - RK_TABLE_FIXED_SHIFT)
#define RK_TABLE_FIXED_MELD_SET (RK_TABLE_MELD_SET - RK_TABLE_FIXED_SHIFT)
#define RK_TABLE_FIXED_MELD_RUN (RK_TABLE_SET_END - RK_TABLE_FIXED_SHIFT)
#define RK_TABLE_FIXED_ACTIONS (RK_TABLE_FIXED_MELD_RUN + 4 * 14 * 11) /* 8,463 */

/* The fixed id of an engine id, -1 for a number that is no action id (or a run shorter than 3). */
static inline int32_t rk_table_fixed_id(int32_t id) {
    if (id >= 0 && id <= RK_TABLE_TAKE) return id;
    if (id >= RK_TABLE_LAYOFF && id < RK_TABLE_SET_END) return id - RK_TABLE_FIXED_SHIFT;
    if (id >= RK_TABLE_MELD_RUN && id < RK_TABLE_NUM_ACTIONS) {
        int32_t x = (id - RK_TABLE_MELD_RUN) / 8192; /* (suit * 14 + start) * 14 + length */
        int32_t length = x % 14;
        return length < 3 ? -1 : RK_TABLE_FIXED_MELD_RUN + x / 14 * 11 + (length - 3);
    }
    return -1;
}

/* The lowest engine id of a fixed id (-1 out of range): the fixed id's engine ids are this one and,
 * for a run meld, the next 8191 (its joker position masks). */
static inline int32_t rk_table_fixed_first(int32_t fixed) {
    if (fixed >= 0 && fixed <= RK_TABLE_TAKE) return fixed;
    if (fixed >= RK_TABLE_FIXED_LAYOFF && fixed < RK_TABLE_FIXED_MELD_RUN) return fixed + RK_TABLE_FIXED_SHIFT;
    if (fixed >= RK_TABLE_FIXED_MELD_RUN && fixed < RK_TABLE_FIXED_ACTIONS) {
        int32_t x = fixed - RK_TABLE_FIXED_MELD_RUN;
        return RK_TABLE_MELD_RUN + (x / 11 * 14 + x % 11 + 3) * 8192;
    }
    return -1;
}

/* The legal engine id that a fixed id is now: the lowest of the n legal ids (sorted ascending, as
 * rk_table_legal gives them) with that fixed id, -1 if none has it. */
static inline int32_t rk_table_fixed_resolve(const int32_t *legal, int n, int32_t fixed) {
    int32_t first = rk_table_fixed_first(fixed);
    int lo = 0, hi = n;
    if (first < 0) return -1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (legal[mid] < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && rk_table_fixed_id(legal[lo]) == fixed ? legal[lo] : -1;
}

/* THE FACTORED FORM of a fixed id, for autoregressive policies: an action kind and its arguments,
 * one head each (rk_table_head_size values; -1 where the kind has no such argument).  Kinds and
 * the heads they use (rk_table_kind_heads, bit h for head h):
 *   discard: card (0-52)                  draw, take: none
 *   lay off: slot, card (0-52), end       release run: slot, card (0-51)
 *   release set: slot, suits (1-15)       meld set: rank, suits (1-15), jokers (0-3), 3-4 cards
 *   meld run: suit, start (0-13), length (0-10: 3-13 cards) */
enum rk_table_kind {
    RK_TABLE_KIND_DISCARD,
    RK_TABLE_KIND_DRAW,
    RK_TABLE_KIND_TAKE,
    RK_TABLE_KIND_LAYOFF,
    RK_TABLE_KIND_RELEASE_RUN,
    RK_TABLE_KIND_RELEASE_SET,
    RK_TABLE_KIND_MELD_SET,
    RK_TABLE_KIND_MELD_RUN,
    RK_TABLE_NUM_KINDS
};
enum rk_table_head {
    RK_TABLE_HEAD_KIND,
    RK_TABLE_HEAD_CARD,
    RK_TABLE_HEAD_SLOT,
    RK_TABLE_HEAD_END,
    RK_TABLE_HEAD_SUITS,
    RK_TABLE_HEAD_RANK,
    RK_TABLE_HEAD_JOKERS,
    RK_TABLE_HEAD_SUIT,
    RK_TABLE_HEAD_START,
    RK_TABLE_HEAD_LENGTH,
    RK_TABLE_NUM_HEADS
};

/* The number of values of head h (0 for no head). */
static inline int rk_table_head_size(int h) {
    switch (h) {
    case RK_TABLE_HEAD_KIND: return RK_TABLE_NUM_KINDS;
    case RK_TABLE_HEAD_CARD: return 53;
    case RK_TABLE_HEAD_SLOT: return RK_TABLE_MAX_SLOTS;
    case RK_TABLE_HEAD_END: return 2;
    case RK_TABLE_HEAD_SUITS: return 16;
    case RK_TABLE_HEAD_RANK: return 13;
    case RK_TABLE_HEAD_JOKERS: return 4;
    case RK_TABLE_HEAD_SUIT: return 4;
    case RK_TABLE_HEAD_START: return 14;
    case RK_TABLE_HEAD_LENGTH: return 11;
    default: return 0;
    }
}

/* The name of head h ("kind", "card", "slot", "end", "suits", "rank", "jokers", "suit", "start", "length"),
 * and of kind k ("discard", "draw", "take", "lay_off", "release_run", "release_set", "meld_set",
 * "meld_run"); NULL for a number that is none. */
static inline const char *rk_table_head_name(int h) {
    static const char *const names[RK_TABLE_NUM_HEADS] = {"kind", "card",   "slot", "end",   "suits",
                                                          "rank", "jokers", "suit", "start", "length"};
    return h >= 0 && h < RK_TABLE_NUM_HEADS ? names[h] : NULL;
}
static inline const char *rk_table_kind_name(int k) {
    static const char *const names[RK_TABLE_NUM_KINDS] = {"discard",     "draw",     "take",     "lay_off",
                                                          "release_run", "release_set", "meld_set", "meld_run"};
    return k >= 0 && k < RK_TABLE_NUM_KINDS ? names[k] : NULL;
}

/* The heads a kind uses, bit h for head h (the kind head itself included; 0 for no kind). */
static inline unsigned rk_table_kind_heads(int kind) {
    const unsigned k = 1u << RK_TABLE_HEAD_KIND, card = 1u << RK_TABLE_HEAD_CARD, slot = 1u << RK_TABLE_HEAD_SLOT;
    switch (kind) {
    case RK_TABLE_KIND_DISCARD: return k | card;
    case RK_TABLE_KIND_DRAW: case RK_TABLE_KIND_TAKE: return k;
    case RK_TABLE_KIND_LAYOFF: return k | slot | card | 1u << RK_TABLE_HEAD_END;
    case RK_TABLE_KIND_RELEASE_RUN: return k | slot | card;
    case RK_TABLE_KIND_RELEASE_SET: return k | slot | 1u << RK_TABLE_HEAD_SUITS;
    case RK_TABLE_KIND_MELD_SET: return k | 1u << RK_TABLE_HEAD_RANK | 1u << RK_TABLE_HEAD_SUITS | 1u << RK_TABLE_HEAD_JOKERS;
    case RK_TABLE_KIND_MELD_RUN:
        return k | 1u << RK_TABLE_HEAD_SUIT | 1u << RK_TABLE_HEAD_START | 1u << RK_TABLE_HEAD_LENGTH;
    default: return 0;
    }
}

/* Whether a set of naturals of the suits in a mask and some jokers has 3 or 4 cards, one natural at least. */
static inline int rk_table_set_shape(int suits, int jokers) {
    int k = (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1) + (suits >> 3 & 1);
    return k > 0 && k + jokers >= 3 && k + jokers <= 4;
}

/* The heads of a fixed id (-1 in the heads its kind does not use): 0, or -1 (heads all -1) for a
 * number that is no fixed id of a move (out of range, a set release of no suits, a set meld of
 * fewer than 3 or more than 4 cards). */
static inline int rk_table_fixed_factor(int32_t fixed, int32_t heads[RK_TABLE_NUM_HEADS]) {
    int32_t x;
    for (int h = 0; h < RK_TABLE_NUM_HEADS; h++) heads[h] = -1;
    if (fixed < 0 || fixed >= RK_TABLE_FIXED_ACTIONS) return -1;
    if (fixed <= RK_JOKER) {
        heads[RK_TABLE_HEAD_KIND] = RK_TABLE_KIND_DISCARD;
        heads[RK_TABLE_HEAD_CARD] = fixed;
    } else if (fixed == RK_TABLE_DRAW || fixed == RK_TABLE_TAKE) {
        heads[RK_TABLE_HEAD_KIND] = fixed == RK_TABLE_DRAW ? RK_TABLE_KIND_DRAW : RK_TABLE_KIND_TAKE;
    } else if (fixed < RK_TABLE_FIXED_RELEASE_RUN) {
        x = fixed - RK_TABLE_FIXED_LAYOFF;
        heads[RK_TABLE_HEAD_KIND] = RK_TABLE_KIND_LAYOFF;
        heads[RK_TABLE_HEAD_END] = x % 2;
        heads[RK_TABLE_HEAD_CARD] = x / 2 % 53;
        heads[RK_TABLE_HEAD_SLOT] = x / 2 / 53;
    } else if (fixed < RK_TABLE_FIXED_RELEASE_SET) {
        x = fixed - RK_TABLE_FIXED_RELEASE_RUN;
        heads[RK_TABLE_HEAD_KIND] = RK_TABLE_KIND_RELEASE_RUN;
        heads[RK_TABLE_HEAD_CARD] = x % 52;
        heads[RK_TABLE_HEAD_SLOT] = x / 52;
    } else if (fixed < RK_TABLE_FIXED_MELD_SET) {
        x = fixed - RK_TABLE_FIXED_RELEASE_SET;
        if (x % 16 == 0) return -1;
        heads[RK_TABLE_HEAD_KIND] = RK_TABLE_KIND_RELEASE_SET;
        heads[RK_TABLE_HEAD_SUITS] = x % 16;
        heads[RK_TABLE_HEAD_SLOT] = x / 16;
    } else if (fixed < RK_TABLE_FIXED_MELD_RUN) {
        x = fixed - RK_TABLE_FIXED_MELD_SET;
        if (!rk_table_set_shape(x / 4 % 16, x % 4)) return -1;
        heads[RK_TABLE_HEAD_KIND] = RK_TABLE_KIND_MELD_SET;
        heads[RK_TABLE_HEAD_JOKERS] = x % 4;
        heads[RK_TABLE_HEAD_SUITS] = x / 4 % 16;
        heads[RK_TABLE_HEAD_RANK] = x / 64;
    } else {
        x = fixed - RK_TABLE_FIXED_MELD_RUN;
        heads[RK_TABLE_HEAD_KIND] = RK_TABLE_KIND_MELD_RUN;
        heads[RK_TABLE_HEAD_LENGTH] = x % 11;
        heads[RK_TABLE_HEAD_START] = x / 11 % 14;
        heads[RK_TABLE_HEAD_SUIT] = x / 11 / 14;
    }
    return 0;
}

/* The fixed id of heads (the heads the kind does not use are ignored), -1 if the kind or a head it
 * uses is out of range (rk_table_fixed_factor's ranges). */
static inline int32_t rk_table_fixed_unfactor(const int32_t heads[RK_TABLE_NUM_HEADS]) {
    unsigned use = heads[RK_TABLE_HEAD_KIND] >= 0 ? rk_table_kind_heads(heads[RK_TABLE_HEAD_KIND]) : 0;
    if (!use) return -1;
    for (int h = 0; h < RK_TABLE_NUM_HEADS; h++)
        if (use >> h & 1 && (heads[h] < 0 || heads[h] >= rk_table_head_size(h))) return -1;
    switch (heads[RK_TABLE_HEAD_KIND]) {
    case RK_TABLE_KIND_DISCARD: return heads[RK_TABLE_HEAD_CARD];
    case RK_TABLE_KIND_DRAW: return RK_TABLE_DRAW;
    case RK_TABLE_KIND_TAKE: return RK_TABLE_TAKE;
    case RK_TABLE_KIND_LAYOFF:
        return RK_TABLE_FIXED_LAYOFF + (heads[RK_TABLE_HEAD_SLOT] * 53 + heads[RK_TABLE_HEAD_CARD]) * 2 +
               heads[RK_TABLE_HEAD_END];
    case RK_TABLE_KIND_RELEASE_RUN:
        if (heads[RK_TABLE_HEAD_CARD] == RK_JOKER) return -1;
        return RK_TABLE_FIXED_RELEASE_RUN + heads[RK_TABLE_HEAD_SLOT] * 52 + heads[RK_TABLE_HEAD_CARD];
    case RK_TABLE_KIND_RELEASE_SET:
        if (!heads[RK_TABLE_HEAD_SUITS]) return -1;
        return RK_TABLE_FIXED_RELEASE_SET + heads[RK_TABLE_HEAD_SLOT] * 16 + heads[RK_TABLE_HEAD_SUITS];
    case RK_TABLE_KIND_MELD_SET:
        if (!rk_table_set_shape(heads[RK_TABLE_HEAD_SUITS], heads[RK_TABLE_HEAD_JOKERS])) return -1;
        return RK_TABLE_FIXED_MELD_SET + heads[RK_TABLE_HEAD_RANK] * 64 + heads[RK_TABLE_HEAD_SUITS] * 4 +
               heads[RK_TABLE_HEAD_JOKERS];
    default: /* RK_TABLE_KIND_MELD_RUN */
        return RK_TABLE_FIXED_MELD_RUN + (heads[RK_TABLE_HEAD_SUIT] * 14 + heads[RK_TABLE_HEAD_START]) * 11 +
               heads[RK_TABLE_HEAD_LENGTH];
    }
}

typedef enum rk_table_phase { RK_TABLE_PHASE_DRAW = 0, RK_TABLE_PHASE_PLAY = 1, RK_TABLE_PHASE_END = 2 } rk_table_phase;

/* How a hand ended (rummykit.table.scoring outcomes; rk_table_outcome_name gives the names). */
typedef enum rk_table_outcome {
    RK_TABLE_NOT_OVER = 0,
    RK_TABLE_DEAD = 1,     /* "dead": stock out, restock limit, or max_turns */
    RK_TABLE_BLOCKED = 2,  /* "blocked": restock_method block */
    RK_TABLE_RUMMY = 3,    /* Rummy: out in one turn from a fresh hand */
    RK_TABLE_OUT = 4,      /* Rummy: went out */
    RK_TABLE_HUNT = 5,     /* Kaluki */
    RK_TABLE_CALL_OFF = 6  /* Kaluki */
} rk_table_outcome;

/* The options of rummykit.table.rules.TableRules that play needs, and the
 * run geometry of rummykit.table.melds.Geometry.  Flags are 0 or 1. */
typedef struct rk_table_rules {
    int kaluki;              /* 0: Rummy, 1: Kaluki */
    int num_players;         /* 2..6 (Kaluki 2..5) */
    int hand_size;           /* cards dealt to each player */
    int deck_size;           /* 52, or 104 + kaluki_jokers */
    /* geometry: run positions 0..npos-1, position p is rank (p + shift) % 13 */
    int npos, shift, wrap;
    int low_ace_one;         /* Kaluki ace_low_runs: the ace at position 0 counts 1 in a meld */
    uint8_t values[RK_NUM_TYPES]; /* hand value by type (joker last) */
    /* common */
    int forbid_taken_discard;     /* forbid_discarding_taken_card */
    int restock_method;           /* 0 reshuffle_keep_top, 1 turn_over, 2 block */
    int max_restocks, max_turns;  /* -1: unlimited */
    int go_out_requires_discard;
    /* Rummy */
    int no_go_out_first_turn;
    int max_melds_per_turn;       /* -1: unlimited */
    int taken_discard_must_be_melded;
    /* Kaluki */
    int initial_meld_min;
    int building_counts_toward_opening;
    int unopened_discard_draw;    /* 0 only_if_used_in_opening, 1 forbidden, 2 free */
    int first_turn_upcard_free;
    int ace_low_runs;
    int joker_penalty;
    int two_joker_release_one_natural; /* two_joker_set_release == "one_natural" */
    int max_build_per_run_end;    /* -1: unlimited */
    int unopened_may_release_joker;
    int hunt_allows_building;
    int hunt_requires_opening_min;
    int joker_discard_allowed;
    /* scoring (rk_table_score) */
    int rummy_bonus;              /* Rummy going rummy: 0 double, 1 flat_25, 2 flat_10, 3 none */
    int rummy_scoring;            /* 0 winner_collects, 1 penalty */
    int call_off_bonus, hunt_bonus; /* Kaluki, 0..RK_TABLE_MAX_VALUE */
    int hunt_penalty_mode;        /* 0 double, 1 plus_25 */
    int kaluki_bonus_accounting;  /* 0 separate, 1 subtract_from_penalty */
} rk_table_rules;

/* The field table of rk_table_rules (static storage; *n, if not NULL,
 * receives the number of entries), as rk_knock_rules_fields: one entry per
 * int field, named by the TableRules field it comes from (the options, and
 * is_kaluki, hand_size, deck_size and the geometry npos, shift, wrap,
 * low_ace_one that rummykit.table.rules derives); values is not in it. */
const rk_field *rk_table_rules_fields(size_t *n);

/* The name of an rk_table_outcome ("dead", "blocked", "rummy", "out", "hunt", "call_off"), NULL for
 * RK_TABLE_NOT_OVER and any other number. */
const char *rk_table_outcome_name(int outcome);

typedef struct rk_table_cards {
    uint64_t w[2];
} rk_table_cards;

/* A meld on the table (rummykit.table.melds.TableMeld). */
typedef struct rk_table_meld {
    uint8_t kind;    /* RK_MELD_SET or RK_MELD_RUN */
    uint8_t key;     /* set: rank; run: suit */
    uint8_t start;   /* run: position of cards[0]; set: 0 */
    uint8_t n_cards;
    uint8_t owner;   /* the seat that laid it */
    uint8_t cards[RK_TABLE_MAX_MELD]; /* physical ids: a run's in position order, a set's as placed */
} rk_table_meld;

/* A hand in progress: the fields of TableState, same names and meanings. */
typedef struct rk_table_state {
    rk_table_cards hands[RK_TABLE_MAX_PLAYERS];
    rk_table_cards known[RK_TABLE_MAX_PLAYERS]; /* taken from the pile and still held */
    uint8_t stock[RK_TABLE_MAX_CARDS];          /* stock[n_stock - 1] is the top */
    uint8_t discards[RK_TABLE_MAX_CARDS];       /* discards[n_discards - 1] is the top */
    rk_table_meld table[RK_TABLE_MAX_SLOTS];    /* in the order laid */
    uint8_t ends[RK_TABLE_MAX_SLOTS];           /* cards built this turn: low end + 16 * high end */
    int16_t n_stock, n_discards, n_table;
    int16_t n_ends;          /* the length of TableState.ends (slots touched this turn + 1, or 0) */
    int8_t phase;            /* rk_table_phase */
    int8_t player, dealer, n_players;
    uint8_t opened, played;  /* seat bit masks */
    uint8_t absent;          /* seats out of the hand (eliminated from a match): no cards, never to move */
    int8_t taken;            /* the type taken from the pile this turn, or -1 */
    int8_t taken_card;       /* the physical card taken from the pile this turn, or -1 (of type taken) */
    int8_t must;             /* a type that must go on the table before the discard, or -1 */
    int8_t pending;          /* released jokers still to place */
    int8_t fresh;            /* the player had put nothing on the table before this turn */
    int8_t built_other;      /* built on another player's meld this turn */
    int8_t outcome;          /* rk_table_outcome */
    int8_t winner;           /* the seat that went out, or -1 */
    int16_t open_value;      /* Kaluki: opening value laid this turn */
    int16_t turn_melds;      /* new melds laid this turn */
    int32_t turns, restocks;
    uint64_t shuffle_seed;
    /* the public history, newest first: per seat and kind (RK_RECENT_DISCARD, _TAKE, _PASS: a draw
     * from the stock while the top discard could be taken, as far as the others can tell: a
     * discard pile, and not Kaluki's forbidden take for an unopened seat) the card types of its
     * last RK_RECENT such moves, as type + 1 (0: none) */
    uint8_t recent[RK_TABLE_MAX_PLAYERS][RK_RECENT_KINDS][RK_RECENT];
} rk_table_state;

/* Memoised Kaluki opening answers (opaque; one memo serves one rules
 * record).  NULL may be passed wherever a memo is taken (slower). */
typedef struct rk_table_memo rk_table_memo;
rk_table_memo *rk_table_memo_new(void);
void rk_table_memo_free(rk_table_memo *memo);

/* RK_OK if the engine plays these rules: the ranges noted above, flags 0 or
 * 1, and in Kaluki the geometry and values TableRules derives from
 * ace_low_runs and joker_penalty, and Rummy's own options at their
 * defaults.  Hand sizes, limits, Rummy's card values and Kaluki's minimum
 * may go beyond TableRules' choices (a Kaluki hand_size up to
 * RK_TABLE_MAX_KALUKI_HAND - 1). */
rk_status rk_table_rules_check(const rk_table_rules *rules);

/* Deal a hand as TableState.__init__ does: deck (rules->deck_size distinct
 * physical ids, top first) one card at a time from the dealer's left, then
 * the upcard, the rest is the stock; the player left of the dealer draws. */
rk_status rk_table_deal(const rk_table_rules *rules, const uint8_t *deck, int dealer, uint64_t shuffle_seed,
                        rk_table_state *state);

/* rk_table_deal without the seats of the mask absent (a match's eliminated players): they are
 * dealt no cards and never move; the deal and the turn go round the other seats in seat order.
 * The dealer must be present, and at least two seats. */
rk_status rk_table_deal_present(const rk_table_rules *rules, const uint8_t *deck, int dealer, unsigned absent,
                                uint64_t shuffle_seed, rk_table_state *state);

/* RK_OK if state is a position these functions can work on: cards in the
 * deck and in one place each, seats, slots and counts in range, table melds
 * valid, flags 0 or 1, an outcome exactly at the end of the hand, a
 * winner (with no cards left) exactly when someone went out, and no Kaluki
 * hand over RK_TABLE_MAX_KALUKI_HAND cards.  Any bytes may
 * be checked: no count is used before it is bounded.  rk_table_legal and
 * rk_table_apply assume it (the Python class checks every state it did not
 * make itself: edited fields, unpickled bytes, undo entries). */
rk_status rk_table_check(const rk_table_rules *rules, const rk_table_state *state);

/* The legal action ids now, sorted ascending (TableState.legal_actions).
 * Returns how many there are (0 at the end of the hand); when that is more
 * than capacity only the first capacity ids are stored (call again with a
 * bigger buffer).  A negative status on bad arguments. */
int rk_table_legal(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo, int32_t *actions,
                   int capacity);

/* Apply an action that rk_table_legal listed for this state (the caller
 * checks that, e.g. against a cached list).  A draw from an empty stock
 * restocks first (or ends the hand).  Out-of-range ids and cards not where
 * the action needs them give RK_ERR_ARG with the state unchanged. */
rk_status rk_table_apply(const rk_table_rules *rules, rk_table_state *state, rk_table_memo *memo, int32_t action);

/* Whether action is an action of these rules (rk_table_is_action_id, and a meld id a shape these
 * rules' runs and sets can take): action text exists exactly for these ids. */
int rk_table_is_action(const rk_table_rules *rules, int32_t action);

/* Why an action is not legal now (rk_table_why): 0 (RK_TABLE_LEGAL) for a legal action, else
 * the rule that forbids it.  rummykit.table.reasons words each code for people. */
typedef enum rk_table_reason {
    RK_TABLE_LEGAL = 0,
    RK_TABLE_WHY_NOT_ACTION,        /* not an action id (rk_table_is_action_id) */
    RK_TABLE_WHY_OUT_OF_TURN,       /* the seat asking is not the player to move */
    RK_TABLE_WHY_HAND_OVER,
    RK_TABLE_WHY_DRAW_FIRST,        /* a play before the draw */
    RK_TABLE_WHY_PILE_EMPTY,        /* take with no discard */
    RK_TABLE_WHY_TAKE_FORBIDDEN,    /* Kaluki unopened_discard_draw forbidden */
    RK_TABLE_WHY_TAKE_TO_OPEN,      /* Kaluki: unopened, no opening with the taken card exists */
    RK_TABLE_WHY_TAKE_MUST_MELD,    /* Rummy taken_discard_must_be_melded: it cannot be melded at once */
    RK_TABLE_WHY_DEAD_END,          /* the step leaves no way to end the turn with a legal discard */
    RK_TABLE_WHY_ALREADY_DRAWN,     /* a draw or take after the draw */
    RK_TABLE_WHY_PLACE_JOKER,       /* a released joker must be placed first */
    RK_TABLE_WHY_OPEN_WITH_TAKEN,   /* Kaluki: the taken card must go in the opening first; detail[0] its type */
    RK_TABLE_WHY_MELD_TAKEN,        /* Rummy: the taken card must be melded first; detail[0] its type */
    RK_TABLE_WHY_NOT_IN_HAND,       /* detail[0] the type (RK_JOKER: a joker) not held (enough) */
    RK_TABLE_WHY_TAKEN_CARD,        /* forbid_taken_discard: the card just taken */
    RK_TABLE_WHY_JOKER_DISCARD,     /* joker_discard_allowed off */
    RK_TABLE_WHY_OPENING_UNFINISHED, /* Kaluki: a discard with the opening under the minimum; detail[0] laid so far */
    RK_TABLE_WHY_FIRST_TURN_OUT,    /* no_go_out_first_turn: going out on the first turn */
    RK_TABLE_WHY_NOT_A_MELD,        /* a meld id no hand can lay under these rules (geometry, jokers) */
    RK_TABLE_WHY_OPENING_SHORT,     /* Kaluki: the opening cannot reach initial_meld_min; detail[0] its value with this step */
    RK_TABLE_WHY_MELD_LIMIT,        /* max_melds_per_turn reached */
    RK_TABLE_WHY_NO_SLOT,           /* no table meld in that slot; detail[0] the melds on the table */
    RK_TABLE_WHY_BUILD_BEFORE_OPENING, /* Kaluki: no building before opening */
    RK_TABLE_WHY_RELEASE_BEFORE_OPENING, /* Kaluki: no joker release before opening */
    RK_TABLE_WHY_SET_CLOSED,        /* a lay-off on a four-card set */
    RK_TABLE_WHY_RUN_FULL,          /* a lay-off on a 13-card run */
    RK_TABLE_WHY_BUILD_LIMIT,       /* max_build_per_run_end cards built at that end this turn */
    RK_TABLE_WHY_DOES_NOT_FIT,      /* the card does not extend that meld at that end */
    RK_TABLE_WHY_NO_JOKER_FOR,      /* a run release: no joker of that meld stands for the card */
    RK_TABLE_WHY_RELEASE_SHAPE,     /* a set release from a meld that is not a 3-card set holding a joker */
    RK_TABLE_WHY_RELEASE_NATURALS,  /* a set release with the wrong naturals (two_joker_set_release) */
    RK_TABLE_WHY_RELEASE_OPENING,   /* Kaluki: unopened, the release does not lead on to the opening */
    RK_TABLE_WHY_RELEASE_UNPLACEABLE, /* the released jokers could not be placed this turn */
    RK_TABLE_NUM_REASONS
} rk_table_reason;

/* Why action is not legal now for seat (-1: the player to move): an
 * rk_table_reason (RK_TABLE_LEGAL when rk_table_legal lists it), detail[0]
 * as the code says (else 0), or a negative status on bad arguments.  The
 * code names the first rule, in the order the engine applies them, that the
 * action breaks. */
int rk_table_why(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo, int seat,
                 int32_t action, int detail[1]);
/* The name of a reason code ("legal", "not_action", ...: the enum name in lower case without
 * RK_TABLE_WHY_), NULL for a number that is not one. */
const char *rk_table_reason_name(int code);

/* A hand's score (rummykit.table.scoring.TableResult), per seat: the value
 * of the cards held (rules->values by type), the winner-collects points
 * (Rummy), the penalty and bonus points, and the returns:
 *  - Rummy winner_collects: the winner collects the others' hand values
 *    (doubled when going rummy under rummy_bonus double, plus 25 or 10
 *    under flat_25 / flat_10); returns = points; a blocked hand scores 0;
 *  - Rummy penalty: each loser's penalty is their hand value (doubled, or
 *    plus 25 or 10, when the winner went rummy); a blocked hand charges
 *    every seat its hand value; returns = -penalty;
 *  - Kaluki: each loser's penalty is their hand value, after a Hunt doubled
 *    (or plus 25); the winner's bonus is call_off_bonus or hunt_bonus;
 *    returns = -penalty (+ the bonus under subtract_from_penalty); a
 *    blocked hand (restock_method block, which TableRules does not offer in
 *    Kaluki) charges every seat its hand value;
 *  - a dead hand scores 0 everywhere. */
typedef struct rk_table_result {
    int32_t values[RK_TABLE_MAX_PLAYERS];
    int32_t points[RK_TABLE_MAX_PLAYERS];
    int32_t penalties[RK_TABLE_MAX_PLAYERS];
    int32_t bonuses[RK_TABLE_MAX_PLAYERS];
    int32_t returns[RK_TABLE_MAX_PLAYERS];
} rk_table_result;

/* The value of the cards in a hand (rules->values by type). */
int32_t rk_table_hand_value(const rk_table_rules *rules, rk_table_cards cards);

/* Score a hand from its outcome, winner (-1: none) and each seat's hand
 * value (rules->num_players values, 0..RK_TABLE_MAX_VALUE).  RK_ERR_ARG,
 * out untouched, for rules rk_table_rules_check refuses, an outcome the
 * game does not have (both: dead, blocked; Rummy: rummy, out; Kaluki:
 * hunt, call_off), a winner given for a dead or blocked hand or missing
 * for another, or a value out of range. */
rk_status rk_table_score_values(const rk_table_rules *rules, int outcome, int winner, const int32_t *values,
                                rk_table_result *out);

/* Score the hand state has ended (RK_ERR_ARG while it is on). */
rk_status rk_table_score(const rk_table_rules *rules, const rk_table_state *state, rk_table_result *out);


/* ---- hidden information (csrc/src/table_hidden.c) ----------------------
 *
 * What a seat knows of a hand (rummykit.table.observe): cards are seen as
 * types (0-51, RK_JOKER), the two copies of a Kaluki card being the same
 * card.  Everyone sees every action, the table, the pile, the hand sizes
 * and each restock; a seat also knows its own dealt cards and draws.  The
 * cards known to be in a hand are those it took from the pile, jokers it
 * released, and draws from a turned-over stock, each until it puts down a
 * card of that type.
 *
 * The public step log: one entry per action of the history (rk_table_step).
 * Its bytes: [0] the seat that acted, [1] flags (RK_TABLE_STEP_RESTOCK: a
 * restock came just before this draw; RK_TABLE_STEP_PUBLIC: the stock is a
 * turned-over pile, whose order is public), [2] the type it drew or took
 * (RK_TABLE_NO_CARD: none; a stock draw's type is the drawer's alone unless
 * RK_TABLE_STEP_PUBLIC), [3] n_out, [4] n_in, [5] n_moved, [6] n_players,
 * [7] 0; then n_players * RK_NUM_TYPES counts, seat by seat: how many cards
 * of each type everyone knows the seat holds after the step; then the n_out
 * types the seat put down (ascending; | RK_TABLE_STEP_UNSEEN when nobody
 * knew it held that card), the n_in types that came to its hand otherwise
 * than by a draw or a take (released jokers), and the n_moved types a
 * restock put into the stock (the pile bottom first: all of it when turned
 * over, all but its top card when reshuffled). */
#define RK_TABLE_STEP_HEAD 8
#define RK_TABLE_STEP_RESTOCK 1
#define RK_TABLE_STEP_PUBLIC 2
#define RK_TABLE_STEP_UNSEEN 0x80
#define RK_TABLE_NO_CARD 255
#define RK_TABLE_STEP_MAX (RK_TABLE_STEP_HEAD + RK_TABLE_MAX_PLAYERS * RK_NUM_TYPES + 3 * RK_TABLE_MAX_CARDS)

/* The known counts (n players x RK_NUM_TYPES) updated for ``action``, which
 * took state ``before`` to ``after``; all zero at the deal.  If ``unseen`` is
 * not NULL, it receives per type (RK_NUM_TYPES) how many of the cards the
 * seat put down nobody knew it held. */
void rk_table_known_step(const rk_table_rules *rules, const rk_table_state *before, const rk_table_state *after,
                         int32_t action, uint8_t *counts, uint8_t *unseen);

/* The entry of ``action``, which took ``before`` to ``after``, into entry
 * (RK_TABLE_STEP_MAX bytes); prev: the entry before (NULL at the deal).
 * Returns its length, or RK_ERR_ARG for a state out of range. */
int rk_table_step(const rk_table_rules *rules, const rk_table_state *before, const rk_table_state *after,
                  int32_t action, const uint8_t *prev, uint8_t *entry);

/* The length rk_table_step gave an entry (from its header). */
size_t rk_table_step_length(const uint8_t *entry);

/* A hand's history and its step log: actions[i] and its entry steps[i], i < n. */
typedef struct rk_table_log {
    const int32_t *actions;
    const uint8_t *const *steps;
    int n;
} rk_table_log;

/* What seat `observer` knows of a hand, for determinization.
 *
 * The cards the observer cannot see came from groups (group 0: the first
 * stock; group k: the pile that the k-th reshuffle restock put into the
 * stock); pool[g * 53 + type] counts the cards of group g the observer
 * has not seen dealt to it, drawn by it, or as the upcard.  A place is a
 * card another seat got unseen: dealt (time -1; each seat's in seat order)
 * or drawn from the stock of its group at history index `time` (in time
 * order).  A fill is a card another seat played at history index `time`
 * that nobody knew it held: it came from one of that seat's places of an
 * earlier time whose group still has a copy (at the end of the hand the
 * cards shown are fills too, at time `now`, the history length, and stay
 * in the hand).  A ban says the seat laid a run with a joker standing for
 * `type` at `time` (so it held no such card then: no place of that seat
 * from before `time` may hold it after `time`).  known[seat][type] counts
 * the cards everyone knows a seat holds now.
 *
 * A determinization walks the fills in order, each to a random fitting
 * place, then deals what is left of each group to its open places (in a
 * random order, each taking the first card of a shuffled list that no ban
 * forbids) and, for stock_group, to the stock; a sample that runs out of
 * places is drawn again, and so is one where another seat in the middle of
 * its turn would have no legal action.  After RK_TABLE_MAX_TRIES samples
 * the other seats keep their real cards and only the stock order is drawn.
 * A new shuffle_seed is drawn every time.  stock_group -1: the stock is
 * public (turned over) and stays as it is.  (One played card at a time:
 * close to, not exactly, uniform over the consistent deals.)
 *
 * mode RK_TABLE_RESAMPLE_STOCK uses none of the places: every hand stays,
 * the stock is shuffled (unless stock_group is -1) and a new shuffle_seed
 * drawn. */
#define RK_TABLE_RESAMPLE_STOCK 1
#define RK_TABLE_RESAMPLE_HIDDEN 2
#define RK_TABLE_MAX_TRIES 500
/* rk_table_world_of's default: a whole world is asked for rarely (an agent's copy, not a
 * playout) and, late in a two-deck hand where most cards have been shown, one sample in
 * several hundred can fit, so it tries longer before keeping the real cards. */
#define RK_TABLE_WORLD_TRIES 20000
typedef struct rk_table_hidden {
    int mode;     /* RK_TABLE_RESAMPLE_STOCK or RK_TABLE_RESAMPLE_HIDDEN */
    int observer; /* the seat whose view is kept */
    int stock_group;
    int32_t now; /* the history length */
    int n_groups, n_places, n_fills, n_bans;
    const uint8_t *pool;                                    /* n_groups * 53 counts */
    const uint8_t *place_seat;                              /* n_places */
    const int32_t *place_group, *place_time;                /* n_places; times ascending per seat */
    const uint8_t *fill_seat, *fill_type;                   /* n_fills */
    const int32_t *fill_time;                               /* n_fills, ascending */
    const uint8_t *ban_seat, *ban_type;                     /* n_bans */
    const int32_t *ban_time;                                /* n_bans */
    uint8_t known[RK_TABLE_MAX_PLAYERS][RK_NUM_TYPES];
} rk_table_hidden;

/* Bytes of work buffer rk_table_hidden_of needs for a log of n_steps. */
size_t rk_table_hidden_size(const rk_table_rules *rules, int n_steps);

/* What seat `player` knows of state (mode RK_TABLE_RESAMPLE_HIDDEN), read
 * off its log in one walk: deck is the hand's deck (rules->deck_size
 * physical ids, top first: the upcard and player's dealt cards); hidden's
 * lists point into work (rk_table_hidden_size(rules, log->n) bytes, 8-byte
 * aligned), which must outlive it.  RK_ERR_ARG when the log does not fit
 * the state or the rules (fields set by hand, a damaged entry: the caller
 * checks each entry's length, rk_table_step_length). */
rk_status rk_table_hidden_of(const rk_table_rules *rules, const rk_table_state *state, const uint8_t *deck,
                             const rk_table_log *log, int player, void *work, rk_table_hidden *hidden);

/* RK_OK if hidden fits state: counts in range, each group holding exactly
 * one card per place of the group (and the stock, for stock_group), the
 * known cards held.  rk_table_playouts checks it (and rk_table_check) once;
 * rk_table_determinize assumes both. */
rk_status rk_table_hidden_check(const rk_table_rules *rules, const rk_table_state *state,
                                const rk_table_hidden *hidden);

/* Bytes of work buffer a determinization with hidden needs. */
size_t rk_table_work_size(const rk_table_hidden *hidden);

/* One determinization of state into out (see rk_table_hidden; hidden NULL:
 * out is state), built directly: the other seats keep their known cards and
 * get the sampled types of their held places, the stock the sampled order.
 * place_types (n_places, or NULL) receives the type of each place (255 for
 * the last resort).  Returns 1 if a sample was drawn, 0 if the last resort
 * was taken, or a negative rk_status. */
int rk_table_determinize(const rk_table_rules *rules, const rk_table_state *state, const rk_table_hidden *hidden,
                         rk_rng *rng, rk_table_memo *memo, void *work, rk_table_state *out, uint8_t *place_types);

/* A whole world that seat `player` cannot tell from state (rummykit.table.
 * observe.determinize): the sample of rk_table_determinize (the same draws
 * from rng), given a deck and a past: the sampled places rebuild the deck
 * (the deal, the upcard, the draws from the first stock in order, then, with
 * no restock, the stock; player's own cards where they were), each past
 * reshuffle restock takes the sampled order of its group (orders: each one's
 * types, top first, in turn), and the history replayed on it (rk_table_replay)
 * gives state.  came[i] is the type step i drew or took in this world.
 * orders and came point into the work buffer.  A sample whose replay breaks
 * down is drawn again; max_tries < 0: RK_TABLE_WORLD_TRIES.  state: one that
 * rk_table_check accepts (as for rk_table_determinize); RK_ERR_ARG when the
 * log does not lead to it (rk_table_hidden_of, or no world replays to its
 * public fields). */
typedef struct rk_table_world {
    rk_table_state state;               /* the world now; shuffle_seed drawn afresh */
    uint8_t deck[RK_TABLE_MAX_CARDS];   /* rules->deck_size physical ids, top first */
    int sampled;                        /* 0: the last resort (the real cards, the stock order drawn) */
    int n_orders;
    const uint8_t *orders;
    const uint8_t *came;                /* log->n */
} rk_table_world;

/* Bytes of work buffer rk_table_world_of needs for a log of n_steps. */
size_t rk_table_world_size(const rk_table_rules *rules, int n_steps);

rk_status rk_table_world_of(const rk_table_rules *rules, const rk_table_state *state, const uint8_t *deck,
                            const rk_table_log *log, int player, int max_tries, rk_rng *rng, rk_table_memo *memo,
                            void *work, rk_table_world *out);

/* Deal deck (rk_table_deal_present) and apply actions[0 .. n-1] (no legality
 * check: each one as rk_table_apply takes it), each reshuffle restock taking
 * its order from orders (types, top first, n_orders in all: the pile's
 * cards of those types, whatever shuffle_seed would give).  before[i] (if
 * before is not NULL) receives the state before action i; out the state
 * after the last.  RK_ERR_ARG when an action does not apply or the orders
 * do not fit the piles. */
rk_status rk_table_replay(const rk_table_rules *rules, const uint8_t *deck, int dealer, unsigned absent,
                          uint64_t shuffle_seed, const int32_t *actions, int n, const uint8_t *orders, int n_orders,
                          rk_table_memo *memo, rk_table_state *before, rk_table_state *out);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_TABLE_H */
