"""Swap: a toy game for the text interface's exact-output tests, so they do not change when a
real game's texts do. Each seat holds one card in private and, in turn, keeps it or swaps it
with the top of the deck (others see that it swapped, not what it drew); then every card is
shown and gold scores 3, silver 2, lead 1."""

from __future__ import annotations

import dataclasses

import numpy as np

from smuggle_envs.core.game import TERMINAL, Game, GameConfig, State

CARDS = ("gold", "gold", "silver", "silver", "lead", "lead", "lead")
VALUE = {"gold": 3, "silver": 2, "lead": 1}
COLOURS = ("Red", "Blue", "Green")


@dataclasses.dataclass(frozen=True)
class SwapConfig(GameConfig):
    num_players: int = 2


class SwapGame(Game):
    env_id = "swap_v0"
    config_class = SwapConfig
    min_players, max_players = 2, 3
    num_actions = 2

    def new_initial_state(self, seed=None):
        return SwapState(self, seed)

    def action_to_string(self, action):
        return ("keep my card", "swap with the deck")[action]

    def seat_name(self, seat):
        return f"{COLOURS[seat]} (P{seat})"

    def score_text(self, score):
        return f"{score:g} pts"

    def card_glossary(self):
        return [(name, f"worth {value}") for name, value in VALUE.items()]


class SwapState(State[SwapGame]):
    def __init__(self, game, seed):
        super().__init__(game, seed)
        deck = list(CARDS)
        self.rng.shuffle(deck)
        self.hands = [deck.pop() for _ in range(game.num_players)]
        self.deck = deck

    def _observation(self, player):
        return np.zeros(1, dtype=np.float32)

    def current_player(self):
        return TERMINAL if self.is_terminal() else len(self.history)

    def legal_actions(self):
        return () if self.is_terminal() else (0, 1)

    def is_terminal(self):
        return len(self.history) == self.game.num_players

    def scores(self):
        return [float(VALUE[c]) for c in self.hands] if self.is_terminal() else [0.0] * self.game.num_players

    def _private_cards(self, viewer):
        return [self.hands[viewer]]

    def _apply(self, action):
        if action == 1:
            seat = len(self.history)
            self.deck.append(self.hands[seat])
            self.hands[seat] = self.deck.pop(0)

    def _step_notes(self, before, action, viewer):
        notes = []
        if action == 1 and viewer == before.current_player():
            notes.append(f"you draw {self.hands[viewer]}")
        if self.is_terminal():
            notes.append("shown: " + ", ".join(f"{self.game.seat_name(p)} {c}" for p, c in enumerate(self.hands)))
        return notes

    def _public_action_string(self, action):
        return self.game.action_to_string(action)

    def _render(self, player):
        shown = [c if player is None or p == player or self.is_terminal() else "?" for p, c in enumerate(self.hands)]
        return f"deck: {len(self.deck)} cards\n" + "\n".join(
            f"{self.game.seat_name(p)}: {c}" for p, c in enumerate(shown)
        )

    def _resample(self, player, rng):
        world = self.clone()
        unseen = [c for p, c in enumerate(self.hands) if p != player] + list(self.deck)
        rng.shuffle(unseen)
        for p in range(self.game.num_players):
            if p != player:
                world.hands[p] = unseen.pop()
        world.deck = unseen
        return world

    def clone(self):
        new = object.__new__(SwapState)
        new.__dict__.update(self.__dict__)
        new.rng = self.rng.__class__()
        new.rng.setstate(self.rng.getstate())
        new.history, new.hands, new.deck = list(self.history), list(self.hands), list(self.deck)
        return new
