"""An agent that asks a large language model for its moves, over any OpenAI-compatible
chat-completions endpoint (OpenAI, vLLM, llama.cpp's server, Ollama, LM Studio, ...), through
the official ``openai`` client (the ``llm`` extra: ``pip install -e '.[llm]'``).

Spec (the agents' option syntax, ``key=value`` pairs separated by ``;``; ``model`` is required)::

    llm:model=qwen2.5-7b;base_url=http://127.0.0.1:8000/v1;temperature=0.2;max_retries=2;timeout=30

``model``        the model name the endpoint serves (required)
``base_url``     the endpoint (default: the client's, ``OPENAI_BASE_URL`` or OpenAI's own)
``temperature``  sampling temperature (default 0)
``max_retries``  further attempts after an unusable answer or a failed request (default 2)
``timeout``      seconds one request may take (default 30)
``api_key_env``  the environment variable holding the API key (default ``OPENAI_API_KEY``; when
                 that default is unset a placeholder is sent, which local servers accept; a
                 variable named here must be set)
``system``       the system prompt, URL-escaped (``%3B`` for ``;``, ``%2C`` for ``,``, ``%20``
                 for a space); default: the game's rules brief and how to answer
``fallback``     ``random`` (default), ``first`` or ``rule``: the move played after
                 ``max_retries`` retries still left no usable answer
``seed``         sent with every request (servers that honour it sample reproducibly)
``max_tokens``   most tokens of one answer (default: the server's)
``history``      most log lines of the game so far in each prompt (default 40; 0: none)
``max_consecutive_failures``
                 requests in a row that may fail to connect or time out before the agent
                 raises :class:`LLMError` (default 3; at least 1): a dead endpoint stops the game

Each decision is one conversation: the system prompt, then the seat's view of the table and its
numbered legal actions (``smuggle_envs.text``). An answer that names no legal action is answered
with the parser's reason and asked again; a timeout, a lost connection, a 408/409/429 or a 5xx
counts a retry too. A 401, 403 or 404 raises :class:`LLMError` at once (a wrong key, model or
URL: playing the fallback for a whole tournament would hide it); another 4xx (e.g. a prompt too
long) plays the fallback at once. A decision with one legal action is played without asking.

The fallback covers one bad answer, not a dead server: ``max_consecutive_failures`` requests in a
row that fail to connect or time out (counted across decisions and games) raise
:class:`LLMError`. An answer, usable or not, resets the count; an HTTP error status (a 5xx, a 429)
neither counts nor resets it.

Every asked decision is recorded as a plain dict (``take_records()``): the messages, the answer,
the action, the token counts the endpoint reported, the latency, retries, parse failures, the
fallback played and the last error. The tournament runner stores them with the game.
"""

from __future__ import annotations

import json
import os
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .base import SeededAgent

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

    from smuggle_envs.core.game import Game

    from .base import SeatView

FALLBACKS = ("random", "first", "rule")
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
NO_KEY = "not-needed"  # the client refuses to start without a key; local servers ignore it
INSTALL_HINT = "pip install -c constraints.txt -e '.[llm]'"
ANSWER_FORMAT = (
    "Each turn you see the table as your seat sees it and a numbered list of your legal actions. "
    "Answer with the number of the action you choose and nothing else."
)
FATAL_STATUS = (401, 403, 404)  # a wrong key, model or URL: no retry or fallback can fix it
RETRY_STATUS = (408, 409, 429)  # and every 5xx: the endpoint may answer next time


