"""The opponent league: frozen snapshots of the learner, exploiters of it, the game's rule bot,
the random agent.

Opponents are sampled by **prioritised fictitious self-play** (PFSP, as in AlphaStar): the
weight of an entry is ``f(p)`` where ``p`` is the learner's recent win rate against it, so the
opponents the learner still loses to are played more often. ``p`` is a *pairwise* rate, which
makes sense at a table of any size: after each game, the learner beat an opponent seat if it
finished with more money / points (1), tied (0.5) or less (0). Results decay geometrically
(``decay`` per game against that entry), so ``p`` follows the learner as it improves, and a
prior of ``prior_games`` games at 50% gives a new snapshot a fair first share.

Weightings: ``"hard"`` f(p) = (1 - p)^2 (the default: focus on what beats us), ``"variance"``
f(p) = p (1 - p) (focus on even matches), ``"uniform"``. A ``floor`` keeps every entry in play
now and then, so a beaten opponent cannot be forgotten unnoticed. ``baseline_share`` (default
0: off) keeps at least that share of all draws for the fixed entries (rule bot and random agent)
together, split between them by their weights: as snapshots take over the pool, a learner that
only meets itself can lose what it knew against weaker, different play (CIQ's win rate against
random fell in long runs).

Snapshots are MaskablePPO zips under ``<league dir>/snapshots``, exploiters (best responses
to the learner as it was, AlphaStar's league exploiters: ``TrainConfig.exploiter_every``) under
``<league dir>/exploiters``; an entry stores the path relative to the league directory, so a
run directory can be moved. Only the newest ``max_snapshots`` snapshots and ``max_exploiters``
exploiters stay in the pool (older files stay on disk). ``save``/``load`` write the
whole league, results included, as JSON.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

WEIGHTINGS = ("hard", "variance", "uniform")
KINDS = ("snapshot", "exploiter", "rule", "random")
LEARNED = ("snapshot", "exploiter")  # entries that are MaskablePPO zips under the league directory


@dataclasses.dataclass
class Entry:
    """One opponent of the league. ``spec`` is an agent spec (see ``agents.make_agent``);
    for a snapshot it is the zip's path relative to the league directory."""

    id: str
    kind: str
    spec: str
    added_at: int = 0  # learner timesteps when the entry joined
    games: float = 0.0  # decayed count of results against this entry
    wins: float = 0.0  # decayed pairwise wins of the learner against it
    total_games: int = 0  # lifetime counts, for reports
    total_wins: float = 0.0


