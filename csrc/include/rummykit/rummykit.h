/*
 * rummykit core: melds, deadwood, discards and lay-offs on card bitmasks.
 *
 * Plain C99, no Python.  Every function is pure: const inputs, caller-owned
 * outputs, status codes for errors; no allocation, printing, aborting or
 * mutable globals, so any call may run concurrently and without the GIL.
 *
 * PUBLIC CARD IDS AND MASK LAYOUT (one 52-card deck)
 *
 *   card id = suit * 13 + rank          mask bit = 1 << card id
 *
 *   rank:  A  2  3  4  5  6  7  8  9  T  J  Q  K
 *          0  1  2  3  4  5  6  7  8  9 10 11 12
 *
 *   suit   | ids    | A  2  3  4  5  6  7  8  9  T  J  Q  K
 *   -------+--------+---------------------------------------
 *   C  0   |  0..12 | 0  1  2  3  4  5  6  7  8  9 10 11 12
 *   D  1   | 13..25 | 13 14 15 16 17 18 19 20 21 22 23 24 25
 *   H  2   | 26..38 | 26 27 28 29 30 31 32 33 34 35 36 37 38
 *   S  3   | 39..51 | 39 40 41 42 43 44 45 46 47 48 49 50 51
 *
 * Bits 52..63 must be zero; a mask with any of them set is rejected with
 * RK_ERR_BAD_MASK.  Internally the core works on four 13-bit suit lanes
 * (runs live inside one suit, only sets cross suits), converted once at
 * the boundary.
 *
 * RULES
 * An rk_rules value holds the rules parameters (ace mode, card values) and
 * the lookup tables derived from them (about 64 KiB).  Initialise it once
 * with rk_rules_init() and share it read-only between threads.
 *   - RK_ACES_LOW:  A-2-3 is a run, Q-K-A is not (Gin, Oklahoma default).
 *   - RK_ACES_HIGH: Q-K-A is a run, A-2-3 is not (Kaluki).
 *   - RK_ACES_BOTH: either, never K-A-2.
 * Melds: sets of 3 or 4 cards of one rank; runs of 3 or more cards of one
 * suit in consecutive rank order.  Card values are 1..255 per rank.
 *
 * ARRANGEMENTS
 * An arrangement is a collection of disjoint melds; its deadwood is the sum
 * of the values of the other cards.  Arrangements are canonical: two runs of
 * one suit that could be joined into one run are always reported joined.
 * When several arrangements are optimal, the one reported is the first in
 * a fixed enumeration order (ranks from the lowest up; at each rank a set
 * is preferred to extending runs, and both to leaving cards as deadwood).
 *
 * MULTI-DECK HANDS (Kaluki: two decks plus jokers; the rk_multi_* functions)
 *
 *   card type = the single-deck card id 0..51, plus RK_JOKER = 52
 *
 *   rk_multi_hand { rk_mask one, two; int jokers; }
 *     one     bit t set: at least one copy of card type t is held
 *     two     bit t set: two copies of card type t are held  (two is a subset of one)
 *     jokers  0..RK_MULTI_MAX_JOKERS jokers held
 *   Both masks use the single-deck layout above (bits 52..63 zero), so a
 *   one-deck hand is the multi hand {mask, 0, 0} and the single-deck
 *   kernels are untouched.  Counts per type (uint8_t[53], index 52 = the
 *   jokers) convert with rk_multi_hand_from_counts().
 *
 * Multi-deck melds (docs/rules.md, Card values and runs, Melds, Kaluki): a set is 3 or 4 cards
 * of one rank whose natural cards have distinct suits, jokers standing for
 * missing suits; a run is 3..13 cards of one suit in consecutive rank order,
 * aces high only (Q-K-A, never A-2-3) unless ace_low_runs, never wrapping
 * (K-A-2), each joker standing for one definite card.  Every meld holds at
 * least one natural card (the rules say so of sets; the engine requires it
 * of runs too).  A meld's opening value counts each card as the card it
 * stands for (rk_multi_rules.values; an ace at the bottom of an A-2-3 run
 * counts 1); a card left in hand costs its value, a joker joker_penalty.
 * Among the melds with the same natural cards and the same number of jokers
 * the engine always places the jokers for the highest value (as high in the
 * run as they fit, then below it; a set rather than a run when both fit and
 * the set is worth at least as much).
 */
