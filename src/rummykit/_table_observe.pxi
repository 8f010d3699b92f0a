# Included by _core.pyx after _table.pxi: what one seat knows of a table hand
# (rummykit.table.observe).  TableCore keeps a public step log (``_steps``): one bytes
# entry per action, appended by apply_action and popped by undo, which carries the
# counts of the cards everyone knows each seat holds.  The observation, its tensor, the
# information-state string and the determinization's bookkeeping are read off the log
# and the state; none of them replays the history.
#
# A step entry: [0] the seat that acted, [1] flags (_STEP_*), [2] the type it drew or
# took (_NO_CARD: none; a stock draw's is private to the seat unless _STEP_PUBLIC),
# [3] n_out, [4] n_in, [5] n_moved, [6] n_players, [7] 0; then n_players * 53 counts,
# seat by seat: how many cards of each type everyone knows the seat holds after the
# step; then the n_out types the seat put down (sorted; | _UNSEEN when nobody knew it
# held that card), the n_in types that came to its hand otherwise than by a draw or a
# take (released jokers), and the n_moved types a restock put into the stock (the pile
# bottom first: all of it when turned over, all but its top card when reshuffled).

cdef enum:
    _STEP_HEAD = 8
    _NO_CARD = 255
    _STEP_RESTOCK = 1  # a restock came just before this draw
    _STEP_PUBLIC = 2   # the stock is a turned-over pile, its order public (this draw is seen)
    _UNSEEN = 0x80
    _TYPES = 53
    _JOKER_TYPE = 52
    _FIRST_JOKER = 104

#: the start of each slice of the table observation tensor, in order, then its size (rk_table_obs_starts)
TABLE_TENSOR_STARTS = tuple([rk_table_obs_starts()[i] for i in range(RK_TABLE_OBS_SLICES + 1)])


cdef inline int _ctype(int c) noexcept nogil:
    return _JOKER_TYPE if c >= _FIRST_JOKER else c % 52


cdef inline bint _holds(rk_table_cards c, int card) noexcept nogil:
    return (c.w[card >> 6] >> (card & 63)) & 1


cdef int _sorted_types(rk_table_cards c, uint8_t *out) noexcept nogil:
    """The types of the physical cards of c, ascending, into out; returns how many
    (an insertion sort: a step moves a few cards)."""
    cdef int n = 0, t, j, w
    cdef uint64_t bits
    for w in range(2):
        bits = c.w[w]
        while bits:
            t = _ctype(64 * w + __builtin_ctzll(bits))
            bits &= bits - 1
            j = n
            while j > 0 and out[j - 1] > t:
                out[j] = out[j - 1]
                j -= 1
            out[j] = <uint8_t>t
            n += 1
    return n


cdef void _type_counts(rk_table_cards c, int *counts) noexcept nogil:
    """Add the types of the physical cards of c to counts."""
    cdef int w
    cdef uint64_t bits
    for w in range(2):
        bits = c.w[w]
        while bits:
            counts[_ctype(64 * w + __builtin_ctzll(bits))] += 1
            bits &= bits - 1


