/* The knock rules: the base games' defaults, the field table that maps
 * every KnockRules option the engine reads onto rk_knock_rules, and the
 * range check, which reads its bounds from that table.  The table is the one
 * schema of these options (their type, range and choices): Python builds its
 * option records from it (rummykit.knock.rules), adding only their docs. */
#include "knock_internal.h"

#include <stddef.h>
#include <string.h>

#define F(option, field, type, lo, hi, text) {option, offsetof(rk_knock_rules, field), type, lo, hi, text}
#define MAXO RK__MAX_OPTION

/* One entry per field, in struct order (csrc/tests/test_playout.c and
 * tests/knock/test_rules_table.py check that every field is covered). */
static const rk_field fields[] = {
    F("num_players", num_players, RK_FIELD_INT, 2, RK_MAX_PLAYERS, NULL),
    F("first_turn_procedure", upcard_offer, RK_FIELD_CHOICE, 0, 1, "normal|upcard_offer"),
    F("forbid_discarding_taken_card", forbid_taken_discard, RK_FIELD_FLAG, 0, 1, NULL),
    F("refused_upcard_set_aside", refused_upcard_set_aside, RK_FIELD_FLAG, 0, 1, NULL),
    F("stock_end_rule", stock_end, RK_FIELD_CHOICE, RK_STOCK_DEAD_AT_2, RK_STOCK_RESHUFFLE,
      "dead_at_2|dead_at_2_last_chance|dead_on_draw|reshuffle"),
    F("max_restocks", max_restocks, RK_FIELD_INT, -1, MAXO, NULL),
    F("max_turns", max_turns, RK_FIELD_INT, -1, MAXO, NULL),
    F("knock_limit_mode", limit_from_upcard, RK_FIELD_CHOICE, 0, 1, "fixed|upcard"),
    F("knock_limit", knock_limit, RK_FIELD_INT, 0, MAXO, NULL),
    F("knock_compare", knock_compare_lt, RK_FIELD_CHOICE, 0, 1, "le|lt"),
    F("ace_upcard_gin_only", ace_upcard_gin_only, RK_FIELD_FLAG, 0, 1, NULL),
    F("spade_multiplier", spade_multiplier, RK_FIELD_INT, 1, 3, NULL),
    F("allow_layoff_on_knock", allow_layoff_on_knock, RK_FIELD_FLAG, 0, 1, NULL),
    F("layoff_onto_prior_layoffs", layoff_onto_prior_layoffs, RK_FIELD_FLAG, 0, 1, NULL),
    F("knocker_arrangement", best_score_arrangement, RK_FIELD_CHOICE, 0, 1, "min_deadwood|best_score"),
    F("scoring_model", classic_two_player, RK_FIELD_IS, 0, 1, "classic_two_player"),
    F("undercut_on_tie", undercut_on_tie, RK_FIELD_FLAG, 0, 1, NULL),
    F("auto_showdown", auto_showdown, RK_FIELD_FLAG, 0, 1, NULL),
    F("partnerships", partnerships, RK_FIELD_FLAG, 0, 1, NULL),
    F("knock_bonus", knock_bonus, RK_FIELD_INT, 0, MAXO, NULL),
    F("undercut_bonus", undercut_bonus, RK_FIELD_INT, 0, MAXO, NULL),
    F("gin_bonus", gin_bonus, RK_FIELD_INT, 0, MAXO, NULL),
    F("big_gin_bonus", big_gin_bonus, RK_FIELD_INT_OR_NONE, -1, MAXO, "-1|31|50"),
    F("collect_differences", collect_differences, RK_FIELD_FLAG, 0, 1, NULL),
    F("losers_charged", losers_charged, RK_FIELD_FLAG, 0, 1, NULL),
    F("gin_loser_multiplier", gin_loser_multiplier, RK_FIELD_INT, 1, 2, NULL),
    F("gin_loser_extra", gin_loser_extra, RK_FIELD_INT, 0, MAXO, NULL),
    F("undercut_knocker_extra", undercut_knocker_extra, RK_FIELD_INT, 0, MAXO, NULL),
    F("gin_extra_boxes", gin_extra_boxes, RK_FIELD_INT, 0, MAXO, NULL),
    F("undercut_extra_boxes", undercut_extra_boxes, RK_FIELD_INT, 0, MAXO, NULL),
    F("spade_double_boxes", spade_double_boxes, RK_FIELD_FLAG, 0, 1, NULL),
};

const rk_field *rk_knock_rules_fields(size_t *n) {
    if (n) *n = sizeof fields / sizeof fields[0];
    return fields;
}

