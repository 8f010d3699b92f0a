# The particle filter over an opponent's hidden hand (rk_track, rummykit/track.h).

# the kinds of the filter's events (rk_track_event.kind)
TRACK_TAKE_CHOICE = RK_EV_TAKE_CHOICE
TRACK_DRAW = RK_EV_DRAW
TRACK_ADD = RK_EV_ADD
TRACK_DISCARD = RK_EV_DISCARD
TRACK_LAST_CHANCE = RK_EV_LAST_CHANCE


def track_particles(Rules rules, events, dealt, used, draws, logw, rate, double beta, double epsilon,
                    double high, int knock_max, int hand_size, uint64_t free, uint64_t seed, taker=None):
    """rk_track: walk ``events`` ((E, 4) int8: kind, card, flag, extra) over the particles
    (``dealt``, ``used`` uint64 masks, ``draws`` (P, D) int8, ``logw``, ``rate`` float64,
    ``taker`` uint8 (None: all 0), each of P rows); returns new (dealt, hand, draws, logw,
    rate, used, taker) arrays, or None when no story explains the events.  The GIL is
    released."""
    import numpy as np

    ev = np.ascontiguousarray(events, dtype=np.int8).reshape(-1, 4)
    d = np.array(dealt, dtype=np.uint64, copy=True, order="C")
    u = np.array(used, dtype=np.uint64, copy=True, order="C")
    n = d.shape[0]
    dr = np.array(draws, dtype=np.int8, copy=True, order="C").reshape(n, -1)
    lw = np.array(logw, dtype=np.float64, copy=True, order="C")
    rt = np.array(rate, dtype=np.float64, copy=True, order="C")
    tk = np.zeros(n, dtype=np.uint8) if taker is None else np.array(taker, dtype=np.uint8, copy=True, order="C")
    if n == 0 or d.ndim != 1 or u.shape != (n,) or lw.shape != (n,) or rt.shape != (n,) or tk.shape != (n,):
        raise ValueError("track_particles: the particle arrays must be 1-D of one length >= 1")
    h = np.zeros(n, dtype=np.uint64)
    s_masks = np.zeros((3, n), dtype=np.uint64)
    s_draws = np.zeros(dr.shape, dtype=np.int8)
    s_doubles = np.zeros((2, n), dtype=np.float64)
    s_taker = np.zeros(n, dtype=np.uint8)
    cdef int8_t[:, ::1] ev_v = ev
    cdef uint64_t[::1] d_v = d, u_v = u, h_v = h
    cdef uint64_t[:, ::1] sm_v = s_masks
    cdef int8_t[:, ::1] dr_v = dr, sd_v = s_draws
    cdef double[::1] lw_v = lw, rt_v = rt
    cdef double[:, ::1] sdb_v = s_doubles
    cdef uint8_t[::1] tk_v = tk, stk_v = s_taker
    cdef rk_track_model model
    model.beta, model.epsilon, model.high = beta, epsilon, high
    model.knock_max, model.hand_size, model.free = knock_max, hand_size, free
    cdef rk_particles p, s
    p.n = s.n = <size_t>n
    p.n_draws = s.n_draws = <size_t>dr.shape[1]
    p.dealt, p.hand, p.used = <rk_mask *>&d_v[0], <rk_mask *>&h_v[0], <rk_mask *>&u_v[0]
    p.draws = &dr_v[0, 0] if dr.shape[1] else NULL
    p.logw, p.rate, p.taker = &lw_v[0], &rt_v[0], &tk_v[0]
    s.dealt, s.hand, s.used = <rk_mask *>&sm_v[0, 0], <rk_mask *>&sm_v[1, 0], <rk_mask *>&sm_v[2, 0]
    s.draws = &sd_v[0, 0] if dr.shape[1] else NULL
    s.logw, s.rate, s.taker = &sdb_v[0, 0], &sdb_v[1, 0], &stk_v[0]
    cdef size_t n_events = <size_t>ev.shape[0]
    cdef const rk_track_event *ev_p = <const rk_track_event *>&ev_v[0, 0] if n_events else NULL
    cdef rk_status st
    with nogil:
        st = rk_track(rules.ptr, &model, ev_p, n_events, &p, &s, seed)
    if st == RK_ERR_EMPTY:
        return None
    check(st)
    return d, h, dr, lw, rt, u, tk


def systematic(weights, size_t count, double u):
    """rk_systematic_next: ``count`` indices drawn from ``weights`` (1-D, none negative, sum > 0)
    by systematic resampling with the one uniform ``u`` in [0, 1)."""
    import numpy as np

    w = np.ascontiguousarray(weights, dtype=np.float64)
    if w.ndim != 1 or w.shape[0] == 0 or not np.all(w >= 0) or not np.isfinite(w).all():
        raise ValueError("systematic: the weights must be 1-D, finite and not negative")
    cdef double total = float(w.sum())
    if not total > 0 or not 0 <= u < 1:
        raise ValueError("systematic: the weights must sum above 0 and u lie in [0, 1)")
    out = np.empty(count, dtype=np.intp)
    cdef double[::1] w_v = w
    cdef Py_ssize_t[::1] out_v = out
    cdef size_t n = <size_t>w.shape[0], j = 0, k
    cdef double share = w_v[0] / total
    with nogil:
        for k in range(count):
            out_v[k] = <Py_ssize_t>rk_systematic_next(&w_v[0], n, total, u, k, count, &j, &share)
    return out