#ifndef RUMMYKIT_H
#define RUMMYKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RK_NUM_RANKS 13
#define RK_NUM_SUITS 4
#define RK_NUM_CARDS 52
#define RK_DECK_MASK ((rk_mask)0xFFFFFFFFFFFFFull) /* bits 0..51 */
#define RK_MAX_MELDS 17                           /* 52 / 3 */
#define RK_SUIT_PATTERNS 8192                     /* 2^13 */

typedef uint64_t rk_mask;

typedef enum rk_status {
    RK_OK = 0,
    RK_ERR_ARG = -1,      /* a NULL pointer or an out-of-range argument */
    RK_ERR_BAD_MASK = -2, /* bits outside the deck */
    RK_ERR_BAD_MELD = -3, /* a meld that is not a valid set or run */
    RK_ERR_OVERLAP = -4,  /* cards used twice (melds overlap, or meld vs hand) */
    RK_ERR_CAPACITY = -5, /* the output buffer is too small (partial output) */
    RK_ERR_EMPTY = -6,    /* nothing to choose from (e.g. no card to discard) */
    RK_ERR_NO_KNOCK = -7, /* no arrangement within the knock limit */
    RK_ERR_NO_MELD = -8   /* the card that must be used cannot be melded */
} rk_status;

typedef enum rk_aces { RK_ACES_LOW = 0, RK_ACES_HIGH = 1, RK_ACES_BOTH = 2 } rk_aces;

typedef enum rk_meld_kind { RK_MELD_NONE = 0, RK_MELD_SET = 1, RK_MELD_RUN = 2 } rk_meld_kind;

typedef struct rk_rules {
    rk_aces aces;
    uint8_t values[RK_NUM_RANKS];
    /* per 13-bit suit pattern (bit = rank): */
    uint16_t run_deadwood[RK_SUIT_PATTERNS]; /* least deadwood using runs only */
    uint16_t run_capable[RK_SUIT_PATTERNS];  /* cards that lie in some run */
    /* The best single card to drop from pattern p, as one sortable key:
     * (run_deadwood[p - c] - run_deadwood[p] + RK_DROP_OFFSET) << 14
     *   | (255 - value of c) << 6 | (63 - rank of c);
     * the smallest key is the least deadwood, then the highest value, then
     * the highest rank (UINT32_MAX for the empty pattern). */
    uint32_t drop_key[RK_SUIT_PATTERNS];
} rk_rules;

#define RK_DROP_OFFSET 4096

typedef struct rk_arrangement {
    int n_melds;
    int deadwood;
    rk_mask melds[RK_MAX_MELDS]; /* ordered by lowest card id */
    rk_mask deadwood_cards;
} rk_arrangement;

typedef struct rk_layoff_result {
    int deadwood;                        /* defender's final deadwood */
    int n_knocker_melds;
    rk_mask laid_off[RK_MAX_MELDS];      /* cards laid off on knocker meld i */
    rk_mask laid_off_all;                /* union of laid_off[] */
    rk_arrangement rest;                 /* defender's own melds afterwards */
} rk_layoff_result;

typedef struct rk_knock_choice {
    rk_arrangement knocker;   /* the arrangement to show */
    rk_layoff_result defender;/* the defender's best reply to it */
    int margin;               /* defender deadwood - knocker deadwood */
    int n_candidates;         /* legal arrangements considered */
} rk_knock_choice;

/* Flags for rk_choose_knock. */
#define RK_KNOCK_MIN_DEADWOOD_ONLY 1u /* consider only least-deadwood arrangements (docs/rules.md, D26) */
#define RK_KNOCK_NO_LAYOFFS 2u        /* the defender may not lay off (layoff-ban variant) */

