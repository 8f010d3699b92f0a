# Included by _core.pyx: the table games (csrc/include/rummykit/table.h).

# ---- table games: the state machine of csrc/src/table_*.c ---------------

import numbers as _numbers

from rummykit.errors import clip as _clip

#: bounds of the int fields, as Python ints (C constant folding would overflow)
_TABLE_INT32_MAX = int("2147483647")
_TABLE_UINT64_MAX = int("18446744073709551615")
_TABLE_MASK_MAX = (int(1) << int(RK_TABLE_MAX_CARDS)) - 1


cdef tuple _table_fields():
    cdef size_t n = 0
    cdef const rk_field *f = rk_table_rules_fields(&n)
    return field_rows(f, n)


#: rk_table_rules_fields(): (option, type, lo, hi, text) per int field of rk_table_rules, in struct order
TABLE_RULES_FIELDS = _table_fields()
#: the options rk_table_rules is filled from (TableSpec's ``fields``), in struct order
TABLE_RULE_FIELDS = tuple([row[0] for row in TABLE_RULES_FIELDS])
#: the most players of Kaluki (the field table allows RK_TABLE_MAX_PLAYERS for Rummy)
TABLE_MAX_KALUKI_PLAYERS = RK_TABLE_MAX_KALUKI_PLAYERS
#: the table outcomes by their code (rk_table_outcome_name; None: the hand is not over)
TABLE_OUTCOMES = (None,) + tuple([rk_table_outcome_name(i).decode() for i in range(1, RK_TABLE_CALL_OFF + 1)])
#: the table action id blocks (table.h)
TABLE_ACTION_IDS = {
    "draw": RK_TABLE_DRAW, "take": RK_TABLE_TAKE, "layoff": RK_TABLE_LAYOFF, "release_run": RK_TABLE_RELEASE_RUN,
    "release_set": RK_TABLE_RELEASE_SET, "meld_set": RK_TABLE_MELD_SET, "set_end": RK_TABLE_SET_END,
    "meld_run": RK_TABLE_MELD_RUN, "num_actions": RK_TABLE_NUM_ACTIONS, "max_slots": RK_TABLE_MAX_SLOTS,
}


def table_layoff_id(int slot, int card_type, int end):
    """rk_table_layoff_id: the id of a lay-off of card_type on table meld slot at end (0 low, 1 high)."""
    return rk_table_layoff_id(slot, card_type, end)


def table_set_id(int rank, int suits, int jokers):
    """rk_table_set_id: the id of a set meld of rank, naturals of the suits in the mask, jokers."""
    return rk_table_set_id(rank, suits, jokers)


def table_run_id(int suit, int start, int length, int joker_mask):
    """rk_table_run_id: the id of a run meld (suit, start position, length, joker position mask)."""
    return rk_table_run_id(suit, start, length, joker_mask)


def table_run_of(int32_t action_id):
    """rk_table_run_of: (suit, start, length, joker_mask) of a run-meld id."""
    cdef int suit, start, length, mask
    rk_table_run_of(action_id, &suit, &start, &length, &mask)
    return suit, start, length, mask


#: the fixed action space (table.h, THE FIXED ACTION SPACE): its blocks and size
TABLE_FIXED_IDS = {
    "layoff": RK_TABLE_FIXED_LAYOFF, "release_run": RK_TABLE_FIXED_RELEASE_RUN,
    "release_set": RK_TABLE_FIXED_RELEASE_SET, "meld_set": RK_TABLE_FIXED_MELD_SET,
    "meld_run": RK_TABLE_FIXED_MELD_RUN, "num_actions": RK_TABLE_FIXED_ACTIONS,
}
#: the factored form's heads (name, number of values), kinds, and the heads each kind uses
TABLE_HEADS = tuple([(rk_table_head_name(h).decode(), rk_table_head_size(h)) for h in range(RK_TABLE_NUM_HEADS)])
TABLE_KINDS = tuple([rk_table_kind_name(k).decode() for k in range(RK_TABLE_NUM_KINDS)])
TABLE_KIND_HEADS = tuple([tuple([h for h in range(RK_TABLE_NUM_HEADS) if rk_table_kind_heads(k) >> h & 1])
                          for k in range(RK_TABLE_NUM_KINDS)])


def table_fixed_id(int64_t action_id):
    """rk_table_fixed_id of one engine id (-1 where it is no action id)."""
    return rk_table_fixed_id(<int32_t>action_id) if -2**31 <= action_id < 2**31 else -1


def table_fixed_ids(const int32_t[::1] ids, int32_t[::1] out):
    """rk_table_fixed_id of each engine id into out (-1 where it is no action id)."""
    cdef Py_ssize_t i
    if out.shape[0] != ids.shape[0]:
        raise InvalidOptionError("table_fixed_ids: out must have one entry per id")
    for i in range(ids.shape[0]):
        out[i] = rk_table_fixed_id(ids[i])


