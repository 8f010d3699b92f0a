# Included by _core.pyx: the table games' policies, determinization and playouts
# (csrc/include/rummykit/table_playouts.h).

TABLE_POLICY_RANDOM = RK_TABLE_POLICY_RANDOM
TABLE_POLICY_GREEDY = RK_TABLE_POLICY_GREEDY
TABLE_RESAMPLE_STOCK = RK_TABLE_RESAMPLE_STOCK
TABLE_RESAMPLE_HIDDEN = RK_TABLE_RESAMPLE_HIDDEN
TABLE_MAX_TRIES = RK_TABLE_MAX_TRIES
TABLE_PLAYOUT_MAX_ACTIONS = RK_TABLE_PLAYOUT_MAX_ACTIONS


cdef class _TableMemo:
    """An rk_table_memo of its own, for C work with the GIL released (a
    TableSpec's memo serves the calls made with the GIL held)."""

    cdef rk_table_memo *memo

    def __cinit__(self):
        self.memo = rk_table_memo_new()
        if self.memo == NULL:
            raise MemoryError()

    def __dealloc__(self):
        rk_table_memo_free(self.memo)


# memos not in use (a list's pop and append are atomic under the GIL)
cdef list _free_memos = []


cdef _TableMemo _take_memo():
    try:
        return _free_memos.pop()
    except IndexError:
        return _TableMemo()


cdef void _give_memo(_TableMemo memo):
    if len(_free_memos) < 64:
        _free_memos.append(memo)


cdef rk_table_state _checked_copy(TableCore state) except *:
    """The state's struct (a copy: the C work runs without the GIL), checked
    first if fields were set by hand."""
    if state._edited:
        state.legal_actions()  # raises on an inconsistent state
    return state.st


def table_greedy(TableCore state):
    """The greedy policy's action for the seat to move (rk_table_greedy)."""
    cdef rk_table_state st = _checked_copy(state)
    cdef int32_t a = rk_table_greedy(&state.spec.r, &st, state.spec.memo)
    if a == RK_ERR_EMPTY:
        raise InvalidOptionError("no action at the end of the hand")
    if a < 0:
        check(<rk_status>a)
    return a


cdef rk_table_hidden *_hidden_ptr(TableHidden hidden):
    return NULL if hidden is None else &hidden.h


def table_hidden_check(TableCore state, TableHidden hidden):
    """Raise RummykitError if hidden does not fit the state (rk_table_hidden_check)."""
    cdef rk_table_state st = _checked_copy(state)
    if rk_table_hidden_check(&state.spec.r, &st, _hidden_ptr(hidden)) != RK_OK:
        raise RummykitError(
            "inconsistent state for determinization: the hidden cards do not fit the places the history gives them"
        )


def table_determinize(TableCore state, TableHidden hidden, uint64_t seed):
    """One C determinization (rk_table_determinize, rng seeded with (seed, 0)):
    (sampled, hands, known, stock, shuffle_seed, place types)."""
    cdef rk_table_state st = _checked_copy(state)
    cdef rk_table_state out
    cdef rk_rng rng
    cdef void *work = NULL
    cdef uint8_t *types = NULL
    cdef int got
    table_hidden_check(state, hidden)
    rk_rng_seed(&rng, seed, 0)
    n = 0 if hidden is None else hidden.n_places
    work = malloc(rk_table_work_size(_hidden_ptr(hidden)) + 1)
    types = <uint8_t *>malloc(n + 1)
    try:
        if work == NULL or types == NULL:
            raise MemoryError()
        got = rk_table_determinize(&state.spec.r, &st, _hidden_ptr(hidden), &rng, NULL, work, &out, types)
        if got < 0:
            check(<rk_status>got)
        np_ = out.n_players
        return (
            bool(got),
            tuple([_cards_int(out.hands[p]) for p in range(np_)]),
            tuple([_cards_int(out.known[p]) for p in range(np_)]),
            tuple([out.stock[i] for i in range(out.n_stock)]),
            out.shuffle_seed,
            tuple([types[i] for i in range(n)]),
        )
    finally:
        free(work)
        free(types)


def run_table_playouts(TableCore state, TableHidden hidden, int policy, uint64_t seed, size_t first,
                       int32_t[:, ::1] returns, uint8_t[::1] outcomes, int8_t[::1] winners):
    """Playouts first .. first + len(outcomes) - 1 into the arrays (rk_table_playouts, GIL released):
    returns (rk_table_score), rk_table_outcome codes, winners (-1: none)."""
    cdef size_t n = outcomes.shape[0]
    cdef rk_table_state st = _checked_copy(state)
    cdef rk_table_rules *rules = &state.spec.r
    cdef rk_table_hidden *h = _hidden_ptr(hidden)
    cdef _TableMemo memo
    cdef rk_status status
    cdef void *work
    if returns.shape[0] != n or winners.shape[0] != n or returns.shape[1] != st.n_players:
        raise ValueError("returns must have shape (n, num_players), outcomes and winners (n,)")
    if n == 0:
        return
    memo = _take_memo()
    work = malloc(rk_table_work_size(h) + 1)
    if work == NULL:
        raise MemoryError()
    try:
        with nogil:
            status = rk_table_playouts(rules, &st, h, policy, seed, first, n, memo.memo, work,
                                       &returns[0, 0], &outcomes[0], &winners[0])
    finally:
        free(work)
        _give_memo(memo)
    if status == RK_ERR_CAPACITY:
        raise RummykitError(
            f"a playout did not end within {RK_TABLE_PLAYOUT_MAX_ACTIONS:,} actions (max_turns unlimited)"
        )
    check(status)