/* ---- rules ---------------------------------------------------------- */

/* Fill *rules for an ace mode and per-rank card values (NULL: A=1, 2-9 face,
 * T-K=10).  Values must be 1..255.  Takes about a millisecond. */
rk_status rk_rules_init(rk_rules *rules, rk_aces aces, const uint8_t values[RK_NUM_RANKS]);

/* ---- cards and melds ------------------------------------------------ */

int rk_card_count(rk_mask mask);
/* Deadwood value of the cards in mask (no melding), or a negative status. */
int rk_mask_value(const rk_rules *rules, rk_mask mask);
/* RK_MELD_SET, RK_MELD_RUN or RK_MELD_NONE for the cards of mask. */
rk_meld_kind rk_meld_kind_of(const rk_rules *rules, rk_mask mask);
/* Every meld contained in hand, ordered by (lowest card id, size).  Writes
 * at most capacity masks; *count receives the total number (so a second
 * call can size the buffer).  RK_ERR_CAPACITY if it did not fit. */
rk_status rk_enumerate_melds(const rk_rules *rules, rk_mask hand, rk_mask *out, size_t capacity,
                             size_t *count);

/* ---- deadwood ------------------------------------------------------- */

/* Least deadwood of a hand of any size, or a negative status. */
int rk_deadwood(const rk_rules *rules, rk_mask hand);
/* One optimal arrangement (see ARRANGEMENTS for the tie-break). */
rk_status rk_best_arrangement(const rk_rules *rules, rk_mask hand, rk_arrangement *out);
/* Every canonical arrangement whose deadwood is <= max_deadwood, or, when
 * max_deadwood < 0, every optimal one; same count/capacity contract as
 * rk_enumerate_melds.  Order: the enumeration order described above. */
rk_status rk_arrangements(const rk_rules *rules, rk_mask hand, int max_deadwood,
                          rk_arrangement *out, size_t capacity, size_t *count);
/* rk_arrangements, stopping as soon as there are more than capacity: the
 * same first capacity arrangements in out and RK_ERR_CAPACITY (with *count =
 * capacity + 1), else RK_OK and *count.  The search visits each result once
 * with no dead ends, so its time grows with capacity, not with the number
 * of arrangements (313,457 optimal ones for the whole deck). */
rk_status rk_arrangements_at_most(const rk_rules *rules, rk_mask hand, int max_deadwood,
                                  rk_arrangement *out, size_t capacity, size_t *count);

/* ---- discards ------------------------------------------------------- */

/* Least deadwood after discarding one card other than `forbidden` (a card
 * id, or -1 for none), computed in one pass.  *card receives the discard:
 * among equal results, the highest-valued card, then the highest card id.
 * If after is not NULL, after[id] receives the deadwood left by discarding
 * card id (for every card in hand, forbidden included; -1 for cards not
 * in hand).  RK_ERR_EMPTY if no card may be discarded. */
rk_status rk_best_discard(const rk_rules *rules, rk_mask hand, int forbidden, int *card,
                          int *deadwood, int16_t after[RK_NUM_CARDS]);

/* ---- lay-offs (Gin family, docs/rules.md, Deadwood and lay-offs) --------------------------- */

/* The defender's least final deadwood when they may first lay cards off on
 * the knocker's melds (a 3-set takes its 4th card; runs extend at either
 * end, chained) and then meld the rest.  Among equally good results the one
 * laying off the fewest cards is chosen, then the first in a fixed order. */
rk_status rk_layoff(const rk_rules *rules, const rk_mask *knocker_melds, size_t n_melds,
                    rk_mask defender, rk_layoff_result *out);
/* The same least final deadwood alone (no arrangement built): the hot call
 * of playouts.  Returns it, or a negative status. */
int rk_layoff_deadwood(const rk_rules *rules, const rk_mask *knocker_melds, size_t n_melds,
                       rk_mask defender);

