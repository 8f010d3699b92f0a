# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Private bridge to the C core (csrc/).  Use the public ``rummykit`` API.

Every function takes a :class:`Rules` and int masks in the public layout and
returns plain ints and tuples; the Python layer turns them into cards."""

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from rummykit._crummykit cimport *
from rummykit.errors import InvalidCardError, InvalidMeldError, InvalidOptionError, RummykitError

ACES_LOW = RK_ACES_LOW
ACES_HIGH = RK_ACES_HIGH
ACES_BOTH = RK_ACES_BOTH
KNOCK_MIN_DEADWOOD_ONLY = RK_KNOCK_MIN_DEADWOOD_ONLY
KNOCK_NO_LAYOFFS = RK_KNOCK_NO_LAYOFFS
MELD_SET = RK_MELD_SET
MELD_RUN = RK_MELD_RUN
JOKER = RK_JOKER
MULTI_PENALTY = RK_MULTI_PENALTY
MULTI_VALUE = RK_MULTI_VALUE


class NoKnockError(RummykitError):
    """The hand has no arrangement within the knock limit."""


cdef class Rules:
    """An initialised rk_rules (ace mode, card values and derived tables)."""

    cdef rk_rules *ptr
    cdef readonly int aces
    cdef readonly tuple values

    def __cinit__(self, int aces, values):
        cdef uint8_t v[13]
        if len(values) != 13:
            raise ValueError("values must have 13 entries")
        for i in range(13):
            v[i] = values[i]
        self.ptr = <rk_rules *>malloc(sizeof(rk_rules))
        if self.ptr == NULL:
            raise MemoryError()
        if rk_rules_init(self.ptr, <rk_aces>aces, v) != RK_OK:
            raise ValueError("invalid rules parameters")
        self.aces = aces
        self.values = tuple(values)

    def __dealloc__(self):
        free(self.ptr)

    def __reduce__(self):
        return Rules, (self.aces, self.values)


cdef rk_mask as_mask(object mask) except? 0:
    cdef rk_mask m
    try:
        m = mask
    except (OverflowError, TypeError):
        raise InvalidCardError(f"not a card mask: {mask!r}") from None
    if m & ~RK_DECK_MASK:
        raise InvalidCardError(f"mask {m:#x} has bits outside the 52-card deck")
    return m


cdef int check(rk_status status) except -1:
    if status == RK_OK:
        return 0
    message = rk_status_message(status).decode()
    if status == RK_ERR_BAD_MASK:
        raise InvalidCardError(message)
    if status == RK_ERR_BAD_MELD or status == RK_ERR_OVERLAP:
        raise InvalidMeldError(message)
    if status == RK_ERR_NO_KNOCK:
        raise NoKnockError(message)
    raise RummykitError(message)


cdef tuple arrangement_tuple(const rk_arrangement *a):
    return (tuple([a.melds[i] for i in range(a.n_melds)]), a.deadwood_cards, a.deadwood)


def deadwood(Rules rules, mask):
    """Least deadwood of a mask."""
    return rk_deadwood(rules.ptr, as_mask(mask))


def mask_value(Rules rules, mask):
    """Sum of card values of a mask, with no melding."""
    return rk_mask_value(rules.ptr, as_mask(mask))


def meld_kind(Rules rules, mask):
    """MELD_SET, MELD_RUN or 0."""
    return <int>rk_meld_kind_of(rules.ptr, as_mask(mask))


def melds(Rules rules, mask):
    """Every meld contained in the mask, as a list of masks."""
    cdef rk_mask buf[512]
    cdef size_t count = 0
    check(rk_enumerate_melds(rules.ptr, as_mask(mask), buf, 512, &count))
    return [buf[i] for i in range(count)]


def best_arrangement(Rules rules, mask):
    """(meld masks, deadwood mask, deadwood) of one optimal arrangement."""
    cdef rk_arrangement a
    check(rk_best_arrangement(rules.ptr, as_mask(mask), &a))
    return arrangement_tuple(&a)


def arrangements(Rules rules, mask, int max_deadwood):
    """All canonical arrangements with deadwood <= max_deadwood (-1: optimal)."""
    cdef rk_mask m = as_mask(mask)
    cdef size_t count = 0
    cdef size_t capacity = 64
    cdef rk_arrangement *buf
    cdef rk_status st
    while True:
        buf = <rk_arrangement *>malloc(capacity * sizeof(rk_arrangement))
        if buf == NULL:
            raise MemoryError()
        try:
            with nogil:
                st = rk_arrangements(rules.ptr, m, max_deadwood, buf, capacity, &count)
            if st == RK_OK:
                return [arrangement_tuple(&buf[i]) for i in range(count)]
            if st != RK_ERR_CAPACITY:
                check(st)
        finally:
            free(buf)
        capacity = count


def best_discard(Rules rules, mask, int forbidden):
    """(card, deadwood) of the best discard; forbidden is a card id or -1."""
    cdef int card = -1, dw = 0
    check(rk_best_discard(rules.ptr, as_mask(mask), forbidden, &card, &dw, NULL))
    return card, dw


def deadwood_after_discards(Rules rules, mask):
    """[(card, deadwood left after discarding it)] for every card of mask."""
    cdef int card = -1, dw = 0
    cdef int16_t after[52]
    cdef rk_mask m = as_mask(mask)
    check(rk_best_discard(rules.ptr, m, -1, &card, &dw, after))
    return [(i, after[i]) for i in range(52) if after[i] >= 0]


def layoff(Rules rules, knocker_melds, defender):
    """(deadwood, laid-off mask per meld, rest arrangement tuple)."""
    cdef rk_mask melds_buf[17]
    cdef rk_layoff_result out
    n = len(knocker_melds)
    if n > 17:
        raise InvalidMeldError(f"{n} melds: at most 17 fit in a deck")
    for i in range(n):
        melds_buf[i] = as_mask(knocker_melds[i])
    check(rk_layoff(rules.ptr, melds_buf, n, as_mask(defender), &out))
    return (out.deadwood, tuple([out.laid_off[i] for i in range(n)]),
            arrangement_tuple(&out.rest))


def choose_knock(Rules rules, knocker, defender, int limit, unsigned flags):
    """(knocker arrangement, (deadwood, laid off per meld, rest), margin, candidates)."""
    cdef rk_knock_choice out
    check(rk_choose_knock(rules.ptr, as_mask(knocker), as_mask(defender), limit, flags, &out))
    n = out.knocker.n_melds
    reply = (out.defender.deadwood, tuple([out.defender.laid_off[i] for i in range(n)]),
             arrangement_tuple(&out.defender.rest))
    return arrangement_tuple(&out.knocker), reply, out.margin, out.n_candidates


def _as_masks(masks):
    import numpy as np  # imported on first batch call, keeping `import rummykit` light

    arr = np.ascontiguousarray(masks)
    if arr.size == 0 and arr.ndim == 1:
        return np.zeros(0, dtype=np.uint64)
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise InvalidCardError(f"masks must be a 1-D integer array, got {arr.dtype} with shape {arr.shape}")
    if arr.dtype.kind == "i" and arr.size and arr.min() < 0:
        raise InvalidCardError(f"negative mask at index {int(np.argmax(arr < 0))}")
    return np.ascontiguousarray(arr, dtype=np.uint64)


cdef bad_mask_error(const uint64_t[::1] view, size_t index):
    return InvalidCardError(f"mask {view[index]:#x} at index {index} has bits outside the 52-card deck")


def deadwood_batch(Rules rules, masks):
    """int16 array of least deadwood per mask; the GIL is released."""
    import numpy as np

    cdef const uint64_t[::1] view = _as_masks(masks)
    out = np.empty(view.shape[0], dtype=np.int16)
    cdef int16_t[::1] out_view = out
    cdef size_t bad = 0
    cdef rk_status st
    cdef size_t n = view.shape[0]
    with nogil:
        st = rk_deadwood_batch(rules.ptr, <const rk_mask *>&view[0] if n else NULL, n,
                               &out_view[0] if n else NULL, &bad)
    if st == RK_ERR_BAD_MASK:
        raise bad_mask_error(view, bad)
    check(st)
    return out


def best_discard_batch(Rules rules, masks):
    """(int16 deadwood, int8 card) arrays of the best discard per mask."""
    import numpy as np

    cdef const uint64_t[::1] view = _as_masks(masks)
    cdef size_t n = view.shape[0]
    dw = np.empty(n, dtype=np.int16)
    card = np.empty(n, dtype=np.int8)
    cdef int16_t[::1] dw_view = dw
    cdef int8_t[::1] card_view = card
    cdef size_t bad = 0
    cdef rk_status st
    with nogil:
        st = rk_best_discard_batch(rules.ptr, <const rk_mask *>&view[0] if n else NULL, n,
                                   &dw_view[0] if n else NULL, &card_view[0] if n else NULL, &bad)
    if st == RK_ERR_BAD_MASK:
        raise bad_mask_error(view, bad)
    check(st)
    return dw, card


def discard_actions(Rules rules, mask, int forbidden, int knock_max, int knock_base):
    """Sorted action ids of a discard step: each card but `forbidden`
    (discard ids = card ids), then `knock_base + card` for every card whose
    discard leaves deadwood <= knock_max (-1: no knock)."""
    cdef int16_t after[52]
    cdef int card = -1, dw = 0
    cdef rk_mask m = as_mask(mask)
    cdef list discards = [], knocks = []
    check(rk_best_discard(rules.ptr, m, -1, &card, &dw, after))
    for i in range(52):
        if after[i] < 0 or i == forbidden:
            continue
        discards.append(i)
        if after[i] <= knock_max:
            knocks.append(knock_base + i)
    return discards + knocks


# ---- multi-deck hands with jokers (Kaluki) ---------------------------------


cdef rk_multi_rules multi_rules(bint ace_low_runs, int joker_penalty) except *:
    cdef rk_multi_rules rules
    if rk_multi_rules_init(&rules, 1 if ace_low_runs else 0, joker_penalty, NULL) != RK_OK:
        raise InvalidOptionError(f"joker_penalty must be 0..255, got {joker_penalty}")
    return rules


def multi_best(one, two, int jokers, int objective, int include_type, bint ace_low_runs, int joker_penalty):
    """None if `include_type` (-1: none) cannot be melded, else (melds, value, penalty,
    (left one, left two, left jokers)); a meld is (kind, cards, represents,
    value) with card types (JOKER = 52)."""
    cdef rk_multi_rules rules = multi_rules(ace_low_runs, joker_penalty)
    cdef rk_multi_hand hand
    cdef rk_multi_arrangement a
    cdef const rk_multi_meld *m
    cdef rk_status st
    hand.one = as_mask(one)
    hand.two = as_mask(two)
    hand.jokers = jokers
    with nogil:
        st = rk_multi_best(&rules, hand, <rk_multi_objective>objective, include_type, &a)
    if st == RK_ERR_NO_MELD:
        return None
    check(st)
    melds = []
    for i in range(a.n_melds):
        m = &a.melds[i]
        melds.append((<int>m.kind, tuple([m.cards[k] for k in range(m.n_cards)]),
                      tuple([m.represents[k] for k in range(m.n_cards)]), m.value))
    return melds, a.value, a.penalty, (a.left.one, a.left.two, a.left.jokers)


def multi_penalty(one, two, int jokers, bint ace_low_runs, int joker_penalty):
    """Least penalty of a multi-deck hand."""
    cdef rk_multi_rules rules = multi_rules(ace_low_runs, joker_penalty)
    cdef rk_multi_hand hand
    hand.one = as_mask(one)
    hand.two = as_mask(two)
    hand.jokers = jokers
    cdef int result = rk_multi_penalty(&rules, hand)
    if result < 0:
        check(<rk_status>result)
    return result


def multi_penalty_batch(counts, bint ace_low_runs, int joker_penalty):
    """int32 array of the least penalty per row of an (n, 53) uint8 count
    array; the GIL is released."""
    import numpy as np

    cdef rk_multi_rules rules = multi_rules(ace_low_runs, joker_penalty)
    arr = np.ascontiguousarray(counts)
    if arr.ndim != 2 or arr.shape[1] != RK_NUM_TYPES or arr.dtype.kind not in "iu":
        raise InvalidCardError(f"hands must be an integer array of shape (n, 53), got {arr.dtype} {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 255):
        raise InvalidCardError("card counts must be 0..2 (jokers 0..4)")
    cdef const uint8_t[:, ::1] view = np.ascontiguousarray(arr, dtype=np.uint8)
    cdef size_t n = view.shape[0]
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] out_view = out
    cdef size_t bad = 0
    cdef rk_status st
    with nogil:
        st = rk_multi_penalty_batch(&rules, &view[0, 0] if n else NULL, n, &out_view[0] if n else NULL, &bad)
    if st == RK_ERR_BAD_MASK:
        raise InvalidCardError(f"hand at index {bad}: a card type held more than twice or more than 4 jokers")
    check(st)
    return out

# ---- playouts (csrc/src/knock_engine.c, knock_score.c, policy.c, playouts.c) ------------------------------------------

OUTCOME_DEAD = RK_OUTCOME_DEAD
OUTCOME_GIN = RK_OUTCOME_GIN
OUTCOME_BIG_GIN = RK_OUTCOME_BIG_GIN
OUTCOME_KNOCK = RK_OUTCOME_KNOCK
OUTCOME_UNDERCUT = RK_OUTCOME_UNDERCUT
POLICY_RANDOM = RK_POLICY_RANDOM
POLICY_GREEDY = RK_POLICY_GREEDY
FIELD_INT, FIELD_INT_OR_NONE, FIELD_FLAG, FIELD_IS, FIELD_CHOICE = (
    RK_FIELD_INT, RK_FIELD_INT_OR_NONE, RK_FIELD_FLAG, RK_FIELD_IS, RK_FIELD_CHOICE)


cdef tuple _knock_fields():
    cdef size_t n = 0
    cdef const rk_field *f = rk_knock_rules_fields(&n)
    return tuple([(f[i].name.decode(), <int>f[i].type, f[i].lo, f[i].hi,
                   f[i].text.decode() if f[i].text != NULL else None) for i in range(n)])


#: rk_knock_rules_fields(): (option, type, lo, hi, text) per field of
#: rk_knock_rules, in struct order; fill_rules walks it
KNOCK_RULES_FIELDS = _knock_fields()
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


cdef int fill_rules(rk_knock_rules *pr, object rules) except -1:
    """Fill *pr from a KnockRules by the C field table (option name, type)."""
    cdef size_t n = 0
    cdef const rk_field *f = rk_knock_rules_fields(&n)
    cdef int v
    memset(pr, 0, sizeof(rk_knock_rules))
    for i in range(n):
        value = getattr(rules, f[i].name.decode())
        if f[i].type == RK_FIELD_IS:
            v = value == f[i].text.decode()
        elif f[i].type == RK_FIELD_CHOICE:
            v = f[i].text.decode().split("|").index(value)
        elif f[i].type == RK_FIELD_INT_OR_NONE and value is None:
            v = -1
        else:
            v = value
        memcpy(<char *>pr + f[i].offset, &v, sizeof(int))
    return 0


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
    pos.set_aside = pos.knock_card = -1
    return 0


cdef tuple seen_tuple(const rk_position *pos, int n):
    return (tuple([pos.known[i] for i in range(n)]), pos.set_aside, pos.knock_card)


cdef tuple result_details(const rk_playout_result *r, int n):
    return (tuple([r.credits[i] for i in range(n)]), tuple([r.charges[i] for i in range(n)]),
            tuple([r.boxes[i] for i in range(n)]), r.knock_limit)


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
                      rk_policy(RK_POLICY_GREEDY, -1), 0, 0, 0, &p, &o))


def run_playouts(Rules rules, PlayoutSpec spec, int policy, int max_knock_deadwood, uint64_t seed,
                 size_t first, int32_t[:, ::1] points, uint8_t[::1] outcomes):
    """Playouts first .. first + len(outcomes) - 1 into the given arrays (GIL released)."""
    cdef size_t n = outcomes.shape[0]
    cdef rk_status st
    cdef rk_policy pol = rk_policy(<rk_policy_kind>policy, max_knock_deadwood)
    if points.shape[0] != n or points.shape[1] != spec.num_players:
        raise ValueError("points must have shape (n, num_players)")
    if n == 0:
        return
    with nogil:
        st = rk_playouts(rules.ptr, &spec.pr, &spec.known, &spec.hidden if spec.has_hidden else NULL,
                         pol, seed, first, n, &points[0, 0], &outcomes[0])
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
        st = rk_playout(rules.ptr, &spec.pr, &pos, rk_policy(<rk_policy_kind>policy, max_knock_deadwood), &rng, &r)
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
        a = rk_policy_action(rules.ptr, &spec.pr, &pos, rk_policy(<rk_policy_kind>policy, max_knock_deadwood), &rng)
        if a < 0:
            check(<rk_status>a)
        actions.append(a)
        check(rk_apply_action(rules.ptr, &spec.pr, &pos, a, &r))
    return actions


def score_knock(Rules rules, object playout_rules, hands, int upcard, bint big_gin):
    """rk_score_knock: (outcome, winner, points, deadwood, multiplier), knock order."""
    cdef rk_knock_rules pr
    cdef rk_mask h[4]
    cdef rk_playout_result r
    fill_rules(&pr, playout_rules)
    if len(hands) != pr.num_players:
        raise RummykitError("one hand per player")
    for i in range(len(hands)):
        h[i] = as_mask(hands[i])
    check(rk_score_knock(rules.ptr, &pr, h, upcard, big_gin, &r))
    n = pr.num_players
    return r.outcome, r.winner, tuple([r.points[i] for i in range(n)]), tuple([r.deadwood[i] for i in range(n)]), r.multiplier


def knock_arrangement(Rules rules, object playout_rules, hands, int upcard, bint big_gin):
    """rk_knock_arrangement: the knocker's automatic arrangement, (melds, deadwood cards, deadwood)."""
    cdef rk_knock_rules pr
    cdef rk_mask h[4]
    cdef rk_arrangement a
    fill_rules(&pr, playout_rules)
    if len(hands) != pr.num_players:
        raise RummykitError("one hand per player")
    for i in range(len(hands)):
        h[i] = as_mask(hands[i])
    check(rk_knock_arrangement(rules.ptr, &pr, h, upcard, big_gin, &a))
    return arrangement_tuple(&a)


