"""A rule-based Humble smuggle player that reads only its observation and action mask.

``HumbleSmuggleRuleAgent`` values a white card as what it would add to its final score (tens
digit, the symbol's gain for its sets, its black-card draws) and estimates, for the round rule
in play, how likely a card is to be discarded: a small Monte Carlo over the cards the other seats
may lay down (their publicly drafted cards plus cards nobody has seen), resolved with the rule.
Every fact comes from ``game.observation_layout`` pieces read by name, plus the printed card data.

| Decision              | What the bot does                                                          |
|-----------------------|----------------------------------------------------------------------------|
| draft                 | for each centre card: which card would be left (the round rule), and the   |
|                       | best selection it would then have; the last drafter knows the leftover     |
|                       | exactly, earlier drafters average over the possible leftovers              |
| select                | the hand card with the best expected gain under this round's rule: its     |
|                       | value times the chance it survives, minus what keeping it is worth for     |
|                       | later rounds (nothing in the final round)                                  |
| play black cards      | protects its own card when it is likely to be discarded (Shield, or a      |
|                       | minus / Zero card under a rule that discards high cards) and pushes the    |
|                       | leader's card up with a plus / Double card; otherwise passes               |
| discard (hand limit)  | keeps Hold cards (bonus and a symbol) and the best Play cards              |

Parameters (constructor keywords). ``keep_weight`` and ``draw_value`` were picked by one bot
against three (200 four-player games each, seats rotated): against three bots at keep 0.8, a bot
at 0.9 won 30%, at 0.6 15%, at 0.35 11% (25% is par); draw value 0.8 beat 0.5 (30%).

| name              | default | meaning                                                          |
|-------------------|---------|------------------------------------------------------------------|
| ``samples``       | 24      | Monte Carlo samples of the other seats' cards per decision        |
| ``keep_weight``   | 0.9     | share of a card's value kept by holding it for a later round      |
| ``draw_value``    | 0.8     | value of one black card drawn                                     |
| ``attack_margin`` | 0.5     | attack the leading opponent if its scored points + this >= mine   |

Randomness comes only from the agent's own ``random.Random`` (seeded by ``seed``/``reset``), so
the same seed and observations give the same actions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import RuleAgent, legal_of
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.data import NUM_WHITE
from smuggle_envs.games.humble_smuggle.vocab import (
    ADD,
    DOUBLE,
    DOUBLE_UP,
    DRAFT,
    HIGH_LOW,
    NUM_SYMBOLS,
    PLAY,
    SAFE_ZONE,
    SELECT,
    SHIELD,
    STANDARD,
    STAR,
    SYMBOL_UP,
    ZERO,
)

if TYPE_CHECKING:
    from smuggle_envs.games.humble_smuggle.game import HumbleSmuggleGame

ENV_ID = "humble_smuggle_v0"
"""The game this bot plays: ``agents.rule`` files ``AGENT`` under it."""

NP = A.NUM_PLAY_KINDS
W = NUM_WHITE
PLAY_VALUE = {ADD: 0.6, ZERO: 1.0, DOUBLE: 0.8, SHIELD: 1.3}


def _kinds(counts: Sequence[int]) -> list[int]:
    """The Play card kinds of a count per kind (``my_attached``'s row), each as often as counted."""
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


class HumbleSmuggleRuleAgent(RuleAgent):
    """Card values and Monte Carlo discard odds; see the module docstring."""

    name = "rule"
    env_id = ENV_ID

    def __init__(
        self,
        game: HumbleSmuggleGame,
        seed: int | None = None,
        *,
        samples: int = 24,
        keep_weight: float = 0.9,
        draw_value: float = 0.8,
        attack_margin: float = 0.5,
    ) -> None:
        super().__init__(game, seed)
        self.game = game
        self.samples, self.keep_weight = samples, keep_weight
        self.draw_value, self.attack_margin = draw_value, attack_margin
        self.points, self.symbol, self.draws, self.rule_of = game.points, game.symbol, game.draws, game.rule_of
        self.effect, self.amount = game.effect, game.amount
        self.safe_min = game.safe_zone_min
        self.by_values = game.config.discard_count == "values"

    # ----- Agent protocol ----------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = legal_of(action_mask)
        if legal.size == 1:
            return int(legal[0])
        obs = self._read(observation)
        phase = obs["phase"]
        if phase == DRAFT:
            action = self._draft(obs)
        elif phase == SELECT:
            action = self._select(obs)
        elif phase == PLAY:
            action = self._play(obs, set(legal.tolist()))
        else:
            action = self._discard(obs)
        if action not in legal:  # defensive: never return an illegal action
            action = int(legal[self.rng.randrange(legal.size)])
        return int(action)

    # ----- reading the observation ----------------------------------------------------------
    def _piece(self, observation: np.ndarray, name: str) -> np.ndarray:
        piece: np.ndarray = observation[self._slices[name]]
        return piece

    def _read(self, observation: np.ndarray) -> dict[str, Any]:
        n = self.n
        get: Callable[[str], np.ndarray] = lambda name: self._piece(observation, name)
        cards: Callable[[str], list[int]] = lambda name: [int(i) + 1 for i in np.flatnonzero(get(name))]
        known = get("known_hands").reshape(n, W)
        sym = np.rint(get("scored_symbols").reshape(n, NUM_SYMBOLS + 1) * 8).astype(int)
        black = np.rint(get("my_black") * 3).astype(int).tolist()
        rule = np.flatnonzero(get("round_rule"))
        return {
            "phase": int(np.flatnonzero(get("phase"))[0]),
            "centre": cards("centre"),
            "rule": int(rule[0]) if rule.size else -1,
            "hand": cards("my_hand"),
            "selection": cards("my_selection"),
            "known": [[int(i) + 1 for i in np.flatnonzero(known[q])] for q in range(n)],
            "out": cards("out_of_play"),
            "final": bool(get("final_round")[0]),
            "drafted": get("drafted").astype(bool).tolist(),
            "my_symbols": sym[0].tolist(),
            "points": np.rint(get("scored_points") * 50).astype(int).tolist(),
            "black": black,
            "attached": np.rint(get("attached").reshape(n, n) * 3).astype(int),
            "my_attached": np.rint(get("my_attached").reshape(n, NP) * 3).astype(int),
        }

    # ----- card values ----------------------------------------------------------------------
    def _value(self, card: int, obs: dict[str, Any]) -> float:
        """What scoring ``card`` adds: tens digit, symbol-set gain, black draws."""
        game = self.game
        counts = obs["my_symbols"]
        holds = tuple(k - NP for k in range(NP, A.NUM_BLACK_KINDS) for _ in range(obs["black"][k]))
        base = game.set_points(tuple(counts[:NUM_SYMBOLS]), counts[STAR], holds)
        s = self.symbol[card]
        gain = 0
        if s >= 0:
            c = list(counts)
            c[s] += 1
            gain = game.set_points(tuple(c[:NUM_SYMBOLS]), c[STAR], holds) - base
        return self.points[card] + gain + self.draw_value * self.draws[card]

    # ----- opponents' face-down cards -------------------------------------------------------
    def _samples(self, obs: dict[str, Any], count: int, exclude: Iterable[int] = ()) -> list[list[int]]:
        """``count`` draws of each other seat's face-down card (seat-relative index 1..n-1):
        uniform over its publicly known cards and unseen cards making up a 4-card hand."""
        seen = set(obs["hand"]) | set(obs["selection"]) | set(obs["centre"]) | set(obs["out"]) | set(exclude)
        for q in range(self.n):
            seen |= set(obs["known"][q])
        unseen = [c for c in range(1, W + 1) if c not in seen]
        known = obs["known"]
        need = [max(0, 4 - len(known[q])) for q in range(self.n)]
        total = min(sum(need[1:]), len(unseen))
        rng = self.rng
        result = []
        for _ in range(count):
            pool = rng.sample(unseen, total)
            cards = [0]
            for q in range(1, self.n):
                options = known[q] + pool[len(pool) - need[q] :] if need[q] else known[q]
                del pool[len(pool) - need[q] :]
                cards.append(options[rng.randrange(len(options))] if options else 0)
            result.append(cards)
        return result

    def _survival(
        self, card: int, samples: list[list[int]], centre: int, rule: int, mods: Sequence[int] | None = None
    ) -> float:
        """Chance that my ``card`` (with my known modifiers ``mods``) is not discarded, over
        ``samples`` of the other seats' cards (their modifiers are unknown and left out)."""
        # the engine's own rule (HumbleSmuggleGame.effective_value), on my known modifiers
        value, shield = self.game.effective_value(card, _kinds(mods)) if mods else (card, False)
        if shield:
            return 1.0
        sym = self.symbol
        by_values = self.by_values
        kept = 0
        for cards in samples:
            others = cards[1:]
            others.append(centre)
            if rule == HIGH_LOW:
                gone = value >= max(others) or value <= min(others)
            elif rule == SAFE_ZONE:
                gone = value >= self.safe_min and value >= max(others)
            else:
                if rule == STANDARD:
                    k = 1
                elif rule == DOUBLE_UP:
                    k = 2
                else:
                    symbol = rule - SYMBOL_UP
                    k = (sym[card] == symbol) + sum(1 for c in others if sym[c] == symbol)
                # "the k highest" with whole tie groups: mine goes if fewer than k cards (or
                # distinct values) lie above it
                above = {v for v in others if v > value} if by_values else [v for v in others if v > value]
                gone = len(above) < k
            kept += not gone
        return kept / len(samples)

    def _gain(self, card: int, obs: dict[str, Any], samples: list[list[int]], centre: int, rule: int) -> float:
        value = self._value(card, obs)
        keep = 0.0 if obs["final"] else self.keep_weight * value
        return self._survival(card, samples, centre, rule) * value - keep

    # ----- decisions ------------------------------------------------------------------------
    def _select(self, obs: dict[str, Any]) -> int:
        centre = obs["centre"][0]
        samples = self._samples(obs, self.samples)
        best = max(obs["hand"], key=lambda c: (self._gain(c, obs, samples, centre, obs["rule"]), -c))
        return A.select(best)

    def _draft(self, obs: dict[str, Any]) -> int:
        centre = obs["centre"]
        count = max(4, self.samples // 4)
        best_card, best_score = centre[0], -1e9
        for d in centre:
            # The last drafter knows the card left; earlier ones average over the candidates.
            leftovers = [c for c in centre if c != d]
            hand = obs["hand"] + [d]
            samples = self._samples(obs, count, exclude=[d])
            score = 0.0
            for left in leftovers:
                rule = self.rule_of[left]
                score += max(self._gain(c, obs, samples, left, rule) for c in hand)
            score /= len(leftovers)
            # the card drafted also stays in hand for later rounds
            score += 0.0 if obs["final"] else self.keep_weight * self._value(d, obs) * 0.5
            if score > best_score:
                best_card, best_score = d, score
        return A.draft(best_card)

    def _play(self, obs: dict[str, Any], legal: set[int]) -> int:
        rule, centre = obs["rule"], obs["centre"][0]
        mine = obs["selection"][0]
        black = obs["black"]
        samples = self._samples(obs, self.samples)
        value = self._value(mine, obs)
        mods = obs["my_attached"][0].tolist()
        base = self._survival(mine, samples, centre, rule, mods)
        # Defend: the Play card on my own card that most raises my card's survival.
        best, best_gain = A.PASS, 0.0
        for kind in range(NP):
            if not black[kind] or A.play(kind, 0) not in legal:
                continue
            trial = list(mods)
            trial[kind] += 1
            gain = (self._survival(mine, samples, centre, rule, trial) - base) * value
            gain -= PLAY_VALUE[self.effect[kind]] * 0.5
            if gain > best_gain:
                best, best_gain = A.play(kind, 0), gain
        if best != A.PASS:
            return best
        # Attack: push the leader's card up under a rule that discards high cards.
        if rule in (STANDARD, DOUBLE_UP) or SYMBOL_UP <= rule < SAFE_ZONE:
            leader = max(range(1, self.n), key=lambda q: (obs["points"][q], -q))
            untouched = not obs["attached"][leader].any()
            if untouched and obs["points"][leader] + self.attack_margin >= obs["points"][0]:
                for kind in range(NP):
                    raises = self.effect[kind] == DOUBLE or (self.effect[kind] == ADD and self.amount[kind] > 0)
                    if black[kind] and raises:
                        return A.play(kind, leader)
        return A.PASS

    def _discard(self, obs: dict[str, Any]) -> int:
        black = obs["black"]
        game = self.game

        def keep_value(kind: int) -> float:
            if kind < NP:
                return PLAY_VALUE[self.effect[kind]] + (
                    0.1 if self.effect[kind] == ADD and self.amount[kind] < 0 else 0
                )
            return game.hold_bonus[kind - NP] + 1.5

        kind = min((k for k in range(A.NUM_BLACK_KINDS) if black[k]), key=lambda k: (keep_value(k), k))
        return A.discard(kind)


AGENT = HumbleSmuggleRuleAgent
"""The rule bot of ``ENV_ID``, built as ``AGENT(game, seed=seed)`` by ``make_agent("rule", game)``."""
