# Cython declarations mirroring csrc/include/rummykit/rummykit.h.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t


cdef extern from "rummykit/rummykit.h" nogil:
    ctypedef uint64_t rk_mask

    int RK_NUM_RANKS
    int RK_NUM_CARDS
    rk_mask RK_DECK_MASK
    int RK_MAX_MELDS

    ctypedef enum rk_status:
        RK_OK
        RK_ERR_ARG
        RK_ERR_BAD_MASK
        RK_ERR_BAD_MELD
        RK_ERR_OVERLAP
        RK_ERR_CAPACITY
        RK_ERR_EMPTY
        RK_ERR_NO_KNOCK
        RK_ERR_NO_MELD

    ctypedef enum rk_aces:
        RK_ACES_LOW
        RK_ACES_HIGH
        RK_ACES_BOTH

    ctypedef enum rk_meld_kind:
        RK_MELD_NONE
        RK_MELD_SET
        RK_MELD_RUN

    ctypedef struct rk_rules:
        rk_aces aces
        uint8_t values[13]

    ctypedef struct rk_arrangement:
        int n_melds
        int deadwood
        rk_mask melds[17]
        rk_mask deadwood_cards

    ctypedef struct rk_layoff_result:
        int deadwood
        int n_knocker_melds
        rk_mask laid_off[17]
        rk_mask laid_off_all
        rk_arrangement rest

    ctypedef struct rk_knock_choice:
        rk_arrangement knocker
        rk_layoff_result defender
        int margin
        int n_candidates

    unsigned RK_KNOCK_MIN_DEADWOOD_ONLY
    unsigned RK_KNOCK_NO_LAYOFFS

    rk_status rk_rules_init(rk_rules *rules, rk_aces aces, const uint8_t *values)

    int rk_card_count(rk_mask mask)
    int rk_mask_value(const rk_rules *rules, rk_mask mask)
    rk_meld_kind rk_meld_kind_of(const rk_rules *rules, rk_mask mask)
    rk_status rk_enumerate_melds(const rk_rules *rules, rk_mask hand, rk_mask *out,
                                 size_t capacity, size_t *count)

    int rk_deadwood(const rk_rules *rules, rk_mask hand)
    rk_status rk_best_arrangement(const rk_rules *rules, rk_mask hand, rk_arrangement *out)
    rk_status rk_arrangements(const rk_rules *rules, rk_mask hand, int max_deadwood,
                              rk_arrangement *out, size_t capacity, size_t *count)
    rk_status rk_arrangements_at_most(const rk_rules *rules, rk_mask hand, int max_deadwood,
                                      rk_arrangement *out, size_t capacity, size_t *count)

    rk_status rk_best_discard(const rk_rules *rules, rk_mask hand, int forbidden, int *card,
                              int *deadwood, int16_t *after)

    rk_status rk_layoff(const rk_rules *rules, const rk_mask *knocker_melds, size_t n_melds,
                        rk_mask defender, rk_layoff_result *out)
    rk_status rk_choose_knock(const rk_rules *rules, rk_mask knocker, rk_mask defender, int limit,
                              unsigned flags, rk_knock_choice *out)

    rk_status rk_deadwood_batch(const rk_rules *rules, const rk_mask *hands, size_t n,
                                int16_t *out, size_t *bad_index)
    rk_status rk_best_discard_batch(const rk_rules *rules, const rk_mask *hands, size_t n,
                                    int16_t *deadwood, int8_t *card, size_t *bad_index)

    int RK_JOKER
    int RK_NUM_TYPES
    int RK_MULTI_MAX_JOKERS
    int RK_MULTI_MAX_MELDS
    int RK_MULTI_MAX_MELD_CARDS

    ctypedef struct rk_multi_hand:
        rk_mask one
        rk_mask two
        int jokers

    ctypedef struct rk_multi_rules:
        int ace_low_runs
        int joker_penalty
        uint8_t values[13]

    ctypedef enum rk_multi_objective:
        RK_MULTI_PENALTY
        RK_MULTI_VALUE

    ctypedef struct rk_multi_meld:
        rk_meld_kind kind
        int n_cards
        int n_jokers
        int value
        int8_t cards[13]
        int8_t represents[13]

    ctypedef struct rk_multi_arrangement:
        int n_melds
        int value
        int penalty
        rk_multi_meld melds[36]
        rk_multi_hand left

    const uint8_t *rk_kaluki_values()
    rk_status rk_multi_rules_init(rk_multi_rules *rules, int ace_low_runs, int joker_penalty,
                                  const uint8_t *values)
    rk_status rk_multi_hand_check(rk_multi_hand hand)
    rk_status rk_multi_hand_from_counts(const uint8_t *counts, rk_multi_hand *out)
    rk_status rk_multi_best(const rk_multi_rules *rules, rk_multi_hand hand, rk_multi_objective objective,
                            int include_type, rk_multi_arrangement *out)
    int rk_multi_penalty(const rk_multi_rules *rules, rk_multi_hand hand)
    rk_status rk_multi_penalty_batch(const rk_multi_rules *rules, const uint8_t *counts, size_t n,
                                     int32_t *out, size_t *bad_index)


