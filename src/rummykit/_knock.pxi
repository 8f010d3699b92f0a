# Included by _core.pyx: the knock games (csrc/include/rummykit/knock.h).

# ---- playouts (csrc/src/knock_engine.c, knock_score.c, policy.c, playouts.c) ------------------------------------------

#: the knock outcomes by their code (rk_knock_outcome_name): "dead", "gin", "big_gin", "knock", "undercut"
KNOCK_OUTCOMES = tuple([rk_knock_outcome_name(i).decode() for i in range(RK_OUTCOME_UNDERCUT + 1)])
#: the knock action id blocks (knock.h): discard = card id, knock + card id, ...
KNOCK_ACTION_IDS = {
    "knock": RK_ACTION_KNOCK, "draw_stock": RK_ACTION_DRAW_STOCK, "take": RK_ACTION_TAKE, "pass": RK_ACTION_PASS,
    "big_gin": RK_ACTION_BIG_GIN, "meld": RK_ACTION_MELD, "meld_ids": RK_NUM_MELD_IDS, "layoff": RK_ACTION_LAYOFF,
    "layoff_slots": RK_LAYOFF_SLOTS, "done": RK_ACTION_DONE,
}
POLICY_RANDOM = RK_POLICY_RANDOM
POLICY_GREEDY = RK_POLICY_GREEDY
POLICY_CAREFUL = RK_POLICY_CAREFUL
FIELD_INT, FIELD_INT_OR_NONE, FIELD_FLAG, FIELD_IS, FIELD_CHOICE = (
    RK_FIELD_INT, RK_FIELD_INT_OR_NONE, RK_FIELD_FLAG, RK_FIELD_IS, RK_FIELD_CHOICE)


cdef tuple field_rows(const rk_field *f, size_t n):
    """A C field table as rows (option, type, lo, hi, text), in struct order."""
    return tuple([(sys.intern(f[i].name.decode()), <int>f[i].type, f[i].lo, f[i].hi,
                   f[i].text.decode() if f[i].text != NULL else None) for i in range(n)])


cdef tuple _knock_fields():
    cdef size_t n = 0
    cdef const rk_field *f = rk_knock_rules_fields(&n)
    return field_rows(f, n)


#: rk_knock_rules_fields(): (option, type, lo, hi, text) per field of
#: rk_knock_rules, in struct order; fill_rules walks it
KNOCK_RULES_FIELDS = _knock_fields()
cdef tuple KNOCK_FIELD_NAMES = tuple([field[0] for field in KNOCK_RULES_FIELDS])
KNOCK_RULES_SIZE = sizeof(rk_knock_rules)


def restock_shuffle(uint64_t seed, int restock, cards):
    """The restock order of rk_restock_shuffle: ``cards`` (the discard pile
    without its top card, bottom first) shuffled; the last is the new top."""
    cdef uint8_t buf[108]  # the table games' physical cards (two decks and four jokers)
    n = len(cards)
    if n > 108:
        raise ValueError("at most 108 cards")
    for i in range(n):
        buf[i] = cards[i]
    rk_restock_shuffle(seed, restock, buf, n)
    return tuple([buf[i] for i in range(n)])


