"""Leagues: whole games, mirrored deal sequences, clustered intervals, ratings, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import rummykit as rk
from rummykit.agents import MatchInfo, make_agent
from rummykit.cli import main
from rummykit.league import bradley_terry, check_output_path, league, play_game


def test_mirrored_games_deal_the_same_cards_with_the_seats_swapped() -> None:
    from rummykit.league import _sequence_rng

    a = rk.Match("gin_eaai", [make_agent("greedy"), make_agent("random", 1)], seed=_sequence_rng(3, 0, 5))
    b = rk.Match("gin_eaai", [make_agent("random", 1), make_agent("greedy")], seed=_sequence_rng(3, 0, 5))
    a.play_hand()
    b.play_hand()
    assert a.dealers[0] == b.dealers[0] and a.hand_seeds[0] == b.hand_seeds[0]


def test_league_counts_games_hands_and_points_per_pair() -> None:
    result = league(["greedy", "random", "eaai-simple"], "gin_eaai", games=4, seed=2)
    assert len(result.records) == 12 and len(result.pairs) == 3
    for pair in result.pairs:
        games = [r for r in result.records if (r.first, r.second) == (pair.first, pair.second)]
        assert pair.games == 4 and sorted(r.swapped for r in games) == [False, False, True, True]
        assert pair.wins == sum(r.winner == pair.first for r in games)
        assert pair.hands == sum(r.hands for r in games)
        assert pair.hands_won == sum(r.won[0] for r in games)
        assert pair.decided == sum(r.hands - r.dead for r in games)
        diff = sum(r.points[0] - r.points[1] for r in games)
        assert math.isclose(pair.points_per_hand, diff / pair.hands)
        for r in games:  # every game went to the target
            assert r.winner in (r.first, r.second) and max(r.points) >= 100
    greedy_random = result.pairs[0]
    assert greedy_random.win_rate == 1.0 and greedy_random.ci95 == (1.0, 1.0)
    assert result == league(["greedy", "random", "eaai-simple"], "gin_eaai", games=4, seed=2)
    ratings = result.ratings()
    assert ratings[0] > ratings[1] and ratings[2] > ratings[1]


def test_league_of_a_table_game_and_its_json(tmp_path: Path) -> None:
    result = league(["greedy", "random"], "rummy", games=2, seed=1, target_score=60)
    data = json.loads(result.to_json(tmp_path / "l.json"))
    assert data["game"] == "rummy" and data["options"]["target_score"] == 60 and data["seed"] == 1
    assert "rummykit" in data and len(data["records"]) == 2 and data["pairs"][0]["games"] == 2
    assert json.loads((tmp_path / "l.json").read_text())["ratings"] == data["ratings"]


def test_clustered_interval_is_wider_than_none_and_ratings_follow_the_wins() -> None:
    assert [round(x) for x in bradley_terry([[0, 50], [50, 0]])] == [0, 0]
    strong = bradley_terry([[0, 75, 90], [25, 0, 75], [10, 25, 0]])
    assert strong[0] > strong[1] > strong[2] and math.isclose(sum(strong), 0, abs_tol=1e-6)
    # an agent that won every game still gets a finite rating (the prior)
    assert all(math.isfinite(x) for x in bradley_terry([[0, 10], [0, 0]]))


class Listener:
    """Greedy, recording what the match tells it before each hand."""

    def __init__(self) -> None:
        self.told: list[MatchInfo] = []

    def new_hand(self, info: MatchInfo) -> None:
        self.told.append(info)

    def __call__(self, state: rk.GameState) -> int:
        return make_agent("greedy")(state)


def test_a_match_tells_agents_the_match_before_each_hand() -> None:
    first, second = Listener(), Listener()
    match = rk.Match("gin_eaai", [first, second], seed=9)
    match.play()
    assert len(first.told) == len(match.hands) == len(second.told)
    told = MatchInfo(seat=0, scores=(0, 0), target=100, dealer=match.dealers[0], hand=0, game=match.game)
    assert first.told[0] == told
    assert first.told[1].last == match.hands[0]
    assert second.told[-1].seat == 1 and max(second.told[-1].scores) < 100
    running = [0, 0]
    for info, hand in zip(first.told, match.hands):
        assert info.scores == tuple(running)
        running = [running[k] + hand.points[k] for k in range(2)]
    listener = Listener()
    table = rk.Match("kaluki", [listener, make_agent("greedy")], seed=3, num_players=2)
    play_game(table)
    assert listener.told[0].target == 150 and len(listener.told) == len(table.hands)
    assert listener.told[-1].scores == tuple(
        sum(h.penalties[k] for h in table.hands[:-1]) for k in range(2)
    )  # penalty totals before the last hand


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 3}, "even"),
        ({"games": 0}, "games"),
        ({"seed": -1}, "seed"),
        ({"workers": 0}, "workers"),
    ],
)
def test_league_refuses_bad_settings(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(rk.InvalidOptionError, match=message):
        league(["greedy", "random"], "gin", **kwargs)


def test_league_refuses_bad_agents_and_games() -> None:
    with pytest.raises(rk.InvalidOptionError, match="2..64 agents"):
        league(["greedy"], "gin")
    with pytest.raises(rk.InvalidOptionError, match="no setting 'bogus'"):
        league(["greedy:bogus=1", "random"], "gin")
    with pytest.raises(rk.InvalidOptionError, match="two-player"):
        league(["greedy", "random"], "oklahoma-rummy")


def test_output_paths_are_checked(tmp_path: Path) -> None:
    assert check_output_path(tmp_path / "x.json") == tmp_path / "x.json"
    with pytest.raises(rk.InvalidOptionError, match="folder"):
        check_output_path(tmp_path)
    with pytest.raises(rk.InvalidOptionError, match="does not exist"):
        check_output_path(tmp_path / "missing" / "x.json")


def test_cli_league_and_agents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "league.json"
    assert main(["league", "greedy", "random", "--games", "2", "--seed", "4", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "gin_eaai" in text and "seed 4" in text and "rummykit" in text and "ratings" in text
    assert json.loads(out.read_text())["games_per_pair"] == 2
    assert main(["league", "greedy", "random", "--games", "2", "--json", str(tmp_path / "no" / "x.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["agents"]) == 0
    listing = capsys.readouterr().out
    assert "eaai-simple" in listing and "knock_turns=3" in listing and "max_knock_deadwood" in listing
    assert main(["league", "patient:bogus=2", "random", "--games", "2"]) == 2
    assert "its settings: knock_turns, late_knock" in capsys.readouterr().err
