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

/* Fill *rules: ace_low_runs 0 or 1, joker_penalty 0..255, values per rank
 * 1..255 (NULL: Kaluki values A 11, 2-9 face value, T-K 10). */
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

/* ---- playouts (knock games: Gin, Oklahoma Gin, Oklahoma Rummy) ------ */

/*
 * A playout plays one hand from a position to its end with a built-in
 * policy for every seat, then scores it with the full rules: the knocker's
 * arrangement (docs/rules.md, D26), optimal lay-offs, undercuts, the spade
 * multiplier, big gin and the stock-floor rules.  It is the state machine of
 * rummykit.knock.state.KnockState (docs/rules.md, Decision points) with automatic
 * showdown; the same deck, options and policy reach the same end and the
 * same points in both engines.
 *
 * RANDOMNESS: rk_rng is splitmix64 (Steele, Lea and Flood 2014): a 64-bit
 * state advanced by 0x9E3779B97F4A7C15 and mixed on output.  rk_rng_seed
 * mixes a seed and a stream number into the state, so (seed, i) gives an
 * independent-looking sequence for every playout i.  rk_rng_below(n) is
 * Lemire's unbiased multiply-and-reject on the high 32 bits.  A shuffle is
 * Fisher-Yates from the last position down: for i = n-1..1 swap a[i] with
 * a[rk_rng_below(i + 1)].  The generator state is passed by pointer; there
 * is no global state.
 *
 * RESTOCKS (stock_end_rule reshuffle, docs/rules.md, Restocking reshuffle_keep_top): the
 * discard pile but its top card is shuffled with rk_restock_shuffle(hand's
 * shuffle seed, restock index, pile) and becomes the stock, the pile's
 * bottom card first (so the last card of the shuffled array is the new top
 * of the stock).  The Python engine calls the same function.
 */

#define RK_MAX_PLAYERS 4

typedef struct rk_rng {
    uint64_t state;
} rk_rng;

/* Seed a generator from a seed and a stream number. */
void rk_rng_seed(rk_rng *rng, uint64_t seed, uint64_t stream);
/* The next 64 random bits. */
uint64_t rk_rng_next(rk_rng *rng);
/* A uniform integer in [0, n) (n >= 1). */
uint32_t rk_rng_below(rk_rng *rng, uint32_t n);
/* Shuffle n cards in place (Fisher-Yates as above). */
void rk_rng_shuffle(rk_rng *rng, uint8_t *cards, size_t n);
/* The restock shuffle: rk_rng_seed(seed, restock) then rk_rng_shuffle. */
void rk_restock_shuffle(uint64_t seed, int restock, uint8_t *cards, size_t n);

/* Phases: the values of rummykit.knock.state.Phase. */
typedef enum rk_phase {
    RK_PHASE_OFFER_NONDEALER = 0,
    RK_PHASE_OFFER_DEALER = 1,
    RK_PHASE_FORCED_STOCK_DRAW = 2,
    RK_PHASE_DRAW = 3,
    RK_PHASE_DISCARD = 4,     /* discard or knock */
    RK_PHASE_LAST_CHANCE = 5, /* dead_at_2_last_chance: take the discard to knock, or pass */
    RK_PHASE_KNOCK_ONLY = 6,  /* after taking the last-chance discard */
    RK_PHASE_SHOWDOWN = 7,    /* manual showdown: not played by rk_playout */
    RK_PHASE_END = 8
} rk_phase;

/* Action ids: those of rummykit.knock.actions (discard = card id). */
#define RK_ACTION_KNOCK 52 /* + card id */
#define RK_ACTION_DRAW_STOCK 104
#define RK_ACTION_TAKE 105
#define RK_ACTION_PASS 106
#define RK_ACTION_BIG_GIN 107
#define RK_MAX_LEGAL 108 /* more than any phase's legal actions */

typedef enum rk_stock_end {
    RK_STOCK_DEAD_AT_2 = 0,
    RK_STOCK_DEAD_AT_2_LAST_CHANCE = 1,
    RK_STOCK_DEAD_ON_DRAW = 2,
    RK_STOCK_RESHUFFLE = 3
} rk_stock_end;

