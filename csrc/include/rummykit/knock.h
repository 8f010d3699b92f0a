/*
 * rummykit knock games (Gin, Oklahoma Gin, Oklahoma Rummy): the hand state
 * machine behind rummykit.knock.state.KnockState (docs/rules.md, Decision
 * points) with the automatic or the manual showdown, partnerships and
 * explicit knocker melds, and the scoring of a knock: the knocker's
 * arrangement (docs/rules.md, D26), optimal lay-offs, undercuts, the spade
 * multiplier, big gin, boxes and the stock-floor rules.  The plain Python
 * oracle tests/reference/knock.py reaches the same legal actions, end and
 * result from the same deck, options and actions (tests/knock/test_core.py,
 * knock/test_playouts.py, knock/test_shown_melds.py).
 *
 * RESTOCKS (stock_end_rule reshuffle, docs/rules.md, Restocking reshuffle_keep_top): the
 * discard pile but its top card is shuffled with rk_restock_shuffle(hand's
 * shuffle seed, restock index, pile) and becomes the stock, the pile's
 * bottom card first (so the last card of the shuffled array is the new top
 * of the stock).  The reference engine in tests/ calls the same function.
 */
#ifndef RUMMYKIT_KNOCK_H
#define RUMMYKIT_KNOCK_H

#include "rummykit/rng.h"
#include "rummykit/rummykit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RK_MAX_PLAYERS 4

/* Phases: the values of rummykit.knock.state.Phase. */
typedef enum rk_phase {
    RK_PHASE_OFFER_NONDEALER = 0,
    RK_PHASE_OFFER_DEALER = 1,
    RK_PHASE_FORCED_STOCK_DRAW = 2,
    RK_PHASE_DRAW = 3,
    RK_PHASE_DISCARD = 4,     /* discard or knock */
    RK_PHASE_LAST_CHANCE = 5, /* dead_at_2_last_chance: take the discard to knock, or pass */
    RK_PHASE_KNOCK_ONLY = 6,  /* after taking the last-chance discard */
    RK_PHASE_SHOWDOWN = 7,    /* manual showdown (auto_showdown 0): the defenders declare */
    RK_PHASE_END = 8
} rk_phase;

/* Action ids: those of rummykit.knock.actions (discard = card id). */
#define RK_ACTION_KNOCK 52 /* + card id */
#define RK_ACTION_DRAW_STOCK 104
#define RK_ACTION_TAKE 105
#define RK_ACTION_PASS 106
#define RK_ACTION_BIG_GIN 107
#define RK_ACTION_MELD 108   /* + the meld's index in rummykit.knock.actions.MELD_TABLE */
#define RK_NUM_MELD_IDS 369  /* every meld of the deck, aces low or high */
#define RK_ACTION_LAYOFF 477 /* + card id * RK_LAYOFF_SLOTS + the knocker's meld slot */
#define RK_LAYOFF_SLOTS 4    /* the knocker shows at most 3 melds (11 cards) */
#define RK_ACTION_DONE 685   /* a defender ends its declaration */
/* More than any phase's legal actions: in the showdown at most 45 melds
 * (11 cards of one suit) + 11 * 3 lay-offs + done. */
#define RK_MAX_LEGAL 108

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
typedef struct rk_knock_rules {
    int num_players;               /* 2, 3 or 4 */
    int upcard_offer;              /* first_turn_procedure == "upcard_offer" (used by rk_position_deal) */
    int forbid_taken_discard;      /* forbid_discarding_taken_card */
    int refused_upcard_set_aside;  /* refused_upcard_set_aside */
    int stock_end;                 /* stock_end_rule: an rk_stock_end */
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
    int auto_showdown;             /* auto_showdown (0: the defenders declare, RK_PHASE_SHOWDOWN) */
    int partnerships;              /* partnerships: seats 0+2 against 1+3 (4 players) */
    /* the docs/rules.md "Multi-player scoring models" hand-scoring parameters */
    int knock_bonus, undercut_bonus, gin_bonus;
    int big_gin_bonus; /* -1: big gin is off */
    int collect_differences, losers_charged;
    int gin_loser_multiplier, gin_loser_extra, undercut_knocker_extra;
    /* boxes (hands-won credits): extra ones for gin and undercut, doubled with the spade multiplier */
    int gin_extra_boxes, undercut_extra_boxes, spade_double_boxes;
} rk_knock_rules;