def table_fixed_first(int32_t fixed):
    """rk_table_fixed_first: the lowest engine id of a fixed id, -1 out of range."""
    return rk_table_fixed_first(fixed)


def table_fixed_resolve(const int32_t[::1] legal, int32_t fixed):
    """rk_table_fixed_resolve: the lowest of the sorted legal engine ids with that fixed id, -1 if none."""
    if legal.shape[0] == 0:
        return -1
    return rk_table_fixed_resolve(&legal[0], <int>legal.shape[0], fixed)


def table_fixed_factor(const int32_t[::1] fixed, int32_t[:, ::1] out):
    """rk_table_fixed_factor of each fixed id into a row of out (n x heads); the index of the first
    id that is no move's (its row all -1), or -1 if every one is."""
    cdef Py_ssize_t i
    cdef Py_ssize_t bad = -1
    if out.shape[0] != fixed.shape[0] or out.shape[1] != RK_TABLE_NUM_HEADS:
        raise InvalidOptionError("table_fixed_factor: out must be (ids, heads)")
    for i in range(fixed.shape[0]):
        if rk_table_fixed_factor(fixed[i], &out[i, 0]) != 0 and bad < 0:
            bad = i
    return bad


def table_fixed_unfactor(const int32_t[:, ::1] heads, int32_t[::1] out):
    """rk_table_fixed_unfactor of each row of heads (n x heads) into out; the index of the first row
    that is no move's (out -1 there), or -1 if every one is."""
    cdef Py_ssize_t i
    cdef Py_ssize_t bad = -1
    if heads.shape[1] != RK_TABLE_NUM_HEADS or out.shape[0] != heads.shape[0]:
        raise InvalidOptionError("table_fixed_unfactor: heads must be (rows, heads), out one entry per row")
    for i in range(heads.shape[0]):
        out[i] = rk_table_fixed_unfactor(&heads[i, 0])
        if out[i] < 0 and bad < 0:
            bad = i
    return bad


#: the names of the rk_table_why reason codes, by code (rummykit.table.reasons words them)
TABLE_REASONS = tuple([rk_table_reason_name(i).decode() for i in range(RK_TABLE_NUM_REASONS)])
DEF LEGAL_BUFFER = 256


cdef class TableSpec:
    """One table game's rules for the C engine (rk_table_rules) and its memo
    of Kaluki opening answers; built once per game (``values``: 53 card
    values; ``fields``: the value of each option of TABLE_RULE_FIELDS, the
    names of rk_table_rules_fields())."""

    cdef rk_table_rules r
    cdef rk_table_memo *memo
    cdef readonly tuple args

    def __cinit__(self, tuple values, dict fields):
        cdef size_t n = 0
        cdef const rk_field *f = rk_table_rules_fields(&n)
        if len(values) != 53 or set(fields) != set(TABLE_RULE_FIELDS):
            raise InvalidOptionError("bad table rules: 53 card values and one value per field of TABLE_RULE_FIELDS")
        r = &self.r
        # the int fields through the C field table (a tampered pickle may hold anything: each is range-checked)
        fill_fields(r, sizeof(rk_table_rules), f, n, TABLE_RULE_FIELDS, fields.__getitem__)
        for i in range(53):
            if type(values[i]) is not int or not 0 <= values[i] <= 255:
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

    def is_action(self, int32_t action_id):
        """rk_table_is_action: whether an engine id is an action of these rules (its text exists)."""
        return bool(rk_table_is_action(&self.r, action_id))


cdef tuple _table_result(const rk_table_result *r, int n):
    """(values, points, penalties, bonuses, returns) of an rk_table_result, tuples of n ints."""
    return (tuple([r.values[q] for q in range(n)]), tuple([r.points[q] for q in range(n)]),
            tuple([r.penalties[q] for q in range(n)]), tuple([r.bonuses[q] for q in range(n)]),
            tuple([r.returns[q] for q in range(n)]))


def table_score_values(TableSpec spec, int outcome, int winner, values):
    """rk_table_score_values: (values, points, penalties, bonuses, returns) of a hand that ended with
    the outcome code, the winner (-1: none) and these hand values; InvalidOptionError if they do not fit."""
    cdef int32_t v[RK_TABLE_MAX_PLAYERS]
    cdef rk_table_result r
    cdef int n = spec.r.num_players
    if len(values) != n or not all(type(x) is int and 0 <= x <= RK_TABLE_MAX_VALUE for x in values):
        raise InvalidOptionError(f"hand values: {n} ints in 0..{RK_TABLE_MAX_VALUE}, got {_clip(values)}")
    for q in range(n):
        v[q] = values[q]
    if rk_table_score_values(&spec.r, outcome, winner, v, &r) != RK_OK:
        name = TABLE_OUTCOMES[outcome] if 0 <= outcome < len(TABLE_OUTCOMES) else outcome
        raise InvalidOptionError(f"no such hand end in this game: outcome {name!r}, winner {winner}")
    return _table_result(&r, n)


