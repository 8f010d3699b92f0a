# Included by _core.pyx: the table games (csrc/include/rummykit/table.h).

# ---- table games: the state machine of csrc/src/table_*.c ---------------

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
