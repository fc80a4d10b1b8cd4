"""A rule-based CIQ player that reads only its observation and action mask.

``CIQRuleAgent`` plans each turn from what it sees: every card it could ship or sabotage with is
in ``my_hand``, every opponent's Import Tolerance in ``tolerance_top``, pile sizes and the Stock
in their pieces. It never touches the ``State``; every fact comes from
``game.observation_layout`` pieces, read by name. A compound move is re-planned at each of its
decisions from the same information, so the plan is followed card by card.

| Decision                   | What the bot does                                                  |
|----------------------------|--------------------------------------------------------------------|
| turn (target / first card) | for each opponent, searches the longest-paying shipment (a bounded  |
|                            | depth-first search over suit/rank chains, Jokers and one smuggled   |
|                            | card) and the best Sabotage + shipment; the value is the cards      |
|                            | moved (shipped + transferred, capped by the Stock or its own Export |
|                            | pile), weighted towards the opponent closest to winning. It hires   |
|                            | a low customs worker when that protects it more than the best move  |
|                            | pays, and draws a card otherwise.                                   |
| Sabotage                   | only when it pays: a Legal card then the highest Illegal card of    |
|                            | its suit (a face card wipes the pile), if the shipment it opens is  |
|                            | worth clearly more than shipping without it.                        |
| shipping                   | follows the best chain; stops when nothing more pays.               |
| Fire                       | fires when the smuggled card would move more cards than losing the  |
|                            | customs worker costs (its pile and the face card go to the Export   |
|                            | pile, and everything becomes Legal); gives up a Jack first.         |
| transfer from hand         | keeps Jokers, Kings, Aces, Queens and low cards; gives the rest.    |

Parameters (constructor keywords):

| name              | default | meaning                                                           |
|-------------------|---------|-------------------------------------------------------------------|
| ``leader_weight`` | 0.5     | extra weight of moves against the opponent with fewest cards      |
| ``sabotage_margin``| 2.0    | a Sabotage must add this much value over shipping without it      |
| ``hire_gain``     | 4       | lowest tolerance gain (in card values) worth a Hire               |
| ``fire_threshold``| 8.0     | fire when the smuggled card moves more than this + Tolerance size |
| ``fire_discount`` | 0.5     | expected share of a smuggled card's transfer that is not fired    |
| ``search_nodes``  | 400     | nodes of each shipment search                                     |
| ``noise``         | 0.0     | chance of a uniformly random legal action (for variety)           |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from agents.base import RuleAgent, legal_of
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.actions import CARD_BITS, JOKER, NUM_KINDS, NUM_RANKS, NUM_SUITS
from smuggle_envs.games.ciq.vocab import (
    AFTER_SABOTAGE,
    FIRE_DECISION,
    FLAG_BRIBE,
    GIVE_FROM_HAND,
    HAND_SCALE,
    JACK_RANK,
    KING_RANK,
    MAIN,
    OPEN,
    PILE_SCALE,
    QUEEN_RANK,
    SABOTAGE2,
    TOLERANCE_SCALE,
)

if TYPE_CHECKING:
    from smuggle_envs.games.ciq.game import CIQGame

ENV_ID = "ciq_v0"
"""The game this bot plays: ``agents.rule`` files ``AGENT`` under it."""

# Keeping order for cards given away from hand: higher = kept longer.
_KEEP = [20 - (k % NUM_RANKS) if k % NUM_RANKS < JACK_RANK else 30 + k % NUM_RANKS for k in range(JOKER)] + [100]


def _card_gain(k: int, total: float, values: Sequence[int], jack: float, own_import: int, own_export: int) -> float:
    """The cards shipping card ``k`` transfers, estimated (``_best_shipment``): a number its value,
    a Jack ``jack``, a Queen the running ``total``, a King the own Import pile, an Ace the own
    Export pile (``own_export``: 0 while the Stock lasts), a Joker nothing."""
    r = k % NUM_RANKS
    if k == JOKER:
        return 0.0
    if r < JACK_RANK:
        return float(values[k])
    if r == JACK_RANK:
        return jack
    if r == QUEEN_RANK:
        return total
    if r == KING_RANK:
        return float(own_import)
    return float(own_export)


def _next_cards(
    hand: Sequence[int], values: Sequence[int], tv: int, prev: int, bribe: bool, first: bool, joker_opens: bool
) -> list[tuple[int, bool]]:
    """The cards of ``hand`` that may be shipped next, as ``(card, smuggled)``: after ``prev`` (or
    first), under a Joker's bribe or not, against a Tolerance value ``tv`` (0: none)."""
    out = []
    for k in [k for k in range(NUM_KINDS) if hand[k]]:
        if first:
            if k == JOKER:
                ok = joker_opens
            else:
                ok = not tv or values[k] <= tv
            if ok:
                out.append((k, False))
        elif bribe or k == JOKER:
            out.append((k, False))
        elif k // NUM_RANKS == prev // NUM_RANKS:
            out.append((k, bool(tv) and values[k] > tv))  # (card, smuggled)
        elif k % NUM_RANKS == prev % NUM_RANKS and (not tv or values[k] <= tv):
            out.append((k, False))
    return out


