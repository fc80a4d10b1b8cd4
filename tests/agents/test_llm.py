"""The ``llm:`` agent (``agents/llm.py``) against a scripted OpenAI-compatible server on
127.0.0.1 (``tests/_llm_mock.py``): spec options, what it sends, how it reads answers (numbers,
action texts, chatty replies), re-prompts after a malformed answer, retries after timeouts, 5xx
and lost connections, its fallback, its records, determinism, and a whole game of each game."""

from __future__ import annotations

import random
import socket
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the mock server is imported as tests._llm_mock
    sys.path.insert(0, str(ROOT))

from agents import make_agent  # noqa: E402
from agents.arena import play  # noqa: E402
from agents.base import SeatView, decide  # noqa: E402
from agents.llm import ANSWER_FORMAT, LLMAgent, LLMError  # noqa: E402
from smuggle_envs import make_game, registry  # noqa: E402
from smuggle_envs.text import rules_brief  # noqa: E402
from tests._llm_mock import MockLLM, Reply  # noqa: E402

ENV_IDS = [row["env_id"] for row in registry.describe()]


@pytest.fixture(autouse=True)
def _no_key(monkeypatch):
    """No API key from the environment reaches the loopback server."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _view(env_id: str = "ciq_v0", seed: int = 0) -> SeatView:
    """The first decision of a game: seat 0 to act, several legal actions (CIQ: seven)."""
    state = make_game(env_id).new_initial_state(seed)
    assert len(state.legal_actions()) > 1
    return SeatView(state, state.current_player())


def _agent(llm: MockLLM, **options: object) -> LLMAgent:
    agent = make_agent(llm.spec(**options), make_game("ciq_v0"), seed=7)
    assert isinstance(agent, LLMAgent)
    return agent


# ----- the spec ------------------------------------------------------------------------------
def test_the_spec_needs_a_model_and_says_so():
    game = make_game("ciq_v0")
    for spec in ("llm", "llm:", "llm:temperature=0.5"):
        with pytest.raises(ValueError, match=r"needs a model: llm:MODEL"):
            make_agent(spec, game)
    with pytest.raises(ValueError, match=r"not key=value; valid options: model=str"):
        make_agent("llm:qwen2.5-7b;0.5", game)


def test_the_model_may_come_first_without_its_name():
    """``llm:MODEL;...``, as the issue writes it, is ``llm:model=MODEL;...`` (a model name may hold a colon)."""
    game = make_game("ciq_v0")
    short = make_agent("llm:llama3:8b;base_url=http://127.0.0.1:9/v1;temperature=0.5", game)
    named = make_agent("llm:model=llama3:8b;base_url=http://127.0.0.1:9/v1;temperature=0.5", game)
    assert isinstance(short, LLMAgent) and isinstance(named, LLMAgent)
    assert vars(short)["model"] == vars(named)["model"] == "llama3:8b"
    with pytest.raises(ValueError, match=r"option 'model' is given twice"):
        make_agent("llm:qwen;model=other", game)
    with pytest.raises(ValueError, match=r"bad value 'often' for fallback \(expected random\|first\|rule\)"):
        make_agent("llm:model=m;fallback=often", game)
    with pytest.raises(ValueError, match=r"unknown option 'url'"):
        make_agent("llm:model=m;url=http://127.0.0.1:1/v1", game)
    with pytest.raises(ValueError, match=r"timeout must be positive"):
        make_agent("llm:model=m;timeout=0", game)


def test_options_are_read_and_the_system_prompt_is_url_escaped():
    agent = make_agent(
        "llm:model=llama3:8b;base_url=http://127.0.0.1:9/v1;temperature=0.2;max_retries=1;timeout=3;"
        "system=Be%20brief%3B%20win%2C%20always;fallback=rule;seed=5;max_tokens=8;history=0",
        make_game("ciq_v0"),
        seed=3,
    )
    assert isinstance(agent, LLMAgent)
    assert (agent.model, agent.base_url) == ("llama3:8b", "http://127.0.0.1:9/v1")  # a ':' in a model name is kept
    assert (agent.temperature, agent.max_retries, agent.timeout) == (0.2, 1, 3.0)
    assert agent.system == "Be brief; win, always"
    assert (agent.fallback, agent.request_seed, agent.max_tokens, agent.history) == ("rule", 5, 8, 0)


def test_a_named_key_variable_must_be_set(monkeypatch):
    game = make_game("ciq_v0")
    monkeypatch.delenv("SMUGGLE_TEST_KEY", raising=False)
    with pytest.raises(ValueError, match=r"environment variable SMUGGLE_TEST_KEY is not set"):
        make_agent("llm:model=m;api_key_env=SMUGGLE_TEST_KEY", game)
    monkeypatch.setenv("SMUGGLE_TEST_KEY", "sk-test")
    with MockLLM() as llm:
        decide(make_agent(llm.spec(api_key_env="SMUGGLE_TEST_KEY"), game), *_state_and_seat())
        decide(make_agent(llm.spec(), game), *_state_and_seat())  # the default variable unset: a placeholder
    assert llm.authorizations == ["Bearer sk-test", "Bearer not-needed"]


def _state_and_seat():
    state = make_game("ciq_v0").new_initial_state(0)
    return state, state.current_player()


def test_a_missing_openai_client_is_one_clear_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)  # import openai now raises ImportError
    with pytest.raises(ValueError, match=r"needs the openai package \(the llm extra\): pip install"):
        make_agent("llm:model=m", make_game("ciq_v0"))


def test_act_without_a_view_is_refused():
    agent = make_agent("llm:model=m;base_url=http://127.0.0.1:9/v1", make_game("ciq_v0"))
    with pytest.raises(TypeError, match=r"act_in\(view\)"):
        agent.act(None, None)  # type: ignore[arg-type]


# ----- one decision --------------------------------------------------------------------------
def test_a_number_is_played_and_recorded_with_its_tokens():
    view = _view()
    legal = view.legal_actions()
    with MockLLM([Reply("2", usage=(123, 4))]) as llm:
        agent = _agent(llm, temperature=0.5, seed=11, max_tokens=16)
        assert agent.act_in(view) == legal[1]
    body = llm.requests[0]
    assert (body["model"], body["temperature"], body["seed"], body["max_tokens"]) == ("mock", 0.5, 11, 16)
    system, user = body["messages"]
    assert system == {"role": "system", "content": f"{rules_brief('ciq_v0')}\n\n{ANSWER_FORMAT}"}
    assert user["role"] == "user" and user["content"] == view.text().prompt
    [record] = agent.take_records()
    assert agent.take_records() == []  # taken once
    assert record["messages"] == body["messages"] and record["answer"] == "2" and record["action"] == legal[1]
    assert (record["prompt_tokens"], record["completion_tokens"]) == (123, 4)
    assert (record["retries"], record["parse_failures"], record["fallback"], record["error"]) == (0, 0, None, None)
    assert (record["seat"], record["step"], record["agent_seed"], record["model"]) == (0, 0, 7, "mock")
    assert 0 < record["latency_s"] < 5


def test_an_action_text_and_a_chatty_answer_are_read():
    view = _view()
    obs = view.text()
    chatty = "Let me think about the customs officer.\nSmuggling is risky here.\n\nAnswer: 3"
    with MockLLM([obs.texts[4], chatty]) as llm:
        agent = _agent(llm)
        assert agent.act_in(view) == obs.legal[4]
        assert agent.act_in(view) == obs.legal[2]
    assert [r["parse_failures"] for r in agent.take_records()] == [0, 0]


def test_a_malformed_answer_is_answered_with_the_reason_then_the_fallback_is_recorded():
    view = _view()
    legal = view.legal_actions()
    with MockLLM(["banana", "99", "I am not sure."]) as llm:
        agent = _agent(llm, max_retries=2, fallback="first")
        assert agent.act_in(view) == legal[0]
    assert len(llm.requests) == 3
    followup = llm.requests[1]["messages"]
    assert followup[2] == {"role": "assistant", "content": "banana"}
    assert followup[3]["role"] == "user" and "'banana' matches none of the 7 actions" in followup[3]["content"]
    assert "99 is out of range" in llm.requests[2]["messages"][5]["content"]
    [record] = agent.take_records()
    assert (record["retries"], record["parse_failures"], record["fallback"]) == (2, 3, "first")
    assert record["answer"] == "I am not sure." and record["action"] == legal[0]
    assert len(record["messages"]) == 8  # system, prompt, then three answers and three follow-ups


def test_a_malformed_answer_then_a_good_one_needs_no_fallback():
    view = _view()
    with MockLLM(["pass the salt", "4"]) as llm:
        agent = _agent(llm)
        assert agent.act_in(view) == view.legal_actions()[3]
    [record] = agent.take_records()
    assert (record["retries"], record["parse_failures"], record["fallback"]) == (1, 1, None)


def test_a_timeout_counts_a_retry():
    view = _view()
    with MockLLM([Reply("5", delay=1.5), "2"]) as llm:
        agent = _agent(llm, timeout=0.3)
        start = time.perf_counter()
        assert agent.act_in(view) == view.legal_actions()[1]
        assert time.perf_counter() - start < 1.4  # the slow answer was not waited for
    [record] = agent.take_records()
    assert (record["retries"], record["parse_failures"], record["fallback"]) == (1, 0, None)
    assert "Timeout" in record["error"] and len(record["latencies"]) == 2


def test_a_slow_answer_within_the_timeout_is_used():
    view = _view()
    with MockLLM([Reply("3", delay=0.3)]) as llm:
        agent = _agent(llm, timeout=5)
        assert agent.act_in(view) == view.legal_actions()[2]
    [record] = agent.take_records()
    assert record["retries"] == 0 and record["error"] is None and record["latency_s"] >= 0.3


def test_server_errors_are_retried_then_the_fallback_plays():
    view = _view()
    with MockLLM([Reply(status=503), Reply(status=429), "6"]) as llm:
        agent = _agent(llm, max_retries=2)
        assert agent.act_in(view) == view.legal_actions()[5]
    [record] = agent.take_records()
    assert (record["retries"], record["fallback"], record["error"]) == (2, None, "HTTP 429: scripted 429")
    with MockLLM([Reply(status=500)] * 2) as llm:
        agent = _agent(llm, max_retries=1, fallback="random")
        assert agent.act_in(view) in view.legal_actions()
    [record] = agent.take_records()
    assert (record["retries"], record["fallback"], record["answer"]) == (1, "random", None)
    assert record["prompt_tokens"] is None and len(llm.requests) == 2


def test_a_bad_request_falls_back_at_once_and_a_refusal_raises():
    view = _view()
    with MockLLM([Reply(status=400)]) as llm:
        agent = _agent(llm, max_retries=3, fallback="rule")
        assert agent.act_in(view) in view.legal_actions()
    [record] = agent.take_records()
    assert (record["retries"], record["fallback"], len(llm.requests)) == (0, "rule", 1)
    with MockLLM([Reply(status=404)]) as llm:
        agent = _agent(llm)
        with pytest.raises(LLMError, match=r"refused model 'mock' \(HTTP 404\)") as info:
            agent.act_in(view)
    assert llm.base_url not in str(info.value)  # a web page may show it: no endpoint in it


def test_a_lost_connection_counts_a_retry():
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    agent = make_agent(
        f"llm:model=m;base_url=http://127.0.0.1:{port}/v1;max_retries=1;fallback=first;timeout=2", make_game("ciq_v0")
    )
    view = _view()
    assert agent.act_in(view) == view.legal_actions()[0]
    [record] = agent.take_records()
    assert (record["retries"], record["fallback"]) == (1, "first")
    assert record["error"].startswith("APIConnectionError")


def test_a_stopped_agent_plays_the_fallback_without_more_attempts():
    view = _view()
    with MockLLM(["nonsense"]) as llm:
        agent = _agent(llm, max_retries=5, fallback="first")
        agent.stop = lambda: True
        assert agent.act_in(view) == view.legal_actions()[0]
    [record] = agent.take_records()
    assert len(llm.requests) == 1 and record["error"].startswith("stopped")


def test_a_forced_move_asks_nothing():
    state = make_game("ciq_v0").new_initial_state(0)
    rng = random.Random(0)
    for _ in range(500):  # a seeded walk to the first forced move (CIQ has one within a few dozen)
        if len(state.legal_actions()) == 1:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.legal_actions()) == 1
    with MockLLM() as llm:
        agent = _agent(llm)
        assert decide(agent, state, state.current_player()) == state.legal_actions()[0]
    assert llm.requests == [] and agent.take_records() == []


# ----- whole games ---------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_whole_game_through_the_mock(env_id):
    game = make_game(env_id)
    with MockLLM() as llm:  # answers "1" to everything, at once
        agents = [make_agent(llm.spec(), game, seed=0)]
        agents += [make_agent("random", game, seed=s) for s in range(1, game.num_players)]
        driver = play(game, agents, seed=4)
    records = agents[0].take_records()
    assert driver.terminated and records
    assert len(llm.requests) == len(records)
    assert all(r["fallback"] is None and r["parse_failures"] == 0 and r["seat"] == 0 for r in records)
    history = driver.state.history
    assert all(history[r["step"]] == r["action"] for r in records)  # each record is the move at its step


def _scripted(llm_answers: list[str]) -> tuple[list[int], list[dict[str, object]]]:
    game = make_game("ciq_v0", num_players=3)
    with MockLLM(llm_answers, default="2") as llm:
        agents = [make_agent(llm.spec(fallback="random", max_retries=1), game, seed=0)]
        agents += [make_agent("rule", game, seed=1), make_agent("random", game, seed=2)]
        state = play(game, agents, seed=9).state
    records = [{k: v for k, v in r.items() if k not in ("latency_s", "latencies")} for r in agents[0].take_records()]
    return list(state.history), records


def test_the_same_seed_and_answers_give_the_same_game():
    script = ["1", "garbage", "also garbage", "3", "Answer: 2", "x", "y"] * 3
    first, second = _scripted(script), _scripted(script)
    assert first == second
    assert any(r["fallback"] == "random" for r in first[1])  # the seeded fallback was part of it


def test_reset_starts_a_new_game_log_and_drops_untaken_records():
    view = _view()
    with MockLLM() as llm:
        agent = _agent(llm)
        agent.act_in(view)
        assert agent.records
        agent.reset(5)
        assert agent.records == [] and agent._logs == {}
        agent.act_in(view)
    assert agent.take_records()[0]["agent_seed"] == 5
