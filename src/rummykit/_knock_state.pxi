# Included by _core.pyx: the state of one knock-game hand (rk_position of csrc/include/rummykit/knock.h).

DEF KNOCK_DRAW_STOCK = 104

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef inline tuple _cards_tuple(const uint8_t *cards, int n):
    return tuple([cards[i] for i in range(n)])


cdef int _fill_pile(uint8_t *out, object cards, str name) except -1:
    if len(cards) > 52:
        raise RummykitError(f"{name}: at most 52 cards, got {len(cards)}")
    for i, c in enumerate(cards):
        if type(c) is not int and not isinstance(c, int) or not 0 <= c < 52:
            raise RummykitError(f"{name}: not a card id 0..51: {c!r}")
        out[i] = c
    return len(cards)


cdef int _field_int(object value, int lo, int hi, str name) except? -2:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise RummykitError(f"{name} must be an int {lo}..{hi}, got {value!r}")
    return value


#: the names of the rk_knock_why reason codes, by code (rummykit.knock.reasons words them)
KNOCK_REASONS = tuple([rk_knock_reason_name(i).decode() for i in range(RK_KNOCK_NUM_REASONS)])

#: the start of each slice of the knock observation tensor, in order, then its size (rk_knock_obs_starts)
KNOCK_TENSOR_STARTS = tuple([rk_knock_obs_starts()[i] for i in range(RK_KNOCK_OBS_SLICES + 1)])


cdef class KnockSpec:
    """One knock game's rules for the C engine: the rk_knock_rules filled from a
    KnockRules through the field table, and the card rules (built once per game)."""

    cdef rk_knock_rules pr
    cdef readonly Rules core
    cdef readonly object rules

    def __cinit__(self, Rules core, object rules):
        fill_rules(&self.pr, rules)
        self.core, self.rules = core, rules

    def __reduce__(self):
        return KnockSpec, (self.core, self.rules)


_KNOCK_FIELDS = ("hands", "known", "stock", "discards", "phase", "player", "taken", "set_aside", "knock_card",
                 "restocks", "turns", "shuffle_seed", "drawn", "deck")