# the knock games, their random numbers and playouts (policy.h includes knock.h and rng.h)
cdef extern from "rummykit/policy.h" nogil:
    int RK_MAX_PLAYERS

    ctypedef struct rk_rng:
        uint64_t state

    void rk_rng_seed(rk_rng *rng, uint64_t seed, uint64_t stream)
    uint64_t rk_rng_next(rk_rng *rng)
    uint32_t rk_rng_below(rk_rng *rng, uint32_t n)
    void rk_rng_shuffle(rk_rng *rng, uint8_t *cards, size_t n)
    void rk_restock_shuffle(uint64_t seed, int restock, uint8_t *cards, size_t n)

    ctypedef enum rk_phase:
        RK_PHASE_OFFER_NONDEALER
        RK_PHASE_OFFER_DEALER
        RK_PHASE_FORCED_STOCK_DRAW
        RK_PHASE_DRAW
        RK_PHASE_DISCARD
        RK_PHASE_LAST_CHANCE
        RK_PHASE_KNOCK_ONLY
        RK_PHASE_SHOWDOWN
        RK_PHASE_END

    int RK_ACTION_KNOCK
    int RK_ACTION_DRAW_STOCK
    int RK_ACTION_TAKE
    int RK_ACTION_PASS
    int RK_ACTION_BIG_GIN
    int RK_MAX_LEGAL
    int RK_ACTION_MELD
    int RK_ACTION_LAYOFF
    int RK_ACTION_DONE
    int RK_NUM_MELD_IDS
    int RK_LAYOFF_SLOTS

    ctypedef enum rk_stock_end:
        RK_STOCK_DEAD_AT_2
        RK_STOCK_DEAD_AT_2_LAST_CHANCE
        RK_STOCK_DEAD_ON_DRAW
        RK_STOCK_RESHUFFLE

    ctypedef enum rk_base_game:
        RK_GAME_GIN
        RK_GAME_OKLAHOMA_GIN
        RK_GAME_OKLAHOMA_RUMMY

    ctypedef struct rk_knock_rules:
        int num_players
        int upcard_offer
        int forbid_taken_discard
        int refused_upcard_set_aside
        int stock_end
        int max_restocks
        int max_turns
        int limit_from_upcard
        int knock_limit
        int knock_compare_lt
        int ace_upcard_gin_only
        int spade_multiplier
        int allow_layoff_on_knock
        int layoff_onto_prior_layoffs
        int best_score_arrangement
        int classic_two_player
        int undercut_on_tie
        int auto_showdown
        int partnerships
        int knock_bonus, undercut_bonus, gin_bonus
        int big_gin_bonus
        int collect_differences, losers_charged
        int gin_loser_multiplier, gin_loser_extra, undercut_knocker_extra
        int gin_extra_boxes, undercut_extra_boxes, spade_double_boxes

    ctypedef enum rk_field_type:
        RK_FIELD_INT
        RK_FIELD_INT_OR_NONE
        RK_FIELD_FLAG
        RK_FIELD_IS
        RK_FIELD_CHOICE

    ctypedef struct rk_field:
        const char *name
        size_t offset
        rk_field_type type
        int lo, hi
        const char *text

    const rk_field *rk_knock_rules_fields(size_t *n)
    const char *rk_knock_scoring_model_name(int model)
    const char *const *rk_knock_scoring_model_options(size_t *n)
    rk_status rk_knock_scoring_model_apply(rk_knock_rules *pr, int model)

    ctypedef struct rk_position:
        rk_mask hands[4]
        uint8_t stock[52]
        uint8_t discards[52]
        int n_stock, n_discards
        int dealer, player
        rk_phase phase
        int upcard
        int taken
        int restocks
        int turns
        uint64_t shuffle_seed
        rk_mask known[4]
        int set_aside, knock_card
        int knocker, big_gin, shown_given, can_lay_off, n_shown, shown_deadwood
        rk_mask shown[4]
        rk_mask table[4]
        rk_mask used[4]
        uint8_t recent[4][3][8]

    ctypedef enum rk_policy_kind:
        RK_POLICY_RANDOM
        RK_POLICY_GREEDY
        RK_POLICY_CAREFUL

    ctypedef struct rk_policy:
        rk_policy_kind kind
        int max_knock_deadwood
        int meld_takes

    int RK_OUTCOME_DEAD
    int RK_OUTCOME_GIN
    int RK_OUTCOME_BIG_GIN
    int RK_OUTCOME_KNOCK
    int RK_OUTCOME_UNDERCUT
    const char *rk_knock_outcome_name(int outcome)

    ctypedef struct rk_playout_result:
        int outcome
        int knocker, winner
        int points[4]
        int credits[4]
        int charges[4]
        int boxes[4]
        int knock_limit
        int deadwood[4]
        int multiplier
        int actions

    int RK_DEST_STOCK

    ctypedef struct rk_hidden:
        int n_slots, n_groups
        uint8_t cards[52]
        uint8_t dest[52]
        uint8_t group_end[52]

    int RK_DEST_KNOCK
    int RK_KNOCK_STEP_BITS
    int RK_KNOCK_MAX_TRIES

    rk_mask rk_knock_seen(const rk_position *pos, int player, int seat)
    int rk_knock_card_seen(const rk_position *pos, int player)

    ctypedef struct rk_knock_step:
        int seat, card, restocked, drew, removed, added, unseen

    uint32_t rk_knock_step_encode(const rk_knock_step *step)
    void rk_knock_step_decode(uint32_t code, rk_knock_step *step)
    uint32_t rk_knock_public_step(const rk_position *before, const rk_position *after, int action, int *drawn)

    ctypedef struct rk_knock_log:
        const int32_t *actions
        const uint32_t *steps
        int n

    size_t rk_knock_work_size(int n_steps)
    rk_status rk_knock_hidden(const rk_knock_rules *pr, const rk_position *pos, const rk_knock_log *log, int player,
                              void *work, rk_position *known, rk_hidden *hidden)
    rk_status rk_knock_card_groups(const rk_knock_rules *pr, const rk_position *pos, const rk_knock_log *log,
                                   void *work, int32_t *group)
    void rk_knock_sample(const rk_position *known, const rk_hidden *hidden, rk_rng *rng, rk_position *out)

    ctypedef struct rk_knock_sample_out:
        rk_position pos
        uint8_t deck[52]
        uint8_t *drawn[4]
        int n_drawn[4]
        int knock_time
        uint32_t knock_step
        int kept

    rk_status rk_knock_determinize(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                                   const rk_knock_log *log, const uint8_t *deck, const uint8_t *own_drawn,
                                   int n_own_drawn, int player, int max_tries, rk_rng *rng, void *work,
                                   rk_knock_sample_out *out)

    rk_status rk_knock_rules_init(rk_knock_rules *pr, rk_base_game game, int num_players)
    rk_status rk_position_deal(const rk_knock_rules *pr, const uint8_t *deck, int dealer,
                               uint64_t shuffle_seed, rk_position *pos)
    rk_status rk_position_check(const rk_knock_rules *pr, const rk_position *pos)
    int rk_legal_actions(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                         int *actions)
    int rk_policy_action(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                         rk_policy policy, rk_rng *rng)
    rk_status rk_apply_action(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos,
                              int action, rk_playout_result *out)
    rk_status rk_playout(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos,
                         rk_policy policy, rk_rng *rng, rk_playout_result *out)
    rk_status rk_score_knock(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                             int upcard, int big_gin, rk_playout_result *out)
    rk_status rk_knock_arrangement(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                                   int upcard, int big_gin, rk_arrangement *out)
    rk_status rk_knock_melds(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int card,
                             const rk_mask *melds, int n_melds, rk_playout_result *out)
    ctypedef struct rk_knock_details:
        rk_arrangement shown
        int n_table
        rk_mask table[4][17]
        rk_mask laid_off[4][17]
        rk_arrangement own[4]
        int deadwood[4]

    rk_status rk_score_hand(const rk_knock_rules *pr, int n, const int *dw, int knocker, int outcome, int winner,
                            int multiplier, rk_playout_result *out)
    rk_status rk_knock_limits(const rk_knock_rules *pr, int upcard, int *out)
    int RK_KNOCK_NUM_REASONS
    int rk_knock_why(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int seat, int action,
                     int *detail)
    const char *rk_knock_reason_name(int code)
    rk_status rk_apply_legal(const rk_rules *rules, const rk_knock_rules *pr, rk_position *pos, int action,
                             rk_playout_result *out)
    rk_status rk_position_result(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos,
                                 rk_playout_result *out)
    rk_status rk_explain_knock(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands, int upcard,
                               int big_gin, const rk_mask *melds, int n_melds, rk_knock_details *out)
    rk_status rk_score_knock_shown(const rk_rules *rules, const rk_knock_rules *pr, const rk_mask *hands,
                                   int upcard, int big_gin, const rk_mask *melds, int n_melds,
                                   rk_playout_result *out)
    rk_status rk_playouts(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *known,
                          const rk_hidden *hidden, rk_policy policy, uint64_t seed, size_t first,
                          size_t n, int32_t *points, uint8_t *outcomes)
    rk_status rk_playouts_seats(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *known,
                                const rk_hidden *hidden, const rk_policy *seats, uint64_t seed, size_t first,
                                size_t n, int32_t *points, uint8_t *outcomes)

    const char *rk_status_message(rk_status status)


