"""``TextArenaEnv``: TextArena's env protocol over the games. The protocol shape, invalid answers
and the fallback are tested here without TextArena; with it installed (the ``text`` extra), a
full game of each game is played by TextArena's own agent and wrapper classes (offline ones:
an ``Agent`` subclass, ``AnswerTokenAgentWrapper``, ``ActionFormattingWrapper``,
``ClipCharactersActionWrapper``)."""

from __future__ import annotations

import pytest

import smuggle_envs
from smuggle_envs.text import TextArenaEnv
from smuggle_envs.text.prompt import observe


def _play(env, answer, num_players, seed=1, limit=5000):
    env.reset(num_players=num_players, seed=seed)
    done, steps = False, 0
    while not done:
        player_id, observation = env.get_observation()
        assert isinstance(player_id, int) and isinstance(observation, str)
        done, info = env.step(answer(player_id, observation))
        assert isinstance(done, bool) and isinstance(info, dict)
        steps += 1
        assert steps < limit
    return env.close()


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_a_whole_game_through_the_protocol(env_id):
    n = smuggle_envs.game_class(env_id).min_players
    env = TextArenaEnv(env_id)
    rewards, game_info = _play(env, lambda pid, obs: "1", n)
    state = env.state
    assert state.is_terminal()
    assert rewards == dict(enumerate(state.returns("win_loss")))
    assert sorted(game_info) == list(range(n))
    for p, info in game_info.items():
        assert info["role"] == state.game.seat_name(p)
        assert info["invalid_move"] is False and info["fallback_moves"] == 0
        assert info["score"] == state.scores()[p] and info["reason"]
    assert sum(info["turn_count"] for info in game_info.values()) == len(state.history)
    _, final = env.get_observation()
    assert final.startswith("The game is over: ")
    assert env.step("1") == (True, {"reason": "the game is over"})


def test_the_observation_is_the_seats_prompt_and_a_seed_replays_the_game():
    env = TextArenaEnv("smuggle_v0", history=10)
    env.reset(num_players=3, seed=5)
    player_id, observation = env.get_observation()
    assert player_id == env.state.current_player()
    assert observation == observe(env.state, player_id, history=10).prompt
    first = _play(env, lambda pid, obs: "1", 3, seed=5)
    assert _play(TextArenaEnv("smuggle_v0"), lambda pid, obs: "1", 3, seed=5) == first


def test_an_unreadable_answer_is_explained_then_retried_then_replaced_by_the_first_action():
    env = TextArenaEnv("smuggle_v0", error_allowance=2)
    env.reset(num_players=3, seed=2)
    seat, prompt = env.get_observation()
    done, info = env.step("dance a jig")
    assert (done, info["invalid_move"], info["player_id"]) == (False, True, seat)
    assert "matches none of the" in info["reason"]
    again, notice = env.get_observation()
    assert again == seat and notice.startswith("Your last answer was not accepted: 'dance a jig' matches none")
    assert "(1 more unreadable answer and action 1 is played for you)" in notice and notice.endswith(prompt)
    assert env.step("0")[1]["invalid_move"]
    legal = env.state.legal_actions()
    done, info = env.step("still nonsense")
    assert info["fallback"] and "still nonsense" in info["reason"]
    assert env.state.history == [legal[0]]
    assert env.game_info[seat]["invalid_move"] and env.game_info[seat]["fallback_moves"] == 1
    _, fresh = env.get_observation()
    assert not fresh.startswith("Your last answer")
    assert env.step("1")[1].get("invalid_move") is None  # a good answer resets the count


def test_bad_arguments_are_refused_and_closing_early_pays_nothing():
    with pytest.raises(ValueError, match="reset"):
        TextArenaEnv("smuggle_v0", num_players=3)
    with pytest.raises(ValueError, match="error_allowance"):
        TextArenaEnv("smuggle_v0", error_allowance=-1)
    with pytest.raises(Exception, match="unknown env id"):
        TextArenaEnv("chess_v0")
    with pytest.raises(RuntimeError, match="reset"):
        TextArenaEnv("ciq_v0").get_observation()
    env = TextArenaEnv("ciq_v0", reward_mode="rank")
    env.reset(num_players=2, seed=0)
    rewards, info = env.close()
    assert rewards == {0: 0.0, 1: 0.0} and info[0]["reason"] == "the game was closed before its end"


# ----- with TextArena itself -------------------------------------------------------------------
def _textarena():
    # The test set-up installs the ``text`` extra, so a missing textarena is a failure, not a skip.
    import textarena

    return textarena


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_textarenas_own_agents_and_wrappers_play_a_whole_game(env_id):
    ta = _textarena()
    from textarena.agents.wrappers import AnswerTokenAgentWrapper
    from textarena.wrappers import ActionFormattingWrapper, ClipCharactersActionWrapper

    class ChattyAgent(ta.Agent):
        """Reasons aloud, then gives the first item after TextArena's answer token."""

        system_prompt = ""

        def __call__(self, observation: str) -> str:
            assert "Your legal actions:\n  1. " in observation
            return "The first choice looks fine.\nFinal Answer: 1"

    agent = AnswerTokenAgentWrapper(ChattyAgent())
    env = TextArenaEnv(env_id)
    wrapped = ClipCharactersActionWrapper(ActionFormattingWrapper(env), max_num_characters=200)
    n = smuggle_envs.game_class(env_id).min_players
    rewards, game_info = _play(wrapped, lambda pid, obs: agent(obs), n)
    assert env.state.is_terminal()
    assert rewards == dict(enumerate(env.state.returns("win_loss")))
    assert not any(info["invalid_move"] for info in game_info.values())
