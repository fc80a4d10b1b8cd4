"""Powers: immediates (see powers/__init__.py).

The Ⓢ immediate powers: each runs once, when its shipment completes (``IMMEDIATE[key](st, p)``),
after the payout and the island seed, with the card already in p's shipments, before the ship
sails. ``docs/rules/import_export.md`` lists every card with its reading.

How they are written:

* A power that gives a decision asks through ``_ask`` with a *step* name; every card's
  ``POWER_RESUME`` entry is ``_dispatch``, which hands the choice to ``STEPS[step]``. So a card
  with several decisions (Railguns: which payment, then which shipment or goods) is several
  small steps under one card key (the key names the power in the observation).
* Powers that give several players a decision (Railguns, Dyson Vacuums, Chicken Feed, Dino
  Bones) chain one ``("power", task, ...)`` task per player, clockwise from the completing player.
* A step never asks after something that emits an event (a listener may have asked already):
  it pushes a task that asks instead.
* Four powers act on "this card" (Bamboo, Beer, Chicken Feed, Small Poodles). They take the card
  as an argument, so Wind Turbines copying them acts on Wind Turbines itself.
* Powers that run actions "by yourself" (Platinum Rings, Stretch Goals) wait until the ship has
  sailed, then reuse the engine's action tasks (``("act", p)``) with the turn's declared action
  and p's actions set for each one, and put the turn's state back afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .. import actions as A
from ..hooks import IMMEDIATE, hand_reask, immediate, resume, task
from ..state import ImportExportStateBase
from ..vocab import AGRICULTURE, CONSUMER, CONTRACT, ILLEGAL, IMPORT, LUXURY, NUM_ACTION_TYPES, NUM_TYPES, TECHNOLOGY
from .modifiers import import_take

# Credit amounts printed on the cards.
ALMONDS_POOR, ALMONDS_RICH, ALMONDS_LIMIT = 8, 4, 18
BEER_PRICE = 6
CHICKEN_FEED_PRICE = 6
FLAMETHROWERS_WIN, FLAMETHROWERS_LOSE = 4, 2
RAILGUNS_CREDITS, RAILGUNS_GOODS = 4, 2
SHOWER_HEADS_PRIZE = 8
DELAYED_GAME_FINE = 10
EXCLUSIVE_STAKE, EXCLUSIVE_PRIZE = 30, 50
PLATINUM_HAND = 8
STRETCH_FREE_ACTIONS = 2

# ----- plumbing --------------------------------------------------------------------------------
Step = Callable[..., None]  # fn(st, action, *args): a decision's answer
SelfPower = Callable[["ImportExportStateBase", int, int], None]  # fn(st, p, card)
STEPS: dict[str, Step] = {}
SELF_POWERS: dict[str, SelfPower] = {}  # key -> fn(st, p, card): powers that act on their own card
F = TypeVar("F", bound=Step)


def step(name: str) -> Callable[[F], F]:
    def register(fn: F) -> F:
        if name in STEPS:
            raise ValueError(f"immediate power step {name!r} registered twice")
        STEPS[name] = fn
        return fn

    return register


def _dispatch(st: ImportExportStateBase, action: int, name: str, *args: Any) -> None:
    STEPS[name](st, action, *args)


def _ask(
    st: ImportExportStateBase, key: str, player: int, options: Iterable[int], name: str, *args: Any, public: bool = True
) -> None:
    st.ask_power(key, player, list(options), (name, *args), public)


def self_power(key: str) -> Callable[[SelfPower], SelfPower]:
    """A power about its own card: registered as ``key``'s immediate on that card, and callable
    on another card (Wind Turbines copying it)."""

    def register(fn: SelfPower) -> SelfPower:
        SELF_POWERS[key] = fn
        immediate(key)(lambda st, p: fn(st, p, st.game.ids[key]))
        return fn

    return register


for _key in (
    "apples",
    "bamboo",
    "beer",
    "chicken_feed",
    "dino_bones",
    "glasses",
    "platinum_rings",
    "printed_money",
    "railguns",
    "rolls_royce",
    "shower_heads",
    "soy_sauce",
    "stolen_research",
    "wind_turbines",
    "dyson_vacuums",
    "pocky",
    "stretch_goals",
    "exclusive_cards",
):
    resume(_key)(_dispatch)


def _others(st: ImportExportStateBase, p: int) -> list[int]:
    """The other seats, clockwise from p."""
    return [(p + k) % st.n for k in range(1, st.n)]


def _everyone(st: ImportExportStateBase, p: int) -> list[int]:
    """Every seat, p first, then clockwise."""
    return [(p + k) % st.n for k in range(st.n)]


def _count(st: ImportExportStateBase, cards: Iterable[int], good_type: int) -> int:
    ctype = st.game.ctype
    return sum(1 for c in cards if ctype[c] == good_type)


def _goods_of(st: ImportExportStateBase, good_type: int) -> int:
    """Goods of a type in every player's goods (Ferraris' virtual goods included)."""
    return sum(st.goods_count(q, good_type) for q in range(st.n))


def _to_goods(st: ImportExportStateBase, p: int, card: int) -> None:
    """A card given to p's goods; with no room it is discarded (as the FAQ says of imports)."""
    if st.goods_fit(p, card):
        st.add_good(p, card)
    else:
        st.discard.append(card)


