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

#include "rummykit/rummykit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RK_TABLE_MAX_PLAYERS 6
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

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_TABLE_H */