class CIQRuleAgent(RuleAgent):
    """Planning rules over the observation; see the module docstring."""

    name = "rule"
    env_id = ENV_ID

    def __init__(
        self,
        game: CIQGame,
        seed: int | None = None,
        *,
        leader_weight: float = 0.5,
        sabotage_margin: float = 2.0,
        hire_gain: int = 4,
        fire_threshold: float = 8.0,
        fire_discount: float = 0.5,
        search_nodes: int = 400,
        noise: float = 0.0,
    ) -> None:
        super().__init__(game, seed)
        self.leader_weight, self.sabotage_margin = leader_weight, sabotage_margin
        self.hire_gain, self.fire_threshold, self.fire_discount = hire_gain, fire_threshold, fire_discount
        self.search_nodes, self.noise = search_nodes, noise
        self.copies = tuple(game.kind_counts)
        self.total_cards = game.total_cards
        self.values = tuple(game.values)
        self.face = tuple(game.face)
        cfg = game.config
        self.joker_opens = cfg.joker_opens_shipment
        self.bribed_face_wipes = cfg.bribed_face_wipes

    # ----- Agent protocol ----------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = legal_of(action_mask)
        if self.noise and self.rng.random() < self.noise:
            return int(legal[self.rng.randrange(legal.size)])
        obs = _Obs(self, observation)
        legal_set: set[int] = set(legal.tolist())
        action = self._decide(obs, legal_set)
        if action in legal_set:
            return action
        # Only reached if the observation and the mask disagree (e.g. a hand-built test):
        # never play an illegal move; fall back to the first legal one.
        return int(legal[0])

    def _decide(self, obs: _Obs, legal: set[int]) -> int:
        phase = obs.phase
        if phase == FIRE_DECISION:
            return self._fire(obs, legal)
        if phase == GIVE_FROM_HAND:
            hand = obs.hand
            return A.GIVE + min((k for k in range(NUM_KINDS) if hand[k]), key=lambda k: _KEEP[k])
        if phase == MAIN:
            return self._turn(obs, legal)
        target = obs.target
        if phase == OPEN:
            value, first = self._plan(obs, target, obs.hand)
            return first if first is not None else -1  # nothing planned: ``act`` falls back
        if phase == SABOTAGE2:
            return self._second_sabotage_card(obs, legal)
        if phase == AFTER_SABOTAGE:
            value, first = self._best_shipment(obs, target, list(obs.hand), started=False)
            return cast(int, first) if value > 0 else A.STOP  # a positive value has a first action
        # SHIPPING: continue the best chain from the shipment so far
        value, first = self._best_shipment(obs, target, list(obs.hand), started=True)
        return cast(int, first)  # mid-shipment there is always one (STOP at worst)

    # ----- the turn ----------------------------------------------------------------------------
    def _turn(self, obs: _Obs, legal: set[int]) -> int:
        hand = obs.hand
        best_value, best_action = -1.0, None
        targets = [1] if self.n == 2 else [off for off in range(1, self.n) if A.TARGET + off - 1 in legal]
        for off in targets:
            value, first = self._plan(obs, off, hand)
            if first is None:
                continue
            value *= self._weight(obs, off)
            if value > best_value:
                best_value = value
                best_action = first if self.n == 2 else A.TARGET + off - 1
        hire_value, hire_action = self._hire(obs, legal)
        if hire_action is not None and hire_value > best_value:
            return hire_action
        if best_action is not None and best_value >= 1.0:
            return best_action
        if A.DRAW in legal:
            return A.DRAW
        if best_action is not None:
            return best_action
        if hire_action is not None:
            return hire_action
        return A.PASS

    def _weight(self, obs: _Obs, off: int) -> float:
        """Moves against the opponent closest to winning are worth more."""
        cards = obs.cards_left
        fewest = min(cards[s] for s in range(1, self.n))
        return 1.0 + (self.leader_weight if cards[off] == fewest else 0.0)

    def _plan(self, obs: _Obs, off: int, hand: Sequence[int]) -> tuple[float, int | None]:
        """Best (value, first action) against seat ``off``: a shipment, or Sabotage + shipment."""
        ship_value, ship_first = self._best_shipment(obs, off, list(hand), started=False, tv=obs.tolerance(off))
        best = (ship_value, ship_first) if ship_first is not None else (-1.0, None)
        tv = obs.tolerance(off)
        if tv:
            for a, b in self._sabotage_pairs(hand, tv):
                value = self._sabotage_value(obs, off, hand, tv, a, b)
                if value > best[0] + self.sabotage_margin and value > 0:
                    best = (value, A.SABOTAGE + a)
        return best

    def _sabotage_pairs(self, hand: Sequence[int], tv: int) -> list[tuple[int, int]]:
        """Per suit: the cheapest Legal card (a Joker only when there is none) with the
        highest Illegal card of that suit (a face card first: it wipes the pile)."""
        values, face = self.values, self.face
        pairs = []
        for s in range(4):
            kinds = [k for k in range(s * NUM_RANKS, (s + 1) * NUM_RANKS) if hand[k]]
            legal = [k for k in kinds if values[k] <= tv]
            illegal = [k for k in kinds if values[k] > tv]
            if not illegal:
                continue
            wipe = [k for k in illegal if face[k]]
            b = min(wipe, key=lambda k: values[k]) if wipe else max(illegal, key=lambda k: values[k])
            if legal:
                pairs.append((min(legal, key=lambda k: values[k]), b))
            elif hand[JOKER]:
                pairs.append((JOKER, b))
        return pairs

    def _sabotage_value(self, obs: _Obs, off: int, hand: Sequence[int], tv: int, a: int, b: int) -> float:
        wipe = self.values[b] > tv and self.face[b] and (a != JOKER or self.bribed_face_wipes)
        new_tv = 0 if wipe else self.values[b]
        rest = list(hand)
        rest[a] -= 1
        rest[b] -= 1
        value, first = self._best_shipment(obs, off, rest, started=False, tv=new_tv)
        value = max(value, 0.0) if first is not None else 0.0
        # the two cards leave the hand; a wiped or raised tolerance keeps paying later turns
        return value + 1.0 + (3.0 if wipe else 0.2 * (new_tv - tv))

    def _second_sabotage_card(self, obs: _Obs, legal: set[int]) -> int:
        off, tv, first = obs.target, obs.tolerance(obs.target), obs.sabotage_card
        hand = obs.hand
        best_value, best = -1e9, None
        for action in sorted(legal):
            b = action - A.SABOTAGE
            if not 0 <= b < NUM_KINDS:
                continue
            # hand no longer holds the first card; count it back in for _sabotage_value
            full = list(hand)
            full[first] += 1
            value = self._sabotage_value(obs, off, full, tv, first, b)
            if value > best_value:
                best_value, best = value, action
        return best if best is not None else min(legal)

    # ----- shipment search ---------------------------------------------------------------------
    def _best_shipment(
        self, obs: _Obs, off: int, hand: list[int], started: bool, tv: int | None = None
    ) -> tuple[float, int | None]:
        """(value, first action) of the best shipment from here, by bounded depth-first search.

        Value = cards shipped + cards transferred (estimated: numbers their value, a Jack twice
        the expected turned-over card, a Queen the running total, a King the own Import pile, an
        Ace the own Export pile once the Stock is gone), transfers capped by what the sources hold;
        a smuggled card's transfer is discounted by the chance of being fired. Mid-shipment the
        value counts only what is still to come (STOP is worth 0)."""
        if tv is None:
            tv = obs.tolerance(off)
        if started:
            prev, bribe, shipped_t = obs.ship_prev, obs.bribe, obs.shipment_transfer
        else:
            prev, bribe, shipped_t = -1, False, 0.0
        cap = obs.source_cap
        base = min(shipped_t, cap)
        self._nodes = self.search_nodes
        best: list[Any] = [-1.0, None]  # value, first action
        values, jack = self.values, obs.jack_value
        own_import, own_export = obs.own_import, obs.own_export_if_no_stock
        joker_opens = self.joker_opens

        def dfs(prev: int, bribe: bool, first: bool, shipped: int, total: float, first_action: int | None) -> None:
            value = shipped + min(total, cap) - base
            if first_action is not None and value > best[0]:
                best[0], best[1] = value, first_action
            if self._nodes <= 0:
                return
            for k, smuggled in _next_cards(hand, values, tv, prev, bribe, first, joker_opens):
                self._nodes -= 1
                g = _card_gain(k, total, values, jack, own_import, own_export)
                hand[k] -= 1
                fa = first_action if first_action is not None else A.SHIP + k
                if smuggled:
                    v = shipped + 1 + min(total + g * self.fire_discount, cap) - base
                    if v > best[0]:
                        best[0], best[1] = v, fa
                else:
                    dfs(prev if k == JOKER else k, k == JOKER, False, shipped + 1, total + g, fa)
                hand[k] += 1
                if self._nodes <= 0:
                    return

        dfs(prev, bribe, not started, 0, shipped_t, None)
        if started and (best[1] is None or best[0] <= 0):
            return 0.0, A.STOP
        return best[0], best[1]

    # ----- hire and fire -----------------------------------------------------------------------
    def _hire(self, obs: _Obs, legal: set[int]) -> tuple[float, int | None]:
        options = [a - A.HIRE for a in legal if A.HIRE <= a < A.FIRE]
        if not options:
            return -1.0, None
        current = obs.tolerance(0) or 15  # no customs worker: everything is Legal
        k = min(options, key=lambda c: self.values[c])
        gain = current - self.values[k]
        if gain < self.hire_gain:
            return -1.0, None
        # protection, against the Tolerance pile that goes to my Export pile and the card spent
        return 0.6 * gain - 0.5 * obs.tolerance_size(0), A.HIRE + k

    def _fire(self, obs: _Obs, legal: set[int]) -> int:
        faces = sorted((a - A.FIRE for a in legal if A.FIRE <= a < A.GIVE), key=lambda k: (k % NUM_RANKS, k))
        if not faces:
            return A.KEEP
        stake = obs.smuggled_transfer
        if stake > self.fire_threshold + obs.tolerance_size(0):
            return A.FIRE + faces[0]
        return A.KEEP


