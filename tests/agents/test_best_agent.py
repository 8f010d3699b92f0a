"""BestAgent and its opponent tracking: samples that look the same to the player, C playout
specs built from an observation against the engine's own, seeding, every game."""

from __future__ import annotations

import json

import numpy as np
import pytest

import rummykit as rk
from rummykit.agents import BestAgent, GreedyAgent, make_agent, tracking
from rummykit.agents.best import _candidates, playout_spec
from rummykit.knock.actions import DRAW_STOCK, KNOCK

GIN = (
    "gin",
    {"stock_end_rule": "dead_at_2_last_chance", "undercut_on_tie": False, "forbid_discarding_taken_card": False},
)
TRACKED = [
    GIN,
    ("gin", {}),
    ("oklahoma-gin", {}),
    ("oklahoma-gin", {"first_turn_procedure": "upcard_offer", "forbid_discarding_taken_card": False}),
    ("gin", {"knock_compare": "lt", "allow_ace_high_run": True}),
]


def _states(name: str, options: dict[str, object], hands: int, seed: int = 0) -> list[rk.KnockState]:
    """Every decision state of greedy-vs-greedy hands."""
    game = rk.Game(name, **options)
    greedy = GreedyAgent()
    out = []
    for s in range(seed, seed + hands):
        state = game.new_hand(seed=s)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply_action(greedy(state))
    return out


@pytest.mark.parametrize(("name", "options"), TRACKED)
def test_tracked_samples_look_the_same_to_the_player(name: str, options: dict[str, object]) -> None:
    rng = np.random.default_rng(5)
    checked = 0
    for state in _states(name, options, 6)[3::3]:
        me = state.current_player
        assert tracking.can_track(state)
        events = tracking.public_events(state, me, rng)
        particles = tracking.track(state, events, 64, 1.0, 0.05, rng)
        seen = state.observation(me)
        for sample in tracking.sample_states(state, events, particles, 3, rng):
            assert sample.observation(me) == seen
            checked += 1
        known = sum(1 << int(c) for c in seen.known_cards[1 - me])
        for hand in tracking.sample_hands(particles, 4, rng):
            assert hand.bit_count() == len(state.hand(1 - me)) and hand & known == known
            assert not hand & sum(1 << int(c) for c in (*seen.hand, *seen.discard_pile))
    assert checked > 20


def test_untracked_games() -> None:
    for game, options in (("oklahoma-rummy", {"num_players": 3}), ("gin", {"stock_end_rule": "reshuffle"})):
        assert not tracking.can_track(rk.Game(game, **options).new_hand(seed=1))


@pytest.mark.parametrize(("name", "options"), TRACKED[:3])
def test_playout_specs_match_the_engine(name: str, options: dict[str, object]) -> None:
    """A spec built from the observation, both hands and the stock in the engine's order plays
    exactly the hands ``rk.playouts(resample="stock")`` plays from the full state."""
    from rummykit import _core
    from rummykit._rules import core_rules

    compared = 0
    for state in _states(name, options, 8, seed=20)[1::2]:
        if state.is_terminal():
            continue
        me = state.current_player
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                continue
            held = sum(1 << int(c) for c in child.hand(me))
            hand = sum(1 << int(c) for c in child.hand(1 - me))
            rules = core_rules(child.rules.aces)
            spec = playout_spec(child.rules, child.observation(me), held, hand, list(child.stock))
            points = np.zeros((12, 2), dtype=np.int32)
            outcomes = np.zeros(12, dtype=np.uint8)
            _core.run_playouts(rules, spec, _core.POLICY_GREEDY, -1, 99, 0, points, outcomes)
            expected, expected_outcomes = rk.playouts(child, 12, resample="stock", seed=99)
            assert (points == expected).all() and (outcomes == expected_outcomes).all()
            compared += 1
    assert compared > 100


