"""Import / Export's config (the rule variants) and ``ImportExportGame``, the game.

``ImportExportGame`` fixes once what the state, the steps and the encoder read their game through.
It sits below them, so it imports none of them: ``rules.py`` declares on it the state, the
observation layout and the encoder (``ImportExportGame.declare``), once.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.game import Game, GameConfig
from . import actions as A
from .data import MODULES, Card, ImportExportData, load
from .vocab import NUM_TYPES, RAINBOW_KEYS, WILD_KEYS


@dataclasses.dataclass(frozen=True)
class ImportExportConfig(GameConfig):
    """Rule variants. Defaults follow ``docs/rules/import_export.md``.

    * ``modules``: expansion modules shuffled into the deck: any of ``"jutaku"``,
      ``"kickstarter"``, ``"captain"`` (the base 100 cards are always in).
    * ``end_credits``: active credits that end the game (None: 50; the rulebook's extended game
      plays to 80 or more).
    * ``first_leader``: the seat that leads the first turn (None: drawn at random, R5.12).
    * ``turn_limit``: a safety cap; a game still running after this many turns ends as a
      truncation.
    """

    num_players: int = 4
    modules: tuple[str, ...] = ()
    end_credits: int | None = None
    first_leader: int | None = None
    turn_limit: int = 400

    def __post_init__(self) -> None:
        if isinstance(self.modules, list):  # configs come back from JSON replays as lists
            object.__setattr__(self, "modules", tuple(self.modules))

    def validate(self, min_players: int, max_players: int) -> None:
        super().validate(min_players, max_players)
        n = self.num_players
        if (
            not isinstance(self.modules, tuple)
            or any(m not in MODULES[1:] for m in self.modules)
            or len(set(self.modules)) != len(self.modules)
        ):
            raise ConfigError(f"modules must be distinct names from {list(MODULES[1:])}, got {self.modules!r}")
        if self.end_credits is not None and (not is_int(self.end_credits) or not 2 <= self.end_credits <= 500):
            raise ConfigError(f"end_credits must be None or an int from 2 to 500, got {self.end_credits!r}")
        if self.first_leader is not None and (not is_int(self.first_leader) or not 0 <= self.first_leader < n):
            raise ConfigError(f"first_leader must be None or a seat in [0, {n}), got {self.first_leader!r}")
        if not is_int(self.turn_limit) or not 1 <= self.turn_limit <= 10_000:
            raise ConfigError(f"turn_limit must be an int from 1 to 10000, got {self.turn_limit!r}")

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["modules"] = list(self.modules)
        return d


class ImportExportGame(Game):
    """Everything a game of Import / Export fixes once, from its config and the card data: the deck
    of the modules in play, per card its type, action, tier and load, the ids of the cards whose
    powers change a basic rule, the rulebook's numbers. ``rules.py`` declares its state, layout and
    encoder."""

    env_id = "import_export_v0"
    config_class = ImportExportConfig
    min_players = 2
    max_players = 6
    num_actions = A.NUM_ACTIONS
    playout_depth = 40  # random play runs ~840 decisions to the end, real play ~250
    config: ImportExportConfig

    def __init__(self, config: ImportExportConfig | None = None, **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        d: ImportExportData = load()
        c = self.config
        self.data = d
        rules = d.rules
        self.cards: tuple[Card, ...] = d.cards
        self.names = tuple(card.name for card in d.cards)
        self.ctype = tuple(card.type for card in d.cards)
        self.caction = tuple(card.action for card in d.cards)
        self.ctier = tuple(card.tier for card in d.cards)
        self.cload = tuple(card.load for card in d.cards)
        self.ids = {card.key: card.id for card in d.cards}
        ids = self.ids
        # Powers that change how containers match a shipment, by good type (colour) index.
        self.wild_ids = tuple(ids[k] for k in WILD_KEYS)
        self.rainbow_ids = tuple(ids[k] for k in RAINBOW_KEYS)
        for t in range(NUM_TYPES):
            if self.ctype[self.wild_ids[t]] != t or self.ctype[self.rainbow_ids[t]] != t:
                raise ConfigError("the wild-container and rainbow cards must be of the colour they change")
        self.robot_cats, self.prefab_homes, self.tortillas = ids["robot_cats"], ids["prefab_homes"], ids["tortillas"]
        self.tablets, self.ferraris, self.scotch_whisky = ids["tablets"], ids["ferraris"], ids["scotch_whisky"]
        self.board_games, self.foxes = ids["board_games"], ids["foxes"]
        self.miri_machines, self.can_openers = ids["miri_machines"], ids["can_openers"]
        self.wind_turbines = ids["wind_turbines"]
        self.deck_cards = tuple(card.id for card in d.cards if card.module == "base" or card.module in c.modules)
        self.hand_size: int = rules["hand_size"]
        self.end_credits: int = rules["end_credits"] if c.end_credits is None else c.end_credits
        self.max_load: int = rules["max_load"]
        self.tablets_max_load: int = rules["tablets_max_load"]
        self.mri_end_credits: int = rules["mri_end_credits"]
        self.sale_price: int = rules["sale_price"]
        self.owner_fee: int = rules["owner_fee"]
        self.container_value: int = rules["container_value"]
        self.payout = d.payout
        self.good_values = d.good_values
        self.majority_bonus = d.majority_bonus
        self.one_of_each_bonus: int = rules["one_of_each_bonus"]
        n = c.num_players
        needed = n * (self.hand_size + rules["seed_per_ship"] + 1)
        if needed > len(self.deck_cards):
            raise ConfigError(f"{n} players need {needed} cards to set up; the deck has {len(self.deck_cards)}")

    def card_id(self, card: int | str) -> int:
        """A card's id from its id, key (``"laptops"``) or name (``"LAPTOPS"``)."""
        if isinstance(card, int):
            return card
        key = card.lower().replace(" ", "_")
        if key not in self.ids:
            raise KeyError(f"no card {card!r}")
        return self.ids[key]

    @property
    def score_scale(self) -> float:
        return 50.0

    def action_to_string(self, action: int) -> str:
        if A.SHIP <= action < A.BID:  # a ship names its owner as every text names a seat
            s = action - A.SHIP
            return f"ship {s} ({self.seat_name(s // 2)}'s)"
        return A.to_string(action, self.names)
