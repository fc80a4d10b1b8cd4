"""What a client may ask of ``smuggle serve``: the seat specs it may name, and how much work.

A client names an agent for each bot seat, but it chooses only among what the operator allowed,
and never a file: the server trusts nothing a client sends.

==================  =====================================================================
seat spec           what it is, and its bounds
==================  =====================================================================
``human``           a person (their seat's link)
``rule``            the game's rule-based bot
``random``          uniform over the legal actions
``zoo[:ENV[@N]]``   a model shipped with the package (``agents/zoo``), checked by checksum
``ppo:NAME``        a model the operator listed at start-up (``--models DIR``: ``NAME`` is a
``ppo_argmax:NAME`` file's stem there), sampled or played argmax; never a path
``ismcts:OPTS``     the search bot: ``sims``, ``sims`` x ``worlds`` and ``leaf_batch`` at most
``pimc:OPTS``       ``max_sims``, depths at most ``max_depth``, ``seconds`` at most ``bot_seconds``
``llm:NAME``        a language model the operator listed at start-up (``--llm [NAME=]SPEC``:
                    ``NAME`` defaults to the spec's model); never its endpoint or key
``agent:NAME``      an agent from outside the library the operator listed at start-up
                    (``--agent NAME=SPEC``: a ``py:module:Name`` spec or an installed
                    package's kind); a client never names a ``py:`` spec or a kind itself
==================  =====================================================================

Every bot decision also has a wall-clock budget (``bot_seconds``): a search past it (or whose
table ended) stops between iterations and plays its best move so far. A client (by address)
may have at most ``max_bot_tables`` tables with bots in play at once, and the server at most
``max_tables`` tables in play; a table without a move for ``table_idle_minutes`` is closed, so
that an abandoned one stops counting (0: never).

Refusals are 422s that name the spec's kind and what is allowed, never a path on the server.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import TableError

log = logging.getLogger("smuggle.web")

SPEC_LIMIT = 200  # characters of one seat spec
MAX_FACTOR = 100.0  # exploration constants and margins a client may set (they cost no work)
MODEL_SUFFIXES = (".zip", ".npz")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_ZOO_ARG = re.compile(r"([a-z0-9_]{1,40}(@[0-9]{1,2})?)?")
SIMPLE_KINDS = ("rule", "random")
SEARCH_KINDS = ("ismcts", "pimc")
MODEL_KINDS = ("ppo", "ppo_argmax")
LLM_KIND = "llm"
OFFER_KIND = "agent"  # agent:NAME, an operator's --agent offer


@dataclass(frozen=True)
class ServeLimits:
    """The operator's bounds on what clients may ask (``smuggle serve`` options)."""

    bot_seconds: float = 5.0  # wall-clock budget of one bot decision
    max_sims: int = 400  # search iterations (ismcts sims; pimc worlds x sims) per decision
    max_depth: int = 1000  # the tree and playout depth caps a client may set (max_depth, rollout_depth)
    max_bot_tables: int = 8  # tables with bots in play per client address
    max_tables: int = 200  # tables in play on the server
    table_idle_minutes: float = 120.0  # a table without a move for this long is closed (0: never)
    models: dict[str, Path] = field(default_factory=dict)  # name -> model file, from --models DIR
    llms: dict[str, str] = field(default_factory=dict)  # name -> the operator's llm: spec, from --llm
    agents: dict[str, str] = field(default_factory=dict)  # name -> the operator's py:/plugin spec, from --agent

    def __post_init__(self) -> None:
        if not 0 < self.bot_seconds <= 3600:
            raise ValueError(f"the bot time budget must be from 0 to 3600 seconds, got {self.bot_seconds:g}")
        for name in ("max_sims", "max_depth", "max_bot_tables", "max_tables"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0 <= self.table_idle_minutes <= 525600:  # a year
            raise ValueError(f"--table-idle-minutes must be from 0 (never) to 525600, got {self.table_idle_minutes:g}")

    def specs(self) -> list[str]:
        """Example seat specs for the lobby, one per kind a client may choose."""
        examples = ["human", "rule", "random", "ismcts:sims=50", "pimc:worlds=10;sims=2", "zoo"]
        offers = [f"ppo:{name}" for name in sorted(self.models)] + [f"llm:{name}" for name in sorted(self.llms)]
        return examples + offers + [f"{OFFER_KIND}:{name}" for name in sorted(self.agents)]

    def public(self) -> dict[str, Any]:
        """What ``/api/envs`` tells clients (names only, no paths)."""
        return {
            "bot_seconds": self.bot_seconds,
            "max_sims": self.max_sims,
            "max_depth": self.max_depth,
            "max_bot_tables": self.max_bot_tables,
            "table_idle_minutes": self.table_idle_minutes,
            "models": sorted(self.models),
            "llms": sorted(self.llms),
            "agents": sorted(self.agents),
        }


def models_in(folder: str | Path) -> dict[str, Path]:
    """The models an operator offers: every ``.zip`` / ``.npz`` file directly in ``folder``,
    by file stem. Raises ValueError for a folder that is missing or holds none."""
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"--models {str(folder)!r} is not a folder")
    found = {p.stem: p.resolve() for p in sorted(path.iterdir()) if p.suffix in MODEL_SUFFIXES and p.is_file()}
    bad = [name for name in found if not _NAME.fullmatch(name)]
    if bad:
        raise ValueError(f"--models: model names must be letters, digits, '_', '.', '-': {bad[0]!r}")
    if not found:
        raise ValueError(f"--models {str(folder)!r} holds no .zip or .npz model")
    return found