cdef inline object _cards_int(rk_table_cards c):
    return c.w[0] | (<object>c.w[1]) << 64


cdef object _table_int(str name, object value, object lo, object hi, str allowed=None):
    """value as an int lo..hi (numpy integers too, not a bool), else InvalidOptionError
    naming the field and the range: a table-state field is never truncated."""
    if isinstance(value, _numbers.Integral) and not isinstance(value, bool) and lo <= value <= hi:
        return int(value)
    raise InvalidOptionError(f"{name} must be an int in {allowed or f'{lo}..{hi}'}, got {_clip(value)}")


cdef tuple _table_items(str name, object value, Py_ssize_t most):
    """A list or tuple field value (at most ``most`` items) as a tuple, else InvalidOptionError."""
    if not isinstance(value, (list, tuple)):
        raise InvalidOptionError(f"{name} must be a list or tuple, got {type(value).__name__}: {_clip(value)}")
    if len(value) > most:
        raise InvalidOptionError(f"{name}: at most {most} items, got {len(value)}")
    return tuple(value)


cdef inline rk_table_cards _int_cards(object mask, str name) except *:
    cdef rk_table_cards c
    mask = _table_int(name, mask, 0, _TABLE_MASK_MAX, "0..2**108-1 (a mask of physical cards)")
    c.w[0] = mask & 0xFFFFFFFFFFFFFFFF
    c.w[1] = mask >> 64
    return c


cdef tuple _table_card_ids(str name, object cards):
    """Physical card ids 0..107 (checked before anything is written)."""
    items = _table_items(name, cards, RK_TABLE_MAX_CARDS)
    return tuple([_table_int(f"{name}[{i}]", c, 0, RK_TABLE_MAX_CARDS - 1) for i, c in enumerate(items)])


cdef inline Py_ssize_t _table_bounded(Py_ssize_t n, Py_ssize_t most) noexcept:
    """A stored count clipped to its buffer: the getters never read past one, whatever the bytes say."""
    return 0 if n < 0 else most if n > most else n


cdef bint _table_state_ok(const rk_table_rules *rules, const char *raw) noexcept:
    """Whether the bytes of an rk_table_state (any bytes) are a state rk_table_check accepts;
    copied first, so that the check reads an aligned struct."""
    cdef rk_table_state st
    memcpy(&st, raw, sizeof(rk_table_state))
    return rk_table_check(rules, &st) == RK_OK


#: what rk_table_check refuses, for messages
_TABLE_INCONSISTENT = (
    "a card in two places or outside the deck, known cards not in the hand, a seat, count, phase, "
    f"outcome or winner out of range, an invalid table meld, or a Kaluki hand over {RK_TABLE_MAX_KALUKI_HAND} cards"
)


_TABLE_FIELDS = ("hands", "known", "stock", "discards", "table", "ends", "phase", "player", "opened", "absent",
                 "played", "taken", "taken_card", "must", "pending", "fresh", "built_other", "open_value",
                 "turn_melds", "turns", "restocks", "shuffle_seed")


