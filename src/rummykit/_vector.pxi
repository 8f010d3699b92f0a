# Included by _core.pyx: batched play (csrc/include/rummykit/vector.h), rummykit.vector.VectorGame's engine.

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Zeroed memory for a vector game's buffer; one of 4 MB or more on 2 MB boundaries and, on
     * Linux, backed by huge pages where the kernel allows (as numpy does for its large arrays:
     * the observations' writes and copies are TLB-bound without them). */
    static void *rk_py_vector_alloc(size_t bytes) {
        const size_t big = (size_t)4 << 20, huge = (size_t)2 << 20;
        void *p = NULL;
        if (bytes < big) return calloc(bytes ? bytes : 1, 1);
        bytes = (bytes + huge - 1) / huge * huge;
        if (posix_memalign(&p, huge, bytes) != 0) return NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        (void)madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        memset(p, 0, bytes);
        return p;
    }
    """
    void *rk_py_vector_alloc(size_t bytes)

KNOCK_NUM_ACTIONS = RK_KNOCK_NUM_ACTIONS
VECTOR_TABLE_ACTIONS = RK_VECTOR_TABLE_ACTIONS
TABLE_FIXED_ACTIONS = RK_TABLE_FIXED_ACTIONS
#: a table VectorCore's action spaces (vector.h)
VECTOR_SPACES = {"fixed": RK_VECTOR_FIXED, "dense": RK_VECTOR_DENSE}
VECTOR_MAX_THREADS = RK_VECTOR_MAX_THREADS
VECTOR_SKIP = RK_VECTOR_SKIP
MAX_LEGAL = RK_MAX_LEGAL


cdef class ReadOnlyBuffer:
    """A read-only view (the buffer protocol, PEP 3118) of one of a VectorCore's arrays: numpy
    arrays over it cannot be made writeable, and nothing reachable from them can write the
    memory (the VectorCore holds it as a raw C pointer)."""

    cdef object owner  # the VectorCore: keeps the memory alive
    cdef char *data
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t strides[2]
    cdef int ndim
    cdef Py_ssize_t itemsize
    cdef bytes format

    def __getbuffer__(self, Py_buffer *view, int flags):
        if flags & PyBUF_WRITABLE:
            raise BufferError("a vector game's arrays are read-only: only its steps write them")
        view.buf = self.data
        view.obj = self
        view.len = self.shape[0] * self.strides[0]
        view.readonly = 1
        view.itemsize = self.itemsize
        view.format = NULL
        if flags & PyBUF_FORMAT:
            view.format = <char *>self.format
        view.ndim = self.ndim
        view.shape = self.shape
        view.strides = self.strides
        view.suboffsets = NULL
        view.internal = NULL

    def __releasebuffer__(self, Py_buffer *view):
        pass


cdef ReadOnlyBuffer _read_only(object owner, void *data, Py_ssize_t rows, Py_ssize_t cols, bytes format,
                               Py_ssize_t itemsize):
    """A ReadOnlyBuffer of ``rows`` (x ``cols`` if cols > 0) items at ``data``."""
    cdef ReadOnlyBuffer b = ReadOnlyBuffer.__new__(ReadOnlyBuffer)
    b.owner, b.data, b.format, b.itemsize = owner, <char *>data, format, itemsize
    b.ndim = 2 if cols > 0 else 1
    b.shape[0], b.shape[1] = rows, cols
    b.strides[0] = itemsize * (cols if cols > 0 else 1)
    b.strides[1] = itemsize
    return b


cdef class VectorCore:
    """An rk_vector over buffers of its own (C memory, freed with it): ``spec`` is a KnockSpec
    or a TableSpec; ``dense``: a table game's dense per-state index, not its fixed action
    space (knock games: must be False); ``deadwood``: keep each seat's deadwood (rk_vector_buffers.deadwood).  ``buffers()`` gives read-only views of them (ReadOnlyBuffer): the caller
    can read them and nothing else, and the C core only writes them (vector.h, CALLER MEMORY)."""

    cdef rk_vector *v
    cdef rk_vector_buffers b
    cdef readonly object spec
    cdef readonly int batch
    cdef Py_ssize_t ids_width  # a row's legal_ids (0: none)
    cdef bint busy  # a step or reset is under way with the GIL released (another thread's call raises)

    def __cinit__(self, object spec, int batch, int threads, bint deadwood=False, bint dense=False):
        cdef size_t n = <size_t>batch if batch > 0 else 1
        cdef bint knock = isinstance(spec, KnockSpec)
        cdef size_t actions, obs, players, ids_width
        if not knock and not isinstance(spec, TableSpec):
            raise RummykitError("a vector game needs a knock or table game's rules")
        if knock and dense:
            raise InvalidOptionError("the knock games have one action space, their engine ids")
        if knock:
            actions, obs, players = RK_KNOCK_NUM_ACTIONS, KNOCK_TENSOR_STARTS[RK_KNOCK_OBS_SLICES], (<KnockSpec>spec).pr.num_players
            ids_width = RK_MAX_LEGAL
        else:
            actions = RK_VECTOR_TABLE_ACTIONS if dense else RK_TABLE_FIXED_ACTIONS
            obs, players = TABLE_TENSOR_STARTS[RK_TABLE_OBS_SLICES], (<TableSpec>spec).r.num_players
            ids_width = 0 if dense else RK_VECTOR_TABLE_ACTIONS
        self.ids_width = ids_width
        self.b.legal_mask = <uint8_t *>rk_py_vector_alloc(n * actions)
        self.b.observation = <float *>rk_py_vector_alloc(n * obs * sizeof(float))
        self.b.current_player = <int32_t *>rk_py_vector_alloc(n * sizeof(int32_t))
        self.b.rewards = <float *>rk_py_vector_alloc(n * players * sizeof(float))
        self.b.terminated = <uint8_t *>rk_py_vector_alloc(n)
        self.b.num_legal = <int32_t *>rk_py_vector_alloc(n * sizeof(int32_t))
        self.b.outcome = <int32_t *>rk_py_vector_alloc(n * sizeof(int32_t))
        self.b.winner = <int32_t *>rk_py_vector_alloc(n * sizeof(int32_t))
        self.b.hand_score = <int32_t *>rk_py_vector_alloc(n * players * sizeof(int32_t))
        self.b.deadwood = NULL
        if deadwood:
            self.b.deadwood = <int32_t *>rk_py_vector_alloc(n * players * sizeof(int32_t))
        self.b.legal_ids = NULL
        if ids_width:
            self.b.legal_ids = <int32_t *>rk_py_vector_alloc(n * ids_width * sizeof(int32_t))
        if (not self.b.legal_mask or not self.b.observation or not self.b.current_player or not self.b.rewards
                or not self.b.terminated or not self.b.num_legal or (ids_width and not self.b.legal_ids)
                or not self.b.outcome or not self.b.winner or not self.b.hand_score or (deadwood and not self.b.deadwood)):
            raise MemoryError("no memory for the vector game")
        if knock:
            self.v = rk_vector_new_knock((<KnockSpec>spec).core.ptr, &(<KnockSpec>spec).pr, batch, threads, &self.b)
        else:
            self.v = rk_vector_new_table(&(<TableSpec>spec).r, RK_VECTOR_DENSE if dense else RK_VECTOR_FIXED, batch,
                                         threads, &self.b)
        if self.v == NULL:
            raise RummykitError("the vector game's batch, threads or rules are out of range, or no memory")
        if (rk_vector_num_actions(self.v) != <int>actions or rk_vector_obs_dim(self.v) != <int>obs
                or rk_vector_num_players(self.v) != <int>players):
            raise RummykitError("the vector game's arrays do not fit its actions, observations and players")
        self.spec, self.batch = spec, batch

    def buffers(self):
        """name -> ReadOnlyBuffer: legal_mask (batch, num_actions) bool, observation (batch,
        obs_dim) float32, current_player, num_legal (batch,) int32, rewards (batch, players)
        float32, terminated (batch,) bool, outcome, winner (batch,) int32, hand_score (batch,
        players) int32, legal_ids (batch, MAX_LEGAL) int32 (knock games; fixed table games:
        (batch, VECTOR_TABLE_ACTIONS)), deadwood (batch,
        players) int32 (if asked for)."""
        cdef Py_ssize_t n = self.batch
        out = {
            "legal_mask": _read_only(self, self.b.legal_mask, n, rk_vector_num_actions(self.v), b"?", 1),
            "observation": _read_only(self, self.b.observation, n, rk_vector_obs_dim(self.v), b"f", 4),
            "current_player": _read_only(self, self.b.current_player, n, 0, b"i", 4),
            "num_legal": _read_only(self, self.b.num_legal, n, 0, b"i", 4),
            "rewards": _read_only(self, self.b.rewards, n, rk_vector_num_players(self.v), b"f", 4),
            "terminated": _read_only(self, self.b.terminated, n, 0, b"?", 1),
            "outcome": _read_only(self, self.b.outcome, n, 0, b"i", 4),
            "winner": _read_only(self, self.b.winner, n, 0, b"i", 4),
            "hand_score": _read_only(self, self.b.hand_score, n, rk_vector_num_players(self.v), b"i", 4),
        }
        if self.b.deadwood != NULL:
            out["deadwood"] = _read_only(self, self.b.deadwood, n, rk_vector_num_players(self.v), b"i", 4)
        if self.b.legal_ids != NULL:
            out["legal_ids"] = _read_only(self, self.b.legal_ids, n, self.ids_width, b"i", 4)
        return out

    def __dealloc__(self):
        rk_vector_free(self.v)
        free(self.b.legal_mask)
        free(self.b.observation)
        free(self.b.current_player)
        free(self.b.rewards)
        free(self.b.terminated)
        free(self.b.num_legal)
        free(self.b.legal_ids)
        free(self.b.outcome)
        free(self.b.winner)
        free(self.b.hand_score)
        free(self.b.deadwood)

    cdef int _enter(self) except -1:
        self.check_idle()
        self.busy = True
        return 0

    cpdef check_idle(self):
        """RummykitError while another thread steps or resets this vector (GIL released)."""
        if self.busy:
            raise RummykitError("this vector game is being stepped by another thread: use one per thread, or a lock")

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

    def step(self, const int32_t[::1] actions, bint some=False):
        """Play actions[i] in row i (GIL released): the C core copies the array before checking
        it.  IllegalActionError naming the first bad row, nothing changed.  ``some``: a row whose
        action is VECTOR_SKIP (-1) stays as it is (rk_vector_step_some)."""
        cdef int bad = -1
        cdef rk_status st
        if actions.shape[0] != self.batch:
            raise InvalidOptionError(f"actions must have one entry per row ({self.batch}), got {actions.shape[0]}")
        self._enter()
        try:
            with nogil:
                if some:
                    st = rk_vector_step_some(self.v, &actions[0], &bad)
                else:
                    st = rk_vector_step(self.v, &actions[0], &bad)
        finally:
            self.busy = False
        if st == RK_ERR_ARG and bad >= 0:
            raise IllegalActionError(f"row {bad}: action {actions[bad]} is not legal (nothing was played)")
        if st == RK_ERR_CAPACITY:
            where = f"row {bad}: more legal actions than {RK_VECTOR_TABLE_ACTIONS}, or no memory; " if bad >= 0 else ""
            raise RummykitError(f"{where}this vector game failed part-way through a step or reset: reset() it")
        check(st)

    def row(self, int i):
        """Row i: (deck, dealer, shuffle seed, engine ids played since the deal, hands finished)."""
        cdef const uint8_t *deck
        cdef const int32_t *log
        cdef int deck_size, dealer, n_log
        cdef uint64_t seed
        cdef int64_t hands
        cdef rk_status st
        self.check_idle()
        st = rk_vector_row(self.v, i, &deck, &deck_size, &dealer, &seed, &log, &n_log, &hands)
        if st == RK_ERR_CAPACITY:
            raise RummykitError("this vector game failed part-way through a step or reset: reset() it")
        check(st)
        return ([deck[k] for k in range(deck_size)], dealer, seed, [log[k] for k in range(n_log)], hands)