cdef int fill_fields(void *out, size_t size, const rk_field *f, size_t n, tuple names, object value_of) except -1:
    """Zero the struct at ``out`` and fill each int field of its C field table
    ``f`` from ``value_of(option name)`` (``names``: the fields' names, decoded
    and interned once, so that no call makes new strings): flags from bools, a text option by
    its choice or its equality (RK_FIELD_CHOICE, RK_FIELD_IS), None as -1
    (RK_FIELD_INT_OR_NONE); every value within the table's range, else
    InvalidOptionError naming the option."""
    cdef int v
    memset(out, 0, size)
    for i in range(n):
        name = names[i]
        value = value_of(name)
        if f[i].type == RK_FIELD_IS or f[i].type == RK_FIELD_CHOICE:
            choices = f[i].text.decode().split("|")
            if not isinstance(value, str) or (f[i].type == RK_FIELD_CHOICE and value not in choices):
                raise InvalidOptionError(f"{name} must be one of {choices}, got {value!r}")
            v = value == choices[0] if f[i].type == RK_FIELD_IS else choices.index(value)
        elif f[i].type == RK_FIELD_INT_OR_NONE and value is None:
            v = -1
        else:
            if f[i].type == RK_FIELD_FLAG and not isinstance(value, bool) and value not in (0, 1):
                raise InvalidOptionError(f"{name} must be true or false, got {value!r}")
            if type(value) not in (int, bool) or not f[i].lo <= value <= f[i].hi:
                raise InvalidOptionError(f"{name} must be an int {f[i].lo}..{f[i].hi}, got {value!r}")
            v = value
        memcpy(<char *>out + f[i].offset, &v, sizeof(int))
    return 0


cdef int fill_rules(rk_knock_rules *pr, object rules) except -1:
    """Fill *pr from a KnockRules by the C field table."""
    cdef size_t n = 0
    cdef const rk_field *f = rk_knock_rules_fields(&n)
    return fill_fields(pr, sizeof(rk_knock_rules), f, n, KNOCK_FIELD_NAMES, lambda name: getattr(rules, name))


cdef dict rules_values(const rk_knock_rules *pr):
    cdef size_t n = 0
    cdef const rk_field *f = rk_knock_rules_fields(&n)
    cdef int v
    values = {}
    for i in range(n):
        memcpy(&v, <const char *>pr + f[i].offset, sizeof(int))
        values[f[i].name.decode()] = v
    return values


def knock_rules_values(rules):
    """The rk_knock_rules that fill_rules makes of a KnockRules, by option name."""
    cdef rk_knock_rules pr
    fill_rules(&pr, rules)
    return rules_values(&pr)


def knock_rules_defaults(int game, int num_players):
    """rk_knock_rules_init(game, num_players), by option name."""
    cdef rk_knock_rules pr
    check(rk_knock_rules_init(&pr, <rk_base_game>game, num_players))
    return rules_values(&pr)


cdef dict _scoring_models():
    cdef size_t n = 0
    cdef const char *const *options = rk_knock_scoring_model_options(&n)
    cdef rk_knock_rules pr
    cdef int m = 0
    models = {}
    while rk_knock_scoring_model_name(m) != NULL:
        memset(&pr, 0, sizeof(pr))
        check(rk_knock_scoring_model_apply(&pr, m))
        values = rules_values(&pr)
        models[rk_knock_scoring_model_name(m).decode()] = {options[i].decode(): values[options[i].decode()] for i in range(n)}
        m += 1
    return models


#: the scoring models (rk_knock_scoring_model_apply), in order: model name -> the raw C value of
#: each option the model sets
KNOCK_SCORING_MODELS = _scoring_models()

#: the base games of rk_knock_rules_init (rk_base_game) by name
KNOCK_BASE_GAMES = {
    "gin": RK_GAME_GIN, "oklahoma_gin": RK_GAME_OKLAHOMA_GIN, "oklahoma_rummy": RK_GAME_OKLAHOMA_RUMMY}


def knock_rules_ok(rules):
    """Whether the C engine accepts a KnockRules (rk_knock_limits checks the rules record first): its
    fields within the field table's ranges and the combinations the engine plays."""
    cdef rk_knock_rules pr
    cdef int out[4]
    fill_rules(&pr, rules)
    return rk_knock_limits(&pr, 0, out) == RK_OK


cdef int fill_position(rk_position *pos, tuple position) except -1:
    hands, stock, discards, dealer, player, phase, upcard, taken, restocks, turns, seed = position
    memset(pos, 0, sizeof(rk_position))
    if len(hands) > 4 or len(stock) + len(discards) > 52:
        raise RummykitError("too many hands or cards")
    for i in range(len(hands)):
        pos.hands[i] = as_mask(hands[i])
    for i in range(len(stock)):
        pos.stock[i] = stock[i]
    for i in range(len(discards)):
        pos.discards[i] = discards[i]
    pos.n_stock, pos.n_discards = len(stock), len(discards)
    pos.dealer, pos.player, pos.phase = dealer, player, <rk_phase>phase
    pos.upcard, pos.taken, pos.restocks, pos.turns, pos.shuffle_seed = upcard, taken, restocks, turns, seed
    pos.set_aside = pos.knock_card = pos.knocker = -1
    return 0


