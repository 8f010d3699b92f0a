"""The strongest built-in agent: :class:`BestAgent` (``make_agent("best")``).

Knock games: determinized flat Monte Carlo over the C playouts, with the opponent's hand
tracked by a particle filter (:mod:`rummykit.agents.tracking`).  Table games: see the class.
``docs/strength.md`` has the measurements behind every setting.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rummykit import _core
from rummykit._random import as_generator
from rummykit.agents.base import (
    MAX_PLAYOUTS,
    MatchInfo,
    _check_int,
    _check_product,
    _check_seconds,
    _is_number,
    register,
)
from rummykit.agents.simple import CarefulAgent, GreedyAgent
from rummykit.cards import ids_mask, mask_ids
from rummykit.errors import InvalidOptionError, RummykitError, clip

if TYPE_CHECKING:
    import numpy as np

__all__ = ["BestAgent"]

_GREEDY = GreedyAgent()
#: the knock rate of a patient story (``patient``): it knocks at one chance in ten
PATIENT_RATE = 0.1
#: the bounds of the meld takers' share a hand after a game's first starts from (``meld_taker``)
TAKER_BOUNDS = (0.05, 0.95)
#: ``(playout_knock, knock_z)`` against an eager knocker (``counter``): wait for gin or the
#: undercut, leaving that player's moves only for a clear gain (``docs/strength.md``)
COUNTER = (0, 2.0)


class BestAgent:
    """Flat Monte Carlo search on samples of the hidden cards drawn from an opponent model.

    **Knock games, two players** (no restocks): a particle filter of ``particles`` stories of
    the opponent's hand, weighted by how well each explains the opponent's takes, passes,
    discards and knocks under a softened greedy model (``beta``, ``epsilon``; ``high``: a
    preference for throwing high cards, default 0; :mod:`rummykit.agents.tracking`), gives
    ``samples`` opponent hands.  Each candidate action is applied to the real state and scored
    against each hand: a knock (or big gin) by the showdown at once; any other move by
    ``playouts`` greedy C playouts from the position the player sees after it, the opponent's
    hand filled in and the unseen cards reshuffled into the stock for each playout (a stock
    draw's card is not looked at: a random unseen card joins the hand).  **Three or four
    players, or restocks**: ``determinizations`` uniform determinizations
    (``state.determinize``), each candidate applied and scored by ``playouts`` greedy playouts
    (:func:`rummykit.playouts`, ``resample="stock"``).  The playouts of one sample use the same
    seed for every candidate (common random numbers).  A playout's score is the seat's signed
    result (:func:`~rummykit.agents.base.signed_results`) plus ``win_bonus`` for a won hand,
    minus it for a lost one; the move is the candidate of best mean score.

    Candidates: every legal action when drawing; when discarding, the ``width`` discards of
    least deadwood left (ties: the highest card value, then the highest card) and the best
    knock (the knock of least deadwood left), if any.  With ``knock_z`` > 0 (default 0: the best
    mean) the search leaves the move of its own seat's playout policy (greedy, or careful,
    knocking at ``playout_knock`` or less) only for a candidate ahead of it by more than
    ``knock_z`` standard errors of their paired difference over the sampled hands, as
    ``table_z`` does in the table games: a search that leaves it at every small edge it
    measures plays, move after move, a hand the playouts never modelled.

    **Against an eager knocker** (``counter``, two players): while the opponent looks like a
    player who knocks as soon as it can, ``best`` plays :data:`COUNTER` instead of
    ``playout_knock`` and ``knock_z``: it waits for gin or the undercut, leaving the gin
    hunter's moves only for a clear gain.  ``counter=1`` (the default): once the opponent has
    knocked short of gin in this game and has never been seen to keep a knockable hand (at a
    showdown, its deadwood before lay-offs within the knock limit); ``counter=2``: from the
    game's first hand until it is seen to keep one (stronger against eager players, weaker
    against patient ones, ``docs/strength.md``); 0: off.  Each game starts afresh.

    A knock candidate's score is lowered by ``knock_margin`` (default 0: off).
    ``knock_rate`` (default: ``1 - epsilon / 2``, an opponent that knocks as soon as it can) is
    the filter's probability that the opponent knocks when it can; ``patient`` (default 0.5; 0:
    off) the prior probability that the opponent is a patient player instead, one that knocks
    at one chance in ten (:data:`PATIENT_RATE`) and waits to undercut: each story of its hand
    is drawn as one style or the other and weighed by the same evidence, so an opponent that
    keeps a knockable hand without knocking shifts the stories to the patient style and the
    low deadwood it holds, and the knocks weigh the undercut.  ``story_playouts=1`` (the
    default): once the opponent has been seen to keep a knockable hand in this game (at a
    showdown, as ``counter`` counts it), it also plays each story's style in that hand's
    playouts, a patient story knocking only for gin; 0: every story knocks as soon as it may
    there.  Against a player who always knocks when it can nothing changes.  **Two styles of
    taking** (``meld_taker``, default 0.5; 0: off): each story is also drawn, with that
    probability, as a player who takes a discard only into a meld or to knock (the rule of
    the published simple bots, ``eaai-simple`` and ``openspiel-simple``) instead of whenever
    it lowers its deadwood, weighed by the same evidence (such a player passes cards greedy
    would take), and the opponent in each sampled hand's playouts takes in its story's style.
    ``meld_taker`` is the share of such stories in a game's first hand; each later hand of the
    game starts from the share the weighted stories gave the style at ``best``'s last decision
    of the hand before (kept within :data:`TAKER_BOUNDS`), so the evidence adds up over the
    game (0 and 1 stay fixed).
    ``playout_policy="careful"`` plays the knock games' playouts with the careful policy
    (:class:`~rummykit.agents.CarefulAgent`) instead of greedy, every seat;
    ``"careful-self"`` only its own seat, the opponent greedy (two players; three or four:
    every seat careful); the table games' stay greedy.  ``playout_knock`` (default -1: as soon
    as it may; 0: gin only, a player that waits for gin or an undercut) is the most deadwood its
    own seat knocks with in the two-player playouts; the knock now is searched either way.

    **Playing the game** (``game_value=1``, the default): in the two-player games that end at
    a score (Gin, Oklahoma Gin, Rummy, Kaluki) a playout's score is instead the change of the
    probability of winning the game that its result causes
    (:func:`rummykit.agents.gamevalue.hand_value`: a table over both scores solved per rules),
    from the scores the match told it before the hand (``new_hand``, :class:`MatchInfo`; 0-0
    without a match), plus ``win_bonus`` (table games: ``table_bonus``, default 0) times what
    one point is worth at those scores for a won hand (minus for a lost one): near the end it
    takes the safe knock, behind it plays for more, and at level scores it plays as for points.
    In Rummy and Kaluki the playouts run to the end of the hand, so every penalty card still
    held counts in the leaf score at the value the game gives it.
    ``learn=1`` (off by default: it lost games to the patient player in a pilot,
    ``docs/strength.md``) learns during a game how readily the opponent knocks: after each
    hand the match shows, a hand the opponent knocked counts as a knock, a hand it defended
    with deadwood it could have knocked with as a pass, and the particle filter uses the
    opponent's knock rate ``(knocks + 2.7) / (knocks + passes + 3)`` instead of assuming it
    knocks as soon as it can, so that the knocks weigh the undercut risk of a patient
    opponent.  ``best:game_value=0`` is the agent that plays each hand for its points.

    **Table games** (Rummy, Kaluki): greedy's melds, lay-offs and releases; the draw (stock or
    discard) and, when greedy would discard, the ``table_width`` legal discards greedy ranks
    first (a card with no neighbour towards a meld in the hand, then the highest penalty; 64:
    every one) are searched: ``table_pool``
    times ``max(2, table_samples // candidates)`` determinizations (``state.determinize``;
    ``table_samples`` by default 96 in Rummy, 48 in Kaluki, whose playouts cost about six
    times as much), each
    weighted ``exp(-table_lambda * conflicts)`` by what the other seats' takes, passes and
    discards in the hand say of their cards (a conflict: a card a seat holds in it of the rank
    of a card that seat discarded, or of its suit within two ranks, since a greedy player throws
    lone cards; a top discard the seat passed that two of its cards make a meld with; a card it
    took and still holds with no such neighbour), ``max(2, table_samples // candidates)`` of
    them drawn by weight, so the discards stay out of the melds the others are likely building; each
    candidate scored by ``playouts`` greedy C table playouts (``resample="stock"``) as above.
    With ``table_hold=1`` (the default), where greedy would meld or lay off, that move and
    every discard at once (keeping the cards for a later turn: going out in one turn, or
    giving the opponent nothing to lay off on) are searched the same way.  The search leaves
    greedy's move only for a candidate ahead of it by more than ``table_z`` standard errors
    of their paired difference over the samples (default 1; 0: the best mean): with a few
    samples a candidate, most of the spread between discards is noise.
    Past a hand's second restock (usually a stuck hand whose playouts run to ``max_turns``) it
    plays greedy.

    Budget: the counts above (deterministic for a given seed), or with ``time_per_move``
    seconds also a clock: no new sample is started past it (the first always runs), so the
    moves then depend on the machine.  ``docs/strength.md`` has the measurements behind the
    defaults.

    Ranges (else :class:`~rummykit.errors.InvalidOptionError` naming the setting): ``samples``,
    ``playouts``, ``determinizations`` and ``table_samples`` 1..1024 (``table_samples`` from 0),
    with each product ``samples x playouts``, ``determinizations x playouts`` and
    ``table_samples x playouts`` at most :data:`~rummykit.agents.base.MAX_PLAYOUTS` (65,536
    playouts a candidate: the move's time bound, see ``docs/hardening.md``); ``particles``
    1..16384; ``width`` and ``table_width`` 1..64; ``table_pool`` 1..16; ``table_bonus``,
    ``table_z`` and ``knock_z`` numbers >= 0; ``patient`` and ``meld_taker`` in [0, 1];
    ``table_hold`` 0 or 1; ``playout_knock`` -1..100; ``time_per_move`` up to an hour.

    >>> import rummykit as rk
    >>> state = rk.Game("gin").new_hand(seed=2)
    >>> BestAgent(seed=1)(state) == BestAgent(seed=1)(state)
    True
    """

    def __init__(
        self,
        samples: int = 64,
        *,
        particles: int = 4096,
        playouts: int = 12,
        width: int = 11,
        beta: float = 1.0,
        epsilon: float = 0.05,
        win_bonus: float = 15.0,
        determinizations: int = 12,
        knock_margin: float = 0.0,
        knock_rate: float | None = None,
        patient: float = 0.5,
        meld_taker: float = 0.5,
        high: float = 0.0,
        table_samples: int | None = None,
        table_pool: int = 2,
        table_lambda: float = 1.0,
        table_bonus: float = 0.0,
        table_width: int = 64,
        table_z: float = 1.0,
        table_hold: int = 1,
        knock_z: float = 0.0,
        counter: int = 1,
        game_value: int = 1,
        learn: int = 0,
        story_playouts: int = 1,
        playout_policy: str = "greedy",
        playout_knock: int = -1,
        time_per_move: float | None = None,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        self.samples = _check_int("samples", samples, 1, 1024)
        self.particles = _check_int("particles", particles, 1, 16384)
        self.playouts = _check_int("playouts", playouts, 1, 1024)
        self.width = _check_int("width", width, 1, 64)
        if not _is_number(knock_margin):
            raise InvalidOptionError(f"knock_margin must be a finite number, got {clip(knock_margin)}")
        self.knock_margin = float(knock_margin)
        if knock_rate is not None and (not _is_number(knock_rate) or not 0 < knock_rate < 1):
            raise InvalidOptionError(f"knock_rate must be a number in (0, 1), got {clip(knock_rate)}")
        self.knock_rate = None if knock_rate is None else float(knock_rate)
        if not _is_number(patient) or not 0 <= patient <= 1:
            raise InvalidOptionError(f"patient must be a number in [0, 1], got {clip(patient)}")
        self.patient = float(patient)
        if not _is_number(meld_taker) or not 0 <= meld_taker <= 1:
            raise InvalidOptionError(f"meld_taker must be a number in [0, 1], got {clip(meld_taker)}")
        self.meld_taker = float(meld_taker)
        self.determinizations = _check_int("determinizations", determinizations, 1, 1024)
        if not _is_number(high):
            raise InvalidOptionError(f"high must be a finite number, got {clip(high)}")
        self.high = float(high)
        self.table_samples = None if table_samples is None else _check_int("table_samples", table_samples, 0, 1024)
        self.table_pool = _check_int("table_pool", table_pool, 1, 16)
        self.table_width = _check_int("table_width", table_width, 1, 64)
        for names, product in (
            ("samples x playouts", self.samples * self.playouts),
            ("determinizations x playouts", self.determinizations * self.playouts),
            ("table_samples x playouts", _table_budget(self.table_samples, "rummy") * self.playouts),
        ):
            _check_product(names, product, MAX_PLAYOUTS)
        if not _is_number(table_lambda) or table_lambda < 0:
            raise InvalidOptionError(f"table_lambda must be a finite number >= 0, got {clip(table_lambda)}")
        self.table_lambda = float(table_lambda)
        for name, value in (("table_z", table_z), ("knock_z", knock_z)):
            if not _is_number(value) or value < 0:
                raise InvalidOptionError(f"{name} must be a finite number >= 0, got {clip(value)}")
        self.table_z, self.knock_z = float(table_z), float(knock_z)
        for name, value in (("beta", beta), ("win_bonus", win_bonus), ("table_bonus", table_bonus)):
            if not _is_number(value) or value < 0:
                raise InvalidOptionError(f"{name} must be a finite number >= 0, got {clip(value)}")
        if not _is_number(epsilon) or not 0 < epsilon <= 1:
            raise InvalidOptionError(f"epsilon must be a number in (0, 1], got {clip(epsilon)}")
        self.beta, self.epsilon, self.win_bonus = float(beta), float(epsilon), float(win_bonus)
        self.table_bonus = float(table_bonus)
        self.time_per_move = _check_seconds(time_per_move)
        switches = {"game_value": game_value, "learn": learn, "table_hold": table_hold}
        switches["story_playouts"] = story_playouts
        for name, value in switches.items():
            if value not in (0, 1) or isinstance(value, float):
                raise InvalidOptionError(f"{name} must be 0 (off) or 1 (on), got {clip(value)}")
        self.game_value, self.learn, self.table_hold = int(game_value), int(learn), int(table_hold)
        self.story_playouts = int(story_playouts)
        if playout_policy not in ("greedy", "careful", "careful-self"):
            raise InvalidOptionError(
                f"playout_policy must be 'greedy', 'careful' or 'careful-self', got {clip(playout_policy)}"
            )
        self.playout_policy = str(playout_policy)
        self.playout_knock = _check_int("playout_knock", playout_knock, -1, 100)
        if counter not in (0, 1, 2) or isinstance(counter, float):
            raise InvalidOptionError(f"counter must be 0, 1 or 2, got {clip(counter)}")
        self.counter = int(counter)
        self._rng = as_generator(seed)
        self._info: MatchInfo | None = None
        self._knocks = self._passes = 0  # the opponent's knocking seen in this game (learn, counter)
        self._takers = self._taken = self.meld_taker  # the meld takers' share: this hand's prior, the last seen
        self._values: Any = None  # the value of each signed result in this decision (game_value)

    def new_hand(self, info: MatchInfo) -> None:
        """The match so far, before a hand: the scores it plays the game by and, from the
        last hand's showdown, the opponent's knocking (see the class)."""
        self._info = info
        if info.hand == 0:  # a new game: nothing seen of this opponent's knocking or taking yet
            self._knocks = self._passes = 0
            self._takers = self._taken = self.meld_taker
        elif 0 < self.meld_taker < 1:  # the take style carries over: the last hand's posterior
            self._takers = min(max(self._taken, TAKER_BOUNDS[0]), TAKER_BOUNDS[1])
        last = info.last
        knocking = info.game is not None and info.game.family_record.knocks
        if last is None or not knocking or last.knocker is None or len(info.scores) != 2:
            return
        them = 1 - info.seat
        if last.knocker == them:
            self._knocks += last.outcome not in ("gin", "big_gin")  # every style knocks for gin
        elif last.outcome != "big_gin":
            laid = sum(min(int(c) % 13 + 1, 10) for lay in last.layoffs[them] for c in lay.cards)
            if last.deadwood[them] + laid <= _knock_max(info.game, last.knock_limit):
                self._passes += 1

    def _knock_style(self) -> tuple[int, float]:
        """Its own seat's knock limit in the two-player playouts and the search's ``knock_z``
        for this hand: :data:`COUNTER` while the opponent looks like an eager knocker in this
        game (``counter``: see the class), else ``playout_knock`` and ``knock_z``."""
        if self.counter and not self._passes and (self._knocks or self.counter == 2):
            return COUNTER
        return self.playout_knock, self.knock_z

    def _rollout_agent(self, knock_at: int) -> Any:
        """Its own seat's policy in the two-player playouts, knocking at ``knock_at`` or less."""
        own = GreedyAgent if self.playout_policy == "greedy" else CarefulAgent
        return own(max_knock_deadwood=None if knock_at < 0 else knock_at)

    def _knock_rate(self) -> float | None:
        if not self.learn or self._knocks + self._passes == 0:
            return self.knock_rate
        return (self._knocks + 2.7) / (self._knocks + self._passes + 3)

    def _game_values(self, state: Any) -> Any:
        """The change of the win probability per signed result (index ``d + offset``), or None."""
        if not self.game_value or state.n != 2:
            return None
        from rummykit.agents.gamevalue import hand_value

        me = state.current_player
        scores = self._info.scores if self._info is not None and len(self._info.scores) == 2 else (0, 0)
        if state.game.score_kind == "penalties":  # progress: the penalty the other player took
            values = hand_value(state.game, scores[1 - me], scores[me])
        else:
            values = hand_value(state.game, scores[me], scores[1 - me])
        if values is None:
            return None
        import numpy as np

        off = (len(values) - 1) // 2
        slope = (values[off + 1] - values[off - 1]) / 2  # what a point is worth here
        bonus = self.win_bonus if state.game.family_record.knocks else self.table_bonus
        return values + bonus * slope * np.sign(np.arange(-off, off + 1))

    def _point_scores(self, signed: Any) -> Any:
        """The score of each playout's signed result (any array shape): the win-probability
        change (game_value), else the result plus ``win_bonus`` times its sign."""
        import numpy as np

        signed = np.asarray(signed, dtype=np.int64)
        if self._values is not None:
            off = (len(self._values) - 1) // 2
            return self._values[np.clip(signed + off, 0, 2 * off)]
        return signed + self.win_bonus * np.sign(signed)

    def _score(self, signed: Any) -> float:
        """The mean score of playouts' signed results (:meth:`_point_scores`)."""
        return float(self._point_scores(signed).mean())

    def _settings(self) -> dict[str, Any]:
        return {
            "particles": self.particles,
            "playouts": self.playouts,
            "width": self.width,
            "beta": self.beta,
            "epsilon": self.epsilon,
            "win_bonus": self.win_bonus,
            "knock_margin": self.knock_margin,
            "knock_rate": self.knock_rate,
            "patient": self.patient,
            "meld_taker": self.meld_taker,
            "determinizations": self.determinizations,
            "high": self.high,
            "table_samples": self.table_samples,
            "table_pool": self.table_pool,
            "table_lambda": self.table_lambda,
            "table_bonus": self.table_bonus,
            "table_width": self.table_width,
            "table_z": self.table_z,
            "table_hold": self.table_hold,
            "knock_z": self.knock_z,
            "counter": self.counter,
            "game_value": self.game_value,
            "learn": self.learn,
            "story_playouts": self.story_playouts,
            "playout_policy": self.playout_policy,
            "playout_knock": self.playout_knock,
            "time_per_move": self.time_per_move,
        }

    def spawn(self, seed: int | np.random.Generator | None) -> BestAgent:
        """A new agent with these settings, seeded with ``seed``."""
        return BestAgent(self.samples, seed=seed, **self._settings())

    def __repr__(self) -> str:
        return "BestAgent()"

    def __call__(self, state: Any) -> int:
        start = time.perf_counter()
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        deadline = None if self.time_per_move is None else start + self.time_per_move
        self._values = self._game_values(state)
        if not state.game.family_record.knocks:
            return self._table_move(state, legal, deadline)
        candidates = _candidates(state, legal, self.width)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(state, candidates, deadline)

    def _table_move(self, state: Any, legal: list[int], deadline: float | None) -> int:
        """Games without knocking (Rummy, Kaluki): the draw (stock or discard), the discard and
        (``table_hold``) greedy's meld or lay-off against discarding at once, searched on
        weighted determinizations with C playouts; releases are greedy's."""
        action = state.game.family_record.action  # the action kinds of the game's codec
        greedy = int(_GREEDY(state))
        kind = action(greedy).kind
        if kind in ("draw", "take"):
            candidates = sorted(int(a) for a in legal if action(int(a)).kind in ("draw", "take"))
        elif kind == "discard":  # the table_width first in greedy's order (one per card type)
            candidates = _table_discards(
                state, [int(a) for a in legal if action(int(a)).kind == "discard"], self.table_width
            )
        elif kind in ("meld", "lay off") and self.table_hold:  # or keep the cards: discard now
            discards = [int(a) for a in legal if action(int(a)).kind == "discard"]
            candidates = [greedy, *_table_discards(state, discards, self.table_width)]
        else:
            return greedy
        # a hand past its second restock is usually stuck, its playouts running to max_turns: greedy
        budget = _table_budget(self.table_samples, state.game.name)
        if len(candidates) <= 1 or budget == 0 or state.restocks >= 2:
            return greedy
        me = state.current_player
        count = max(2, budget // len(candidates))
        samples = _table_samples(state, me, count, self.table_pool, self.table_lambda, self._rng, deadline)
        scores = self._sampled_scores(state, candidates, samples, self.playouts, deadline, per_sample=True)
        return candidates[_anchored(scores, candidates.index(greedy) if greedy in candidates else 0, self.table_z)]

    def _search(self, state: Any, candidates: list[int], deadline: float | None) -> int:
        import numpy as np

        from rummykit.agents import tracking
        from rummykit.knock.actions import DRAW_STOCK, KNOCK

        rng, me = self._rng, state.current_player
        if tracking.can_track(state):
            try:
                events = tracking.public_events(state, me, rng)
                rate: Any = self._knock_rate()
                if self.patient:  # a mixture of styles: each story a patient or an eager knocker
                    eager = 1 - self.epsilon / 2 if rate is None else rate
                    rate = np.where(rng.random(self.particles) < self.patient, PATIENT_RATE, eager)
                # a mixture of take styles: each story takes only into a meld, or as greedy does
                takers = (rng.random(self.particles) < self._takers).astype(np.uint8) if self.meld_taker else None
                particles = tracking.track(
                    state, events, self.particles, self.beta, self.epsilon, rng, self.high, rate, takers
                )
                if takers is not None:
                    self._taken = float(particles.weights()[particles.taker == 1].sum())
            except tracking.Untracked:
                pass
            else:
                hands, rates, styles = tracking.sample_stories(particles, self.samples, rng)
                # story_playouts, once the opponent kept a knockable hand in this game: a patient
                # story's opponent knocks only for gin in the playouts
                styled = self.story_playouts and self._passes
                limits = np.where(rates <= PATIENT_RATE, 0, -1).astype(np.int32) if styled else None
                takes = styles if self.meld_taker else None
                scores = self._tracked_scores(
                    state, candidates, hands, deadline, per_hand=True, limits=limits, takes=takes
                )
                if self.knock_margin:  # sampled hands may be looser than the real one: knock when clearly ahead
                    scores -= self.knock_margin * np.array([[KNOCK <= a < DRAW_STOCK] for a in candidates])
                knock_at, z = self._knock_style()
                anchor = int(self._rollout_agent(knock_at)(state)) if z else candidates[0]
                return candidates[_anchored(scores, candidates.index(anchor) if anchor in candidates else 0, z)]
        # a full determinization and its replayed playouts cost more than a tracked hand: fewer
        samples = (state.determinize(me, rng) for _ in range(self.determinizations))
        return candidates[_argmax(self._sampled_scores(state, candidates, samples, self.playouts, deadline))]

    def _tracked_scores(
        self,
        state: Any,
        candidates: list[int],
        hands: list[int],
        deadline: float | None = None,
        *,
        per_hand: bool = False,
        limits: Any = None,
        takes: Any = None,
    ) -> Any:
        """Two players: each candidate's mean score over the opponent hands ``hands``, the
        stock reshuffled ``playouts`` times for each (the same shuffles for every candidate);
        past ``deadline`` (``time.perf_counter``) no further hand is started.  With
        ``per_hand``, an array of each candidate's mean score on each hand (candidates x hands).
        ``limits``: the opponent's knock limit in the playouts of each hand (int32; None: as
        soon as it may); ``takes``: 1 where the opponent takes a discard only into a meld or to
        knock in the playouts of that hand (uint8; None: greedy's take rule)."""
        import numpy as np

        from rummykit._rules import core_rules
        from rummykit.knock.actions import BIG_GIN, DRAW_STOCK, KNOCK

        me = state.current_player
        rules, played = core_rules(state.rules.aces), state.rules
        knock_at, _ = self._knock_style()
        mine = state.hands[me]
        upcard = int(state.observation(me).upcard)
        seed = int(self._rng.integers(2**62))
        m = self.playouts
        points = np.zeros((m, 2), dtype=np.int32)
        outcomes = np.zeros(m, dtype=np.uint8)
        plans: list[tuple[Any, ...]] = []  # how each candidate is scored against one hand
        for action in candidates:
            if KNOCK <= action < DRAW_STOCK or action == BIG_GIN:  # at once, by the showdown
                plans.append(
                    ("knock", mine if action == BIG_GIN else mine & ~(1 << (action - KNOCK)), action == BIG_GIN)
                )
                continue
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():  # a dead hand: nothing hidden decides it
                result = child.returns()
                plans.append(("fixed", float(result[me] - result[1 - me])))
                continue
            seen = child.observation(me)
            # the card a stock draw brings is not looked at: a random unseen card joins the hand
            held = mine if action == DRAW_STOCK else child.hands[me]
            unseen = mask_ids(_ALL & ~(held | ids_mask(seen.discard_pile)))  # each hand takes its cards out
            spec = _spec(played, me, _spec_parts(seen), held, 0, unseen, action == DRAW_STOCK)
            _core.knock_public(spec, child)  # what the players saw take and throw: the careful policy reads it
            plans.append(("play", spec))
        # the signed result of every playout: candidates x hands x playouts (a knock or a dead
        # hand has one result a hand, repeated: the means stay the same)
        signed = np.zeros((len(plans), len(hands), m), dtype=np.int64)
        policy = _core.POLICY_CAREFUL if self.playout_policy == "careful" else _core.POLICY_GREEDY
        mine = _core.POLICY_CAREFUL if self.playout_policy != "greedy" else policy  # careful-self: its own seat
        masks = np.array(hands, dtype=np.uint64)
        step = len(hands) if deadline is None else 1  # with a clock, one hand at a time
        done = 0
        for start in range(0, len(hands), step):
            if start and deadline is not None and time.perf_counter() > deadline:
                break
            done = min(start + step, len(hands))
            for i, plan in enumerate(plans):
                if plan[0] == "fixed":
                    signed[i, start:done] = plan[1]
                elif plan[0] == "knock":
                    for k in range(start, done):
                        result = _core.score_knock(rules, played, [plan[1], hands[k]], upcard, plan[2])[3]
                        signed[i, k] = result[0] - result[1]
                else:
                    rows = signed[i, start:done]
                    run = (policy, -1, seed + start, points, outcomes, rows, me, mine, knock_at)
                    per = None if limits is None else limits[start:done]
                    style = None if takes is None else takes[start:done]
                    _core.run_playouts_hands(rules, plan[1], 1 - me, masks[start:done], *run, per, style)
        scored = self._point_scores(signed[:, :done])
        if per_hand:
            return scored.mean(axis=2)
        return [float(row.mean()) for row in scored]

    def _sampled_scores(
        self,
        state: Any,
        candidates: list[int],
        samples: Iterable[Any],
        per: int,
        deadline: float | None = None,
        *,
        per_sample: bool = False,
    ) -> Any:
        """Any number of players: each candidate's mean score on the full states ``samples``,
        the stock reshuffled ``per`` times for each (the same shuffles for every candidate);
        past ``deadline`` no further sample is started.  With ``per_sample``, an array of each
        candidate's mean score on each sample (candidates x samples) instead."""

        from rummykit.playouts import playouts

        me, n = state.current_player, state.n
        seed = int(self._rng.integers(2**62))
        policy = "careful" if self.playout_policy != "greedy" and state.game.family_record.knocks else "greedy"
        tally: list[list[Any]] = [[] for _ in candidates]
        for k, sample in enumerate(samples):
            if k and deadline is not None and time.perf_counter() > deadline:
                break
            for i, action in enumerate(candidates):
                child = sample.clone()
                child.apply_action(action)
                points, _ = playouts(child, per, resample="stock", seed=seed + k, policy=policy)
                # signed results (agents.base.signed_results) of every playout at once
                tally[i].append((n * points[:, me] - points.sum(axis=1)) / (n - 1))
        import numpy as np

        if per_sample:
            return np.array([[self._score(part) for part in parts] for parts in tally])
        return [self._score(np.concatenate(parts)) for parts in tally]


def _table_samples(
    state: Any, me: int, count: int, pool: int, lam: float, rng: Any, deadline: float | None = None
) -> list[Any]:
    """``count`` determinizations for ``me`` drawn by weight from ``pool * count`` uniform ones,
    each weighted ``exp(-lam * conflicts)`` with the conflicts of :func:`_table_evidence`
    (what each other seat's takes, passes and discards say of its hand).  Past ``deadline`` no
    further determinization is made (the first always is)."""
    import numpy as np

    made = []
    for k in range(count * pool):
        if k and deadline is not None and time.perf_counter() > deadline:
            count = max(1, k // pool)
            break
        made.append(state.determinize(me, rng))
    if pool == 1 or lam == 0:
        return made
    evidence = _table_evidence(state, me)
    logw = np.zeros(len(made))
    for q, (near, pairs, takes) in evidence.items():
        for i, sample in enumerate(made):
            held = _naturals(sample.hand(q))
            logw[i] -= lam * _conflicts(held, near, pairs, takes)
    w = np.exp(logw - logw.max())
    w /= w.sum()
    positions = (rng.random() + np.arange(count)) / count
    index = np.minimum(np.searchsorted(np.cumsum(w), positions), len(made) - 1)
    return [made[int(i)] for i in index]


def _table_discards(state: Any, discards: list[int], width: int) -> list[int]:
    """The ``width`` of the legal ``discards`` (card types) greedy would throw first: the ones with no
    neighbour in the hand (:func:`_neighbours`; a joker always has one), then the highest
    penalty, then the highest type."""
    held = _naturals(state.hand(state.current_player))
    values = state.geo.values

    def key(t: int) -> tuple[bool, int, int]:
        return t > 51 or bool(held & _neighbours(t)), -values[t], -t

    return sorted(set(discards), key=key)[:width]


def _naturals(cards: Iterable[int]) -> int:
    """The mask of the natural types among ``cards`` (a type held twice counts once)."""
    mask = 0
    for c in cards:
        if int(c) <= 51:
            mask |= 1 << int(c)
    return mask


def _neighbours(t: int) -> int:
    """The natural types next to type ``t`` as greedy counts them (a card with one is
    "useful"): its rank in the other suits, its suit within two ranks, A and K adjacent."""
    rank, suit = t % 13, t // 13
    mask = sum(1 << (s * 13 + rank) for s in range(4) if s != suit)
    for k in (rank - 2, rank - 1, rank + 1, rank + 2, 12 if rank == 0 else -1, 0 if rank == 12 else -1):
        if 0 <= k < 13:
            mask |= 1 << (suit * 13 + k)
    return mask


def _partners(t: int, geo: Any) -> tuple[int, list[int]]:
    """What completes a meld with type ``t`` under the run geometry ``geo``
    (:mod:`rummykit.table.melds`): the mask of its rank in the other suits (two of them make
    a set) and the pairs of its suit that make a run of three with it."""
    rank, suit = t % 13, t // 13
    same = sum(1 << (s * 13 + rank) for s in range(4) if s != suit)
    runs = []
    for p in range(geo.npos):
        if geo.rank_at(p) != rank:
            continue
        for a, b in ((-2, -1), (-1, 1), (1, 2)):
            start = p + min(a, 0)
            if geo.fits(start % 13 if geo.wrap else start, 3):
                runs.append(1 << geo.type_at(suit, p + a) | 1 << geo.type_at(suit, p + b))
    return same, runs


def _table_evidence(state: Any, me: int) -> dict[int, tuple[list[int], list[tuple[int, list[int]]], list[int]]]:
    """What each other seat's public choices in this hand say of its hand (natural types):
    per seat, the neighbour masks of the cards it threw (a greedy player keeps cards next to
    each other and throws the lone ones), the meld partners of the top discards it passed
    (drew from the stock when it could take: it held no two cards making a meld with the card)
    and the cards it took (one it still holds is kept for a meld, so it holds a neighbour)."""
    from rummykit.table.actions import DRAW, TAKE

    out: dict[int, tuple[list[int], list[tuple[int, list[int]]], list[int]]] = {}
    replay = state.clone()
    while replay.history:  # public: who threw, passed and took what
        action = int(replay.history[-1])
        replay.undo()
        q = replay.current_player
        if q == me:
            continue
        near, pairs, takes = out.setdefault(q, ([], [], []))
        if action <= 51:
            near.append(_neighbours(action))
        elif action in (DRAW, TAKE):
            top = replay.top_discard
            if top is None or int(top) > 51:
                continue
            if action == TAKE:
                takes.append(int(top))
            elif TAKE in replay.legal_actions():
                pairs.append(_partners(int(top), state.geo))
    return out


def _conflicts(held: int, near: list[int], pairs: list[tuple[int, list[int]]], takes: list[int]) -> int:
    """How far the hand ``held`` (a mask of natural types) is from a greedy player's choices
    ``near``, ``pairs``, ``takes`` (:func:`_table_evidence`): each held card next to a thrown
    one, each passed card the hand could have melded, each taken card held with no neighbour."""
    count = sum((held & mask).bit_count() for mask in near)
    for same, runs in pairs:
        count += (held & same).bit_count() >= 2 or any(held & run == run for run in runs)
    count += sum(1 for t in takes if held >> t & 1 and not held & _neighbours(t))
    return int(count)


def playout_spec(rules: Any, seen: Any, held: int, hand: int, stock: list[int], *, draw: bool = False) -> Any:
    """The C playout spec (game rules record ``rules``) of a two-player position as the observer
    ``seen.player`` sees it (``seen``: its observation), its hand ``held`` and the opponent's
    hand ``hand`` filled in,
    the ``stock`` cards reshuffled for each playout; with ``draw``, one of them first goes to the
    observer's hand (a stock draw whose card it has not looked at)."""
    me = seen.player
    if len(stock) != seen.stock_size + draw:
        raise RummykitError(f"{len(stock)} unseen cards for a stock of {seen.stock_size}")
    return _spec(rules, me, _spec_parts(seen), held, hand, stock, draw)


def _spec_parts(seen: Any) -> tuple[Any, ...]:
    """The fields of a C position after the hands, from an observation (two players)."""
    from rummykit.knock.state import Phase

    return (
        (),
        tuple(int(c) for c in seen.discard_pile),
        seen.dealer,
        seen.current_player,
        int(Phase[seen.phase.upper()]),
        int(seen.upcard),
        -1 if seen.taken is None else int(seen.taken),
        seen.restocks,
        seen.turns,
        0,  # the restock seed: no restocks in the games tracked
    )


def _spec(rules: Any, me: int, parts: tuple[Any, ...], held: int, hand: int, stock: list[int], draw: bool) -> Any:
    dest = [-1] * len(stock)
    if draw:
        dest[0] = me
    return _core.PlayoutSpec(rules, ((held, hand) if me == 0 else (hand, held), *parts), (stock, dest, [len(stock)]))


_ALL = (1 << 52) - 1


def _knock_max(game: Any, limit: int) -> int:
    """The most deadwood a knock could leave in a hand of ``game`` whose knock limit was
    ``limit``, by the engine's rule (an ace upcard may allow gin only; ``knock_compare="lt"``
    one less): an upcard of that value sets that limit."""
    card = max(0, min(limit, 10) - 1)  # the club of that value
    return int(_core.knock_limits(game.rules, card)[3])


#: ``table_samples`` by default, per game (the same time a decision: a Kaluki playout costs
#: about six Rummy ones); other table games take Kaluki's.
_TABLE_SAMPLES = {"rummy": 96, "kaluki": 48}


def _table_budget(table_samples: int | None, game: str) -> int:
    """``table_samples``, or the game's default when None."""
    if table_samples is not None:
        return table_samples
    return _TABLE_SAMPLES.get(game, _TABLE_SAMPLES["kaluki"])


def _argmax(values: list[float]) -> int:
    return max(range(len(values)), key=values.__getitem__)


def _anchored(scores: Any, anchor: int, z: float) -> int:
    """The candidate of best mean score in ``scores`` (candidates x samples), unless it beats the
    ``anchor`` candidate by less than ``z`` standard errors of their paired difference over the
    samples: then the anchor (greedy's move; the search's noise costs more than it finds)."""
    import numpy as np

    means = scores.mean(axis=1)
    top = int(np.argmax(means))
    if top == anchor or z <= 0 or scores.shape[1] < 2:
        return top
    diff = scores[top] - scores[anchor]
    spread = float(diff.std(ddof=1)) / np.sqrt(len(diff))
    return top if float(diff.mean()) > z * spread else anchor


def _candidates(state: Any, legal: list[int], width: int) -> list[int]:
    """The actions worth searching (see :class:`BestAgent`)."""
    from rummykit._rules import core_rules
    from rummykit.knock.actions import DRAW_STOCK, KNOCK

    if not any(a < DRAW_STOCK for a in legal):
        return [int(a) for a in legal]
    rules = core_rules(state.rules.aces)
    hand = sum(1 << int(c) for c in state.hand(state.current_player))
    after = dict(_core.deadwood_after_discards(rules, hand))

    def key(card: int) -> tuple[int, int, int]:
        return after[card], -min(card % 13 + 1, 10), -card

    discards = sorted((a for a in legal if a < KNOCK), key=key)[:width]
    knocks = sorted((a - KNOCK for a in legal if KNOCK <= a < DRAW_STOCK), key=key)[:1]
    others = [a for a in legal if a >= DRAW_STOCK]
    return [int(a) for a in discards] + [KNOCK + c for c in knocks] + [int(a) for a in others]


register("best", BestAgent)
