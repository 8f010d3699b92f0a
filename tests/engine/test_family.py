"""The family records (rummykit.engine.family): each registered family's facts hold for
every game and preset, checked against what its states actually do."""

from __future__ import annotations

import pytest

import rummykit as rk
from rummykit.engine.family import FAMILIES, Family, family_record, register, state_family
from rummykit.errors import InvalidOptionError

NAMES = rk.game_names()


def _played(game: rk.Game, seed: int) -> list[rk.GameState]:
    """The states of one hand played by the greedy policy, every step."""
    state = game.new_hand(seed=seed, dealer=0)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(game.family_record.greedy(state, None))
        states.append(state.clone())
    return states


def test_every_family_is_registered_once_and_owns_its_names() -> None:
    assert list(FAMILIES) == ["knock", "table"]
    names = [alias for family in FAMILIES.values() for alias in family.aliases]
    assert len(names) == len(set(names)) and set(names) == set(rk.game_names(aliases=True))
    for family in FAMILIES.values():
        assert family_record(family.name) is family
        assert register(family) is family  # registering the same record again is harmless
        assert set(family.presets) | set(family.base_games) <= set(family.aliases.values())
    with pytest.raises(InvalidOptionError, match="unknown family"):
        family_record("bridge")
    with pytest.raises(InvalidOptionError, match="registered already"):
        register(FAMILIES["knock"].__class__(**{**_fields(FAMILIES["knock"]), "aliases": {}}))
    with pytest.raises(InvalidOptionError, match="two families"):
        register(FAMILIES["knock"].__class__(**{**_fields(FAMILIES["knock"]), "name": "other"}))
    assert list(FAMILIES) == ["knock", "table"]


def _fields(family: Family) -> dict[str, object]:
    from dataclasses import fields

    return {f.name: getattr(family, f.name) for f in fields(family) if f.init}


@pytest.mark.parametrize("name", NAMES)
def test_the_game_facts_hold(name: str) -> None:
    game = rk.Game(name)
    family = game.family_record
    assert isinstance(game, family.game) and game.family == family.name
    assert family.options(name) == rk.game_options(name)
    size = game.observation_tensor_size
    layout = game.observation_layout
    assert layout[0][1] == 0 and layout[-1][2] == size
    assert all(stop == start for (_, _, stop), (_, start, _) in zip(layout, layout[1:]))
    states = _played(game, seed=3)
    for state in states:
        assert isinstance(state, family.state) and state_family(state) is family
        legal = state.legal_actions()
        fixed = [game.fixed_action(a) for a in legal]  # one fixed id per move, below the count
        assert len(set(fixed)) == len(legal) and all(0 <= a < game.num_fixed_actions for a in fixed)
        assert game.num_distinct_actions == game.num_fixed_actions
        assert state.observation_tensor(state.n - 1).shape == (size,)
        assert state.hand_text(0) == " ".join(str(c) for c in state.hand(0))
        assert all(isinstance(t, str) for t in state.table_text())
    final = states[-1]
    assert final.result.outcome in game.outcome_names
    assert len(final.stock) + len(final.discards) + sum(len(final.hand(s)) for s in range(final.n)) <= game.deck_size


def test_score_kind_and_analysis() -> None:
    kinds = {name: rk.Game(name).score_kind for name in ("gin", "oklahoma_rummy", "rummy", "kaluki")}
    assert kinds == {"gin": "points", "oklahoma_rummy": "points", "rummy": "points", "kaluki": "penalties"}
    assert rk.Game("rummy", rummy_scoring="penalty").score_kind == "penalties"
    assert [rk.Game(g).hand_analysis for g in ("gin", "rummy", "kaluki")] == ["one_deck", None, "two_decks"]
    assert rk.Game("kaluki").deck_size == 106 and rk.Game("gin").deck_size == 52
    targets = [rk.Game(g).match_target for g in ("gin", "oklahoma_gin", "rummy", "kaluki")]
    assert targets == [100, 200, rk.Game("rummy").rules.target_score, rk.Game("kaluki").rules.elimination_threshold]


def test_winning_seats_and_seats_in_play() -> None:
    assert rk.Game("gin").winning_seats(1) == (1,) and rk.Game("gin").winning_seats(None) == ()
    assert rk.Game("partnership_oklahoma").winning_seats(3) == (3, 1)
    greedy = rk.GreedyAgent()
    match = rk.Match("kaluki", [greedy] * 3, num_players=3, seed=2)
    assert match.seats_in_play == (0, 1, 2)
    match.play()
    assert len(match.seats_in_play) < 3
    assert rk.Match("gin", [greedy] * 2, seed=1).seats_in_play == (0, 1)


def test_greedy_is_the_greedy_agent() -> None:
    for name in ("gin", "oklahoma_gin", "rummy", "kaluki"):
        game = rk.Game(name)
        for state in _played(game, seed=5)[:-1]:
            assert game.family_record.greedy(state, None) == rk.GreedyAgent()(state)
        state = game.new_hand(seed=1, dealer=0)
        assert rk.GreedyAgent(3)(state) == game.family_record.greedy(state, 3)


def test_views_load_on_first_use() -> None:
    import subprocess
    import sys

    loaded = "print('numpy' in sys.modules, 'rummykit.knock.observe' in sys.modules)"
    code = f"import sys, rummykit as rk; rk.Game('gin').num_distinct_actions; {loaded}"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_the_capabilities_hold() -> None:
    """``knocks`` says whether a game has knocking (a knock action among its legal moves some
    time); ``core_outcomes`` name its results; ``rules_sections`` are docs/rules.md's headings
    of every base game; ``hand_returns`` gives the returns the states give."""
    from pathlib import Path

    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = {line[3:].strip() for line in rules.splitlines() if line.startswith("## ")}
    for family in FAMILIES.values():
        assert set(family.rules_sections) == set(family.base_games)
        assert all(set(sections) <= headings for sections in family.rules_sections.values())
        assert set(family.outcomes) == {o for o in family.core_outcomes if o is not None}
        for base in family.base_games:
            game = rk.Game(base)
            kinds = {family.action.from_id(a).kind for s in _played(game, 1) for a in s.legal_actions()}
            assert ("knock" in kinds) == family.knocks, base
            end = _played(game, 2)[-1]
            if family.hand_returns is not None and end.result.outcome != "dead":
                values = [int(v) for v in end.result.hand_values]
                returns = family.hand_returns(game.rules, end.result.outcome, end.result.winner, values)
                assert list(returns) == list(end.returns()), base