cdef extern from "rummykit/table.h" nogil:
    enum: RK_TABLE_MAX_PLAYERS
    int RK_TABLE_MAX_KALUKI_PLAYERS
    enum: RK_TABLE_MAX_CARDS
    int RK_TABLE_MAX_SLOTS
    int RK_TABLE_MAX_MELD
    int RK_TABLE_MAX_PENDING
    int RK_TABLE_MAX_KALUKI_HAND
    int RK_TABLE_DRAW
    int RK_TABLE_TAKE
    int RK_TABLE_LAYOFF
    int RK_TABLE_RELEASE_RUN
    int RK_TABLE_RELEASE_SET
    int RK_TABLE_MELD_SET
    int RK_TABLE_MELD_RUN
    int RK_TABLE_SET_END
    int RK_TABLE_NUM_ACTIONS
    int RK_TABLE_CALL_OFF
    int RK_TABLE_PHASE_END
    int RK_TABLE_FIXED_LAYOFF
    int RK_TABLE_FIXED_RELEASE_RUN
    int RK_TABLE_FIXED_RELEASE_SET
    int RK_TABLE_FIXED_MELD_SET
    int RK_TABLE_FIXED_MELD_RUN
    int RK_TABLE_FIXED_ACTIONS
    enum: RK_TABLE_NUM_HEADS
    int RK_TABLE_NUM_KINDS
    int32_t rk_table_fixed_id(int32_t id)
    int32_t rk_table_fixed_first(int32_t fixed)
    int32_t rk_table_fixed_resolve(const int32_t *legal, int n, int32_t fixed)
    int rk_table_head_size(int h)
    unsigned rk_table_kind_heads(int kind)
    const char *rk_table_head_name(int h)
    const char *rk_table_kind_name(int k)
    int rk_table_fixed_factor(int32_t fixed, int32_t *heads)
    int32_t rk_table_fixed_unfactor(const int32_t *heads)
    int32_t rk_table_layoff_id(int slot, int type, int end)
    int32_t rk_table_set_id(int rank, int suits, int jokers)
    int32_t rk_table_run_id(int suit, int start, int length, int joker_mask)
    void rk_table_run_of(int32_t id, int *suit, int *start, int *length, int *joker_mask)
    const char *rk_table_outcome_name(int outcome)
    int RK_TABLE_MAX_VALUE

    ctypedef struct rk_table_rules:
        int kaluki, num_players, hand_size, deck_size
        int npos, shift, wrap, low_ace_one
        uint8_t values[53]
        int forbid_taken_discard, restock_method, max_restocks, max_turns, go_out_requires_discard
        int no_go_out_first_turn, max_melds_per_turn, taken_discard_must_be_melded
        int initial_meld_min, building_counts_toward_opening, unopened_discard_draw, first_turn_upcard_free
        int ace_low_runs, joker_penalty, two_joker_release_one_natural, max_build_per_run_end
        int unopened_may_release_joker, hunt_allows_building, hunt_requires_opening_min, joker_discard_allowed
        int rummy_bonus, rummy_scoring, call_off_bonus, hunt_bonus, hunt_penalty_mode, kaluki_bonus_accounting

    ctypedef struct rk_table_cards:
        uint64_t w[2]

    ctypedef struct rk_table_meld:
        uint8_t kind, key, start, n_cards, owner
        uint8_t cards[14]

    ctypedef struct rk_table_state:
        rk_table_cards hands[6]
        rk_table_cards known[6]
        uint8_t stock[108]
        uint8_t discards[108]
        rk_table_meld table[40]
        uint8_t ends[40]
        int16_t n_stock, n_discards, n_table, n_ends
        int8_t phase, player, dealer, n_players
        uint8_t opened, played, absent
        int8_t taken, taken_card, must, pending, fresh, built_other, outcome, winner
        int16_t open_value, turn_melds
        int32_t turns, restocks
        uint64_t shuffle_seed
        uint8_t recent[6][3][8]

    ctypedef struct rk_table_memo:
        pass

    rk_table_memo *rk_table_memo_new()
    void rk_table_memo_free(rk_table_memo *memo)
    rk_status rk_table_rules_check(const rk_table_rules *rules)
    const rk_field *rk_table_rules_fields(size_t *n)
    rk_status rk_table_deal(const rk_table_rules *rules, const uint8_t *deck, int dealer, uint64_t shuffle_seed,
                            rk_table_state *state)
    rk_status rk_table_deal_present(const rk_table_rules *rules, const uint8_t *deck, int dealer, unsigned absent,
                                    uint64_t shuffle_seed, rk_table_state *state)
    rk_status rk_table_check(const rk_table_rules *rules, const rk_table_state *state)
    int rk_table_legal(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo,
                       int32_t *actions, int capacity)
    rk_status rk_table_apply(const rk_table_rules *rules, rk_table_state *state, rk_table_memo *memo,
                             int32_t action)
    int RK_TABLE_NUM_REASONS
    int rk_table_why(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo, int seat,
                     int32_t action, int *detail)
    const char *rk_table_reason_name(int code)
    int rk_table_is_action(const rk_table_rules *rules, int32_t action)

    ctypedef struct rk_table_result:
        int32_t values[RK_TABLE_MAX_PLAYERS]
        int32_t points[RK_TABLE_MAX_PLAYERS]
        int32_t penalties[RK_TABLE_MAX_PLAYERS]
        int32_t bonuses[RK_TABLE_MAX_PLAYERS]
        int32_t returns[RK_TABLE_MAX_PLAYERS]

    rk_status rk_table_score_values(const rk_table_rules *rules, int outcome, int winner, const int32_t *values,
                                    rk_table_result *out)
    rk_status rk_table_score(const rk_table_rules *rules, const rk_table_state *state, rk_table_result *out)
    int32_t rk_table_hand_value(const rk_table_rules *rules, rk_table_cards cards)


    # hidden information (csrc/src/table_hidden.c)
    int RK_TABLE_STEP_HEAD
    int RK_TABLE_STEP_RESTOCK
    int RK_TABLE_STEP_PUBLIC
    int RK_TABLE_STEP_UNSEEN
    int RK_TABLE_NO_CARD
    enum: RK_TABLE_STEP_MAX
    int RK_TABLE_RESAMPLE_STOCK
    int RK_TABLE_RESAMPLE_HIDDEN
    int RK_TABLE_MAX_TRIES

    void rk_table_known_step(const rk_table_rules *rules, const rk_table_state *before, const rk_table_state *after,
                             int32_t action, uint8_t *counts, uint8_t *unseen)
    int rk_table_step(const rk_table_rules *rules, const rk_table_state *before, const rk_table_state *after,
                      int32_t action, const uint8_t *prev, uint8_t *entry)
    size_t rk_table_step_length(const uint8_t *entry)

    ctypedef struct rk_table_log:
        const int32_t *actions
        const uint8_t *const *steps
        int n

    ctypedef struct rk_table_hidden:
        int mode, observer, stock_group
        int32_t now
        int n_groups, n_places, n_fills, n_bans
        const uint8_t *pool
        const uint8_t *place_seat
        const int32_t *place_group
        const int32_t *place_time
        const uint8_t *fill_seat
        const uint8_t *fill_type
        const int32_t *fill_time
        const uint8_t *ban_seat
        const uint8_t *ban_type
        const int32_t *ban_time
        uint8_t known[6][53]

    size_t rk_table_hidden_size(const rk_table_rules *rules, int n_steps)
    rk_status rk_table_hidden_of(const rk_table_rules *rules, const rk_table_state *state, const uint8_t *deck,
                                 const rk_table_log *log, int player, void *work, rk_table_hidden *hidden)
    rk_status rk_table_hidden_check(const rk_table_rules *rules, const rk_table_state *state,
                                    const rk_table_hidden *hidden)
    size_t rk_table_work_size(const rk_table_hidden *hidden)
    int rk_table_determinize(const rk_table_rules *rules, const rk_table_state *state, const rk_table_hidden *hidden,
                             rk_rng *rng, rk_table_memo *memo, void *work, rk_table_state *out, uint8_t *place_types)

    ctypedef struct rk_table_world:
        rk_table_state state
        uint8_t deck[RK_TABLE_MAX_CARDS]
        int sampled
        int n_orders
        const uint8_t *orders
        const uint8_t *came

    size_t rk_table_world_size(const rk_table_rules *rules, int n_steps)
    rk_status rk_table_world_of(const rk_table_rules *rules, const rk_table_state *state, const uint8_t *deck,
                                const rk_table_log *log, int player, int max_tries, rk_rng *rng,
                                rk_table_memo *memo, void *work, rk_table_world *out)
    rk_status rk_table_replay(const rk_table_rules *rules, const uint8_t *deck, int dealer, unsigned absent,
                              uint64_t shuffle_seed, const int32_t *actions, int n, const uint8_t *orders,
                              int n_orders, rk_table_memo *memo, rk_table_state *before, rk_table_state *out)