/* The field table: one entry per field of rk_knock_rules, in struct order
 * (static storage); *n (if not NULL) receives the number of entries.  A
 * binding fills the struct from a KnockRules by walking it. */
const rk_field *rk_knock_rules_fields(size_t *n);

/* The scoring models (docs/rules.md, Multi-player scoring models; the choices of the
 * scoring_model option): rk_knock_scoring_model_name(m) is the name of model m (NULL past the
 * last; 0 is classic_two_player), and rk_knock_scoring_model_apply sets the options of
 * rk_knock_scoring_model_options (static storage, *n entries) to model m's values, and
 * classic_two_player.  rk_knock_rules_init applies its base game's model. */
const char *rk_knock_scoring_model_name(int model);
const char *const *rk_knock_scoring_model_options(size_t *n);
rk_status rk_knock_scoring_model_apply(rk_knock_rules *pr, int model);

/* A hand in progress (the fields of KnockState that play needs; RK_RECENT: rummykit.h). */
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
    /* what the others saw (KnockState.known, set_aside, knock_card) */
    rk_mask known[RK_MAX_PLAYERS]; /* per seat: cards seen taken from the pile and not discarded since */
    int set_aside;                 /* the refused upcard set aside, or -1 */
    int knock_card;                /* the knocker's face-down discard, or -1 */
    /* the knock: set by every knock and big gin (knocker -1 before); the
     * knocker's melds are kept for the manual showdown and for any knock
     * with explicit melds (shown_given 1) */
    int knocker, big_gin, shown_given;
    int can_lay_off;        /* not after gin, nor without allow_layoff_on_knock */
    int n_shown, shown_deadwood;
    rk_mask shown[RK_LAYOFF_SLOTS];  /* the knocker's melds, in the order shown */
    rk_mask table[RK_LAYOFF_SLOTS];  /* the same as the defender to move may extend them */
    rk_mask used[RK_MAX_PLAYERS];    /* per seat: cards declared (melded or laid off) */
    /* the public history, newest first: per seat and kind (RK_RECENT_DISCARD, _TAKE, _PASS: the
     * top discard it declined, passing an offer or the last chance or drawing from the stock in
     * the draw phase) the cards of its last RK_RECENT such moves, as card id + 1 (0: none) */
    uint8_t recent[RK_MAX_PLAYERS][RK_RECENT_KINDS][RK_RECENT];
} rk_position;

/* Outcome codes (rummykit.playouts.GIN, ...). */
#define RK_OUTCOME_DEAD 0
#define RK_OUTCOME_GIN 1
#define RK_OUTCOME_BIG_GIN 2
#define RK_OUTCOME_KNOCK 3
#define RK_OUTCOME_UNDERCUT 4
/* The name of an outcome code ("dead", "gin", "big_gin", "knock", "undercut"), NULL for any other number. */
const char *rk_knock_outcome_name(int outcome);

typedef struct rk_playout_result {
    int outcome;                     /* RK_OUTCOME_* */
    int knocker, winner;             /* seats, -1 for a dead hand */
    int points[RK_MAX_PLAYERS];      /* per seat, after the multiplier (0 for a dead hand): credits - charges */
    int credits[RK_MAX_PLAYERS];     /* per seat, scoring.HandScore.credits */
    int charges[RK_MAX_PLAYERS];     /* per seat, scoring.HandScore.charges */
    int boxes[RK_MAX_PLAYERS];       /* per seat, boxes won (HandResult.boxes) */
    int knock_limit;                 /* the hand's knock limit */
    int deadwood[RK_MAX_PLAYERS];    /* per seat, final (after lay-offs); 0 for a dead hand */
    int multiplier;
    int actions;                     /* actions played */
} rk_playout_result;