typedef enum rk_base_game {
    RK_GAME_GIN = 0,
    RK_GAME_OKLAHOMA_GIN = 1,
    RK_GAME_OKLAHOMA_RUMMY = 2
} rk_base_game;

/* The options of docs/rules.md, Dealing and turn options, Knock options, Knock scoring options that change play or a hand's points
 * (names as in rummykit.knock.rules.KnockRules; flags are 0 or 1). */
typedef struct rk_playout_rules {
    int num_players;               /* 2, 3 or 4 */
    int upcard_offer;              /* first_turn_procedure == "upcard_offer" (used by rk_position_deal) */
    int forbid_taken_discard;      /* forbid_discarding_taken_card */
    int refused_upcard_set_aside;  /* refused_upcard_set_aside */
    rk_stock_end stock_end;        /* stock_end_rule */
    int max_restocks;              /* -1: unlimited */
    int max_turns;                 /* -1: no cap */
    int limit_from_upcard;         /* knock_limit_mode == "upcard" */
    int knock_limit;               /* knock_limit (fixed mode) */
    int knock_compare_lt;          /* knock_compare == "lt" */
    int ace_upcard_gin_only;       /* ace_upcard_gin_only */
    int spade_multiplier;          /* 1, 2 or 3 */
    int allow_layoff_on_knock;     /* allow_layoff_on_knock */
    int layoff_onto_prior_layoffs; /* layoff_onto_prior_layoffs */
    int best_score_arrangement;    /* knocker_arrangement == "best_score" */
    int classic_two_player;        /* scoring_model == "classic_two_player" */
    int undercut_on_tie;           /* undercut_on_tie */
    /* the docs/rules.md "Multi-player scoring models" hand-scoring parameters */
    int knock_bonus, undercut_bonus, gin_bonus;
    int big_gin_bonus; /* -1: big gin is off */
    int collect_differences, losers_charged;
    int gin_loser_multiplier, gin_loser_extra, undercut_knocker_extra;
} rk_playout_rules;

/* A hand in progress (the fields of KnockState that play needs). */
typedef struct rk_position {
    rk_mask hands[RK_MAX_PLAYERS];
    uint8_t stock[RK_NUM_CARDS];    /* stock[n_stock - 1] is the top */
    uint8_t discards[RK_NUM_CARDS]; /* discards[n_discards - 1] is the top */
    int n_stock, n_discards;
    int dealer, player;
    rk_phase phase;
    int upcard;   /* the hand's original upcard: knock limit, gin-only rule, multiplier */
    int taken;    /* card taken from the discard pile this turn, or -1 */
    int restocks; /* restocks so far */
    int turns;    /* completed turns */
    uint64_t shuffle_seed; /* seeds the restocks */
} rk_position;

typedef enum rk_policy_kind { RK_POLICY_RANDOM = 0, RK_POLICY_GREEDY = 1 } rk_policy_kind;

/* RK_POLICY_RANDOM: a uniform legal action (needs an rng).
 * RK_POLICY_GREEDY (rummykit.agents.GreedyAgent), with H the hand to move:
 *  - offer and draw: take the top discard t iff min over c in H of the
 *    least deadwood of H + t - c is below the least deadwood of H; else
 *    pass (offer) or draw from the stock; a forced stock draw draws;
 *  - last chance: take iff taking is legal;
 *  - discard and knock-only: big gin if legal; else the card c (not the
 *    forbidden taken card) with the least deadwood of H - c, ties to the
 *    highest card value then the highest card id (rk_best_discard); knock
 *    with it if that knock is legal and (max_knock_deadwood < 0 or its
 *    deadwood <= max_knock_deadwood), else discard it; knock-only knocks. */
typedef struct rk_policy {
    rk_policy_kind kind;
    int max_knock_deadwood; /* greedy: -1 knocks as soon as allowed, 0 gin only */
} rk_policy;

/* Outcome codes (rummykit.playouts.GIN, ...). */
#define RK_OUTCOME_DEAD 0
#define RK_OUTCOME_GIN 1
#define RK_OUTCOME_BIG_GIN 2
#define RK_OUTCOME_KNOCK 3
#define RK_OUTCOME_UNDERCUT 4