cdef bytes _table_entry(const rk_table_rules *r, const rk_table_state *b, const rk_table_state *a, int action,
                        object prev):
    """The log entry of ``action``, which took state b to state a; ``prev`` is the entry before (None at the deal)."""
    cdef int p = b.player, n = r.num_players, i, came = _NO_CARD, flags = 0, n_moved = 0
    cdef int n_out, n_in
    cdef rk_table_cards gone, got
    cdef uint8_t outs[108]
    cdef uint8_t ins[108]
    cdef uint8_t unseen[_TYPES]
    cdef uint8_t *e
    cdef uint8_t *tail
    if not 0 <= p < n or not 0 <= b.n_discards <= RK_TABLE_MAX_CARDS or n > RK_TABLE_MAX_PLAYERS:
        raise RummykitError("inconsistent table state in the step log")
    for i in range(2):
        gone.w[i] = b.hands[p].w[i] & ~a.hands[p].w[i]
        got.w[i] = a.hands[p].w[i] & ~b.hands[p].w[i]
    n_out = _sorted_types(gone, outs)
    n_in = _sorted_types(got, ins)
    if a.restocks > b.restocks:
        flags |= _STEP_RESTOCK
        n_moved = b.n_discards if r.restock_method == 1 else max(b.n_discards - 1, 0)
    if r.restock_method == 1 and a.restocks > 0:
        flags |= _STEP_PUBLIC
    if action == RK_TABLE_DRAW or action == RK_TABLE_TAKE:
        if n_in:
            came = ins[0]
        n_in = 0
    entry = PyBytes_FromStringAndSize(NULL, _STEP_HEAD + n * _TYPES + n_out + n_in + n_moved)
    e = <uint8_t *>PyBytes_AS_STRING(entry)
    e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7] = p, flags, came, n_out, n_in, n_moved, n, 0
    if prev is None:
        memset(e + _STEP_HEAD, 0, n * _TYPES)
    else:
        memcpy(e + _STEP_HEAD, PyBytes_AS_STRING(prev) + _STEP_HEAD, n * _TYPES)
    rk_table_known_step(r, b, a, action, e + _STEP_HEAD, unseen)
    for i in range(n_out - 1, -1, -1):  # the last copies of a type put down are the ones nobody knew of
        if unseen[outs[i]]:
            unseen[outs[i]] -= 1
            outs[i] = <uint8_t>(outs[i] | _UNSEEN)
    tail = e + _STEP_HEAD + n * _TYPES
    memcpy(tail, outs, n_out)
    memcpy(tail + n_out, ins, n_in)
    for i in range(n_moved):
        tail[n_out + n_in + i] = <uint8_t>_ctype(b.discards[i])
    return entry


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
    return <const uint8_t *>PyBytes_AS_STRING(entry) + _STEP_HEAD


def table_known_counts(TableCore state):
    """Per seat, 53 counts: how many cards of each type everyone knows the seat holds."""
    cdef const uint8_t *known
    cdef int n = state.spec.r.num_players
    _table_checked(state)
    known = _known_counts(state)
    if known == NULL:
        return [[0] * _TYPES for _ in range(n)]
    return [[known[q * _TYPES + t] for t in range(_TYPES)] for q in range(n)]


# ---- the determinization's bookkeeping -------------------------------------------------


def table_hidden_lists(TableCore state, int player):
    """What seat ``player`` knows of the hand, for the C determinization
    (rk_table_hidden), read off the step log: (pools, places, fills, bans,
    known, stock_group, now); see rummykit.table.playouts.HiddenLists."""
    cdef const rk_table_rules *r = &state.spec.r
    cdef int n = r.num_players, size = r.hand_size, q, t, k, time, action, group = 0, mask, start, length, suit
    cdef int n_out, n_in, i, pos
    cdef bint turned = False, turn_over = r.restock_method == 1
    cdef const uint8_t *e
    cdef int shown[53]
    if not 0 <= player < n:
        raise InvalidOptionError(f"player must be a seat 0..{n - 1}, got {player}")
    _table_checked(state)
    steps = state._steps
    history = state.history
    if len(steps) != len(history):
        raise RummykitError("a table state whose history and step log differ in length")
    deck = state.deck
    full = [2 if r.kaluki else 1] * 52 + [r.deck_size - 104 if r.kaluki else 0]
    pools = [full]
    order = state.deal_seats  # the seats absent from the hand (a match's eliminated players) are dealt nothing
    in_hand = len(order)
    pools[0][_ctype(deck[size * in_hand])] -= 1
    if player in order:
        for i in range(order.index(player), size * in_hand, in_hand):
            pools[0][_ctype(deck[i])] -= 1
    places = [(q, 0, -1) for q in range(n) if q != player and q in order for _ in range(size)]
    fills = []
    bans = []
    for time in range(len(steps)):
        entry = steps[time]
        e = <const uint8_t *>PyBytes_AS_STRING(entry)
        action = history[time]
        q = e[0]
        n_out, n_in = e[3], e[4]
        if e[1] & _STEP_RESTOCK:
            if turn_over:
                turned = True
            else:
                group += 1
                pool = [0] * _TYPES
                for i in range(e[5]):
                    pool[e[_STEP_HEAD + n * _TYPES + n_out + n_in + i]] += 1
                pools.append(pool)
        if action == RK_TABLE_DRAW:
            if e[2] != _NO_CARD and not turned:
                if q == player:
                    pools[group][e[2]] -= 1
                else:
                    places.append((q, group, time))
        elif q != player:
            if action >= RK_TABLE_MELD_RUN:  # a joker in a run: its owner held no such card then
                rk_table_run_of(action, &suit, &start, &length, &mask)
                for i in range(length):
                    if mask >> i & 1:
                        pos = (start + i) % 13 if r.wrap else start + i
                        bans.append((q, suit * 13 + (pos + r.shift) % 13, time))
            for i in range(n_out):
                if e[_STEP_HEAD + n * _TYPES + i] & _UNSEEN:
                    fills.append((q, e[_STEP_HEAD + n * _TYPES + i] & ~_UNSEEN, time))
    known = table_known_counts(state)
    now = len(steps)
    if state.st.phase == RK_TABLE_PHASE_END:  # every hand is shown
        for q in range(n):
            if q == player:
                continue
            memset(shown, 0, sizeof(shown))
            _type_counts(state.st.hands[q], shown)
            for t in range(_TYPES):
                for k in range(shown[t] - known[q][t]):
                    fills.append((q, t, now))
    return pools, places, fills, bans, known, -1 if turned else group, now


