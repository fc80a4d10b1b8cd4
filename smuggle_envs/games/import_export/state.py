"""Import / Export's state: its fields (lists of card ids per zone, the decision in progress and
the stack of tasks still to run) and the methods through which the steps and the powers act on
them: credits, draws, capacities, loading and completion, what each seat saw go into a hand. The
turn itself (the tasks and what each decision does) is in ``steps.py``; ``rules.py`` assembles
the two (and the resample) into ``ImportExportState``.

Powers that change a basic rule are read where the rule lives here: the matching of containers
to slots (``matched``: wild containers, rainbow contracts, Prefab Homes, Robot Cats, Tortillas),
capacities and limits (``capacity``, ``imports_cap``, ``goods_fit``), tiers (``tier``, with
Ferraris' ``virtual_goods``), the end (``end_credits``, ``check_credit_end``).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

import numpy as np

from ...core.game import TERMINAL, State, copy_rng
from . import actions as A
from .game import ImportExportGame
from .hooks import HIDDEN_CHOICES, IMMEDIATE, LISTENERS, WIN_CHECKS
from .matching import Capped, match, match_pairs
from .vocab import GREY, LUXURY, MATCH_KEYS, NUM_TYPES, P_BID, P_POWER


class Ask(NamedTuple):
    """The decision in progress."""

    phase: int  # ``P_...`` of ``vocab.py``
    player: int  # the seat deciding
    options: tuple[int, ...]  # its legal actions, ascending
    context: tuple[Any, ...]  # what ``RESUME[phase]`` gets after the action (a power's: its key first)
    public: bool  # whether the options are public (a single public option is applied by the engine)


# ``Ask(...)`` runs the named tuple's Python-level ``__new__``; the engine makes a few asks a
# decision, so it builds them with the C constructor, a same ``Ask`` several times faster.
_new_ask = tuple.__new__

Task = tuple[Any, ...]
"""A task of the stack: ``(name, *args)``, run by ``TASKS[name](st, *args)``."""
AutoListener = Callable[["ImportExportStateBase", int, int], None]
"""``fn(state, player, action)``: told of a decision the engine applies by itself."""
UNLIMITED = 10**6  # Board Games' imports limit
S = TypeVar("S", bound="ImportExportStateBase")


class ImportExportStateBase(State[ImportExportGame]):
    """A position: its fields (lists of card ids per zone; ships ``2p`` and ``2p+1`` belong to
    seat p) and the methods through which the steps and the powers act on them
    (``rules.ImportExportState`` adds the run of tasks, ``steps.py``, and ``resample.py``).

    ``ask`` is the decision in progress (see ``Ask``), ``stack`` the tasks still to run.
    ``auto_listeners``: functions ``fn(state, player, action)`` told of every decision the engine
    applies by itself (a single option that is public), just before it is applied, with the
    position the decision is made in, as a driver's observer sees the players' decisions (the
    analytics count forced bids and forced ship picks this way). They must only read the state.
    A clone or a resampled state starts with none.
    """

    _not_replayable: str  # set by ``scenarios.arrange`` and ``resample``: why ``to_replay`` refuses

    def __init__(self, game: ImportExportGame, seed: int | None) -> None:
        super().__init__(game, seed)
        g, n, rng = game, game.num_players, self.rng
        self.n = n
        self._set_up_table(g, rng)
        c = g.config
        self.leader = rng.randrange(n) if c.first_leader is None else c.first_leader
        self._start_fields(g)
        # The first turn is run by ``steps.run`` (``rules.ImportExportState.__init__``).

    def _set_up_table(self, g: ImportExportGame, rng: random.Random) -> None:
        """The harbors, the shuffled deck, credits, ships (one at sea, seeded), the island, hands."""
        n = self.n
        rules = g.data.rules
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

    def _start_fields(self, g: ImportExportGame) -> None:
        """The turn, the import, the powers' memories and the task stack at the start."""
        n = self.n
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

    # ----- contract ----------------------------------------------------------------------------
    def current_player(self) -> int:
        ask = self.ask
        return TERMINAL if self.over or ask is None else ask.player

    def legal_actions(self) -> tuple[int, ...]:
        ask = self.ask
        return () if self.over or ask is None else ask.options

    def _is_legal(self, action: int) -> bool:
        ask = self.ask
        return not self.over and ask is not None and action in ask.options

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        ask = self.ask
        if not self.over and ask is not None:
            mask[list(ask.options)] = 1
        return mask

    def is_terminal(self) -> bool:
        return self.over

    def is_truncated(self) -> bool:
        return self.truncated

    @property
    def phase(self) -> int:
        ask = self.ask
        return -1 if self.over or ask is None else ask.phase

    def _public_action_string(self, action: int) -> str:
        """What the other seats see of the current player's ``action``: a sealed bid is only "a
        bid" until all are in (the reveal shows it), and a power's hidden choice (a card handed
        over face down, ``HIDDEN_CHOICES``) says what kind of choice it was; every other decision
        is public (a card played, contracted, loaded, sold or discarded is seen by all)."""
        ask = self.ask
        if ask is not None and not self.over:
            phase = ask.phase
            if phase == P_BID:
                return f"{self.game.seat_name(ask.player)} bids (sealed)"
            if phase == P_POWER:
                hidden = HIDDEN_CHOICES.get(ask.context[0])
                text = hidden(self, ask.player, ask.context[1:], action) if hidden is not None else None
                if text is not None:
                    return text
        return self.game.action_to_string(action)

    def clone(self: S) -> S:
        other = type(self).__new__(type(self))
        d = other.__dict__
        for key, value in self.__dict__.items():
            if type(value) is list:
                d[key] = [v[:] if type(v) is list else v for v in value]
            else:
                d[key] = value
        other.rng = copy_rng(self.rng)
        other.auto_listeners = []  # the watchers of this game, not of its copies
        return other

    # ----- the end, asks and tasks ---------------------------------------------------------------
    def win(self, p: int, reason: str) -> None:
        """A power wins the game outright for p: the game ends at once."""
        self.instant_winner = p
        self.end_reason = reason
        self.over = True

    def _ask(
        self, phase: int, player: int, options: Iterable[int], ctx: tuple[Any, ...] = (), public: bool = False
    ) -> None:
        """State a decision. ``public``: the options are public, so a single one is automatic."""
        self.ask = _new_ask(Ask, (phase, player, tuple(options), ctx, public))

    def push(self, *task: Any) -> None:
        self.stack.append(task)

    # ----- the engine's steps the powers reuse (``steps.py``; ``rules.ImportExportState`` binds them) -
    @abstractmethod
    def declare(self, action_type: int) -> None:
        """The leader declares ``action_type``: the followers are asked next."""

    @abstractmethod
    def ask_contract_ship(self, p: int, card: int, phase: int, key: str = "") -> None:
        """Ask p for the ship of the contract ``card`` in ``pending`` (a power's ask: ``key``)."""

    @abstractmethod
    def ask_load_ship(self, p: int, card: int, via: str) -> None:
        """Ask p for the ship of the container ``card`` in ``pending``."""

    @abstractmethod
    def pirated(self, p: int, card: int, s: int) -> None:
        """p pirated ``card`` from ship s (-1: the island, the deck or a hand): place it."""

    @abstractmethod
    def won_import(self, p: int, s: int, price: int) -> None:
        """p won an import round on ship s (``ISLAND``: the supply island) for ``price``."""

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
        self.ask = _new_ask(Ask, (P_POWER, player, tuple(sorted(options)), (key, *args), public))

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
            self.end_reason = f"{self.game.seat_name(p)} reached {limit} active credits"

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
        best = match(have, wild, spec, rainbow, capped)
        if pairs and own[g.robot_cats] == p:
            best = max(best, match_pairs(have, wild, spec, rainbow, capped))
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