cdef class KnockCore:
    """The C state of one knock-game hand (rk_position) and the verbs of the
    hot path (``legal_actions``, ``apply_action``, ``undo``, ``clone``); its
    fields read and written as KnockState's attributes.
    ``rummykit.knock.state.KnockState`` subclasses it for everything else.

    An undo entry is the position's bytes before the action; a clone copies
    the struct and shares the (immutable) entries.  The plain Python state
    machine it is checked against is tests/reference/knock.py.  Setting a
    field marks the state, and the next legal list first runs
    rk_position_check.  ``drawn`` (per seat, the cards drawn from the stock,
    in order) is kept beside the struct for determinization."""

    cdef rk_position pos
    cdef KnockSpec spec
    cdef rk_playout_result res
    cdef bint res_valid  # res is the result of this finished position
    cdef bint _edited
    cdef bint _busy  # a change is under way (another thread's call raises: see _enter)
    cdef bint _building  # with_fields is setting fields of its new copy (else they are read-only)
    cdef list _stack
    cdef object _history  # a History: callers read it, only the verbs change it
    cdef public list _steps  # per action, what everyone saw (_step_code); undo pops it with the history
    cdef tuple _drawn
    cdef object _deck
    cdef public object _legal  # the legal ids (a list never handed out), or None
    cdef public object _views  # KnockState's cached result and showdown, or None
    cdef public object game, rules
    cdef public int n, dealer

    def __cinit__(self, *args, **kwargs):
        self._stack = []
        self._history = History.__new__(History)
        self._steps = []

    def _deal(self, KnockSpec spec, deck, int dealer, uint64_t shuffle_seed):
        cdef uint8_t buf[52]
        if len(deck) != 52:
            raise RummykitError("bad deck size")
        for i, c in enumerate(deck):
            buf[i] = c
        self.spec = spec
        check(rk_position_deal(&self.spec.pr, buf, dealer, shuffle_seed, &self.pos))
        self._drawn = ((),) * self.spec.pr.num_players
        self._deck = tuple(deck)

    @property
    def history(self):
        """The action ids played, in order (read-only: a :class:`History`)."""
        return self._history

    @history.setter
    def history(self, value):
        _history_read_only()

    @property
    def drawn(self):
        """Per seat, the cards it drew from the stock, in order."""
        return self._drawn

    @drawn.setter
    def drawn(self, value):
        _field_writable(self._building)
        if not isinstance(value, tuple) or len(value) != self.spec.pr.num_players or any(
                not isinstance(d, tuple) or any(type(c) is not int or not 0 <= c < 52 for c in d) for d in value):
            raise RummykitError("drawn: per seat, a tuple of card ids")
        self._drawn = value

    @property
    def deck(self):
        """The deck the hand was dealt from (card ids, dealt from the front)."""
        return self._deck

    @deck.setter
    def deck(self, value):
        _field_writable(self._building)
        if sorted(value) != list(range(52)):
            raise RummykitError("deck: the 52 card ids, each once")
        self._deck = tuple(value)

    def with_fields(self, **fields):
        """A copy of this state with ``fields`` set, in the order given (tests and tools
        build positions this way): ``hands``, ``known``, ``stock``, ``discards``, ``phase``,
        ``player``, ``taken``, ``set_aside``, ``knock_card``, ``restocks``, ``turns``,
        ``shuffle_seed``, ``drawn``, ``deck``.  The copy is checked before its next legal
        list; a bad value raises naming the field.  The state itself is read-only: it
        changes only through its verbs."""
        cdef KnockCore other = self.clone()
        other._building = True
        try:
            for name, value in fields.items():
                if name not in _KNOCK_FIELDS:
                    raise InvalidOptionError(f"with_fields: no field {name!r} (fields: {', '.join(_KNOCK_FIELDS)})")
                setattr(other, name, value)
        finally:
            other._building = False
        return other

    cdef int _enter(self) except -1:
        """Start a change: a second thread changing or copying the state while
        one change is under way raises instead of corrupting it (the GIL
        makes each C call atomic, not a whole method)."""
        if self._busy:
            raise RummykitError("this state is being changed by another thread: use one state per thread, or a lock")
        self._busy = True
        return 0

    cdef int _check_edited(self) except -1:
        if self._edited:
            if self.pos.phase == RK_PHASE_END:
                self._end_result()
            elif rk_position_check(&self.spec.pr, &self.pos) != RK_OK:
                raise RummykitError(
                    "inconsistent knock state: a card in two places or outside the deck, a hand over its size, "
                    "or a seat, count or phase out of range"
                )
            self._edited = False
        return 0

    cdef list _compute_legal(self):
        cdef int buf[108]  # RK_MAX_LEGAL
        self._check_edited()
        if self.pos.phase == RK_PHASE_END:
            return []
        cdef int k = rk_legal_actions(self.spec.core.ptr, &self.spec.pr, &self.pos, buf)
        if k < 0:
            check(<rk_status>k)
        return [buf[i] for i in range(k)]

    def _seat_deadwood(self, int seat):
        """rk_deadwood of ``seat``'s cards now (the reward shaping's deadwood, as
        rummykit.vector.VectorGame's)."""
        if not 0 <= seat < self.spec.pr.num_players:
            raise InvalidOptionError(f"seat must be 0..{self.spec.pr.num_players - 1}, got {seat}")
        return rk_deadwood(self.spec.core.ptr, self.pos.hands[seat])

    def _why(self, int action_id, int seat=-1):
        """rk_knock_why: (the reason's name, detail) for an action id, ``"legal"`` when it is legal now."""
        cdef int detail[2]
        self._check_edited()
        cdef int code = rk_knock_why(self.spec.core.ptr, &self.spec.pr, &self.pos, seat, action_id, detail)
        if code < 0:
            check(<rk_status>code)
        return KNOCK_REASONS[code], (detail[0], detail[1])

    def legal_actions(self):
        """The legal action ids, sorted (empty at the end of the hand)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    cdef _push(self, int action_id):
        """Keep the position before an action (``undo``)."""
        self._stack.append(PyBytes_FromStringAndSize(<char *>&self.pos, sizeof(rk_position)))
        _history_append(self._history, action_id)
        self._legal = None
        self._views = None

    cdef _after(self, int action_id):
        """Log the action just applied (the position before it is the last
        undo entry): its public step (rk_knock_public_step) and the card a
        stock draw took."""
        cdef const rk_position *before = <const rk_position *>PyBytes_AS_STRING(self._stack[len(self._stack) - 1])
        cdef int p = before.player, card = -1
        self._steps.append(rk_knock_public_step(before, &self.pos, action_id, &card))
        if card >= 0:
            d = list(self._drawn)
            d[p] = d[p] + (card,)
            self._drawn = tuple(d)
        self.res_valid = self.pos.phase == RK_PHASE_END

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
        cdef rk_status st
        self._enter()
        try:
            if legal is None or self._legal is not legal:  # changed meanwhile: check again
                legal = self._legal = self._compute_legal()
                if action_id not in legal:
                    raise IllegalActionError(f"action {action_id} is no longer legal: the state changed")
            self._push(action_id)
            st = rk_apply_legal(self.spec.core.ptr, &self.spec.pr, &self.pos, action_id, &self.res)  # legal: in the cache
            if st != RK_OK:
                self._pop(False)
                check(st)
            self._after(action_id)
        finally:
            self._busy = False

    def _knock_melds(self, int card, melds):
        """Knock discarding ``card`` showing ``melds`` (masks, in order):
        rk_knock_melds; the state is unchanged on any error."""
        cdef rk_mask m[17]
        if len(melds) > 17:
            raise InvalidMeldError("too many melds")
        for i in range(len(melds)):
            m[i] = as_mask(melds[i])
        self._check_edited()
        cdef rk_status st
        self._enter()
        try:
            self._push(RK_ACTION_KNOCK + card)
            st = rk_knock_melds(self.spec.core.ptr, &self.spec.pr, &self.pos, card, m, len(melds), &self.res)
            if st != RK_OK:
                self._pop(False)
                check(st)
            self._after(RK_ACTION_KNOCK + card)
        finally:
            self._busy = False

    cdef _pop(self, bint logged=True):
        if logged:
            self._steps.pop()
        before = self._stack.pop()
        cdef int p = (<const rk_position *>PyBytes_AS_STRING(before)).player
        cdef rk_mask now = self.pos.hands[p]
        memcpy(&self.pos, PyBytes_AS_STRING(before), sizeof(rk_position))
        if _history_pop(self._history) == KNOCK_DRAW_STOCK and now != self.pos.hands[p]:
            d = self._drawn
            self._drawn = d[:p] + (d[p][:-1],) + d[p + 1 :]
        self._legal = None
        self._views = None
        self.res_valid = False

    def undo(self):
        """Take back the last action."""
        if not self._stack:
            raise IllegalActionError("nothing to undo")
        if len(self._history) < len(self._stack) or len(self._steps) != len(self._history):
            raise RummykitError("undo: the history does not match the undo stack (it was changed past its guard)")
        self._enter()
        try:
            self._pop()
            self._edited = False  # every undo entry is a checked position
        finally:
            self._busy = False

    def _greedy_action(self, int max_knock_deadwood, bint meld_takes=False):
        """The greedy policy's action now (rk_policy_action; -1: knock as soon as allowed;
        ``meld_takes``: a discard taken only into a meld or to knock)."""
        return self._policy_action(RK_POLICY_GREEDY, max_knock_deadwood, meld_takes)

    def _policy_action(self, int policy, int max_knock_deadwood, bint meld_takes=False):
        """The action now of the deterministic built-in policy ``policy`` (POLICY_GREEDY or
        POLICY_CAREFUL; rk_policy_action; -1: knock as soon as allowed)."""
        if policy != RK_POLICY_GREEDY and policy != RK_POLICY_CAREFUL:
            raise InvalidOptionError(f"policy must be POLICY_GREEDY or POLICY_CAREFUL, got {policy}")
        self._check_edited()
        cdef int a = rk_policy_action(self.spec.core.ptr, &self.spec.pr, &self.pos,
                                      rk_policy(<rk_policy_kind>policy, max_knock_deadwood, meld_takes), NULL)
        if a < 0:
            check(<rk_status>a)
        return a

    def _observation_tensor(self, int player, float[::1] out):
        """Write ``player``'s observation into ``out`` (rk_knock_observe: all
        RK_KNOCK_OBS_SIZE floats)."""
        cdef int n = self.spec.pr.num_players
        if out.shape[0] != RK_KNOCK_OBS_SIZE:
            raise RummykitError("the observation buffer does not fit the layout")
        if not 0 <= player < n:
            raise InvalidOptionError(f"player must be a seat 0..{n - 1}, got {player}")
        self._check_edited()
        if self.pos.phase == RK_PHASE_END:
            self._end_result()
        check(rk_knock_observe(self.spec.core.ptr, &self.spec.pr, &self.pos, player, &out[0]))

    def _seen(self, int player, int seat):
        """The cards of ``seat``'s hand that ``player`` can see (rk_knock_seen)."""
        return rk_knock_seen(&self.pos, player, seat)

    def _knock_card_seen(self, int player):
        """Whether ``player`` can name the face-down knock card (rk_knock_card_seen)."""
        return bool(rk_knock_card_seen(&self.pos, player))

    def _card_groups(self):
        """Per card, the restock that last put it into the stock (0: never), from the step log."""
        cdef int32_t group[52]
        cdef _Log log = _Log(self)
        if rk_knock_card_groups(&self.spec.pr, &self.pos, &log.log, log.work, group) != RK_OK:
            raise _inconsistent_history()
        return tuple([group[c] for c in range(52)])

    def _determinize(self, int player, uint64_t seed, int max_tries=-1):
        """A state ``player`` cannot tell from this one, the hidden cards
        resampled with an rng seeded (seed, 0) (rk_knock_determinize; max_tries
        -1: RK_KNOCK_MAX_TRIES); no undo."""
        cdef KnockCore other
        cdef rk_knock_sample_out *out
        cdef rk_rng rng
        cdef rk_status st
        cdef uint8_t deck[52]
        cdef uint8_t *own  # a seat of a long hand draws more than 52 times
        cdef _Log log = _Log(self)
        self._check_edited()
        mine = self._drawn[player]
        if len(self._deck) != 52 or len(mine) > len(self._history):
            raise _inconsistent_history()
        for i in range(52):
            deck[i] = self._deck[i]
        out = <rk_knock_sample_out *>malloc(sizeof(rk_knock_sample_out) + len(mine) + 1)
        if out == NULL:
            raise MemoryError()
        own = <uint8_t *>(out + 1)
        try:
            for i in range(len(mine)):
                own[i] = mine[i]
            rk_rng_seed(&rng, seed, 0)
            st = rk_knock_determinize(self.spec.core.ptr, &self.spec.pr, &self.pos, &log.log, deck, own, len(mine),
                                      player, max_tries, &rng, log.work, out)
            if st == RK_ERR_ARG:
                raise _inconsistent_history()
            check(st)
            other = self.clone()
            other.pos = out.pos
            other._drawn = tuple([tuple([out.drawn[q][i] for i in range(out.n_drawn[q])])
                                  for q in range(self.spec.pr.num_players)])
            other._deck = tuple([out.deck[i] for i in range(52)])
            if out.knock_time >= 0:
                list.__setitem__(other._history, out.knock_time, RK_ACTION_KNOCK + out.pos.knock_card)
                other._steps[out.knock_time] = out.knock_step
        finally:
            free(out)
        other._stack = []
        other._legal = None
        other._views = None
        other.res_valid = False
        other._edited = True
        return other

    @property
    def _undo_depth(self):
        """How many actions ``undo`` can take back."""
        return len(self._stack)

    def _forget_undo(self):
        """Drop the undo entries (a determinized state has none)."""
        self._stack = []

    def clone(self):
        """An independent copy (history and undo stack included)."""
        if self._busy:
            raise RummykitError("this state is being changed by another thread: use one state per thread, or a lock")
        cdef KnockCore other = type(self).__new__(type(self))
        other.pos = self.pos
        other.spec = self.spec
        other.res = self.res
        other.res_valid = self.res_valid
        other._edited = self._edited
        other._stack = list(self._stack)
        other._history = _history_copy(self._history)
        other._steps = list(self._steps)
        other._drawn = self._drawn
        other._legal = self._legal
        other._views = self._views
        other.game, other.rules, other._deck = self.game, self.rules, self._deck
        other.n, other.dealer = self.n, self.dealer
        return other

    def is_terminal(self):
        return self.pos.phase == RK_PHASE_END

    @property
    def current_player(self):
        """The seat to act (-4, OpenSpiel's terminal id, when the hand is over)."""
        return -4 if self.pos.phase == RK_PHASE_END else self.pos.player

    def __reduce__(self):
        # the struct's bytes (this build's layout), the undo entries, the history and the
        # draw log; every one is checked when loaded (_knock_state_from)
        raw = PyBytes_FromStringAndSize(<char *>&self.pos, sizeof(rk_position))
        return _knock_state_from, (type(self), self.game, self._deck, raw, self._stack, list(self._history),
                                   self._steps, self._drawn)

    # --- the result (rk_playout_result) ---------------------------------

    cdef int _end_result(self) except -1:
        if not self.res_valid:
            if rk_position_result(self.spec.core.ptr, &self.spec.pr, &self.pos, &self.res) != RK_OK:
                raise RummykitError("inconsistent knock state: a finished hand that no play can end with")
            self.res_valid = True
        return 0

    def _result_raw(self):
        """None while the hand is on, else (outcome, knocker, winner, points,
        credits, charges, boxes, deadwood, multiplier, knock limit), seats."""
        if self.pos.phase != RK_PHASE_END:
            return None
        self._end_result()
        cdef rk_playout_result *r = &self.res
        n = self.spec.pr.num_players
        return (r.outcome, r.knocker, r.winner, tuple([r.points[i] for i in range(n)]),
                tuple([r.credits[i] for i in range(n)]), tuple([r.charges[i] for i in range(n)]),
                tuple([r.boxes[i] for i in range(n)]), tuple([r.deadwood[i] for i in range(n)]),
                r.multiplier, r.knock_limit)

    def returns(self):
        """Each seat's points for the hand (0 until it ends, and for a dead hand)."""
        n = self.spec.pr.num_players
        if self.pos.phase != RK_PHASE_END:
            return [0] * n
        self._end_result()
        return [self.res.points[i] for i in range(n)]

    # --- fields (rk_position): reading is free, writing marks the state edited ---

    def _changed(self):
        if self._busy:
            raise RummykitError("this state is being changed by another thread: use one state per thread, or a lock")
        self._edited = True
        self._legal = None
        self._views = None
        self.res_valid = False

    @property
    def hands(self):
        return tuple([self.pos.hands[p] for p in range(self.spec.pr.num_players)])

    @hands.setter
    def hands(self, masks):
        _field_writable(self._building)
        if len(masks) != self.spec.pr.num_players:
            raise RummykitError("hands: one mask per seat")
        for p, m in enumerate(masks):
            self.pos.hands[p] = as_mask(m)
        self._changed()

    @property
    def known(self):
        return tuple([self.pos.known[p] for p in range(self.spec.pr.num_players)])

    @known.setter
    def known(self, masks):
        _field_writable(self._building)
        if len(masks) != self.spec.pr.num_players:
            raise RummykitError("known: one mask per seat")
        for p, m in enumerate(masks):
            self.pos.known[p] = as_mask(m)
        self._changed()

    @property
    def stock(self):
        """The stock's card ids, top last."""
        return _cards_tuple(self.pos.stock, min(max(self.pos.n_stock, 0), 52))

    @stock.setter
    def stock(self, cards):
        _field_writable(self._building)
        self.pos.n_stock = _fill_pile(self.pos.stock, cards, "stock")
        self._changed()

    @property
    def discards(self):
        """The discard pile's card ids, top last."""
        return _cards_tuple(self.pos.discards, min(max(self.pos.n_discards, 0), 52))

    @discards.setter
    def discards(self, cards):
        _field_writable(self._building)
        self.pos.n_discards = _fill_pile(self.pos.discards, cards, "discards")
        self._changed()

    @property
    def phase(self):
        return <int>self.pos.phase

    @phase.setter
    def phase(self, value):
        _field_writable(self._building)
        self.pos.phase = <rk_phase>_field_int(value, 0, RK_PHASE_END, "phase")
        self._changed()

    @property
    def player(self):
        return self.pos.player

    @player.setter
    def player(self, value):
        _field_writable(self._building)
        self.pos.player = _field_int(value, 0, self.spec.pr.num_players - 1, "player")
        self._changed()

    @property
    def taken(self):
        """The card taken from the discard pile this turn, or -1."""
        return self.pos.taken

    @taken.setter
    def taken(self, value):
        _field_writable(self._building)
        self.pos.taken = _field_int(value, -1, 51, "taken")
        self._changed()

    @property
    def set_aside(self):
        """The refused upcard set aside, or -1."""
        return self.pos.set_aside

    @set_aside.setter
    def set_aside(self, value):
        _field_writable(self._building)
        self.pos.set_aside = _field_int(value, -1, 51, "set_aside")
        self._changed()

    @property
    def knock_card(self):
        """The knocker's face-down discard, or -1."""
        return self.pos.knock_card

    @knock_card.setter
    def knock_card(self, value):
        _field_writable(self._building)
        self.pos.knock_card = _field_int(value, -1, 51, "knock_card")
        self._changed()

    @property
    def restocks(self):
        return self.pos.restocks

    @restocks.setter
    def restocks(self, value):
        _field_writable(self._building)
        self.pos.restocks = _field_int(value, 0, 1 << 30, "restocks")
        self._changed()

    @property
    def turns(self):
        """Completed turns."""
        return self.pos.turns

    @turns.setter
    def turns(self, value):
        _field_writable(self._building)
        self.pos.turns = _field_int(value, 0, 1 << 30, "turns")
        self._changed()

    @property
    def shuffle_seed(self):
        """Seeds the restocks."""
        return self.pos.shuffle_seed

    @shuffle_seed.setter
    def shuffle_seed(self, uint64_t value):
        _field_writable(self._building)
        self.pos.shuffle_seed = value
        self._changed()

    @property
    def _upcard(self):
        return self.pos.upcard

    @property
    def _knock(self):
        """(knocker or -1, big gin, explicit melds shown, the knocker's melds
        in the order shown or (), its shown deadwood)."""
        cdef rk_position *p = &self.pos
        shown = tuple([p.shown[i] for i in range(min(max(p.n_shown, 0), 4))])
        return p.knocker, bool(p.big_gin), bool(p.shown_given), shown, p.shown_deadwood

    @property
    def _showdown_raw(self):
        """The manual showdown, in progress or over: (table, used per seat, can lay off), or None."""
        cdef rk_position *p = &self.pos
        if self.spec.pr.auto_showdown or p.knocker < 0 or p.phase < RK_PHASE_SHOWDOWN:
            return None
        table = tuple([p.table[i] for i in range(min(max(p.n_shown, 0), 4))])
        return table, tuple([p.used[s] for s in range(self.spec.pr.num_players)]), bool(p.can_lay_off)

    @property
    def _limits(self):
        """(knock limit, gin only, multiplier, most deadwood a knock may leave)."""
        cdef int out[4]
        check(rk_knock_limits(&self.spec.pr, self.pos.upcard, out))
        return out[0], bool(out[1]), out[2], out[3]