/* The scoring models: the values of model_options, one row per model (docs/rules.md). */
static const char *const model_options[] = {
    "knock_bonus",    "undercut_bonus",       "gin_bonus",       "collect_differences",
    "losers_charged", "gin_loser_multiplier", "gin_loser_extra", "undercut_knocker_extra",
};
#define N_MODEL_OPTIONS (sizeof model_options / sizeof model_options[0])
static const struct {
    const char *name;
    int values[N_MODEL_OPTIONS];
} models[] = {
    {"classic_two_player", {0, 25, 25, 1, 0, 1, 0, 0}},
    {"net_collect", {10, 10, 20, 1, 1, 1, 0, 0}},
    {"bonus_penalty", {10, 20, 25, 0, 1, 2, 0, 0}},
    {"ring_penalty", {0, 20, 0, 0, 1, 1, 25, 10}},
};
#define N_MODELS ((int)(sizeof models / sizeof models[0]))

const char *rk_knock_scoring_model_name(int model) {
    return model >= 0 && model < N_MODELS ? models[model].name : NULL;
}

const char *const *rk_knock_scoring_model_options(size_t *n) {
    if (n) *n = N_MODEL_OPTIONS;
    return model_options;
}

rk_status rk_knock_scoring_model_apply(rk_knock_rules *pr, int model) {
    if (!pr || model < 0 || model >= N_MODELS) return RK_ERR_ARG;
    const int *v = models[model].values;
    pr->knock_bonus = v[0];
    pr->undercut_bonus = v[1];
    pr->gin_bonus = v[2];
    pr->collect_differences = v[3];
    pr->losers_charged = v[4];
    pr->gin_loser_multiplier = v[5];
    pr->gin_loser_extra = v[6];
    pr->undercut_knocker_extra = v[7];
    pr->classic_two_player = model == 0;
    return RK_OK;
}

rk_status rk_knock_rules_init(rk_knock_rules *pr, rk_base_game game, int num_players) {
    if (!pr) return RK_ERR_ARG;
    memset(pr, 0, sizeof *pr);
    pr->num_players = 2;
    pr->upcard_offer = 1;
    pr->forbid_taken_discard = 1;
    pr->stock_end = RK_STOCK_DEAD_AT_2;
    pr->max_restocks = -1;
    pr->max_turns = 1000;
    pr->knock_limit = 10;
    pr->spade_multiplier = 1;
    pr->allow_layoff_on_knock = 1;
    pr->undercut_on_tie = 1;
    pr->auto_showdown = 1;
    pr->big_gin_bonus = -1;
    rk_knock_scoring_model_apply(pr, 0); /* classic_two_player */
    switch (game) {
    case RK_GAME_GIN:
        if (num_players != 2) return RK_ERR_ARG;
        return RK_OK;
    case RK_GAME_OKLAHOMA_GIN:
        if (num_players != 2) return RK_ERR_ARG;
        pr->upcard_offer = 0;
        pr->limit_from_upcard = 1;
        pr->ace_upcard_gin_only = 1;
        pr->spade_multiplier = 2;
        return RK_OK;
    case RK_GAME_OKLAHOMA_RUMMY:
        if (num_players < 3 || num_players > 4) return RK_ERR_ARG;
        pr->num_players = num_players;
        pr->upcard_offer = 0;
        pr->limit_from_upcard = 1;
        pr->ace_upcard_gin_only = 1;
        pr->spade_multiplier = 2;
        pr->stock_end = RK_STOCK_RESHUFFLE;
        return rk_knock_scoring_model_apply(pr, 1); /* net_collect */
    }
    return RK_ERR_ARG;
}

/* Every field within its table range: the options KnockRules can express. */
rk_status rk__knock_rules_check(const rk_knock_rules *pr) {
    if (!pr) return RK_ERR_ARG;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        int v;
        memcpy(&v, (const char *)pr + fields[i].offset, sizeof v);
        if (!rk__in_range(v, fields[i].lo, fields[i].hi)) return RK_ERR_ARG;
    }
    /* sides 0+2 against 1+3, settled as a two-player hand */
    if (pr->partnerships && (pr->num_players != 4 || !pr->classic_two_player)) return RK_ERR_ARG;
    return RK_OK;
}

/* reference_knock.limit_and_multiplier and ReferenceKnockState._knock_max */
rk__limits rk__limits_of(const rk_knock_rules *pr, int upcard) {
    rk__limits l;
    int rank = upcard % RK_NUM_RANKS, spade = upcard / RK_NUM_RANKS == 3;
    if (pr->limit_from_upcard) {
        l.limit = rank + 1 < 10 ? rank + 1 : 10;
        l.gin_only = rank == 0 && pr->ace_upcard_gin_only;
    } else {
        l.limit = pr->knock_limit;
        l.gin_only = 0;
    }
    l.multiplier = spade ? pr->spade_multiplier : 1;
    l.knock_max = l.gin_only ? 0 : l.limit - (pr->knock_compare_lt ? 1 : 0);
    return l;
}

rk_status rk_knock_limits(const rk_knock_rules *pr, int upcard, int out[4]) {
    if (rk__knock_rules_check(pr) != RK_OK || upcard < 0 || upcard >= RK_NUM_CARDS || !out) return RK_ERR_ARG;
    rk__limits l = rk__limits_of(pr, upcard);
    out[0] = l.limit;
    out[1] = l.gin_only;
    out[2] = l.multiplier;
    out[3] = l.knock_max;
    return RK_OK;
}