/* The showdown of a knock in detail (what the scores of rk_score_knock
 * and rk_score_knock_shown rest on), knock order: the knocker's
 * arrangement, then for each defender i (1..) the knocker's melds as it
 * found them (with earlier lay-offs under layoff_onto_prior_layoffs), the
 * cards it laid off on each, its own melds and its final deadwood. */
typedef struct rk_knock_details {
    rk_arrangement shown;
    int n_table; /* the knocker's melds (shown.n_melds) */
    rk_mask table[RK_MAX_PLAYERS][RK_MAX_MELDS];
    rk_mask laid_off[RK_MAX_PLAYERS][RK_MAX_MELDS];
    rk_arrangement own[RK_MAX_PLAYERS]; /* own[0]: the knocker's arrangement again */
    int deadwood[RK_MAX_PLAYERS];
} rk_knock_details;

/* The options of a base game with its defaults (KnockRules' BASE_GAMES). */
rk_status rk_knock_rules_init(rk_knock_rules *pr, rk_base_game game, int num_players);
/* The limits a hand's original upcard sets (docs/rules.md, Knock options):
 * out[0] the knock limit, out[1] gin only (an ace upcard), out[2] the spade
 * multiplier, out[3] the most deadwood a knock may leave. */
rk_status rk_knock_limits(const rk_knock_rules *pr, int upcard, int out[4]);
/* Deal a fresh hand from a deck (52 distinct card ids, top first) exactly as
 * KnockState does: one card at a time from the dealer's left, then the
 * upcard, the rest is the stock. */
rk_status rk_position_deal(const rk_knock_rules *pr, const uint8_t deck[RK_NUM_CARDS], int dealer,
                           uint64_t shuffle_seed, rk_position *pos);
/* RK_OK if pos is a playable position under rules pr: pr within what
 * KnockRules can express (flags 0 or 1, integer options 0..1000000,
 * spade_multiplier 1..3), cards disjoint and in the deck, no hand over its
 * deal size + 1, the phase before the end (the manual showdown only with
 * auto_showdown 0, its declared cards within their hands), a top discard
 * in the offer and last-chance phases, seats in range, turns and restocks
 * 0..2^30.  Every function below that takes a position checks
 * it first (RK_ERR_ARG, RK_ERR_BAD_MASK or RK_ERR_OVERLAP otherwise). */
rk_status rk_position_check(const rk_knock_rules *pr, const rk_position *pos);
/* The legal actions now, sorted (as KnockState.legal_actions); returns their
 * number (0 at the end) or a negative status. */
int rk_legal_actions(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                     int actions[RK_MAX_LEGAL]);
/* Apply a legal action (with auto_showdown 0 a knock leads to
 * RK_PHASE_SHOWDOWN, where each defender in turn declares melds
 * (RK_ACTION_MELD + id), lays cards off on the knocker's melds
 * (RK_ACTION_LAYOFF + card * RK_LAYOFF_SLOTS + slot) and ends with
 * RK_ACTION_DONE; its undeclared cards are deadwood).  When the action
 * ends the hand, *out (if not NULL) receives the result and pos->phase
 * becomes RK_PHASE_END.  An action that is not legal now gives RK_ERR_ARG
 * and leaves pos as it was. */
rk_status rk_apply_action(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos,
                          int action, rk_playout_result *out);
/* rk_apply_action for a caller that holds this position's rk_legal_actions
 * (a state wrapper caching them): action must be one of them, and pos must
 * not have changed since; nothing is checked again. */
rk_status rk_apply_legal(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int action,
                         rk_playout_result *out);
/* The knock action RK_ACTION_KNOCK + card with the knocker's own melds
 * (KnockState.knock(card, melds=...)): melds[0 .. n_melds - 1] shown in
 * that order, the rest deadwood; then as rk_apply_action (the score, or the
 * manual showdown on those melds).  RK_ERR_ARG if that knock is not legal
 * now, else rk_score_knock_shown's errors; on any error pos is unchanged. */
rk_status rk_knock_melds(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int card,
                         const rk_mask *melds, int n_melds, rk_playout_result *out);
/* Score a knock (auto showdown): hands in knock order (the knocker's final
 * cards first, then the defenders in turn order), upcard as in the
 * position; results in knock order. */