cdef extern from "rummykit/table_playouts.h" nogil:
    int RK_TABLE_POLICY_RANDOM
    int RK_TABLE_POLICY_GREEDY
    int RK_TABLE_PLAYOUT_MAX_ACTIONS

    int32_t rk_table_greedy(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo)
    int32_t rk_table_policy_action(const rk_table_rules *rules, const rk_table_state *state, rk_table_memo *memo,
                                   int policy, rk_rng *rng)
    rk_status rk_table_playout(const rk_table_rules *rules, rk_table_state *state, rk_table_memo *memo, int policy,
                               rk_rng *rng, long *actions)
    rk_status rk_table_playouts(const rk_table_rules *rules, const rk_table_state *state,
                                const rk_table_hidden *hidden, int policy, uint64_t seed, size_t first, size_t n,
                                rk_table_memo *memo, void *work, int32_t *returns, uint8_t *outcomes, int8_t *winners)


cdef extern from "rummykit/observe.h" nogil:
    int RK_KNOCK_OBS_SIZE
    int RK_TABLE_OBS_SIZE
    int RK_KNOCK_OBS_SLICES
    int RK_TABLE_OBS_SLICES

    const int *rk_knock_obs_starts()
    const int *rk_table_obs_starts()

    rk_status rk_knock_observe(const rk_rules *rules, const rk_knock_rules *pr, const rk_position *pos, int player,
                               float *out)
    rk_status rk_table_observe(const rk_table_rules *rules, const rk_table_state *state, const uint8_t *counts,
                               int player, float *out)