def score_knock_shown(Rules rules, object playout_rules, hands, int upcard, bint big_gin, melds):
    """rk_score_knock_shown: score_knock with the knocker's melds given, in order."""
    cdef rk_knock_rules pr
    cdef rk_mask h[4]
    cdef rk_mask m[17]
    cdef rk_playout_result r
    fill_rules(&pr, playout_rules)
    if len(hands) != pr.num_players:
        raise RummykitError("one hand per player")
    if len(melds) > 17:
        raise InvalidMeldError("too many melds")
    for i in range(len(hands)):
        h[i] = as_mask(hands[i])
    for i in range(len(melds)):
        m[i] = as_mask(melds[i])
    check(rk_score_knock_shown(rules.ptr, &pr, h, upcard, big_gin, m, len(melds), &r))
    n = pr.num_players
    return (r.outcome, r.winner, tuple([r.points[i] for i in range(n)]), tuple([r.deadwood[i] for i in range(n)]),
            r.multiplier) + result_details(&r, n)


def replay_knock_melds(Rules rules, PlayoutSpec spec, before, int card, melds, after):
    """Apply the actions ``before``, knock discarding ``card`` with the
    knocker's ``melds`` (rk_knock_melds), then the actions ``after`` (as
    replay_actions): ([legal actions before each step after the knock],
    result tuple or None, final hands).  For tests of the C state machine."""
    cdef rk_position pos = spec.known
    cdef rk_playout_result r
    cdef rk_mask m[17]
    cdef int legal[108]
    cdef int k
    check(rk_position_check(&spec.pr, &pos))
    for a in before:
        check(rk_apply_action(rules.ptr, &spec.pr, &pos, a, &r))
    if len(melds) > 17:
        raise InvalidMeldError("too many melds")
    for i in range(len(melds)):
        m[i] = as_mask(melds[i])
    check(rk_knock_melds(rules.ptr, &spec.pr, &pos, card, m, len(melds), &r))
    steps = []
    for a in after:
        k = rk_legal_actions(rules.ptr, &spec.pr, &pos, legal)
        if k < 0:
            check(<rk_status>k)
        steps.append([legal[i] for i in range(k)])
        check(rk_apply_action(rules.ptr, &spec.pr, &pos, a, &r))
    result = result_tuple(&r, spec.num_players) if pos.phase == RK_PHASE_END else None
    details = result_details(&r, spec.num_players) if pos.phase == RK_PHASE_END else None
    return steps, result, tuple([pos.hands[i] for i in range(spec.num_players)]), details, seen_tuple(&pos, spec.num_players)