# ---- the replay of a sampled world -----------------------------------------------------


cdef bint _table_listed(TableCore s, int32_t action) except -1:
    """Whether action is a legal action of s (rk_table_legal)."""
    cdef int32_t buf[256]
    cdef int32_t *ids = buf
    cdef int k, i
    k = rk_table_legal(&s.spec.r, &s.st, s.spec.memo, buf, 256)
    if k < 0:
        check(<rk_status>k)
    if k > 256:
        ids = <int32_t *>malloc(k * sizeof(int32_t))
        if ids == NULL:
            raise MemoryError()
        k = rk_table_legal(&s.spec.r, &s.st, s.spec.memo, ids, k)
    try:
        for i in range(k):
            if ids[i] == action:
                return True
        return False
    finally:
        if ids != buf:
            free(ids)


def table_replay(TableCore state, actions, dict orders):
    """Play ``actions`` on ``state`` (a fresh deal), each checked against
    rk_table_legal, keeping the undo entries and the step log.  At a
    reshuffle restock, ``orders[time]`` (the types of the restocked pile, top
    first) is the order the stock takes, whatever the shuffle seed gives."""
    cdef rk_table_state b
    cdef int time = 0, action, k, p, nd
    cdef rk_status status
    for action in actions:
        if not _table_listed(state, action):
            raise RummykitError(f"inconsistent replay: action {action} is not legal at step {time}")
        before = PyBytes_FromStringAndSize(<char *>&state.st, sizeof(rk_table_state))
        b = state.st
        status = rk_table_apply(&state.spec.r, &state.st, state.spec.memo, action)
        if status != RK_OK:
            memcpy(&state.st, &b, sizeof(rk_table_state))
            check(status)
        order = orders.get(time)
        if order is not None:
            nd = b.n_discards - 1
            if len(order) != nd or state.st.restocks <= b.restocks:
                raise RummykitError(f"inconsistent replay: no reshuffle of {len(order)} cards at step {time}")
            pile = {}
            for k in range(nd):
                pile.setdefault(_ctype(b.discards[k]), []).append(b.discards[k])
            try:
                cards = [pile[t].pop() for t in order]
            except (KeyError, IndexError):
                raise RummykitError(f"inconsistent replay: the restock order does not fit the pile at step {time}")
            p = b.player
            state.st.hands[p] = b.hands[p]
            state.st.hands[p].w[cards[0] >> 6] |= (<uint64_t>1) << (cards[0] & 63)
            for k in range(nd - 1):
                state.st.stock[k] = cards[nd - 1 - k]
            state.st.n_stock = nd - 1
        state._stack.append(before)
        state.history.append(action)
        _table_log(state, before, action)
        time += 1
    state._legal = None
    state._views = None