rk_status rk_score_knock(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                         int upcard, int big_gin, rk_playout_result *out);
/* The arrangement the knocker shows when the engine chooses it (docs/rules.md,
 * D26; reference_knock.knocker_arrangement): after gin the best arrangement, else
 * among the least-deadwood ones (every one within the limit with
 * best_score_arrangement) the one that scores best for the knocker against
 * the defenders' replies, ties to the smaller deadwood, then the smallest
 * sorted list of melds.  Same arguments and errors as rk_score_knock. */
rk_status rk_knock_arrangement(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands, int upcard,
                               int big_gin, rk_arrangement *out);
/* rk_score_knock with the knocker's melds given (KnockState.knock(card,
 * melds=...)): melds[0 .. n_melds - 1] in the order shown, the rest of
 * hands[0] deadwood.  RK_ERR_BAD_MELD for a meld that is not a set or run,
 * RK_ERR_OVERLAP for melds sharing cards or using cards the knocker does
 * not hold, RK_ERR_NO_KNOCK when the hand cannot knock or the melds shown
 * leave too much deadwood (any, for big gin). */
rk_status rk_score_knock_shown(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands, int upcard,
                               int big_gin, const rk_mask *melds, int n_melds, rk_playout_result *out);

/* The result of a finished hand (phase RK_PHASE_END) from its fields, as
 * rk_apply_action gave it when the hand ended; RK_ERR_ARG and the other
 * errors of rk_position_check for fields that no hand can end with. */
rk_status rk_position_result(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                             rk_playout_result *out);
/* The points of one hand (docs/rules.md, "Multi-player scoring models";
 * rummykit.scoring.score_hand) given its outcome (RK_OUTCOME_GIN, BIG_GIN,
 * KNOCK or UNDERCUT) and winner: pr's hand-scoring fields (the bonuses,
 * collect_differences, losers_charged, gin_loser_multiplier and _extra,
 * undercut_knocker_extra; the rest unread), dw[0 .. n - 1] each seat's final
 * deadwood (0..1000000), 2 <= n <= RK_MAX_PLAYERS.  Fills out's points,
 * credits, charges, outcome, winner, knocker and multiplier.  RK_ERR_ARG for
 * arguments out of range, big gin with big_gin_bonus < 0. */
rk_status rk_score_hand(const rk_knock_rules *pr, int n, const int *dw, int knocker, int outcome, int winner,
                        int multiplier, rk_playout_result *out);
/* The details of a knock: hands in knock order, the knocker's melds given
 * (melds[0 .. n_melds - 1], as rk_score_knock_shown) or, with n_melds < 0,
 * the automatic arrangement (as rk_score_knock); the same errors. */
rk_status rk_explain_knock(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands, int upcard,
                          int big_gin, const rk_mask *melds, int n_melds, rk_knock_details *out);

/* Why an action is not legal now (rk_knock_why): 0 (RK_KNOCK_LEGAL) for a legal action, else the
 * rule that forbids it.  rummykit.knock.reasons words each code for people. */