def replay_actions(Rules rules, PlayoutSpec spec, actions, bint details=False):
    """Apply the given actions with rk_apply_action, each checked against
    rk_legal_actions: ([legal actions before each step], result tuple or
    None, final hands), plus (credits, charges, boxes, knock limit) with
    ``details``.  For tests of the C state machine."""
    cdef rk_position pos = spec.known
    cdef rk_playout_result r
    cdef int legal[108]
    cdef int k
    check(rk_position_check(&spec.pr, &pos))
    steps = []
    for a in actions:
        if pos.phase == RK_PHASE_END:
            raise RummykitError("the hand is over")
        k = rk_legal_actions(rules.ptr, &spec.pr, &pos, legal)
        if k < 0:
            check(<rk_status>k)
        now = [legal[i] for i in range(k)]
        steps.append(now)
        if a not in now:
            raise RummykitError(f"illegal action {a}")
        check(rk_apply_action(rules.ptr, &spec.pr, &pos, a, &r))
    result = result_tuple(&r, spec.num_players) if pos.phase == RK_PHASE_END else None
    final = tuple([pos.hands[i] for i in range(spec.num_players)])
    if details:
        return (steps, result, final, result_details(&r, spec.num_players) if pos.phase == RK_PHASE_END else None,
                seen_tuple(&pos, spec.num_players))
    return steps, result, final