/* The knocker's arrangement that gives a known defender the worst result:
 * the largest margin (defender deadwood - knocker deadwood), among the arrangements of
 * `knocker` with deadwood <= limit (only the least-deadwood ones with
 * RK_KNOCK_MIN_DEADWOOD_ONLY).  A hand that can go gin only considers gin
 * arrangements, which take no lay-offs.  Ties: the smaller knocker
 * deadwood, then the lexicographically smallest sorted list of melds
 * (each meld read as its sorted card ids).  RK_ERR_NO_KNOCK if the hand
 * cannot knock. */
rk_status rk_choose_knock(const rk_rules *rules, rk_mask knocker, rk_mask defender, int limit,
                          unsigned flags, rk_knock_choice *out);

/* ---- batches -------------------------------------------------------- */

/* out[i] = rk_deadwood(hands[i]).  On a bad mask, stops and stores its
 * index in *bad_index (if not NULL) and returns RK_ERR_BAD_MASK. */
rk_status rk_deadwood_batch(const rk_rules *rules, const rk_mask *hands, size_t n, int16_t *out,
                            size_t *bad_index);
/* deadwood[i], card[i] = rk_best_discard(hands[i], no forbidden card). */
rk_status rk_best_discard_batch(const rk_rules *rules, const rk_mask *hands, size_t n,
                                int16_t *deadwood, int8_t *card, size_t *bad_index);

/* ---- multi-deck hands with jokers (Kaluki; layout above) ------------ */

#define RK_JOKER 52
#define RK_NUM_TYPES 53            /* 52 natural card types + the joker */

/* The public history both families' states keep for the observation's history planes
 * (rk_position.recent, rk_table_state.recent): per seat and kind, its last RK_RECENT moves of
 * the kind, newest first. */
#define RK_RECENT 8
#define RK_RECENT_KINDS 3
#define RK_RECENT_DISCARD 0
#define RK_RECENT_TAKE 1
#define RK_RECENT_PASS 2
#define RK_MULTI_MAX_JOKERS 4
#define RK_MULTI_MAX_MELDS 36      /* (104 + 4) / 3 */
#define RK_MULTI_MAX_MELD_CARDS 13

typedef struct rk_multi_hand {
    rk_mask one; /* types held at least once */
    rk_mask two; /* types held twice (a subset of one) */
    int jokers;  /* 0..RK_MULTI_MAX_JOKERS */
} rk_multi_hand;

typedef struct rk_multi_rules {
    int ace_low_runs;                 /* 0: aces high only (Q-K-A); 1: A-2-3 too */
    int joker_penalty;                /* cost of a joker left in hand, 0..255 */
    uint8_t values[RK_NUM_RANKS];     /* card values: penalty and opening count */
} rk_multi_rules;

typedef enum rk_multi_objective {
    RK_MULTI_PENALTY = 0, /* least penalty left in hand, then the larger meld value */
    RK_MULTI_VALUE = 1    /* largest meld value (opening count), then the least penalty */
} rk_multi_objective;

typedef struct rk_multi_meld {
    rk_meld_kind kind;                          /* RK_MELD_SET or RK_MELD_RUN */
    int n_cards;                                /* 3..13 */
    int n_jokers;
    int value;                                  /* opening value */
    int8_t cards[RK_MULTI_MAX_MELD_CARDS];      /* types; RK_JOKER where a joker stands */
    int8_t represents[RK_MULTI_MAX_MELD_CARDS]; /* the natural type each position stands for */
} rk_multi_meld;
/* Meld order: a run from its lowest rank up (an ace last in Q-K-A, first
 * in A-2-3); a set's natural cards by suit, then its jokers, which stand
 * for the missing suits from the lowest up. */

typedef struct rk_multi_arrangement {
    int n_melds;
    int value;                               /* sum of the melds' values */
    int penalty;                             /* cost of the cards left in hand */
    rk_multi_meld melds[RK_MULTI_MAX_MELDS]; /* in order of their lowest natural type */
    rk_multi_hand left;                      /* the cards left in hand */
} rk_multi_arrangement;

