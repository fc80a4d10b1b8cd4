"""A rule-based Illegal player that reads only its observation and action mask.

``IllegalRuleAgent`` prices every legal choice in Euros with a few plain rules and takes the best.
It never touches the ``State``: every fact comes from ``game.observation_layout`` pieces, read by
name (its hand, the tables, hassles, hand sizes, the card being resolved and its target).

| Decision                 | What the bot does                                                     |
|--------------------------|-----------------------------------------------------------------------|
| the turn's play          | first any free extra: a legal business (the bonus card), three        |
|                          | Paranoia cards discarded, the Magnum on a costly hassle of its own.   |
|                          | Then the best-priced play: Market Open when it has none; a business   |
|                          | (its value); a takeover (the best business it can take, more from the |
|                          | leader); a Solution or Relatives that clears its own hassle; a hassle |
|                          | on the richest opponent it hurts; a Paranoia card once it costs less  |
|                          | on the table than in hand; Day of Accounting when it leads by         |
|                          | ``accounting_margin``. Nothing worth playing: discard the least       |
|                          | useful card (``keep_value``).                                         |
| extras, end of turn      | the legal business if one is left, Paranoia triples, then ends.       |
| targets                  | hassles and takeovers at the opponent with most on the table (Raid at |
|                          | illegal businesses, Protection Money at any); Solutions on itself.    |
| business to take / lose  | takes the most valuable, loses the cheapest.                          |
| Bribe payment            | the cheapest business card in hand.                                   |
| card passed left         | the costliest Paranoia card, else the least useful card.              |
| Magnum reaction          | stops a takeover of one of its own businesses worth at least          |
|                          | ``magnum_min_value``; removes a Raid / Protection Money just put on   |
|                          | it when that much is at stake; otherwise lets it happen.              |
| trading                  | never offers; accepts a trade when what it gets is worth more to it   |
|                          | than what it gives (never takes a Paranoia card).                     |

Randomness (ties only) comes from the agent's own ``random.Random``, seeded by ``seed``/``reset``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import RuleAgent, legal_of
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.actions import (
    ACCOUNTING,
    ALIBI,
    BRIBE,
    BUSINESS_KINDS,
    DEATH,
    DEBRIS,
    FIRST_BUSINESS,
    FIRST_HASSLE,
    INFORMANT,
    LEGAL_KINDS,
    LOAN_SHARK,
    MAGNUM,
    MARKET,
    MISTER_ZERO,
    NUM_BUSINESSES,
    NUM_HASSLES,
    NUM_ILLEGAL,
    NUM_KINDS,
    PARANOIA_KINDS,
    RELATIVES,
    TAKEOVER,
    WHITE_COAT,
)
from smuggle_envs.games.illegal.vocab import (
    EXTRA,
    H_PROTECTION,
    H_RAID,
    H_TAX,
    H_VACATION,
    LOSE,
    PASS,
    PAY,
    PLAY,
    REACT,
    TAKE,
    TARGET,
    TRADE_ANSWER,
    TRADE_GIVE,
    TRADE_PARTNER,
    TRADE_WANT,
)

if TYPE_CHECKING:
    from smuggle_envs.games.illegal.game import IllegalGame

ENV_ID = "illegal_v0"
"""The game this bot plays: ``agents.rule`` files ``AGENT`` under it."""

SOLVES = {INFORMANT: H_RAID, MISTER_ZERO: H_PROTECTION, WHITE_COAT: H_TAX, ALIBI: H_VACATION}
TURN_VALUE = 8000  # what a turn of play is worth, roughly


class IllegalRuleAgent(RuleAgent):
    """Euro-priced rules over the public table and its own hand; see the module docstring."""

    name = "rule"
    env_id = ENV_ID

    def __init__(
        self,
        game: IllegalGame,
        seed: int | None = None,
        *,
        accounting_margin: int = 20_000,
        magnum_min_value: int = 5000,
    ) -> None:
        super().__init__(game, seed)
        self.accounting_margin = accounting_margin
        self.magnum_min_value = magnum_min_value
        self.counts = np.asarray(game.kind_counts, np.float64)
        self.values = tuple(game.data.values)
        self.penalties = tuple(game.data.penalties)
        self.biz_values = np.asarray([self.values[FIRST_BUSINESS + b] for b in range(NUM_BUSINESSES)], np.float64)

    # ----- Agent protocol ----------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal: list[int] = legal_of(action_mask).tolist()
        if len(legal) == 1:
            return legal[0]
        v = self._read(observation)
        phase = v["phase"]
        if phase in (PLAY, EXTRA):
            choice = self._play(v, set(legal), main=phase == PLAY)
        elif phase == TARGET:
            choice = self._target(v, legal)
        elif phase == TAKE:
            choice = max(legal, key=lambda a: self.biz_values[a - A.TAKE])
        elif phase == LOSE:
            choice = min(legal, key=lambda a: self.biz_values[a - A.LOSE])
        elif phase == PAY:
            choice = min(legal, key=lambda a: self.biz_values[a - A.PAY])
        elif phase == PASS:
            choice = min(legal, key=lambda a: self._keep_value(v, a - A.PASS_CARD))
        elif phase == REACT:
            choice = self._react(v, set(legal))
        elif phase == TRADE_GIVE and A.NO_TRADE in legal:
            choice = A.NO_TRADE
        elif phase == TRADE_ANSWER:
            choice = self._answer(v, set(legal))
        elif phase in (TRADE_GIVE, TRADE_WANT, TRADE_PARTNER):
            choice = A.DONE if A.DONE in legal else legal[0]
        else:
            choice = legal[0]
        assert choice in legal, (phase, choice, legal)
        return int(choice)

    # ----- reading the observation ----------------------------------------------------------
    def _read(self, obs: np.ndarray) -> dict[str, Any]:
        s, n = self._slices, self.n

        def hot(name: str) -> int:
            piece = obs[s[name]]
            return int(np.argmax(piece)) if piece.any() else -1

        hassle = obs[s["hassle"]].reshape(n, NUM_HASSLES)
        table = np.rint(
            obs[s["table"]].reshape(n, NUM_BUSINESSES) * self.counts[FIRST_BUSINESS : FIRST_BUSINESS + NUM_BUSINESSES]
        )
        return {
            "phase": hot("phase"),
            "hand": np.rint(obs[s["my_hand"]] * self.counts).astype(int),
            "market": obs[s["market"]] > 0,
            "hassle": [int(np.argmax(h)) if h.any() else -1 for h in hassle],
            "table": table,
            "worth": table @ self.biz_values,  # businesses on each table
            "illegal_worth": table[:, :NUM_ILLEGAL] @ self.biz_values[:NUM_ILLEGAL],
            "deck": float(obs[s["deck"]][0]) * self.counts.sum(),
            "card": hot("card"),
            "target": hot("target"),
            "business": hot("business"),
            "window": hot("window"),
            "magnum": bool(obs[s["magnum"]][0]),
            "bonus_used": bool(obs[s["slots"]][1]),
            "give": np.rint(obs[s["trade_give"]] * self.counts).astype(int),
            "want": np.rint(obs[s["trade_want"]] * self.counts).astype(int),
        }

    # ----- the turn --------------------------------------------------------------------------
    def _play(self, v: dict[str, Any], legal: set[int], main: bool) -> int:
        v["hand"]
        # Free extras first: they cost no play.
        for k in (DEBRIS, LOAN_SHARK, DEATH):
            if A.TRIPLE + k in legal:
                return A.TRIPLE + k
        legal_business = [k for k in LEGAL_KINDS if A.PLAY + k in legal]
        if legal_business and (not main or not v["bonus_used"]):
            return A.PLAY + max(legal_business, key=lambda k: self.values[k])
        own = v["hassle"][0]
        if (
            A.PLAY + MAGNUM in legal
            and own in (H_RAID, H_PROTECTION)
            and self._at_stake(v, own) >= self.magnum_min_value
        ):
            return A.PLAY + MAGNUM
        if not main:
            return A.END_TURN
        best, best_value = None, 0.0
        for a in legal:
            if a >= A.DISCARD:
                continue
            value = self._play_value(v, a - A.PLAY)
            if value > best_value:
                best, best_value = a, value
        if best is not None:
            return best
        discards = [a for a in legal if A.DISCARD <= a < A.TRIPLE]
        if discards:
            return min(discards, key=lambda a: (self._keep_value(v, a - A.DISCARD), a))
        return min(legal)

    def _play_value(self, v: dict[str, Any], k: int) -> float:
        n, hand, _worth = self.n, v["hand"], v["worth"]
        own = v["hassle"][0]
        others = list(range(1, n))
        if k == MARKET:
            return 1e6
        if k == ACCOUNTING:
            return 1e7 if self._leads(v) else 0.0
        if k in BUSINESS_KINDS:
            return float(self.values[k])
        if k in PARANOIA_KINDS:
            loss = self._paranoia_loss(v, k)
            turns = 1 if k == DEATH else 2
            gain = self.penalties[k] - loss - turns * TURN_VALUE * (v["deck"] > 20)
            return gain if loss < self.penalties[k] / 2 else 0.0
        if k in (TAKEOVER, RELATIVES):
            takeable = [worth_max for q in others if v["market"][q] and (worth_max := self._best(v, q)) > 0]
            value = 2.0 * max(takeable, default=0.0)
            if k == RELATIVES and own >= 0:
                value += self._hassle_cost(v, 0, own)
            return value
        if k in SOLVES:
            return self._hassle_cost(v, 0, own) if own == SOLVES[k] else 0.0
        if k == BRIBE:
            cheapest = min((self.values[b] for b in BUSINESS_KINDS if hand[b]), default=0)
            return self._hassle_cost(v, 0, own) - cheapest if own >= 0 else 0.0
        if k == MAGNUM:
            return 0.0  # kept for takeovers; played as a free extra on a costly hassle
        if FIRST_HASSLE <= k < FIRST_HASSLE + NUM_HASSLES:
            h = k - FIRST_HASSLE
            damage = [self._hassle_cost(v, q, h) for q in others if v["market"][q] and v["hassle"][q] < 0]
            return 0.6 * max(damage, default=0.0)
        return 0.0

    def _leads(self, v: dict[str, Any]) -> bool:
        """Ending now wins: my accounting beats every other table by the margin."""
        hand = v["hand"]
        mine: float = v["worth"][0] - sum(hand[k] * self.penalties[k] for k in PARANOIA_KINDS)
        mine -= max((self.values[k] for k in BUSINESS_KINDS if hand[k]), default=0)
        richest_other: float = max(v["worth"][1:])
        return mine >= richest_other + self.accounting_margin

    def _paranoia_loss(self, v: dict[str, Any], k: int) -> float:
        table = v["table"][0]
        held: list[float] = [self.biz_values[b] for b in range(NUM_BUSINESSES) for _ in range(int(table[b]))]
        if not held:
            return 0.0
        if k == DEATH:
            return min(held)
        if k == LOAN_SHARK:
            return max(held)
        return float(sum(held))

    def _best(self, v: dict[str, Any], q: int) -> float:
        table = v["table"][q]
        return max((self.biz_values[b] for b in range(NUM_BUSINESSES) if table[b]), default=0.0)

    def _at_stake(self, v: dict[str, Any], h: int) -> float:
        table = v["table"][0]
        if h == H_RAID:
            held = [self.biz_values[b] for b in range(NUM_ILLEGAL) if table[b]]
        else:
            held = [self.biz_values[b] for b in range(NUM_BUSINESSES) if table[b]]
        return min(held, default=0.0)

    def _hassle_cost(self, v: dict[str, Any], q: int, h: int) -> float:
        """Roughly what hassle ``h`` costs seat ``q`` (Euros): businesses lost, plays blocked."""
        if h < 0:
            return 0.0
        table = v["table"][q]
        if h == H_RAID:
            lost = [self.biz_values[b] for b in range(NUM_ILLEGAL) if table[b]]
            return 2 * min(lost) + TURN_VALUE if lost else 0.0
        if h == H_PROTECTION:
            lost = [self.biz_values[b] for b in range(NUM_BUSINESSES) if table[b]]
            return 2 * min(lost) + TURN_VALUE if lost else 0.0
        if h == H_TAX:
            return 1.2 * TURN_VALUE
        worth: float = v["worth"][q]
        return 2 * TURN_VALUE + 0.05 * worth  # Vacation: nothing can be built

    def _keep_value(self, v: dict[str, Any], k: int) -> float:
        """How much the bot wants to keep a card (lowest goes first)."""
        if k in PARANOIA_KINDS:
            return -float(self.penalties[k])  # pass these on first
        if k == MARKET:
            return 50_000.0 if not v["market"][0] else 0.0
        if k == ACCOUNTING:
            return 4000.0
        if k in BUSINESS_KINDS:
            return float(self.values[k]) + 1000.0
        if k == MAGNUM:
            return 40_000.0
        if k in (TAKEOVER, RELATIVES):
            return 20_000.0
        if k == BRIBE:
            return 9000.0
        if k in SOLVES:
            present = SOLVES[k] == v["hassle"][0]
            return 15_000.0 if present else 1500.0 + 500 * (SOLVES[k] in v["hassle"])
        return 5000.0  # hassles

    # ----- targets, reactions, trades --------------------------------------------------------
    def _target(self, v: dict[str, Any], legal: list[int]) -> int:
        k = v["card"]
        offsets = [a - A.TARGET for a in legal]
        if v["magnum"] or k in SOLVES or k == BRIBE:
            if 0 in offsets:  # its own hassle
                return A.TARGET
            return A.TARGET + min(offsets, key=lambda o: (v["worth"][o], o))  # help the poorest
        key: Callable[[int], tuple[float, ...]]
        if FIRST_HASSLE <= k < FIRST_HASSLE + NUM_HASSLES:
            h = k - FIRST_HASSLE
            key = lambda o: (self._hassle_cost(v, o, h) + 0.1 * v["worth"][o], -o)
        elif k in (TAKEOVER, RELATIVES):
            key = lambda o: (self._best(v, o), v["worth"][o], -o)
        else:  # a trade partner
            key = lambda o: (v["worth"][o], -o)
        return A.TARGET + max(offsets, key=key)

    def _react(self, v: dict[str, Any], legal: set[int]) -> int:
        on_me = v["target"] == 0
        if (
            A.CANCEL in legal
            and on_me
            and v["business"] >= 0
            and self.biz_values[v["business"]] >= self.magnum_min_value
        ):
            return A.CANCEL
        if A.PLAY + MAGNUM in legal and on_me and v["window"] == 1:
            h = v["hassle"][0]
            if h in (H_RAID, H_PROTECTION) and self._at_stake(v, h) >= self.magnum_min_value:
                return A.PLAY + MAGNUM
        return A.LET_PASS

    def _answer(self, v: dict[str, Any], legal: set[int]) -> int:
        if A.ACCEPT not in legal:
            return A.DECLINE
        get = [k for k in range(NUM_KINDS) for _ in range(v["give"][k])]
        give = [k for k in range(NUM_KINDS) for _ in range(v["want"][k])]
        if any(k in PARANOIA_KINDS for k in get):
            return A.DECLINE
        gain = sum(self._keep_value(v, k) for k in get) - sum(self._keep_value(v, k) for k in give)
        return A.ACCEPT if gain > 0 else A.DECLINE


AGENT = IllegalRuleAgent
"""The rule bot of ``ENV_ID``, built as ``AGENT(game, seed=seed)`` by ``make_agent("rule", game)``."""
