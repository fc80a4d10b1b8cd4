"""Illegal's config (the rule variants) and ``IllegalGame``, the game.

``IllegalGame`` fixes once what the state, the steps and the encoder read their game through. It
sits below them, so it imports none of them: ``rules.py`` declares on it the state, the observation
layout and the encoder (``IllegalGame.declare``), once.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.fields import ByteGame
from ...core.game import GameConfig
from . import actions as A
from .actions import (
    BRIBE,
    FIRST_BUSINESS,
    FIRST_HASSLE,
    NUM_BUSINESSES,
    NUM_HASSLES,
    NUM_KINDS,
)
from .data import IllegalData, load
from .vocab import (
    EUROS,
    LOSES_CODES,
    LOSS_CODES,
    T_BRIBE,
    TYPE_CODES,
)


@dataclasses.dataclass(frozen=True)
class IllegalConfig(GameConfig):
    """Rule variants. Defaults follow ``docs/rules/illegal.md``.

    * ``first_player``: the seat left of the dealer, who plays first (in later hands the dealer
      rotates, so the first player moves one seat clockwise each hand).
    * ``hand_size``: the hand is refilled to this many cards after each turn (None: 7, R4.1).
    * ``refill``: ``"hand"`` draws up to ``hand_size``; ``"one"`` draws one card per turn.
    * ``discard``: ``"voluntary"`` lets a player discard any one non-Paranoia card as his turn
      (R4.4); ``"strict"`` only when he cannot play any card.
    * ``takeover``: ``"any"`` lets Hostile Takeover / Relatives take any business; ``"smallest"``
      only one of the target's lowest-valued businesses (Grass, as the translator suggests).
    * ``stock_out``: ``"end"`` ends the hand when a player must draw and the stock is empty
      (R4.3); ``"play_on"`` plays on without drawing until a hand is empty.
    * ``trading``: trades with the active player (R4.9): once per turn, before the play, the
      active player offers cards and names the cards he wants, the partner accepts or declines;
      the swap is public. On in the full game, off by default (hard for learning agents).
    * ``trade_max``: at most this many cards on each side of a trade (1: one-for-one).
    * ``trade_unequal``: the two sides may differ in size (never empty: no gifts).
    * ``target_score``: None plays one hand; a number plays hands, the dealer rotating, until a
      player's total reaches it (the rulebook: 500,000 or 1,000,000 Euros).
    * ``max_hands``: a multi-hand game also ends after this many hands (a safety stop).
    """

    num_players: int = 4
    first_player: int = 0
    hand_size: int | None = None
    refill: str = "hand"
    discard: str = "voluntary"
    takeover: str = "any"
    stock_out: str = "end"
    trading: bool = False
    trade_max: int = 1
    trade_unequal: bool = False
    target_score: int | None = None
    max_hands: int = 20

    def validate(self, min_players: int, max_players: int) -> None:
        super().validate(min_players, max_players)
        n = self.num_players
        if not is_int(self.first_player) or not 0 <= self.first_player < n:
            raise ConfigError(f"first_player must be a seat in [0, {n}), got {self.first_player!r}")
        if self.hand_size is not None and (not is_int(self.hand_size) or not 1 <= self.hand_size <= 15):
            raise ConfigError(f"hand_size must be None or an int from 1 to 15, got {self.hand_size!r}")
        for name, allowed in (
            ("refill", ("hand", "one")),
            ("discard", ("voluntary", "strict")),
            ("takeover", ("any", "smallest")),
            ("stock_out", ("end", "play_on")),
        ):
            if getattr(self, name) not in allowed:
                raise ConfigError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        for name in ("trading", "trade_unequal"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be a bool, got {getattr(self, name)!r}")
        if not is_int(self.trade_max) or not 1 <= self.trade_max <= 7:
            raise ConfigError(f"trade_max must be an int from 1 to 7, got {self.trade_max!r}")
        if self.target_score is not None and (not is_int(self.target_score) or self.target_score <= 0):
            raise ConfigError(f"target_score must be None or a positive int, got {self.target_score!r}")
        if not is_int(self.max_hands) or not 1 <= self.max_hands <= 255:
            raise ConfigError(f"max_hands must be an int from 1 to 255, got {self.max_hands!r}")


FULL_GAME = {"trading": True}
"""Options for the full game of the rulebook (trading on); the defaults are the training game."""


class IllegalGame(ByteGame):
    """Everything a game of Illegal fixes once, from its config and the card data: the deck, per
    card kind its type, value and effects (its byte fields are those its observation pieces read:
    ``encoder.build_layout``). ``rules.py`` declares its state, layout and encoder."""

    env_id = "illegal_v0"
    config_class = IllegalConfig
    min_players = 2
    max_players = 6
    num_actions = A.NUM_ACTIONS
    config: IllegalConfig

    def __init__(self, config: IllegalConfig | None = None, **kwargs: Any):
        super().__init__(config, **kwargs)
        d: IllegalData = load()
        c = self.config
        self.data = d
        self.hand_size = d.hand_size if c.hand_size is None else c.hand_size
        if self.hand_size * c.num_players > d.playable_cards:
            raise ConfigError(f"{c.num_players} hands of {self.hand_size} need more than {d.playable_cards} cards")
        self.kind_names = d.names
        self.kind_counts = d.counts
        self.deck_template = tuple(k for k in range(NUM_KINDS) for _ in range(d.counts[k]))
        self.types = tuple(TYPE_CODES[t] if k != BRIBE else T_BRIBE for k, t in enumerate(A.KIND_TYPES))
        self.values = d.values  # per kind
        self.biz_values = tuple(d.values[FIRST_BUSINESS + b] for b in range(NUM_BUSINESSES))
        self.penalties = d.penalties
        self.lost_turns = d.lost_turns
        self.loses = tuple(LOSES_CODES.get(x, -1) for x in d.loses)
        self.turn_loss = tuple(LOSS_CODES[d.turn_loss[FIRST_HASSLE + h]] for h in range(NUM_HASSLES))
        self.open_hand = tuple(d.open_hand[FIRST_HASSLE + h] for h in range(NUM_HASSLES))
        self.blocks_legal = tuple(d.blocks_legal[FIRST_HASSLE + h] for h in range(NUM_HASSLES))
        # a solution kind -> the hassle index it removes (-1: any, the Bribe)
        self.solves = tuple(d.solves[k] - FIRST_HASSLE if d.solves[k] >= 0 else -1 for k in range(NUM_KINDS))
        self.trade_limit = c.trade_max if c.trading else 0
        self.no_known = bytes(NUM_KINDS)
        self.strict_discard = c.discard == "strict"
        self.masks: dict[tuple[int, ...], np.ndarray] = {}  # legal actions -> mask, shared

    @property
    def score_scale(self) -> float:
        return float(EUROS)

    def kind(self, card: int | str) -> int:
        return A.kind(card)

    def action_to_string(self, action: int) -> str:
        return A.action_text(action)
