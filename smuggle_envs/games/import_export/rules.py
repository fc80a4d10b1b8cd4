"""Import / Export's rules engine: config, Game and State.

Quotations are from the rulebook; "R5.n" refers to resolution n of section 5 of the project's
rule resolutions. ``docs/rules/import_export.md`` quotes both, and maps every rule to the code
here and to its test.

How the engine is built. A turn is a stack of small *tasks* (``self.stack``, plain tuples): "ask
the next follower", "run this player's remaining Load actions", "import round 2", "pay out this
ship". ``_run`` pops and runs tasks until one of them needs a decision, which it states as an
*ask* (phase, player, options, how to resume, whether the options are public). Powers that
interrupt the flow push their own tasks, so a power is a few small functions, not a fork of the
turn. Two rules keep it sound:

* a task holds only public card ids (a card chosen from a hand is first moved to the public
  ``pending`` slot), so redrawing hidden cards never invalidates the stack;
* an ask whose options come from a hand is always asked, even with one option; only asks with
  public options and a single choice are applied automatically. Who decides next is therefore a
  function of public information, and it never reveals a hand. The decisions applied this way
  are told to ``State.auto_listeners`` (the analytics watch them there).

Powers that change a basic rule are read where the rule lives: the matching of containers to
slots (``matched``: wild containers, rainbow contracts, Prefab Homes, Robot Cats, Tortillas),
capacities and limits (``capacity``, ``imports_cap``, ``goods_fit``), tiers (``tier``, with
Ferraris' ``virtual_goods``), the end (``end_credits``, ``check_credit_end``), import ties and
fees. The options such powers add to a decision, and the "any time" powers, are in
``powers/modifiers.py`` (``M`` here).

Imports go one way: this module imports the vocabulary (``vocab.py``), the data, the encoder,
the renderer, scoring and the powers; none of them imports it at run time (the powers receive
the state as an argument and act through its methods).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.game import TERMINAL, Game, GameConfig, State, copy_rng
from ...core.layout import ObservationLayout
from . import actions as A
from .data import MODULES, Card, ImportExportData, load
from .encoder import ImportExportEncoder, build_layout
from .powers import HAND_REASKS, HIDDEN_CHOICES, IMMEDIATE, LISTENERS, POWER_RESUME, POWER_TASK, WIN_CHECKS
from .powers import modifiers as M  # the powers that change a basic rule
from .render import render
from .scoring import final_scores
from .vocab import (
    CHOOSE,
    CONTRACT,
    GREY,
    IMPORT,
    ISLAND,
    LOAD,
    LUXURY,
    NUM_ACTION_TYPES,
    NUM_PHASES,
    NUM_TYPES,
    P_BID,
    P_CONTRACT_CARD,
    P_CONTRACT_SHIP,
    P_FOLLOW,
    P_IMPORT_PICK,
    P_IMPORT_SHIP,
    P_IMPORT_ZONE,
    P_LEAD,
    P_LOAD_CARD,
    P_LOAD_SHIP,
    P_PIRATE_PLACE,
    P_PIRATE_TAKE,
    P_POWER,
    P_SUPPLY,
    P_WILD1,
    P_WILD2,
    P_WILD_ACTION,
    PHASE_NAMES,
    PIRATE,
    SUPPLY,
    TECHNOLOGY,
)

# The vocabulary is declared in ``vocab.py``; it is named here too for the tests and notebooks
# that import it from the rules.
__all__ = [
    "CHOOSE",
    "CONTRACT",
    "GREY",
    "IMPORT",
    "ISLAND",
    "LOAD",
    "LUXURY",
    "NUM_PHASES",
    "NUM_TYPES",
    "PHASE_NAMES",
    "PIRATE",
    "SUPPLY",
    "TECHNOLOGY",
    "ImportExportConfig",
    "ImportExportGame",
    "ImportExportState",
]

Ask = tuple[int, int, tuple[int, ...], tuple[Any, ...], bool]
"""A decision: (phase, player, legal actions, what ``RESUME[phase]`` gets after the action,
whether the options are public)."""
Task = tuple[Any, ...]
"""A task of the stack: ``(name, *args)``, run by ``TASKS[name](st, *args)``."""
AutoListener = Callable[["ImportExportState", int, int], None]
"""``fn(state, player, action)``: told of a decision the engine applies by itself."""
Capped = tuple[tuple[int, ...] | None, int]
"""Prefab Homes' slot group in ``matched``: (its colours, None for any; how many count)."""

_ACT_PHASE = {CONTRACT: P_CONTRACT_CARD, LOAD: P_LOAD_CARD, PIRATE: P_PIRATE_TAKE, SUPPLY: P_SUPPLY}
UNLIMITED = 10**6  # Board Games' imports limit
# By good type: "your <colour> containers are now wild" / "your <type> contracts now have a
# rainbow load requirement".
WILD_KEYS = ("televisions", "wheat", "soap", "impalas", "big_cats")
RAINBOW_KEYS = ("generators", "coffee", "candy", "gold_watches", "seeds")
# Gaining one of these can complete a shipment already in the harbor.
MATCH_KEYS = frozenset(WILD_KEYS + RAINBOW_KEYS + ("prefab_homes", "robot_cats"))


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

    def _build_layout(self) -> ObservationLayout:
        return build_layout(self)

    def _make_encoder(self) -> ImportExportEncoder:
        return ImportExportEncoder(self)

    def new_initial_state(self, seed: int | None = None) -> ImportExportState:
        return ImportExportState(self, seed)

    def action_to_string(self, action: int) -> str:
        return A.to_string(action, self.names)


