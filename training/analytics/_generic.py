"""The analysis of a game without a plugin of its own in ``training/analytics/``: it says so and
counts each agent's decisions."""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence

from smuggle_envs.core.spec import GameSpec
from training.stats import format_table

from ._common import canvas, money, rate, save_figure


class GenericAnalysis:
    """For a game without a hidden-information analyser yet: says so, and counts each agent's
    decisions."""

    title = "decisions"

    def __init__(self, names: Sequence[str], env_id: str = ""):
        self.env_id = env_id
        self.names = list(names)
        self.games = 0
        self.decisions = {n: 0 for n in self.names}
        self.seat_games = {n: 0 for n in self.names}

    def add_game(self, spec: GameSpec, seed: int, actions: Sequence[int], seating: Sequence[str]) -> None:
        self.games += 1
        state = spec.make_game().new_initial_state(seed)
        for name in seating:
            self.decisions.setdefault(name, 0)
            self.seat_games[name] = self.seat_games.get(name, 0) + 1
        for action in actions:
            self.decisions[seating[state.current_player()]] += 1
            state.apply_action(action)

    def text(self) -> str:
        rows = [
            [n, self.seat_games.get(n, 0), self.decisions[n], money(rate(self.decisions[n], self.seat_games.get(n, 0)))]
            for n in self.decisions
        ]
        return f"no hidden-information analysis exists for {self.env_id} yet; decisions per agent:\n\n" + format_table(
            ["agent", "games", "decisions", "per game"], rows
        )

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["agent", "games", "decisions"])
            for n in self.decisions:
                w.writerow([n, self.seat_games.get(n, 0), self.decisions[n]])

    def plot(self, path: str | os.PathLike[str], title: str = "") -> None:
        fig = canvas(6, 4)
        ax = fig.add_subplot(1, 1, 1)
        names = list(self.decisions)
        ax.bar(range(len(names)), [rate(self.decisions[n], self.seat_games.get(n, 0)) or 0 for n in names])
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=30, ha="right")
        ax.set_ylabel("decisions per game")
        ax.set_title(title or f"{self.env_id}: decisions")
        save_figure(fig, path)
