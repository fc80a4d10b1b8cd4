"""Matches between agents: building lineups, logging a game turn by turn, tallying results.

Everything here is deterministic for a fixed seed: game ``g`` of a match uses seed ``seed + g``
and seats the lineup rotated by ``g`` (seat ``s`` is played by ``lineup[(s + g) % n]``), and each
agent is reset by ``agents.arena.play_game`` from the game seed and its seat.

The table helpers (``format_table``, ``results_table``, ``wilson_interval``) know nothing about
matches, so tournaments and evaluations can reuse them.

The command-line plumbing every ``smuggle`` subcommand shares lives here too, below the CLI
modules so that none imports another: ``UsageError``, ``run_command`` (the one place that turns
errors into one line and an exit code) and the checks of the files and folders a command writes
(``writable_dir``, ``check_writable_file``), made before any work is done.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

if TYPE_CHECKING:
    from agents.base import Agent
    from smuggle_envs.core.driver import Driver
    from smuggle_envs.core.game import Game, State

T = TypeVar("T")
DEFAULT_ENV = "smuggle_v0"
DEFAULT_GAMES = 300


class UsageError(Exception):
    """An error the user can act on: the command line prints ``smuggle: error: MESSAGE`` on one
    line, no traceback, and exits with ``code``: 2 (the default) for a bad request (an unknown
    name, a bad option, a missing or unusable file, a folder it cannot write to), 1 for a run that
    failed part-way (what it finished is kept, and the message says where)."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


PROG = "smuggle"


def warn(message: str) -> None:
    """A one-line notice on stderr, ``smuggle: MESSAGE``."""
    print(f"{PROG}: {message}", file=sys.stderr)


def warn_once() -> Callable[[str], None]:
    """A warning printer that prints each distinct message once (e.g. one missing bot, many seats)."""
    seen: set[str] = set()

    def once(message: str) -> None:
        if message not in seen:
            seen.add(message)
            warn(message)

    return once


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The parsed arguments, or the exit code where argparse already printed help, the
    version or a usage error."""
    try:
        return parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)


def run_command(args: argparse.Namespace, prog: str) -> int:
    """Run the subcommand ``args.func(args)``; returns its exit code. The one place where errors
    become one line ``PROG: error: MESSAGE`` on stderr, no traceback: ``UsageError`` (its code;
    a code-0 message goes to stdout), ``ConfigError`` (2), an ``OSError`` or database failure
    under a running command (1); Ctrl-C is 130, a closed output pipe a quiet 1."""
    import sqlite3

    from smuggle_envs.core.errors import ConfigError

    def error(message: str) -> None:
        print(f"{prog}: error: {' '.join(message.split())}", file=sys.stderr)

    try:
        return int(args.func(args))
    except ConfigError as exc:
        error(str(exc))
        return 2
    except UsageError as exc:
        if exc.code:
            error(str(exc))
        else:
            print(str(exc))
        return exc.code
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. 'smuggle match | head': stop quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:  # a file or folder that failed under a running command (full disk...)
        error(os_error_text(exc))
        return 1
    except sqlite3.DatabaseError as exc:  # a database that failed under a running command
        if isinstance(exc, (sqlite3.ProgrammingError, sqlite3.IntegrityError)):
            raise  # a bug, not the user's database
        error(f"database error: {exc}")
        return 1


# ----- files the commands read and write ---------------------------------------------------------
def os_error_text(exc: OSError) -> str:
    """An ``OSError`` as a short reason: ``"PATH: Permission denied"`` (no errno), or the message
    of one raised with a message of its own."""
    if not exc.strerror:
        return str(exc)
    names = [os.fsdecode(n) if isinstance(n, bytes) else str(n) for n in (exc.filename, exc.filename2) if n is not None]
    return ": ".join([" -> ".join(names), exc.strerror] if names else [exc.strerror])


def _file_in_the_way(path: Path) -> Path | None:
    """The nearest of ``path`` and its ancestors that exists, if it is not a folder (a file where
    a folder is needed); None otherwise."""
    for p in (path, *path.parents):
        if p.exists():
            return None if p.is_dir() else p
    return None


def unwritable_reason(folder: str | os.PathLike[str]) -> str | None:
    """Why no file can be created in the existing folder ``folder`` (None if one can). Probes
    with a nameless temporary file (``O_TMPFILE`` on Linux): nothing is left there."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def writable_dir(path: str | os.PathLike[str], what: str, hint: str = "") -> Path:
    """Create the folder ``path`` if it is missing and check that files can be written in it,
    before any work is done; ``UsageError("cannot write to WHAT PATH: REASON; HINT")`` if not."""
    folder = Path(path)
    blocker = _file_in_the_way(folder)
    reason: str | None
    if blocker is not None:
        reason = "it is a file, not a folder" if blocker == folder else f"{blocker} is a file, not a folder"
    else:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or str(exc)
        else:
            reason = unwritable_reason(folder)
    if reason is not None:
        raise UsageError(f"cannot write to {what} {path}: {reason}" + (f"; {hint}" if hint else ""))
    return folder