class LLMError(RuntimeError):
    """The endpoint refused the agent's requests for good (a wrong key, model or URL) or stopped
    answering (``max_consecutive_failures`` connection failures or timeouts in a row).

    ``str()`` leaves the endpoint out: the browser app shows the message to clients, who never
    see the operator's endpoint. ``endpoint`` is the URL without credentials, query or fragment,
    and ``operator_message()`` the message with it, for the command line."""

    def __init__(self, message: str, endpoint: str | None = None):
        super().__init__(message)
        self.endpoint = endpoint

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled whole (a tournament's worker processes): the default keeps ``args`` alone.
        return (type(self), (str(self), self.endpoint))

    def operator_message(self) -> str:
        """The message with the endpoint it concerns, for the operator's command line."""
        return f"{self} (endpoint {self.endpoint})" if self.endpoint else str(self)


def public_url(url: str) -> str:
    """``url`` without what may be secret: the user and password, the query and the fragment."""
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


@dataclass
class _Call:
    """The bookkeeping of one decision: its conversation and what each attempt cost."""

    messages: list[dict[str, str]]
    answer: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latencies: list[float] = field(default_factory=list)
    retries: int = 0
    parse_failures: int = 0
    error: str | None = None

    def add_usage(self, usage: Any) -> None:
        """Sum the token counts an answer reports (none reported: stays None)."""
        if usage is None:
            return
        for name in ("prompt_tokens", "completion_tokens"):
            value = getattr(usage, name, None)
            if isinstance(value, int):
                setattr(self, name, (getattr(self, name) or 0) + value)


def _positive(name: str, value: float, allow_zero: bool = False) -> None:
    if isinstance(value, bool) or not (value >= 0 if allow_zero else value > 0):
        raise ValueError(f"{name} must be {'non-negative' if allow_zero else 'positive'}, got {value!r}")


def _count(name: str, value: int) -> None:
    if isinstance(value, bool) or not (isinstance(value, int) and value >= 1):
        raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")


def _require_openai() -> None:
    """A one-line error, early, when the ``openai`` client is not installed (it is imported
    here, not at the top: the rest of the library needs nothing new)."""
    try:
        import openai  # noqa: F401
    except ImportError:
        raise ValueError(f"the llm agent needs the openai package (the llm extra): {INSTALL_HINT}") from None


def _api_key(api_key_env: str | None) -> str:
    """The key from the environment: a variable the spec names must be set; the default one may
    be unset (a local server needs no key)."""
    if api_key_env is None:
        return os.environ.get(DEFAULT_API_KEY_ENV) or NO_KEY
    key = os.environ.get(api_key_env)
    if not key:
        raise ValueError(f"api_key_env={api_key_env}: the environment variable {api_key_env} is not set")
    return key


class LLMAgent(SeededAgent):
    """Plays by asking a chat model (see the module docstring for the options)."""

    name = "llm"
    OPTIONS: dict[str, Any] = {
        "model": str,
        "base_url": str,
        "temperature": float,
        "max_retries": int,
        "timeout": float,
        "api_key_env": str,
        "system": str,
        "fallback": FALLBACKS,
        "seed": int,
        "max_tokens": int,
        "history": int,
        "max_consecutive_failures": int,
    }
    # The ``seed`` option is the requests' sampling seed; the constructor's ``seed`` is the
    # agent's own (the fallback's randomness), given by ``make_agent``.
    OPTION_KWARGS = {"seed": "request_seed"}
    LEADING_OPTION = "model"  # "llm:MODEL;base_url=..." names the model first, without "model="

    def __init__(
        self,
        game: Game | None = None,
        seed: int | None = None,
        *,
        model: str | None = None,
        base_url: str | None = None,
        temperature: float = 0.0,
        max_retries: int = 2,
        timeout: float = 30.0,
        api_key_env: str | None = None,
        system: str | None = None,
        fallback: str = "random",
        request_seed: int | None = None,
        max_tokens: int | None = None,
        history: int = 40,
        max_consecutive_failures: int = 3,
    ):
        super().__init__(seed)
        if not model:
            raise ValueError("the llm agent needs a model: llm:MODEL[;base_url=URL;...] (or llm:model=MODEL;...)")
        if fallback not in FALLBACKS:
            raise ValueError(f"fallback must be one of {', '.join(FALLBACKS)}, got {fallback!r}")
        _positive("temperature", temperature, allow_zero=True)
        _positive("max_retries", max_retries, allow_zero=True)
        _positive("timeout", timeout)
        _positive("history", history, allow_zero=True)
        _count("max_consecutive_failures", max_consecutive_failures)
        if max_tokens is not None:
            _positive("max_tokens", max_tokens)
        _require_openai()
        self.game = game
        self.model = model
        self.base_url = base_url
        self.temperature = float(temperature)
        self.max_retries = int(max_retries)
        self.timeout = float(timeout)
        self.system = None if system is None else urllib.parse.unquote(system)
        self.fallback = fallback
        self.request_seed = request_seed
        self.max_tokens = max_tokens
        self.history = int(history)
        self.max_consecutive_failures = max_consecutive_failures
        self._failures = 0  # requests in a row that failed to connect or timed out, across decisions
        self._api_key = _api_key(api_key_env)
        self._seed = seed
        self._client: Any = None  # made on first use: no connection is opened before a fork
        self._fallback_bot: Any = None
        self._logs: dict[int, Any] = {}  # seat -> its SeatLog of the game in play
        self._default_systems: dict[str, str] = {}  # the game (env id, config) -> its default system prompt
        self.records: list[dict[str, Any]] = []
        # Asked between attempts: True plays the fallback at once (a server whose table ended
        # or whose time budget ran out sets it, as for the search bots).
        self.stop: Callable[[], bool] | None = None

    # ----- the agent protocol -----------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new game: new seat logs; records not taken by now (the last game's) are dropped,
        so that an agent nobody asks for its records holds one game's at most."""
        super().reset(seed)
        if seed is not None:
            self._seed = seed
        self._logs = {}
        self.records = []
        self._fallback_bot = None  # rebuilt from the new seed

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise TypeError(
            "LLMAgent reads its seat's table as text: ask it through agents.base.decide "
            "(it implements act_in(view)), not act(observation, mask)"
        )

    def take_records(self) -> list[dict[str, Any]]:
        """The records of the decisions asked since the last call (or reset), and forget them."""
        records, self.records = self.records, []
        return records

    def act_in(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        from smuggle_envs.text import SeatLog

        log = self._logs.get(view.player)
        if log is None:
            log = self._logs[view.player] = SeatLog(view.game, view.player)
        obs = view.text(log, history=self.history)
        call = _Call([{"role": "system", "content": self._system(view.game)}, {"role": "user", "content": obs.prompt}])
        action = self._ask(call, obs)
        fallback = None
        if action is None:
            fallback = self.fallback
            action = self._fallback_move(view, legal)
        self.records.append(self._record(view, call, action, fallback))
        return action

    # ----- asking -----------------------------------------------------------------------------
    def _system(self, game: Game) -> str:
        if self.system is not None:
            return self.system
        config = game.config.to_dict()
        key = json.dumps([game.env_id, config], sort_keys=True, default=str)
        prompt = self._default_systems.get(key)
        if prompt is None:  # made once a game: the brief reads the rules page and the game's cards
            from smuggle_envs.text import rules_brief

            brief = rules_brief(game.env_id, **config)
            prompt = self._default_systems[key] = f"{brief}\n\n{ANSWER_FORMAT}"
        return prompt

    def _ask(self, call: _Call, obs: Any) -> int | None:
        """The action of the first usable answer in ``1 + max_retries`` attempts, else None."""
        from smuggle_envs.text import parse_action

        for attempt in range(self.max_retries + 1):
            if attempt:
                if self.stop is not None and self.stop():
                    call.error = "stopped: the decision's time budget ran out"
                    return None
                call.retries += 1
            answer, retry = self._complete(call)
            if answer is None:
                if not retry:
                    return None
                continue
            call.answer = answer
            parsed = parse_action(answer, obs.legal, obs.texts)
            if parsed.action is not None:
                return int(parsed.action)
            call.parse_failures += 1
            call.messages += [
                {"role": "assistant", "content": answer},
                {"role": "user", "content": _reprompt(parsed.reason, len(obs.legal))},
            ]
        return None

    def _complete(self, call: _Call) -> tuple[str | None, bool]:
        """One request: ``(answer, _)``, or ``(None, retry)`` after an error, recorded in ``call``
        (``retry``: whether another attempt may help). Raises LLMError for a refusal for good, or
        for the ``max_consecutive_failures``-th connection failure or timeout in a row."""
        import openai

        kwargs: dict[str, Any] = {"model": self.model, "messages": call.messages, "temperature": self.temperature}
        if self.request_seed is not None:
            kwargs["seed"] = self.request_seed
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        start = time.perf_counter()
        try:
            response = self._openai().chat.completions.create(**kwargs)
        except openai.APIStatusError as exc:
            call.latencies.append(time.perf_counter() - start)
            return None, self._refused(call, exc)
        except openai.APIConnectionError as exc:  # a timeout (APITimeoutError) too
            call.latencies.append(time.perf_counter() - start)
            call.error = f"{type(exc).__name__}: {_short(str(exc))}"
            self._failures += 1
            if self._failures >= self.max_consecutive_failures:
                raise LLMError(
                    f"the model endpoint did not answer {self._failures} request{'s' if self._failures != 1 else ''} in a row for model "
                    f"{self.model!r} (connection failures or timeouts; last: {call.error}); is the "
                    "server running, and is base_url right?",
                    self._endpoint(),
                ) from None
            return None, True  # a timeout or a lost connection: the next attempt may pass
        except openai.APIResponseValidationError as exc:  # an answer, garbled: the server is up
            call.latencies.append(time.perf_counter() - start)
            call.error = f"{type(exc).__name__}: {_short(str(exc))}"
            self._failures = 0
            return None, True
        call.latencies.append(time.perf_counter() - start)
        self._failures = 0
        call.add_usage(getattr(response, "usage", None))
        choices = getattr(response, "choices", None) or []
        content = choices[0].message.content if choices else None
        return ("" if content is None else str(content)), True

    def _refused(self, call: _Call, exc: Any) -> bool:
        """Record an HTTP error status; whether another attempt may help. Raises LLMError for a
        401, 403 or 404. (A status neither counts toward nor resets the connection failures.)"""
        status = exc.status_code
        body = exc.body  # the server's error object, when it sent one: its message alone
        text = body.get("message") if isinstance(body, dict) and isinstance(body.get("message"), str) else None
        call.error = f"HTTP {status}: {_short(text or exc.message)}"
        if status in FATAL_STATUS:
            raise LLMError(
                f"the model endpoint refused model {self.model!r} (HTTP {status}); check model, base_url "
                "and the API key",
                self._endpoint(),
            ) from None
        return bool(status in RETRY_STATUS or status >= 500)

    def _endpoint(self) -> str:
        """The URL the requests go to, without credentials (the client's default if no base_url)."""
        return public_url(str(self._openai().base_url))

    def _openai(self) -> Any:
        if self._client is None:
            import openai

            # The client's own retries are off: this agent counts and records every attempt.
            self._client = openai.OpenAI(
                api_key=self._api_key, base_url=self.base_url, max_retries=0, timeout=self.timeout
            )
        return self._client

    # ----- the fallback and the record --------------------------------------------------------
    def _fallback_move(self, view: SeatView, legal: tuple[int, ...]) -> int:
        if self.fallback == "first":
            return legal[0]
        if self.fallback == "rule":
            if self._fallback_bot is None:
                from . import make_agent

                self._fallback_bot = make_agent("rule", view.game, seed=self.rng.getrandbits(63))
            return int(self._fallback_bot.act(view.observation(), view.legal_action_mask()))
        return legal[self.rng.randrange(len(legal))]

    def _record(self, view: SeatView, call: _Call, action: int, fallback: str | None) -> dict[str, Any]:
        return {
            "seat": view.player,
            "step": view.step(),
            "agent_seed": self._seed,
            "model": self.model,
            "messages": call.messages,
            "answer": call.answer,
            "action": action,
            "prompt_tokens": call.prompt_tokens,
            "completion_tokens": call.completion_tokens,
            "latency_s": sum(call.latencies),
            "latencies": call.latencies,
            "retries": call.retries,
            "parse_failures": call.parse_failures,
            "fallback": fallback,
            "error": call.error,
        }


def _reprompt(reason: str, actions: int) -> str:
    """The follow-up to an answer that names no legal action: why, and how to answer."""
    return f"That answer cannot be played: {reason}. Answer with the number of your action (1 to {actions}) only."


def _short(text: str, limit: int = 300) -> str:
    """An error text on one line, cut to ``limit`` characters (a server may answer a whole page)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


__all__ = ["FALLBACKS", "LLMAgent", "LLMError"]