class League:
    def __init__(
        self,
        directory: str | os.PathLike,
        entries: Iterable[Entry] = (),
        *,
        max_snapshots: int = 6,
        max_exploiters: int = 2,
        weighting: str = "hard",
        decay: float = 0.995,
        prior_games: float = 4.0,
        floor: float = 0.02,
        baseline_share: float = 0.0,
    ):
        if not 0.0 <= baseline_share < 1.0:
            raise ValueError(f"baseline_share must be in [0, 1), got {baseline_share}")
        if weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {WEIGHTINGS}, got {weighting!r}")
        if not 0.0 < decay <= 1.0:
            raise ValueError(f"decay must be in (0, 1], got {decay}")
        if max_snapshots < 0 or max_exploiters < 0:
            raise ValueError(
                f"max_snapshots and max_exploiters must be 0 or more, got {max_snapshots}, {max_exploiters}"
            )
        self.directory = Path(directory)
        self.entries: list[Entry] = list(entries)
        self.max_snapshots = max_snapshots
        self.max_exploiters = max_exploiters
        self.weighting = weighting
        self.decay = decay
        self.prior_games = prior_games
        self.floor = floor
        self.baseline_share = baseline_share

    # ----- membership ----------------------------------------------------------------------------
    def add(self, entry: Entry) -> Entry:
        if entry.kind not in KINDS:
            raise ValueError(f"entry kind must be one of {KINDS}, got {entry.kind!r}")
        if any(e.id == entry.id for e in self.entries):
            raise ValueError(f"the league already has an entry {entry.id!r}")
        self.entries.append(entry)
        return entry

    def snapshot_path(self, step: int) -> Path:
        return self.directory / "snapshots" / f"snapshot_{step:010d}.zip"

    def add_snapshot(self, model, step: int) -> Entry:
        """Save a frozen copy of ``model`` (a MaskablePPO) and add it; retire the oldest
        snapshots beyond ``max_snapshots``."""
        path = self.snapshot_path(step)
        path.parent.mkdir(parents=True, exist_ok=True)
        model.save(path)
        return self._add_learned("snapshot", path, step, self.max_snapshots)

    def exploiter_path(self, step: int) -> Path:
        return self.directory / "exploiters" / f"exploiter_{step:010d}.zip"

    def add_exploiter(self, step: int) -> Entry:
        """Add the exploiter saved at ``exploiter_path(step)`` (a best response to the learner of
        that step); retire the oldest exploiters beyond ``max_exploiters``."""
        return self._add_learned("exploiter", self.exploiter_path(step), step, self.max_exploiters)

    def _add_learned(self, kind: str, path: Path, step: int, keep: int) -> Entry:
        entry = self.add(Entry(f"{kind}@{step}", kind, path.relative_to(self.directory).as_posix(), added_at=step))
        same = [e for e in self.entries if e.kind == kind]
        for old in same[: max(0, len(same) - keep)]:  # older files stay on disk
            self.entries.remove(old)
        return entry

    def agent_spec(self, entry: Entry) -> str:
        """The spec that builds ``entry``'s agent (snapshots resolved to an absolute path)."""
        if entry.kind in LEARNED:
            return "ppo:" + str((self.directory / entry.spec).resolve())
        return entry.spec

    def pool(self) -> list[tuple[str, str]]:
        """``(id, agent spec)`` of every entry, in league order (what the envs sample from)."""
        return [(e.id, self.agent_spec(e)) for e in self.entries]

    # ----- results and PFSP ----------------------------------------------------------------------
    def win_rate(self, entry: Entry) -> float:
        """The learner's recent pairwise win rate against ``entry``, with a 50% prior."""
        return (entry.wins + 0.5 * self.prior_games) / (entry.games + self.prior_games)

    def weights(self) -> list[float]:
        out = []
        for e in self.entries:
            p = self.win_rate(e)
            if self.weighting == "hard":
                w = (1.0 - p) ** 2
            elif self.weighting == "variance":
                w = p * (1.0 - p)
            else:
                w = 1.0
            out.append(max(w, self.floor))
        return out

    def probabilities(self) -> list[float]:
        w = self.weights()
        total = sum(w)
        p = [x / total for x in w]
        fixed = [e.kind not in LEARNED for e in self.entries]
        share = sum(x for x, f in zip(p, fixed) if f)
        if 0.0 < share < self.baseline_share and not all(fixed):
            up, down = self.baseline_share / share, (1.0 - self.baseline_share) / (1.0 - share)
            p = [x * (up if f else down) for x, f in zip(p, fixed)]
        return p

    def record(self, entry_id: str, result: float) -> None:
        """One pairwise result of the learner against ``entry_id``: 1 win, 0.5 tie, 0 loss.
        Results against entries already retired are ignored."""
        for e in self.entries:
            if e.id == entry_id:
                e.games = e.games * self.decay + 1.0
                e.wins = e.wins * self.decay + result
                e.total_games += 1
                e.total_wins += result
                return

    def record_game(self, result: dict) -> None:
        """Record a finished game as reported in ``info["selfplay"]`` by ``SelfPlayEnv``."""
        seat, scores = result["seat"], result["scores"]
        mine = scores[seat]
        for p, entry_id in enumerate(result["opponents"]):
            if entry_id is not None and p != seat:
                theirs = scores[p]
                self.record(entry_id, 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)

    def summary(self) -> list[dict]:
        probs = self.probabilities()
        return [
            {"id": e.id, "kind": e.kind, "games": e.total_games, "win_rate": self.win_rate(e), "probability": q}
            for e, q in zip(self.entries, probs)
        ]

    # ----- persistence -----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "version": 1,
            "max_snapshots": self.max_snapshots,
            "max_exploiters": self.max_exploiters,
            "weighting": self.weighting,
            "decay": self.decay,
            "prior_games": self.prior_games,
            "floor": self.floor,
            "baseline_share": self.baseline_share,
            "entries": [dataclasses.asdict(e) for e in self.entries],
        }

    @classmethod
    def from_dict(cls, directory: str | os.PathLike, data: dict) -> League:
        return cls(
            directory,
            [Entry(**e) for e in data["entries"]],
            max_snapshots=data["max_snapshots"],
            max_exploiters=data.get("max_exploiters", 2),  # leagues saved before exploiters
            weighting=data["weighting"],
            decay=data["decay"],
            prior_games=data["prior_games"],
            floor=data["floor"],
            baseline_share=data.get("baseline_share", 0.0),  # leagues saved before it existed
        )

    def save(self, path: str | os.PathLike | None = None) -> Path:
        """Write the league as JSON (atomically); default ``<directory>/league.json``."""
        path = Path(path) if path is not None else self.directory / "league.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, directory: str | os.PathLike, path: str | os.PathLike | None = None) -> League:
        directory = Path(directory)
        path = Path(path) if path is not None else directory / "league.json"
        return cls.from_dict(directory, json.loads(path.read_text(encoding="utf-8")))


def initial_entries(kinds: Sequence[str]) -> list[Entry]:
    """The fixed entries: ``"rule"`` and/or ``"random"``."""
    return [Entry(kind, kind, kind) for kind in kinds]
