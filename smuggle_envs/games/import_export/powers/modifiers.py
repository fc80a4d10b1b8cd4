"""Powers that change a basic rule, offered where the rule lives (``state.py``, ``steps.py``).

The matching powers (wild containers, rainbow contracts, Prefab Homes, Robot Cats, Tortillas),
capacities (Tablets, Board Games, Scotch Whisky), Ferraris' virtual goods, Foxes' ties and the
end condition (MIRI Machines, Can Openers) are part of the state itself (``state.py``). This
module holds the rest: the options a power adds to an existing decision, the "any time" powers, and
the outright wins.

Options a power adds to a decision of its holder (``A.OPTION + i``):

| decision          | option     | power                                                        |
|-------------------|------------|--------------------------------------------------------------|
| load: a container | OPTION + 0 | Batteries: pay 2 credits for one extra Load action            |
|                   | OPTION + 1 | Cell Phones: draw instead of loading from the hand            |
|                   | OPTION + 2 | Smart Cars: a card to the supply island for 2 credits         |
| contract: a card  | OPTION + 0 | Jasmine Tea: sell a card to the supply island for 2 credits   |
| pirate: take      | OPTION + 0 | Drugs: an extra container from a ship at sea                  |
|                   | OPTION + 1 | Mini Van: the top card of the draw deck                       |
|                   | OPTION + 2 | Mini Van: a random card from another player's hand            |
|                   | card c     | Mini Van: container c on another player's ship in harbor      |
| pirate: place     | to goods   | Stem Cells: pay 2 credits to put it in the goods              |
| import: the ship  | OPTION + 0 | Dark Flight Games: import from the supply island              |
| any of the above, | OPTION + 3 | Lutefisk: contract it from the hand (no action)               |
| lead, follow,     | card c     | the "any time" power of c, a card in the holder's shipments:  |
| supply            |            | Iceland Water, Telescopes, Segways, Oysters, LED Lights, Rope |

"Any time" means: at every decision of the holder where it picks cards from its hand (lead,
follow, and its Contract, Load and Supply actions), so each holder has a window every turn.
Rope and LED Lights ("when you are the leader", "on your turn") only while it leads. Every use
changes the position for good (a card leaves the hand, a good is sold, Rope is used up), and no
use can be declined once chosen, so offering them again never loops.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import Any

from .. import actions as A
from ..hooks import hand_reask, hidden_choice, resume, task, win_check
from ..state import ImportExportStateBase
from ..vocab import AGRICULTURE, CONTRACT, ILLEGAL, LOAD, LUXURY, NUM_TYPES, P_PIRATE_TAKE, P_POWER, PIRATE, TECHNOLOGY

OPT_BATTERIES, OPT_CELL_PHONES, OPT_SMART_CARS = A.OPTION, A.OPTION + 1, A.OPTION + 2
OPT_JASMINE_TEA = A.OPTION
OPT_DRUGS, OPT_DECK, OPT_HAND = A.OPTION, A.OPTION + 1, A.OPTION + 2
OPT_ISLAND = A.OPTION
OPT_LUTEFISK = A.OPTION + 3
ANYTIME = ("iceland_water", "telescopes", "segways", "oysters", "led_lights", "rope")


def _ids(st: ImportExportStateBase, key: str) -> int:
    return st.game.ids[key]


def _types(st: ImportExportStateBase, cards: Iterable[int], t: int) -> list[int]:
    ctype = st.game.ctype
    return [c for c in cards if ctype[c] == t]


# ----- following and carrying out actions -----------------------------------------------------
def follow_cards(st: ImportExportStateBase, p: int) -> list[int]:
    """Hand cards p may follow with: the declared action's; with 3D Printers any card; with Rice
    Cookers Load and Contract interchangeably; with Neural Units a Load card."""
    hand = st.hands[p]
    if st.has(p, "3d_printers"):
        return hand
    a = st.declared
    ok = {a}
    if a in (LOAD, CONTRACT) and st.has(p, "rice_cookers"):
        ok = {LOAD, CONTRACT}
    if st.has(p, "neural_units"):
        ok.add(LOAD)
    caction = st.game.caction
    return [c for c in hand if caction[c] in ok]


def neural_follow(st: ImportExportStateBase, p: int, card: int) -> bool:
    """Whether following with ``card`` is Neural Units' "follow any led action with a load
    action" (the follower then takes one Load action and not the declared action)."""
    a = st.declared
    if a == LOAD or st.game.caction[card] != LOAD or not st.has(p, "neural_units"):
        return False
    return not (a == CONTRACT and st.has(p, "rice_cookers"))