cdef tuple result_tuple(const rk_playout_result *r, int n):
    return (r.outcome, r.knocker, r.winner, tuple([r.points[i] for i in range(n)]),
            tuple([r.deadwood[i] for i in range(n)]), r.multiplier, r.actions)


cdef class PlayoutSpec:
    """Playout rules, the known part of a position and (optionally) its hidden
    cards: ``hidden`` is None or (cards, dest, group_end) of rk_hidden, with
    dest -1 for the stock."""

    cdef rk_knock_rules pr
    cdef rk_position known
    cdef rk_hidden hidden
    cdef readonly bint has_hidden
    cdef readonly int num_players

    def __cinit__(self, object rules, tuple position, hidden=None):
        fill_rules(&self.pr, rules)
        fill_position(&self.known, position)
        self.num_players = self.pr.num_players
        self.has_hidden = hidden is not None
        memset(&self.hidden, 0, sizeof(rk_hidden))
        if hidden is not None:
            cards, dest, group_end = hidden
            if len(cards) != len(dest) or len(cards) > 52 or len(group_end) > 52:
                raise RummykitError("bad hidden cards")
            self.hidden.n_slots, self.hidden.n_groups = len(cards), len(group_end)
            for i in range(len(cards)):
                self.hidden.cards[i] = cards[i]
                self.hidden.dest[i] = RK_DEST_STOCK if dest[i] < 0 else dest[i]
            for i in range(len(group_end)):
                self.hidden.group_end[i] = group_end[i]


def playout_check(Rules rules, PlayoutSpec spec):
    """Check the spec by running zero playouts (raises on a bad position)."""
    cdef int32_t p = 0
    cdef uint8_t o = 0
    check(rk_playouts(rules.ptr, &spec.pr, &spec.known, &spec.hidden if spec.has_hidden else NULL,
                      rk_policy(RK_POLICY_GREEDY, -1, 0), 0, 0, 0, &p, &o))


def run_playouts(Rules rules, PlayoutSpec spec, int policy, int max_knock_deadwood, uint64_t seed,
                 size_t first, int32_t[:, ::1] points, uint8_t[::1] outcomes, int seat=-1, int seat_policy=-1,
                 int seat_max_knock=-2):
    """Playouts first .. first + len(outcomes) - 1 into the given arrays (GIL released); with
    ``seat`` >= 0 that seat plays ``seat_policy`` (rk_playouts_seats) knocking at
    ``seat_max_knock`` or less (-2: ``max_knock_deadwood``), the others ``policy``."""
    cdef size_t n = outcomes.shape[0]
    cdef rk_status st
    cdef rk_policy seats[4]
    if seat_max_knock < -2:
        raise ValueError(f"seat_max_knock must be >= -2, got {seat_max_knock}")
    for s in range(4):
        if s == seat:
            seats[s] = rk_policy(<rk_policy_kind>seat_policy,
                                 max_knock_deadwood if seat_max_knock == -2 else seat_max_knock, 0)
        else:
            seats[s] = rk_policy(<rk_policy_kind>policy, max_knock_deadwood, 0)
    if points.shape[0] != n or points.shape[1] != spec.num_players:
        raise ValueError("points must have shape (n, num_players)")
    if n == 0:
        return
    with nogil:
        st = rk_playouts_seats(rules.ptr, &spec.pr, &spec.known, &spec.hidden if spec.has_hidden else NULL,
                               seats, seed, first, n, &points[0, 0], &outcomes[0])
    check(st)