def determinize_once(PlayoutSpec spec, uint64_t seed, size_t index):
    """The deal playout ``index`` of rk_playouts would play: (hands, stock)."""
    cdef rk_position pos = spec.known
    cdef rk_rng rng
    cdef uint8_t cards[52]
    cdef int start = 0, end, g, k
    if not spec.has_hidden:
        raise RummykitError("no hidden cards")
    rk_rng_seed(&rng, seed, index)
    # the same steps as determinize() in playouts.c
    for i in range(spec.hidden.n_slots):
        cards[i] = spec.hidden.cards[i]
    for g in range(spec.hidden.n_groups):
        end = spec.hidden.group_end[g]
        rk_rng_shuffle(&rng, cards + start, end - start)
        start = end
    for k in range(spec.hidden.n_slots):
        if spec.hidden.dest[k] == RK_DEST_STOCK:
            pos.stock[pos.n_stock] = cards[k]
            pos.n_stock += 1
        else:
            pos.hands[spec.hidden.dest[k]] |= (<rk_mask>1) << cards[k]
    return tuple([pos.hands[i] for i in range(spec.num_players)]), tuple([pos.stock[i] for i in range(pos.n_stock)])


# ---- table games: the state machine of csrc/src/table.c ------------------

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize

from rummykit.errors import IllegalActionError

