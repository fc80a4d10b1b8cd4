"""Matches between agents: building a lineup from agent specs, playing games with the seats
rotated, tallying each agent's results.

Everything here is deterministic for a fixed seed: game ``g`` of a match uses seed ``seed + g``
and seats the lineup rotated by ``g`` (seat ``s`` is played by ``lineup[(s + g) % n]``), and each
agent is reset by ``agents.arena.play_game`` from the game seed and its seat.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO, TypeVar

from agents import AGENT_KINDS, make_agent
from agents.arena import play
from agents.base import Agent
from smuggle_envs.core.game import Game, State

from .errors import UsageError, os_error_text
from .gamelog import GameLog
from .stats import format_table, wilson_interval, win_shares

try:  # the progress bar is optional (the train extra)
    from tqdm import tqdm
except ImportError:  # pragma: no cover - tqdm is installed wherever the tests run
    tqdm = None

T = TypeVar("T")


# ----- agents ------------------------------------------------------------------------------------
def _missing_reason(kind: str, game: Game) -> str | None:
    """Why the known agent ``kind`` has no implementation for ``game`` yet (None if it has)."""
    table = AGENT_KINDS[kind]
    target = table.get(game.env_id, table.get("*"))
    if target is None:
        return f"no {kind!r} agent exists for {game.env_id}"
    module = target.split(":")[0]
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise  # the bot exists but one of its imports is missing
        return f"the {kind!r} agent for {game.env_id} ({target}) is not available yet"
    return None


def build_agent(
    spec: str, game: Game, seed: int | None = None, warn: Callable[[str], None] | None = None
) -> tuple[Agent, str]:
    """Build the agent ``spec`` for ``game``; returns ``(agent, label)``.

    A known kind that has no implementation for this game yet (no table entry, or its module is
    not written yet) falls back to ``random`` with a warning; the label then reads
    ``"rule->random"`` so results never pretend a missing bot played. An unknown kind, or one
    that cannot be built (a model file that is missing, a folder or not a model, an argument the
    kind does not take), raises ``UsageError`` with the reason on one line.
    """
    kind = spec.split(":", 1)[0]
    if kind not in AGENT_KINDS:
        raise UsageError(f"unknown agent {spec!r}; known kinds are {', '.join(sorted(AGENT_KINDS))}")
    reason = _missing_reason(kind, game)
    if reason is None:
        try:
            return make_agent(spec, game, seed=seed), spec
        except AttributeError as exc:  # module present but the class not (yet) defined
            reason = f"the {kind!r} agent for {game.env_id} could not be built ({exc})"
        except (OSError, ValueError) as exc:  # e.g. ppo:PATH with a missing or broken model file
            text = os_error_text(exc) if isinstance(exc, OSError) else str(exc)
            raise UsageError(f"cannot build agent {spec!r} for {game.env_id}: {text}") from None
    if warn is not None:
        warn(f"warning: {reason}; using 'random' in its place")
    return make_agent("random", game, seed=seed), f"{spec}->random"


def parse_lineup(text: str | None, num_players: int | None, default_players: int) -> list[str]:
    """Agent specs for every seat from ``"rule,random,..."``.

    With no text the lineup is ``rule`` then ``random`` for the other seats (``num_players`` of
    them, else the game's ``default_players``). One spec fills every seat. With no player
    count, the number of specs sets it.
    """
    if text is None:
        n = default_players if num_players is None else num_players
        return ["rule"] + ["random"] * (n - 1)
    specs = [s.strip() for s in text.split(",")]
    if any(not s for s in specs):
        raise UsageError(f"--agents {text!r} has an empty entry; write e.g. rule,random,random,random")
    if num_players is None:
        return specs
    if len(specs) == 1:
        return specs * num_players
    if len(specs) != num_players:
        raise UsageError(
            f"--agents names {len(specs)} agents but --players is {num_players}; "
            f"give one agent per seat, or a single agent for every seat"
        )
    return specs


def lineup_for_game(lineup: Sequence[T], g: int) -> list[T]:
    """Seat ``s`` of game ``g`` is played by ``lineup[(s + g) % n]``."""
    n = len(lineup)
    return [lineup[(s + g) % n] for s in range(n)]


def build_lineup(
    specs: Sequence[str], game: Game, seed: int, warn: Callable[[str], None] | None = None
) -> tuple[list[Agent], list[str]]:
    """The agents of ``specs`` (``build_agent``, seeded ``seed * 1000 + i``) and their labels."""
    agents: list[Agent] = []
    labels: list[str] = []
    for i, spec in enumerate(specs):
        agent, label = build_agent(spec, game, seed=seed * 1000 + i, warn=warn)
        agents.append(agent)
        labels.append(label)
    return agents, labels


# ----- results -----------------------------------------------------------------------------------
@dataclass
class AgentRecord:
    """Results of one agent (one lineup label) over seat-games."""

    name: str
    games: int = 0
    wins: float = 0.0  # a win shared by k players counts 1/k
    score_sum: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

    def add(self, score: float, win_share: float) -> None:
        self.games += 1
        self.wins += win_share
        self.score_sum += score


def results_table(records: Sequence[AgentRecord]) -> str:
    """The results table: per agent games, wins, win rate with a 95% Wilson interval, mean score."""
    rows = []
    for r in records:
        lo, hi = wilson_interval(r.wins, r.games)
        wins = f"{r.wins:.2f}".rstrip("0").rstrip(".") if r.wins != int(r.wins) else str(int(r.wins))
        rows.append(
            [
                r.name,
                r.games,
                wins,
                f"{100 * r.win_rate:.1f}%",
                f"[{100 * lo:.1f}%, {100 * hi:.1f}%]",
                f"{r.mean_score:.1f}",
            ]
        )
    return format_table(["agent", "games", "wins", "win rate", "95% CI", "mean score"], rows)


# ----- matches -----------------------------------------------------------------------------------
def play_logged_game(
    game: Game, agents: Sequence[Agent], labels: Sequence[str], seed: int, out: TextIO | None = None
) -> State[Any]:
    """Play one game printing it turn by turn; returns the final state."""
    return play(game, agents, seed, observers=[GameLog(out, labels=labels)]).state


def run_match(
    game: Game, agents: Sequence[Agent], labels: Sequence[str], seed: int, games: int, progress: bool = True
) -> list[AgentRecord]:
    """Play ``games`` games with seats rotated; returns one record per distinct label, in lineup
    order. Game ``g`` uses seed ``seed + g``."""
    records: dict[str, AgentRecord] = {}
    for label in labels:
        records.setdefault(label, AgentRecord(label))
    bar = tqdm(total=games, file=sys.stderr, desc="games", unit="game", leave=False) if progress and tqdm else None
    try:
        for g in range(games):
            seat_agents = lineup_for_game(agents, g)
            seat_labels = lineup_for_game(labels, g)
            driver = play(game, seat_agents, seed + g)
            scores = driver.state.scores()
            # a truncated game has no winner: it counts for the scores, not for the wins
            shares = win_shares(scores) if driver.terminated else [0.0] * len(scores)
            for p, share in enumerate(shares):
                records[seat_labels[p]].add(scores[p], share)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return list(records.values())
