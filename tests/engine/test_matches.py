"""Whole matches step by step: a server loop with no agents plays every game from text
moves, saving and reloading the match after moves, and gets what ``Match(...).play()``
gets on the same seed; Kaluki seats are never renumbered; matches pickle; the step
errors are clear."""

from __future__ import annotations

import os
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from match_helpers import IDS, MATCHES, mixed_agent

import rummykit as rk
from rummykit.errors import IllegalActionError, InvalidOptionError, RummykitError

LONG = os.environ.get("RUMMYKIT_LONG", "") not in ("", "0")


def random_agent(seed: int) -> Callable[[Any], int]:
    """A seeded random agent: it picks among the legal actions (the same on the seat's copy)."""
    rng = random.Random(seed)

    def agent(state: Any) -> int:
        return int(rng.choice(state.legal_actions()))

    return agent


def serve(name: str, options: dict[str, Any], seed: int, save_every: int) -> rk.Match:
    """A server's loop: no agents; each move is text (as a client sends it, here the choice of a
    ``mixed_agent`` shared by the seats); the match is saved with to_json and reloaded with
    from_json every ``save_every`` moves and between hands."""
    client = mixed_agent(seed)
    match = rk.Match(name, seed=seed, **options)
    moves = 0
    while not match.is_over:
        state = match.deal()
        while not state.is_terminal():
            seat = state.current_player
            text = state.action_text(client(state))
            state.play(text, player=seat)
            moves += 1
            if moves % save_every == 0:
                legal = match.view(state.current_player if not state.is_terminal() else None)["legal"]
                assert [a["id"] for a in legal] == ([] if state.is_terminal() else state.legal_actions())
                match = rk.from_json(match.to_json())
                state = match.state
        match.finish_hand()
        match = rk.from_json(match.to_json())
    return match


@pytest.mark.parametrize(("name", "options"), MATCHES, ids=IDS)
def test_a_server_loop_plays_the_match_the_agents_play(name: str, options: dict[str, Any]) -> None:
    seed = 11
    shared = mixed_agent(seed)  # one generator for every seat, as the server's: a draw per decision
    by_agents = rk.Match(name, [shared] * _players(name, options), seed=seed, **options)
    result = by_agents.play()
    # saved and reloaded after every move (Kaluki's long hands: every 4th by default, 2 s less)
    served = serve(name, options, seed, save_every=1 if LONG or name != "kaluki" else 4)
    assert served.is_over and served.result == result
    assert served.scores == by_agents.scores and served.hands_played == by_agents.hands_played
    assert served.to_json() == by_agents.to_json()


def _players(name: str, options: dict[str, Any]) -> int:
    return int(options.get("num_players", rk.Game(name).num_players))


@pytest.mark.parametrize(("name", "options"), MATCHES, ids=IDS)
def test_a_match_saved_mid_hand_resumes_exactly(name: str, options: dict[str, Any]) -> None:
    match = rk.Match(name, seed=3, **options)
    rng = random.Random(4)
    state = match.deal()
    for _ in range(7):
        state.apply_action(rng.choice(state.legal_actions()))
    text = match.to_json()
    for copy in (rk.from_json(text), pickle.loads(pickle.dumps(match))):
        assert copy.state is not None and copy.in_hand
        assert copy.state.history == state.history and copy.state.legal_actions() == state.legal_actions()
        assert [copy.state.hand(s) for s in range(copy.num_players)] == [state.hand(s) for s in range(state.n)]
        assert copy.view(0) == match.view(0) and copy.to_json() == text
    # both go on to the same end
    a, b = rk.from_json(text), pickle.loads(pickle.dumps(match))
    for m in (a, b):
        m.agents = tuple([mixed_agent(5)] * m.num_players)
    assert a.play() == b.play()


def test_records_carry_the_options_the_version_and_the_seed() -> None:
    import json

    match = rk.Match("kaluki", num_players=3, seed=9, elimination_threshold=80)
    record = json.loads(match.to_json())
    assert record["format"] == "rummykit.match" and record["rummykit"] == rk.__version__
    assert record["seed"] == 9 and record["options"] == {"num_players": 3, "elimination_threshold": 80}
    pooled = json.loads(rk.Match("oklahoma-rummy", num_players=3, seed=1, game_end="fixed_hands", pool=300).to_json())
    assert pooled["match"] == {"pool": 300}