def _sailing(st: ImportExportStateBase) -> set[int]:
    """Ships whose shipment has completed and that are about to sail."""
    return {t[1] for t in st.stack if t[0] == "sail"}


def _free_ships(st: ImportExportStateBase, p: int) -> list[int]:
    sailing = _sailing(st)
    return [s for s in st.harbor_ships(p) if s not in sailing]


def _after_sailing(st: ImportExportStateBase, p: int, t: tuple[Any, ...]) -> None:
    """Run task ``t`` once p's completing ships have sailed: below the lowest pending sail of
    p's (a completion can nest in another), so after the rest of the completion."""
    stack = st.stack
    for i, pending in enumerate(stack):
        if pending[0] == "sail" and pending[1] // 2 == p:
            stack.insert(i, t)
            return
    stack.append(t)


def _draw_into_hand(st: ImportExportStateBase, p: int, k: int) -> list[int]:
    """Draw up to k cards one by one (the drew event once, for all of them)."""
    drawn = []
    for _ in range(k):
        card = st.draw_card()
        if card < 0:
            break
        st.hands[p].append(card)
        drawn.append(card)
    return drawn


def _activate(st: ImportExportStateBase, p: int, card: int) -> None:
    """Run ``card``'s immediate power for p as if its shipment had just completed."""
    key = st.game.cards[card].key
    if key in IMMEDIATE:
        st.push("power", key, p)


# ----- credits ---------------------------------------------------------------------------------
@immediate("almonds")
def almonds(st: ImportExportStateBase, p: int) -> None:
    # "you will take into account credits earned from this shipment": the payout is already in.
    st.gain(p, ALMONDS_POOR if st.credits[p] <= ALMONDS_LIMIT else ALMONDS_RICH)


@immediate("ammunition")
def ammunition(st: ImportExportStateBase, p: int) -> None:
    for q in _others(st, p):
        if st.goods_count(q, ILLEGAL):
            st.transfer(q, p, 2)


@immediate("danger_pets")
def danger_pets(st: ImportExportStateBase, p: int) -> None:
    for q in _others(st, p):
        st.transfer(q, p, 2)


@immediate("flamethrowers")
def flamethrowers(st: ImportExportStateBase, p: int) -> None:
    heads = st.rng.random() < 0.5
    for q in _others(st, p):
        if heads:
            st.transfer(q, p, FLAMETHROWERS_WIN)
        else:
            st.transfer(p, q, FLAMETHROWERS_LOSE)


@immediate("fluffy_pillows")
def fluffy_pillows(st: ImportExportStateBase, p: int) -> None:
    st.gain(p, 2 * len(st.shipments[p]))


@immediate("honey")
def honey(st: ImportExportStateBase, p: int) -> None:
    st.gain(p, 2 * _goods_of(st, AGRICULTURE))


@immediate("pens")
def pens(st: ImportExportStateBase, p: int) -> None:
    st.gain(p, 2 * _goods_of(st, CONSUMER))


@immediate("rice")
def rice(st: ImportExportStateBase, p: int) -> None:
    st.gain(p, 2 * _count(st, st.shipments[p], AGRICULTURE))


@immediate("delayed_game")
def delayed_game(st: ImportExportStateBase, p: int) -> None:
    for q in _others(st, p):
        st.pay(q, DELAYED_GAME_FINE)
    st.double_turn[p] = 1  # t_turn / t_turn_end give p two turns when it next leads


