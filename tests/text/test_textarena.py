"""``TextArenaEnv``: TextArena's env protocol over the games. The protocol shape, invalid answers
and the fallback are tested here without TextArena; with it installed (the ``text`` extra), a
full game of each game is played by TextArena's own agent classes and through each wrapper
TextArena ships, one by one (observation wrappers on ``observations="messages"``, action
wrappers, the render wrapper), and ``env.state`` and the board are checked to hold only public
information (the same in every world a seat can imagine)."""

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
    state = env.engine_state
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
    assert player_id == env.engine_state.current_player()
    assert observation == observe(env.engine_state, player_id, history=10).prompt
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
    legal = env.engine_state.legal_actions()
    done, info = env.step("still nonsense")
    assert info["fallback"] and "still nonsense" in info["reason"]
    assert env.engine_state.history == [legal[0]]
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
    assert env.engine_state.is_terminal()
    assert rewards == dict(enumerate(env.engine_state.returns("win_loss")))
    assert not any(info["invalid_move"] for info in game_info.values())


# ----- every wrapper TextArena ships, one by one ----------------------------------------------
def _shipped_wrappers() -> dict[str, type]:
    """The wrapper classes textarena exports (its ``wrappers`` package and its observation
    wrappers' package), by name."""
    import textarena.wrappers as shipped
    from textarena.wrappers import ObservationWrappers

    names = set(shipped.__all__) | {n for n in dir(ObservationWrappers) if n.endswith("Wrapper")}
    return {n: getattr(shipped, n, None) or getattr(ObservationWrappers, n) for n in sorted(names)}


OBSERVATION_WRAPPERS = (
    "ClassicalReasoningEvalsObservationWrapper",
    "GameBoardObservationWrapper",
    "GameMessagesAndCurrentBoardObservationWrapper",
    "GameMessagesObservationWrapper",
    "LLMObservationWrapper",
    "SettlersOfCatanObservationWrapper",
    "SingleTurnObservationWrapper",
)
ACTION_WRAPPERS = {
    "ActionFormattingWrapper": {},
    "ClipCharactersActionWrapper": {"max_num_characters": 40},
    "ClipWordsActionWrapper": {"max_num_words": 5},
}


def test_the_tested_wrappers_are_all_that_textarena_ships():
    assert set(_shipped_wrappers()) == {*OBSERVATION_WRAPPERS, *ACTION_WRAPPERS, "SimpleRenderWrapper"}


class _MenuAgent:
    """Answers with a seeded random item of the menu an observation shows (by its number), or
    "1" where the observation shows none, after a line of thought (for the action wrappers)."""

    def __init__(self, seed: int):
        import random

        self.rng = random.Random(seed)

    def __call__(self, observation: str) -> str:
        menu = observation.rpartition("Your legal actions:\n")[2].split("\n\n")[0]
        items = [line for line in menu.splitlines() if line.strip()[:1].isdigit()]
        return f"Thinking it over.\nAnswer: {self.rng.randint(1, len(items)) if items else 1}"  # 5 words