/* Kaluki's card values by rank (A 11, 2-9 face value, T-K 10; static storage): the one copy,
 * read by the table rules check and rummykit.table.melds. */
const uint8_t *rk_kaluki_values(void);

/* Fill *rules: ace_low_runs 0 or 1, joker_penalty 0..255, values per rank
 * 1..255 (NULL: rk_kaluki_values). */
rk_status rk_multi_rules_init(rk_multi_rules *rules, int ace_low_runs, int joker_penalty,
                              const uint8_t values[RK_NUM_RANKS]);

/* RK_OK if the hand is valid: masks inside the deck, two a subset of one,
 * 0..RK_MULTI_MAX_JOKERS jokers (RK_ERR_BAD_MASK otherwise). */
rk_status rk_multi_hand_check(rk_multi_hand hand);
/* counts[t] = copies of type t (0..2; counts[RK_JOKER] = 0..4 jokers). */
rk_status rk_multi_hand_from_counts(const uint8_t counts[RK_NUM_TYPES], rk_multi_hand *out);

/* The best collection of disjoint melds from the hand for the objective
 * (exact: a depth-first search over the lowest undecided natural card with
 * an optimistic bound).  include = -1, or a card type (RK_JOKER: any joker)
 * of which at least one copy must be melded; RK_ERR_NO_MELD if it cannot
 * be, RK_ERR_ARG if the hand does not hold it.  Among equally good
 * arrangements the first in the search order is reported: at the lowest
 * natural card, melds before leaving it in hand; sets (fewer natural
 * cards, then fewer jokers first) before runs (longer natural reach
 * first), so that results are deterministic.  The time grows quickly with
 * the hand size: it is meant for hands of up to about 20 cards. */
rk_status rk_multi_best(const rk_multi_rules *rules, rk_multi_hand hand, rk_multi_objective objective,
                        int include, rk_multi_arrangement *out);
/* The least penalty alone (no arrangement built), or a negative status. */
int rk_multi_penalty(const rk_multi_rules *rules, rk_multi_hand hand);
/* out[i] = rk_multi_penalty(hand of row i), counts = n rows of
 * RK_NUM_TYPES counts.  On a bad row, stops, stores its index in
 * *bad_index (if not NULL) and returns RK_ERR_BAD_MASK. */
rk_status rk_multi_penalty_batch(const rk_multi_rules *rules, const uint8_t *counts, size_t n, int32_t *out,
                                 size_t *bad_index);

/* How a rules option sets an (int) field of a rules record (rk_knock_rules, rk_table_rules): the
 * one schema of an option's range and choices, read by the bindings. */
typedef enum rk_field_type {
    RK_FIELD_INT = 0,         /* an integer option */
    RK_FIELD_INT_OR_NONE = 1, /* an integer option or None, stored as -1 */
    RK_FIELD_FLAG = 2,        /* a true/false option: 0 or 1 */
    RK_FIELD_IS = 3,          /* a text option: 1 when it equals text, else 0 */
    RK_FIELD_CHOICE = 4       /* a text option: its index in text, a '|'-separated list */
} rk_field_type;

typedef struct rk_field {
    const char *name;   /* the option (a KnockRules or TableRules attribute) */
    size_t offset;      /* of the int field in the rules record */
    rk_field_type type;
    int lo, hi;         /* the values the field accepts */
    const char *text;   /* RK_FIELD_IS and RK_FIELD_CHOICE: the text; RK_FIELD_INT and
                         * RK_FIELD_INT_OR_NONE: NULL, or the '|'-separated values the option offers
                         * (within lo..hi; -1 of RK_FIELD_INT_OR_NONE is None), the engine playing
                         * any value of the range */
} rk_field;

/* A short description of a status code (static storage). */
const char *rk_status_message(rk_status status);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_H */