# ----- cards -----------------------------------------------------------------------------------
@immediate("cups")
def cups(st: ImportExportStateBase, p: int) -> None:
    st.draw(p, 5)


@immediate("potatoes")
def potatoes(st: ImportExportStateBase, p: int) -> None:
    st.gain(p, 2)
    st.draw(p, 2)


@immediate("hawaiian_salt")
def hawaiian_salt(st: ImportExportStateBase, p: int) -> None:
    ctype = st.game.ctype
    taken: list[int] = []
    for q in _others(st, p):
        agriculture = [c for c in st.hands[q] if ctype[c] == AGRICULTURE]
        for c in agriculture:
            st.hands[q].remove(c)
            st.hands[p].append(c)
        taken += agriculture
        st.reveal_hand(q)  # "all other players reveal their hand": every seat saw what is left
    st.show_in_hand(p, taken)
    st.gain(p, 2 * len(taken))


@immediate("message_tables")
def message_tables(st: ImportExportStateBase, p: int) -> None:
    ctype = st.game.ctype
    seen: set[int] = set()
    drawn = 0
    while True:
        got = _draw_into_hand(st, p, 1)
        if not got:
            break  # deck and discard are empty: pay for what was drawn
        drawn += 1
        if ctype[got[0]] in seen:
            break
        seen.add(ctype[got[0]])
    st.gain(p, drawn + drawn % 2)
    if drawn:
        st.emit("drew", p, drawn)


@immediate("shower_heads")
def shower_heads(st: ImportExportStateBase, p: int) -> None:
    _ask(st, "shower_heads", p, [A.TYPE + t for t in range(NUM_TYPES)], "shower_heads", p)


@step("shower_heads")
def _shower_heads(st: ImportExportStateBase, action: int, p: int) -> None:
    _say_aloud(st, p, action, "Shower Heads")
    named = action - A.TYPE
    drawn = _draw_into_hand(st, p, 2)
    if any(st.game.ctype[c] == named for c in drawn):
        st.gain(p, SHOWER_HEADS_PRIZE)
    if drawn:
        st.emit("drew", p, len(drawn))


@immediate("exclusive_cards")
def exclusive_cards(st: ImportExportStateBase, p: int) -> None:
    st.push("power", "imm_exclusive_name", p)
    st.pay(p, EXCLUSIVE_STAKE)  # as much as p has, like every payment


@task("imm_exclusive_name")
def _exclusive_name(st: ImportExportStateBase, p: int) -> None:
    _ask(st, "exclusive_cards", p, [A.TYPE + t for t in range(NUM_TYPES)], "exclusive_cards", p)


@step("exclusive_cards")
def _exclusive_cards(st: ImportExportStateBase, action: int, p: int) -> None:
    _say_aloud(st, p, action, "Exclusive Cards")
    drawn = _draw_into_hand(st, p, 1)
    if drawn and st.game.ctype[drawn[0]] == action - A.TYPE:
        st.gain(p, EXCLUSIVE_PRIZE)
    if drawn:
        st.emit("drew", p, 1)


@immediate("rolls_royce")
def rolls_royce(st: ImportExportStateBase, p: int) -> None:
    _ask(st, "rolls_royce", p, [A.CARD + c for c in st.game.deck_cards], "rolls_royce", p)


def _say_aloud(st: ImportExportStateBase, p: int, action: int, power: str) -> None:
    """A name said aloud at the table (rulebook): everyone hears it, so the table keeps it
    (``said_aloud``, shown by ``render``) and the action text is public."""
    st.said_aloud = f"{st.game.seat_name(p)} named {st.game.action_to_string(action).split(' ', 2)[-1]} ({power})"


@step("rolls_royce")
def _rolls_royce(st: ImportExportStateBase, action: int, p: int) -> None:
    _say_aloud(st, p, action, "Rolls Royce")
    named = action - A.CARD
    drawn = _draw_into_hand(st, p, 1)
    if drawn and drawn[0] == named:
        st.win(p, f"{st.game.seat_name(p)} named and drew {st.game.names[named].title()} with Rolls Royce")
        return
    if drawn:
        st.emit("drew", p, 1)


# ----- shipments -------------------------------------------------------------------------------
@immediate("apples")
def apples(st: ImportExportStateBase, p: int) -> None:
    ctype = st.game.ctype
    options = [A.CARD + c for c in st.hands[p] if ctype[c] == AGRICULTURE]
    # Asked even with no agriculture card (then "done" only): being asked must not reveal the hand.
    _ask(st, "apples", p, options or [A.DONE], "apples", p, public=False)