def _wrapped_game(wrapped, env, n: int, seed: int = 3) -> list[tuple[int, str]]:
    """A whole seeded game through ``wrapped``; returns each decision's (seat, observation)."""
    agent, seen = _MenuAgent(seed), []
    wrapped.reset(num_players=n, seed=seed)
    done = False
    while not done:
        player_id, observation = wrapped.get_observation()
        assert isinstance(observation, str) and player_id == env.engine_state.current_player()
        seen.append((player_id, observation))
        done, _ = wrapped.step(agent(observation))
        assert len(seen) < 3000
    rewards, game_info = wrapped.close()
    assert rewards == dict(enumerate(env.engine_state.returns("win_loss")))
    assert not any(info["invalid_move"] for info in game_info.values())
    return seen


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
@pytest.mark.parametrize("name", OBSERVATION_WRAPPERS)
def test_each_observation_wrapper_plays_every_game_from_the_seats_own_messages(name, env_id):
    from smuggle_envs.text.prompt import situation

    env = TextArenaEnv(env_id, observations="messages")
    n = smuggle_envs.game_class(env_id).min_players
    told: dict[int, list] = {}
    raw = env.get_observation

    def spy():  # every message a seat is sent is its header, the rules, its log, or its situation
        seat, messages = raw()
        told.setdefault(seat, []).extend(messages)
        state = env.engine_state
        assert messages[-1][1] == situation(state, seat) and messages[-1][2].name == "GAME_BOARD"
        return seat, messages

    env.get_observation = spy
    seen = _wrapped_game(_shipped_wrappers()[name](env), env, n)
    for seat, messages in told.items():
        assert messages[0][2].name == "PROMPT" and f"You are {env.state.role_mapping[seat]}." in messages[0][1]
        lines = [m[1] for m in messages if m[2].name == "GAME_ACTION_DESCRIPTION"]
        assert lines == env._logs[seat].lines[: len(lines)]  # its own log, in order, each line once
    if name != "SingleTurnObservationWrapper":  # keeps only a batch's first message, as TextArena's own
        assert all("Your legal actions:\n  1. " in observation for _, observation in seen)


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
@pytest.mark.parametrize("name", sorted(ACTION_WRAPPERS))
def test_each_action_wrapper_plays_every_game(name, env_id):
    env = TextArenaEnv(env_id)
    wrapper = _shipped_wrappers()[name](env, **ACTION_WRAPPERS[name])
    seen = _wrapped_game(wrapper, env, smuggle_envs.game_class(env_id).min_players)
    assert seen and env.engine_state.is_terminal()


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_the_render_wrapper_draws_every_game_from_public_information(env_id, monkeypatch):
    import io

    import rich.console
    from textarena.wrappers.RenderWrappers.SimpleRenderWrapper import render

    monkeypatch.setattr(render.time, "sleep", lambda seconds: None)  # it pauses 0.4 s a step
    n = smuggle_envs.game_class(env_id).min_players
    modes = ["multi", "board"] + (["standard", "chat"] if n == 2 else [])
    for mode in modes:
        env = TextArenaEnv(env_id)
        wrapper = _shipped_wrappers()["SimpleRenderWrapper"](env, render_mode=mode)
        screen = io.StringIO()
        wrapper.console = rich.console.Console(file=screen, width=120, height=40)
        _wrapped_game(wrapper, env, n)
        assert env.state.done and env.state.num_players == n and env.state.turn == len(env.engine_state.history)
        drawn = screen.getvalue()
        assert len(env.state.logs) == env.state.turn and ("took decision" in drawn) == (mode in ("standard", "chat"))
        assert ("Scores:" in drawn) == (mode != "chat")  # the board: the public one


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_the_textarena_state_and_board_are_the_same_in_every_world_a_seat_imagines(env_id):
    """``env.state``, ``get_board_str()`` hold public information only: the same when the cards
    a seat cannot see are redrawn (``resample``), for every seat, along a seeded game."""
    env = TextArenaEnv(env_id)
    n = smuggle_envs.game_class(env_id).min_players
    env.reset(num_players=n, seed=4)
    agent, done, decisions = _MenuAgent(4), False, 0
    while not done and decisions < 60:
        true = env.engine_state
        public = (env.get_board_str(), dict(env.state.game_state), env.state.current_player_id)
        for seat in range(n):
            env.engine_state = true.resample(seat, decisions)
            env._sync()
            assert (env.get_board_str(), dict(env.state.game_state), env.state.current_player_id) == public
        env.engine_state = true
        env._sync()
        done, _ = env.step(agent(env.get_observation()[1]))
        decisions += 1
    assert all(sender in (-1, *range(n)) and "took decision" in line for sender, line in env.state.logs)
    watcher = TextArenaEnv(env_id, spectator=True)  # the opt-in: everything, for watching programs play
    watcher.reset(num_players=n, seed=4)
    assert watcher.get_board_str() == watcher.engine_state.render().rstrip("\n")


def test_messages_need_a_known_form():
    with pytest.raises(ValueError, match="observations must be one of"):
        TextArenaEnv("smuggle_v0", observations="xml")
