"""rummykit games as OpenSpiel Python games: OpenSpiel's random simulation test, its MCTS and
ISMCTS bots under evaluate_bots, tabular Q-learning on information-state tensors through
rl_environment, observation and information-state tensors, the dealer as a chance outcome,
resampling and the gin_rummy id mapping."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'rummykit[openspiel]'")

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts, tabular_qlearner

import rummykit as rk
from rummykit.agents import signed_results
from rummykit.envs import gin_rummy_ids, openspiel_game, register_openspiel_games
from rummykit.envs._history import KINDS, SLOT, HistoryEncoder
from rummykit.envs._openspiel import RummykitSpielState
from rummykit.envs.gin_rummy_ids import (
    OS_MELD,
    OS_MELD_TABLE,
    OS_NUM_ACTIONS,
    from_openspiel_gin,
    openspiel_card,
    rummykit_card,
    to_openspiel_gin,
)
from rummykit.knock.actions import MELD, MELD_TABLE, NUM_ACTIONS, Action


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS bot lacks ``restart_at``, which ``evaluate_bots`` calls; it
    searches afresh at every step, so there is nothing to restart."""

    def restart_at(self, state: pyspiel.State) -> None:
        pass


def _dealt(game: pyspiel.Game, seed: int) -> RummykitSpielState:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def test_registered_names_load_with_parameters() -> None:
    names = register_openspiel_games()
    assert names == [f"python_rummykit_{v}" for v in ("gin", "oklahoma_gin", "oklahoma_rummy", "rummy", "kaluki")]
    assert register_openspiel_games() == names  # registering again is harmless
    game = pyspiel.load_game("python_rummykit_oklahoma_rummy(num_players=3,reward=points)")
    assert game.num_players() == 3 and game.max_utility() == 10_000.0
    assert game.num_distinct_actions() == 686 and game.max_chance_outcomes() == 52
    gin = pyspiel.load_game("python_rummykit_gin")
    assert gin.max_utility() == 1.0 and gin.get_parameters()["reward"] == "win_loss"
    assert gin.observation_tensor_shape() == [1699]
    assert gin.information_state_tensor_shape() == [1699 + 2 + 64 * SLOT]
    assert pyspiel.load_game("python_rummykit_gin(history=8)").information_state_tensor_size() == 1699 + 2 + 8 * SLOT


@pytest.mark.parametrize("name", ["python_rummykit_gin", "python_rummykit_oklahoma_gin"])
def test_random_sim_test(name: str) -> None:
    register_openspiel_games()
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=False, verbose=False)


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_oklahoma_rummy(players: int) -> None:
    pyspiel.random_sim_test(
        openspiel_game("oklahoma-rummy", num_players=players), num_sims=2, serialize=False, verbose=False
    )


@pytest.mark.skipif(not hasattr(rk.TableState, "determinize"), reason="TableState has no determinize yet")
@pytest.mark.parametrize("name", ["rummy", "kaluki"])
def test_random_sim_test_table_games(name: str) -> None:
    pyspiel.random_sim_test(openspiel_game(name, max_turns=40), num_sims=1, serialize=False, verbose=False)


def test_the_deal_is_the_chance_outcomes() -> None:
    game = openspiel_game("gin", dealer=0)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52
    assert state.information_state_string(1) == "seat 1: dealing"
    assert not any(state.observation_tensor(0)) and not any(state.information_state_tensor(0))
    state = _dealt(game, 1)
    engine = state.engine_state
    deal = state.history()
    assert len(deal) == 51 and list(engine.deck[:51]) == deal
    assert engine.dealer == 0 and state.current_player() == 1
    for player in (0, 1):
        assert state.information_state_string(player) == engine.information_state_string(player)
        np.testing.assert_array_equal(state.observation_tensor(player), engine.observation_tensor(player))


def test_the_dealer_is_a_chance_outcome() -> None:
    game = openspiel_game("oklahoma-rummy", num_players=3)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "dealer 2"
    dealers = {_dealt(game, seed).engine_state.dealer for seed in range(12)}
    assert dealers == {0, 1, 2}
    state = _dealt(game, 5)
    history = state.history()
    assert len(history) == 1 + 51 and state.engine_state.dealer == history[0]
    assert list(state.engine_state.deck[:51]) == history[1:]


def _walk(game: pyspiel.Game, seed: int) -> list[RummykitSpielState]:
    """The decision states of one hand played with random legal actions."""
    rng = np.random.default_rng(seed)
    state, states = _dealt(game, seed), []
    while not state.is_terminal():
        states.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return states