@step("apples")
def _apples(st: ImportExportStateBase, action: int, p: int) -> None:
    if action == A.DONE:
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.add_shipment(p, card)
    _activate(st, p, card)


@self_power("bamboo")
def bamboo(st: ImportExportStateBase, p: int, card: int) -> None:
    if st.owner[card] != p:
        return
    need = st.need(p, card)
    ships = [A.SHIP + s for s in _free_ships(st, p) if st.room(s) >= need]
    if ships:
        _ask(st, "bamboo", p, [A.DONE] + ships, "bamboo", p, card)


@step("bamboo")
def _bamboo(st: ImportExportStateBase, action: int, p: int, card: int) -> None:
    if action == A.DONE:
        return
    s = action - A.SHIP
    st.remove_shipment(p, card)
    st.contract(p, s, card)  # as a Contract action would: Paprika, completion on leftovers


@self_power("beer")
def beer(st: ImportExportStateBase, p: int, card: int) -> None:
    if st.owner[card] == p:
        _ask(st, "beer", p, [A.DONE, A.YES], "beer", p, card)


@step("beer")
def _beer(st: ImportExportStateBase, action: int, p: int, card: int) -> None:
    if action == A.YES:
        st.remove_shipment(p, card)
        st.island.append(card)
        st.gain(p, BEER_PRICE)


@self_power("chicken_feed")
def chicken_feed(st: ImportExportStateBase, p: int, card: int) -> None:
    _chicken_offer(st, p, card, 0)


@task("imm_chicken_offer")
def _chicken_offer(st: ImportExportStateBase, p: int, card: int, i: int) -> None:
    """Offer the card to the i-th other player clockwise; the first to accept buys it."""
    others = _others(st, p)
    if i >= len(others) or st.owner[card] != p:
        return
    q = others[i]
    st.push("power", "imm_chicken_offer", p, card, i + 1)
    if st.credits[q] >= CHICKEN_FEED_PRICE:
        _ask(st, "chicken_feed", q, [A.DONE, A.YES], "chicken_feed", p, q, card)


@step("chicken_feed")
def _chicken_feed(st: ImportExportStateBase, action: int, p: int, q: int, card: int) -> None:
    if action == A.YES:
        st.remove_shipment(p, card)
        st.add_shipment(q, card)
        st.transfer(q, p, CHICKEN_FEED_PRICE)


@self_power("small_poodles")
def small_poodles(st: ImportExportStateBase, p: int, card: int) -> None:
    if st.owner[card] != p:
        return
    st.remove_shipment(p, card)
    if st.goods_fit(p, card):  # the room left once it is no longer a shipment
        st.add_good(p, card)
    else:
        st.add_shipment(p, card)  # goods full: it stays a shipment


@immediate("stolen_research")
def stolen_research(st: ImportExportStateBase, p: int) -> None:
    ctype = st.game.ctype
    options = [A.CARD + c for q in _others(st, p) for c in st.shipments[q] if ctype[c] == TECHNOLOGY]
    if options:
        _ask(st, "stolen_research", p, options, "stolen_research", p)


@step("stolen_research")
def _stolen_research(st: ImportExportStateBase, action: int, p: int) -> None:
    stolen = action - A.CARD
    research = st.game.ids["stolen_research"]
    victim = st.owner[stolen]
    st.remove_shipment(victim, stolen)
    if st.owner[research] == p:
        st.remove_shipment(p, research)
        st.add_shipment(victim, research)
    st.add_shipment(p, stolen)
    _activate(st, p, stolen)


@immediate("wind_turbines")
def wind_turbines(st: ImportExportStateBase, p: int) -> None:
    wt = st.game.ids["wind_turbines"]
    tier = st.game.ctier
    options = [A.CARD + c for q in range(st.n) for c in st.shipments[q] if c != wt and tier[c] <= 1]
    if options:
        _ask(st, "wind_turbines", p, options, "wind_turbines", p)


@step("wind_turbines")
def _wind_turbines(st: ImportExportStateBase, action: int, p: int) -> None:
    copied = action - A.CARD
    wt = st.game.ids["wind_turbines"]
    # The copy belongs to the Wind Turbines card (it travels with it if the card changes hands);
    # the state's has()/emit() read it for passive powers.
    st.wind_copy = copied
    key = st.game.cards[copied].key
    if key in SELF_POWERS:
        st.push("power", "imm_self_power", key, p, wt)
    elif key in IMMEDIATE:
        st.push("power", key, p)