def action_kinds(st: ImportExportStateBase, p: int) -> set[int]:
    """Action types whose imports count for p this turn (Rice Cookers: Load and Contract)."""
    a = st.declared
    if a in (LOAD, CONTRACT) and st.has(p, "rice_cookers"):
        return {LOAD, CONTRACT}
    return {a}


def virtual_imports(st: ImportExportStateBase, p: int, kinds: Container[int]) -> int:
    """Refrigerators: every 2 technology goods are a Load import. Cannons: other players' Pirate
    imports count as p's."""
    k = 0
    if LOAD in kinds and st.has(p, "refrigerators"):
        k += st.goods_count(p, TECHNOLOGY) // 2
    if PIRATE in kinds and st.has(p, "cannons"):
        caction = st.game.caction
        k += sum(1 for q in range(st.n) if q != p for c in st.imports[q] if caction[c] == PIRATE)
    return k


def load_extras(st: ImportExportStateBase, p: int) -> int:
    """Playstations: one extra Load per 2 technology goods, in a turn p carries out Load."""
    return st.goods_count(p, TECHNOLOGY) // 2 if st.has(p, "playstations") else 0


def ask_rice_cookers(st: ImportExportStateBase, p: int, step: str) -> None:
    st.ask_power("rice_cookers", p, [A.ACTION + CONTRACT, A.ACTION + LOAD], (step, p), True)


@resume("rice_cookers")
def _rice_cookers(st: ImportExportStateBase, action: int, step: str, p: int) -> None:
    a = action - A.ACTION
    if step == "declare":
        st.declare(a)
        return
    st.act_as[p] = a
    if a == LOAD:
        st.actions_left[p] += load_extras(st, p)
    st.push("act", p)


# ----- load ------------------------------------------------------------------------------------
def has_partner(st: ImportExportStateBase, p: int, card: int) -> bool:
    """Robot Cats: another card of ``card``'s type in p's hand."""
    if st.owner[st.game.robot_cats] != p:
        return False
    ctype = st.game.ctype
    t = ctype[card]
    return any(ctype[c] == t and c != card for c in st.hands[p])


def pairable(st: ImportExportStateBase, p: int, card: int, ships: Iterable[int]) -> bool:
    return has_partner(st, p, card) and any(st.pair_fits(s, card) for s in ships)


def ask_robot_partner(st: ImportExportStateBase, p: int, s: int, card: int) -> None:
    partners = _types(st, st.hands[p], st.game.ctype[card])
    st.ask_power("robot_cats", p, [A.CARD + c for c in partners], (p, s, card))


@resume("robot_cats")
def _robot_cats(st: ImportExportStateBase, action: int, p: int, s: int, card: int) -> None:
    """Both containers go on with one Load action and count as one technology container."""
    other = action - A.CARD
    st.hands[p].remove(other)
    st.pending = -1
    st.cargo[s] += [card, other]
    st.emit("loaded", p, s, card, "load")
    st.emit("loaded", p, s, other, "load")
    st.check_complete(s)


def load_power_options(st: ImportExportStateBase, p: int) -> list[int]:
    options = []
    if st.has(p, "batteries") and "batteries" not in st.once and st.credits[p] >= 2:
        options.append(OPT_BATTERIES)
    if st.has(p, "cell_phones") and (st.deck or st.discard):
        options.append(OPT_CELL_PHONES)
    if st.has(p, "smart_cars") and "smart_cars" not in st.once and st.hands[p]:
        options.append(OPT_SMART_CARS)
    return options


def _use_batteries(st: ImportExportStateBase, p: int) -> None:
    st.once.append("batteries")
    st.pay(p, 2)
    st.actions_left[p] += 1
    st.push("act", p)


def _use_cell_phones(st: ImportExportStateBase, p: int) -> None:
    """The drawn card is loaded if it fits one of p's shipments, else it stays in the hand."""
    st.actions_left[p] -= 1
    st.push("act", p)
    card = st.draw_card(p)
    if card < 0:
        return
    if any(st.fits(s, card) for s in st.harbor_ships(p)):
        st.pending = card
        st.push("load_ship", p, card, "load")
    else:
        st.hands[p].append(card)
    st.emit("drew", p, 1)