cdef class TableCore:
    """The C state of one table-game hand and the verbs of the hot path
    (``legal_actions``, ``apply_action``, ``undo``, ``clone``); the
    fields of rk_table_state read and written as TableState's attributes.
    ``rummykit.table.state.TableState`` subclasses it for everything else.

    An undo entry is the state's bytes before the action; a clone copies
    the struct and shares the (immutable) entries.  The plain Python state
    machine it is checked against is tests/reference/table.py
    (``ReferenceTableState(game, deck, dealer, shuffle_seed)``, the same
    arguments as TableState; fields of the same names).  Edit-then-check:
    setting a field marks the state, and the next legal list first runs
    rk_table_check."""

    cdef rk_table_state st
    cdef TableSpec spec
    cdef list _stack
    cdef int _lazy  # a determinized state's first actions whose undo entries are still to make (_table_unlazy)
    cdef object _world  # then: (its deck's bytes, the past reshuffles' orders, its shuffle_seed)
    cdef object _deck_of  # the deck tuple whose bytes _deck_raw holds (_table_deck), or None
    cdef bytes _deck_raw
    cdef bint _edited  # fields were set by hand: rk_table_check before the next legal list
    cdef bint _busy  # a change is under way (another thread's call raises: see _enter)
    cdef bint _building  # with_fields is setting fields of its new copy (else they are read-only)
    cdef object _history  # a History: callers read it, only the verbs change it
    cdef public list _steps  # the public step log (_table_observe.pxi): one entry per action, popped by undo
    cdef public object _legal  # the legal ids of this state (a list never handed out), or None
    cdef public object _views  # TableState's cached table and result, or None
    cdef public object game, rules, geo
    cdef object _deck
    cdef public int n, dealer

    def __cinit__(self, *args, **kwargs):
        self._stack = []
        self._history = History.__new__(History)
        self._steps = []

    @property
    def history(self):
        """The action ids played, in order (read-only: a :class:`History`)."""
        return self._history

    @history.setter
    def history(self, value):
        _history_read_only()

    @property
    def deck(self):
        """The deck the hand was dealt from (physical card ids)."""
        return self._deck

    @deck.setter
    def deck(self, value):
        _field_writable(False)

    def with_fields(self, **fields):
        """A copy of this state with ``fields`` set, in the order given (tests and tools
        build positions this way): ``hands``, ``known``, ``stock``, ``discards``, ``table``,
        ``ends``, ``phase``, ``player``, ``opened``, ``absent``, ``played``, ``taken``,
        ``taken_card``, ``must``, ``pending``, ``fresh``, ``built_other``, ``open_value``,
        ``turn_melds``, ``turns``, ``restocks``, ``shuffle_seed``.  The copy is checked
        before its next legal list; a bad value raises naming the field.  The state itself
        is read-only: it changes only through its verbs."""
        cdef TableCore other = self.clone()
        other._building = True
        try:
            for name, value in fields.items():
                if name not in _TABLE_FIELDS:
                    raise InvalidOptionError(f"with_fields: no field {name!r} (fields: {', '.join(_TABLE_FIELDS)})")
                setattr(other, name, value)
        finally:
            other._building = False
        return other

    def _deal(self, TableSpec spec, deck, int dealer, uint64_t shuffle_seed, unsigned absent=0):
        cdef uint8_t buf[108]
        if len(deck) != spec.r.deck_size:
            raise RummykitError("bad deck size")
        for i, c in enumerate(deck):
            buf[i] = c
        self.spec = spec
        check(rk_table_deal_present(&spec.r, buf, dealer, absent, shuffle_seed, &self.st))
        self._deck = tuple(deck)

    cdef list _compute_legal(self):
        cdef int32_t buf[LEGAL_BUFFER]
        cdef int32_t *big
        cdef int n
        if self._edited:
            if rk_table_check(&self.spec.r, &self.st) != RK_OK:
                raise RummykitError(f"inconsistent table state: {_TABLE_INCONSISTENT}")
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

    def _is_action(self, int32_t action_id):
        """rk_table_is_action: whether an id is an action of this game (its action text exists)."""
        return bool(rk_table_is_action(&self.spec.r, action_id))

    def _seat_deadwood(self, int seat):
        """rk_table_hand_value: the value of the cards ``seat`` holds now (the reward shaping's
        deadwood, as rummykit.vector.VectorGame's)."""
        if not 0 <= seat < self.st.n_players:
            raise InvalidOptionError(f"seat must be 0..{self.st.n_players - 1}, got {seat}")
        return rk_table_hand_value(&self.spec.r, self.st.hands[seat])

    def _why(self, int action_id, int seat=-1):
        """rk_table_why: (the reason's name, detail) for an action id, ``"legal"`` when it is legal now."""
        cdef int detail[1]
        if self._edited:
            self._compute_legal()
        cdef int code = rk_table_why(&self.spec.r, &self.st, self.spec.memo, seat, action_id, detail)
        if code < 0:
            check(<rk_status>code)
        return TABLE_REASONS[code], detail[0]

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
            legal = self._legal
        self._enter()
        try:
            if legal is None or self._legal is not legal:  # changed meanwhile: check again
                legal = self._legal = self._compute_legal()
                if action_id not in legal:
                    raise IllegalActionError(f"action {action_id} is no longer legal: the state changed")
            before = PyBytes_FromStringAndSize(<char *>&self.st, sizeof(rk_table_state))
            status = rk_table_apply(&self.spec.r, &self.st, self.spec.memo, action_id)
            if status != RK_OK:
                memcpy(&self.st, PyBytes_AS_STRING(before), sizeof(rk_table_state))
                check(status)
            self._stack.append(before)
            _history_append(self._history, action_id)
            _table_log(self, before, action_id)
            self._legal = None
            self._views = None
        finally:
            self._busy = False

    cdef int _enter(self) except -1:
        """Start a change: a second thread changing or copying the state while
        one change is under way raises instead of corrupting it."""
        if self._busy:
            raise RummykitError("this state is being changed by another thread: use one state per thread, or a lock")
        self._busy = True
        return 0

    def undo(self):
        """Take back the last action."""
        self._enter()
        try:
            if not self._stack and self._lazy:
                _table_unlazy(self)
            if not self._stack:
                raise IllegalActionError("nothing to undo")
            if len(self._history) < len(self._stack) or len(self._steps) != len(self._history):
                raise RummykitError("undo: the history does not match the undo stack (it was changed past its guard)")
            before = self._stack[len(self._stack) - 1]  # no [-1]: wraparound is off
            # checked before it is restored: the engine never runs on bytes it did not make itself
            if not _table_state_ok(&self.spec.r, PyBytes_AS_STRING(before)):
                raise RummykitError(f"undo: the undo entry is not a consistent table state ({_TABLE_INCONSISTENT})")
            self._stack.pop()
            memcpy(&self.st, PyBytes_AS_STRING(before), sizeof(rk_table_state))
            _history_pop(self._history)
            self._steps.pop()
            self._edited = False
            self._legal = None
            self._views = None
        finally:
            self._busy = False

    def clone(self):
        """An independent copy (history and undo stack included)."""
        if self._busy:
            raise RummykitError("this state is being changed by another thread: use one state per thread, or a lock")
        cdef TableCore other = type(self).__new__(type(self))
        other.st = self.st
        other.spec = self.spec
        other._stack = list(self._stack)
        other._lazy, other._world = self._lazy, self._world
        other._edited = self._edited
        other._history = _history_copy(self._history)
        other._steps = list(self._steps)
        other._legal = self._legal
        other._views = self._views
        other.game, other.rules, other.geo, other._deck = self.game, self.rules, self.geo, self._deck
        other.n, other.dealer = self.n, self.dealer
        return other

    def is_terminal(self):
        return self.st.phase == 2

    def __reduce__(self):
        # the struct's bytes (this build's layout), the undo entries and the history; the
        # copy is checked (every entry by rk_table_check) before it is made
        if self._lazy:
            _table_unlazy(self)
        raw = PyBytes_FromStringAndSize(<char *>&self.st, sizeof(rk_table_state))
        return _table_state_from, (type(self), self.game, self._deck, self.dealer, raw, self._stack,
                                   list(self._history))

    @property
    def current_player(self):
        """The seat to act (-4, OpenSpiel's terminal id, when the hand is over)."""
        return -4 if self.st.phase == 2 else self.st.player

    def _changed(self):
        self._edited = True
        self._legal = None
        self._views = None
        _table_log_stale(self)

    # --- fields (rk_table_state): reading is free, writing marks the state edited ---
    # A setter checks its value's type and range (never truncating it) before it writes
    # anything; the state as a whole is checked (rk_table_check) before the next legal list.
    # The getters bound every stored count by its buffer.

    cdef Py_ssize_t _seats(self):
        return _table_bounded(self.st.n_players, RK_TABLE_MAX_PLAYERS)

    cdef list _masks(self, str name, object masks):
        items = _table_items(name, masks, RK_TABLE_MAX_PLAYERS)
        if len(items) != self._seats():
            raise InvalidOptionError(f"{name}: one mask per seat ({self._seats()}), got {len(items)}")
        return [_int_cards(m, f"{name}[{p}]") for p, m in enumerate(items)]

    @property
    def hands(self):
        return tuple([_cards_int(self.st.hands[p]) for p in range(self._seats())])

    @hands.setter
    def hands(self, masks):
        _field_writable(self._building)
        for p, c in enumerate(self._masks("hands", masks)):
            self.st.hands[p] = c
        self._changed()

    @property
    def known(self):
        return tuple([_cards_int(self.st.known[p]) for p in range(self._seats())])

    @known.setter
    def known(self, masks):
        _field_writable(self._building)
        for p, c in enumerate(self._masks("known", masks)):
            self.st.known[p] = c
        self._changed()

    @property
    def stock(self):
        return tuple([self.st.stock[i] for i in range(_table_bounded(self.st.n_stock, RK_TABLE_MAX_CARDS))])

    @stock.setter
    def stock(self, cards):
        _field_writable(self._building)
        ids = _table_card_ids("stock", cards)
        for i, c in enumerate(ids):
            self.st.stock[i] = c
        self.st.n_stock = len(ids)
        self._changed()

    @property
    def discards(self):
        return tuple([self.st.discards[i] for i in range(_table_bounded(self.st.n_discards, RK_TABLE_MAX_CARDS))])

    @discards.setter
    def discards(self, cards):
        _field_writable(self._building)
        ids = _table_card_ids("discards", cards)
        for i, c in enumerate(ids):
            self.st.discards[i] = c
        self.st.n_discards = len(ids)
        self._changed()

    @property
    def ends(self):
        return tuple([self.st.ends[i] for i in range(_table_bounded(self.st.n_ends, RK_TABLE_MAX_SLOTS))])

    @ends.setter
    def ends(self, values):
        _field_writable(self._building)
        items = _table_items("ends", values, RK_TABLE_MAX_SLOTS)
        ends = [_table_int(f"ends[{i}]", v, 0, 255, "0..255 (low end + 16 * high end)") for i, v in enumerate(items)]
        for i, v in enumerate(ends):
            self.st.ends[i] = v
        self.st.n_ends = len(ends)
        self._changed()

    def _table_raw(self):
        """The table melds as (kind, key, start, cards, owner) tuples."""
        cdef rk_table_meld *m
        out = []
        for i in range(_table_bounded(self.st.n_table, RK_TABLE_MAX_SLOTS)):
            m = &self.st.table[i]
            # TableMeld kinds: 0 set, 1 run (rk_meld_kind less one)
            cards = tuple([m.cards[k] for k in range(_table_bounded(m.n_cards, RK_TABLE_MAX_MELD))])
            out.append((m.kind - 1, m.key, m.start, cards, m.owner))
        return out

    def _set_table_raw(self, melds):
        cdef rk_table_meld *m
        _field_writable(self._building)
        items = _table_items("table", melds, RK_TABLE_MAX_SLOTS)
        checked = []
        for i, meld in enumerate(items):
            if not isinstance(meld, tuple) or len(meld) != 5:
                raise InvalidOptionError(f"table[{i}] must be (kind, key, start, cards, owner), got {_clip(meld)}")
            kind, key, start, cards, owner = meld
            cards = _table_items(f"table[{i}].cards", cards, RK_TABLE_MAX_MELD)
            checked.append((
                _table_int(f"table[{i}].kind", kind, 0, 1, "0 (set) or 1 (run)"),
                _table_int(f"table[{i}].key", key, 0, 12, "0..12 (a set's rank, a run's suit)"),
                _table_int(f"table[{i}].start", start, 0, 13),
                tuple([_table_int(f"table[{i}].cards[{k}]", c, 0, RK_TABLE_MAX_CARDS - 1) for k, c in enumerate(cards)]),
                _table_int(f"table[{i}].owner", owner, 0, self._seats() - 1, f"0..{self._seats() - 1} (a seat)"),
            ))
        for i, (kind, key, start, cards, owner) in enumerate(checked):
            m = &self.st.table[i]
            m.kind, m.key, m.start, m.n_cards, m.owner = kind + 1, key, start, len(cards), owner
            for k, c in enumerate(cards):
                m.cards[k] = c
        self.st.n_table = len(checked)
        self._changed()

    @property
    def phase(self):
        return self.st.phase

    @phase.setter
    def phase(self, v):
        _field_writable(self._building)
        self.st.phase = _table_int("phase", v, 0, 2, "0..2 (draw, play, end)")
        self._changed()

    @property
    def player(self):
        return self.st.player

    @player.setter
    def player(self, v):
        _field_writable(self._building)
        self.st.player = _table_int("player", v, 0, self._seats() - 1, f"0..{self._seats() - 1} (a seat)")
        self._changed()

    @property
    def opened(self):
        return self.st.opened

    @opened.setter
    def opened(self, v):
        _field_writable(self._building)
        most = (1 << self._seats()) - 1
        self.st.opened = _table_int("opened", v, 0, most, f"0..{most} (a mask of seats)")
        self._changed()

    @property
    def absent(self):
        """The seats out of this hand (a match's eliminated players; a mask): they hold no
        cards and never move."""
        return self.st.absent

    @property
    def deal_seats(self):
        """The seats in the hand in deal order, the first left of the dealer (the dealer
        last): card i of the deal goes to ``deal_seats[i % len(deal_seats)]``, the upcard is
        card ``hand_size * len(deal_seats)`` of the deck."""
        n = self._seats()
        if n == 0:
            return ()
        seats = [(self.st.dealer + i) % n for i in range(1, n + 1)]
        return tuple([q for q in seats if not self.st.absent >> q & 1])

    @absent.setter
    def absent(self, v):
        _field_writable(self._building)
        most = (1 << self._seats()) - 1
        self.st.absent = _table_int("absent", v, 0, most, f"0..{most} (a mask of seats)")
        self._changed()

    @property
    def played(self):
        return self.st.played

    @played.setter
    def played(self, v):
        _field_writable(self._building)
        most = (1 << self._seats()) - 1
        self.st.played = _table_int("played", v, 0, most, f"0..{most} (a mask of seats)")
        self._changed()

    @property
    def taken(self):
        return self.st.taken

    @taken.setter
    def taken(self, v):
        _field_writable(self._building)
        self.st.taken = _table_int("taken", v, -1, RK_JOKER, f"-1..{RK_JOKER} (a card type, or -1)")
        self._changed()

    @property
    def taken_card(self):
        return self.st.taken_card

    @taken_card.setter
    def taken_card(self, v):
        _field_writable(self._building)
        most = RK_TABLE_MAX_CARDS - 1
        self.st.taken_card = _table_int("taken_card", v, -1, most, f"-1..{most} (a physical card, or -1)")
        self._changed()

    @property
    def must(self):
        return self.st.must

    @must.setter
    def must(self, v):
        _field_writable(self._building)
        self.st.must = _table_int("must", v, -1, RK_JOKER, f"-1..{RK_JOKER} (a card type, or -1)")
        self._changed()

    @property
    def pending(self):
        return self.st.pending

    @pending.setter
    def pending(self, v):
        _field_writable(self._building)
        self.st.pending = _table_int("pending", v, 0, RK_TABLE_MAX_PENDING)
        self._changed()

    @property
    def fresh(self):
        return bool(self.st.fresh)

    @fresh.setter
    def fresh(self, v):
        _field_writable(self._building)
        self.st.fresh = _table_flag("fresh", v)
        self._changed()

    @property
    def built_other(self):
        return bool(self.st.built_other)

    @built_other.setter
    def built_other(self, v):
        _field_writable(self._building)
        self.st.built_other = _table_flag("built_other", v)
        self._changed()

    @property
    def open_value(self):
        return self.st.open_value

    @open_value.setter
    def open_value(self, v):
        _field_writable(self._building)
        self.st.open_value = _table_int("open_value", v, 0, 32767)
        self._changed()

    @property
    def turn_melds(self):
        return self.st.turn_melds

    @turn_melds.setter
    def turn_melds(self, v):
        _field_writable(self._building)
        self.st.turn_melds = _table_int("turn_melds", v, 0, 32767)
        self._changed()

    @property
    def turns(self):
        return self.st.turns

    @turns.setter
    def turns(self, v):
        _field_writable(self._building)
        self.st.turns = _table_int("turns", v, 0, _TABLE_INT32_MAX, "0..2**31-1")
        self._changed()

    @property
    def restocks(self):
        return self.st.restocks

    @restocks.setter
    def restocks(self, v):
        _field_writable(self._building)
        self.st.restocks = _table_int("restocks", v, 0, _TABLE_INT32_MAX, "0..2**31-1")
        self._changed()

    @property
    def shuffle_seed(self):
        return self.st.shuffle_seed

    @shuffle_seed.setter
    def shuffle_seed(self, v):
        _field_writable(self._building)
        self.st.shuffle_seed = _table_int("shuffle_seed", v, 0, _TABLE_UINT64_MAX, "0..2**64-1")
        self._changed()

    @property
    def outcome(self):
        """rk_table_outcome: 0 while the hand is on."""
        return self.st.outcome

    @property
    def winner(self):
        return None if self.st.winner < 0 else self.st.winner

    def _score(self):
        """rk_table_score of the ended hand: (values, points, penalties, bonuses, returns)."""
        cdef rk_table_result r
        check(rk_table_score(&self.spec.r, &self.st, &r))
        return _table_result(&r, self.st.n_players)