typedef enum rk_knock_reason {
    RK_KNOCK_LEGAL = 0,
    RK_KNOCK_WHY_NOT_ACTION,        /* not an action id 0..RK_ACTION_DONE */
    RK_KNOCK_WHY_OUT_OF_TURN,       /* the seat asking is not the player to move */
    RK_KNOCK_WHY_HAND_OVER,
    RK_KNOCK_WHY_OFFER_FIRST,       /* the upcard offer: take or pass only */
    RK_KNOCK_WHY_DRAW_FIRST,        /* a discard, knock, pass or big gin before the draw */
    RK_KNOCK_WHY_STOCK_ONLY,        /* the forced stock draw: take after both refused the upcard */
    RK_KNOCK_WHY_LAST_CHANCE,       /* the last chance: take (to knock) or pass only */
    RK_KNOCK_WHY_ALREADY_DRAWN,     /* a draw, take or pass after the draw */
    RK_KNOCK_WHY_PILE_EMPTY,        /* take with no discard */
    RK_KNOCK_WHY_NOTHING_TO_PASS,   /* pass in the draw: no card is on offer */
    RK_KNOCK_WHY_NOT_IN_HAND,       /* the card is not in the mover's hand */
    RK_KNOCK_WHY_TAKEN_CARD,        /* forbid_taken_discard: the card just taken */
    RK_KNOCK_WHY_MUST_KNOCK,        /* after taking the last-chance discard: knock only */
    RK_KNOCK_WHY_GIN_ONLY,          /* an ace upcard with ace_upcard_gin_only; detail[0] deadwood left */
    RK_KNOCK_WHY_OVER_LIMIT,        /* detail[0] deadwood left, detail[1] the most a knock may leave */
    RK_KNOCK_WHY_NO_LAST_CHANCE_KNOCK, /* the last-chance discard does not bring a knock; detail as above */
    RK_KNOCK_WHY_NO_BIG_GIN,        /* big_gin_bonus is off */
    RK_KNOCK_WHY_BIG_GIN_DEADWOOD,  /* not all eleven cards melded; detail[0] the hand's deadwood */
    RK_KNOCK_WHY_SHOWDOWN_ONLY,     /* a meld, lay-off or done outside the manual showdown */
    RK_KNOCK_WHY_DECLARE,           /* the manual showdown: melds, lay-offs and done only */
    RK_KNOCK_WHY_NOT_UNDECLARED,    /* a card not among the defender's undeclared cards */
    RK_KNOCK_WHY_NOT_A_MELD,        /* not a meld with these rules' aces */
    RK_KNOCK_WHY_NO_LAYOFF,         /* no lay-offs in this showdown (gin, allow_layoff_on_knock) */
    RK_KNOCK_WHY_NO_SUCH_MELD,      /* the knocker showed fewer melds; detail[0] how many */
    RK_KNOCK_WHY_DOES_NOT_FIT,      /* the card does not extend that meld of the knocker */
    RK_KNOCK_NUM_REASONS
} rk_knock_reason;

/* Why `action` is not legal now for `seat` (-1: the player to move): an
 * rk_knock_reason (RK_KNOCK_LEGAL when it is legal), detail[0..1] (0 unless
 * the code says otherwise), or a negative status for a position
 * rk_position_check refuses.  The legality is rk_legal_actions'; the code
 * names the first rule, in the order the engine applies them, that the
 * action breaks. */
int rk_knock_why(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int seat, int action,
                 int detail[2]);
/* The name of a reason code ("legal", "not_action", ... : the enum name in lower case without
 * RK_KNOCK_WHY_), NULL for a number that is not one. */
const char *rk_knock_reason_name(int code);
/* ---- hidden information (csrc/src/knock_hidden.c) --------------------
 *
 * What a seat sees: its own hand; of another seat's hand the cards it took
 * from the discard pile and still holds (known), in the manual showdown the
 * knocker's whole hand and the cards a defender declared (used), at the end
 * every hand.  The face-down knock card: to the knocker, at the end, and to
 * the others when it is a card they saw the knocker take. */
rk_mask rk_knock_seen(const rk_position *pos, int player, int seat);
int rk_knock_card_seen(const rk_position *pos, int player);

/* The public step log: one step per action of the history, what every seat
 * saw of it.  seat: who acted; card: the card it moved (a discard, a knock,
 * the take), else -1; restocked: cards shuffled into the stock just before a
 * draw; drew: a stock draw took a card; removed / added: the pile's top was
 * taken away / a card put on the pile; unseen: the card moved out of the
 * hand was not a known card.  Encoded in 19 bits (rk_knock_step_encode). */
typedef struct rk_knock_step {
    int seat, card, restocked, drew, removed, added, unseen;
} rk_knock_step;
#define RK_KNOCK_STEP_BITS 19
uint32_t rk_knock_step_encode(const rk_knock_step *step);
void rk_knock_step_decode(uint32_t code, rk_knock_step *step);
/* The step of `action` taking before to after (*drawn, if not NULL: the
 * card a stock draw took, else -1). */
uint32_t rk_knock_public_step(const rk_position *before, const rk_position *after, int action, int *drawn);