def _inconsistent_history():
    return RummykitError(
        "inconsistent state for determinization: the hidden cards do not fit what the history says "
        "(a position whose fields were set by hand has no such history)"
    )


cdef class _Log:
    """A knock state's public history for the C functions (rk_knock_log) and their work buffer."""

    cdef rk_knock_log log
    cdef void *mem
    cdef void *work

    def __cinit__(self, KnockCore state):
        cdef int n = len(state._history)
        cdef int32_t *actions
        cdef uint32_t *steps
        if len(state._steps) != n:
            raise RummykitError("inconsistent state: the step log does not match the history")
        self.mem = malloc(8 * n + rk_knock_work_size(n) + 8)
        if self.mem == NULL:
            raise MemoryError()
        actions = <int32_t *>self.mem
        steps = <uint32_t *>(actions + n)
        self.work = <void *>(steps + n)
        for i in range(n):
            actions[i] = state._history[i]
            steps[i] = state._steps[i]
        self.log.actions, self.log.steps, self.log.n = actions, steps, n

    def __dealloc__(self):
        free(self.mem)


def knock_hide(PlayoutSpec spec, KnockCore state, int player):
    """Give ``spec`` the cards ``player`` cannot see of ``state`` as hidden
    cards (rk_knock_hidden): the other hands cut to what it sees, the stock
    and the rest in groups for the C determinization."""
    cdef rk_position known
    cdef _Log log = _Log(state)
    state._check_edited()
    if not 0 <= player < spec.num_players:
        raise InvalidOptionError(f"player must be a seat 0..{spec.num_players - 1}, got {player}")
    if rk_knock_hidden(&state.spec.pr, &state.pos, &log.log, player, log.work, &known, &spec.hidden) != RK_OK:
        raise _inconsistent_history()
    for q in range(spec.num_players):
        spec.known.hands[q] = known.hands[q]
    spec.known.n_stock = 0
    spec.has_hidden = True