@task("imm_self_power")
def _self_power(st: ImportExportStateBase, key: str, p: int, card: int) -> None:
    SELF_POWERS[key](st, p, card)


# ----- goods -----------------------------------------------------------------------------------
@immediate("soy_sauce")
def soy_sauce(st: ImportExportStateBase, p: int) -> None:
    if any(st.game.caction[c] == CONTRACT for c in st.imports[p]):
        _ask(st, "soy_sauce", p, [A.DONE, A.YES], "soy_sauce", p)


@step("soy_sauce")
def _soy_sauce(st: ImportExportStateBase, action: int, p: int) -> None:
    if action != A.YES:
        return
    contracts = [c for c in st.imports[p] if st.game.caction[c] == CONTRACT]
    for c in reversed(contracts):  # one task each: moving a card to goods emits good_added
        st.push("power", "imm_soy_move", p, c)


@task("imm_soy_move")
def _soy_move(st: ImportExportStateBase, p: int, card: int) -> None:
    st.imports[p].remove(card)
    st.gain(p, 2)
    _to_goods(st, p, card)


@immediate("dino_bones")
def dino_bones(st: ImportExportStateBase, p: int) -> None:
    st.push("power", "imm_dino_take", p, 2)
    for q in reversed(_everyone(st, p)):
        st.push("power", "imm_dino_give", q)


@task("imm_dino_give")
def _dino_give(st: ImportExportStateBase, q: int) -> None:
    if st.goods[q]:
        _ask(st, "dino_bones", q, [A.CARD + c for c in st.goods[q]], "dino_give", q)


@step("dino_give")
def _dino_given(st: ImportExportStateBase, action: int, q: int) -> None:
    card = action - A.CARD
    st.goods[q].remove(card)
    st.island.append(card)


@task("imm_dino_take")
def _dino_take(st: ImportExportStateBase, p: int, left: int) -> None:
    options = [A.CARD + c for c in st.island if st.goods_fit(p, c)] if left > 0 else []
    if options:
        _ask(st, "dino_bones", p, options, "dino_take", p, left)


@step("dino_take")
def _dino_taken(st: ImportExportStateBase, action: int, p: int, left: int) -> None:
    card = action - A.CARD
    st.island.remove(card)
    st.push("power", "imm_dino_take", p, left - 1)
    st.add_good(p, card)


# ----- other players give --------------------------------------------------------------------
RG_CREDITS, RG_SHIPMENT, RG_GOODS = range(3)


@immediate("railguns")
def railguns(st: ImportExportStateBase, p: int) -> None:
    for q in reversed(_others(st, p)):
        st.push("power", "imm_railguns_pay", p, q)


@task("imm_railguns_pay")
def _railguns_pay(st: ImportExportStateBase, p: int, q: int) -> None:
    options = []
    if st.credits[q] >= RAILGUNS_CREDITS:
        options.append(A.OPTION + RG_CREDITS)
    if st.shipments[q]:
        options.append(A.OPTION + RG_SHIPMENT)
    if len(st.goods[q]) >= RAILGUNS_GOODS:
        options.append(A.OPTION + RG_GOODS)
    # With none of the three in full, q gives the credits it has.
    _ask(st, "railguns", q, options or [A.OPTION + RG_CREDITS], "railguns", p, q)


@step("railguns")
def _railguns(st: ImportExportStateBase, action: int, p: int, q: int) -> None:
    choice = action - A.OPTION
    if choice == RG_CREDITS:
        st.transfer(q, p, RAILGUNS_CREDITS)
    elif choice == RG_SHIPMENT:
        _ask(st, "railguns", q, [A.CARD + c for c in st.shipments[q]], "railguns_shipment", p, q)
    else:
        st.push("power", "imm_railguns_good", p, q, RAILGUNS_GOODS)


@step("railguns_shipment")
def _railguns_shipment(st: ImportExportStateBase, action: int, p: int, q: int) -> None:
    card = action - A.CARD
    st.remove_shipment(q, card)
    st.add_shipment(p, card)


@task("imm_railguns_good")
def _railguns_good(st: ImportExportStateBase, p: int, q: int, left: int) -> None:
    if left > 0 and st.goods[q]:
        _ask(st, "railguns", q, [A.CARD + c for c in st.goods[q]], "railguns_good", p, q, left)