def _use_smart_cars(st: ImportExportStateBase, p: int) -> None:
    st.once.append("smart_cars")
    st.actions_left[p] -= 1
    st.push("act", p)
    st.ask_power("smart_cars", p, [A.CARD + c for c in st.hands[p]], (p,))


@resume("smart_cars")
def _smart_cars(st: ImportExportStateBase, action: int, p: int) -> None:
    _to_island(st, p, action - A.CARD, 2)


def _to_island(st: ImportExportStateBase, p: int, card: int, price: int) -> None:
    st.hands[p].remove(card)
    st.island.append(card)
    st.gain(p, price)


LOAD_OPTIONS = {OPT_BATTERIES: _use_batteries, OPT_CELL_PHONES: _use_cell_phones, OPT_SMART_CARS: _use_smart_cars}


# ----- contract --------------------------------------------------------------------------------
def contract_power_options(st: ImportExportStateBase, p: int) -> list[int]:
    if st.has(p, "jasmine_tea") and "jasmine_tea" not in st.once and st.hands[p]:
        return [OPT_JASMINE_TEA]
    return []


def _use_jasmine_tea(st: ImportExportStateBase, p: int) -> None:
    st.once.append("jasmine_tea")
    st.push("act", p)
    st.ask_power("jasmine_tea", p, [A.CARD + c for c in st.hands[p]], (p,))


@resume("jasmine_tea")
def _jasmine_tea(st: ImportExportStateBase, action: int, p: int) -> None:
    _to_island(st, p, action - A.CARD, 2)


CONTRACT_OPTIONS = {OPT_JASMINE_TEA: _use_jasmine_tea}


@task("paprika")
def _paprika_offer(st: ImportExportStateBase, p: int) -> None:
    """ "When contracting a new shipment, you can also load 1 container if able for free": asked
    whenever p has a card and a shipment with an open slot (the hand stays hidden)."""
    ships = [s for s in st.harbor_ships(p) if st.contracts[s] and st.matched(s) < st.needed(s)]
    if not ships or not st.hands[p]:
        return
    cards = [c for c in st.hands[p] if any(st.fits(s, c) for s in ships)]
    st.ask_power("paprika", p, [A.DONE] + [A.CARD + c for c in cards], (p,))


@resume("paprika")
def _paprika(st: ImportExportStateBase, action: int, p: int) -> None:
    if action == A.DONE:
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.pending = card
    st.ask_load_ship(p, card, "power")


@task("flour")
def _flour_offer(st: ImportExportStateBase, p: int, s: int, left: int) -> None:
    """Flour, contracted with a Contract action, may load 4 containers from the hand at once; the
    offer is made only when 4 hand cards together fill 4 open slots of its ship."""
    flour = _ids(st, "flour")
    if st.at_sea[s] or flour not in st.contracts[s] or not st.hands[p]:
        return
    cards = [c for c in st.hands[p] if st.fits(s, c)]
    if left == 4 and (len(cards) < 4 or st.matched(s, cards) - st.matched(s) < 4):
        cards = []
    # Once started, "all 4 at once": "done" only if no card fits any more (asked all the same,
    # so that the hand stays hidden).
    options = [A.CARD + c for c in cards]
    if left == 4 or not options:
        options.append(A.DONE)
    st.ask_power("flour", p, options, (p, s, left))


@resume("flour")
def _flour(st: ImportExportStateBase, action: int, p: int, s: int, left: int) -> None:
    if action == A.DONE:
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    if left > 1:
        st.push("power", "flour", p, s, left - 1)
    st.load_onto(s, card, "power")


