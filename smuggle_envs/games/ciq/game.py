"""CIQ's config (the rule variants) and ``CIQGame``, the game.

``CIQGame`` fixes once what the state, the steps and the encoder read their game through. It sits
below them, so it imports none of them: ``rules.py`` declares on it the state, the observation
layout and the encoder (``CIQGame.declare``), once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.fields import ByteGame
from ...core.game import GameConfig
from . import actions as A
from .actions import CARD_BITS, JOKER, NUM_KINDS, NUM_RANKS, NUM_SUITS
from .data import CIQData, load
from .vocab import EFFECT_CODES, NO_EFFECT


@dataclasses.dataclass(frozen=True)
class CIQConfig(GameConfig):
    """Rule variants. Defaults follow ``docs/rules/ciq.md``.

    * ``first_player``: the seat that plays first ("chosen by whatever means you wish").
    * ``decks``: decks of 52 cards + 2 Jokers in play; ``None`` = one per player (the rulebook).
    * ``hand_size``: the hand is filled up to this at the start of each turn (7).
    * ``ace_is_face``: the Ace also counts as a face card for the Sabotage wipe and for Firing
      (R1.2 proposes J, Q, K only).
    * ``joker_opens_shipment``: a Joker may be the first card of a shipment (the rulebook asks
      for a Legal first card; a Joker is never Legal, R1.1).
    * ``bribed_face_wipes``: in a Sabotage, an Illegal face card played after a Joker still wipes
      the Tolerance pile (R1.3 judges both cards against the tolerance before the sabotage).
    * ``turn_limit``: the game ends as a draw (every return 0) once this many turns have been
      played; ``None`` for no limit (nothing in the rules guarantees an end).
    """

    num_players: int = 4
    first_player: int = 0
    decks: int | None = None
    hand_size: int = 7
    ace_is_face: bool = False
    joker_opens_shipment: bool = False
    bribed_face_wipes: bool = True
    turn_limit: int | None = 1000

    def validate(self, min_players: int, max_players: int) -> None:
        super().validate(min_players, max_players)
        n = self.num_players
        if not is_int(self.first_player) or not 0 <= self.first_player < n:
            raise ConfigError(f"first_player must be a seat in [0, {n}), got {self.first_player!r}")
        if self.decks is not None and (not is_int(self.decks) or not 1 <= self.decks <= 8):
            raise ConfigError(f"decks must be None or an int from 1 to 8, got {self.decks!r}")
        if not is_int(self.hand_size) or not 1 <= self.hand_size <= 20:
            raise ConfigError(f"hand_size must be an int from 1 to 20, got {self.hand_size!r}")
        decks = n if self.decks is None else self.decks
        if 4 * decks < n or decks * 54 - n < n * self.hand_size:
            raise ConfigError(f"decks={decks} cannot give {n} players a 6 each and {self.hand_size} cards")
        for name in ("ace_is_face", "joker_opens_shipment", "bribed_face_wipes"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be a bool, got {getattr(self, name)!r}")
        if self.turn_limit is not None and (not is_int(self.turn_limit) or self.turn_limit < 1):
            raise ConfigError(f"turn_limit must be None or a positive int, got {self.turn_limit!r}")


class CIQGame(ByteGame):
    """Everything a game of CIQ fixes once, from its config and the card data: per card kind its
    value, effect and whether it is a face card, the deck, the byte fields only the resample reads
    (``_unobserved_fields``; the others are those its observation pieces read). ``rules.py``
    declares its state, layout and encoder."""

    env_id = "ciq_v0"
    config_class = CIQConfig
    min_players = 2
    max_players = 6
    num_actions = A.NUM_ACTIONS
    config: CIQConfig

    def __init__(self, config: CIQConfig | None = None, **kwargs: Any):
        super().__init__(config, **kwargs)
        self.data: CIQData = load()
        d, c = self.data, self.config
        self.decks = c.num_players if c.decks is None else c.decks
        self.hand_size = c.hand_size
        # Per card kind (the Joker last): value against a tolerance, effect, face card.
        self.values = tuple(d.values[k % NUM_RANKS] for k in range(JOKER)) + (0,)
        self.effects = tuple(EFFECT_CODES[d.effects[k % NUM_RANKS]] for k in range(JOKER)) + (NO_EFFECT,)
        face = list(d.face)
        if c.ace_is_face:
            face[d.effects.index("ace")] = True
        self.face = tuple(face[k % NUM_RANKS] for k in range(JOKER)) + (False,)
        self.face_kinds = tuple(k for k in range(JOKER) if self.face[k])
        self.six = d.rank_names.index(d.tolerance_start_rank)
        self.kind_counts = tuple([self.decks] * JOKER + [self.decks * d.jokers_per_deck])
        self.total_cards = sum(self.kind_counts)
        self.deck_template = tuple(k for k in range(NUM_KINDS) for _ in range(self.kind_counts[k]))
        self.others = tuple(tuple(r for r in range(c.num_players) if r != p) for p in range(c.num_players))
        self.card_bits = tuple(
            (
                bytes(1 if i == k // NUM_RANKS else 0 for i in range(NUM_SUITS))
                + bytes(1 if i == k % NUM_RANKS else 0 for i in range(NUM_RANKS))
            )
            if k < JOKER
            else bytes(CARD_BITS)
            for k in range(NUM_KINDS)
        )

    def _unobserved_fields(self) -> Iterable[tuple[str, int]]:
        """Byte fields only ``_resample`` reads, after the observed ones (``encoder.build_layout``)."""
        n, K = self.num_players, NUM_KINDS
        return (("held", n * K), ("export_fresh", n * K))

    @property
    def score_scale(self) -> float:
        return 54.0

    def action_to_string(self, action: int) -> str:
        return A.action_text(action)