@step("railguns_good")
def _railguns_given(st: ImportExportStateBase, action: int, p: int, q: int, left: int) -> None:
    card = action - A.CARD
    st.goods[q].remove(card)
    st.push("power", "imm_railguns_good", p, q, left - 1)
    _to_goods(st, p, card)


@immediate("dyson_vacuums")
def dyson_vacuums(st: ImportExportStateBase, p: int) -> None:
    for q in reversed(_others(st, p)):
        st.push("power", "imm_dyson", p, q)


DYSON_HAND = 0


@task("imm_dyson")
def _dyson(st: ImportExportStateBase, p: int, q: int) -> None:
    luxury = [A.CARD + c for c in st.goods[q] if st.game.ctype[c] == LUXURY]
    _ask(st, "dyson_vacuums", q, [A.OPTION + DYSON_HAND] + luxury, "dyson_vacuums", p, q)


@step("dyson_vacuums")
def _dyson_given(st: ImportExportStateBase, action: int, p: int, q: int) -> None:
    if action == A.OPTION + DYSON_HAND:
        st.hand_given(q, p)
        return
    card = action - A.CARD
    st.goods[q].remove(card)
    _to_goods(st, p, card)


# ----- containers from other ships -----------------------------------------------------------
@immediate("printed_money")
def printed_money(st: ImportExportStateBase, p: int) -> None:
    _printed_money_next(st, p, 0)


@task("imm_printed_money")
def _printed_money_next(st: ImportExportStateBase, p: int, i: int) -> None:
    """Take a container from a ship of the i-th opponent clockwise."""
    others = _others(st, p)
    if i >= len(others):
        return
    q = others[i]
    st.push("power", "imm_printed_money", p, i + 1)
    options = [A.CARD + c for s in (2 * q, 2 * q + 1) for c in st.cargo[s]]
    if options:
        _ask(st, "printed_money", p, options, "printed_money_take", p)


@step("printed_money_take")
def _printed_money_take(st: ImportExportStateBase, action: int, p: int) -> None:
    card = action - A.CARD
    s = st.take_container(card)
    st.pending = card
    st.push("power", "imm_printed_money_place", p, card)
    st.emit("taken", p, card, s)  # Aeroponics may bring a ship left with one container home
    st.ship_emptied(s)  # an emptied ship at sea goes home (its owner gets nothing)


@task("imm_printed_money_place")
def _printed_money_place(st: ImportExportStateBase, p: int, card: int) -> None:
    ships = [A.SHIP + s for s in _free_ships(st, p) if st.fits(s, card)]
    _ask(st, "printed_money", p, ships + [A.ZONE + A.HAND], "printed_money_place", p, card)


@step("printed_money_place")
def _printed_money_placed(st: ImportExportStateBase, action: int, p: int, card: int) -> None:
    st.pending = -1
    if action == A.ZONE + A.HAND:
        st.hands[p].append(card)
        st.show_in_hand(p, [card])  # a loaded container, seen by all
    else:
        st.load_onto(action - A.SHIP, card, "power")


@immediate("pocky")
def pocky(st: ImportExportStateBase, p: int) -> None:
    st.push("power", "imm_pocky_import", p)
    st.gain(p, 2)
    st.draw(p, 2)


@task("imm_pocky_import")
def _pocky_import(st: ImportExportStateBase, p: int) -> None:
    ships = [A.SHIP + s for s in st.sea_ships()]
    if ships:
        _ask(st, "pocky", p, ships, "pocky", p)


@step("pocky")
def _pocky(st: ImportExportStateBase, action: int, p: int) -> None:
    s = action - A.SHIP
    owner = s // 2
    if owner != p:  # unlike Paper and Stretch Goals, Pocky does not waive the fee
        st.gain(owner, st.game.owner_fee)
    st.push("import_pick", p, s, 1, 0)


# ----- actions by yourself -------------------------------------------------------------------
@immediate("glasses")
def glasses(st: ImportExportStateBase, p: int) -> None:
    _ask_solo_import(st, "glasses", p, fee=True)


def _ask_solo_import(st: ImportExportStateBase, key: str, p: int, fee: bool) -> None:
    ships = [A.SHIP + s for s in st.sea_ships()]
    if ships:
        _ask(st, key, p, ships, "solo_import", p, int(fee))