cdef extern from "rummykit/vector.h" nogil:
    int RK_KNOCK_NUM_ACTIONS
    int RK_VECTOR_TABLE_ACTIONS
    int RK_VECTOR_MAX_THREADS

    ctypedef struct rk_vector_buffers:
        uint8_t *legal_mask
        float *observation
        int32_t *current_player
        float *rewards
        uint8_t *terminated
        int32_t *num_legal
        int32_t *legal_ids
        int32_t *outcome
        int32_t *winner
        int32_t *hand_score
        int32_t *deadwood

    ctypedef struct rk_vector:
        pass

    rk_vector *rk_vector_new_knock(const rk_rules *rules, const rk_knock_rules *pr, int batch, int threads,
                                   const rk_vector_buffers *buffers)
    int RK_VECTOR_FIXED
    int RK_VECTOR_DENSE
    rk_vector *rk_vector_new_table(const rk_table_rules *rules, int action_space, int batch, int threads,
                                   const rk_vector_buffers *buffers)
    void rk_vector_free(rk_vector *v)
    int rk_vector_num_actions(const rk_vector *v)
    int rk_vector_obs_dim(const rk_vector *v)
    int rk_vector_num_players(const rk_vector *v)
    rk_status rk_vector_set_opponents(rk_vector *v, int policy)
    rk_status rk_vector_reset(rk_vector *v, uint64_t seed)
    rk_status rk_vector_step(rk_vector *v, const int32_t *actions, int *bad_row)
    rk_status rk_vector_step_some(rk_vector *v, const int32_t *actions, int *bad_row)
    int RK_VECTOR_SKIP
    rk_status rk_vector_row(const rk_vector *v, int i, const uint8_t **deck, int *deck_size, int *dealer,
                            uint64_t *shuffle_seed, const int32_t **log, int *n_log, int64_t *hands)


# the particle filter of the best agent (rummykit.agents.tracking)
cdef extern from "rummykit/track.h" nogil:
    enum:
        RK_EV_TAKE_CHOICE, RK_EV_DRAW, RK_EV_ADD, RK_EV_DISCARD, RK_EV_LAST_CHANCE

    ctypedef struct rk_track_event:
        int8_t kind, card, flag, extra

    ctypedef struct rk_track_model:
        double beta, epsilon, high
        int knock_max
        int hand_size
        rk_mask free

    ctypedef struct rk_particles:
        size_t n, n_draws
        rk_mask *dealt
        rk_mask *hand
        rk_mask *used
        int8_t *draws
        double *logw
        double *rate
        uint8_t *taker

    rk_status rk_track(const rk_rules *rules, const rk_track_model *model, const rk_track_event *events,
                       size_t n_events, rk_particles *p, rk_particles *scratch, uint64_t seed)
    size_t rk_systematic_next(const double *w, size_t n, double sum, double u, size_t k, size_t count,
                              size_t *j, double *share)