def test_a_tampered_match_record_is_refused() -> None:
    import json

    match = rk.Match("gin", seed=2)
    state = match.deal()
    state.play(state.legal_actions()[0])
    record = json.loads(match.to_json())
    bad_move = {**record, "current": {**record["current"], "actions": ["discard 2C"] * 2}}
    with pytest.raises(IllegalActionError, match="the current hand, action"):
        rk.from_json(json.dumps(bad_move))
    with pytest.raises(InvalidOptionError, match="scores"):
        rk.from_json(json.dumps({**record, "scores": [5, 0]}))
    with pytest.raises(InvalidOptionError, match="seed"):
        rk.from_json(json.dumps({**record, "current": {**record["current"], "seed": 1}}))
    with pytest.raises(InvalidOptionError, match="rng"):
        rk.from_json(json.dumps({**record, "rng": {"bit_generator": "os.system"}}))
    with pytest.raises(InvalidOptionError, match="keys"):
        rk.from_json(json.dumps({**record, "extra": 1}))


def test_kaluki_seats_are_never_renumbered() -> None:
    match = rk.Match("kaluki", num_players=4, seed=6, elimination_threshold=60)
    agent = mixed_agent(1)
    seen_absent = False
    while not match.is_over:
        state = match.deal()
        out = [s for s in range(4) if s not in match.active]
        assert state.absent == sum(1 << s for s in out) and state.seats == tuple(match.active)
        for s in out:
            seen_absent = True
            assert state.hand(s) == [] and match.view(s)["hand"] == [] and match.view(s)["legal"] == []
        while not state.is_terminal():
            assert state.current_player in match.active
            state.play(agent(state))
        result = match.finish_hand()
        assert all(result.penalties[s] == 0 and result.returns[s] == 0 for s in out)
    assert seen_absent
    assert match.result is not None and match.result.winner in (None, *range(4))
    eliminated = [s for group in match.eliminated for s in group]
    assert sorted(eliminated + match.active) == [0, 1, 2, 3]


def test_an_absent_seat_is_checked() -> None:
    game = rk.Game("kaluki", num_players=3)
    with pytest.raises(InvalidOptionError, match="dealer 1 is absent"):
        game.new_hand(seed=1, dealer=1, absent=[1])
    with pytest.raises(InvalidOptionError, match="two seats"):
        game.new_hand(seed=1, dealer=0, absent=[1, 2])
    state = game.new_hand(seed=1, dealer=0, absent=[2])
    assert state.deal_seats == (1, 0) and len(state.hand(0)) == len(state.hand(1)) == 13
    copy = rk.from_json(state.to_json())
    assert copy.absent == state.absent and [copy.hand(s) for s in range(3)] == [state.hand(s) for s in range(3)]
    state = state.with_fields(absent=1)  # the dealer's seat: refused before the next legal list
    with pytest.raises(RummykitError, match="inconsistent"):
        state.legal_actions()


def test_the_steps_say_what_is_wrong() -> None:
    match = rk.Match("gin", seed=1)
    with pytest.raises(IllegalActionError, match="no hand in progress"):
        match.finish_hand()
    state = match.deal()
    with pytest.raises(IllegalActionError, match="not finished"):
        match.finish_hand()
    with pytest.raises(IllegalActionError, match="in progress"):
        match.deal()
    with pytest.raises(RummykitError, match="no agents"):
        match.play()
    assert match.state is state and match.in_hand


def test_match_takes_the_player_count_from_its_agents() -> None:
    agent = random_agent(0)
    assert rk.Match("kaluki", [agent] * 3).num_players == 3
    assert rk.Match("rummy", [agent] * 5).num_players == 5
    assert rk.Match("rummy", [agent] * 4, num_players=4).num_players == 4
    with pytest.raises(InvalidOptionError, match="4 agents needed"):
        rk.Match("rummy", [agent] * 3, num_players=4)


def test_a_player_count_the_game_has_not_names_the_games_that_have_it() -> None:
    agent = random_agent(0)
    with pytest.raises(InvalidOptionError, match="3 agents .*needs 2 players.*for 3 players: gin_multi"):
        rk.Match("gin", [agent] * 3)


@pytest.mark.parametrize(("name", "options"), MATCHES, ids=IDS)
def test_results_have_the_same_names_in_every_game(name: str, options: dict[str, Any]) -> None:
    match = rk.Match(name, seed=2, **options)
    match.agents = tuple([mixed_agent(2)] * match.num_players)
    result = match.play()
    assert result.score_kind in ("points", "penalties")
    named = result.points if result.score_kind == "points" else result.penalties
    other = result.penalties if result.score_kind == "points" else result.points
    assert named == result.scores and other is None
    assert sorted(result.standings) == list(range(match.num_players))
    assert [s for place in result.ranking for s in place] == list(result.standings)
    assert result.winner is None or result.standings[0] == result.winner
    assert len(result.totals) == match.num_players and result.hand_count == match.hands_played
    hand = match.state.result
    assert hand.returns == tuple(match.state.returns()) and len(hand.penalties) == match.num_players