typedef struct rk_playout_result {
    int outcome;                     /* RK_OUTCOME_* */
    int knocker, winner;             /* seats, -1 for a dead hand */
    int points[RK_MAX_PLAYERS];      /* per seat, after the multiplier (0 for a dead hand) */
    int deadwood[RK_MAX_PLAYERS];    /* per seat, final (after lay-offs); 0 for a dead hand */
    int multiplier;
    int actions;                     /* actions played */
} rk_playout_result;

/* The hidden part of a position for determinization: slot k receives one
 * card of its group; the cards of each group (slots group_end[g-1] ..
 * group_end[g] - 1, from 0) are shuffled among the group's slots.  dest[k]
 * is a seat, or RK_DEST_STOCK for the stock (stock slots are pushed in slot
 * order after the stock cards already in the position). */
#define RK_DEST_STOCK 255
typedef struct rk_hidden {
    int n_slots, n_groups;
    uint8_t cards[RK_NUM_CARDS];
    uint8_t dest[RK_NUM_CARDS];
    uint8_t group_end[RK_NUM_CARDS];
} rk_hidden;

/* The options of a base game with its defaults (KnockRules' BASE_GAMES). */
rk_status rk_playout_rules_init(rk_playout_rules *pr, rk_base_game game, int num_players);
/* Deal a fresh hand from a deck (52 distinct card ids, top first) exactly as
 * KnockState does: one card at a time from the dealer's left, then the
 * upcard, the rest is the stock. */
rk_status rk_position_deal(const rk_playout_rules *pr, const uint8_t deck[RK_NUM_CARDS], int dealer,
                           uint64_t shuffle_seed, rk_position *pos);
/* RK_OK if pos is a playable position under rules pr: pr within what
 * KnockRules can express (flags 0 or 1, integer options 0..1000000,
 * spade_multiplier 1..3), cards disjoint and in the deck, no hand over its
 * deal size + 1, the phase before the end (not the manual showdown), a
 * top discard in the offer and last-chance phases, seats in range, turns
 * and restocks 0..2^30.  Every function below that takes a position checks
 * it first (RK_ERR_ARG, RK_ERR_BAD_MASK or RK_ERR_OVERLAP otherwise). */
rk_status rk_position_check(const rk_playout_rules *pr, const rk_position *pos);
/* The legal actions now, sorted (as KnockState.legal_actions); returns their
 * number (0 at the end) or a negative status. */
int rk_legal_actions(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *pos,
                     int actions[RK_MAX_LEGAL]);
/* The policy's action now (an rng is needed for RK_POLICY_RANDOM). */
int rk_policy_action(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *pos,
                     rk_policy policy, rk_rng *rng);
/* Apply a legal action; when it ends the hand, *out (if not NULL) receives
 * the result and pos->phase becomes RK_PHASE_END.  An action that is not
 * legal now gives RK_ERR_ARG and leaves pos as it was. */
rk_status rk_apply_action(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos,
                          int action, rk_playout_result *out);
/* Play pos to the end of the hand with the policy for every seat and score
 * it.  pos is left at the end. */
rk_status rk_playout(const rk_rules *rules, const rk_playout_rules *pr, rk_position *pos,
                     rk_policy policy, rk_rng *rng, rk_playout_result *out);
/* Score a knock (auto showdown): hands in knock order (the knocker's final
 * cards first, then the defenders in turn order), upcard as in the
 * position; results in knock order. */
rk_status rk_score_knock(const rk_rules *rules, const rk_playout_rules *pr, const rk_mask *hands,
                         int upcard, int big_gin, rk_playout_result *out);
/* Playouts first .. first + n - 1 from determinizations of known + hidden
 * (hidden NULL: no resampling): playout i seeds an rk_rng with (seed, i),
 * deals the hidden cards, draws a fresh restock seed when hidden is given,
 * and plays.  points[i * num_players + seat], outcomes[i].  Results depend
 * on (seed, i) only, so any split over threads gives the same arrays. */
rk_status rk_playouts(const rk_rules *rules, const rk_playout_rules *pr, const rk_position *known,
                      const rk_hidden *hidden, rk_policy policy, uint64_t seed, size_t first,
                      size_t n, int32_t *points, uint8_t *outcomes);

/* A short description of a status code (static storage). */
const char *rk_status_message(rk_status status);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_H */
