"""Face-down analytics of Humble smuggle (``humble_smuggle_v0``), computed from stored replays.

Humble smuggle hides two things until the reveal: the white card each player selects face down
(step 2, "secretly"), and the kind of each black Play card attached face down to a selected card
(step 3; who attached how many where is public). The round's rule is public before the
selection (the icon of the centre card left after drafting, R3.1), so a selection can be judged
against it. There is no search or challenge in this game: every selected card is revealed, and
the rule decides alone which are discarded. Per agent:

**Selections** (its face-down white cards):
  * *selected*, *revealed*; *broke the rule*: revealed and discarded by the round's rule (they
    score nothing), *fit*: scored; break rate = broke / revealed; the tens-digit *points* of the
    cards that fit, and of those that broke (points lost);
  * *on printed values*: whether the card would have been discarded had nobody attached a Play
    card this round (the replay resolves the round without them on a copy of the state);
    *saved* by Play cards: would have broken, fit; *sunk* by Play cards: would have fit, broke;
  * by rule family (Standard, Double Up, High & Low, Symbol Up, Safe Zone): broke / revealed;
  * *never revealed*: white cards still in its hand when the replay ends, plus selections the
    game ended before revealing (a truncated game).
**Play cards** it attached face down: on its own card (and how many of those then fit), on
other players' cards (and how many of those then broke).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from smuggle_envs.core.driver import BaseObserver, Driver
from smuggle_envs.core.game import State
from smuggle_envs.core.spec import GameSpec
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.game import HumbleSmuggleGame
from smuggle_envs.games.humble_smuggle.rules import HumbleSmuggleState
from smuggle_envs.games.humble_smuggle.vocab import PLAY, RULE_FAMILIES, SELECT, rule_family

from ._common import pct, rate, replay_record
from ._report import Column, Panel, PerAgentAnalysis, Table, rate_columns, ratio

ENV_ID = "humble_smuggle_v0"
"""The game analysed: ``training.analytics.ANALYZERS`` files ``ANALYSIS`` under it."""

_family = rule_family  # a round rule's family, by the rulebook's name of its icon


@dataclass
class HumbleAgentStats:
    """One agent's counts in Humble smuggle games: face-down selections and Play cards (module
    docstring)."""

    name: str
    selected: int = 0
    revealed: int = 0
    broke: int = 0
    points_fit: int = 0
    points_lost: int = 0
    printed_broke: int = 0  # would have broken on printed values
    saved: int = 0
    sunk: int = 0
    left_in_hand: int = 0
    by_rule: dict[str, list[int]] = field(default_factory=dict)  # family -> [revealed, broke]
    # Play cards attached
    plays: int = 0
    plays_own: int = 0
    plays_own_fit: int = 0
    plays_other: int = 0
    plays_other_broke: int = 0

    @property
    def fit(self) -> int:
        return self.revealed - self.broke

    @property
    def never_revealed(self) -> int:
        return self.left_in_hand + self.selected - self.revealed

    def row(self) -> dict[str, str | float]:
        row: dict[str, str | float] = {
            "agent": self.name,
            "selected": self.selected,
            "revealed": self.revealed,
            "broke_rule": self.broke,
            "fit_rule": self.fit,
            "break_rate": rate(self.broke, self.revealed),
            "points_fit": self.points_fit,
            "points_lost": self.points_lost,
            "broke_on_printed_values": self.printed_broke,
            "saved_by_play_cards": self.saved,
            "sunk_by_play_cards": self.sunk,
            "never_revealed": self.never_revealed,
            "left_in_hand": self.left_in_hand,
        }
        for fam in RULE_FAMILIES:
            seen, broke = self.by_rule.get(fam, (0, 0))
            key = fam.lower().replace(" & ", "_").replace(" ", "_")
            row[f"revealed_{key}"] = seen
            row[f"broke_{key}"] = broke
        row.update(
            {
                "play_cards": self.plays,
                "play_cards_own": self.plays_own,
                "play_cards_own_fit": self.plays_own_fit,
                "play_cards_other": self.plays_other,
                "play_cards_other_broke": self.plays_other_broke,
            }
        )
        return row


def _printed_discards(state: HumbleSmuggleState) -> set[int]:
    """Seats whose card the round's rule would discard if nobody attached a Play card: the
    round resolved on a copy in which every seat passes at once."""
    c = state.clone()
    last = c.last
    while c.last is last:
        c.apply_action(A.PASS)
    assert c.last is not None
    return set(c.last.discarded)


def _broke_of_revealed(family: str) -> Any:
    """A getter of "broke/revealed" under the round rules of ``family``."""
    return lambda s: "{1}/{0}".format(*s.by_rule.get(family, (0, 0)))


def _break_rate(family: str) -> Any:
    """A getter of the break rate under the round rules of ``family``."""
    return lambda s: rate(s.by_rule.get(family, (0, 0))[1], s.by_rule.get(family, (0, 0))[0])


TABLES = (
    Table(
        "face-down selections: broke = discarded by the round's rule; on printed values = discarded had no "
        "Play card been attached;\nsaved / sunk = the Play cards turned a break into a fit / a fit into a "
        "break. (No searches or challenges in this game.)",
        (
            Column("selected", "selected"),
            Column("revealed", "revealed"),
            Column("broke", "broke"),
            *rate_columns("break rate", "broke", "revealed"),
            Column("fit", "fit"),
            Column("points", "points_fit"),
            Column("points lost", "points_lost"),
            Column("on printed values", "printed_broke"),
            Column("saved", "saved"),
            Column("sunk", "sunk"),
            Column("never revealed", "never_revealed"),
        ),
    ),
    Table("broke / revealed by the round's rule", tuple(Column(f, _broke_of_revealed(f)) for f in RULE_FAMILIES)),
    Table(
        "Play cards attached face down: on its own card (then fit), on others' cards (then broke)",
        (
            Column("Play cards", "plays"),
            Column("on own", "plays_own"),
            Column("own fit", "plays_own_fit"),
            Column("share", ratio("plays_own_fit", "plays_own"), pct),
            Column("on others", "plays_other"),
            Column("others broke", "plays_other_broke"),
            Column("share", ratio("plays_other_broke", "plays_other"), pct),
        ),
    ),
)

PANELS = (
    Panel(
        "selections",
        (("break rate", ratio("broke", "revealed")), ("on printed values", ratio("printed_broke", "revealed"))),
        "share",
    ),
    Panel(
        "points per revealed selection",
        (("points", ratio("points_fit", "revealed")), ("lost", ratio("points_lost", "revealed"))),
        "points",
    ),
    Panel("break rate by rule", tuple((f, _break_rate(f)) for f in RULE_FAMILIES), "share"),
    Panel(
        "Play cards",
        (
            ("own card then fit", ratio("plays_own_fit", "plays_own")),
            ("others' card then broke", ratio("plays_other_broke", "plays_other")),
        ),
        "share",
    ),
)


class HumbleSmuggleAnalysis(PerAgentAnalysis):
    """Face-down selections and Play cards of Humble smuggle games; see the module docstring."""

    title = "face_down"
    plot_title = "Humble smuggle face-down play"
    stats_class = HumbleAgentStats
    tables = TABLES
    panels = PANELS

    def add_game(self, spec: GameSpec, seed: int, actions: Sequence[int], seating: Sequence[str]) -> None:
        self.games += 1
        stats = [self._stat(name) for name in seating]
        final = cast(HumbleSmuggleState, replay_record(spec, seed, actions, [_HumbleReplay(stats)]))
        for s, hand in enumerate(final.hands):
            stats[s].left_in_hand += len(hand)


class _HumbleReplay(BaseObserver):
    """Follows one replayed Humble smuggle game: ``on_action`` sees each position before its
    decision; a reveal is noticed at the next decision (or the end) as a new ``state.last``."""

    def __init__(self, stats: list[HumbleAgentStats]):
        self.stats = stats
        self.printed: set[int] = set()  # seats that would break on printed values this round
        self.last: object = None  # the reveal record last accounted for
        self.selecting = False

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        s = cast(HumbleSmuggleState, state)
        self._check_reveal(s)
        if self.selecting and s.phase == PLAY:  # every seat has selected
            self.printed = _printed_discards(s)
        self.selecting = s.phase == SELECT
        if self.selecting:
            self.stats[player].selected += 1
        elif s.phase == PLAY and action != A.PASS:
            me = self.stats[player]
            me.plays += 1
            if (action - A.PLAY) % A.MAX_PLAYERS == 0:
                me.plays_own += 1
            else:
                me.plays_other += 1

    def on_start(self, state: State[Any]) -> None:
        self.last = cast(HumbleSmuggleState, state).last

    def on_end(self, state: State[Any], driver: Driver) -> None:
        s = cast(HumbleSmuggleState, state)
        self._check_reveal(s)
        if self.selecting and s.phase == PLAY:
            self.printed = _printed_discards(s)

    def _check_reveal(self, state: HumbleSmuggleState) -> None:
        """Account for a reveal the last decision led to (the record is a new object)."""
        last = state.last
        if last is None or last is self.last:
            return
        self.last = last
        game: HumbleSmuggleGame = state.game
        family = _family(last.rule)
        printed = self.printed
        for s, card in enumerate(last.cards):
            me, broke = self.stats[s], s in last.discarded
            me.revealed += 1
            me.broke += broke
            if broke:
                me.points_lost += game.points[card]
            else:
                me.points_fit += game.points[card]
            me.printed_broke += s in printed
            me.saved += s in printed and not broke
            me.sunk += broke and s not in printed
            seen = me.by_rule.setdefault(family, [0, 0])
            seen[0] += 1
            seen[1] += broke
            for attacher, _kind in last.attached[s]:
                other = self.stats[attacher]
                if attacher == s:
                    other.plays_own_fit += not broke
                else:
                    other.plays_other_broke += broke


ANALYSIS = HumbleSmuggleAnalysis
"""The analyser of ``ENV_ID``'s games, built as ``ANALYSIS(agent_names)``."""
