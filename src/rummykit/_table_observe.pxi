# Included by _core.pyx after _table.pxi: what one seat knows of a table hand
# (rummykit.table.observe), kept in C (csrc/src/table_hidden.c: rummykit/table.h, "hidden
# information").  TableCore keeps a public step log (``_steps``): one bytes entry per
# action (rk_table_step's layout), appended by apply_action and popped by undo, which
# carries the counts of the cards everyone knows each seat holds.  The observation, its
# tensor, the information-state string, the hidden lists and the determinization are read
# off the log and the state; none of them replays the history.

#: the start of each slice of the table observation tensor, in order, then its size (rk_table_obs_starts)
TABLE_TENSOR_STARTS = tuple([rk_table_obs_starts()[i] for i in range(RK_TABLE_OBS_SLICES + 1)])
#: a step log entry's bytes (rk_table_step): the header's length, a flag, "no card"
TABLE_STEP_HEAD = RK_TABLE_STEP_HEAD
TABLE_STEP_RESTOCK = RK_TABLE_STEP_RESTOCK
TABLE_NO_CARD = RK_TABLE_NO_CARD


cdef bytes _table_entry(const rk_table_rules *r, const rk_table_state *b, const rk_table_state *a, int action,
                        object prev):
    """The log entry of ``action``, which took state b to state a; ``prev`` is the entry before (None at the deal)."""
    cdef uint8_t e[RK_TABLE_STEP_MAX]
    cdef const uint8_t *before = NULL if prev is None else <const uint8_t *>PyBytes_AS_STRING(prev)
    cdef int k = rk_table_step(r, b, a, action, before, e)
    if k < 0:
        raise RummykitError("inconsistent table state in the step log")
    return PyBytes_FromStringAndSize(<char *>e, k)


cdef int _table_log(TableCore s, bytes before, int action) except -1:
    """Append the entry of ``action`` (the state was ``before``, TableCore's undo
    entry, now pushed) to the step log."""
    cdef rk_table_state b
    cdef Py_ssize_t k = len(s._steps)
    memcpy(&b, PyBytes_AS_STRING(before), sizeof(rk_table_state))  # a copy: aligned
    prev = _entry_at(s, k - 1, &b) if k else None
    s._steps.append(_table_entry(&s.spec.r, &b, &s.st, action, prev))
    return 0


cdef int _table_log_stale(TableCore s) except -1:
    """Fields were set by hand: the last entry (the last action's effect on the
    state) is made again when next read (_entry_at)."""
    cdef Py_ssize_t k = len(s._steps)
    if k:
        s._steps[k - 1] = None
    return 0


cdef object _entry_at(TableCore s, Py_ssize_t i, const rk_table_state *after):
    """Entry i of the step log; made again from undo entry i and ``after``
    (the state after action i) if fields were set by hand since."""
    cdef rk_table_state b
    entry = s._steps[i]
    if entry is None:
        if s._lazy:
            _table_unlazy(s)
        if len(s._stack) <= i or len(s.history) <= i:
            raise RummykitError("a table state whose history, undo entries and step log differ in length")
        memcpy(&b, PyBytes_AS_STRING(s._stack[i]), sizeof(rk_table_state))
        entry = _table_entry(&s.spec.r, &b, after, s.history[i], s._steps[i - 1] if i > 0 else None)
        s._steps[i] = entry
    return entry


cdef object _last_entry(TableCore s):
    """The last entry of the step log (None at the deal), made again if fields
    were set by hand since (check the state first: _table_checked)."""
    cdef Py_ssize_t k = len(s._steps)
    return _entry_at(s, k - 1, &s.st) if k else None


cdef int _table_relog(TableCore s) except -1:
    """Rebuild the step log from the undo entries and the history (an unpickled state)."""
    cdef rk_table_state b, a
    cdef Py_ssize_t i, k = len(s._stack)
    if len(s.history) != k:
        raise RummykitError("a table state whose history and undo entries differ in length")
    steps = []
    prev = None
    for i in range(k):
        memcpy(&b, PyBytes_AS_STRING(s._stack[i]), sizeof(rk_table_state))
        if i + 1 < k:
            memcpy(&a, PyBytes_AS_STRING(s._stack[i + 1]), sizeof(rk_table_state))
        else:
            a = s.st
        prev = _table_entry(&s.spec.r, &b, &a, s.history[i], prev)
        steps.append(prev)
    s._steps = steps
    return 0