def run_playouts_hands(Rules rules, PlayoutSpec spec, int opponent, const uint64_t[::1] hands, int policy,
                       int max_knock_deadwood, uint64_t seed, int32_t[:, ::1] points, uint8_t[::1] outcomes,
                       int64_t[:, ::1] signed, int seat, int seat_policy, int seat_max_knock=-2,
                       const int32_t[::1] opponent_max_knock=None, const uint8_t[::1] opponent_meld_takes=None):
    """``run_playouts`` once per opponent hand, in one call (GIL released): for hand ``k`` the
    spec's position with ``opponent`` holding ``hands[k]``, its cards taken out of the spec's
    hidden stock cards (one group; a first slot bound for a seat keeps that seat), seeded
    ``seed + k``; ``signed[k, j]`` is playout ``j``'s points of ``seat`` less the opponent's.
    ``opponent_max_knock`` (one a hand, each >= -1): the opponent's knock limit with hand
    ``k`` instead of ``max_knock_deadwood`` (the style of the story the hand came from);
    ``opponent_meld_takes`` (one a hand, 0 or 1): its greedy policy takes a discard only into
    a meld or to knock with hand ``k`` (``rk_policy.meld_takes``)."""
    cdef size_t n = outcomes.shape[0], n_hands = hands.shape[0], k, j
    cdef rk_status st = RK_OK
    cdef rk_policy seats[4]
    cdef rk_position pos
    cdef rk_hidden hidden
    cdef uint64_t pool = 0, rest
    cdef int i, slots
    if seat_max_knock < -2:
        raise ValueError(f"seat_max_knock must be >= -2, got {seat_max_knock}")
    if spec.num_players != 2 or not spec.has_hidden or spec.hidden.n_groups != 1:
        raise InvalidOptionError("run_playouts_hands needs a two-player spec with one group of hidden stock cards")
    if not (0 <= seat < 2 and 0 <= opponent < 2 and seat != opponent):
        raise InvalidOptionError(f"seat {seat} and opponent {opponent} must be the two seats")
    if points.shape[0] != n or points.shape[1] != 2 or signed.shape[0] != n_hands or signed.shape[1] != n:
        raise ValueError("points must have shape (n, 2) and signed (len(hands), n)")
    cdef bint per_hand = opponent_max_knock is not None
    if per_hand:
        if opponent_max_knock.shape[0] != n_hands:
            raise ValueError("opponent_max_knock must have one limit a hand")
        for k in range(n_hands):
            if opponent_max_knock[k] < -1:
                raise ValueError(f"opponent_max_knock must be >= -1, got {opponent_max_knock[k]}")
    cdef bint takes_per_hand = opponent_meld_takes is not None
    if takes_per_hand:
        if opponent_meld_takes.shape[0] != n_hands:
            raise ValueError("opponent_meld_takes must have one flag a hand")
        for k in range(n_hands):
            if opponent_meld_takes[k] > 1:
                raise ValueError(f"opponent_meld_takes must be 0 or 1, got {opponent_meld_takes[k]}")
    for i in range(spec.hidden.n_slots):
        pool |= (<uint64_t>1) << spec.hidden.cards[i]
    for k in range(n_hands):
        if hands[k] & ~pool:
            raise InvalidOptionError(f"hand {k} holds cards outside the spec's hidden cards")
    for i in range(4):
        seats[i] = rk_policy(<rk_policy_kind>policy, max_knock_deadwood, 0)
    seats[seat] = rk_policy(<rk_policy_kind>seat_policy,
                            max_knock_deadwood if seat_max_knock == -2 else seat_max_knock, 0)
    if n == 0:
        return
    with nogil:
        for k in range(n_hands):
            pos = spec.known
            pos.hands[opponent] = hands[k]
            if per_hand:
                seats[opponent].max_knock_deadwood = opponent_max_knock[k]
            if takes_per_hand:
                seats[opponent].meld_takes = opponent_meld_takes[k]
            hidden = spec.hidden
            rest, slots = pool & ~hands[k], 0
            while rest:
                hidden.cards[slots] = __builtin_ctzll(rest)
                rest &= rest - 1
                slots += 1
            hidden.n_slots = slots
            hidden.group_end[0] = slots
            st = rk_playouts_seats(rules.ptr, &spec.pr, &pos, &hidden, seats, seed + k, 0, n,
                                   &points[0, 0], &outcomes[0])
            if st != RK_OK:
                break
            for j in range(n):
                signed[k, j] = points[j, seat] - points[j, opponent]
    check(st)

