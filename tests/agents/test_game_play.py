"""best plays the game: the win-probability tables against a recursive oracle, the match
context hook, the opponent's learned knock rate; the levels."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

import rummykit as rk
from rummykit.agents import BestAgent, GreedyAgent, MatchInfo, make_agent
from rummykit.agents.base import agent_settings
from rummykit.agents.gamevalue import _solve, end_of, hand_value, win_table
from rummykit.agents.styles import GAME_LEVELS, LEVELS, LevelAgent
from tests.reference.deadwood import deadwood_of


def _oracle(counts: dict[int, int], end: int, a: int, b: int) -> float:
    """W(a, b) by plain recursion over the hands (each won by either side with probability 1/2)."""
    total = sum(counts.values())

    @cache
    def w(a: int, b: int) -> float:
        if a >= end:
            return 1.0
        if b >= end:
            return 0.0
        return sum(n / total * (w(a + x, b) + w(a, b + x)) / 2 for x, n in counts.items())

    return w(a, b)


@pytest.mark.parametrize(("counts", "end"), [({1: 3, 3: 1}, 7), ({2: 1, 5: 2, 11: 1}, 12), ({1: 1}, 5)])
def test_solved_table_matches_the_recursion(counts: dict[int, int], end: int) -> None:
    ext = _solve(tuple(sorted(counts.items())), end)
    for a in range(end):
        for b in range(end):
            assert abs(ext[a, b] - _oracle(counts, end, a, b)) < 1e-12


def test_win_tables_per_rules() -> None:
    for name, options in [("gin_eaai", {}), ("oklahoma_gin", {}), ("kaluki", {"num_players": 2})]:
        game = rk.Game(name, **options)
        table = win_table(game)
        assert table is not None and table.shape == (end_of(game),) * 2
        assert np.allclose(table + table.T, 1) and abs(table[0, 0] - 0.5) < 1e-9
        assert (np.diff(table, axis=0) >= -1e-12).all() and (np.diff(table, axis=1) <= 1e-12).all()
    assert win_table(rk.Game("gin_eaai", target_score=50)).shape == (50, 50)  # solved for any target
    assert win_table(rk.Game("oklahoma-rummy")) is None and win_table(rk.Game("gin_matchplay")) is None


def test_hand_value_near_the_end() -> None:
    game = rk.Game("gin_eaai")
    table = win_table(game)
    assert table is not None
    values = hand_value(game, 95, 0)
    assert values is not None
    off = (len(values) - 1) // 2
    assert values[off] == 0 and abs(values[off + 5] - (1 - table[95, 0])) < 1e-12
    assert abs(values[off - 100] + table[95, 0]) < 1e-12  # losing the game from there


def _result(state_game: str, seed: int, agents: list[object]) -> object:
    state = rk.Game(state_game).new_hand(seed=seed, dealer=0)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player](state))  # type: ignore[operator]
    return state.result


def test_best_learns_how_readily_the_opponent_knocks() -> None:
    agent = BestAgent(learn=1, seed=1)
    assert agent._knock_rate() is None
    greedy, patient = make_agent("greedy"), make_agent("patient:knock_turns=0")
    knocks = passes = 0
    game = rk.Game("gin_eaai")
    for seed in range(30):
        result = _result("gin_eaai", seed, [greedy, patient])
        info = MatchInfo(seat=0, scores=(0, 0), target=100, dealer=0, hand=seed, last=result, game=game)
        agent.new_hand(info)
        if result.knocker == 1:  # type: ignore[attr-defined]
            knocks += result.outcome not in ("gin", "big_gin")  # type: ignore[attr-defined]
        elif result.knocker == 0 and result.outcome != "big_gin":  # type: ignore[attr-defined]
            laid = deadwood_of(int(c) for lay in result.layoffs[1] for c in lay.cards)  # type: ignore[attr-defined]
            passes += result.deadwood[1] + laid <= 10  # type: ignore[attr-defined]
    assert (agent._knocks, agent._passes) == (knocks, passes) and passes > 0
    rate = agent._knock_rate()
    assert rate is not None and rate == (knocks + 2.7) / (knocks + passes + 3)
    assert BestAgent(learn=0)._knock_rate() is None


def test_a_kept_hand_counts_only_if_the_rules_let_it_knock() -> None:
    """A showdown counts as the opponent keeping a knockable hand only if its deadwood before
    lay-offs was within what a knock may leave that hand: not 1 under an Oklahoma ace upcard
    (gin only), not 10 under ``knock_compare="lt"``."""
    from rummykit.knock.showdown import HandResult

    def kept(game: str, deadwood: int, limit: int) -> int:
        agent = BestAgent(seed=1)
        no = (0, 0)
        last = HandResult("knock", 0, 0, (5, deadwood), no, no, no, no, 1, limit, layoffs=((), ()))
        agent.new_hand(MatchInfo(seat=0, scores=(0, 0), target=100, dealer=0, hand=1, last=last, game=rk.Game(game)))
        return agent._passes

    assert kept("oklahoma-gin", 1, 1) == 0 and kept("oklahoma-gin", 2, 2) == 1 and kept("oklahoma-gin", 3, 2) == 0
    assert kept("gin", 10, 10) == 1 and kept("gin", 11, 10) == 0
    assert kept("gin_matchplay", 10, 10) == 0 and kept("gin_matchplay", 9, 10) == 1  # knock_compare "lt"


def test_best_counters_an_eager_knocker() -> None:
    """``best`` waits for gin or the undercut (:data:`COUNTER`) while the opponent looks like an
    eager knocker in this game: ``counter=1`` once it has knocked short of gin, ``counter=2``
    from the start, each until it is seen to keep a knockable hand; a new game starts afresh;
    ``counter=0`` never."""
    from rummykit.agents.best import COUNTER

    game = rk.Game("gin_eaai")
    greedy, hunter = make_agent("greedy"), make_agent("greedy:max_knock_deadwood=0")
    eager = [_result("gin_eaai", seed, [greedy, greedy]) for seed in range(40)]
    hunting = [_result("gin_eaai", seed, [greedy, hunter]) for seed in range(80)]
    knock = next(r for r in eager if r.knocker == 1 and r.outcome == "knock")  # type: ignore[attr-defined]
    gin = next(r for r in hunting if r.knocker == 1 and r.outcome == "gin")  # type: ignore[attr-defined]
    kept = next(  # the agent (seat 0) knocks; the gin hunter held a knockable hand
        r
        for r in hunting
        if r.knocker == 0  # type: ignore[attr-defined]
        and r.outcome != "big_gin"  # type: ignore[attr-defined]
        and r.deadwood[1] + sum(deadwood_of(int(c) for c in lay.cards) for lay in r.layoffs[1]) <= 10  # type: ignore[attr-defined]
    )

    def tell(who: BestAgent, hand: int, last: object) -> tuple[int, float]:
        who.new_hand(MatchInfo(seat=0, scores=(0, 0), target=100, dealer=0, hand=hand, last=last, game=game))
        return who._knock_style()

    one, two, off = BestAgent(seed=1), BestAgent(counter=2, seed=1), BestAgent(counter=0, seed=1)
    plain = (one.playout_knock, one.knock_z)
    assert plain != COUNTER
    assert tell(one, 0, None) == tell(one, 1, gin) == plain  # every style knocks for gin
    assert tell(one, 2, knock) == COUNTER
    assert tell(one, 3, kept) == tell(one, 4, knock) == plain  # it keeps knockable hands
    assert tell(one, 0, None) == plain and tell(one, 1, knock) == COUNTER  # a new game
    assert tell(two, 0, None) == tell(two, 1, gin) == COUNTER
    assert tell(two, 2, kept) == tell(two, 3, knock) == plain
    assert tell(two, 0, None) == COUNTER
    assert tell(off, 0, None) == tell(off, 1, knock) == plain
    with pytest.raises(rk.InvalidOptionError, match="counter"):
        make_agent("best:counter=3")


def test_best_plays_by_the_score() -> None:
    state = rk.Game("gin_eaai").new_hand(seed=5, dealer=0)
    agent = BestAgent(samples=4, playouts=4, seed=1)
    me = state.current_player
    scores = (95, 0) if me == 0 else (0, 95)  # the agent 5 points from the game
    agent.new_hand(MatchInfo(seat=me, scores=scores, target=100, dealer=0, hand=0))
    assert agent(state) in state.legal_actions()
    values = agent._values
    assert values is not None
    off = (len(values) - 1) // 2
    assert 0 < values[off + 5] < 0.05 and values[off - 100] < -0.9  # a win ends the game; a big loss loses it
    old = BestAgent(samples=4, playouts=4, game_value=0, learn=0, seed=1)
    assert old(state) in state.legal_actions() and old._values is None
    with pytest.raises(rk.InvalidOptionError, match="game_value"):
        make_agent("best:game_value=2")


@pytest.mark.parametrize("game", ["gin_eaai", "oklahoma-gin", "rummy", "kaluki"])
def test_every_level_plays_every_game(game: str) -> None:
    state = rk.Game(game).new_hand(seed=2)
    for level in LEVELS:
        assert make_agent(f"level:{level}", 1)(state) in state.legal_actions()
    with pytest.raises(rk.InvalidOptionError, match="unknown agent"):
        make_agent("level:6")


def test_level_settings_after_a_second_colon() -> None:
    agent = make_agent("level:5:time_per_move=0.02", 1)
    assert isinstance(agent, LevelAgent) and agent.time_per_move == 0.02
    best = agent.agent("gin")
    assert isinstance(best, BestAgent) and best.time_per_move == 0.02
    assert make_agent("level:4", 1).agent("gin").samples == 12  # type: ignore[attr-defined]
    # level 4 is greedy in Rummy and Kaluki: it answers at once there and searches, bounded, in Gin
    bounded = make_agent("level:4:time_per_move=0.02", 1)
    assert isinstance(bounded.agent("rummy"), GreedyAgent) and isinstance(bounded.agent("kaluki"), GreedyAgent)
    assert bounded.agent("gin").time_per_move == 0.02  # type: ignore[attr-defined]
    with pytest.raises(rk.InvalidOptionError, match="level 1 answers at once"):
        make_agent("level:1:time_per_move=1")
    with pytest.raises(rk.InvalidOptionError, match="has no setting 'mistakes'"):
        make_agent("level:1:mistakes=0.5")
    with pytest.raises(rk.InvalidOptionError, match="'level' is given twice"):
        make_agent("level:1:level=5")
    with pytest.raises(rk.InvalidOptionError, match="level must be an int 1..5"):
        LevelAgent(0)
    assert agent_settings("level:5") == agent_settings("level:4") == {"time_per_move": None}
    assert agent_settings("level:1") == agent_settings("level:3") == {}


def test_levels_are_tuned_per_game() -> None:
    """A game of GAME_LEVELS plays its own spec at those levels, the others the default; the
    agent of each game is made once and told the match before the hand's first move."""
    level = LevelAgent(1, seed=3)
    assert level.spec("kaluki") == GAME_LEVELS["kaluki"][1] != LEVELS[1] == level.spec("oklahoma_gin")
    for game in ("gin_eaai", "rummy", "kaluki"):
        state = rk.Game(game).new_hand(seed=2)
        assert level(state) in state.legal_actions()
        assert level.agent(state.game.name).mistakes == float(level.spec(state.game.name).split("=")[1])
    assert level.agent("kaluki") is level.agent("kaluki")
    assert LevelAgent(4).spec("rummy") == GAME_LEVELS["rummy"][4] != LEVELS[4] == LevelAgent(4).spec("oklahoma_gin")
    assert LevelAgent(4).spec("kalooki_51") == LEVELS[4] != LevelAgent(4).spec("kaluki") == "greedy"
    told: list[MatchInfo] = []

    class Listener:
        def new_hand(self, info: MatchInfo) -> None:
            told.append(info)

        def __call__(self, state: object) -> int:
            return int(state.legal_actions()[0])  # type: ignore[attr-defined]

    top = LevelAgent(5)
    top._agents["gin"] = Listener()
    info = MatchInfo(seat=0, scores=(0, 0), target=100, dealer=1, hand=1)
    top.new_hand(info)
    state = rk.Game("gin").new_hand(seed=2)
    top(state)
    top(state)
    assert told == [info]
    # the same seed plays the same moves; a spawned agent is a new one of the same level
    for game in ("gin_eaai", "kaluki"):
        state = rk.Game(game).new_hand(seed=2)
        assert [LevelAgent(1, seed=3)(state) for _ in range(2)] == [LevelAgent(1, seed=3)(state)] * 2
    assert level.spawn(4).level == 1 and level.spawn(4).agent("gin") is not level.agent("gin")


def test_the_terminal_game_passes_the_match_on_to_the_agent() -> None:
    from rummykit.play import _Watched

    told: list[MatchInfo] = []

    class Agent:
        def __call__(self, state: object) -> int:
            return 0

        def new_hand(self, info: MatchInfo) -> None:
            told.append(info)

    info = MatchInfo(seat=1, scores=(10, 40), target=100, dealer=0, hand=3)
    _Watched(Agent(), 1, None).new_hand(info)
    assert told == [info]
    _Watched(make_agent("greedy"), 1, None).new_hand(info)  # an agent without the hook: nothing to do