cdef int _table_flag(str name, object value) except -1:
    """A flag field: True, False, 0 or 1 (numpy bools and integers too)."""
    numpy_bool = getattr(value, "shape", None) == () and getattr(getattr(value, "dtype", None), "kind", "") == "b"
    if (isinstance(value, (bool, _numbers.Integral)) or numpy_bool) and (value == 0 or value == 1):
        return 1 if value else 0
    raise InvalidOptionError(f"{name} must be True or False, got {_clip(value)}")


def _table_state_from(cls, game, deck, dealer, raw, stack, history):
    """Unpickle a TableCore (subclass) written by TableCore.__reduce__.  Nothing is trusted:
    the class, the game's rules record, the deck and dealer, the struct's bytes and every
    undo entry (rk_table_check) and the history are checked before the state is made, and
    anything else is refused with a RummykitError."""
    cdef TableCore state
    cdef TableSpec spec
    if not (isinstance(cls, type) and issubclass(cls, TableCore)):
        raise RummykitError(f"unpickling a table state: {_clip(cls)} is not a table state class")
    spec_object = getattr(game, "spec", None)
    if type(spec_object) is not TableSpec:
        raise RummykitError(f"unpickling a table state: {_clip(game)} is not a table game")
    spec = spec_object
    size = sizeof(rk_table_state)
    if type(raw) is not bytes or len(raw) != size:
        raise RummykitError("unpickling a table state: the state is not the bytes of this build's state layout")
    if type(stack) is not list or any(type(b) is not bytes or len(b) != size for b in stack):
        raise RummykitError("unpickling a table state: the undo stack is not a list of this build's state bytes")
    if type(history) is not list or len(history) != len(stack) or any(
        type(a) is not int or not 0 <= a <= _TABLE_INT32_MAX for a in history
    ):
        raise RummykitError("unpickling a table state: the history is not one action id per undo entry")
    if not isinstance(deck, (list, tuple)) or sorted(
        [c if type(c) is int else -1 for c in deck]
    ) != list(range(spec.r.deck_size)):
        raise RummykitError(f"unpickling a table state: the deck is not the game's {spec.r.deck_size} cards")
    if not _table_state_ok(&spec.r, PyBytes_AS_STRING(raw)):
        raise RummykitError(f"unpickling a table state: the state is inconsistent ({_TABLE_INCONSISTENT})")
    for i, entry in enumerate(stack):
        if not _table_state_ok(&spec.r, PyBytes_AS_STRING(entry)):
            raise RummykitError(f"unpickling a table state: undo entry {i} is inconsistent ({_TABLE_INCONSISTENT})")
    state = cls.__new__(cls)
    memcpy(&state.st, PyBytes_AS_STRING(raw), size)
    if type(dealer) is not int or dealer != state.st.dealer:
        raise RummykitError(f"unpickling a table state: dealer {_clip(dealer)} is not the state's")
    state.spec = spec
    state.game, state.rules, state.geo, state._deck = game, game.rules, game.geo, tuple(deck)
    state.n, state.dealer = spec.r.num_players, dealer
    state._stack = list(stack)
    state._history = History(history)
    _table_relog(state)
    state._edited = False
    return state