def llm_offers(texts: list[str]) -> dict[str, str]:
    """The language models an operator offers (``--llm [NAME=]SPEC``, repeatable): name -> spec.
    Each spec is checked now (its options, a ``model``, the ``openai`` client installed, a named
    key variable set) by building it for no game; ``NAME`` defaults to the spec's model. Raises
    ValueError on one line for a bad spec or a name given twice."""
    from agents import parse_options
    from agents.llm import LLMAgent

    offers: dict[str, str] = {}
    for text in texts:
        name, eq, spec = text.partition("=")
        if not eq or name.startswith(f"{LLM_KIND}:"):  # no NAME=: the whole text is the spec
            name, spec = "", text
        if not spec.startswith(f"{LLM_KIND}:"):
            raise ValueError(f"--llm {text!r}: give an llm: spec, e.g. llm:model=NAME;base_url=URL")
        options = parse_options(spec, spec.partition(":")[2], LLMAgent.OPTIONS)
        LLMAgent(**{LLMAgent.OPTION_KWARGS.get(k, k): v for k, v in options.items()})  # fails as make_agent would
        name = name or str(options["model"])
        if not _NAME.fullmatch(name):
            raise ValueError(
                f"--llm {text!r}: the name {name!r} must be letters, digits, '_', '.', '-'; give NAME=SPEC"
            )
        if name in offers:
            raise ValueError(f"--llm: the name {name!r} is given twice; give each spec its own NAME=SPEC")
        offers[name] = spec
    return offers


def agent_offers(texts: list[str]) -> dict[str, str]:
    """The outside agents an operator offers (``--agent NAME=SPEC``, repeatable): name -> spec,
    where SPEC is a ``py:module:Name[;key=value...]`` spec or the kind an installed package adds
    (``smuggle_envs.agents`` entry points). Its code is the operator's choice, run on the server:
    a client only ever names the offer. Raises ValueError on one line for a bad text."""
    from agents import PLUGIN_KINDS

    offers: dict[str, str] = {}
    for text in texts:
        name, eq, spec = text.partition("=")
        kind = spec.partition(":")[0]
        if not eq or not spec:
            raise ValueError(f"--agent {text[:40]!r}: give NAME=SPEC, e.g. mine=py:my_pkg.agents:MyAgent")
        if kind != "py" and kind not in PLUGIN_KINDS:
            installed = ", ".join(sorted(PLUGIN_KINDS)) or "none installed"
            raise ValueError(f"--agent {name[:40]!r}: SPEC is a py:module:Name spec or an installed kind ({installed})")
        if not _NAME.fullmatch(name):
            raise ValueError(f"--agent {name[:40]!r}: the name must be letters, digits, '_', '.', '-'")
        if name in offers:
            raise ValueError(f"--agent: the name {name!r} is given twice")
        offers[name] = spec
    return offers


