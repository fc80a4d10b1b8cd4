"""Matches between agents: building lineups, logging a game turn by turn, tallying results.

Everything here is deterministic for a fixed seed: game ``g`` of a match uses seed ``seed + g``
and seats the lineup rotated by ``g`` (seat ``s`` is played by ``lineup[(s + g) % n]``), and each
agent is reset by ``agents.arena.play_game`` from the game seed and its seat.

The table helpers (``format_table``, ``results_table``, ``wilson_interval``) know nothing about
matches, so tournaments and evaluations can reuse them.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO

DEFAULT_ENV = "smuggle_v0"
DEFAULT_GAMES = 300


class UsageError(Exception):
    """A bad command-line request (the CLI prints it on one line and exits with code 2)."""


# ----- agents ------------------------------------------------------------------------------------
def build_agent(
    spec: str, game, seed: int | None = None, warn: Callable[[str], None] | None = None
) -> tuple[object, str]:
    """Build the agent ``spec`` for ``game``; returns ``(agent, label)``.

    A known kind that has no implementation for this game yet (no table entry, or its module is
    not written yet) falls back to ``random`` with a warning; the label then reads
    ``"rule->random"`` so results never pretend a missing bot played. An unknown kind raises
    ``UsageError``.
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
    rows = [[str(c) for c in row] for row in rows]
    align = align or "l" + "r" * (len(headers) - 1)
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


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


def _round_key(state):
    """A marker that changes when a new round starts, if the game exposes one."""
    return getattr(state, "rounds_played", None)


class GameLog:
    """Prints a game one decision per line, with the score changes each decision caused, and the
    whole table at the start, at every new round (or every ``table_every`` decisions for games
    without rounds) and at the end.

    Call ``step(state, player, action, who)`` before each action is applied (as
    ``play_game``'s ``on_step`` does) and ``finish(state)`` once at the end.
    """

    def __init__(self, out: TextIO | None = None, table_every: int = 50):
        self.out = out
        self.table_every = table_every
        self.count = 0
        self._pending = None

    def _print(self, text: str = "") -> None:
        print(text, file=self.out if self.out is not None else sys.stdout)

    def _table(self, state, title: str) -> None:
        self._print(f"--- {title} (all cards shown) ---")
        self._print(state.render())

    def step(self, state, player: int, action: int, who: str | None = None) -> None:
        self.flush(state)
        if self.count == 0:
            self._table(state, "start")
        self.count += 1
        self._pending = (
            self.count,
            player,
            who,
            state.action_to_string(action),
            list(state.scores()),
            _round_key(state),
        )

    def flush(self, state) -> None:
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
            if round_now != round_before:
                self._table(state, f"round {round_now + 1}")
        elif self.table_every and n % self.table_every == 0:
            self._table(state, f"after {n} decisions")

    def finish(self, state) -> None:
        self.flush(state)
        if self.count == 0:
            self._table(state, "start")
        self._table(state, "end")
        self._print(final_summary(state))


def final_summary(state, labels: Sequence[str] | None = None) -> str:
    scores = state.scores()
    parts = []
    for p, s in enumerate(scores):
        who = f" ({labels[p]})" if labels else ""
        parts.append(f"P{p}{who} {fmt_num(s)}")
    best = max(scores)
    won = [f"P{p}" + (f" ({labels[p]})" if labels else "") for p, s in enumerate(scores) if s == best]
    verb = "winner" if len(won) == 1 else "shared win"
    status = "" if state.is_terminal() else " (game unfinished)"
    return f"final scores: {', '.join(parts)}\n{verb}: {', '.join(won)} with {fmt_num(best)}{status}"


# ----- matches -----------------------------------------------------------------------------------
def lineup_for_game(lineup: Sequence, g: int) -> list:
    """Seat ``s`` of game ``g`` is played by ``lineup[(s + g) % n]``."""
    n = len(lineup)
    return [lineup[(s + g) % n] for s in range(n)]


def build_lineup(
    specs: Sequence[str], game, seed: int, warn: Callable[[str], None] | None = None
) -> tuple[list, list[str]]:
    agents, labels = [], []
    for i, spec in enumerate(specs):
        agent, label = build_agent(spec, game, seed=seed * 1000 + i, warn=warn)
        agents.append(agent)
        labels.append(label)
    return agents, labels


def play_logged_game(game, agents: Sequence, labels: Sequence[str], seed: int, out: TextIO | None = None):
    """Play one game printing it turn by turn; returns the final state."""
    from agents.arena import play_game

    log = GameLog(out)
    state = play_game(game, agents, seed, on_step=lambda st, p, a: log.step(st, p, a, labels[p]))
    log.finish(state)
    return state


def run_match(
    game, agents: Sequence, labels: Sequence[str], seed: int, games: int, progress: bool = True
) -> list[AgentRecord]:
    """Play ``games`` games with seats rotated; returns one record per distinct label, in lineup
    order. Game ``g`` uses seed ``seed + g``."""
    from agents.arena import play_game

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
            state = play_game(game, seat_agents, seed + g)
            scores = state.scores()
            for p, share in enumerate(win_shares(scores)):
                records[seat_labels[p]].add(scores[p], share)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return list(records.values())
