"""The teacher of an expert-iteration run: the ``--teacher`` spec (an IS-MCTS search whose
``prior`` and ``value`` may be ``student``, the student's current network), parsed, checked
once against the game, and resolved to the student's file round by round."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from smuggle_envs.core.errors import ConfigError

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game

STUDENT = "student"  # in the teacher spec: the student's current network
_NETWORK_OPTIONS = ("prior", "value")


def _or_student(parse: Any) -> Callable[[str], str]:
    """An ``ISMCTSAgent.OPTIONS`` parser that also takes ``student``."""

    def parse_with_student(text: str) -> str:
        return STUDENT if text == STUDENT else str(parse(text))

    parse_with_student.__name__ = f"{getattr(parse, '__name__', 'network')}|{STUDENT}"
    return parse_with_student


def teacher_options(teacher: str) -> dict[str, Any]:
    """The options of a ``--teacher`` spec (``ismcts:KEY=VALUE;...``, ``prior`` and ``value`` may
    be ``student``); a one-line ``ConfigError`` for anything else."""
    from agents import parse_options
    from agents.search import ISMCTSAgent

    kind, _, text = teacher.partition(":")
    if kind != "ismcts":
        raise ConfigError(
            f"--teacher {teacher!r}: the teacher is an IS-MCTS search, ismcts:KEY=VALUE;... "
            "(e.g. ismcts:prior=student;value=student;sims=100)"
        )
    options = dict(ISMCTSAgent.OPTIONS)
    for name in _NETWORK_OPTIONS:
        options[name] = _or_student(options[name])
    try:
        return parse_options(teacher, text, options)
    except ValueError as exc:
        raise ConfigError(f"--teacher: {exc}") from None


def resolve_teacher(options: dict[str, Any], student: str | None) -> dict[str, Any]:
    """The teacher's options with ``student`` replaced by ``ppo:STUDENT_PATH``."""
    out = dict(options)
    for name in _NETWORK_OPTIONS:
        if out.get(name) == STUDENT:
            if student is None:
                raise ValueError(f"the teacher's {name}=student needs the student's network")
            out[name] = f"ppo:{student}"
    return out


def check_teacher(teacher: str, game: Game) -> dict[str, Any]:
    """Parse the teacher and build it once (with ``none`` for the student's networks, which do not
    exist yet), so that a bad option or a missing fixed network fails before any work."""
    from agents.search import ISMCTSAgent

    options = teacher_options(teacher)
    probe: dict[str, Any] = {k: ("none" if v == STUDENT else v) for k, v in options.items()}
    if options.get("value") == STUDENT:
        probe.pop("value_playout", None)  # needs a value network, which the student will be
    batch = options.get("leaf_batch")
    if STUDENT in (options.get("prior"), options.get("value")) and isinstance(batch, int) and batch >= 1:
        probe.pop("leaf_batch")  # needs both networks, which the student's will be (a bad value still fails)
    try:
        ISMCTSAgent(game, seed=0, **probe)
    except ValueError as exc:
        raise ConfigError(f"--teacher {teacher!r}: {exc}") from None
    return options