def knock_public(PlayoutSpec spec, KnockCore state):
    """Give ``spec`` the public record of ``state`` that a policy may read: the cards each seat
    was seen taking and still holds, the set-aside upcard and each seat's recent discards,
    takes and passes (rk_position.known, set_aside, recent)."""
    state._check_edited()
    if spec.num_players != state.spec.pr.num_players:
        raise InvalidOptionError(f"a spec of {spec.num_players} players for a state of {state.spec.pr.num_players}")
    memcpy(spec.known.known, state.pos.known, sizeof(state.pos.known))
    memcpy(spec.known.recent, state.pos.recent, sizeof(state.pos.recent))
    spec.known.set_aside = state.pos.set_aside


def step_code(int seat, int card, int restocked, bint drew, bint removed, bint added, bint unseen):
    """The step code of those fields (rk_knock_step_encode; ``step_fields`` reads it)."""
    cdef rk_knock_step s = rk_knock_step(seat, card, restocked, drew, removed, added, unseen)
    return rk_knock_step_encode(&s)


def step_fields(uint32_t code):
    """A step code as (seat, card moved or -1, cards restocked just before,
    drew a card, took the pile's top away, put a card on the pile, the card
    moved out of the hand was not a known card): rk_knock_step_decode."""
    cdef rk_knock_step s
    rk_knock_step_decode(code, &s)
    return s.seat, s.card, s.restocked, bool(s.drew), bool(s.removed), bool(s.added), bool(s.unseen)