# ----- pirate ----------------------------------------------------------------------------------
def pirate_power_options(st: ImportExportStateBase, p: int) -> list[int]:
    options = []
    if st.has(p, "drugs") and "drugs" not in st.once and st.sea_ships():
        options.append(OPT_DRUGS)
    if st.has(p, "mini_van"):
        options += [A.CARD + c for s in range(2 * st.n) if s // 2 != p and not st.at_sea[s] for c in st.cargo[s]]
        if st.deck or st.discard:
            options.append(OPT_DECK)
        if any(st.hands[q] for q in range(st.n) if q != p):
            options.append(OPT_HAND)
    return options


def _use_drugs(st: ImportExportStateBase, p: int) -> None:
    """The extra container costs no action; it must come from a ship at sea."""
    st.once.append("drugs")
    options = [A.CARD + c for s in st.sea_ships() for c in st.cargo[s]]
    st._ask(P_PIRATE_TAKE, p, sorted(options), (p, 1), True)


def _use_deck(st: ImportExportStateBase, p: int) -> None:
    st.actions_left[p] -= 1
    st.push("act", p)
    card = st.draw_card(p)
    if card >= 0:
        st.pirated(p, card, -1)


def _use_hand(st: ImportExportStateBase, p: int) -> None:
    st.actions_left[p] -= 1
    st.push("act", p)
    seats = [A.SEAT + (q - p) % st.n for q in range(st.n) if q != p and st.hands[q]]
    st.ask_power("mini_van", p, seats, (p,), True)


@resume("mini_van")
def _mini_van(st: ImportExportStateBase, action: int, p: int) -> None:
    q = (p + action - A.SEAT) % st.n
    hand = st.hands[q]
    card = hand.pop(st.rng.randrange(len(hand)))
    st.pirated(p, card, -1)


PIRATE_OPTIONS = {OPT_DRUGS: _use_drugs, OPT_DECK: _use_deck, OPT_HAND: _use_hand}


def pirate_place_options(st: ImportExportStateBase, p: int, card: int) -> list[int]:
    if st.has(p, "stem_cells") and st.credits[p] >= 2 and st.goods_fit(p, card):
        return [A.ZONE + A.GOODS]
    return []


def stem_cells(st: ImportExportStateBase, p: int, card: int) -> None:
    st.pay(p, 2)
    st.add_good(p, card)


# ----- import ----------------------------------------------------------------------------------
def import_source_options(st: ImportExportStateBase) -> list[int]:
    """Dark Flight Games: its holder, leading, may pick the supply island to import from."""
    if st.island and st.has(st.leader, "dark_flight_games"):
        return [OPT_ISLAND]
    return []


def pay_for_island(st: ImportExportStateBase, p: int, price: int) -> None:
    """ "keep the highest bid even if it is your own": the bid goes to the holder, not the bank,
    and no ship owner is paid."""
    holder = st.holder("dark_flight_games")
    if holder != p:
        st.transfer(p, holder, price)


def owner_fee(st: ImportExportStateBase, owner: int) -> int:
    return 4 if st.has(owner, "pants") else st.game.owner_fee


def import_take(st: ImportExportStateBase, p: int) -> int:
    return 3 if st.has(p, "shampoo") else 2


# ----- "any time" powers -------------------------------------------------------------------------
def anytime_options(st: ImportExportStateBase, p: int) -> list[int]:
    ids = st.game.ids
    options = [A.CARD + ids[key] for key in ANYTIME if _holds_anytime(st, p, ids[key]) and _AVAILABLE[key](st, p)]
    if _lutefisk_ok(st, p):
        options.append(OPT_LUTEFISK)
    return options


def is_anytime(st: ImportExportStateBase, p: int, action: int) -> bool:
    if action == OPT_LUTEFISK:
        return True
    if not A.CARD <= action < A.ACTION:
        return False
    card = action - A.CARD
    return st.game.cards[card].key in _START and _holds_anytime(st, p, card)


def _holds_anytime(st: ImportExportStateBase, p: int, card: int) -> bool:
    """p's own card, or a Wind Turbines copy of it (not of Segways, which moves its own card)."""
    return st.owner[card] == p or (st.holds(p, card) and st.game.cards[card].key != "segways")


def use_anytime(st: ImportExportStateBase, p: int, action: int) -> None:
    if action == OPT_LUTEFISK:
        card = _ids(st, "lutefisk")
        st.hands[p].remove(card)
        st.pending = card
        st.ask_contract_ship(p, card, P_POWER, "lutefisk")
        return
    _START[st.game.cards[action - A.CARD].key](st, p)


def _contractable(st: ImportExportStateBase, p: int, card: int) -> bool:
    """Tier met and a ship in harbor with room (a contract without an action)."""
    if st.deficit(p, card):
        return False
    need = st.need(p, card)
    return any(st.room(s) >= need for s in st.harbor_ships(p))


def _lutefisk_ok(st: ImportExportStateBase, p: int) -> bool:
    card = _ids(st, "lutefisk")
    return card in st.hands[p] and _contractable(st, p, card)


@resume("lutefisk")
def _lutefisk(st: ImportExportStateBase, action: int, p: int, card: int) -> None:
    st.pending = -1
    st.contract(p, action - A.SHIP, card)


def _oysters_cards(st: ImportExportStateBase, p: int) -> list[int]:
    return [c for c in _types(st, st.hands[p], LUXURY) if _contractable(st, p, c)]


def _oysters_start(st: ImportExportStateBase, p: int) -> None:
    st.ask_power("oysters", p, [A.CARD + c for c in _oysters_cards(st, p)], (p,))


@resume("oysters")
def _oysters(st: ImportExportStateBase, action: int, p: int, card: int = -1) -> None:
    if card < 0:
        card = action - A.CARD
        st.hands[p].remove(card)
        st.pending = card
        st.ask_contract_ship(p, card, P_POWER, "oysters")
        return
    st.pending = -1
    st.contract(p, action - A.SHIP, card)


def _iceland_water_start(st: ImportExportStateBase, p: int) -> None:
    st.ask_power("iceland_water", p, [A.CARD + c for c in _types(st, st.hands[p], AGRICULTURE)], (p,))


@resume("iceland_water")
def _iceland_water(st: ImportExportStateBase, action: int, p: int) -> None:
    _to_island(st, p, action - A.CARD, 2)


def _telescopes_start(st: ImportExportStateBase, p: int) -> None:
    st.ask_power("telescopes", p, [A.CARD + c for c in _types(st, st.goods[p], TECHNOLOGY)], (p,), True)


@resume("telescopes")
def _telescopes(st: ImportExportStateBase, action: int, p: int) -> None:
    """A technology good is traded to the discard pile for 4 credits."""
    card = action - A.CARD
    st.goods[p].remove(card)
    st.discard.append(card)
    st.gain(p, 4)


def _segways_targets(st: ImportExportStateBase, p: int) -> list[int]:
    """Where Segways may go: imports or goods (limits counted without Segways among the
    shipments), or a ship in harbor it fits as a technology container."""
    seg = _ids(st, "segways")
    ships = st.shipments[p]
    i = ships.index(seg)
    ships.pop(i)
    st.owner[seg] = -1
    try:
        out = [A.ZONE + A.IMPORTS] if len(st.imports[p]) < st.imports_cap(p) else []
        if st.goods_fit(p, seg):
            out.append(A.ZONE + A.GOODS)
    finally:
        ships.insert(i, seg)
        st.owner[seg] = p
    return out + [A.SHIP + s for s in st.harbor_ships(p) if st.fits(s, seg)]


def _segways_start(st: ImportExportStateBase, p: int) -> None:
    st.ask_power("segways", p, _segways_targets(st, p), (p,), True)


@resume("segways")
def _segways(st: ImportExportStateBase, action: int, p: int) -> None:
    seg = _ids(st, "segways")
    st.remove_shipment(p, seg)
    if action == A.ZONE + A.IMPORTS:
        st.imports[p].append(seg)
    elif action == A.ZONE + A.GOODS:
        st.add_good(p, seg)
    else:
        st.load_onto(action - A.SHIP, seg, "power")


def _led_lights_start(st: ImportExportStateBase, p: int) -> None:
    st.ask_power("led_lights", p, [A.CARD + c for c in st.island], (p, -1, 0), True)


@resume("led_lights")
def _led_lights(st: ImportExportStateBase, action: int, p: int, wanted: int, given: int) -> None:
    """Swap 2 hand cards for 1 island card: the island card first, then the two hand cards."""
    card = action - A.CARD
    if wanted < 0:
        st.ask_power("led_lights", p, [A.CARD + c for c in st.hands[p]], (p, card, 0))
        return
    st.hands[p].remove(card)
    st.island.append(card)
    if not given:
        st.ask_power("led_lights", p, [A.CARD + c for c in st.hands[p]], (p, wanted, 1))
        return
    st.island.remove(wanted)
    st.hands[p].append(wanted)
    st.show_in_hand(p, [wanted])  # the island card, seen by all


@hidden_choice("led_lights")
def _led_lights_hidden(st: ImportExportStateBase, p: int, args: tuple[Any, ...], action: int) -> str | None:
    """The island card chosen first is taken only once the two hand cards are given: until then
    the table (whose view does not keep the choice) sees only that one was chosen."""
    return f"{st.game.seat_name(p)} chooses a card of the supply island (LED Lights)" if args[1] < 0 else None


def _rope_start(st: ImportExportStateBase, p: int) -> None:
    st.once.append("rope")
    st.ask_power("rope", p, [A.CARD + c for c in st.island], (p, -1), True)


@resume("rope")
def _rope(st: ImportExportStateBase, action: int, p: int, wanted: int) -> None:
    card = action - A.CARD
    if wanted < 0:
        st.ask_power("rope", p, [A.CARD + c for c in st.hands[p]], (p, card))
        return
    st.hands[p].remove(card)
    st.island.remove(wanted)
    st.island.append(card)
    st.hands[p].append(wanted)
    st.show_in_hand(p, [wanted])


@hidden_choice("rope")
def _rope_hidden(st: ImportExportStateBase, p: int, args: tuple[Any, ...], action: int) -> str | None:
    """As LED Lights: the island card is seen to go once the swap is made."""
    return f"{st.game.seat_name(p)} chooses a card of the supply island (Rope)" if args[1] < 0 else None


_AVAILABLE = {
    "iceland_water": lambda st, p: bool(_types(st, st.hands[p], AGRICULTURE)),
    "telescopes": lambda st, p: bool(_types(st, st.goods[p], TECHNOLOGY)),
    "segways": lambda st, p: bool(_segways_targets(st, p)),
    "oysters": lambda st, p: bool(_oysters_cards(st, p)),
    "led_lights": lambda st, p: p == st.leader and len(st.hands[p]) >= 2 and bool(st.island),
    "rope": lambda st, p: p == st.leader and "rope" not in st.once and bool(st.island) and bool(st.hands[p]),
}
_START = {
    "iceland_water": _iceland_water_start,
    "telescopes": _telescopes_start,
    "segways": _segways_start,
    "oysters": _oysters_start,
    "led_lights": _led_lights_start,
    "rope": _rope_start,
}


# ----- outright wins -----------------------------------------------------------------------------
def has_most(st: ImportExportStateBase, p: int, counts: list[int]) -> bool:
    """p has the most (more than 0), a tie counting only for the Foxes holder ("You now break all
    ties")."""
    mine = counts[p]
    if mine <= 0:
        return False
    others = max(counts[q] for q in range(st.n) if q != p)
    return mine > others or (mine == others and st.holds(p, st.game.foxes))


@win_check("the_mother_load")
def _the_mother_load(st: ImportExportStateBase, p: int) -> bool:
    return st.goods_count(p, ILLEGAL) >= 8


@win_check("graphics_cards")
def _graphics_cards(st: ImportExportStateBase, p: int) -> bool:
    """ "the most of 4 good types" (virtual goods count, as in every goods count)."""
    won = 0
    for t in range(NUM_TYPES):
        won += has_most(st, p, [st.goods_count(q, t) for q in range(st.n)])
    return won >= 4


@win_check("exotic_fish")
def _exotic_fish(st: ImportExportStateBase, p: int) -> bool:
    """Twice the active credits of every other player, and the most goods cards."""
    credits = st.credits
    if any(credits[p] < 2 * credits[q] for q in range(st.n) if q != p):
        return False
    return has_most(st, p, [len(st.goods[q]) for q in range(st.n)])


# ----- asked again from a redrawn hand (``State.resample``) ----------------------------------------
def _whole_hand(key: str) -> None:
    """Register a re-ask for ``key``'s decision "a card from your hand" (``args[0]`` is the decider)."""

    def reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
        st.ask_power(key, args[0], [A.CARD + c for c in st.hands[args[0]]], args)

    hand_reask(key)(reask)


for _key in ("smart_cars", "jasmine_tea", "led_lights", "rope"):
    _whole_hand(_key)  # LED Lights' and Rope's island steps are public, so never asked again


@hand_reask("robot_cats")
def _robot_cats_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    ask_robot_partner(st, *args)


@hand_reask("paprika")
def _paprika_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    _paprika_offer(st, *args)


@hand_reask("flour")
def _flour_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    _flour_offer(st, *args)


@hand_reask("oysters")
def _oysters_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    _oysters_start(st, *args)


@hand_reask("iceland_water")
def _iceland_water_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    _iceland_water_start(st, *args)
