"""The external baselines (openspiel-simple, rlcard-novice): their rules, the OpenSpiel mirror
of a hand, RLCard's inputs, seeding, and the errors without their extras."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import rummykit as rk
from rummykit.agents import GreedyAgent, external, make_agent
from rummykit.agents.external import OPENSPIEL_GIN, RLCARD_GIN, game_for, required_game
from rummykit.knock.actions import KNOCK


def _hands(name_options: tuple[str, dict[str, object]], agents: list[object], seeds: range) -> list[rk.KnockState]:
    """Whole hands of the given rules, seat s played by agents[s], every state kept."""
    name, options = name_options
    game = rk.Game(name, **options)
    seen = []
    for seed in seeds:
        state = game.new_hand(seed=seed)
        while not state.is_terminal():
            seen.append(state.clone())
            state.apply_action(agents[state.current_player](state))  # type: ignore[operator]
        seen.append(state)
    return seen


# --- rules and errors (no extra needed) ---------------------------------------------------------


def test_missing_extras_raise_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def absent(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(external.importlib, "import_module", absent)
    external._os_game.cache_clear()
    try:
        with pytest.raises(rk.InvalidOptionError, match=r"pip install 'rummykit\[openspiel\]'"):
            make_agent("openspiel-simple")
        with pytest.raises(rk.InvalidOptionError, match=r"pip install 'rummykit\[rlcard\]'"):
            make_agent("rlcard-novice")
    finally:
        external._os_game.cache_clear()


class _Fixed:
    def __init__(self, need: tuple[str, dict[str, object]], label: str) -> None:
        self.required_game, self.label = need, label


def test_the_game_of_a_tournament_gets_the_agents_rules() -> None:
    os_agent, rl_agent = _Fixed(OPENSPIEL_GIN, "openspiel-simple"), _Fixed(RLCARD_GIN, "rlcard-novice")
    greedy = GreedyAgent()
    assert required_game([greedy, greedy]) is None
    assert game_for([greedy], "oklahoma-gin", {}).name == "oklahoma_gin"
    game = game_for([greedy, os_agent], "gin", {})
    assert game.rules == rk.Game("gin", **OPENSPIEL_GIN[1]).rules
    fixed = game_for([rl_agent, greedy], "gin", {"stock_end_rule": "dead_at_2_last_chance"})
    assert fixed.rules.first_turn_procedure == "normal"
    with pytest.raises(rk.InvalidOptionError, match="openspiel-simple plays with"):
        game_for([os_agent, greedy], "gin", {"stock_end_rule": "dead_at_2"})
    with pytest.raises(rk.InvalidOptionError, match="rules it was written for"):
        game_for([os_agent, greedy], "oklahoma-gin", {})
    with pytest.raises(rk.InvalidOptionError, match="rules it was written for"):
        game_for([os_agent, greedy], "gin", {"big_gin_bonus": 31})
    with pytest.raises(rk.InvalidOptionError, match="rules it was written for"):
        game_for([os_agent, greedy], rk.Game("gin"), {})
    with pytest.raises(rk.InvalidOptionError, match="different rules"):
        required_game([os_agent, rl_agent])


# --- OpenSpiel ------------------------------------------------------------------------------


def test_openspiel_mirror_deals_and_plays_the_same_hand() -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'rummykit[openspiel]'")
    import json

    from rummykit.envs.gin_rummy_ids import openspiel_card

    bot = make_agent("openspiel-simple")
    checked = 0
    for state in _hands(OPENSPIEL_GIN, [bot, GreedyAgent()], range(6)):
        if state.is_terminal():
            continue
        dealer = json.loads(state.to_json())["dealer"]
        mirror = external._os_mirror(json.loads(state.to_json())["deck"], state.history)
        assert (dealer + 1 + mirror.current_player()) % 2 == state.current_player
        for p in range(2):
            tensor = mirror.observation_tensor(p)
            held = {c for c in range(52) if tensor[2 + p * 52 + c] == 1}
            seat = (dealer + 1 + p) % 2
            assert held == {openspiel_card(c) for c in state.hand(seat)}
        checked += 1
    assert checked > 50


def test_openspiel_simple_plays_legal_hands_and_refuses_other_rules() -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'rummykit[openspiel]'")
    result = rk.tournament(["greedy", "openspiel-simple"], "gin", hands=20, seed=3)
    assert result.hands == 20 and sum(s.wins for s in result.agents) == result.hands - result.outcomes.get("dead", 0)
    assert rk.Game("gin", **OPENSPIEL_GIN[1]).rules == rk.Game(result.game, **OPENSPIEL_GIN[1]).rules
    bot = make_agent("openspiel-simple")
    assert bot.spawn(1) is not bot and repr(bot) == "OpenSpielSimpleAgent()"  # type: ignore[attr-defined]
    with pytest.raises(rk.InvalidOptionError, match="rules it was written for"):
        bot(rk.Game("gin").new_hand(seed=1))
    with pytest.raises(rk.InvalidOptionError, match="rules it was written for"):
        rk.tournament(["greedy", "openspiel-simple"], "oklahoma-gin", hands=2)


def test_openspiel_simple_knocks_like_the_bot() -> None:
    """The bot knocks as soon as its deadwood allows: every hand it plays out to a knock is
    knocked at its first chance (the bot's documented policy, seen through the mapping)."""
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'rummykit[openspiel]'")
    bot = make_agent("openspiel-simple")
    for state in _hands(OPENSPIEL_GIN, [bot, GreedyAgent()], range(8)):
        if state.is_terminal() or state.current_player != 0 or state.phase_name != "discard":
            continue
        knocks = [a for a in state.legal_actions() if KNOCK <= a < KNOCK + 52]
        if knocks:
            assert KNOCK <= bot(state) < KNOCK + 52


# --- RLCard ---------------------------------------------------------------------------------


def test_rlcard_novice_inputs_and_seeding() -> None:
    pytest.importorskip("rlcard", reason="the rlcard extra is not installed: pip install 'rummykit[rlcard]'")
    novice = make_agent("rlcard-novice", seed=4)
    greedy = GreedyAgent()
    states = _hands(RLCARD_GIN, [novice, greedy], range(4))
    for state in states:
        if state.is_terminal():
            continue
        seat = state.current_player
        planes = external.RLCardNoviceAgent._observation(state, seat)
        assert planes.sum(axis=0).tolist() == [1] * 52  # every card in exactly one plane
        assert {external._rl_card(int(c)) for c in state.hand(seat)} == set(np.flatnonzero(planes[0]).tolist())
        one, two = make_agent("rlcard-novice", seed=9), make_agent("rlcard-novice", seed=9)
        assert one(state) == two(state) and one(state) in state.legal_actions()
    before = np.random.get_state()[1].copy()  # type: ignore[index]
    make_agent("rlcard-novice", seed=1)(states[0])
    assert (np.random.get_state()[1] == before).all()  # type: ignore[index]  # the global generator is restored


def test_rlcard_novice_gins_and_knocks_when_it_can() -> None:
    pytest.importorskip("rlcard", reason="the rlcard extra is not installed: pip install 'rummykit[rlcard]'")
    from rummykit.analysis import deadwood

    novice = make_agent("rlcard-novice", seed=2)
    for state in _hands(RLCARD_GIN, [novice, GreedyAgent()], range(10)):
        if state.is_terminal() or state.current_player != 0 or state.phase_name != "discard":
            continue
        knocks = [a for a in state.legal_actions() if KNOCK <= a < KNOCK + 52]
        if not knocks:
            continue
        action = novice(state)
        assert KNOCK <= action < KNOCK + 52
        hand = sum(1 << int(c) for c in state.hand(0))
        if any(deadwood(hand & ~(1 << (a - KNOCK))) == 0 for a in knocks):
            assert deadwood(hand & ~(1 << (action - KNOCK))) == 0


def test_rlcard_novice_loses_to_greedy() -> None:
    pytest.importorskip("rlcard", reason="the rlcard extra is not installed: pip install 'rummykit[rlcard]'")
    result = rk.tournament(["greedy", "rlcard-novice"], "gin", hands=40, seed=1)
    assert result.agents[0].wins > result.agents[1].wins


def test_cli_plays_gin_with_an_external_agent() -> None:
    pytest.importorskip("rlcard", reason="the rlcard extra is not installed: pip install 'rummykit[rlcard]'")
    out = subprocess.run(
        [sys.executable, "-m", "rummykit", "tournament", "greedy", "rlcard-novice", "--hands", "4"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "gin: 4 hands" in out.stdout
