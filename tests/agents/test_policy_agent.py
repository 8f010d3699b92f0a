"""Trained policies as agents: PolicyAgent (a batched policy on a batch of one), agent specs
``module:attribute`` in make_agent and the command line, and rummykit.rl.evaluate."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import rummykit as rk
from rummykit.agents import GreedyAgent, PolicyAgent, make_agent
from rummykit.cli import main
from rummykit.errors import IllegalActionError, InvalidOptionError
from rummykit.rl import EvalResult, evaluate
from rummykit.tournaments import tournament, wilson_interval
from rummykit.vector import VectorGame

POLICIES = '''
import numpy as np
from rummykit.agents import GreedyAgent

def last_legal(observation, legal_mask):
    """A batched policy: the last legal action of each row."""
    return legal_mask.shape[1] - 1 - legal_mask[:, ::-1].argmax(axis=1)

greedy = GreedyAgent()

def make(seed=None):
    return GreedyAgent(seed=seed)

def one_arg(state):
    return state.legal_actions()[0]

NOT_AN_AGENT = 3
'''


@pytest.fixture
def policies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module ``rk_test_policies`` on the path, as a user's would be."""
    (tmp_path / "rk_test_policies.py").write_text(POLICIES)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "rk_test_policies", raising=False)
    return "rk_test_policies"


def last_legal(observation: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    return legal_mask.shape[1] - 1 - legal_mask[:, ::-1].argmax(axis=1)


@pytest.mark.parametrize("name", ["gin", "oklahoma-rummy", "rummy", "kaluki"])
def test_policy_agent_plays_what_the_policy_picks_from_the_vector_games_arrays(name: str) -> None:
    """Row 0 of a VectorGame and a scalar state of the same deal: the agent's move is the move
    the policy picks from the row's observation and mask."""
    vg = VectorGame(name, 1, seed=3)
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen.append((obs.copy(), mask.copy()))
        return last_legal(obs, mask)

    agent = PolicyAgent(policy)
    for _ in range(40):
        state = vg.state(0)
        action_id = agent(state)
        obs, mask = seen[-1]
        assert obs.shape == (1, vg.obs_dim) and obs.dtype == np.float32 and mask.dtype == np.bool_
        assert np.array_equal(obs[0], vg.observation[0]) and np.array_equal(mask[0], vg.legal_mask[0])
        chosen = int(last_legal(vg.observation, vg.legal_mask)[0])
        assert action_id == vg.index.decode(state, chosen)
        vg.step(np.array([chosen]))


def test_policy_agent_refuses_illegal_or_malformed_actions() -> None:
    state = rk.Game("gin").new_hand(seed=2)
    illegal = int(np.flatnonzero(~np.isin(np.arange(686), state.legal_actions()))[0])
    with pytest.raises(IllegalActionError, match=f"action {illegal}"):
        PolicyAgent(lambda obs, mask: np.array([illegal]))(state)
    with pytest.raises(IllegalActionError, match="one integer action"):
        PolicyAgent(lambda obs, mask: np.array([0.5]))(state)
    with pytest.raises(InvalidOptionError, match="callable"):
        PolicyAgent(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["gin", "rummy"])
def test_policy_agent_in_a_tournament_is_the_policy(name: str) -> None:
    """The batched policy "last legal action" as an agent plays the hands the agent
    ``state.legal_actions()[-1]`` plays."""

    def last(state: rk.GameState) -> int:
        return state.legal_actions()[-1]

    opts = {"max_turns": 30} if name == "rummy" else {}
    plain = tournament([last, "random"], name, hands=20, seed=5, **opts)
    wrapped = tournament([PolicyAgent(last_legal), "random"], name, hands=20, seed=5, **opts)
    assert wrapped.agents[0].name.startswith("PolicyAgent")
    assert [(a.wins, a.decided, a.mean_points) for a in wrapped.agents] == [
        (a.wins, a.decided, a.mean_points) for a in plain.agents
    ]
    assert wrapped.outcomes == plain.outcomes


def test_module_attribute_specs(policies: str) -> None:
    state = rk.Game("gin").new_hand(seed=1)
    batched = make_agent(f"{policies}:last_legal", seed=1)
    assert isinstance(batched, PolicyAgent) and batched(state) == state.legal_actions()[-1]
    assert isinstance(make_agent(f"{policies}:greedy", seed=2), GreedyAgent)  # an agent: spawned
    assert isinstance(make_agent(f"{policies}:make", seed=2), GreedyAgent)  # a factory
    one = make_agent(f"{policies}:one_arg")
    assert one(state) == state.legal_actions()[0]
    for bad, match in (
        (f"{policies}:missing", "has no"),
        (f"{policies}:NOT_AN_AGENT", "not callable"),
        ("no_such_module_xyz:policy", "cannot import"),
    ):
        with pytest.raises(InvalidOptionError, match=match):
            make_agent(bad)
    with pytest.raises(InvalidOptionError, match="unknown agent"):
        make_agent("nosuchagent")


def test_module_attribute_spec_on_the_command_line(policies: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", f"{policies}:last_legal", "greedy", "--hands", "6", "--seed", "1"]) == 0
    assert "last_legal" in capsys.readouterr().out
    assert main(["league", f"{policies}:make", "random", "--games", "2", "--seed", "2"]) == 0
    capsys.readouterr()
    assert main(["tournament", "no_such_module_xyz:policy", "greedy", "--hands", "2"]) == 2
    assert "cannot import" in capsys.readouterr().err


def test_evaluate_gives_the_win_rate_of_decided_hands_with_its_wilson_interval() -> None:
    result = evaluate(lambda obs, mask: mask.argmax(axis=1), "kaluki", "greedy", hands=12, seed=3)
    assert isinstance(result, EvalResult) and result.hands == 12 and result.decided > 0
    assert result.win_rate == pytest.approx(result.wins / result.decided)
    assert result.ci95 == wilson_interval(result.wins, result.decided)
    again = tournament([PolicyAgent(lambda obs, mask: mask.argmax(axis=1)), "greedy"], "kaluki", hands=12, seed=3)
    assert (again.agents[0].wins, again.agents[0].decided) == (result.wins, result.decided)
    strong = evaluate("greedy", "gin", "random", hands=40, seed=1)
    assert strong.win_rate > 0.8 and strong.ci95[0] < strong.win_rate <= strong.ci95[1]


def test_module_attribute_spec_plays_in_the_terminal_game(policies: str) -> None:
    import io

    from rich.console import Console

    from rummykit.play import play

    answers = iter(["draw", "hint", "quit"])
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    assert play("gin", f"{policies}:last_legal", seed=2, console=console, read=lambda _: next(answers, "quit")) == 0
    with pytest.raises(InvalidOptionError, match="cannot import"):
        play("gin", "no_such_module_xyz:policy", seed=2, console=console, read=lambda _: "quit")