def test_playouts_over_many_hands_in_one_call() -> None:
    """``run_playouts_hands`` plays, for each opponent hand, what ``run_playouts`` plays on the
    spec of that hand with the other unseen cards in the stock, seeded ``seed + k``, the
    opponent knocking at its hand's limit when given one; it refuses a hand holding a card that
    is not hidden, a bad limit, and a spec that is not two-player with one group."""
    from rummykit import _core
    from rummykit._rules import core_rules

    rng = np.random.default_rng(8)
    compared = 0
    results: list[np.ndarray] = []  # with no limits and with them, in turn
    for state in _states(*GIN, 6, seed=40)[2::5]:
        me = state.current_player
        held = sum(1 << int(c) for c in state.hand(me))
        draw = state.phase_name == "draw"
        if draw:  # after a stock draw whose card is not looked at: the first hidden card joins the hand
            state = state.clone()
            state.apply_action(DRAW_STOCK)
        seen = state.observation(me)
        used = held | sum(1 << int(c) for c in seen.discard_pile)
        rules, played = core_rules(state.rules.aces), state.rules
        pool = [c for c in range(52) if not used >> c & 1]
        size = len(state.hand(1 - me))
        hands = [sum(1 << int(c) for c in rng.choice(pool, size, replace=False)) for _ in range(5)]
        spec = _core.PlayoutSpec(played, *_spec_args(seen, held, pool, 0, draw))
        points = np.zeros((6, 2), dtype=np.int32)
        outcomes = np.zeros(6, dtype=np.uint8)
        signed = np.zeros((5, 6), dtype=np.int64)
        masks = np.array(hands, dtype=np.uint64)
        args = (_core.POLICY_GREEDY, -1, 77, points, outcomes, signed, me, _core.POLICY_CAREFUL, 0)
        limits = np.array([0, -1, 5, 0, 10], dtype=np.int32)
        for per_hand in (None, limits):
            _core.run_playouts_hands(rules, spec, 1 - me, masks, *args, per_hand)
            results.append(signed.copy())
            for k, hand in enumerate(hands):
                stock = [c for c in pool if not hand >> c & 1]
                one = _core.PlayoutSpec(played, *_spec_args(seen, held, stock, hand, draw))
                expected = np.zeros((6, 2), dtype=np.int32)
                limit = -1 if per_hand is None else int(per_hand[k])
                _core.run_playouts(
                    rules, one, _core.POLICY_GREEDY, limit, 77 + k, 0, expected, outcomes, me, _core.POLICY_CAREFUL, 0
                )
                assert list(signed[k]) == list(expected[:, me] - expected[:, 1 - me])
                compared += 1
        with pytest.raises(ValueError, match="one limit a hand"):
            _core.run_playouts_hands(rules, spec, 1 - me, masks, *args, limits[:4])
        with pytest.raises(ValueError, match=">= -1"):
            _core.run_playouts_hands(rules, spec, 1 - me, masks, *args, limits - 2)
        with pytest.raises(rk.RummykitError, match="hand 1 holds cards outside"):
            bad = masks.copy()
            bad[1] = held  # the player's own cards
            _core.run_playouts_hands(rules, spec, 1 - me, bad, *args)
        with pytest.raises(rk.RummykitError, match="the two seats"):
            _core.run_playouts_hands(rules, spec, me, masks, *args)
        with pytest.raises(ValueError, match="signed"):  # a row per hand
            _core.run_playouts_hands(rules, spec, 1 - me, masks[:4], *args)
    assert compared >= 40
    assert any((a != b).any() for a, b in zip(results[::2], results[1::2]))  # the limits matter
    with pytest.raises(rk.RummykitError, match="one group of hidden"):
        _core.run_playouts_hands(rules, _core.PlayoutSpec(played, _spec_args(seen, held, [])[0]), 1 - me, masks, *args)


def _spec_args(seen: object, held: int, stock: list[int], hand: int = 0, draw: bool = True) -> tuple[object, ...]:
    """A two-player PlayoutSpec's position and hidden stock (the first card to the observer with
    ``draw``), as best.playout_spec builds them."""
    from rummykit.agents.best import _spec_parts

    me = seen.player  # type: ignore[attr-defined]
    hands = (held, hand) if me == 0 else (hand, held)
    dest = [me if draw and i == 0 else -1 for i in range(len(stock))]
    return (hands, *_spec_parts(seen)), (stock, dest, [len(stock)])