def _knock_state_from(cls, game, deck, bytes raw, list stack, list history, list steps, drawn):
    """Unpickle a KnockCore (subclass) written by KnockCore.__reduce__: the
    position, every undo entry and the draw log are checked first."""
    cdef KnockCore state = cls.__new__(cls)
    cdef rk_position entry
    size = sizeof(rk_position)
    if len(raw) != size or any(type(b) is not bytes or len(b) != size for b in stack):
        raise RummykitError("a knock state pickled by a build with another state layout")
    if len(history) != len(steps) or any(type(a) is not int for a in history):
        raise RummykitError("a knock state's history does not match its step log")
    if any(type(c) is not int or not 0 <= c < 1 << RK_KNOCK_STEP_BITS for c in steps):
        raise RummykitError("a knock state's step log holds a bad entry")
    if len(stack) > len(history):
        raise RummykitError("a knock state has more undo entries than actions")
    state.game, state.rules, state._deck = game, game.rules, tuple(deck)
    state.spec = game.spec
    state.n = game.rules.num_players
    for b in stack:
        memcpy(&entry, PyBytes_AS_STRING(b), size)
        if rk_position_check(&state.spec.pr, &entry) != RK_OK:
            raise RummykitError("a knock state's undo entry is not a playable position")
    memcpy(&state.pos, PyBytes_AS_STRING(raw), size)
    state.dealer = state.pos.dealer
    state._stack = list(stack)
    state._history = History(history)
    state._steps = list(steps)
    if (not isinstance(drawn, tuple) or len(drawn) != state.n
            or any(not isinstance(d, tuple) or len(d) > len(history) or any(type(c) is not int or not 0 <= c < 52 for c in d)
                   for d in drawn)):
        raise RummykitError("a knock state's draw log is not per-seat card ids")
    state._drawn = drawn
    state._edited = True
    state._check_edited()
    return state