def playout_once(Rules rules, PlayoutSpec spec, int policy, int max_knock_deadwood, uint64_t seed):
    """Play the spec's position as it is (no resampling): (outcome, knocker,
    winner, points, deadwood, multiplier, actions, final hands)."""
    cdef rk_position pos = spec.known
    cdef rk_playout_result r
    cdef rk_rng rng
    cdef rk_status st
    check(rk_position_check(&spec.pr, &pos))
    rk_rng_seed(&rng, seed, 0)
    with nogil:
        st = rk_playout(rules.ptr, &spec.pr, &pos, rk_policy(<rk_policy_kind>policy, max_knock_deadwood, 0), &rng, &r)
    check(st)
    return result_tuple(&r, spec.num_players) + (tuple([pos.hands[i] for i in range(spec.num_players)]),)


def policy_trace(Rules rules, PlayoutSpec spec, int policy, int max_knock_deadwood, uint64_t seed):
    """The actions of playout_once, in order (for tests)."""
    cdef rk_position pos = spec.known
    cdef rk_playout_result r
    cdef rk_rng rng
    cdef int a
    check(rk_position_check(&spec.pr, &pos))
    rk_rng_seed(&rng, seed, 0)
    actions = []
    while pos.phase != RK_PHASE_END:
        a = rk_policy_action(rules.ptr, &spec.pr, &pos, rk_policy(<rk_policy_kind>policy, max_knock_deadwood, 0), &rng)
        if a < 0:
            check(<rk_status>a)
        actions.append(a)
        check(rk_apply_action(rules.ptr, &spec.pr, &pos, a, &r))
    return actions


def determinize_once(PlayoutSpec spec, uint64_t seed, size_t index):
    """The deal playout ``index`` of rk_playouts would play (rk_knock_sample): (hands, stock)."""
    cdef rk_position pos
    cdef rk_rng rng
    if not spec.has_hidden:
        raise RummykitError("no hidden cards")
    rk_rng_seed(&rng, seed, index)
    rk_knock_sample(&spec.known, &spec.hidden, &rng, &pos)
    return tuple([pos.hands[i] for i in range(spec.num_players)]), tuple([pos.stock[i] for i in range(pos.n_stock)])


def explain_knock(Rules rules, object knock_rules, hands, int upcard, bint big_gin, melds=None):
    """rk_explain_knock, knock order: (the knocker's arrangement, then per
    player (table, laid off, own arrangement, final deadwood)); an
    arrangement is (melds, deadwood cards, deadwood).  ``melds`` None: the
    automatic arrangement."""
    cdef rk_knock_rules pr
    cdef rk_mask h[4]
    cdef rk_mask m[17]
    cdef rk_knock_details d
    fill_rules(&pr, knock_rules)
    if len(hands) != pr.num_players:
        raise RummykitError("one hand per player")
    for i in range(len(hands)):
        h[i] = as_mask(hands[i])
    if melds is not None:
        if len(melds) > 17:
            raise InvalidMeldError("too many melds")
        for i in range(len(melds)):
            m[i] = as_mask(melds[i])
    check(rk_explain_knock(rules.ptr, &pr, h, upcard, big_gin, m, -1 if melds is None else len(melds), &d))
    k = d.n_table
    players = tuple([(tuple([d.table[i][j] for j in range(k)]), tuple([d.laid_off[i][j] for j in range(k)]),
                      arrangement_tuple(&d.own[i]), d.deadwood[i]) for i in range(pr.num_players)])
    return arrangement_tuple(&d.shown), players


