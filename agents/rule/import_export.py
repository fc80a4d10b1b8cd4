"""A rule-based Import / Export player that reads only its observation and action mask.

``ImportExportRuleAgent`` prices every choice in credits with a few plain rules and takes the
best. It never touches the ``State``: every fact comes from ``game.observation_layout`` pieces,
read by name (its hand, its harbor's goods, imports and ships, the ships at sea, the supply
island, the import in progress), plus the printed card data (``game.ctype``, ``caction``,
``ctier``, ``cload``).

The core is ``_action_value(a, hand, k)``: what ``k`` actions of type ``a`` are worth to it with
``hand``. Leading compares every declaration (the card played costs its keep value) with a draw;
following compares the extra action the played card buys with a draw.

| Decision                | What the bot does                                                      |
|-------------------------|------------------------------------------------------------------------|
| lead                    | the best of: declare an action with its least useful card of that      |
|                         | action, a two-card wild with its least useful pair, or draw            |
| follow                  | follows when one more action of the declared type is worth more than   |
|                         | the card it plays plus the cards a draw would bring; else draws        |
| contract                | a card whose tier it meets (or skips with spare actions), cheap ones   |
|                         | and the ones the rest of its hand can load first, while no other       |
|                         | shipment waits for containers; onto the ship whose leftover containers |
|                         | fit it, else the one with the most room; stops when none is worth it   |
| load                    | the container for the shipment closest to completion, least useful     |
|                         | card first; onto the ship closest to completion                        |
| import: ship            | the ship at sea whose best two containers are worth most to it as      |
|                         | goods (its own ship counts extra: it comes home); when it is not       |
|                         | bidding itself, its own ship, else the one worth least to it           |
| import: bid             | ``bid_share`` of that value, at most a third of its credits            |
| import: pick, zone      | the most valuable container; imports for a useful action, else goods   |
|                         | (end value, majority, one of each type, tier for a contract in hand)   |
| pirate                  | a container that fits an open slot, off a ship at sea first (or, with  |
|                         | no ship in harbor, one surely on its own ship at sea); else stops      |
| supply                  | sells its least useful card (once a turn), takes an island card to     |
|                         | imports when it has room and the action is worth having                |
| power decisions         | yes when offered, else the first option that is not "done"            |

Options a power adds to an ordinary decision (numbered options, an "any time" power's card, a
paid alternative) are left alone: the bot picks among the ordinary choices. Capacities and
tiers are worked out by the base rules (a power that changes them shows in the action mask,
which alone decides what is legal).

Ships: the ``ships`` piece is seat-relative (the bot's own ships are 0 and 1) while ship actions
name ships absolutely (``2 * seat + k``). The bot's own ships are the only ones offered when it
contracts or loads, so ``(s % 2)`` finds them; to pick a ship at sea it finds the seat rotations
under which the ships offered are exactly the ships at sea it sees, and averages over them
when several fit (ships that look alike then score alike).

Parameters (constructor keywords, in credits). Picked by two bots against two (4 players, all
modules, 160 games, seats alternated; wins counted with ties): valuing a card with no use and a
card drawn at 1 credit each won 13 games to the defaults' 154; a drawn card at 0.5 won 76 to 93;
``complete_bonus`` 2 or 7 and ``bid_share`` 0.2 or 0.8 all lost to the defaults. Acting beats
drawing: the bot draws only when no action gains anything.

| name               | default | meaning                                                          |
|--------------------|---------|------------------------------------------------------------------|
| ``card_value``     | 0.0     | a card in hand before its uses (a container, a contract) count   |
| ``draw_value``     | 0.0     | a card drawn (leading or following)                               |
| ``complete_bonus`` | 4.0     | a shipment completed, beyond its payout (power, capacity, seed)   |
| ``bid_share``      | 0.4     | the share of a ship's worth it bids                               |

The bot is deterministic: ties go to the lowest action id. ``seed`` is accepted for the Agent
protocol and unused.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.vocab import (
    CONTRACT,
    IMPORT,
    LOAD,
    NUM_ACTION_TYPES,
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
    P_SUPPLY,
    P_WILD1,
    P_WILD2,
    P_WILD_ACTION,
    PIRATE,
    SHIP_FEATURES,
    SUPPLY,
)

if TYPE_CHECKING:
    from smuggle_envs.games.import_export import ImportExportGame

ENV_ID = "import_export_v0"
"""The game this bot plays: ``agents.rule`` files ``AGENT`` under it."""

T = NUM_TYPES
# What one card of each action is worth in the imports: an extra action of that type whenever
# it is declared. Load and Supply turn cards into credits; Pirate brings free containers.
IMPORT_WORTH = {CONTRACT: 2.0, LOAD: 3.0, IMPORT: 1.0, PIRATE: 2.5, SUPPLY: 2.5}


class View:
    """The observation decoded into plain ints and lists (seat-relative: 0 is the bot), plus a
    few facts about its harbor worked out once per decision."""

    __slots__ = (
        "actions_left",
        "all_goods",
        "at_sea",
        "bidders",
        "busy",
        "colour",
        "counts",
        "credits",
        "declared",
        "fresh_room",
        "goods",
        "goods_cap",
        "hand",
        "harbor",
        "import_ship",
        "imports",
        "imports_cap",
        "island",
        "n_imports",
        "open",
        "open_colours",
        "pending",
        "phase",
        "ships",
        "sold",
    )
    actions_left: int
    all_goods: list[list[int]]
    at_sea: list[int]
    bidders: list[bool]
    busy: int
    colour: int
    counts: list[int]
    credits: int
    declared: int
    fresh_room: int
    goods: list[int]
    goods_cap: int
    hand: list[int]
    harbor: list[int]
    import_ship: int
    imports: list[int]
    imports_cap: int
    island: list[int]
    n_imports: int
    open: dict[int, list[int]]
    open_colours: set[int]
    pending: int
    phase: int
    ships: list[tuple[bool, list[int], list[int], int]]  # at sea, required, loaded, containers
    sold: bool


class ImportExportRuleAgent:
    """Credit-priced rules over the public table and its own hand; see the module docstring."""

    name = "rule"
    env_id = ENV_ID

    def __init__(
        self,
        game: ImportExportGame,
        seed: int | None = None,
        *,
        card_value: float = 0.0,
        draw_value: float = 0.0,
        complete_bonus: float = 4.0,
        bid_share: float = 0.4,
    ) -> None:
        if game.env_id != ENV_ID:
            raise ValueError(f"ImportExportRuleAgent plays {ENV_ID}, not {game.env_id}")
        self.game = game
        self.n = game.num_players
        self.card_value = card_value
        self.draw_value = draw_value
        self.complete_bonus = complete_bonus
        self.bid_share = bid_share
        self.ctype, self.caction, self.ctier = game.ctype, game.caction, game.ctier
        # A card's load requirement as containers per colour.
        self.need = tuple(tuple(load.count(t) for t in range(T)) for load in game.cload)
        self.size = tuple(len(load) for load in game.cload)
        self.max_load = game.max_load
        self.payout = game.payout
        self.good_values = game.good_values
        self.majority_bonus = game.majority_bonus
        self.sale_price = game.sale_price
        self.hand_size = game.hand_size
        layout = game.observation_layout
        self._slices = {p.name: layout.slice(p.name) for p in layout.pieces}

    # ----- Agent protocol ----------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the bot is a function of its observation."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal: list[int] = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("the action mask has no legal action: this agent is not to act")
        if len(legal) == 1:
            return legal[0]
        v = self._read(observation)
        handler = self._handlers.get(v.phase)
        choice = handler(self, v, legal) if handler else self._default(legal)
        assert choice in legal, (v.phase, choice, legal)
        return int(choice)

    @staticmethod
    def _default(legal: list[int]) -> int:
        """A power's decision (or any phase the bot does not know): accept, else the first
        option that is not "done"."""
        if A.YES in legal:
            return A.YES
        return next((a for a in legal if a != A.DONE), legal[0])

    # ----- reading the observation ---------------------------------------------------------------
    def _read(self, obs: np.ndarray) -> View:
        s, n = self._slices, self.n

        def piece(name: str) -> np.ndarray:
            return obs[s[name]]

        def ids(name: str) -> list[int]:
            found: list[int] = np.flatnonzero(piece(name) > 0.5).tolist()
            return found

        def hot(name: str) -> int:
            p = piece(name)
            return int(np.argmax(p)) if p.any() else -1

        def counts(values: np.ndarray, scale: int) -> Any:
            return np.rint(values * scale).astype(int).tolist()

        v = View()
        v.phase = hot("phase")
        v.hand = ids("my_hand")
        v.counts = self._colours(v.hand)
        v.credits = round(float(piece("credits")[0]) * 50)
        v.colour = int(np.argmax(piece("colour")[:6]))
        v.imports = counts(piece("imports_by_action")[:NUM_ACTION_TYPES], 4)
        v.n_imports = sum(v.imports)
        v.all_goods = counts(piece("goods").reshape(n, T), 4)
        v.goods = v.all_goods[0]
        shipped = round(float(piece("shipments")[: A.MAX_CARDS].sum()))
        v.imports_cap = 1 + shipped
        v.goods_cap = 2 * (1 + shipped)
        raw = counts(piece("ships").reshape(2 * n, SHIP_FEATURES), 6)
        containers = counts(piece("ships").reshape(2 * n, SHIP_FEATURES)[:, -1], 8)
        # Per ship: at sea, required containers per colour, loaded (or carried) per colour, containers.
        v.ships = [(raw[j][0] > 0, raw[j][1 : 1 + T], raw[j][1 + T : 1 + 2 * T], containers[j]) for j in range(2 * n)]
        v.harbor = [j for j in (0, 1) if not v.ships[j][0]]
        v.open = {j: [max(r - h, 0) for r, h in zip(v.ships[j][1], v.ships[j][2])] for j in v.harbor}
        v.open_colours = {t for j in v.harbor for t in range(T) if v.open[j][t]}
        v.busy = sum(1 for j in v.harbor if any(v.open[j]))
        fresh = [self.max_load for j in v.harbor if not any(v.ships[j][1])]
        v.fresh_room = max(fresh, default=-1)
        v.island = ids("island")
        v.at_sea = ids("at_sea")
        v.pending = hot("pending")
        v.declared = hot("declared")
        v.bidders = (piece("bidders") > 0.5).tolist()
        v.sold = bool(piece("sold")[0] > 0.5)
        v.actions_left = round(float(piece("actions_left")[0]) * 4)
        v.import_ship = hot("import_ship")
        return v

    # ----- facts about the bot's harbor ------------------------------------------------------------
    def _tier(self, v: View, t: int) -> int:
        return v.goods[t] + (v.colour == t)

    def _deficit(self, v: View, c: int) -> int:
        return max(0, self.ctier[c] - self._tier(v, self.ctype[c]))

    def _room(self, v: View, j: int) -> int:
        return self.max_load - sum(v.ships[j][1])

    def _colours(self, cards: Iterable[int]) -> list[int]:
        counts = [0] * T
        for c in cards:
            counts[self.ctype[c]] += 1
        return counts

    def _completion(self, containers: int) -> float:
        """A shipment completed with this many containers, beyond 2 credits a container (a
        container left in harbor scores 2 at the end anyway)."""
        return self.complete_bonus + self.payout[min(containers, 8)] - 2 * containers

    # ----- what a card in hand is worth keeping ----------------------------------------------------
    def _keep(self, v: View, c: int, counts: list[int]) -> float:
        """What card c is worth in a hand of these colour counts (c included): a card is
        played one way, so its best use counts."""
        use = 1.5 if self.ctype[c] in v.open_colours else 0.0  # a container for an open slot
        if self._deficit(v, c) == 0 and self.size[c] <= v.fresh_room:
            use = max(use, 1.0 + 0.5 * self._fillable(c, counts))  # a contract to start
        return self.card_value + use

    def _fillable(self, c: int, counts: list[int]) -> int:
        """Containers of c's load requirement the rest of the hand (``counts`` less c) could fill."""
        t = self.ctype[c]
        return sum(min(k, counts[x] - (x == t)) for x, k in enumerate(self.need[c]) if k)

    def _least_useful(self, v: View, cards: list[int], counts: list[int]) -> int:
        return min(cards, key=lambda c: (self._keep(v, c, counts), c))

    @staticmethod
    def _cards(legal: list[int], pool: Iterable[int]) -> list[int]:
        """The cards of ``pool`` that ``legal`` offers (powers may offer other cards, such as an
        "any time" power of a completed shipment, and numbered options; the bot leaves those)."""
        pool = set(pool)
        return [a - A.CARD for a in legal if A.CARD <= a < A.ACTION and a - A.CARD in pool]

    # ----- what k actions of one type are worth ----------------------------------------------------
    def _action_value(self, v: View, a: int, hand: list[int], k: int) -> float:
        if k <= 0:
            return 0.0
        if a == LOAD:
            return self._load_plan(v, self._colours(hand), k)
        if a == CONTRACT:
            return self._contract_value(v, hand, k)
        if a == SUPPLY:
            return self._supply_value(v, hand, k)
        if a == PIRATE:
            return self._pirate_value(v, k)
        return self._import_value(v, k)

    def _load_plan(self, v: View, counts: list[int], k: int) -> float:
        """Containers of these colours loaded into open slots, up to k, finishing the ship
        closest to completion first."""
        ships = sorted((j for j in v.harbor if any(v.open[j])), key=lambda j: (sum(v.open[j]), j))
        counts = counts[:]
        value = 0.0
        for j in ships:
            need = v.open[j]
            fill = [min(x, y) for x, y in zip(need, counts)]
            loaded = min(sum(fill), k)
            if loaded <= 0:
                continue
            # Which colours go when k runs short does not change the value: take them in order.
            left = loaded
            for t in range(T):
                take = min(fill[t], left)
                counts[t] -= take
                left -= take
            k -= loaded
            value += 2.0 * loaded
            if loaded == sum(need):
                value += self._completion(v.ships[j][3] + loaded)
            if k <= 0:
                break
        return value

    def _contract_options(self, v: View, hand: list[int], k: int) -> list[tuple[float, int]]:
        """(value, card) for every card of ``hand`` it could contract with k actions, best first:
        cheap cards its hand can load, on an empty ship, while no other shipment waits."""
        counts = self._colours(hand)
        rooms = [self._room(v, j) for j in v.harbor]
        out = []
        for c in hand:
            deficit = self._deficit(v, c)
            if deficit > k - 1 or not any(r >= self.size[c] for r in rooms):
                continue
            need = self.size[c]
            fill = self._fillable(c, counts)
            value = 1.5 + 1.0 * fill - 0.3 * need - 1.0 * v.busy - 0.5 * deficit
            if fill >= need:
                value += 2.0  # the next Load completes it
            if need > v.fresh_room:
                value -= 2.0  # stacked on an open shipment: slower to complete
            out.append((value, c))
        out.sort(key=lambda x: (-x[0], x[1]))
        return out

    def _contract_value(self, v: View, hand: list[int], k: int) -> float:
        options = self._contract_options(v, hand, k)
        return max(options[0][0], 0.0) if options else 0.0

    def _import_card_worth(self, c: int) -> float:
        return IMPORT_WORTH[self.caction[c]]

    def _supply_value(self, v: View, hand: list[int], k: int) -> float:
        gains = []
        if not v.sold and hand:
            counts = self._colours(hand)
            worst = self._least_useful(v, hand, counts)
            gains.append(self.sale_price - self._keep(v, worst, counts))
        room = v.imports_cap - v.n_imports
        if room > 0:
            gains += sorted((self._import_card_worth(c) for c in v.island), reverse=True)[:room]
        gains.sort(reverse=True)
        return float(sum(g for g in gains[:k] if g > 0))

    def _pirate_value(self, v: View, k: int) -> float:
        value = self._load_plan(v, self._colours(v.island + v.at_sea), k)
        if not v.harbor and value == 0.0 and min(v.ships[0][3], v.ships[1][3]) <= k:
            value = 3.0  # no ship at home: emptying its own brings one back
        return value

    def _import_value(self, v: View, k: int) -> float:
        ships = [j for j in range(2 * self.n) if v.ships[j][0] and v.ships[j][3] > 0]
        if not ships:
            return 0.0
        best = max(self._sea_ship_worth(v, j) for j in ships)
        return 0.3 * best * min(k, len(ships))

    # ----- goods -----------------------------------------------------------------------------------
    def _good_worth(self, v: View, t: int) -> float:
        """One more good of type t: its end value, majority, one-of-each and tier for the hand."""
        value = float(self.good_values[t])
        mine = v.goods[t] + 1
        best_other = max((g[t] for g in v.all_goods[1:]), default=0)
        if mine >= best_other:
            share = self.majority_bonus[t] / (2 if mine == best_other else 1)
            if mine - 1 >= best_other:
                share /= 2  # it already has the majority: less at stake
            value += 0.5 * share
        if v.goods[t] == 0:
            value += 1.5  # towards one of each type
        tier = self._tier(v, t)
        if any(self.ctype[c] == t and self.ctier[c] > tier for c in v.hand):
            value += 1.5  # a contract in hand comes within reach
        return value

    def _sea_ship_worth(self, v: View, j: int) -> float:
        """The best two containers of sea ship j (by colour) as goods; its own ship counts
        extra when that would bring it home."""
        worths = sorted((self._good_worth(v, t) for t in range(T) for _ in range(v.ships[j][2][t])), reverse=True)
        room = v.goods_cap - sum(v.goods)
        value = sum(worths[: min(2, max(room, 0))])
        if room < 2 and v.n_imports < v.imports_cap:
            value += 1.5
        if j < 2 and v.ships[j][3] <= 2:
            value += 3.0  # its ship comes home
        return value

    # ----- decisions -------------------------------------------------------------------------------
    def _draw_worth(self, v: View) -> float:
        size = len(v.hand)
        return self.draw_value * (self.hand_size - size if size < self.hand_size else 1)

    def _draw_option(self, v: View, legal: list[int]) -> tuple[int, float]:
        """Drawing and its worth: the baseline every declaration or follow must beat."""
        if A.DRAW in legal:
            return A.DRAW, self._draw_worth(v)
        return self._default(legal), -1e9

    def _lead(self, v: View, legal: list[int]) -> int:
        hand = v.hand
        best, best_value = self._draw_option(v, legal)
        for a in range(NUM_ACTION_TYPES):
            cards = [c for c in hand if self.caction[c] == a and A.CARD + c in legal]
            if not cards:
                continue
            c = self._least_useful(v, cards, v.counts)
            rest = [x for x in hand if x != c]
            value = self._action_value(v, a, rest, 1 + v.imports[a]) - self._keep(v, c, v.counts)
            if value > best_value:
                best, best_value = A.CARD + c, value
        if A.WILD in legal and self._best_wild(v, range(NUM_ACTION_TYPES))[2] > best_value:
            best = A.WILD
        return best

    def _best_wild(self, v: View, actions: Iterable[int]) -> tuple[tuple[int, int], int, float]:
        """The least useful same-colour pair and the action it is best played for."""
        hand = v.hand
        best = ((-1, -1), -1, -1e9)
        for t in range(T):
            if v.counts[t] < 2:
                continue
            cards = sorted((c for c in hand if self.ctype[c] == t), key=lambda c: (self._keep(v, c, v.counts), c))
            pair = (cards[0], cards[1])
            rest = [x for x in hand if x not in pair]
            cost = self._keep(v, pair[0], v.counts) + self._keep(v, pair[1], v.counts)
            for a in actions:
                value = self._action_value(v, a, rest, 1 + v.imports[a]) - cost
                if value > best[2]:
                    best = (pair, a, value)
        return best

    def _follow(self, v: View, legal: list[int]) -> int:
        a, hand = v.declared, v.hand
        if a < 0:
            return self._draw_option(v, legal)[0]
        base = self._action_value(v, a, hand, v.imports[a])
        best, best_value = self._draw_option(v, legal)
        cards = [c for c in hand if A.CARD + c in legal]
        if cards:
            c = self._least_useful(v, cards, v.counts)
            rest = [x for x in hand if x != c]
            value = self._action_value(v, a, rest, 1 + v.imports[a]) - base - self._keep(v, c, v.counts)
            if value > best_value:
                best, best_value = A.CARD + c, value
        if A.WILD in legal and self._best_wild(v, (a,))[2] - base > best_value:
            best = A.WILD
        return best

    def _wild_card(self, v: View, legal: list[int]) -> int:
        cards = self._cards(legal, v.hand)
        if not cards:
            return legal[0]
        if v.phase == P_WILD1:
            actions = (v.declared,) if v.declared >= 0 else range(NUM_ACTION_TYPES)
            pair = self._best_wild(v, actions)[0]
            if pair[0] in cards:
                return A.CARD + pair[0]
        return A.CARD + self._least_useful(v, cards, v.counts)

    def _wild_action(self, v: View, legal: list[int]) -> int:
        actions = [a for a in legal if A.ACTION <= a < A.SHIP]
        if not actions:
            return legal[0]

        def worth(x: int) -> float:
            a = x - A.ACTION
            return self._action_value(v, a, v.hand, 1 + v.imports[a])

        return max(actions, key=lambda x: (worth(x), -x))

    def _contract_card(self, v: View, legal: list[int]) -> int:
        allowed = self._cards(legal, v.hand)
        options = self._contract_options(v, allowed, max(v.actions_left, 1))
        # The action is spent anyway: a contract beats none unless it blocks a ship.
        if options and options[0][0] > -1.5:
            return A.CARD + options[0][1]
        return A.DONE if A.DONE in legal else legal[0]

    def _contract_ship(self, v: View, legal: list[int]) -> int:
        c = v.pending

        def score(a: int) -> tuple[int, int, int]:
            _, req, loaded, _ = v.ships[(a - A.SHIP) % 2]
            # Containers left by a discarded contract may fill the new one.
            spare = sum(min(k, max(h - r, 0)) for k, h, r in zip(self.need[c], loaded, req)) if c >= 0 else 0
            return (spare, -sum(req), -a)

        ships = [a for a in legal if A.SHIP <= a < A.BID]
        return max(ships, key=score) if ships else legal[0]

    def _load_card(self, v: View, legal: list[int]) -> int:
        cards = self._cards(legal, v.hand)
        if not cards:
            return A.DONE if A.DONE in legal else legal[0]

        def steps_left(c: int) -> int:
            t = self.ctype[c]
            return min((sum(v.open[j]) for j in v.harbor if v.open[j][t]), default=99)

        return A.CARD + min(cards, key=lambda c: (steps_left(c), self._keep(v, c, v.counts), c))

    def _own_ship(self, v: View, legal: list[int]) -> int:
        """Load / pirate placement: the ship closest to completion (else the discard pile; a
        power's paid alternative is left alone)."""
        ships = [a for a in legal if A.SHIP <= a < A.BID and (a - A.SHIP) % 2 in v.open]
        if not ships:
            return next(
                (a for a in legal if A.SHIP <= a < A.BID),
                A.ZONE + A.DISCARD if A.ZONE + A.DISCARD in legal else legal[0],
            )
        return min(ships, key=lambda a: (sum(v.open[(a - A.SHIP) % 2]), a))

    def _pirate_take(self, v: View, legal: list[int]) -> int:
        cards = self._cards(legal, v.island + v.at_sea)
        fitting = [c for c in cards if self.ctype[c] in v.open_colours]
        if fitting:
            # Off a ship at sea first: that hurts an owner's imports more than the island does.
            return A.CARD + min(fitting, key=lambda c: (c in v.island, self._keep(v, c, v.counts), c))
        if not v.harbor:
            mine = self._own_sea_cards(v, cards)
            if mine:
                return A.CARD + mine[0]
        return A.DONE if A.DONE in legal else legal[0]

    def _own_sea_cards(self, v: View, cards: list[int]) -> list[int]:
        """Cards at sea certainly on the bot's own ship: colours no other ship at sea carries."""
        theirs = [0] * T
        for j in range(2, 2 * self.n):
            if v.ships[j][0]:
                theirs = [x + y for x, y in zip(theirs, v.ships[j][2])]
        ours = [x + y for x, y in zip(v.ships[0][2], v.ships[1][2])]
        at_sea = set(v.at_sea)
        return sorted(c for c in cards if c in at_sea and ours[self.ctype[c]] and not theirs[self.ctype[c]])

    def _supply(self, v: View, legal: list[int]) -> int:
        hand = self._cards(legal, v.hand)
        island = self._cards(legal, v.island)
        best, best_value = A.DONE, 0.0
        if hand:
            c = self._least_useful(v, hand, v.counts)
            value = self.sale_price - self._keep(v, c, v.counts)
            if v.actions_left > 1 and island:
                value -= 0.5  # take first: the sale is still there afterwards
            if value > best_value:
                best, best_value = A.CARD + c, value
        for c in island:
            value = self._import_card_worth(c)
            if value > best_value:
                best, best_value = A.CARD + c, value
        return best

    def _import_ship(self, v: View, legal: list[int]) -> int:
        """The ship to bid on. Actions name ships absolutely and the observation relatively, so
        the bot finds the seat rotations under which the ships offered are the ships at sea
        (and averages over them when several fit)."""
        n = self.n
        sea = {j for j in range(2 * n) if v.ships[j][0] and v.ships[j][3] > 0}
        ships = [a for a in legal if A.SHIP <= a < A.BID]
        if not ships:
            return legal[0]
        offered = [a - A.SHIP for a in ships]
        seats = [p for p in range(n) if {(s - 2 * p) % (2 * n) for s in offered} == sea] or list(range(n))
        bidding = v.bidders[0]

        def worth(a: int) -> float:
            total = 0.0
            for p in seats:
                j = (a - A.SHIP - 2 * p) % (2 * n)
                if bidding:
                    total += self._sea_ship_worth(v, j)
                else:  # not bidding: its own ship comes home, others' least
                    total += 3.0 if j < 2 else -self._sea_ship_worth(v, j)
            return total / len(seats)

        return max(ships, key=lambda a: (worth(a), -a))

    def _bid(self, v: View, legal: list[int]) -> int:
        bids = [a for a in legal if A.BID <= a < A.TYPE]
        if not bids:
            return legal[0]
        j = v.import_ship
        worth = self._sea_ship_worth(v, j) if j >= 0 else 0.0
        if j in (0, 1):
            worth += 2.0  # no owner fee goes to anyone else
        target = min(self.bid_share * worth, v.credits / 3)
        steps = max(0, int(target // 2))
        return A.BID + min(steps, max(bids) - A.BID)

    def _import_pick(self, v: View, legal: list[int]) -> int:
        legal = [a for a in legal if A.CARD <= a < A.ACTION] or legal
        room = v.goods_cap - sum(v.goods)
        imports_room = v.imports_cap - v.n_imports

        def worth(c: int) -> float:
            goods = self._good_worth(v, self.ctype[c]) if room > 0 else 0.0
            imports = self._import_card_worth(c) if imports_room > 0 else 0.0
            return max(goods, imports)

        return max(legal, key=lambda a: (worth(a - A.CARD), -a))

    def _import_zone(self, v: View, legal: list[int]) -> int:
        c = v.pending
        if A.ZONE + A.IMPORTS in legal and A.ZONE + A.GOODS in legal and c >= 0:
            goods = self._good_worth(v, self.ctype[c])
            return A.ZONE + (A.IMPORTS if self._import_card_worth(c) >= goods else A.GOODS)
        return legal[0]

    _handlers = {
        P_LEAD: _lead,
        P_FOLLOW: _follow,
        P_WILD1: _wild_card,
        P_WILD2: _wild_card,
        P_WILD_ACTION: _wild_action,
        P_CONTRACT_CARD: _contract_card,
        P_CONTRACT_SHIP: _contract_ship,
        P_LOAD_CARD: _load_card,
        P_LOAD_SHIP: _own_ship,
        P_PIRATE_TAKE: _pirate_take,
        P_PIRATE_PLACE: _own_ship,
        P_SUPPLY: _supply,
        P_IMPORT_SHIP: _import_ship,
        P_BID: _bid,
        P_IMPORT_PICK: _import_pick,
        P_IMPORT_ZONE: _import_zone,
    }


AGENT = ImportExportRuleAgent
"""The rule bot of ``ENV_ID``, built as ``AGENT(game, seed=seed)`` by ``make_agent("rule", game)``."""