def check_writable_file(path: str | os.PathLike[str], what: str) -> None:
    """Check, before any work is done, that the file ``path`` can be written (its folder exists
    and takes new files, it is not a folder); ``UsageError`` naming ``what`` and the reason if not."""
    file = Path(path)
    folder = file.parent
    blocker = _file_in_the_way(folder)
    reason: str | None = None
    if file.is_dir():
        reason = "it is a folder"
    elif blocker is not None:
        reason = f"{blocker} is a file, not a folder"
    elif not folder.is_dir():
        reason = f"the folder {folder} does not exist"
    elif file.exists():
        if not os.access(file, os.W_OK):
            reason = "Permission denied"
    else:
        reason = unwritable_reason(folder)
    if reason is not None:
        raise UsageError(f"cannot write {what} {path}: {reason}")


# ----- agents ------------------------------------------------------------------------------------
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
    import importlib

    from agents import AGENT_KINDS, make_agent

    kind = spec.split(":", 1)[0]
    if kind not in AGENT_KINDS:
        raise UsageError(f"unknown agent {spec!r}; known kinds are {', '.join(sorted(AGENT_KINDS))}")
    table = AGENT_KINDS[kind]
    target = table.get(game.env_id, table.get("*"))
    reason = None
    if target is None:
        reason = f"no {kind!r} agent exists for {game.env_id}"
    else:
        module = target.split(":")[0]
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise  # the bot exists but one of its imports is missing
            reason = f"the {kind!r} agent for {game.env_id} ({target}) is not available yet"
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

    With no text the lineup is ``rule`` then ``random`` for the other seats. One spec fills
    every seat. With no player count, the number of specs sets it.
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


# ----- statistics and tables ---------------------------------------------------------------------
def wilson_interval(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); ``wins`` may be fractional."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return lo, hi


def format_table(headers: Sequence[str], rows: Iterable[Sequence[object]], align: str | None = None) -> str:
    """A plain-text table; ``align`` has one letter per column, ``l`` or ``r`` (default: the first
    column left, the rest right)."""
    cells = [[str(c) for c in row] for row in rows]
    align = align or "l" + "r" * (len(headers) - 1)
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(texts: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(texts, widths, align)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])