def test_a_stock_draw_is_not_peeked_at() -> None:
    """The draw candidate's score does not depend on the stock card the real state would give."""
    state = next(s for s in _states(*GIN, 4) if s.phase_name == "draw" and len(s.history) > 6)
    agent = BestAgent(samples=8, playouts=4, seed=3)
    hands = [sum(1 << int(c) for c in state.hand(1 - state.current_player))] * 8
    scores = agent.spawn(3)._tracked_scores(state, [DRAW_STOCK], hands)
    record = json.loads(state.to_json())
    deck = record["deck"]
    drawn = 21 + sum(a == DRAW_STOCK for a in state.history)  # the deck index of the next stock card
    deck[drawn], deck[-1] = deck[-1], deck[drawn]  # another card on top of the stock
    other = rk.Game(*GIN[:1], **GIN[1]).new_hand(seed=0, dealer=record["dealer"], deck=deck)
    for action in state.history:
        other.apply_action(action)
    assert other.observation(state.current_player) == state.observation(state.current_player)
    assert other.stock[-1] != state.stock[-1]
    assert agent.spawn(3)._tracked_scores(other, [DRAW_STOCK], hands) == scores


def test_candidates_keep_the_least_deadwood_discards_and_one_knock() -> None:
    for state in _states(*GIN, 6):
        if state.is_terminal() or state.phase_name != "discard":
            continue
        legal = state.legal_actions()
        chosen = _candidates(state, legal, 3)
        assert set(chosen) <= set(legal) and len([a for a in chosen if a < KNOCK]) == min(
            3, sum(a < KNOCK for a in legal)
        )
        assert len([a for a in chosen if KNOCK <= a < DRAW_STOCK]) == min(
            1, sum(KNOCK <= a < DRAW_STOCK for a in legal)
        )
        greedy = GreedyAgent()(state)
        assert greedy in chosen


def test_best_is_seeded_and_plays_every_game() -> None:
    state = _states(*GIN, 3)[9]
    assert (
        BestAgent(seed=4)(state) == BestAgent(seed=4)(state)
        and make_agent("best", seed=4)(state) in state.legal_actions()
    )
    for game, options, n in (
        ("oklahoma-gin", {}, 2),
        ("oklahoma-rummy", {"num_players": 3}, 3),
        ("rummy", {}, 2),
        ("kaluki", {}, 2),
    ):
        result = rk.tournament(["best:samples=4,playouts=2", *["greedy"] * (n - 1)], game, hands=n, seed=1, **options)
        assert result.hands == n


@pytest.mark.parametrize(
    "bad",
    [
        "best:samples=0",
        "best:epsilon=0",
        "best:beta=-1",
        "best:width=0",
        "best:nope=1",
        "best:table_samples=-1",
        "best:table_pool=0",
        "best:table_lambda=-1",
        "best:table_bonus=-1",
        "best:table_width=0",
        "best:table_z=-1",
        "best:table_hold=2",
        "best:determinizations=0",
        "best:knock_rate=0",
        "best:knock_rate=1",
        "best:patient=1.5",
        "best:patient=-0.1",
        "best:meld_taker=1.5",
        "best:meld_taker=nan",
        "best:story_playouts=2",
    ],
)
def test_bad_settings(bad: str) -> None:
    with pytest.raises(rk.InvalidOptionError):
        make_agent(bad)


def test_time_per_move_stops_the_search() -> None:
    import time

    state = next(s for s in _states(*GIN, 3) if s.phase_name == "discard" and len(s.history) > 8)
    counted: list[int] = []

    class Counting(BestAgent):
        def _tracked_scores(self, *args: object, **kwargs: object) -> list[float]:
            scores = super()._tracked_scores(*args, **kwargs)  # type: ignore[arg-type]
            counted.append(1)
            return scores

    start = time.perf_counter()
    assert Counting(samples=1024, time_per_move=0.05, seed=1)(state) in state.legal_actions()
    assert time.perf_counter() - start < 5  # generous: a loaded machine; one sample always runs
    assert counted == [1]
    with pytest.raises(rk.InvalidOptionError, match="time_per_move"):
        BestAgent(time_per_move=0)