/* A hand's public history: actions[i] and its step steps[i], i < n. */
typedef struct rk_knock_log {
    const int32_t *actions;
    const uint32_t *steps;
    int n;
} rk_knock_log;

/* Bytes of work buffer the functions below need for a log of n steps. */
size_t rk_knock_work_size(int n_steps);

/* The hidden part of a position for determinization: slot k receives one
 * card of its group; the cards of each group (slots group_end[g-1] ..
 * group_end[g] - 1, from 0) are shuffled among the group's slots.  dest[k]
 * is a seat, RK_DEST_STOCK for the stock (stock slots are pushed in slot
 * order after the stock cards already in the position) or RK_DEST_KNOCK for
 * the face-down knock card. */
#define RK_DEST_STOCK 255
#define RK_DEST_KNOCK 254
typedef struct rk_hidden {
    int n_slots, n_groups;
    uint8_t cards[RK_NUM_CARDS];
    uint8_t dest[RK_NUM_CARDS];
    uint8_t group_end[RK_NUM_CARDS];
} rk_hidden;

/* What seat `player` knows of pos, walking the log once: known is pos with
 * the other hands cut to the cards player sees, no stock and a knock card
 * hidden from player removed; hidden the cards player cannot see in groups
 * (group 0: never seen; group k: last seen going into the stock at restock
 * k; groups without a hidden card are left out, so there are at most 52
 * however often the stock was rebuilt), each slot a place the public history fixes: a stock draw of another
 * seat adds a place of the current group, an unseen card it let go removes
 * one of that card's group; the stock holds cards of the latest group; a
 * hidden knock card is one card of its group.  RK_ERR_ARG when the history
 * does not fit the position (fields set by hand). */
rk_status rk_knock_hidden(const rk_knock_rules *pr, const rk_position *pos, const rk_knock_log *log, int player,
                          void *work, rk_position *known, rk_hidden *hidden);

/* The group of every card (group[52], as rk_knock_hidden counts them: the restock that last put it into the
 * stock, 0: never). */
rk_status rk_knock_card_groups(const rk_knock_rules *pr, const rk_position *pos, const rk_knock_log *log, void *work,
                               int32_t *group);

/* One uniform deal of hidden over known into out (each group's cards
 * shuffled among its slots) and a fresh shuffle_seed. */
void rk_knock_sample(const rk_position *known, const rk_hidden *hidden, rk_rng *rng, rk_position *out);

/* A full determinization for seat `player` (rummykit.knock.observe.determinize):
 * pos: a sample of rk_knock_hidden's deal; when the seat to move is another
 * seat that took the last-chance discard (RK_PHASE_KNOCK_ONLY) it must be
 * able to knock: samples where it cannot are drawn again, and after
 * max_tries of them (RK_KNOCK_MAX_TRIES if negative) the seat keeps the
 * hidden cards it holds (kept 1).
 * drawn / n_drawn: each seat's stock draws in order (player's own are
 * own_drawn); the others' dealt hands and draws are rebuilt to fit the
 * public history (each unseen card a seat let go fills a random earlier
 * place of its group: a dealt place or a stock draw; its unseen cards fill
 * the rest at random); deck: the deck behind them (the deal, the upcard,
 * the draws from the first stock in order, then the stock if there was no
 * restock; player's dealt cards from `deck`).  knock_time: the history
 * index of a knock whose card was resampled (knock_step its new step), else
 * -1. */
#define RK_KNOCK_MAX_TRIES 2000
typedef struct rk_knock_sample_out {
    rk_position pos;
    uint8_t deck[RK_NUM_CARDS];
    uint8_t *drawn[RK_MAX_PLAYERS]; /* each seat's draws in order: room in the work buffer */
    int n_drawn[RK_MAX_PLAYERS];
    int knock_time;
    uint32_t knock_step;
    int kept;
} rk_knock_sample_out;
rk_status rk_knock_determinize(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                               const rk_knock_log *log, const uint8_t *deck, const uint8_t *own_drawn,
                               int n_own_drawn, int player, int max_tries, rk_rng *rng, void *work,
                               rk_knock_sample_out *out);

#ifdef __cplusplus
}
#endif

#endif /* RUMMYKIT_KNOCK_H */