def _table_state_layout():
    """{field: (offset, item size, items, signed)} of rk_table_state in this build, and
    {field: offset} of rk_table_meld: for tests that tamper with a pickled state's bytes."""
    cdef rk_table_state s
    cdef rk_table_meld *m = &s.table[0]
    cdef size_t base = <size_t>&s
    cdef size_t mb = <size_t>m
    state = {
        "hands": (<size_t>&s.hands[0] - base, 8, 2 * RK_TABLE_MAX_PLAYERS, False),
        "known": (<size_t>&s.known[0] - base, 8, 2 * RK_TABLE_MAX_PLAYERS, False),
        "stock": (<size_t>&s.stock[0] - base, 1, RK_TABLE_MAX_CARDS, False),
        "discards": (<size_t>&s.discards[0] - base, 1, RK_TABLE_MAX_CARDS, False),
        "table": (<size_t>&s.table[0] - base, sizeof(rk_table_meld), RK_TABLE_MAX_SLOTS, False),
        "ends": (<size_t>&s.ends[0] - base, 1, RK_TABLE_MAX_SLOTS, False),
        "n_stock": (<size_t>&s.n_stock - base, 2, 1, True),
        "n_discards": (<size_t>&s.n_discards - base, 2, 1, True),
        "n_table": (<size_t>&s.n_table - base, 2, 1, True),
        "n_ends": (<size_t>&s.n_ends - base, 2, 1, True),
        "phase": (<size_t>&s.phase - base, 1, 1, True),
        "player": (<size_t>&s.player - base, 1, 1, True),
        "dealer": (<size_t>&s.dealer - base, 1, 1, True),
        "n_players": (<size_t>&s.n_players - base, 1, 1, True),
        "opened": (<size_t>&s.opened - base, 1, 1, False),
        "played": (<size_t>&s.played - base, 1, 1, False),
        "absent": (<size_t>&s.absent - base, 1, 1, False),
        "taken": (<size_t>&s.taken - base, 1, 1, True),
        "taken_card": (<size_t>&s.taken_card - base, 1, 1, True),
        "must": (<size_t>&s.must - base, 1, 1, True),
        "pending": (<size_t>&s.pending - base, 1, 1, True),
        "fresh": (<size_t>&s.fresh - base, 1, 1, True),
        "built_other": (<size_t>&s.built_other - base, 1, 1, True),
        "outcome": (<size_t>&s.outcome - base, 1, 1, True),
        "winner": (<size_t>&s.winner - base, 1, 1, True),
        "open_value": (<size_t>&s.open_value - base, 2, 1, True),
        "turn_melds": (<size_t>&s.turn_melds - base, 2, 1, True),
        "turns": (<size_t>&s.turns - base, 4, 1, True),
        "restocks": (<size_t>&s.restocks - base, 4, 1, True),
        "shuffle_seed": (<size_t>&s.shuffle_seed - base, 8, 1, False),
        "recent": (<size_t>&s.recent[0][0][0] - base, 1, RK_TABLE_MAX_PLAYERS * 3 * 8, False),
    }
    meld = {
        "kind": <size_t>&m.kind - mb,
        "key": <size_t>&m.key - mb,
        "start": <size_t>&m.start - mb,
        "n_cards": <size_t>&m.n_cards - mb,
        "owner": <size_t>&m.owner - mb,
        "cards": <size_t>&m.cards[0] - mb,
    }
    return state, meld, sizeof(rk_table_state)