class _Obs:
    """The pieces the bot uses, decoded from one observation (counts back to integers)."""

    def __init__(self, bot: CIQRuleAgent, observation: np.ndarray):
        s, n = bot._slices, bot.n
        v: list[float]
        v = self.v = observation.tolist()
        self.bot = bot
        phase = v[s["phase"]]
        self.phase = phase.index(1.0) if 1.0 in phase else -1
        target = v[s["target"]]
        self.target = target.index(1.0) if 1.0 in target else -1
        self.hand = [round(x * c) for x, c in zip(v[s["my_hand"]], bot.copies)]
        hand_size = [round(x * HAND_SCALE) for x in v[s["hand_size"]]]
        imp = [round(x * PILE_SCALE) for x in v[s["import_size"]]]
        exp = [round(x * PILE_SCALE) for x in v[s["export_size"]]]
        self.cards_left = [hand_size[i] + imp[i] + exp[i] for i in range(n)]
        self.stock = round(v[s["stock"]][0] * bot.total_cards)
        self.own_import = imp[0]
        self.own_export = exp[0]
        self.own_export_if_no_stock = 0 if self.stock else exp[0]
        self._tops = v[s["tolerance_top"]]
        self._tol_sizes = [round(x * TOLERANCE_SCALE) for x in v[s["tolerance_size"]]]
        # Cards a shipment can transfer before its source runs out (the turn then ends).
        if self.stock:
            self.source_cap = self.stock
        else:
            self.source_cap = exp[0] + (hand_size[0] if not imp[0] else 0)
        unseen = [round(x * c) for x, c in zip(v[s["unseen"]], bot.copies)]
        numbers = sum(unseen[k] * bot.values[k] for k in range(JOKER) if k % NUM_RANKS < JACK_RANK)
        self.jack_value = 2.0 * numbers / max(1, sum(unseen))
        shipment = [round(x * c) for x, c in zip(v[s["shipment"]], bot.copies)]
        last = v[s["shipment_last"]]
        flags = v[s["shipment_flags"]]
        self.bribe = flags[FLAG_BRIBE] > 0.5
        self.ship_prev = _card(last)
        self.shipment_transfer = self._estimate(shipment)
        sab = v[s["sabotage_card"]]
        self.sabotage_card = sab.index(1.0) if 1.0 in sab else -1
        smuggled = _card(v[s["smuggled"]])
        self.smuggled_transfer = 0.0
        if smuggled >= 0:
            shipment[smuggled] -= 1
            before = self._estimate(shipment)
            r = smuggled % NUM_RANKS
            stake: float
            if r < JACK_RANK:
                stake = bot.values[smuggled]
            elif r == JACK_RANK:
                stake = self.jack_value
            elif r == QUEEN_RANK:
                stake = before
            else:
                # the shipper's Import / Export pile: seat of the shipper from the ``turn`` piece
                turn = v[s["turn"]]
                seat = turn.index(1.0) if 1.0 in turn else 0
                stake = imp[seat] if r == KING_RANK else (0 if self.stock else exp[seat])
            self.smuggled_transfer = float(stake)

    def _estimate(self, shipment: list[int]) -> float:
        """Transfers of a shipment's cards, order ignored (a Queen doubles what is counted)."""
        values, total, queens = self.bot.values, 0.0, 0
        for k in range(NUM_KINDS):
            c = shipment[k]
            if not c or k == JOKER:
                continue
            r = k % NUM_RANKS
            if r < JACK_RANK:
                total += c * values[k]
            elif r == JACK_RANK:
                total += c * self.jack_value
            elif r == QUEEN_RANK:
                queens += c
        estimate: float = total * (2**queens)
        return estimate

    def tolerance(self, seat: int) -> int:
        """The Import Tolerance of ``seat`` (seat-relative); 0 = none (everything is Legal)."""
        bits = self._tops[seat * CARD_BITS : (seat + 1) * CARD_BITS]
        ranks = bits[NUM_SUITS:]
        if 1.0 not in ranks:
            return 0
        return self.bot.values[ranks.index(1.0)]

    def tolerance_size(self, seat: int) -> int:
        return self._tol_sizes[seat]


def _card(bits: list[float]) -> int:
    """A card kind from a suit one-hot + rank one-hot block, or -1."""
    suits, ranks = bits[:NUM_SUITS], bits[NUM_SUITS:]
    if 1.0 not in suits or 1.0 not in ranks:
        return -1
    return suits.index(1.0) * NUM_RANKS + ranks.index(1.0)


AGENT = CIQRuleAgent
"""The rule bot of ``ENV_ID``, built as ``AGENT(game, seed=seed)`` by ``make_agent("rule", game)``."""
