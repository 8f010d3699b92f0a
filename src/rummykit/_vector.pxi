# Included by _core.pyx: batched play (csrc/include/rummykit/vector.h), rummykit.vector.VectorGame's engine.

KNOCK_NUM_ACTIONS = RK_KNOCK_NUM_ACTIONS
VECTOR_TABLE_ACTIONS = RK_VECTOR_TABLE_ACTIONS
VECTOR_MAX_THREADS = RK_VECTOR_MAX_THREADS
MAX_LEGAL = RK_MAX_LEGAL


cdef class VectorCore:
    """An rk_vector over the caller's arrays (kept alive here): ``spec`` is a
    KnockSpec or a TableSpec; the arrays are C-contiguous, the mask and the
    terminated flags as uint8 views of the caller's bool arrays; ``legal_ids``
    (batch, MAX_LEGAL), required for knock games, is None for table games."""

    cdef rk_vector *v
    cdef readonly object spec
    cdef object arrays
    cdef readonly int batch
    cdef bint busy  # a step or reset is under way with the GIL released (another thread's call raises)

    def __cinit__(self, object spec, int batch, int threads, uint8_t[:, ::1] legal_mask,
                  float[:, ::1] observation, int32_t[::1] current_player, float[:, ::1] rewards,
                  uint8_t[::1] terminated, int32_t[::1] num_legal, int32_t[:, ::1] legal_ids=None):
        cdef rk_vector_buffers b
        b.legal_mask = &legal_mask[0, 0]
        b.observation = &observation[0, 0]
        b.current_player = &current_player[0]
        b.rewards = &rewards[0, 0]
        b.terminated = &terminated[0]
        b.num_legal = &num_legal[0]
        b.legal_ids = NULL
        if legal_ids is not None:
            if legal_ids.shape[0] != batch or legal_ids.shape[1] != RK_MAX_LEGAL:
                raise RummykitError("the vector game's legal-id array does not fit its batch")
            b.legal_ids = &legal_ids[0, 0]
        if num_legal.shape[0] != batch:
            raise RummykitError("the vector game's legal-action counts do not fit its batch")
        if isinstance(spec, KnockSpec) and legal_ids is None:
            raise RummykitError("a knock-game vector needs its legal-id array")
        if isinstance(spec, KnockSpec):
            self.v = rk_vector_new_knock((<KnockSpec>spec).core.ptr, &(<KnockSpec>spec).pr, batch, threads, &b)
        else:
            self.v = rk_vector_new_table(&(<TableSpec>spec).r, batch, threads, &b)
        if self.v == NULL:
            raise MemoryError("no memory for the vector game")
        if (legal_mask.shape[0] != batch or legal_mask.shape[1] != rk_vector_num_actions(self.v)
                or observation.shape[0] != batch or observation.shape[1] != rk_vector_obs_dim(self.v)
                or current_player.shape[0] != batch or terminated.shape[0] != batch
                or rewards.shape[0] != batch or rewards.shape[1] != rk_vector_num_players(self.v)):
            raise RummykitError("the vector game's arrays do not fit its batch, actions and players")
        self.spec, self.batch = spec, batch
        self.arrays = (legal_mask, observation, current_player, rewards, terminated, num_legal, legal_ids)

    def __dealloc__(self):
        rk_vector_free(self.v)

    cdef int _enter(self) except -1:
        if self.busy:
            raise RummykitError("this vector game is being stepped by another thread: use one per thread, or a lock")
        self.busy = True
        return 0

    def set_opponents(self, int policy):
        """rk_vector_set_opponents (-1 none, POLICY_RANDOM, POLICY_GREEDY), from the next reset."""
        self._enter()
        try:
            check(rk_vector_set_opponents(self.v, policy))
        finally:
            self.busy = False

    def reset(self, uint64_t seed):
        """Seed the rows and deal each its first hand."""
        cdef rk_status st
        self._enter()
        try:
            with nogil:
                st = rk_vector_reset(self.v, seed)
        finally:
            self.busy = False
        check(st)

    def step(self, int32_t[::1] actions):
        """Play actions[i] in row i (GIL released); IllegalActionError naming the first bad row, nothing changed."""
        cdef int bad = -1
        cdef rk_status st
        if actions.shape[0] != self.batch:
            raise InvalidOptionError(f"actions must have one entry per row ({self.batch}), got {actions.shape[0]}")
        self._enter()
        try:
            with nogil:
                st = rk_vector_step(self.v, &actions[0], &bad)
        finally:
            self.busy = False
        if st == RK_ERR_ARG and bad >= 0:
            raise IllegalActionError(f"row {bad}: action {actions[bad]} is not legal (nothing was played)")
        if st == RK_ERR_CAPACITY and bad >= 0:
            raise RummykitError(f"row {bad}: more legal actions than {RK_VECTOR_TABLE_ACTIONS} slots, or no memory")
        check(st)

    def row(self, int i):
        """Row i: (deck, dealer, shuffle seed, engine ids played since the deal, hands finished)."""
        cdef const uint8_t *deck
        cdef const int32_t *log
        cdef int deck_size, dealer, n_log
        cdef uint64_t seed
        cdef int64_t hands
        if self.busy:
            raise RummykitError("this vector game is being stepped by another thread: use one per thread, or a lock")
        check(rk_vector_row(self.v, i, &deck, &deck_size, &dealer, &seed, &log, &n_log, &hands))
        return ([deck[k] for k in range(deck_size)], dealer, seed, [log[k] for k in range(n_log)], hands)