@pytest.mark.parametrize("name", ["rummy", "kaluki"])
def test_table_search_samples_look_the_same_and_follow_the_discards(name: str) -> None:
    """The table search's determinizations are ones the player cannot tell from the state, and
    the weighting by the opponent's discards moves them away from hands that hold cards next to
    what it threw."""
    from rummykit.agents.best import _table_samples

    game, greedy = rk.Game(name), GreedyAgent()
    state = game.new_hand(seed=4)
    while len([a for a in state.history if a <= 51]) < 8:
        state.apply_action(greedy(state))
    me = state.current_player
    seen = state.observation(me)
    rng = np.random.default_rng(2)
    weighted = _table_samples(state, me, 40, 4, 2.0, rng)
    uniform = _table_samples(state, me, 40, 1, 0.0, rng)
    assert len(weighted) == len(uniform) == 40
    for sample in weighted + uniform:
        assert sample.observation(me) == seen

    thrown = [int(a) for a, who in _actors(state) if a <= 51 and who != me]

    def conflicts(sample: object) -> int:
        held = [int(c) for c in sample.hand(1 - me) if int(c) <= 51]  # type: ignore[attr-defined]
        return sum(x % 13 == c % 13 or (x // 13 == c // 13 and abs(x - c) <= 2) for c in thrown for x in held)

    assert np.mean([conflicts(s) for s in weighted]) < np.mean([conflicts(s) for s in uniform])


def _forward_choices(state: rk.TableState) -> list[tuple[int, int, int | None, bool]]:
    """(seat, action, the top discard then, whether taking it was legal) for every action of
    the hand, walked forwards from the deal (the agent's evidence walks backwards)."""
    replay = state.clone()
    actions = [int(a) for a in replay.history]
    while replay.history:
        replay.undo()
    out = []
    for action in actions:
        top = replay.top_discard
        out.append((replay.current_player, action, None if top is None else int(top), 54 in replay.legal_actions()))
        replay.apply_action(action)
    return out


def _meld_partner_pairs(t: int, name: str) -> list[set[int]]:
    """Every pair of natural types that makes a valid three-card meld with ``t``: checked
    by the meld parser itself, one candidate meld at a time."""
    from rummykit.cards import Card
    from rummykit.table.melds import parse_meld

    geo = rk.Game(name).new_hand(seed=0).geo
    pairs = []
    for x in range(52):
        for y in range(x + 1, 52):
            if t in (x, y):
                continue
            try:
                parse_meld(geo, " ".join(str(Card(c)) for c in (t, x, y)), 0)
            except rk.RummykitError:
                continue
            pairs.append({x, y})
    return pairs


@pytest.mark.parametrize("name", ["rummy", "kaluki"])
def test_table_evidence_and_conflicts_against_an_oracle(name: str) -> None:
    """The table search's opponent model reads each other seat's discards, passes (a stock
    draw when the top discard could be taken) and takes from the hand's history; a sample
    hand's conflicts are counted as the rules say (a passed card's partners checked by the
    meld parser)."""
    from rummykit.agents.best import _conflicts, _table_evidence

    game, greedy = rk.Game(name), GreedyAgent()
    state = game.new_hand(seed=7)
    while len([a for a in state.history if a <= 51]) < 12 or not [
        1 for seat, a, _, can in _forward_choices(state) if seat != state.current_player and a == 53 and can
    ]:  # Kaluki: a seat can pass (or take) once it has opened
        assert not state.is_terminal()
        state.apply_action(greedy(state))
    me = state.current_player
    choices = [c for c in _forward_choices(state) if c[0] != me]
    thrown = [a for _, a, _, _ in choices if a <= 51]
    passed = [top for _, a, top, can in choices if a == 53 and can and top is not None and top <= 51]
    partners = {t: _meld_partner_pairs(t, name) for t in set(passed)}
    taken = [top for _, a, top, _ in choices if a == 54 and top is not None and top <= 51]
    near, pairs, takes = _table_evidence(state, me)[1 - me]
    assert (len(near), len(pairs), sorted(takes)) == (len(thrown), len(passed), sorted(taken))

    def oracle(held: set[int]) -> int:
        def next_to(x: int, c: int) -> bool:
            if x == c:
                return False
            gap = abs(x % 13 - c % 13)
            return x % 13 == c % 13 or (x // 13 == c // 13 and (gap <= 2 or gap == 12))

        count = sum(next_to(x, c) for c in thrown for x in held)
        count += sum(any(pair <= held for pair in partners[t]) for t in passed)
        count += sum(t in held and not any(next_to(x, t) for x in held) for t in taken)
        return count

    rng = np.random.default_rng(3)
    for _ in range(60):
        held = {int(c) for c in rng.choice(52, size=int(rng.integers(3, 14)), replace=False)}
        mask = sum(1 << c for c in held)
        assert _conflicts(mask, near, pairs, takes) == oracle(held), sorted(held)


@pytest.mark.parametrize("name", ["rummy", "kaluki"])
def test_table_discards_start_with_greedys(name: str) -> None:
    """The table search's discard candidates are in greedy's order: the first is the card the C
    greedy policy throws, and a wider list only adds cards after it."""
    from rummykit.agents.best import _table_discards

    game, greedy = rk.Game(name), GreedyAgent()
    checked = 0
    for seed in range(4):
        state = game.new_hand(seed=seed)
        while not state.is_terminal():
            move = greedy(state)
            if move <= 52:
                discards = [int(a) for a in state.legal_actions() if a <= 52]
                first = _table_discards(state, discards, 1)
                wide = _table_discards(state, discards, 64)
                assert first == [move] == wide[:1]
                assert sorted(wide) == sorted(set(discards))
                checked += 1
            state.apply_action(move)
    assert checked > 20


def _actors(state: object) -> list[tuple[int, int]]:
    """(action, the seat that played it) for every action of the hand."""
    replay = state.clone()  # type: ignore[attr-defined]
    out = []
    while replay.history:
        action = int(replay.history[-1])
        replay.undo()
        out.append((action, replay.current_player))
    return out[::-1]


@pytest.mark.parametrize("name", ["rummy", "kaluki"])
def test_table_search_is_seeded_and_searches_draws_and_discards(name: str) -> None:
    """Same seed, same moves; the search's moves are legal and sometimes differ from greedy's
    (it searches the draw and the discard, and whether to play greedy's meld or lay-off or to
    discard at once; without ``table_hold`` melds and lay-offs are greedy's; releases always are)."""
    game, greedy = rk.Game(name), GreedyAgent()
    action = game.family_record.action
    differs = 0
    for seed in range(3):
        for hold in (0, 1):
            state = game.new_hand(seed=seed)
            for _ in range(40):
                if state.is_terminal():
                    break
                move = BestAgent(table_samples=16, playouts=4, table_hold=hold, seed=seed)(state)
                assert move == BestAgent(table_samples=16, playouts=4, table_hold=hold, seed=seed)(state)
                assert move in state.legal_actions()
                g = greedy(state)
                if g > 54 and (not hold or action(g).kind == "release"):
                    assert move == g
                elif g > 54:  # greedy's meld or lay-off, or a discard in its place
                    assert move == g or move <= 52
                differs += move != g
                state.apply_action(move)
    assert differs > 0


def test_anchored_keeps_the_anchor_unless_clearly_beaten() -> None:
    """The table search leaves greedy's move only for a candidate ahead by more than ``z``
    standard errors of the paired differences over the samples."""
    from rummykit.agents.best import _anchored

    rng = np.random.default_rng(3)
    base = rng.normal(0, 1, size=40)
    noise = rng.normal(0, 1, size=(3, 40))
    clear = np.array([base, base + 1 + 0.1 * noise[0], base + 0.05 * noise[1]])
    assert _anchored(clear, 0, 1.0) == 1
    assert _anchored(clear, 1, 1.0) == 1
    wobble = noise[0] - noise[0].mean() + 0.05  # ahead by 0.05, with an error near 0.16
    slight = np.array([base, base + wobble, base - 0.5])
    assert _anchored(slight, 0, 1.0) == 0
    assert _anchored(slight, 0, 0.0) == 1  # z = 0: the plain best mean
    assert _anchored(np.array([[0.0], [0.1], [-1.0]]), 0, 1.0) == 1  # one sample: no error to judge by


def test_knock_z_anchors_the_knock_search_to_its_rollout_policy() -> None:
    """With a huge ``knock_z`` the two-player search plays its own seat's playout policy
    (greedy knocking at ``playout_knock`` or less); with 0 it leaves it somewhere."""
    states = [s for s in _states(*GIN, 3, seed=40) if len(s.legal_actions()) > 1]
    differs = 0
    for knock, hunter in ((0, GreedyAgent(max_knock_deadwood=0)), (-1, GreedyAgent())):
        anchored = BestAgent(4, playouts=3, knock_z=1e9, playout_knock=knock, seed=1)
        free = BestAgent(4, playouts=3, knock_z=0, playout_knock=knock, seed=1)
        for state in states:
            assert anchored(state) == hunter(state)
            differs += free(state) != hunter(state)
    assert len(states) > 50 and differs
    with pytest.raises(rk.InvalidOptionError, match="knock_z"):
        make_agent("best:knock_z=-1")


def test_time_per_move_stops_the_table_search() -> None:
    import time

    state = rk.Game("rummy").new_hand(seed=1)
    greedy = GreedyAgent()
    while state.phase_name != "play" or greedy(state) > 52 or len(state.history) < 6:
        state.apply_action(greedy(state))
    start = time.perf_counter()
    assert BestAgent(table_samples=1024, time_per_move=0.05, seed=1)(state) in state.legal_actions()
    assert time.perf_counter() - start < 5  # generous: a loaded machine


def test_a_style_mixture_weighs_the_styles_by_the_opponents_knocking() -> None:
    """With one knock rate per story, a story's weight also weighs its style: an opponent that
    held a knockable hand and did not knock leaves the patient stories ahead."""
    patient = make_agent("patient:knock_turns=0")
    greedy = GreedyAgent()
    for seed in range(40):
        state = rk.Game("gin").new_hand(seed=seed, dealer=0)
        me = state.current_player
        waited = False
        while not state.is_terminal() and not waited:
            if state.current_player == me:
                state.apply_action(greedy(state))
            else:
                could = any(KNOCK <= a < DRAW_STOCK for a in state.legal_actions())
                action = patient(state)
                state.apply_action(action)
                waited = could and action < KNOCK  # could have knocked, discarded instead
        if state.is_terminal() or state.current_player != me or not waited:
            continue
        rng = np.random.default_rng(seed)
        events = tracking.public_events(state, me, rng)
        rates = np.where(np.arange(512) % 2 == 0, 0.1, 0.975)
        particles = tracking.track(state, events, 512, 1.0, 0.05, rng, knock_rate=rates)
        w = particles.weights()
        assert w[particles.rate == 0.1].sum() > 0.6  # half before the evidence
        hands, drawn, takers = tracking.sample_stories(particles, 64, rng)
        assert len(hands) == len(drawn) == len(takers) == 64 and (drawn == 0.1).mean() > 0.5
        assert not takers.any()  # no take style given: greedy's
        return
    raise AssertionError("no deal where the patient player waited with a knockable hand")


def _spying(name: str, seen: list[object]) -> type[BestAgent]:
    """A BestAgent that records the keyword ``name`` of each ``_tracked_scores`` call in ``seen``."""

    class Spying(BestAgent):
        def _tracked_scores(self, *args: object, **kwargs: object) -> list[float]:
            seen.append(kwargs[name])
            return super()._tracked_scores(*args, **kwargs)  # type: ignore[arg-type]

    return Spying


@pytest.mark.parametrize(("patient", "limit"), [(1.0, 0), (0.0, -1)])
def test_story_playouts_let_each_story_knock_in_its_style(patient: float, limit: int) -> None:
    """With ``story_playouts=1``, once the opponent has kept a knockable hand in this game, the
    opponent of a patient story knocks only for gin in the playouts and an eager one as soon as
    it may; before that, or without the setting, no limits are passed."""
    state = next(s for s in _states(*GIN, 3) if s.phase_name == "discard" and len(s.history) > 8)
    seen: list[object] = []
    for stories, passes in ((1, 1), (1, 0), (0, 1)):
        agent = _spying("limits", seen)(samples=8, playouts=2, patient=patient, story_playouts=stories, seed=1)
        agent._passes = passes  # what new_hand counts from the showdowns
        agent(state)
    limits, *off = seen
    assert off == [None, None] and list(limits) == [limit] * 8  # type: ignore[call-overload]


def _taker_share(opponent: str) -> list[float]:
    """The weight of the meld-taking stories (half of them at the start) at seat 0's draws of a
    few hands against ``opponent``."""
    game, me, weights = rk.Game("gin_eaai"), GreedyAgent(max_knock_deadwood=0), []
    rng = np.random.default_rng(6)
    for s in range(6):
        them = make_agent(opponent, seed=s)
        state = game.new_hand(seed=s)
        while not state.is_terminal():
            if state.current_player == 0 and state.phase_name == "draw" and len(state.history) > 10:
                events = tracking.public_events(state, 0, rng)
                takers = (np.arange(1024) % 2).astype(np.uint8)
                particles = tracking.track(state, events, 1024, 1.0, 0.05, rng, taker=takers)
                weights.append(float(particles.weights()[particles.taker == 1].sum()))
            state.apply_action(me(state) if state.current_player == 0 else them(state))
    return weights


def test_the_stories_learn_the_opponents_take_style() -> None:
    """Against eaai-simple, whose rule it is, the meld-taking stories end with most of the
    weight; against greedy (which also takes a card that only lowers its deadwood) with much
    less: only such a take tells the styles apart, a pass fits both."""
    simple, greedy = _taker_share("eaai-simple"), _taker_share("greedy")
    assert len(simple) > 20 and len(greedy) > 20
    assert np.mean(simple) > 0.8 and np.mean(greedy) < np.mean(simple) - 0.25


@pytest.mark.parametrize("meld_taker", [0.5, 0.0])
def test_each_sampled_hand_plays_its_storys_take_style(meld_taker: float) -> None:
    """The playouts of a hand drawn from a meld-taking story take only into melds (``takes``,
    one flag a hand, from the stories); ``meld_taker=0`` draws no such story and passes none."""
    state = next(s for s in _states(*GIN, 3) if s.phase_name == "discard" and len(s.history) > 8)
    seen: list[object] = []
    _spying("takes", seen)(samples=16, playouts=2, meld_taker=meld_taker, seed=1)(state)
    (takes,) = seen
    if meld_taker:
        assert takes.dtype == np.uint8 and len(takes) == 16 and set(takes.tolist()) <= {0, 1}  # type: ignore[union-attr]
    else:
        assert takes is None


def test_the_take_style_carries_over_the_hands_of_a_game() -> None:
    """A game's first hand starts from ``meld_taker``; each later one from the share the stories
    gave the meld takers at the last decision (within ``TAKER_BOUNDS``); a new game starts
    afresh, and 0 stays off."""
    from rummykit.agents.base import MatchInfo
    from rummykit.agents.best import TAKER_BOUNDS

    state = next(s for s in _states("gin_eaai", {}, 3) if s.phase_name == "draw" and len(s.history) > 8)
    agent = BestAgent(samples=8, playouts=2, seed=1)
    agent.new_hand(MatchInfo(0, (0, 0), 100, 0, 0))
    assert agent._takers == 0.5
    agent(state)
    seen = agent._taken
    assert 0 <= seen <= 1 and seen != 0.5
    agent.new_hand(MatchInfo(0, (10, 0), 100, 1, 1))
    assert agent._takers == min(max(seen, TAKER_BOUNDS[0]), TAKER_BOUNDS[1])
    agent._taken = 1.0
    agent.new_hand(MatchInfo(0, (10, 20), 100, 0, 2))
    assert agent._takers == TAKER_BOUNDS[1]
    agent.new_hand(MatchInfo(0, (0, 0), 100, 0, 0))
    assert agent._takers == 0.5
    off = BestAgent(samples=8, playouts=2, meld_taker=0, seed=1)
    off(state)
    off.new_hand(MatchInfo(0, (10, 0), 100, 1, 1))
    assert off._takers == 0
