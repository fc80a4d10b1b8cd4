"""Smuggle's config (the rule variants) and ``SmuggleGame``, the game.

``SmuggleGame`` fixes once what the state, the steps and the encoder read their game through. It
sits below them, so it imports none of them: ``rules.py`` declares on it the state, the observation
layout and the encoder (``SmuggleGame.declare``), once.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.fields import ByteGame
from ...core.game import GameConfig
from . import actions as A
from .actions import NUM_KINDS
from .data import SmuggleData, load


@dataclasses.dataclass(frozen=True)
class SmuggleConfig(GameConfig):
    """Rule variants. Defaults follow ``docs/rules/smuggle.md``.

    * ``money_per_player``: starting money of each player (proposed 3000; R2 (b)).
    * ``pot``: instead, a total divided equally, the remainder out of the game (Contraband: 10000).
    * ``bankruptcy``: ``"loan"`` lets a balance go negative (borrowing, rule 13, R2.9);
      ``"eliminate"`` puts a player who cannot pay out of the game.
    * ``informer_pays_real_bag``: the next player who challenges a real Diplomatic Bag pays the
      defamation money (R2.7); False makes that challenge free.
    * ``first_officer``: the seat that is Customs Officer in the first round.
    """

    num_players: int = 4
    money_per_player: int | None = None
    pot: int | None = None
    bankruptcy: str = "loan"
    informer_pays_real_bag: bool = True
    first_officer: int = 0

    def validate(self, min_players: int, max_players: int) -> None:
        super().validate(min_players, max_players)
        if self.money_per_player is not None and self.pot is not None:
            raise ConfigError("give money_per_player or pot, not both")
        for name in ("money_per_player", "pot"):
            value = getattr(self, name)
            if value is not None and (not is_int(value) or value <= 0):
                raise ConfigError(f"{name} must be a positive int, got {value!r}")
        if self.bankruptcy not in ("loan", "eliminate"):
            raise ConfigError(f"bankruptcy must be 'loan' or 'eliminate', got {self.bankruptcy!r}")
        if not isinstance(self.informer_pays_real_bag, bool):
            raise ConfigError("informer_pays_real_bag must be a bool")
        if not is_int(self.first_officer) or not 0 <= self.first_officer < self.num_players:
            raise ConfigError(f"first_officer must be a seat in [0, {self.num_players}), got {self.first_officer!r}")


class SmuggleGame(ByteGame):
    """Everything a game of Smuggle fixes once, from its config and the card data: the starting
    money, the pack, fines and duties (the byte fields of a state are those its observation pieces
    read: ``encoder.build_layout``). ``rules.py`` declares its state, layout and encoder."""

    env_id = "smuggle_v0"
    config_class = SmuggleConfig
    min_players = 3
    max_players = 6
    num_actions = A.NUM_ACTIONS
    config: SmuggleConfig

    def __init__(self, config: SmuggleConfig | None = None, **kwargs: Any):
        super().__init__(config, **kwargs)
        self.data: SmuggleData = load()
        d, c = self.data, self.config
        if c.pot is not None:
            # Rule 1: money that will not divide (in whole notes) is out of the game.
            share = c.pot // c.num_players // d.denomination * d.denomination
        else:
            share = c.money_per_player if c.money_per_player is not None else d.money_per_player
        if share <= 0:
            raise ConfigError(f"pot {c.pot} is too small to give each of {c.num_players} players a note")
        self.starting_money = share
        self.kind_names = A.kind_names(d.item_names)
        self.deck_template = tuple(
            kind for kind, count in enumerate((*d.item_counts, d.bag_count, d.luggage_count)) for _ in range(count)
        )
        self.no_known = bytes(self.num_players * NUM_KINDS)
        self.kind_fines = (*d.fines, 0, 0)  # the Bag and luggage carry no fine
        self.kind_counts = tuple(self.deck_template.count(k) for k in range(NUM_KINDS))
        self.declared_duty = tuple(sum(n * du for n, du in zip(counts, d.duties)) for counts in A.DECLARATIONS)

    @property
    def score_scale(self) -> float:
        return float(self.starting_money)

    def kind(self, card: int | str) -> int:
        """A card kind from its index or name ("wine", "diplomatic bag", "luggage", ...)."""
        if isinstance(card, str):
            try:
                return self.kind_names.index(card)
            except ValueError:
                raise ValueError(f"no card kind {card!r}; kinds are {self.kind_names}") from None
        if not 0 <= card < NUM_KINDS:
            raise ValueError(f"card kind {card} is out of range [0, {NUM_KINDS})")
        return card

    def action_to_string(self, action: int) -> str:
        return A.action_text(action, self.data.item_names)
