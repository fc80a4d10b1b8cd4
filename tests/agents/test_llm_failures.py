"""A dead endpoint is an error, not a game of fallbacks (issue #34): the ``llm:`` agent raises
``LLMError`` after ``max_consecutive_failures`` requests in a row that fail to connect or time
out. An answer (usable or not) resets the count, an HTTP error status neither counts nor resets
it, and the error names the endpoint only in its operator's text, without credentials."""

from __future__ import annotations

import pickle
import socket
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the mock server is imported as tests._llm_mock
    sys.path.insert(0, str(ROOT))

from agents import make_agent  # noqa: E402
from agents.base import SeatView  # noqa: E402
from agents.llm import LLMAgent, LLMError, public_url  # noqa: E402
from smuggle_envs import make_game  # noqa: E402
from tests._llm_mock import MockLLM, Reply  # noqa: E402

SLOW = Reply("1", delay=1.0)  # never waited for: the tests' timeout is 0.2 s


@pytest.fixture(autouse=True)
def _no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _view(seed: int = 0) -> SeatView:
    state = make_game("ciq_v0").new_initial_state(seed)
    return SeatView(state, state.current_player())


def _agent(spec: str) -> LLMAgent:
    agent = make_agent(spec, make_game("ciq_v0"), seed=7)
    assert isinstance(agent, LLMAgent)
    return agent


def dead_port() -> int:
    """A loopback port where nothing listens (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_option_is_read_and_checked():
    assert _agent("llm:model=m;base_url=http://127.0.0.1:9/v1").max_consecutive_failures == 3
    assert _agent("llm:model=m;max_consecutive_failures=5").max_consecutive_failures == 5
    for bad in ("0", "-2"):
        with pytest.raises(ValueError, match=r"max_consecutive_failures must be a whole number of at least 1"):
            _agent(f"llm:model=m;max_consecutive_failures={bad}")
    with pytest.raises(ValueError, match=r"bad value 'many' for max_consecutive_failures"):
        _agent("llm:model=m;max_consecutive_failures=many")
    with pytest.raises(ValueError, match=r"at least 1, got 2.5"):
        LLMAgent(model="m", max_consecutive_failures=2.5)


def test_a_dead_endpoint_raises_after_k_failures_across_decisions_and_games():
    port = dead_port()
    spec = f"llm:model=m;base_url=http://user:s3cret@127.0.0.1:{port}/v1;max_retries=0;timeout=2;fallback=first"
    agent = _agent(spec + ";max_consecutive_failures=3")
    view = _view()
    assert agent.act_in(view) == view.legal_actions()[0]  # failures 1 and 2: the fallback plays
    agent.reset(1)  # a new game keeps the count: the server is the same
    assert agent.act_in(view) == view.legal_actions()[0]
    assert [r["error"].split(":")[0] for r in agent.take_records()] == ["APIConnectionError"]
    with pytest.raises(LLMError, match=r"did not answer 3 requests in a row for model 'm'") as info:
        agent.act_in(view)
    error = info.value
    assert error.endpoint == f"http://127.0.0.1:{port}/v1/"  # without the credentials
    assert str(port) not in str(error)  # str() is what the browser app may show a client
    assert error.operator_message().endswith(f"(endpoint http://127.0.0.1:{port}/v1/)")
    assert "s3cret" not in error.operator_message()
    copy = pickle.loads(pickle.dumps(error))  # as a tournament's worker process sends it
    assert (str(copy), copy.endpoint) == (str(error), error.endpoint)


def test_one_decision_raises_when_its_retries_reach_k():
    spec = f"llm:model=m;base_url=http://127.0.0.1:{dead_port()}/v1;max_retries=5;timeout=2"
    with pytest.raises(LLMError, match=r"did not answer 2 requests in a row"):
        _agent(spec + ";max_consecutive_failures=2").act_in(_view())


def test_timeouts_count_and_an_answer_resets_the_count():
    view = _view()
    with MockLLM([SLOW, "1"] * 3) as llm:
        agent = _agent(llm.spec(timeout=0.2, max_retries=1, max_consecutive_failures=2))
        for _ in range(3):  # each decision: a timeout, then a good answer that resets the count
            assert agent.act_in(view) == view.legal_actions()[0]
    assert len(llm.requests) == 6
    with MockLLM([SLOW, SLOW]) as llm:
        agent = _agent(llm.spec(timeout=0.2, max_retries=5, max_consecutive_failures=2))
        with pytest.raises(LLMError, match=r"did not answer 2 requests in a row.*Timeout"):
            agent.act_in(view)
    assert len(llm.requests) == 2


def test_a_bad_answer_plays_the_fallback_and_resets_the_count():
    view = _view()
    with MockLLM([SLOW, SLOW, "nonsense", SLOW, SLOW, "2"]) as llm:
        agent = _agent(llm.spec(timeout=0.2, max_retries=5, max_consecutive_failures=3))
        assert agent.act_in(view) == view.legal_actions()[1]
    [record] = agent.take_records()
    assert (record["retries"], record["parse_failures"], record["fallback"]) == (5, 1, None)
    with MockLLM([SLOW, "nonsense"] * 2) as llm:  # no usable answer at all: the fallback, no error
        agent = _agent(llm.spec(timeout=0.2, max_retries=1, max_consecutive_failures=2, fallback="first"))
        assert agent.act_in(view) == agent.act_in(view) == view.legal_actions()[0]
    assert [r["fallback"] for r in agent.take_records()] == ["first", "first"]


def test_an_http_error_status_neither_counts_nor_resets():
    view = _view()
    with MockLLM([Reply(status=503)] * 3 + ["3"]) as llm:
        agent = _agent(llm.spec(max_retries=3, max_consecutive_failures=1))
        assert agent.act_in(view) == view.legal_actions()[2]
    with MockLLM([SLOW, Reply(status=503), SLOW]) as llm:
        agent = _agent(llm.spec(timeout=0.2, max_retries=5, max_consecutive_failures=2))
        with pytest.raises(LLMError, match=r"did not answer 2 requests in a row"):
            agent.act_in(view)
    assert len(llm.requests) == 3


def test_a_refusal_names_the_endpoint_only_for_the_operator():
    with MockLLM([Reply(status=401)]) as llm:
        agent = _agent(llm.spec())
        with pytest.raises(LLMError, match=r"refused model 'mock' \(HTTP 401\)") as info:
            agent.act_in(_view())
    assert llm.base_url not in str(info.value)
    assert info.value.operator_message().endswith(f"(endpoint {llm.base_url}/)")


def test_public_url_drops_credentials_query_and_fragment():
    url = "https://alice:pw@api.example.com:8443/v1?api_key=k#frag"
    assert public_url(url) == "https://api.example.com:8443/v1"
    assert public_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"