@step("solo_import")
def _solo_import(st: ImportExportStateBase, action: int, p: int, fee: int) -> None:
    s = action - A.SHIP
    if fee:
        st.won_import(p, s, 0)  # a one-bidder import round: free, the owner is paid (R5.9)
    else:  # 2 containers (3 with Shampoo)
        st.push("import_pick", p, s, min(import_take(st, p), len(st.cargo[s])), 0)


def _solo_action(st: ImportExportStateBase, key: str, p: int, action_type: int, fee: bool) -> None:
    """One action of ``action_type`` for p alone: no followers, no imports, no tier skipping."""
    if action_type == IMPORT:
        _ask_solo_import(st, key, p, fee)
        return
    st.declared = action_type
    st.act_as[p] = action_type
    st.actions_left[p] = 1
    st.push("act", p)


def _save_turn(st: ImportExportStateBase, p: int) -> None:
    """Put the turn's declared action, p's action and actions left and p's sale back when the
    power ends; the power's own actions allow one sale among them."""
    st.push("power", "imm_restore_turn", p, st.declared, st.act_as[p], st.actions_left[p], int(st.sold[p]))
    st.sold[p] = False


@task("imm_restore_turn")
def _restore_turn(st: ImportExportStateBase, p: int, declared: int, act_as: int, left: int, sold: int) -> None:
    st.declared = declared
    st.act_as[p] = act_as
    st.actions_left[p] = left
    st.sold[p] = bool(sold)


@immediate("platinum_rings")
def platinum_rings(st: ImportExportStateBase, p: int) -> None:
    # Its actions come after the ship has sailed, so none of them can use the departing ship.
    _after_sailing(st, p, ("power", "imm_platinum_start", p))


@task("imm_platinum_start")
def _platinum_start(st: ImportExportStateBase, p: int) -> None:
    _save_turn(st, p)
    st.push("power", "imm_platinum_next", p)
    st.draw(p, max(0, PLATINUM_HAND - len(st.hands[p])))


@task("imm_platinum_next")
def _platinum_next(st: ImportExportStateBase, p: int) -> None:
    _ask(st, "platinum_rings", p, [A.DONE] + [A.CARD + c for c in st.hands[p]], "platinum_rings", p, public=False)


@hand_reask("apples")
def _apples_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    apples(st, args[1])  # ("apples", p)


@hand_reask("platinum_rings")
def _platinum_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    _platinum_next(st, args[1])  # ("platinum_rings", p)


@step("platinum_rings")
def _platinum_rings(st: ImportExportStateBase, action: int, p: int) -> None:
    if action == A.DONE:
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.played[p].append(card)  # like a declared card: public, discarded at the turn's end
    st.push("power", "imm_platinum_next", p)
    _solo_action(st, "platinum_rings", p, st.game.caction[card], fee=True)


@immediate("stretch_goals")
def stretch_goals(st: ImportExportStateBase, p: int) -> None:
    _after_sailing(st, p, ("power", "imm_stretch_start", p))


@task("imm_stretch_start")
def _stretch_start(st: ImportExportStateBase, p: int) -> None:
    everyone = _everyone(st, p)
    _save_turn(st, p)
    st.push("power", "imm_stretch_action", p, STRETCH_FREE_ACTIONS)
    for q in reversed(everyone):
        st.push("power", "imm_stretch_import", q)
    for q in everyone:
        st.draw(q, 1)
    for q in everyone:
        st.gain(q, 2)


@task("imm_stretch_import")
def _stretch_import(st: ImportExportStateBase, q: int) -> None:
    ships = [A.SHIP + s for s in st.sea_ships()]
    if ships:
        _ask(st, "stretch_goals", q, ships, "stretch_import", q)


@step("stretch_import")
def _stretch_imported(st: ImportExportStateBase, action: int, q: int) -> None:
    st.push("import_pick", q, action - A.SHIP, 1, 0)  # no fee to the owner (the card says so)


@task("imm_stretch_action")
def _stretch_action(st: ImportExportStateBase, p: int, left: int) -> None:
    if left <= 0:
        return
    st.push("power", "imm_stretch_action", p, left - 1)
    _ask(st, "stretch_goals", p, [A.ACTION + a for a in range(NUM_ACTION_TYPES)], "stretch_action", p)


@step("stretch_action")
def _stretch_named(st: ImportExportStateBase, action: int, p: int) -> None:
    _solo_action(st, "stretch_goals", p, action - A.ACTION, fee=False)