#: the int fields of rk_table_rules (TableSpec's ``fields``)
TABLE_RULE_FIELDS = (
    "kaluki", "num_players", "hand_size", "deck_size", "npos", "shift", "wrap", "low_ace_one",
    "forbid_taken_discard", "restock_method", "max_restocks", "max_turns", "go_out_requires_discard",
    "no_go_out_first_turn", "max_melds_per_turn", "taken_discard_must_be_melded", "initial_meld_min",
    "building_counts_toward_opening", "unopened_discard_draw", "first_turn_upcard_free", "ace_low_runs",
    "joker_penalty", "two_joker_release_one_natural", "max_build_per_run_end", "unopened_may_release_joker",
    "hunt_allows_building", "hunt_requires_opening_min", "joker_discard_allowed",
)
DEF LEGAL_BUFFER = 256


cdef class TableSpec:
    """One table game's rules for the C engine (rk_table_rules) and its memo
    of Kaluki opening answers; built once per game (``values``: 53 card
    values; ``fields``: an int for each name in TABLE_RULE_FIELDS)."""

    cdef rk_table_rules r
    cdef rk_table_memo *memo
    cdef readonly tuple args

    def __cinit__(self, tuple values, dict fields):
        if len(values) != 53 or set(fields) != set(TABLE_RULE_FIELDS):
            raise InvalidOptionError("bad table rules")
        r = &self.r
        r.kaluki = fields["kaluki"]
        r.num_players = fields["num_players"]
        r.hand_size = fields["hand_size"]
        r.deck_size = fields["deck_size"]
        r.npos = fields["npos"]
        r.shift = fields["shift"]
        r.wrap = fields["wrap"]
        r.low_ace_one = fields["low_ace_one"]
        r.forbid_taken_discard = fields["forbid_taken_discard"]
        r.restock_method = fields["restock_method"]
        r.max_restocks = fields["max_restocks"]
        r.max_turns = fields["max_turns"]
        r.go_out_requires_discard = fields["go_out_requires_discard"]
        r.no_go_out_first_turn = fields["no_go_out_first_turn"]
        r.max_melds_per_turn = fields["max_melds_per_turn"]
        r.taken_discard_must_be_melded = fields["taken_discard_must_be_melded"]
        r.initial_meld_min = fields["initial_meld_min"]
        r.building_counts_toward_opening = fields["building_counts_toward_opening"]
        r.unopened_discard_draw = fields["unopened_discard_draw"]
        r.first_turn_upcard_free = fields["first_turn_upcard_free"]
        r.ace_low_runs = fields["ace_low_runs"]
        r.joker_penalty = fields["joker_penalty"]
        r.two_joker_release_one_natural = fields["two_joker_release_one_natural"]
        r.max_build_per_run_end = fields["max_build_per_run_end"]
        r.unopened_may_release_joker = fields["unopened_may_release_joker"]
        r.hunt_allows_building = fields["hunt_allows_building"]
        r.hunt_requires_opening_min = fields["hunt_requires_opening_min"]
        r.joker_discard_allowed = fields["joker_discard_allowed"]
        for i in range(53):
            if not 0 <= values[i] <= 255:
                raise InvalidOptionError(f"card value out of range: {values[i]!r}")
            r.values[i] = values[i]
        check(rk_table_rules_check(r))
        self.memo = rk_table_memo_new()
        if self.memo == NULL:
            raise MemoryError()
        self.args = (values, fields)

    def __dealloc__(self):
        rk_table_memo_free(self.memo)

    def __reduce__(self):
        return TableSpec, self.args