@pytest.mark.parametrize(("name", "players"), [("gin", 2), ("oklahoma-rummy", 3), ("kaluki", 3), ("rummy", 4)])
def test_information_state_tensor_is_the_observation_and_the_history(name: str, players: int) -> None:
    """Same information-state string, same tensor; different strings, different tensors; the
    observation tensor first, then the history, whose kinds are all known ones."""
    game = openspiel_game(name, num_players=players, max_turns=20)
    size = game.observation_tensor_size()
    seen: dict[bytes, str] = {}
    for seed in range(2):
        for state in _walk(game, seed):
            for player in range(players):
                tensor = np.array(state.information_state_tensor(player), np.float32)
                assert tensor.shape == (game.information_state_tensor_size(),)
                np.testing.assert_array_equal(tensor[:size], state.observation_tensor(player))
                slots = tensor[size + 2 :].reshape(64, SLOT)
                kinds = slots[:, 6 : 6 + len(KINDS)]
                assert not kinds[:, KINDS.index("other")].any()
                used = int(round(tensor[size] * 64))
                assert (kinds.sum(axis=1) == 1).sum() == used
                text = state.information_state_string(player)
                assert seen.setdefault(tensor.tobytes(), text) == text


def test_history_keeps_the_last_actions_most_recent_first() -> None:
    encoder = HistoryEncoder(2, history=2)
    text = "header\ndealt AS\n1: take 3H\n1: discard QH\nrestock 30; 0: draw stock KC"
    tensor = encoder.encode(text, 0)
    assert tensor[:2].tolist() == [1.0, 1.0]  # two kept, older ones dropped
    newest, older = tensor[2 : 2 + SLOT], tensor[2 + SLOT :]
    assert newest[0] == 1.0 and newest[6 + KINDS.index("draw stock")] == 1.0
    assert newest[6 + len(KINDS) + 3] == 1.0 and newest[-53 + rk.parse_card("KC").id] == 1.0
    assert older[1] == 1.0 and older[6 + KINDS.index("discard")] == 1.0
    with pytest.raises(rk.InvalidOptionError, match="history"):
        HistoryEncoder(2, history=0)


def test_resampled_state_has_the_same_information_state_tensor() -> None:
    state = _dealt(openspiel_game("oklahoma-gin"), 6)
    for _ in range(8):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_tensor(player) == state.information_state_tensor(player)


def test_tabular_q_learning_on_information_state_tensors() -> None:
    """OpenSpiel's rl_environment hands each agent ``information_state_tensor`` (it refuses a game
    without one); its tabular Q-learner keys its table by that tensor."""
    game = openspiel_game("oklahoma-gin", max_turns=12)
    observe = rl_environment.ObservationType.INFORMATION_STATE
    deals = rl_environment.ChanceEventSampler(seed=3)  # (a seed= keyword is ignored for a game object)
    env = rl_environment.Environment(game, observation_type=observe, chance_event_sampler=deals)
    assert env.observation_spec()["info_state"] == (game.information_state_tensor_size(),)
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=env.action_spec()["num_actions"]) for p in (0, 1)]
    for _ in range(4):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            assert len(time_step.observations["info_state"][player]) == game.information_state_tensor_size()
            time_step = env.step([agents[player].step(time_step).action])
        for agent in agents:
            agent.step(time_step)
    assert all(len(agent._q_values) > 0 for agent in agents)
    assert sorted(time_step.rewards) in ([-1.0, 1.0], [0.0, 0.0])


def test_clone_is_independent() -> None:
    state = _dealt(openspiel_game("gin"), 2)
    other = state.clone()
    other.apply_action(other.legal_actions()[0])
    assert len(other.history()) == len(state.history()) + 1
    assert state.engine_state.history == []


def test_resample_keeps_the_information_state() -> None:
    state = _dealt(openspiel_game("oklahoma-gin"), 3)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    other = state.resample_from_infostate(player, sampler)
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.engine_state.hands[1 - player] != state.engine_state.hands[1 - player]


@pytest.mark.parametrize("reward", ["win_loss", "points"])
def test_mcts_and_ismcts_bots_play_a_hand(reward: str) -> None:
    game = openspiel_game("oklahoma-gin", reward=reward)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng),
        ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng),
    ]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    engine = state.engine_state
    assert engine.is_terminal()
    if reward == "points":
        assert returns == pytest.approx(signed_results(engine.returns()))
    else:
        winner = engine.result.winner
        assert returns == [0.0, 0.0] if winner is None else [1.0 if s == winner else -1.0 for s in (0, 1)]