def knock_limits(object knock_rules, int upcard):
    """rk_knock_limits: (knock limit, gin only, multiplier, most deadwood a knock may leave)."""
    cdef rk_knock_rules pr
    cdef int out[4]
    fill_rules(&pr, knock_rules)
    check(rk_knock_limits(&pr, upcard, out))
    return out[0], bool(out[1]), out[2], out[3]


def score_knock(Rules rules, object knock_rules, hands, int upcard, bint big_gin, melds=None):
    """rk_score_knock (``melds`` None) or rk_score_knock_shown, knock order:
    (outcome, knocker, winner, points, credits, charges, boxes, deadwood, multiplier, knock limit)."""
    cdef rk_knock_rules pr
    cdef rk_mask h[4]
    cdef rk_mask m[17]
    cdef rk_playout_result r
    fill_rules(&pr, knock_rules)
    if len(hands) != pr.num_players:
        raise RummykitError("one hand per player")
    for i in range(len(hands)):
        h[i] = as_mask(hands[i])
    if melds is None:
        check(rk_score_knock(rules.ptr, &pr, h, upcard, big_gin, &r))
    else:
        if len(melds) > 17:
            raise InvalidMeldError("too many melds")
        for i in range(len(melds)):
            m[i] = as_mask(melds[i])
        check(rk_score_knock_shown(rules.ptr, &pr, h, upcard, big_gin, m, len(melds), &r))
    n = pr.num_players
    return (r.outcome, r.knocker, r.winner, tuple([r.points[i] for i in range(n)]),
            tuple([r.credits[i] for i in range(n)]), tuple([r.charges[i] for i in range(n)]),
            tuple([r.boxes[i] for i in range(n)]), tuple([r.deadwood[i] for i in range(n)]),
            r.multiplier, r.knock_limit)


#: the hand-scoring fields of rk_knock_rules (scoring.ScoringParams)
SCORING_FIELDS = ("knock_bonus", "undercut_bonus", "gin_bonus", "big_gin_bonus", "collect_differences",
                  "losers_charged", "gin_loser_multiplier", "gin_loser_extra", "undercut_knocker_extra")


def score_hand(dict params, deadwood, int knocker, int outcome, int winner, int multiplier):
    """rk_score_hand: (points, credits, charges) per seat.  ``params`` maps each
    of SCORING_FIELDS to an int 0..1000000 (big_gin_bonus None: off); the
    deadwood entries and the multiplier are ints 0..1000000 (1.. for the multiplier)."""
    cdef rk_knock_rules pr
    cdef int dw[4]
    cdef rk_playout_result r
    cdef size_t count = 0
    cdef const rk_field *f = rk_knock_rules_fields(&count)
    cdef int v
    memset(&pr, 0, sizeof(rk_knock_rules))
    for i in range(count):
        name = KNOCK_FIELD_NAMES[i]
        if name not in SCORING_FIELDS:
            continue
        value = params[name]
        v = -1 if value is None else int(value)
        if value is not None and not 0 <= value <= 1_000_000:
            raise InvalidOptionError(f"{name} must be 0..1000000, got {value!r}")
        memcpy(<char *>&pr + f[i].offset, &v, sizeof(int))
    n = len(deadwood)
    if not 2 <= n <= 4:
        raise InvalidOptionError(f"deadwood needs one entry per seat, 2 to 4 seats, got {n}")
    for i in range(n):
        if not 0 <= deadwood[i] <= 1_000_000:
            raise InvalidOptionError(f"deadwood must be 0..1000000, got {deadwood[i]!r}")
        dw[i] = deadwood[i]
    if not 1 <= multiplier <= 1_000_000:
        raise InvalidOptionError(f"multiplier must be 1..1000000, got {multiplier!r}")
    check(rk_score_hand(&pr, n, dw, knocker, outcome, winner, multiplier, &r))
    return (tuple([r.points[i] for i in range(n)]), tuple([r.credits[i] for i in range(n)]),
            tuple([r.charges[i] for i in range(n)]))