cdef inline object _cards_int(rk_table_cards c):
    return c.w[0] | (<object>c.w[1]) << 64


cdef inline rk_table_cards _int_cards(object mask) except *:
    cdef rk_table_cards c
    if mask < 0 or mask >> 128:
        raise RummykitError(f"not a card mask: {mask!r}")
    c.w[0] = mask & 0xFFFFFFFFFFFFFFFF
    c.w[1] = mask >> 64
    return c


cdef void _fill_cards(uint8_t *out, int16_t *n, object cards) except *:
    if len(cards) > RK_TABLE_MAX_CARDS:
        raise RummykitError("too many cards")
    for i, c in enumerate(cards):
        out[i] = c
    n[0] = len(cards)


cdef class TableCore:
    """The C state of one table-game hand and the verbs of the hot path
    (``legal_actions``, ``apply_action``, ``undo``, ``clone``); the
    fields of rk_table_state read and written as TableState's attributes.
    ``rummykit.table.state.TableState`` subclasses it for everything else.

    An undo entry is the state's bytes before the action; a clone copies
    the struct and shares the (immutable) entries.  The plain Python state
    machine it is checked against is tests/reference_table.py
    (``ReferenceTableState(game, deck, dealer, shuffle_seed)``, the same
    arguments as TableState; fields of the same names).  Edit-then-check:
    setting a field marks the state, and the next legal list first runs
    rk_table_check."""

    cdef rk_table_state st
    cdef TableSpec spec
    cdef list _stack
    cdef bint _edited  # fields were set by hand: rk_table_check before the next legal list
    cdef public list history
    cdef public object _legal  # the legal ids of this state (a list never handed out), or None
    cdef public object _views  # TableState's cached table and result, or None
    cdef public object game, rules, geo, deck
    cdef public int n, dealer

    def __cinit__(self, *args, **kwargs):
        self._stack = []
        self.history = []

    def _deal(self, TableSpec spec, deck, int dealer, uint64_t shuffle_seed):
        cdef uint8_t buf[108]
        if len(deck) != spec.r.deck_size:
            raise RummykitError("bad deck size")
        for i, c in enumerate(deck):
            buf[i] = c
        self.spec = spec
        check(rk_table_deal(&spec.r, buf, dealer, shuffle_seed, &self.st))

    cdef list _compute_legal(self):
        cdef int32_t buf[LEGAL_BUFFER]
        cdef int32_t *big
        cdef int n
        if self._edited:
            if rk_table_check(&self.spec.r, &self.st) != RK_OK:
                raise RummykitError(
                    "inconsistent table state: a card in two places or outside the deck, known cards not in the "
                    "hand, a seat, count or phase out of range, or an invalid table meld"
                )
            self._edited = False
        n = rk_table_legal(&self.spec.r, &self.st, self.spec.memo, buf, LEGAL_BUFFER)
        if n < 0:
            check(<rk_status>n)
        if n <= LEGAL_BUFFER:
            return [buf[i] for i in range(n)]
        big = <int32_t *>malloc(n * sizeof(int32_t))
        if big == NULL:
            raise MemoryError()
        try:
            n = rk_table_legal(&self.spec.r, &self.st, self.spec.memo, big, n)
            return [big[i] for i in range(n)]
        finally:
            free(big)

    def legal_actions(self):
        """The legal action ids, sorted (empty at the end of the hand)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def apply_action(self, action_id):
        """Apply a legal action id.  Anything else (an illegal or unknown id, a
        non-int) raises :class:`IllegalActionError` and changes nothing; the
        check is one look-up in the cached legal actions."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action_id) is not int or action_id not in legal:
            action_id = self.verify_action(action_id)  # raises naming the problem, or the plain id
        before = PyBytes_FromStringAndSize(<char *>&self.st, sizeof(rk_table_state))
        status = rk_table_apply(&self.spec.r, &self.st, self.spec.memo, action_id)
        if status != RK_OK:
            memcpy(&self.st, PyBytes_AS_STRING(before), sizeof(rk_table_state))
            check(status)
        self._stack.append(before)
        self.history.append(action_id)
        self._legal = None
        self._views = None

    def undo(self):
        """Take back the last action."""
        if not self._stack:
            raise IllegalActionError("nothing to undo")
        before = self._stack.pop()
        memcpy(&self.st, PyBytes_AS_STRING(before), sizeof(rk_table_state))
        self.history.pop()
        self._legal = None
        self._views = None

    def clone(self):
        """An independent copy (history and undo stack included)."""
        cdef TableCore other = type(self).__new__(type(self))
        other.st = self.st
        other.spec = self.spec
        other._stack = list(self._stack)
        other._edited = self._edited
        other.history = list(self.history)
        other._legal = self._legal
        other._views = self._views
        other.game, other.rules, other.geo, other.deck = self.game, self.rules, self.geo, self.deck
        other.n, other.dealer = self.n, self.dealer
        return other

    def is_terminal(self):
        return self.st.phase == 2

    def __reduce__(self):
        # the struct's bytes (this build's layout), the undo entries and the history; the
        # copy is checked (rk_table_check) before its first legal list
        raw = PyBytes_FromStringAndSize(<char *>&self.st, sizeof(rk_table_state))
        return _table_state_from, (type(self), self.game, self.deck, self.dealer, raw, self._stack, self.history)

    @property
    def current_player(self):
        """The seat to act (-4, OpenSpiel's terminal id, when the hand is over)."""
        return -4 if self.st.phase == 2 else self.st.player

    def _changed(self):
        self._edited = True
        self._legal = None
        self._views = None

    # --- fields (rk_table_state): reading is free, writing marks the state edited ---

    @property
    def hands(self):
        return tuple([_cards_int(self.st.hands[p]) for p in range(self.st.n_players)])

    @hands.setter
    def hands(self, masks):
        if len(masks) != self.st.n_players:
            raise RummykitError("one hand per seat")
        for p, m in enumerate(masks):
            self.st.hands[p] = _int_cards(m)
        self._changed()

    @property
    def known(self):
        return tuple([_cards_int(self.st.known[p]) for p in range(self.st.n_players)])

    @known.setter
    def known(self, masks):
        if len(masks) != self.st.n_players:
            raise RummykitError("one mask per seat")
        for p, m in enumerate(masks):
            self.st.known[p] = _int_cards(m)
        self._changed()

    @property
    def stock(self):
        return tuple([self.st.stock[i] for i in range(self.st.n_stock)])

    @stock.setter
    def stock(self, cards):
        _fill_cards(self.st.stock, &self.st.n_stock, cards)
        self._changed()

    @property
    def discards(self):
        return tuple([self.st.discards[i] for i in range(self.st.n_discards)])

    @discards.setter
    def discards(self, cards):
        _fill_cards(self.st.discards, &self.st.n_discards, cards)
        self._changed()

    @property
    def ends(self):
        return tuple([self.st.ends[i] for i in range(self.st.n_ends)])

    @ends.setter
    def ends(self, values):
        if len(values) > RK_TABLE_MAX_SLOTS:
            raise RummykitError("too many table slots")
        for i, v in enumerate(values):
            self.st.ends[i] = v
        self.st.n_ends = len(values)
        self._changed()

    def _table_raw(self):
        """The table melds as (kind, key, start, cards, owner) tuples."""
        cdef rk_table_meld *m
        out = []
        for i in range(self.st.n_table):
            m = &self.st.table[i]
            # TableMeld kinds: 0 set, 1 run (rk_meld_kind less one)
            out.append((m.kind - 1, m.key, m.start, tuple([m.cards[k] for k in range(m.n_cards)]), m.owner))
        return out

    def _set_table_raw(self, melds):
        cdef rk_table_meld *m
        if len(melds) > RK_TABLE_MAX_SLOTS:
            raise RummykitError("too many table melds")
        for i, (kind, key, start, cards, owner) in enumerate(melds):
            if len(cards) > RK_TABLE_MAX_MELD:
                raise RummykitError("a table meld of too many cards")
            m = &self.st.table[i]
            if kind not in (0, 1):
                raise RummykitError(f"not a table meld kind: {kind!r}")
            m.kind, m.key, m.start, m.n_cards, m.owner = kind + 1, key, start, len(cards), owner
            for k, c in enumerate(cards):
                m.cards[k] = c
        self.st.n_table = len(melds)
        self._changed()

    @property
    def phase(self):
        return self.st.phase

    @phase.setter
    def phase(self, int v):
        self.st.phase = v
        self._changed()

    @property
    def player(self):
        return self.st.player

    @player.setter
    def player(self, int v):
        self.st.player = v
        self._changed()

    @property
    def opened(self):
        return self.st.opened

    @opened.setter
    def opened(self, int v):
        self.st.opened = v
        self._changed()

    @property
    def played(self):
        return self.st.played

    @played.setter
    def played(self, int v):
        self.st.played = v
        self._changed()

    @property
    def taken(self):
        return self.st.taken

    @taken.setter
    def taken(self, int v):
        self.st.taken = v
        self._changed()

    @property
    def taken_card(self):
        return self.st.taken_card

    @taken_card.setter
    def taken_card(self, int v):
        self.st.taken_card = v
        self._changed()

    @property
    def must(self):
        return self.st.must

    @must.setter
    def must(self, int v):
        self.st.must = v
        self._changed()

    @property
    def pending(self):
        return self.st.pending

    @pending.setter
    def pending(self, int v):
        self.st.pending = v
        self._changed()

    @property
    def fresh(self):
        return bool(self.st.fresh)

    @fresh.setter
    def fresh(self, bint v):
        self.st.fresh = v
        self._changed()

    @property
    def built_other(self):
        return bool(self.st.built_other)

    @built_other.setter
    def built_other(self, bint v):
        self.st.built_other = v
        self._changed()

    @property
    def open_value(self):
        return self.st.open_value

    @open_value.setter
    def open_value(self, int v):
        self.st.open_value = v
        self._changed()

    @property
    def turn_melds(self):
        return self.st.turn_melds

    @turn_melds.setter
    def turn_melds(self, int v):
        self.st.turn_melds = v
        self._changed()

    @property
    def turns(self):
        return self.st.turns

    @turns.setter
    def turns(self, int v):
        self.st.turns = v
        self._changed()

    @property
    def restocks(self):
        return self.st.restocks

    @restocks.setter
    def restocks(self, int v):
        self.st.restocks = v
        self._changed()

    @property
    def shuffle_seed(self):
        return self.st.shuffle_seed

    @shuffle_seed.setter
    def shuffle_seed(self, uint64_t v):
        self.st.shuffle_seed = v
        self._changed()

    @property
    def outcome(self):
        """rk_table_outcome: 0 while the hand is on."""
        return self.st.outcome

    @property
    def winner(self):
        return None if self.st.winner < 0 else self.st.winner


def _table_state_from(cls, game, deck, dealer, bytes raw, list stack, list history):
    """Unpickle a TableCore (subclass) written by TableCore.__reduce__."""
    cdef TableCore state = cls.__new__(cls)
    if len(raw) != sizeof(rk_table_state) or any(len(b) != sizeof(rk_table_state) for b in stack):
        raise RummykitError("a table state pickled by a build with another state layout")
    memcpy(&state.st, PyBytes_AS_STRING(raw), sizeof(rk_table_state))
    state.spec = game.spec
    state.game, state.rules, state.geo, state.deck = game, game.rules, game.geo, tuple(deck)
    state.n, state.dealer = game.rules.num_players, dealer
    state._stack = list(stack)
    state.history = list(history)
    state._edited = True
    return state