def check_spec(spec: object, limits: ServeLimits, seat: int | None = None) -> str:
    """``spec`` if a client may ask for it under ``limits``, else a 422 saying what is allowed
    (naming the seat, never echoing the spec: it may be a path). The agent itself is built
    later (``build``); this checks form and bounds only."""
    where = "a seat" if seat is None else f"seat {seat}"
    if not isinstance(spec, str) or not spec.strip():
        raise TableError(422, f"{where} must be 'human' or an agent spec (a non-empty string)")
    spec = spec.strip()
    if len(spec) > SPEC_LIMIT:
        raise TableError(422, f"{where}: a seat spec has at most {SPEC_LIMIT} characters")
    kind, colon, arg = spec.partition(":")
    if kind in ("human", *SIMPLE_KINDS):
        if colon:
            raise TableError(422, f"{where}: '{kind}' takes no argument")
    elif kind == "zoo":
        if not _ZOO_ARG.fullmatch(arg):
            raise TableError(422, f"{where}: write zoo, zoo:ENV_ID or zoo:ENV_ID@PLAYERS")
    elif kind in MODEL_KINDS:
        if arg not in limits.models:
            offered = ", ".join(sorted(limits.models)) or "none (the operator listed no --models)"
            raise TableError(422, f"{where}: {kind} takes the name of a model this server offers: {offered}")
    elif kind in SEARCH_KINDS:
        _check_search(where, kind, arg, limits)
    elif kind == LLM_KIND:
        if arg not in limits.llms:  # a client names an offer, never an endpoint or a key
            offered = ", ".join(sorted(limits.llms)) or "none (the operator listed no --llm)"
            raise TableError(422, f"{where}: llm takes the name of a language model this server offers: {offered}")
    elif kind == OFFER_KIND:
        if arg not in limits.agents:
            offered = ", ".join(sorted(limits.agents)) or "none (the operator listed no --agent)"
            raise TableError(422, f"{where}: agent takes the name of an agent this server offers: {offered}")
    else:
        allowed = ", ".join(["human", *SIMPLE_KINDS, "zoo", *MODEL_KINDS, *SEARCH_KINDS, LLM_KIND, OFFER_KIND])
        raise TableError(422, f"{where}: not an agent this server offers; choose {allowed}")
    return spec


def _check_search(where: str, kind: str, arg: str, limits: ServeLimits) -> None:
    from agents import parse_options
    from agents.search import ISMCTSAgent, PIMCAgent

    cls = ISMCTSAgent if kind == "ismcts" else PIMCAgent
    try:
        options = parse_options(kind, arg, cls.OPTIONS)
    except ValueError as exc:
        raise TableError(422, f"{where}: {str(exc).split(': ', 1)[-1]}") from None
    default = cls()
    sims = options.get("sims", default.sims) * options.get("worlds", getattr(default, "worlds", 1))
    if sims > limits.max_sims:
        raise TableError(422, f"{where}: at most {limits.max_sims} simulations per decision here")
    # A batch of leaves runs whole before the clock is looked at again: bounded like the sims.
    if options.get("leaf_batch", 1) > limits.max_sims:
        raise TableError(422, f"{where}: leaf_batch is at most {limits.max_sims} here")
    for name in ("max_depth", "rollout_depth", "value_playout"):
        if options.get(name, 0) > limits.max_depth:
            raise TableError(422, f"{where}: {name} is at most {limits.max_depth} here")
    for name in ("prior", "value"):  # a network in the search: the zoo's, never a file a client names
        if str(options.get(name, "")).startswith("ppo:"):
            raise TableError(422, f"{where}: {name}=ppo:PATH is not offered here; use {name}=zoo")
    for name in ("c", "margin"):
        if not options.get(name, 0.0) <= MAX_FACTOR:
            raise TableError(422, f"{where}: {name} is at most {MAX_FACTOR:g} here")
    if not options.get("seconds", 0.0) <= limits.bot_seconds:
        raise TableError(422, f"{where}: seconds is at most {limits.bot_seconds:g} here")


def build(spec: str, game: Any, seed: int, limits: ServeLimits) -> tuple[Any, str]:
    """The bot for an allowed ``spec`` (checked again here) and its label. A model name is
    turned into its file only now, on the server; a failure to load says so without the path.
    ``seed`` is ``table seed * 1000 + seat``."""
    from agents import make_agent

    spec = check_spec(spec, limits, seed % 1000)
    kind, _, arg = spec.partition(":")
    target = f"{kind}:{limits.models[arg]}" if kind in MODEL_KINDS else spec
    if kind == LLM_KIND:
        target = limits.llms[arg]
    elif kind == OFFER_KIND:
        target = limits.agents[arg]
    try:
        agent = make_agent(target, game, seed=seed)
    except (OSError, ValueError, AttributeError, TypeError, ImportError) as exc:
        log.warning("seat agent %s could not be built: %s", spec, exc)
        what = (
            f"model {arg!r}"
            if kind in (*MODEL_KINDS, LLM_KIND)
            else f"agent {arg!r}"
            if kind == OFFER_KIND
            else f"{kind!r}"
        )
        raise TableError(
            422, f"seat {seed % 1000}: {what} cannot play {game.env_id} at {game.num_players} players"
        ) from None
    reset = getattr(agent, "reset", None)
    if reset is not None:
        reset(seed)
    return agent, spec


__all__ = ["ServeLimits", "agent_offers", "build", "check_spec", "llm_offers", "models_in"]