class ImportExportState(State[ImportExportGame]):
    """A position. Lists of card ids per zone; ships ``2p`` and ``2p+1`` belong to seat p.

    ``ask`` is the decision in progress (see ``Ask``), ``stack`` the tasks still to run.
    ``auto_listeners``: functions ``fn(state, player, action)`` told of every decision the engine
    applies by itself (a single option that is public), just before it is applied, with the
    position the decision is made in, as a driver's observer sees the players' decisions (the
    analytics count forced bids and forced ship picks this way). They must only read the state.
    A clone or a resampled state starts with none.
    """

    _not_replayable: str  # set by ``arrange`` and ``resample``: why ``to_replay`` refuses

    def __init__(self, game: ImportExportGame, seed: int | None) -> None:
        super().__init__(game, seed)
        g, n, rng = game, game.num_players, self.rng
        rules = g.data.rules
        self.n = n
        # Harbors (R5.5): below 6 players the grey harbor stays in the box.
        colours = list(range(NUM_TYPES)) if n < 6 else list(range(NUM_TYPES + 1))
        rng.shuffle(colours)
        self.colour = colours[:n]
        self.deck = list(g.deck_cards)
        rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.island: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.imports: list[list[int]] = [[] for _ in range(n)]
        self.goods: list[list[int]] = [[] for _ in range(n)]
        self.shipments: list[list[int]] = [[] for _ in range(n)]
        self.credits: list[int] = [
            rules["start_credits"] + (rules["grey_bonus"] if self.colour[p] == GREY else 0) for p in range(n)
        ]
        self.bank: int = rules["bank"] - sum(self.credits)
        # Ships: one in each harbor, one at sea seeded with four goods.
        self.at_sea = [False, True] * n
        self.contracts: list[list[int]] = [[] for _ in range(2 * n)]
        self.cargo: list[list[int]] = [[] for _ in range(2 * n)]
        for p in range(n):
            for _ in range(rules["seed_per_ship"]):
                self.cargo[2 * p + 1].append(self.deck.pop())
        for _ in range(n):
            self.island.append(self.deck.pop())
        for p in range(n):
            for _ in range(g.hand_size):
                self.hands[p].append(self.deck.pop())
        c = g.config
        self.leader = rng.randrange(n) if c.first_leader is None else c.first_leader
        self.turn = 0
        self.declared = -1
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.followed = [0] * n  # 0 undecided, 1 followed, 2 drew
        self.actions_left = [0] * n
        self.act_as = [-1] * n  # the action type a seat carries out (-1: declared)
        self.sold = [False] * n
        self.pending = -1  # the public card being placed
        self.bids = [-1] * n  # sealed: hidden until all are in
        self.bidders: list[int] = []
        self.last_bids = [-1] * n  # the last revealed round
        self.import_ship = -1
        self.end_reason = ""
        self.said_aloud = ""  # the last name said aloud by a power (Shower Heads, Rolls Royce...)
        self.over = False
        self.truncated = False
        self.owner = [-1] * len(g.cards)  # card id -> seat whose shipments hold it
        self.passive = [0] * n  # passive credits (Helicopter), paid at the end
        self.instant_winner = -1  # a power that wins the game outright
        self.once: list[str] = []  # "once per turn" powers used this turn
        self.double_turn = [0] * n  # Delayed Game: 1 owed, 2 being taken now
        self.check_wins_now = False  # True once any WIN_CHECKS card is held
        self.wind_copy = -1  # the card whose power Wind Turbines copies
        # seen[v * n + q]: cards seat v saw go into seat q's hand (``show_in_hand``); read
        # through ``seen_in_hand``, which drops those v has seen anywhere else since.
        self.seen: list[list[int]] = [[] for _ in range(n * n)]
        # epoch[card]: the reshuffle that last put the card into the deck (0: the first deal)
        self.reshuffles = 0
        self.epoch = [0] * len(g.cards)
        self.stack: list[Task] = [("turn",)]
        self.ask: Ask | None = None
        self.auto_listeners: list[AutoListener] = []
        self._run()

    # ----- contract ----------------------------------------------------------------------------
    def current_player(self) -> int:
        ask = self.ask
        return TERMINAL if self.over or ask is None else ask[1]

    def legal_actions(self) -> tuple[int, ...]:
        ask = self.ask
        return () if self.over or ask is None else ask[2]

    def _is_legal(self, action: int) -> bool:
        ask = self.ask
        return not self.over and ask is not None and action in ask[2]

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        ask = self.ask
        if not self.over and ask is not None:
            mask[list(ask[2])] = 1
        return mask

    def is_terminal(self) -> bool:
        return self.over

    def is_truncated(self) -> bool:
        return self.truncated

    @property
    def phase(self) -> int:
        ask = self.ask
        return -1 if self.over or ask is None else ask[0]

    def scores(self) -> list[float]:
        return [float(s) for s in final_scores(self)]

    def _render(self, player: int | None) -> str:
        return render(self, player)

    def _public_action_string(self, action: int) -> str:
        """What the other seats see of the current player's ``action``: a sealed bid is only "a
        bid" until all are in (the reveal shows it), and a power's hidden choice (a card handed
        over face down, ``HIDDEN_CHOICES``) says what kind of choice it was; every other decision
        is public (a card played, contracted, loaded, sold or discarded is seen by all)."""
        ask = self.ask
        if ask is not None and not self.over:
            phase = ask[0]
            if phase == P_BID:
                return f"player {ask[1]} bids (sealed)"
            if phase == P_POWER:
                hidden = HIDDEN_CHOICES.get(ask[3][0])
                text = hidden(self, ask[1], ask[3][1:], action) if hidden is not None else None
                if text is not None:
                    return text
        return self.game.action_to_string(action)

    def clone(self) -> ImportExportState:
        other = ImportExportState.__new__(ImportExportState)
        d = other.__dict__
        for key, value in self.__dict__.items():
            if type(value) is list:
                d[key] = [v[:] if type(v) is list else v for v in value]
            else:
                d[key] = value
        other.rng = copy_rng(self.rng)
        other.auto_listeners = []  # the watchers of this game, not of its copies
        return other

    def _resample(self, player: int, rng: random.Random) -> ImportExportState:
        """Redraw what ``player`` cannot see: the other hands, the deck's order, sealed bids.

        Every other hand keeps the cards ``player`` saw go into it and has not seen leave
        (``seen_in_hand``: a Hawaiian Salt reveal, a card taken from the island or a ship, a card
        it handed over); the rest of each hand is dealt at random from the cards ``player`` cannot
        see. A decision in progress that is not public belongs to another seat's hand: it is asked
        again from the redrawn hand (``_reasker``), and the redraw must fit what the table saw
        (the decision has options: a two-card wild's first card has a partner of its type, a
        Robot Cats pair has its second card). Redrawn until it fits, then dealt with one card
        that makes it fit. No hand is ever copied from the real one.
        """
        ask = self.ask
        reask = None
        if ask is not None and not ask[4] and ask[1] != player:
            reask = _reasker(ask)
        others = [q for q in range(self.n) if q != player]
        known = {q: self._known_hand(player, q, rng) for q in others}
        other = None
        for _ in range(_REDRAWS):
            other = self._dealt(self._deal(others, known, rng), ask, reask)
            if other is not None:
                break
        else:
            # Rare: few hands fit. Put each candidate card into the decider's hand in turn.
            d = ask[1] if ask is not None else -1
            fixed = {c for cards in known.values() for c in cards}
            hidden = [c for c in self.deck + [c for q in others for c in self.hands[q]] if c not in fixed]
            for card in rng.sample(hidden, len(hidden)):
                other = self._dealt(self._deal(others, {**known, d: known[d] + [card]}, rng), ask, reask)
                if other is not None:
                    break
            else:
                raise RuntimeError(f"no hand of seat {d} fits the decision in progress: {ask}")
        for q in others:
            if other.bids[q] >= 0:
                other.bids[q] = rng.randrange(min(other.credits[q] // 2, A.MAX_BID_STEPS) + 1)
        other.rng = random.Random(rng.getrandbits(64))
        other._not_replayable = "a resampled state is a hypothetical deal"
        return other

    def _known_hand(self, viewer: int, q: int, rng: random.Random) -> list[int]:
        """The cards ``viewer`` knows are in q's hand. More than q holds (a known card went on
        face down to a third seat, and the viewer cannot tell which): a random choice of them."""
        cards = self.seen_in_hand(viewer, q)
        k = len(self.hands[q])
        return cards if len(cards) <= k else rng.sample(cards, k)

    def _deal(self, others: list[int], known: dict[int, list[int]], rng: random.Random) -> dict[int, list[int]]:
        """New hands for ``others`` (key -1: the deck): each keeps its ``known`` cards, and the
        rest is dealt at random, class by class. A card's class is the reshuffle that last put
        it into the deck (0: the first deal), public since the discard pile is face up: after a
        reshuffle the deck holds only its cards, and each hand holds as many cards of each class
        as it drew of it and did not play (only a face-down hand-to-hand gift, whose class the
        table cannot see, is dealt as the real hand's counts)."""
        epoch = self.epoch
        fixed = {c for cards in known.values() for c in cards}
        pools: dict[int, list[int]] = {}
        for c in self.deck + [c for q in others for c in self.hands[q]]:
            if c not in fixed:
                pools.setdefault(epoch[c], []).append(c)
        for pool in pools.values():
            rng.shuffle(pool)
        hands: dict[int, list[int]] = {}
        for q in others:
            need = Counter(epoch[c] for c in self.hands[q])
            need.subtract(epoch[c] for c in known[q])
            hand = known[q][:]
            for e, k in need.items():
                pool = pools.get(e, [])
                k = min(k, len(pool))
                if k > 0:
                    hand += pool[-k:]
                    del pool[-k:]
            hands[q] = hand
        rest = [c for pool in pools.values() for c in pool]
        rng.shuffle(rest)
        for q in others:  # a known card handed on face down leaves its class short: top up
            short = len(self.hands[q]) - len(hands[q])
            if short > 0:
                hands[q] += rest[:short]
                del rest[:short]
        hands[-1] = rest
        return hands

    def _dealt(
        self,
        hands: dict[int, list[int]],
        ask: Ask | None,
        reask: Callable[[ImportExportState, Ask], None] | None,
    ) -> ImportExportState | None:
        """A copy holding ``hands`` (key -1: the deck) with the decision in progress asked again;
        None if it no longer fits (or a hand has the wrong size: a card forced into it)."""
        other = self.clone()
        for q, cards in hands.items():
            if q < 0:
                other.deck = cards
            elif len(cards) != len(self.hands[q]):
                return None
            else:
                other.hands[q] = cards
        if reask is None or ask is None:
            return other
        other.ask = None
        reask(other, ask)
        new = other.ask
        if new is None or new[:2] != ask[:2] or not new[2] or new[4] != ask[4]:
            return None
        return other

    def arrange(
        self,
        *,
        hands: dict[int, Sequence[int | str]] | None = None,
        imports: dict[int, Sequence[int | str]] | None = None,
        goods: dict[int, Sequence[int | str]] | None = None,
        shipments: dict[int, Sequence[int | str]] | None = None,
        ships: dict[int, dict[str, Any]] | None = None,
        island: Sequence[int | str] = (),
        deck_top: Sequence[int | str] = (),
        discard: Sequence[int | str] = (),
        credits: dict[int, int] | None = None,
        leader: int | None = None,
        colours: Sequence[int] | None = None,
    ) -> ImportExportState:
        """Lay out a scripted position (for tests and tutorials), then start a turn.

        Cards are named by key or name (``"laptops"``, ``"LAPTOPS"``). ``hands``, ``imports``,
        ``goods`` and ``shipments`` map seats to card lists; ``ships`` maps ship ids to
        ``{"at_sea": bool, "contracts": [...], "cargo": [...]}`` (ships not named wait empty in
        their harbor); ``deck_top`` lists the next draws, first drawn first. Every card not placed
        is shuffled into the deck, so cards are conserved. ``credits`` maps seats to active
        credits (the bank holds the rest). An arranged state cannot be replayed from its seed.
        """
        g, n = self.game, self.n
        pool = set(g.deck_cards)

        def take(cards: Iterable[int | str]) -> list[int]:
            ids = [g.card_id(c) for c in cards]
            for c in ids:
                if c not in pool:
                    raise ValueError(f"{g.names[c]} is placed twice or is not in this game's deck")
                pool.remove(c)
            return ids

        def per_seat(mapping: dict[int, Sequence[int | str]] | None) -> list[list[int]]:
            mapping = mapping or {}
            return [take(mapping.get(p, ())) for p in range(n)]

        self.hands, self.imports, self.goods = per_seat(hands), per_seat(imports), per_seat(goods)
        self.shipments = per_seat(shipments)
        self.owner = [-1] * len(g.cards)
        for p in range(n):
            for c in self.shipments[p]:
                self.owner[c] = p
        self.check_wins_now = any(self.owner[g.ids[k]] >= 0 for k in WIN_CHECKS)
        self.wind_copy = -1
        self.at_sea = [False] * (2 * n)
        self.contracts = [[] for _ in range(2 * n)]
        self.cargo = [[] for _ in range(2 * n)]
        for s, ship in (ships or {}).items():
            self.at_sea[s] = bool(ship.get("at_sea", False))
            self.contracts[s] = take(ship.get("contracts", ()))
            self.cargo[s] = take(ship.get("cargo", ()))
        self.island, self.discard = take(island), take(discard)
        top = take(deck_top)
        rest = sorted(pool)
        self.rng.shuffle(rest)
        self.deck = rest + top[::-1]
        if colours is not None:
            self.colour = list(colours)
        start = g.data.rules["start_credits"]
        self.credits = [(credits or {}).get(p, start) for p in range(n)]
        self.bank = g.data.rules["bank"] - sum(self.credits)
        if leader is not None:
            self.leader = leader
        self.played = [[] for _ in range(n)]
        self.pending = -1
        self.last_bids = [-1] * n
        self.turn = 0
        self.end_reason = ""
        self.stack = [("turn",)]
        self.ask = None
        self._not_replayable = "its position was laid out with arrange()"
        self._run()
        return self

    # ----- the step ----------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        ask = self.ask
        assert ask is not None, "an action is legal only while a decision is stated"
        self.ask = None
        RESUME[ask[0]](self, action, *ask[3])
        self._run()

    def win(self, p: int, reason: str) -> None:
        """A power wins the game outright for p: the game ends at once."""
        self.instant_winner = p
        self.end_reason = reason
        self.over = True

    def check_wins(self) -> None:
        """Powers whose condition wins the game outright (``powers.WIN_CHECKS``)."""
        for key, fn in WIN_CHECKS.items():
            for p in self.holders(self.game.ids[key]):
                if fn(self, p):
                    self.win(p, f"player {p} won with {self.game.names[self.game.ids[key]].title()}")
                    return

    def _run(self) -> None:
        """Run tasks until a decision is needed; apply single public choices on the way (and tell
        ``auto_listeners`` about each, before it is applied)."""
        stack = self.stack
        while not self.over:
            if self.check_wins_now:
                self.check_wins()
                if self.over:
                    return
            ask = self.ask
            if ask is not None:
                if len(ask[2]) == 1 and ask[4]:
                    action = ask[2][0]
                    for listener in self.auto_listeners:
                        listener(self, ask[1], action)
                    self.ask = None
                    RESUME[ask[0]](self, action, *ask[3])
                    continue
                return
            task = stack.pop()
            TASKS[task[0]](self, *task[1:])

    def _ask(
        self, phase: int, player: int, options: Iterable[int], ctx: tuple[Any, ...] = (), public: bool = False
    ) -> None:
        """State a decision. ``public``: the options are public, so a single one is automatic."""
        self.ask = (phase, player, tuple(options), ctx, public)

    def push(self, *task: Any) -> None:
        self.stack.append(task)

    # ----- the engine's steps the powers reuse -------------------------------------------------
    def declare(self, action_type: int) -> None:
        """The leader declares ``action_type``: the followers are asked next."""
        _declare(self, action_type)

    def ask_contract_ship(self, p: int, card: int, phase: int, key: str = "") -> None:
        """Ask p for the ship of the contract ``card`` in ``pending`` (a power's ask: ``key``)."""
        ask_contract_ship(self, p, card, phase, key)

    def ask_load_ship(self, p: int, card: int, via: str) -> None:
        """Ask p for the ship of the container ``card`` in ``pending``."""
        ask_load_ship(self, p, card, via)

    def pirated(self, p: int, card: int, s: int) -> None:
        """p pirated ``card`` from ship s (-1: the island, the deck or a hand): place it."""
        pirated(self, p, card, s)

    def won_import(self, p: int, s: int, price: int) -> None:
        """p won an import round on ship s (``ISLAND``: the supply island) for ``price``."""
        _won(self, p, s, price)

    # ----- powers --------------------------------------------------------------------------------
    def has(self, p: int, key: str) -> bool:
        """Whether p holds the power of ``key``: the card is in p's completed shipments, or p's
        Wind Turbines copies it."""
        return self.holds(p, self.game.ids[key])

    def holds(self, p: int, card: int) -> bool:
        return self.owner[card] == p or (card == self.wind_copy and self.owner[self.game.wind_turbines] == p)

    def holder(self, key: str) -> int:
        """The seat holding ``key``'s power (the card's owner first, then a Wind Turbines copy), or -1."""
        card = self.game.ids[key]
        p = self.owner[card]
        return p if p >= 0 or card != self.wind_copy else self.owner[self.game.wind_turbines]

    def holders(self, card: int) -> tuple[int, ...]:
        """Every seat holding ``card``'s power: its owner and the owner of a Wind Turbines copy."""
        p = self.owner[card]
        if card != self.wind_copy:
            return (p,) if p >= 0 else ()
        q = self.owner[self.game.wind_turbines]
        return tuple(x for x in (p, q) if x >= 0)

    def add_shipment(self, p: int, card: int) -> None:
        self.shipments[p].append(card)
        self.owner[card] = p
        if self.game.cards[card].key in WIN_CHECKS:
            self.check_wins_now = True

    def remove_shipment(self, p: int, card: int) -> None:
        self.shipments[p].remove(card)
        self.owner[card] = -1

    def emit(self, event: str, *args: Any) -> None:
        """Tell every holder of a power that listens to ``event`` (``powers.LISTENERS``)."""
        ids = self.game.ids
        for key, fn in LISTENERS.get(event, ()):
            card = ids[key]
            if card == self.wind_copy:
                for p in self.holders(card):
                    fn(self, p, *args)
                continue
            p = self.owner[card]
            if p >= 0:
                fn(self, p, *args)

    def ask_power(
        self, key: str, player: int, options: Iterable[int], args: tuple[Any, ...] = (), public: bool = False
    ) -> None:
        """A decision a power gives ``player``; ``POWER_RESUME[key](st, action, *args)`` gets it."""
        self.ask = (P_POWER, player, tuple(sorted(options)), (key, *args), public)

    def add_good(self, p: int, card: int) -> None:
        self.goods[p].append(card)
        self.emit("good_added", p, card)

    # ----- credits, cards and capacities -------------------------------------------------------
    def gain(self, p: int, amount: int) -> int:
        """Credits from the bank (as much as it holds)."""
        amount = min(amount, self.bank)
        self.bank -= amount
        self.credits[p] += amount
        self.check_credit_end(p)
        return amount

    def end_credits(self) -> int:
        """Active credits that end the game: 70 once anyone holds MIRI Machines ("even if playing
        an extended game"), else the configured amount."""
        g = self.game
        return g.mri_end_credits if self.holders(g.miri_machines) else g.end_credits

    def check_credit_end(self, p: int) -> None:
        # Can Openers: "You can no longer trigger game end."
        if self.end_reason or self.holds(p, self.game.can_openers):
            return
        limit = self.end_credits()
        if self.credits[p] >= limit:
            self.end_reason = f"player {p} reached {limit} active credits"

    def pay(self, p: int, amount: int) -> int:
        """Credits to the bank (as much as the player has)."""
        amount = min(amount, self.credits[p])
        self.credits[p] -= amount
        self.bank += amount
        if amount:
            self.emit("spent", p, amount)
        return amount

    def transfer(self, payer: int, payee: int, amount: int) -> int:
        """Credits from one player to another (as much as the payer has)."""
        amount = min(amount, self.credits[payer])
        self.credits[payer] -= amount
        self.credits[payee] += amount
        if amount:
            self.emit("spent", payer, amount)
        self.check_credit_end(payee)
        return amount

    # ----- what each seat knows of the other hands (perfect recall) -----------------------------
    def show_in_hand(self, q: int, cards: Iterable[int], viewers: Iterable[int] | None = None) -> None:
        """``viewers`` (default: every seat) saw ``cards`` go into q's hand: a card taken from a
        public place, a revealed hand, a card handed over (its giver knows where it went)."""
        n, cards, seen = self.n, list(cards), self.seen
        for v in range(n) if viewers is None else viewers:
            if v == q:
                continue
            for r in range(n):  # seen in q's hand now, so no longer where v saw it before
                if r != q and seen[v * n + r]:
                    seen[v * n + r] = [c for c in seen[v * n + r] if c not in cards]
            seen[v * n + q] += cards

    def reveal_hand(self, q: int) -> None:
        """Every other seat sees q's whole hand (Hawaiian Salt)."""
        n = self.n
        for v in range(n):
            if v != q:
                self.seen[v * n + q] = self.hands[q][:]

    def hand_given(self, q: int, p: int) -> None:
        """q gives its whole hand to p (Dyson Vacuums): what anyone knew of it is now in p's hand,
        and q knows all of it."""
        n, seen = self.n, self.seen
        for v in range(n):
            if v not in (p, q):
                seen[v * n + p] += seen[v * n + q]
                seen[v * n + q] = []
        seen[q * n + p] += self.hands[q]
        self.hands[p] += self.hands[q]
        self.hands[q] = []

    def seen_in_hand(self, viewer: int, q: int) -> list[int]:
        """The cards ``viewer`` saw go into q's hand and has not seen anywhere else since. A card
        now face up (played, contracted, loaded, sold, discarded...) or in the viewer's own hand
        left q's hand before its eyes; one handed on face down to a third seat is, for all the
        viewer knows, still with q. Whether a card is in some hand at all is public."""
        cards = self.seen[viewer * self.n + q]
        if not cards:
            return cards
        hands, mine = self.hands, self.hands[viewer]
        held = {c for r, hand in enumerate(hands) if r != viewer for c in hand}
        return [c for c in dict.fromkeys(cards) if c in held and c not in mine]

    def draw(self, p: int, k: int = 1) -> int:
        """Draw ``k`` cards into p's hand, recycling the discard pile when the deck runs out."""
        drawn = 0
        for _ in range(k):
            card = self.draw_card(p)
            if card < 0:
                break
            self.hands[p].append(card)
            drawn += 1
        if drawn:
            self.emit("drew", p, drawn)
        return drawn

    def draw_card(self, by: int = -1) -> int:
        """The top card of the deck (-1 and the game ends when deck and discard are empty).
        ``by``: the seat drawing, if any (a Can Openers holder cannot trigger the end)."""
        ends = not self.end_reason and (by < 0 or not self.holds(by, self.game.can_openers))
        if not self.deck:
            if not self.discard:
                if ends:
                    self.end_reason = "the draw deck and the discard pile are empty"
                return -1
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.reshuffles += 1
            for c in self.deck:  # face up until now: everyone knows which cards the deck holds
                self.epoch[c] = self.reshuffles
            if any(self.seen):  # cards seen in a hand, then discarded: from now on anywhere
                gone = set(self.deck)
                self.seen = [[c for c in cards if c not in gone] for cards in self.seen]
        card = self.deck.pop()
        if not self.deck and not self.discard and ends:
            self.end_reason = "the final card was drawn"
        return card

    def draw_up(self, p: int) -> None:
        """The draw action: up to five cards, or one more with five or more (R5.3)."""
        hand = len(self.hands[p])
        self.draw(p, self.game.hand_size - hand if hand < self.game.hand_size else 1)
        self.emit("draw_action", p)

    def imports_cap(self, p: int) -> int:
        """1 + completed shipments; Board Games lifts the limit once p's shipments hold every type."""
        g = self.game
        if self.owner[g.board_games] == p and len({g.ctype[c] for c in self.shipments[p]}) == NUM_TYPES:
            return UNLIMITED
        return 1 + len(self.shipments[p])

    def goods_cap(self, p: int) -> int:
        return 2 * (1 + len(self.shipments[p]))

    def goods_counted(self, p: int, goods: list[int] | None = None) -> int:
        """Goods counted against the limit: Scotch Whisky counts every 2 luxury goods as 1."""
        goods = self.goods[p] if goods is None else goods
        if not self.holds(p, self.game.scotch_whisky):
            return len(goods)
        ctype = self.game.ctype
        return len(goods) - sum(1 for c in goods if ctype[c] == LUXURY) // 2

    def goods_fit(self, p: int, card: int) -> bool:
        """Whether ``card`` may be added to p's goods without passing the limit."""
        return self.goods_counted(p, self.goods[p] + [card]) <= self.goods_cap(p)

    def virtual_goods(self, p: int) -> int:
        """Virtual goods p has of every type (Ferraris: "a virtual one of every good type in your
        goods"); they count for tiers and for powers that count p's goods of a type, never for
        the goods limit."""
        return int(self.owner[self.game.ferraris] == p)

    def goods_count(self, p: int, t: int) -> int:
        """p's goods of type t, virtual ones included."""
        ctype = self.game.ctype
        return sum(1 for c in self.goods[p] if ctype[c] == t) + self.virtual_goods(p)

    def tier(self, p: int, t: int) -> int:
        """Goods of type t (virtual ones included) plus the harbor's innate tier (R5.5)."""
        return self.goods_count(p, t) + (self.colour[p] == t)

    def deficit(self, p: int, card: int) -> int:
        return max(0, self.game.ctier[card] - self.tier(p, self.game.ctype[card]))

    def acting(self, p: int) -> int:
        """The action type p carries out this turn (CHOOSE: Rice Cookers, not yet chosen)."""
        a = self.act_as[p]
        return self.declared if a == -1 else a

    def harbor_ships(self, p: int) -> list[int]:
        return [s for s in (2 * p, 2 * p + 1) if not self.at_sea[s]]

    def sea_ships(self) -> list[int]:
        return [s for s in range(2 * self.n) if self.at_sea[s] and self.cargo[s]]

    # ----- loading and completion ----------------------------------------------------------------
    def requirement(self, s: int) -> list[int]:
        """The printed load requirement of ship s's contracts (container colours)."""
        cload = self.game.cload
        return [colour for c in self.contracts[s] for colour in cload[c]]

    def need(self, p: int, card: int) -> int:
        """Containers that complete ``card`` as a contract of p: Prefab Homes halves p's luxury
        contracts ("loading half of the required containers", rounded up)."""
        g = self.game
        k = len(g.cload[card])
        if g.ctype[card] == LUXURY and self.owner[g.prefab_homes] == p:
            return (k + 1) // 2
        return k

    def needed(self, s: int) -> int:
        p = s // 2
        return sum(self.need(p, c) for c in self.contracts[s])

    def capacity(self, p: int) -> int:
        """Containers one of p's ships may be contracted for: 6, or 8 with Tablets."""
        g = self.game
        return g.tablets_max_load if self.owner[g.tablets] == p else g.max_load

    def matched(self, s: int, extra: Iterable[int] = (), pairs: bool = True) -> int:
        """Required slots of ship s that its containers (plus the cards ``extra``) fill, at best
        (R5.7: an exact maximum matching).

        The owner's powers change the matching: wild containers (Televisions, Wheat, Soap, Impalas,
        Big Cats) fill any slot; rainbow contracts (Generators, Coffee, Candy, Gold Watches, Seeds,
        and Tortillas itself) take any colour; Prefab Homes' luxury contracts need only half their
        containers, of any of their colours; Robot Cats lets two containers of one type count as
        one technology container (``pairs=False`` leaves that out)."""
        g = self.game
        p = s // 2
        own = self.owner
        ctype = g.ctype
        have = [0] * NUM_TYPES
        for c in self.cargo[s]:
            have[ctype[c]] += 1
        for c in extra:
            have[ctype[c]] += 1
        wild = [own[c] == p for c in g.wild_ids]
        spec = [0] * NUM_TYPES
        rainbow = 0
        capped: list[Capped] = []
        prefab = own[g.prefab_homes] == p
        for c in self.contracts[s]:
            t = ctype[c]
            load = g.cload[c]
            any_colour = (
                own[g.rainbow_ids[t]] == p
                or c == g.tortillas
                or (self.wind_copy == g.rainbow_ids[t] and own[g.wind_turbines] == p)
            )
            if prefab and t == LUXURY and len(load) > 1:
                capped.append((None if any_colour else load, (len(load) + 1) // 2))
            elif any_colour:
                rainbow += len(load)
            else:
                for colour in load:
                    spec[colour] += 1
        best = _match(have, wild, spec, rainbow, capped)
        if pairs and own[g.robot_cats] == p:
            best = max(best, _match_pairs(have, wild, spec, rainbow, capped))
        return best

    def fits(self, s: int, card: int) -> bool:
        """A container may be loaded only where it fills an open slot (R5.7)."""
        return bool(self.contracts[s]) and self.matched(s, (card,)) > self.matched(s)

    def pair_fits(self, s: int, card: int) -> bool:
        """Robot Cats: ``card`` fills no slot alone, but two containers of its type would."""
        if not self.contracts[s] or self.owner[self.game.robot_cats] != s // 2:
            return False
        now = self.matched(s)
        return self.matched(s, (card,)) == now < self.matched(s, (card, card))

    def room(self, s: int) -> int:
        return self.capacity(s // 2) - self.needed(s)

    def load_onto(self, s: int, card: int, via: str = "load") -> None:
        """Load a container; ``via`` is "load", "pirate" or "power" (some powers care)."""
        self.cargo[s].append(card)
        self.emit("loaded", s // 2, s, card, via)
        self.check_complete(s)

    def check_complete(self, s: int) -> None:
        if self.contracts[s] and not self.at_sea[s] and self.matched(s) >= self.needed(s):
            self.complete(s)

    def complete(self, s: int) -> None:
        """A shipment completes at once (R5.7): payout, seed the island, contracts to shipments
        (their immediate powers in contract order), then the ship sails with its containers."""
        p = s // 2
        self.gain(p, self.game.payout[min(len(self.cargo[s]), 8)])
        card = self.draw_card(p)
        if card >= 0:
            self.island.append(card)
        done = self.contracts[s]
        self.contracts[s] = []
        keys = self.game.cards
        for c in done:
            self.add_shipment(p, c)
        # Tasks run last-pushed first: immediate powers in contract order, then the powers that
        # react to a completion, then the ship sails; then, if a power that changes matching was
        # gained, p's other shipments may be complete already.
        if any(keys[c].key in MATCH_KEYS for c in done):
            self.push("recheck", p)
        self.push("sail", s)
        self.emit("completed", p, s, tuple(done))
        for c in reversed(done):
            if self.game.cards[c].key in IMMEDIATE:
                self.push("power", self.game.cards[c].key, p)

    def ship_emptied(self, s: int) -> None:
        """A ship at sea with no containers left returns to its owner's harbor."""
        if self.at_sea[s] and not self.cargo[s]:
            self.at_sea[s] = False
            self.emit("ship_returned", s)

    def take_container(self, card: int) -> int:
        """Take a public container off the island (returns -1) or any ship (returns the ship)."""
        if card in self.island:
            self.island.remove(card)
            return -1
        for s in range(2 * self.n):
            if card in self.cargo[s]:
                self.cargo[s].remove(card)
                return s
        raise AssertionError(f"card {card} is neither on a ship nor on the island")

    def contract(self, p: int, s: int, card: int) -> None:
        """``card`` becomes a contract on p's ship s (by a Contract action or a power)."""
        self.contracts[s].append(card)
        # Tasks run last-pushed first: a completion this causes, then Flour's loads, then Paprika.
        if self.has(p, "paprika"):
            self.push("power", "paprika", p)
        if self.game.cards[card].key == "flour":
            self.push("power", "flour", p, s, 4)
        self.emit("contracted", p, s, card)
        self.check_complete(s)  # containers left by a discarded contract may already fit

    # ----- helpers for asks ----------------------------------------------------------------------
    def wild_firsts(self, p: int) -> list[int]:
        ctype = self.game.ctype
        hand = self.hands[p]
        counts = [0] * NUM_TYPES
        for c in hand:
            counts[ctype[c]] += 1
        return [c for c in hand if counts[ctype[c]] >= 2]

    def next_seat(self, p: int) -> int:
        return (p + 1) % self.n

    def order_from_leader(self) -> list[int]:
        return [(self.leader + i) % self.n for i in range(self.n)]


# ----- matching containers to slots -------------------------------------------------------------
def _match(have: list[int], wild: list[bool], spec: list[int], rainbow: int, capped: list[Capped]) -> int:
    """Maximum matching of containers (``have`` per colour; ``wild`` colours fill any slot) to
    slots: ``spec`` per colour, ``rainbow`` any-colour slots, and ``capped`` groups (Prefab Homes:
    ``(colours or None for any, need)``: at most ``need`` of those slots count)."""
    if capped:
        return _match_flow(have, wild, spec, rainbow, capped)
    # Exact without capped groups: a plain container fills its own colour first (nothing else
    # can use it there), leftovers go to rainbow slots, wild containers fill whatever is left.
    direct = left = free = 0
    for t in range(NUM_TYPES):
        if wild[t]:
            free += have[t]
        else:
            d = min(have[t], spec[t])
            direct += d
            left += have[t] - d
    return min(sum(spec) + rainbow, direct + min(left, rainbow) + free)


def _match_pairs(have: list[int], wild: list[bool], spec: list[int], rainbow: int, capped: list[Capped]) -> int:
    """Robot Cats: the best matching when any pairs of same-type containers act as one
    technology container."""
    counts = [range(have[t] // 2 + 1) if t != TECHNOLOGY and not wild[t] else range(1) for t in range(NUM_TYPES)]
    best = 0
    for split in itertools.product(*counts):
        if not any(split):
            continue
        h = [have[t] - 2 * split[t] for t in range(NUM_TYPES)]
        h[TECHNOLOGY] += sum(split)
        best = max(best, _match(h, wild, spec, rainbow, capped))
    return best


def _match_flow(have: list[int], wild: list[bool], spec: list[int], rainbow: int, capped: list[Capped]) -> int:
    """Max flow: source -> colour (or wild) -> slot group -> sink."""
    INF = 99
    src, sink, w = 0, 1, 2  # nodes 3..7: colours, then slot nodes
    col = [3 + t for t in range(NUM_TYPES)]
    cap: dict[int, dict[int, int]] = {}

    def edge(a: int, b: int, c: int) -> None:
        if c > 0:
            cap.setdefault(a, {})[b] = cap.get(a, {}).get(b, 0) + c
            cap.setdefault(b, {}).setdefault(a, 0)

    nxt = 3 + NUM_TYPES
    for t in range(NUM_TYPES):
        if not wild[t]:
            edge(src, col[t], have[t])
    edge(src, w, sum(have[t] for t in range(NUM_TYPES) if wild[t]))
    for t in range(NUM_TYPES):
        if spec[t]:
            edge(col[t], nxt, INF)
            edge(w, nxt, INF)
            edge(nxt, sink, spec[t])
            nxt += 1
    if rainbow:
        for t in range(NUM_TYPES):
            edge(col[t], nxt, INF)
        edge(w, nxt, INF)
        edge(nxt, sink, rainbow)
        nxt += 1
    for colours, need in capped:
        group = nxt
        nxt += 1
        edge(group, sink, need)
        edge(w, group, INF)
        if colours is None:
            for t in range(NUM_TYPES):
                edge(col[t], group, INF)
            continue
        for t in range(NUM_TYPES):
            k = colours.count(t)
            if k:
                edge(col[t], nxt, INF)
                edge(nxt, group, k)
                nxt += 1

    def augment(a: int, seen: set[int]) -> bool:
        if a == sink:
            return True
        seen.add(a)
        for b, c in cap.get(a, {}).items():
            if c > 0 and b not in seen and augment(b, seen):
                cap[a][b] -= 1
                cap[b][a] += 1
                return True
        return False

    flow = 0
    while augment(src, set()):
        flow += 1
    return flow


# ----- tasks ---------------------------------------------------------------------------------------
def _cards(cards: Iterable[int]) -> list[int]:
    return sorted(A.CARD + c for c in cards)


def _power_option(
    st: ImportExportState,
    p: int,
    action: int,
    table: Mapping[int, Callable[[ImportExportState, int], None]],
    reask: Task,
) -> bool:
    """Carry out an option a power added to p's decision (``powers.modifiers``): an "any time"
    power (then ``reask`` asks the decision again) or one of ``table``'s numbered options."""
    if M.is_anytime(st, p, action):
        st.push(*reask)
        M.use_anytime(st, p, action)
        return True
    use = table.get(action)
    if use is None:
        return False
    use(st, p)
    return True


def t_turn(st: ImportExportState) -> None:
    n = st.n
    if st.double_turn[st.leader] == 1:
        st.double_turn[st.leader] = 2  # this leader leads twice in a row (Delayed Game)
    st.declared = -1
    st.followed = [0] * n
    st.actions_left = [0] * n
    st.act_as = [-1] * n
    st.sold = [False] * n
    st.bids = [-1] * n
    st.import_ship = -1
    _ask_lead(st)


def _ask_lead(st: ImportExportState) -> None:
    p = st.leader
    options = [A.DRAW] + _cards(st.hands[p])
    if st.wild_firsts(p):
        options.append(A.WILD)
    # "At any point when a player is the leader of the turn, they may discard any shipment
    # contracts" -- offered before declaring.
    options += _cards(c for s in st.harbor_ships(p) for c in st.contracts[s])
    options += M.anytime_options(st, p)
    st._ask(P_LEAD, p, sorted(options))


def r_lead(st: ImportExportState, action: int) -> None:
    p = st.leader
    if _power_option(st, p, action, {}, ("lead",)):
        return
    if action == A.DRAW:
        st.push("turn_end")  # first, so that powers answering the draw come before it
        st.draw_up(p)
        return
    if action == A.WILD:
        st._ask(P_WILD1, p, _cards(st.wild_firsts(p)), (1, p))
        return
    card = action - A.CARD
    if card in st.hands[p]:
        st.hands[p].remove(card)
        st.played[p].append(card)
        a = st.game.caction[card]
        if a in (LOAD, CONTRACT) and st.has(p, "rice_cookers"):
            M.ask_rice_cookers(st, p, "declare")
            return
        _declare(st, a)
        return
    st.push("lead")
    for s in st.harbor_ships(p):  # a contract discarded; containers stay (R5.8)
        if card in st.contracts[s]:
            st.contracts[s].remove(card)
            st.discard.append(card)
            st.check_complete(s)


def _declare(st: ImportExportState, action_type: int) -> None:
    st.declared = action_type
    st.followed[st.leader] = 1
    st.push("follow", st.next_seat(st.leader))


def t_lead(st: ImportExportState) -> None:
    _ask_lead(st)


def t_follow(st: ImportExportState, p: int) -> None:
    if p == st.leader:
        st.push("execute")
        return
    options = [A.DRAW] + _cards(M.follow_cards(st, p))
    if st.wild_firsts(p):
        options.append(A.WILD)
    options += M.anytime_options(st, p)
    st._ask(P_FOLLOW, p, sorted(options), (p,))


def r_follow(st: ImportExportState, action: int, p: int) -> None:
    if _power_option(st, p, action, {}, ("follow", p)):
        return
    if action == A.DRAW:
        st.followed[p] = 2
        st.push("follow", st.next_seat(p))
        st.draw_up(p)
        return
    if action == A.WILD:
        st._ask(P_WILD1, p, _cards(st.wild_firsts(p)), (0, p))
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.played[p].append(card)
    st.followed[p] = 1
    if M.neural_follow(st, p, card):
        st.act_as[p] = LOAD
    st.push("follow", st.next_seat(p))


def r_wild1(st: ImportExportState, action: int, leading: int, p: int) -> None:
    card = action - A.CARD
    st.hands[p].remove(card)
    st.played[p].append(card)
    t = st.game.ctype[card]
    st._ask(P_WILD2, p, _cards(c for c in st.hands[p] if st.game.ctype[c] == t), (leading, p))


def r_wild2(st: ImportExportState, action: int, leading: int, p: int) -> None:
    card = action - A.CARD
    st.hands[p].remove(card)
    st.played[p].append(card)
    if leading:
        st._ask(P_WILD_ACTION, p, [A.ACTION + a for a in range(NUM_ACTION_TYPES)], (), public=True)
    else:
        st.followed[p] = 1
        st.push("follow", st.next_seat(p))


def r_wild_action(st: ImportExportState, action: int) -> None:
    _declare(st, action - A.ACTION)


def t_execute(st: ImportExportState) -> None:
    """Steps 3 and 4: the leader, then each follower clockwise, carries out its actions: one for
    following, plus one per matching card in its imports (drawers keep their imports)."""
    a = st.declared
    order = st.order_from_leader()
    for p in order:
        st.actions_left[p] = _action_count(st, p)
    st.push("turn_end")
    if a == IMPORT:
        for p in reversed(order):
            if st.act_as[p] == LOAD:  # Neural Units: a follower loading instead
                st.push("act", p)
        st.push("import_round", 1)
    else:
        for p in reversed(order):
            st.push("act", p)
    st.emit("execute", st.leader, a)


def _action_count(st: ImportExportState, p: int) -> int:
    a = st.declared
    if st.act_as[p] == LOAD and a != LOAD:  # Neural Units: "may only take load actions"
        return 1 + M.load_extras(st, p)
    kinds = M.action_kinds(st, p)
    caction = st.game.caction
    k = (st.followed[p] == 1) + sum(1 for c in st.imports[p] if caction[c] in kinds)
    k += M.virtual_imports(st, p, kinds)
    if k and len(kinds) > 1:
        st.act_as[p] = CHOOSE  # Rice Cookers: all Load or all Contract
    elif k and a == LOAD:
        k += M.load_extras(st, p)
    return k


def t_act(st: ImportExportState, p: int) -> None:
    if st.actions_left[p] <= 0:
        return
    a = st.acting(p)
    if a == CHOOSE:
        M.ask_rice_cookers(st, p, "act")
        return
    if a == PIRATE:
        _ask_pirate_take(st, p)
        return
    if a == CONTRACT:
        options = _contract_options(st, p) + M.contract_power_options(st, p)
    elif a == LOAD:
        options = _load_options(st, p) + M.load_power_options(st, p)
    else:
        options = [] if st.sold[p] else [A.CARD + c for c in st.hands[p]]
        if len(st.imports[p]) < st.imports_cap(p):
            options += [A.CARD + c for c in st.island]
    options += M.anytime_options(st, p)
    st._ask(_ACT_PHASE[a], p, sorted([A.DONE] + options), (p,))


def _contract_options(st: ImportExportState, p: int) -> list[int]:
    ships = st.harbor_ships(p)
    left = st.actions_left[p]
    return [
        A.CARD + c
        for c in st.hands[p]
        if st.deficit(p, c) <= left - 1 and any(st.room(s) >= st.need(p, c) for s in ships)
    ]


def _load_options(st: ImportExportState, p: int) -> list[int]:
    ships = [s for s in st.harbor_ships(p) if st.contracts[s]]
    return [A.CARD + c for c in st.hands[p] if any(st.fits(s, c) for s in ships) or M.pairable(st, p, c, ships)]


def r_contract_card(st: ImportExportState, action: int, p: int) -> None:
    if action == A.DONE:
        st.actions_left[p] = 0
        return
    if _power_option(st, p, action, M.CONTRACT_OPTIONS, ("act", p)):
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.pending = card
    # Each extra Contract action spent lowers the tier requirement by one (R5.6).
    st.actions_left[p] -= 1 + st.deficit(p, card)
    st.push("act", p)
    ask_contract_ship(st, p, card, P_CONTRACT_SHIP)


def ask_contract_ship(st: ImportExportState, p: int, card: int, phase: int, key: str = "") -> None:
    """The ship for a contract in ``pending`` (a power's own ask when ``key`` is given)."""
    need = st.need(p, card)
    ships = [A.SHIP + s for s in st.harbor_ships(p) if st.room(s) >= need]
    if key:
        st.ask_power(key, p, ships, (p, card), True)
    else:
        st._ask(phase, p, ships, (p, card), True)


def r_contract_ship(st: ImportExportState, action: int, p: int, card: int) -> None:
    st.pending = -1
    st.contract(p, action - A.SHIP, card)


def r_load_card(st: ImportExportState, action: int, p: int) -> None:
    if action == A.DONE:
        st.actions_left[p] = 0
        return
    if _power_option(st, p, action, M.LOAD_OPTIONS, ("act", p)):
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.pending = card
    st.actions_left[p] -= 1
    st.push("act", p)
    ask_load_ship(st, p, card, "load")


def ask_load_ship(st: ImportExportState, p: int, card: int, via: str) -> None:
    """The ship for the container in ``pending``. With Robot Cats, a Load action may also pick a
    ship where only a pair of its type fills a slot (the second card is asked next)."""
    ships = [s for s in st.harbor_ships(p) if st.fits(s, card)]
    robot = via == "load" and st.owner[st.game.robot_cats] == p
    if robot and M.has_partner(st, p, card):
        ships += [s for s in st.harbor_ships(p) if s not in ships and st.pair_fits(s, card)]
    # With Robot Cats the ships depend on the hand, so the ask is never automatic.
    st._ask(P_LOAD_SHIP, p, sorted(A.SHIP + s for s in ships), (p, card, via), not robot)


def t_load_ship(st: ImportExportState, p: int, card: int, via: str) -> None:
    ask_load_ship(st, p, card, via)


def r_load_ship(st: ImportExportState, action: int, p: int, card: int, via: str = "load") -> None:
    s = action - A.SHIP
    if not st.fits(s, card):
        M.ask_robot_partner(st, p, s, card)
        return
    st.pending = -1
    st.load_onto(s, card, via)


def _ask_pirate_take(st: ImportExportState, p: int) -> None:
    options = _cards(st.island) + _cards(c for s in st.sea_ships() for c in st.cargo[s])
    options += M.pirate_power_options(st, p)
    st._ask(P_PIRATE_TAKE, p, sorted([A.DONE] + options), (p, 0), True)


def r_pirate_take(st: ImportExportState, action: int, p: int, free: int = 0) -> None:
    """``free``: Drugs' extra container, which costs no action."""
    if action == A.DONE:
        st.actions_left[p] = 0
        return
    if _power_option(st, p, action, M.PIRATE_OPTIONS, ("act", p)):
        return
    card = action - A.CARD
    if not free:
        st.actions_left[p] -= 1
    st.push("act", p)
    pirated(st, p, card, st.take_container(card))


def pirated(st: ImportExportState, p: int, card: int, s: int) -> None:
    """p pirated ``card`` from ship s (-1: the island or, with Mini Van, the deck or a hand)."""
    st.pending = card
    st.emit("pirated", p, card, s)
    if s >= 0:
        st.ship_emptied(s)  # the owner gets nothing (R5.10)
    if st.ask is not None:  # a power asked something first: place the container after
        st.push("pirate_place", p, card)
        return
    _ask_pirate_place(st, p, card)


def t_pirate_place(st: ImportExportState, p: int, card: int) -> None:
    _ask_pirate_place(st, p, card)


def _ask_pirate_place(st: ImportExportState, p: int, card: int) -> None:
    """Load it onto a ship it fits, else discard it. Robot Cats may secure it as half of a pair;
    Stem Cells may buy it into the goods."""
    harbor = st.harbor_ships(p)
    ships = [A.SHIP + s for s in harbor if st.fits(s, card)]
    options = ships + [A.SHIP + s for s in harbor if st.pair_fits(s, card)] + M.pirate_place_options(st, p, card)
    if not ships:
        options.append(A.ZONE + A.DISCARD)
    st._ask(P_PIRATE_PLACE, p, sorted(options), (p, card), True)


def r_pirate_place(st: ImportExportState, action: int, p: int, card: int) -> None:
    st.pending = -1
    if action == A.ZONE + A.DISCARD:
        st.discard.append(card)
    elif action == A.ZONE + A.GOODS:
        M.stem_cells(st, p, card)
    else:
        st.load_onto(action - A.SHIP, card, "pirate")


def r_supply(st: ImportExportState, action: int, p: int) -> None:
    if action == A.DONE:
        st.actions_left[p] = 0
        return
    if _power_option(st, p, action, {}, ("act", p)):
        return
    card = action - A.CARD
    st.actions_left[p] -= 1
    st.push("act", p)
    if card in st.hands[p]:  # sell: once per turn (R5.11)
        st.hands[p].remove(card)
        st.island.append(card)
        st.sold[p] = True
        st.gain(p, st.game.sale_price)
    else:
        st.island.remove(card)
        st.imports[p].append(card)


# ----- import --------------------------------------------------------------------------------------
def t_import_round(st: ImportExportState, r: int) -> None:
    """Round r: everyone with at least r Import actions bids on the ship the leader picks."""
    bidders = [p for p in st.order_from_leader() if st.actions_left[p] >= r and st.acting(p) == IMPORT]
    options = [A.SHIP + s for s in st.sea_ships()] + M.import_source_options(st)
    if not bidders or not options:
        return
    st.bidders = bidders
    st._ask(P_IMPORT_SHIP, st.leader, options, (r,), True)


def r_import_ship(st: ImportExportState, action: int, r: int) -> None:
    s = ISLAND if action == M.OPT_ISLAND else action - A.SHIP
    st.import_ship = s
    st.push("import_round", r + 1)
    if len(st.bidders) == 1:  # a single participant takes the cards free (R5.9)
        _won(st, st.bidders[0], s, 0)
        return
    st.bids = [-1] * st.n
    st.push("bid", 0)


def t_bid(st: ImportExportState, i: int) -> None:
    p = st.bidders[i]
    top = min(st.credits[p] // 2, A.MAX_BID_STEPS)
    st._ask(P_BID, p, [A.BID + k for k in range(top + 1)], (i,), True)


def r_bid(st: ImportExportState, action: int, i: int) -> None:
    p = st.bidders[i]
    st.bids[p] = action - A.BID
    if i + 1 < len(st.bidders):
        st.push("bid", i + 1)
        return
    # All bids are in: reveal. Ties go to the Foxes holder ("You now break all ties"), else to
    # the leader, else to the tied player closest clockwise from him: the bidders are listed in
    # that order (R5.9).
    best = max(st.bids[q] for q in st.bidders)
    tied = [q for q in st.bidders if st.bids[q] == best]
    foxes = [q for q in st.holders(st.game.foxes) if q in tied]
    winner = foxes[0] if foxes else tied[0]
    st.last_bids = st.bids[:]
    st.bids = [-1] * st.n
    _won(st, winner, st.import_ship, 2 * best)


def _won(st: ImportExportState, p: int, s: int, price: int) -> None:
    if s == ISLAND:
        M.pay_for_island(st, p, price)
    else:
        st.pay(p, price)
        owner = s // 2
        if owner != p:
            st.gain(owner, M.owner_fee(st, owner))
    st.push("import_pick", p, s, min(M.import_take(st, p), len(_source(st, s))), 0)


def _source(st: ImportExportState, s: int) -> list[int]:
    return st.island if s == ISLAND else st.cargo[s]


def t_import_pick(st: ImportExportState, p: int, s: int, left: int, used_import: int) -> None:
    source = _source(st, s)
    if left <= 0 or not source:
        if s != ISLAND:
            st.ship_emptied(s)
        st.emit("import_done", p, s)
        return
    st._ask(P_IMPORT_PICK, p, _cards(source), (p, s, left, used_import), True)


def r_import_pick(st: ImportExportState, action: int, p: int, s: int, left: int, used_import: int) -> None:
    card = action - A.CARD
    _source(st, s).remove(card)
    st.pending = card
    # "up to one card in their imports, and/or up to two cards in their goods", capacity
    # permitting; a card with no room is discarded (FAQ).
    zones = []
    if not used_import and len(st.imports[p]) < st.imports_cap(p):
        zones.append(A.ZONE + A.IMPORTS)
    if st.goods_fit(p, card):
        zones.append(A.ZONE + A.GOODS)
    st._ask(P_IMPORT_ZONE, p, zones or [A.ZONE + A.DISCARD], (p, s, left, used_import, card), True)


def r_import_zone(st: ImportExportState, action: int, p: int, s: int, left: int, used_import: int, card: int) -> None:
    st.pending = -1
    zone = action - A.ZONE
    st.push("import_pick", p, s, left - 1, used_import | (zone == A.IMPORTS))
    if zone == A.IMPORTS:
        st.imports[p].append(card)
    elif zone == A.GOODS:
        st.add_good(p, card)
    else:
        st.discard.append(card)
    st.emit("imported", p, s, card)


# ----- end of turn ---------------------------------------------------------------------------------
def t_turn_end(st: ImportExportState) -> None:
    """Step 5: played cards go to the discard pile; the next player clockwise leads."""
    for p in range(st.n):
        st.discard.extend(st.played[p])
        st.played[p] = []
    st.declared = -1
    st.once = []
    st.turn += 1
    if st.instant_winner >= 0 or st.end_reason:
        st.over = True
        return
    if st.turn >= st.game.config.turn_limit:
        st.over = True
        st.truncated = True
        st.end_reason = f"turn cap ({st.game.config.turn_limit} turns)"
        return
    if st.double_turn[st.leader] == 2:
        st.double_turn[st.leader] = 0
    else:
        st.leader = st.next_seat(st.leader)
    st.push("turn")


def t_sail(st: ImportExportState, s: int) -> None:
    """The completed ship and its containers go to the open sea."""
    if st.cargo[s]:  # a ship emptied by a power before sailing never leaves
        st.at_sea[s] = True


def t_recheck(st: ImportExportState, p: int) -> None:
    """A power that changes matching was gained: p's other shipments may be complete now."""
    for s in st.harbor_ships(p):
        st.check_complete(s)


def t_power(st: ImportExportState, key: str, *args: Any) -> None:
    fn = POWER_TASK.get(key) or IMMEDIATE[key]
    fn(st, *args)


def r_power(st: ImportExportState, action: int, key: str, *args: Any) -> None:
    POWER_RESUME[key](st, action, *args)


TASKS: dict[str, Callable[..., None]] = {
    "sail": t_sail,
    "power": t_power,
    "pirate_place": t_pirate_place,
    "recheck": t_recheck,
    "load_ship": t_load_ship,
    "turn": t_turn,
    "lead": t_lead,
    "follow": t_follow,
    "execute": t_execute,
    "act": t_act,
    "import_round": t_import_round,
    "bid": t_bid,
    "import_pick": t_import_pick,
    "turn_end": t_turn_end,
}
RESUME: dict[int, Callable[..., None]] = {
    P_LEAD: r_lead,
    P_WILD1: r_wild1,
    P_WILD2: r_wild2,
    P_WILD_ACTION: r_wild_action,
    P_FOLLOW: r_follow,
    P_CONTRACT_CARD: r_contract_card,
    P_CONTRACT_SHIP: r_contract_ship,
    P_LOAD_CARD: r_load_card,
    P_LOAD_SHIP: r_load_ship,
    P_IMPORT_SHIP: r_import_ship,
    P_BID: r_bid,
    P_IMPORT_PICK: r_import_pick,
    P_IMPORT_ZONE: r_import_zone,
    P_PIRATE_TAKE: r_pirate_take,
    P_PIRATE_PLACE: r_pirate_place,
    P_SUPPLY: r_supply,
    P_POWER: r_power,
}


# Asking again from a redrawn hand (``State.resample``): how each hand-based decision is made,
# given the decision that was in progress.
_REDRAWS = 200  # random redraws before dealing the decider a card that fits


def _reask_wild(st: ImportExportState, ask: Ask) -> None:
    phase, p, ctx = ask[0], ask[1], ask[3]
    if phase == P_WILD1:
        options = st.wild_firsts(p)
    else:
        t = st.game.ctype[st.played[p][-1]]
        options = [c for c in st.hands[p] if st.game.ctype[c] == t]
    st._ask(phase, p, _cards(options), ctx)


def _reasker(ask: Ask) -> Callable[[ImportExportState, Ask], None]:
    """How to ask ``ask`` again of a redrawn hand; every decision that is not public has one."""
    if ask[0] == P_POWER:
        fn = HAND_REASKS.get(ask[3][0])
        if fn is not None:
            return lambda st, old: fn(st, old[3][1:])
    elif ask[0] in REASK:
        return REASK[ask[0]]
    raise RuntimeError(f"the hidden decision {ask[:2]} (power {ask[3][:1]}) cannot be asked again of a redrawn hand")


REASK: dict[int, Callable[[ImportExportState, Ask], None]] = {
    P_LEAD: lambda st, ask: _ask_lead(st),
    P_FOLLOW: lambda st, ask: t_follow(st, ask[1]),
    P_CONTRACT_CARD: lambda st, ask: t_act(st, ask[1]),
    P_LOAD_CARD: lambda st, ask: t_act(st, ask[1]),
    P_SUPPLY: lambda st, ask: t_act(st, ask[1]),
    P_WILD1: _reask_wild,
    P_WILD2: _reask_wild,
    P_LOAD_SHIP: lambda st, ask: ask_load_ship(st, *ask[3]),  # with Robot Cats: a pair in the hand
}