cdef int _table_checked(TableCore s) except -1:
    """Check a state whose fields were set by hand, and its step log, before reading them."""
    if s._edited:
        s.legal_actions()  # raises on an inconsistent state
    _last_entry(s)
    return 0


def table_step_log(TableCore state):
    """The state's step log (the list itself: read it, do not change it), checked first."""
    _table_checked(state)
    return state._steps


# ---- the observation tensor ------------------------------------------------------------

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
import numbers as _obs_numbers

from rummykit.errors import clip as _obs_clip

cdef int _obs_seat(TableCore state, object player) except -1:
    """``player`` as a seat of state (an int or a numpy integer, not a bool), else InvalidOptionError."""
    cdef int n = state.spec.r.num_players
    if type(player) is int and 0 <= player < n:
        return player
    if isinstance(player, _obs_numbers.Integral) and not isinstance(player, bool) and 0 <= int(player) < n:
        return int(player)
    raise InvalidOptionError(f"player must be a seat 0..{n - 1}, got {_obs_clip(player)}")


def table_observation_tensor(TableCore state, object player, object out=None):
    """Seat ``player``'s observation of ``state`` as a float32 vector
    (rummykit.table.observe's layout), written into ``out`` (a writable,
    contiguous float32 buffer of the tensor's size) if given, else into a
    new numpy array; returns it."""
    cdef Py_buffer view
    cdef int p = _obs_seat(state, player)
    if out is None:
        import numpy  # on first use, keeping `import rummykit` light

        out = numpy.empty(RK_TABLE_OBS_SIZE, numpy.float32)
    PyObject_GetBuffer(out, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    try:
        if view.itemsize != 4 or view.format == NULL or view.format[0] != b"f" or view.format[1] != 0 \
                or view.len != RK_TABLE_OBS_SIZE * 4:
            raise RummykitError(f"the observation buffer must be {RK_TABLE_OBS_SIZE} float32 values")
        _table_checked(state)  # then the fill, with no Python call in between
        check(rk_table_observe(&state.spec.r, &state.st, _known_counts(state), p, <float *>view.buf))
    finally:
        PyBuffer_Release(&view)
    return out


cdef const uint8_t *_known_counts(TableCore s) noexcept:
    """The counts of the last log entry (NULL at the deal: none known); the log holds the
    entry, made again already if it had to be (_table_checked)."""
    cdef Py_ssize_t k = len(s._steps)
    if not k:
        return NULL
    entry = s._steps[k - 1]
    if entry is None:
        return NULL
    return <const uint8_t *>PyBytes_AS_STRING(entry) + RK_TABLE_STEP_HEAD


def table_known_counts(TableCore state):
    """Per seat, 53 counts: how many cards of each type everyone knows the seat holds."""
    cdef const uint8_t *known
    cdef int n = state.spec.r.num_players
    _table_checked(state)
    known = _known_counts(state)
    if known == NULL:
        return [[0] * RK_NUM_TYPES for _ in range(n)]
    return [[known[q * RK_NUM_TYPES + t] for t in range(RK_NUM_TYPES)] for q in range(n)]


# ---- the log as C reads it, the hidden lists -----------------------------------------

cdef enum:
    _LOG_STACK = 256  # steps whose log arrays live on the caller's stack


cdef int _table_log_arrays(TableCore s, rk_table_log *log, int32_t *actions, const uint8_t **steps) except -1:
    """Point log at the state's history and step log (actions and steps: len(history)
    items each), each entry checked to be one rk_table_step wrote for this game."""
    cdef object history = s._history
    cdef list log_ = s._steps
    cdef Py_ssize_t i, k = len(history)
    cdef int n = s.spec.r.num_players
    cdef long a
    cdef const uint8_t *e
    if type(history) is not History or type(log_) is not list or len(log_) != k:
        raise RummykitError("a table state whose history and step log differ in length")
    for i in range(k):
        entry = log_[i]
        action = history[i]
        if type(entry) is not bytes or type(action) is not int:
            raise RummykitError("a table state whose history or step log was changed by hand")
        a = action
        e = <const uint8_t *>PyBytes_AS_STRING(entry)
        if not 0 <= a < RK_TABLE_NUM_ACTIONS or PyBytes_GET_SIZE(entry) < RK_TABLE_STEP_HEAD or e[6] != n \
                or <size_t>PyBytes_GET_SIZE(entry) != rk_table_step_length(e):
            raise RummykitError("a table state whose history or step log was changed by hand")
        steps[i] = e
        actions[i] = <int32_t>a
    log.actions = actions
    log.steps = steps
    log.n = <int>k
    return 0


cdef int _table_deck(TableCore s, uint8_t *deck) except -1:
    """The state's deck as bytes (rules->deck_size physical ids); a deck tuple's bytes
    are kept for the next call (TableCore._deck_raw)."""
    cdef int i, size = s.spec.r.deck_size
    d = s.deck
    if d is s._deck_of:
        memcpy(deck, PyBytes_AS_STRING(s._deck_raw), size)
        return 0
    if len(d) != size:
        raise RummykitError("a table state whose deck is not the game's")
    for i in range(size):
        c = d[i]
        if type(c) is not int or not 0 <= c < RK_TABLE_MAX_CARDS:
            raise RummykitError("a table state whose deck is not the game's")
        deck[i] = c
    if type(d) is tuple:
        s._deck_of, s._deck_raw = d, PyBytes_FromStringAndSize(<char *>deck, size)
    return 0


_INCONSISTENT_HIDDEN = (
    "inconsistent state for determinization: the hidden cards do not fit what the history says "
    "(a position whose fields were set by hand has no such history: use resample='stock' or 'none')"
)


cdef class TableHidden:
    """What one seat knows of a table hand, for the C determinization
    (rk_table_hidden): ``table_hidden_spec(state, player)`` reads it off the step log
    (rk_table_hidden_of); the constructor builds one from lists (``now``: the
    history length; ``pool``: per group, 53 counts; ``places``, ``fills``,
    ``bans``: lists of (seat, group, time), (seat, type, time), (seat, type,
    time); ``known``: per seat, 53 counts)."""

    cdef rk_table_hidden h
    cdef bytes _pool, _place_seat, _fill_seat, _fill_type, _ban_seat, _ban_type
    cdef object _place_group, _place_time, _fill_time, _ban_time  # array.array('i')
    cdef object _work  # bytearray: the lists rk_table_hidden_of wrote
    cdef int _seats  # seats in known
    cdef readonly int n_places

    def __cinit__(self, int mode, int observer, int stock_group, int now=0, pool=(), places=(), fills=(), bans=(),
                  known=()):
        from array import array

        if mode not in (RK_TABLE_RESAMPLE_STOCK, RK_TABLE_RESAMPLE_HIDDEN) or len(known) > RK_TABLE_MAX_PLAYERS:
            raise RummykitError("bad hidden-card spec")
        try:
            self._pool = bytes([c for counts in pool for c in counts])
            self._place_seat = bytes([p[0] for p in places])
            self._place_group = array("i", [p[1] for p in places])
            self._place_time = array("i", [p[2] for p in places])
            self._fill_seat = bytes([f[0] for f in fills])
            self._fill_type = bytes([f[1] for f in fills])
            self._fill_time = array("i", [f[2] for f in fills])
            self._ban_seat = bytes([b[0] for b in bans])
            self._ban_type = bytes([b[1] for b in bans])
            self._ban_time = array("i", [b[2] for b in bans])
        except (ValueError, OverflowError, TypeError, IndexError) as e:
            raise RummykitError(f"bad hidden-card spec: {e}") from None
        if any(len(counts) != 53 for counts in pool) or any(len(counts) != 53 for counts in known):
            raise RummykitError("bad hidden-card spec: 53 counts per group and per seat")
        memset(&self.h, 0, sizeof(rk_table_hidden))
        self.h.mode, self.h.observer, self.h.stock_group, self.h.now = mode, observer, stock_group, now
        self.h.n_groups, self.h.n_places = len(pool), len(places)
        self.h.n_fills, self.h.n_bans = len(fills), len(bans)
        self.n_places = len(places)
        self._seats = len(known)
        self.h.pool = <const uint8_t *>PyBytes_AS_STRING(self._pool)
        self.h.place_seat = <const uint8_t *>PyBytes_AS_STRING(self._place_seat)
        self.h.fill_seat = <const uint8_t *>PyBytes_AS_STRING(self._fill_seat)
        self.h.fill_type = <const uint8_t *>PyBytes_AS_STRING(self._fill_type)
        self.h.ban_seat = <const uint8_t *>PyBytes_AS_STRING(self._ban_seat)
        self.h.ban_type = <const uint8_t *>PyBytes_AS_STRING(self._ban_type)
        cdef int[::1] view
        if len(places):
            view = self._place_time
            self.h.place_time = <const int32_t *>&view[0]
            view = self._place_group
            self.h.place_group = <const int32_t *>&view[0]
        if len(fills):
            view = self._fill_time
            self.h.fill_time = <const int32_t *>&view[0]
        if len(bans):
            view = self._ban_time
            self.h.ban_time = <const int32_t *>&view[0]
        for q, counts in enumerate(known):
            for t in range(53):
                if not 0 <= counts[t] <= 255:
                    raise RummykitError("bad hidden-card spec: a count out of range")
                self.h.known[q][t] = counts[t]

    def lists(self):
        """(pools, places, fills, bans, known, stock_group, now) as lists
        (rummykit.table.playouts.HiddenLists)."""
        cdef rk_table_hidden *h = &self.h
        cdef int i, g, t, q
        pools = [[h.pool[g * 53 + t] for t in range(53)] for g in range(h.n_groups)]
        places = [(h.place_seat[i], h.place_group[i], h.place_time[i]) for i in range(h.n_places)]
        fills = [(h.fill_seat[i], h.fill_type[i], h.fill_time[i]) for i in range(h.n_fills)]
        bans = [(h.ban_seat[i], h.ban_type[i], h.ban_time[i]) for i in range(h.n_bans)]
        known = [[h.known[q][t] for t in range(53)] for q in range(self._seats)]
        return pools, places, fills, bans, known, h.stock_group, h.now


def table_hidden_spec(TableCore state, int player):
    """What seat ``player`` knows of the hand (rk_table_hidden_of, read off the step log)."""
    cdef rk_table_log log
    cdef int32_t abuf[_LOG_STACK]
    cdef const uint8_t *sbuf[_LOG_STACK]
    cdef int32_t *actions = abuf
    cdef const uint8_t **steps = sbuf
    cdef uint8_t deck[RK_TABLE_MAX_CARDS]
    cdef Py_ssize_t k
    cdef rk_status st
    cdef TableHidden hidden
    cdef unsigned char[::1] work
    cdef int n = state.spec.r.num_players
    if not 0 <= player < n:
        raise InvalidOptionError(f"player must be a seat 0..{n - 1}, got {player}")
    _table_checked(state)
    k = len(state.history)
    if k > _LOG_STACK:
        actions = <int32_t *>malloc(k * sizeof(int32_t))
        steps = <const uint8_t **>malloc(k * sizeof(uint8_t *))
    try:
        if actions == NULL or steps == NULL:
            raise MemoryError()
        _table_log_arrays(state, &log, actions, steps)
        _table_deck(state, deck)
        hidden = TableHidden(RK_TABLE_RESAMPLE_HIDDEN, player, 0)
        hidden._work = bytearray(rk_table_hidden_size(&state.spec.r, log.n) + 8)
        work = hidden._work
        st = rk_table_hidden_of(&state.spec.r, &state.st, deck, &log, player, &work[0], &hidden.h)
        if st == RK_ERR_ARG:
            raise RummykitError(_INCONSISTENT_HIDDEN)
        check(st)
    finally:
        if actions != abuf:
            free(actions)
        if steps != sbuf:
            free(<void *>steps)
    hidden.n_places = hidden.h.n_places
    hidden._seats = n
    return hidden


def table_hidden_lists(TableCore state, int player):
    """What seat ``player`` knows of the hand, for the C determinization
    (rk_table_hidden_of): (pools, places, fills, bans, known, stock_group,
    now); see rummykit.table.playouts.HiddenLists."""
    return table_hidden_spec(state, player).lists()


# ---- the determinized state ------------------------------------------------------------


def table_world(TableCore state, int player, uint64_t seed, int max_tries=-1):
    """(a full state that seat ``player`` cannot tell from ``state``, whether it was
    sampled): rk_table_world_of with an rng seeded (seed, 0), max_tries -1:
    RK_TABLE_MAX_TRIES.  The copy keeps the history and a step log of its own; its undo
    entries are made when first needed, by replaying its world (_table_unlazy)."""
    cdef rk_table_log log
    cdef int32_t abuf[_LOG_STACK]
    cdef const uint8_t *sbuf[_LOG_STACK]
    cdef int32_t *actions = abuf
    cdef const uint8_t **steps = sbuf
    cdef uint8_t deck[RK_TABLE_MAX_CARDS]
    cdef uint8_t e[RK_TABLE_STEP_MAX]
    cdef rk_table_world world
    cdef rk_rng rng
    cdef rk_status st
    cdef void *work = NULL
    cdef Py_ssize_t k, i
    cdef int n = state.spec.r.num_players
    cdef size_t size
    cdef TableCore other
    if not 0 <= player < n:
        raise InvalidOptionError(f"player must be a seat 0..{n - 1}, got {player}")
    _table_checked(state)
    k = len(state.history)
    if k > _LOG_STACK:
        actions = <int32_t *>malloc(k * sizeof(int32_t))
        steps = <const uint8_t **>malloc(k * sizeof(uint8_t *))
    try:
        if actions == NULL or steps == NULL:
            raise MemoryError()
        _table_log_arrays(state, &log, actions, steps)
        _table_deck(state, deck)
        work = malloc(rk_table_world_size(&state.spec.r, log.n))
        if work == NULL:
            raise MemoryError()
        rk_rng_seed(&rng, seed, 0)
        st = rk_table_world_of(&state.spec.r, &state.st, deck, &log, player, max_tries, &rng, state.spec.memo, work,
                               &world)
        if st == RK_ERR_ARG:
            raise RummykitError(_INCONSISTENT_HIDDEN)
        check(st)
        other = type(state).__new__(type(state))
        other.st = world.state
        other.spec = state.spec
        other.game, other.rules, other.geo = state.game, state.rules, state.geo
        other.n, other.dealer = state.n, state.dealer
        raw = PyBytes_FromStringAndSize(<char *>world.deck, state.spec.r.deck_size)
        other._deck = tuple(raw)
        other._deck_of, other._deck_raw = other._deck, raw
        other._history = _history_copy(state._history)
        # the log: the same entries but where a draw took another type in this world
        new = list(state._steps)
        for i in range(k):
            if world.came[i] != steps[i][2]:
                size = rk_table_step_length(steps[i])
                memcpy(e, steps[i], size)
                e[2] = world.came[i]
                new[i] = PyBytes_FromStringAndSize(<char *>e, size)
        other._steps = new
        other._lazy = <int>k
        other._world = (raw, PyBytes_FromStringAndSize(<char *>world.orders, world.n_orders), world.state.shuffle_seed)
        return other, bool(world.sampled)
    finally:
        free(work)
        if actions != abuf:
            free(actions)
        if steps != sbuf:
            free(<void *>steps)


cdef int _table_unlazy(TableCore s) except -1:
    """Make the undo entries of a determinized state's first ``_lazy`` actions: replay its
    world (rk_table_replay: the deck, the past reshuffles' orders) to keep each state."""
    cdef int k = s._lazy, i
    cdef rk_table_state *before
    cdef rk_table_state end
    cdef int32_t *actions
    cdef rk_status st
    raw, orders, seed = s._world
    if len(s.history) < k:
        raise RummykitError("undo: the history is shorter than the undo stack (history was replaced)")
    before = <rk_table_state *>malloc(k * sizeof(rk_table_state) + 1)
    actions = <int32_t *>malloc(k * sizeof(int32_t) + 1)
    try:
        if before == NULL or actions == NULL:
            raise MemoryError()
        for i in range(k):
            a = s.history[i]
            if type(a) is not int or not 0 <= a < RK_TABLE_NUM_ACTIONS:
                raise RummykitError("undo: the history was changed by hand")
            actions[i] = a
        st = rk_table_replay(&s.spec.r, <const uint8_t *>PyBytes_AS_STRING(raw), s.st.dealer, s.st.absent, seed,
                             actions, k, <const uint8_t *>PyBytes_AS_STRING(orders), len(orders), s.spec.memo,
                             before, &end)
        if st != RK_OK:
            raise RummykitError("undo: the determinized state's history does not replay on its deck")
        s._stack = [PyBytes_FromStringAndSize(<char *>&before[i], sizeof(rk_table_state)) for i in range(k)] + s._stack
    finally:
        free(before)
        free(actions)
    s._lazy = 0
    s._world = None
    return 0