def fmt_num(x: float) -> str:
    """A score for printing: whole numbers without decimals."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


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


def win_shares(scores: Sequence[float]) -> list[float]:
    best = max(scores)
    k = sum(1 for s in scores if s == best)
    return [1.0 / k if s == best else 0.0 for s in scores]


# ----- turn-by-turn logs -------------------------------------------------------------------------
def money_changes(before: Sequence[float], after: Sequence[float]) -> str:
    """``"P1 -300, P0 +300"``: who lost and gained score with one decision (losers first)."""
    diffs = [(p, a - b) for p, (b, a) in enumerate(zip(before, after)) if a != b]
    diffs.sort(key=lambda pd: (pd[1] > 0, pd[0]))
    return ", ".join(f"P{p} {'+' if d > 0 else '-'}{fmt_num(abs(d))}" for p, d in diffs)


def _round_key(state: State[Any]) -> int | None:
    """A marker that changes when a new round starts, if the game exposes one."""
    key = getattr(state, "rounds_played", None)
    return None if key is None else int(key)


class GameLog:  # a driver Observer (structural: importing core here would load numpy for `smuggle --help`)
    """Prints a game one decision per line, with the score changes each decision caused, and the
    whole table at the start, at every new round (or every ``table_every`` decisions for games
    without rounds) and at the end.

    ``viewer`` None prints the full view (every card shown); a seat prints only what that seat
    sees: its rendered table and every other seat's action as that seat saw it
    (``State.action_to_string(action, viewer)``), so a replay shown to a seat hides what the seat
    never saw. It is a driver observer (``labels`` names the seats); by hand, call
    ``step(state, player, action, who)`` before each action is applied and ``finish(state)`` once
    at the end.
    """

    def __init__(
        self,
        out: TextIO | None = None,
        table_every: int = 50,
        viewer: int | None = None,
        labels: Sequence[str] | None = None,
    ):
        self.out = out
        self.table_every = table_every
        self.viewer = viewer
        self.labels = labels
        self.count = 0
        # (decision number, player, who, action text, scores before, round before)
        self._pending: tuple[int, int, str | None, str, list[float], int | None] | None = None

    def _print(self, text: str = "") -> None:
        print(text, file=self.out if self.out is not None else sys.stdout)

    def _table(self, state: State[Any], title: str) -> None:
        seen = "all cards shown" if self.viewer is None else f"as P{self.viewer} sees it"
        self._print(f"--- {title} ({seen}) ---")
        self._print(state.render(self.viewer))

    # observer hooks
    def on_start(self, state: State[Any]) -> None:
        pass

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        self.step(state, player, action, self.labels[player] if self.labels else None)

    def on_end(self, state: State[Any], driver: Driver) -> None:
        self.finish(state)

    def step(self, state: State[Any], player: int, action: int, who: str | None = None) -> None:
        self.flush(state)
        if self.count == 0:
            self._table(state, "start")
        self.count += 1
        self._pending = (
            self.count,
            player,
            who,
            state.action_to_string(action, self.viewer),
            list(state.scores()),
            _round_key(state),
        )

    def flush(self, state: State[Any]) -> None:
        """Print the decision announced last, now that ``state`` shows its effect."""
        if self._pending is None:
            return
        n, player, who, text, before, round_before = self._pending
        self._pending = None
        label = f"P{player}" + (f" ({who})" if who else "")
        changes = money_changes(before, state.scores())
        self._print(f"{n:4d}  {label}: {text}" + (f"   [{changes}]" if changes else ""))
        if state.is_terminal():
            return
        round_now = _round_key(state)
        if round_before is not None:
            if round_now is not None and round_now != round_before:
                self._table(state, f"round {round_now + 1}")
        elif self.table_every and n % self.table_every == 0:
            self._table(state, f"after {n} decisions")

    def finish(self, state: State[Any]) -> None:
        self.flush(state)
        if self.count == 0:
            self._table(state, "start")
        self._table(state, "end")
        self._print(final_summary(state))


class ReplayActionError(Exception):
    """Action ``number`` (1-based) of a replay could not be applied; ``cause`` says why."""

    def __init__(self, number: int, cause: Exception):
        super().__init__(f"action {number} cannot be applied: {cause}")
        self.number = number
        self.cause = cause


def print_replay(game: Game, seed: int, actions: Sequence[int], log: GameLog) -> State[Any]:
    """Replay ``actions`` from ``seed`` through the core driver, printed by ``log`` (a full or a
    seat's view); returns the final state. A bad action raises ``ReplayActionError``."""
    from smuggle_envs.core.driver import Driver
    from smuggle_envs.core.errors import IllegalActionError, MalformedActionError

    driver = Driver(game, observers=[log])
    state = driver.reset(seed)
    for i, action in enumerate(actions):
        try:
            driver.step(action)
        except (IllegalActionError, MalformedActionError) as exc:
            log.flush(state)
            raise ReplayActionError(i + 1, exc) from None
    if not driver.done:
        log.finish(state)  # a replay that stops before the end: the driver never calls on_end
    return state


def final_summary(state: State[Any], labels: Sequence[str] | None = None) -> str:
    """Final scores and the winners, under the core's termination contract: a truncated game
    (stopped by a cap) or an unfinished one has no winner."""
    scores = state.scores()
    parts = []
    for p, s in enumerate(scores):
        who = f" ({labels[p]})" if labels else ""
        parts.append(f"P{p}{who} {fmt_num(s)}")
    text = f"final scores: {', '.join(parts)}\n"
    if not state.is_terminal():
        return text + "no winner (game unfinished)"
    if state.is_truncated():
        return text + "no winner (the game was stopped by its turn limit: truncated)"
    won = [f"P{p}" + (f" ({labels[p]})" if labels else "") for p in state.winning_seats()]
    verb = "winner" if len(won) == 1 else "shared win"
    return text + f"{verb}: {', '.join(won)} with {fmt_num(max(scores))}"


# ----- matches -----------------------------------------------------------------------------------
def lineup_for_game(lineup: Sequence[T], g: int) -> list[T]:
    """Seat ``s`` of game ``g`` is played by ``lineup[(s + g) % n]``."""
    n = len(lineup)
    return [lineup[(s + g) % n] for s in range(n)]


def build_lineup(
    specs: Sequence[str], game: Game, seed: int, warn: Callable[[str], None] | None = None
) -> tuple[list[Agent], list[str]]:
    agents: list[Agent] = []
    labels: list[str] = []
    for i, spec in enumerate(specs):
        agent, label = build_agent(spec, game, seed=seed * 1000 + i, warn=warn)
        agents.append(agent)
        labels.append(label)
    return agents, labels


def play_logged_game(
    game: Game, agents: Sequence[Agent], labels: Sequence[str], seed: int, out: TextIO | None = None
) -> State[Any]:
    """Play one game printing it turn by turn; returns the final state."""
    from agents.arena import play

    return play(game, agents, seed, observers=[GameLog(out, labels=labels)]).state


def run_match(
    game: Game, agents: Sequence[Agent], labels: Sequence[str], seed: int, games: int, progress: bool = True
) -> list[AgentRecord]:
    """Play ``games`` games with seats rotated; returns one record per distinct label, in lineup
    order. Game ``g`` uses seed ``seed + g``."""
    from agents.arena import play

    records: dict[str, AgentRecord] = {}
    for label in labels:
        records.setdefault(label, AgentRecord(label))
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=games, file=sys.stderr, desc="games", unit="game", leave=False)
        except ImportError:
            bar = None
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