def test_bad_parameters() -> None:
    with pytest.raises(rk.InvalidOptionError, match="reward"):
        openspiel_game("gin", reward="chips")
    with pytest.raises(rk.InvalidOptionError, match="max_turns"):
        openspiel_game("gin", max_turns=-1)
    with pytest.raises(rk.InvalidOptionError, match="dealer"):
        openspiel_game("gin", dealer=2)
    with pytest.raises(rk.InvalidOptionError, match="one seat"):
        openspiel_game("gin").make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
        )


def test_action_strings() -> None:
    state = _dealt(openspiel_game("gin"), 4)
    assert state.action_to_string(state.current_player(), 106) == "pass"
    assert openspiel_game("gin", dealer=1).new_initial_state().action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal 7"


def _os_cards(text: str) -> int:
    """The rummykit mask of OpenSpiel card text such as ``AcAdAh``."""
    return sum(rk.parse_card(text[i : i + 2]).mask for i in range(0, len(text), 2))


def test_gin_rummy_tables_match_openspiel() -> None:
    game = pyspiel.load_game("gin_rummy")
    assert game.num_distinct_actions() == OS_NUM_ACTIONS
    state = game.new_initial_state()

    def text(action: int) -> str:
        return str(state.action_to_string(0, action)).split()[-1]

    for os_card in range(52):
        assert text(os_card).upper() == str(rummykit_card(os_card))
        assert openspiel_card(rummykit_card(os_card)) == os_card
        assert from_openspiel_gin(os_card) == int(rummykit_card(os_card))
    assert [text(a) for a in range(52, 56)] == ["upcard", "stock", "Pass", "Knock"]
    for i, mask in enumerate(OS_MELD_TABLE):
        assert _os_cards(text(OS_MELD + i)) == mask
        assert Action(from_openspiel_gin(OS_MELD + i)).meld == mask


def test_every_rummykit_action_maps_or_says_why() -> None:
    mapped = 0
    for action_id in range(NUM_ACTIONS):
        try:
            os_actions = to_openspiel_gin(action_id)
        except rk.IllegalActionError as err:
            assert "big gin" in str(err) or "ace-high" in str(err)
            continue
        mapped += 1
        assert all(0 <= a < OS_NUM_ACTIONS for a in os_actions)
        if MELD <= action_id < MELD + len(MELD_TABLE):
            assert sum(OS_MELD_TABLE[a - OS_MELD] for a in os_actions) == Action(action_id).meld
        elif len(os_actions) == 1 and os_actions[0] < 56 and action_id < 104:
            assert from_openspiel_gin(os_actions[0]) == action_id
    assert mapped > 600
    assert from_openspiel_gin(21, after_knock=True) == to_openspiel_gin("knock 9C")[1] + 39
    with pytest.raises(rk.IllegalActionError, match="after_knock"):
        from_openspiel_gin(55)
    with pytest.raises(rk.IllegalActionError, match="0..240"):
        from_openspiel_gin(241)


def test_docs_examples() -> None:
    doc = Path(__file__).parent.parent.parent / "docs" / "openspiel.md"
    failures, tried = doctest.testfile(str(doc), module_relative=False)
    assert tried > 0 and failures == 0
    failures, tried = doctest.testmod(gin_rummy_ids)
    assert tried > 0 and failures == 0


def test_table_games_use_the_fixed_ids_or_the_dense_index() -> None:
    from rummykit.table import fixed

    register_openspiel_games()
    game = pyspiel.load_game("python_rummykit_kaluki")
    assert game.num_distinct_actions() == fixed.NUM_ACTIONS
    assert pyspiel.load_game("python_rummykit_kaluki(action_space=dense)").num_distinct_actions() == 4096
    state = _dealt(game, 3)
    rng = np.random.default_rng(1)
    for _ in range(40):
        engine = state.engine_state
        assert engine is not None
        legal = state.legal_actions()
        assert legal == fixed.legal(engine)
        for a in legal:
            action_id = fixed.engine_id(engine.legal_actions(), a)
            assert action_id is not None and state.action_to_string(a) == engine.action_text(action_id)
        state.apply_action(int(rng.choice(legal)))
        if state.is_terminal():
            break
