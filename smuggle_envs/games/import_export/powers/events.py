"""Powers: events. The passive powers that react to what happens at the table.

Each power listens to one or more of ``EVENTS`` (see ``powers/__init__.py``). Powers without a
decision act inside the listener. A power with a decision runs its first step through
``_soon``: at once when no decision is pending, otherwise as a task, so it never overwrites a
decision another power (or the engine) has just stated; the task runs before the turn goes on.

Readings of the cards' texts (``docs/rules/import_export.md``, the card table, says why):

* A power whose text names no player ("whenever a shipment is completed", "a container is
  loaded", "a luxury good is contracted") reacts to every player's; "you" means the holder,
  "another player" everyone else.
* "A shipment" is one ship leaving the harbor: the ``completed`` event fires once per ship, so a
  ship carrying two contracts counts once ("limit one time per ship", Satellite). A power held
  by the completing player counts its own completion (the card is in the shipments when the
  ship completes), except where the text says "after this one" (Mouthwash).
* Imports made by a power (Paper, Protractors) are imports: they emit ``imported`` and
  ``import_done`` like the Import action, so Protractors, Aeroponics and the goods powers see
  them; no owner fee is paid ("the owner of the ship will not take credits").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import actions as A
from ..hooks import POWER_TASK, hand_reask, hidden_choice, listener, resume, task
from ..state import ImportExportStateBase
from ..vocab import AGRICULTURE, CONSUMER, ILLEGAL, IMPORT, LUXURY, PIRATE, TECHNOLOGY

CHOICE = [A.DONE, A.YES]  # a "may" power: decline or use it


# ----- helpers ---------------------------------------------------------------------------------
def _soon(st: ImportExportStateBase, name: str, *args: Any) -> None:
    """Run a power's step now if no decision is pending, else right after that decision."""
    if st.ask is None:
        POWER_TASK[name](st, *args)
    else:
        st.push("power", name, *args)


def _types(st: ImportExportStateBase, cards: Iterable[int]) -> set[int]:
    ctype = st.game.ctype
    return {ctype[c] for c in cards}


def _can_draw(st: ImportExportStateBase) -> bool:
    return bool(st.deck or st.discard)


def _ask_may_draw(st: ImportExportStateBase, key: str, holder: int) -> None:
    """A "you may draw a card" power: a public yes/no for the holder."""
    if _can_draw(st):
        st.ask_power(key, holder, CHOICE, ("draw", holder), public=True)


def _may_draw_power(key: str) -> None:
    """Register the ask and the answer of a "you may draw a card" power (Shoes, Drones, Lumber,
    Backpacks); its listener decides when to ask, with ``_soon(st, key, holder)``."""
    task(key)(lambda st, holder: _ask_may_draw(st, key, holder))

    def answer(st: ImportExportStateBase, action: int, step: str, holder: int) -> None:
        if action == A.YES:
            st.draw(holder, 1)

    resume(key)(answer)


for _key in ("shoes", "drones", "lumber", "backpacks"):
    _may_draw_power(_key)


def _may_load(st: ImportExportStateBase, p: int) -> bool:
    """Whether p has cards and a contracted ship in harbor: public, unlike which cards fit."""
    return bool(st.hands[p]) and any(st.contracts[s] for s in st.harbor_ships(p))


def _ask_load(st: ImportExportStateBase, key: str, holder: int) -> None:
    """A power's free load: the holder picks a card from its hand (or passes), then the ship.
    Asked whenever a load could be possible, even if no card fits, so that being asked does not
    tell the table whether the hand holds a fitting card."""
    if _may_load(st, holder):
        ships = [s for s in st.harbor_ships(holder) if st.contracts[s]]
        cards = [A.CARD + c for c in st.hands[holder] if any(st.fits(s, c) for s in ships)]
        st.ask_power(key, holder, [A.DONE] + cards, ("load", holder))


def _resume_load(
    st: ImportExportStateBase, key: str, action: int, step: str, holder: int, *rest: Any, via: str
) -> None:
    """The card ("load") and ship ("ship") steps of ``_ask_load``; ``via`` as in ``load_onto``."""
    if step == "load":
        if action == A.DONE:
            return
        card = action - A.CARD
        st.hands[holder].remove(card)
        # The card is public from now on; whatever was pending (a pirated container waiting to
        # be placed) is pending again once this one is loaded.
        prev, st.pending = st.pending, card
        ships = [A.SHIP + s for s in st.harbor_ships(holder) if st.contracts[s] and st.fits(s, card)]
        st.ask_power(key, holder, ships, ("ship", holder, card, prev), public=True)
        return
    card, prev = rest
    st.pending = prev
    st.load_onto(action - A.SHIP, card, via)


# ----- imports made by a power (Paper, Protractors) ----------------------------------------------
def _free_import(st: ImportExportStateBase, p: int, s: int) -> None:
    """p imports 1 container from ship s at sea, free and with no owner fee: the Import action's
    own pick (imports or goods, capacity permitting; ``imported`` and ``import_done`` follow)."""
    st.push("import_pick", p, s, 1, 0)


# ----- AEROPONICS (registered first: a ship it brings home is no longer at sea for the others) ---
def _aeroponics(st: ImportExportStateBase, holder: int, s: int) -> None:
    """ "If a ship you own at sea is reduced to only 1 loaded container on it, it will return to
    your harbor with the container" (it then counts toward a later contract, R5.8)."""
    if s >= 0 and s // 2 == holder and st.at_sea[s] and len(st.cargo[s]) == 1:
        st.at_sea[s] = False
        st.emit("ship_returned", s)


@listener("pirated", "aeroponics")
def aeroponics_pirated(st: ImportExportStateBase, holder: int, p: int, card: int, s: int) -> None:
    _aeroponics(st, holder, s)


@listener("taken", "aeroponics")
def aeroponics_taken(st: ImportExportStateBase, holder: int, p: int, card: int, s: int) -> None:
    _aeroponics(st, holder, s)


@listener("import_done", "aeroponics")
def aeroponics_imported(st: ImportExportStateBase, holder: int, p: int, s: int) -> None:
    # Checked when the importer is done: the ship must stay at sea while it picks its cards.
    _aeroponics(st, holder, s)


# ----- completed ---------------------------------------------------------------------------------
# All of these react before the ship sails (``complete`` pushes the "sail" task before it emits).
# When several ask at once, the first asks now and the others wait as tasks (the last pushed runs
# first); the rulebook gives no order for simultaneous powers.


@listener("completed", "satellite")
def satellite(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """Every time a shipment is completed (once per ship), may draw a card and load a container."""
    _soon(st, "satellite", holder)


@task("satellite")
def satellite_ask(st: ImportExportStateBase, holder: int) -> None:
    if _can_draw(st) or _may_load(st, holder):
        st.ask_power("satellite", holder, CHOICE, ("draw", holder), public=True)


@task("satellite.load")
def satellite_load(st: ImportExportStateBase, holder: int) -> None:
    _ask_load(st, "satellite", holder)


@hand_reask("satellite")
def satellite_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    _ask_load(st, "satellite", args[1])  # only the "load" step is hidden: ("load", holder)


@resume("satellite")
def satellite_resume(st: ImportExportStateBase, action: int, step: str, holder: int, *rest: Any) -> None:
    if step == "draw":
        if action == A.YES:
            st.draw(holder, 1)
            _soon(st, "satellite.load", holder)
        return
    _resume_load(st, "satellite", action, step, holder, *rest, via="power")


@listener("completed", "shoes")
def shoes(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """Whenever a shipment is made (including this one), may draw a card."""
    _soon(st, "shoes", holder)


@listener("completed", "a_small_tank")
def a_small_tank(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """When anyone completes a shipment, they must give the holder a card from their hand."""
    if p != holder:
        _soon(st, "a_small_tank", holder, p)


@task("a_small_tank")
def a_small_tank_ask(st: ImportExportStateBase, holder: int, p: int) -> None:
    if st.hands[p]:  # the giver chooses; the options are its hidden hand
        st.ask_power("a_small_tank", p, [A.CARD + c for c in st.hands[p]], (holder, p))


@hand_reask("a_small_tank")
def a_small_tank_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    a_small_tank_ask(st, *args)


@resume("a_small_tank")
def a_small_tank_give(st: ImportExportStateBase, action: int, holder: int, p: int) -> None:
    card = action - A.CARD
    st.hands[p].remove(card)
    st.hands[holder].append(card)
    st.show_in_hand(holder, [card], (p,))  # the giver knows where its card went


@hidden_choice("a_small_tank")
def a_small_tank_hidden(st: ImportExportStateBase, p: int, args: tuple[Any, ...], action: int) -> str:
    """The card goes from hand to hand: the table sees only that one was given."""
    name = st.game.seat_name
    return f"{name(p)} gives {name(args[0])} a card from their hand (A Small Tank)"


@listener("completed", "laptops")
def laptops(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """Draw 2 whenever you complete a shipment with a technology container loaded on it."""
    if p == holder and TECHNOLOGY in _types(st, st.cargo[s]):
        st.draw(holder, 2)


@listener("completed", "bok_choy")
def bok_choy(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """+2 when you complete a non-agriculture shipment carrying an agriculture container.

    "If Bok Choy is loaded as a container ..." cannot mean the card itself: a loaded container's
    text is ignored ("only the color of the container matters") and the power belongs to the
    holder of the completed Bok Choy shipment. Bok Choy stands for its colour, yellow."""
    if p == holder and AGRICULTURE not in _types(st, contracts) and AGRICULTURE in _types(st, st.cargo[s]):
        st.gain(holder, 2)


@listener("completed", "mouthwash")
def mouthwash(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """+2 whenever a consumer shipment is completed after this one (anyone's)."""
    if st.game.ids["mouthwash"] not in contracts and CONSUMER in _types(st, contracts):
        st.gain(holder, 2)


@listener("completed", "onions")
def onions(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """+2 whenever you complete an agriculture shipment (including this one)."""
    if p == holder and AGRICULTURE in _types(st, contracts):
        st.gain(holder, 2)


@listener("completed", "pistols")
def pistols(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """Any other player completing an illegal shipment pays the holder 2."""
    if p != holder and ILLEGAL in _types(st, contracts):
        st.transfer(p, holder, 2)


@listener("completed", "rare_metals")
def rare_metals(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """+4 when your ship completes with both a technology and a consumer contract on it."""
    if p == holder and {TECHNOLOGY, CONSUMER} <= _types(st, contracts):
        st.gain(holder, 4)


@listener("completed", "paper")
def paper(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """Completing a consumer shipment (including this one): may import 1 container from a ship
    at sea into your goods or imports, free, no owner fee."""
    if p == holder and CONSUMER in _types(st, contracts):
        _soon(st, "paper", holder)


@task("paper")
def paper_ask(st: ImportExportStateBase, holder: int) -> None:
    ships = st.sea_ships()
    if ships:
        st.ask_power("paper", holder, [A.DONE] + [A.SHIP + s for s in ships], (holder,), public=True)


@resume("paper")
def paper_resume(st: ImportExportStateBase, action: int, holder: int) -> None:
    if action != A.DONE:
        _free_import(st, holder, action - A.SHIP)


@listener("completed", "jets")
def jets(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """Completing a shipment: may take one of its loaded containers into your goods before the
    ship sails."""
    if p == holder:
        _soon(st, "jets", holder, s)


@task("jets")
def jets_ask(st: ImportExportStateBase, holder: int, s: int) -> None:
    cards = [A.CARD + c for c in st.cargo[s] if st.goods_fit(holder, c)] if not st.at_sea[s] else []
    if cards:
        st.ask_power("jets", holder, [A.DONE] + cards, (holder, s), public=True)


@resume("jets")
def jets_resume(st: ImportExportStateBase, action: int, holder: int, s: int) -> None:
    if action != A.DONE:
        card = action - A.CARD
        st.cargo[s].remove(card)
        st.add_good(holder, card)


@listener("completed", "flash_drives")
def flash_drives(st: ImportExportStateBase, holder: int, p: int, s: int, contracts: tuple[int, ...]) -> None:
    """Completing a shipment: may take one loaded container from it into your hand (after the
    payout, before the ship sails)."""
    if p == holder:
        _soon(st, "flash_drives", holder, s)


@task("flash_drives")
def flash_drives_ask(st: ImportExportStateBase, holder: int, s: int) -> None:
    if not st.at_sea[s] and st.cargo[s]:
        st.ask_power("flash_drives", holder, [A.DONE] + [A.CARD + c for c in st.cargo[s]], (holder, s), public=True)


@resume("flash_drives")
def flash_drives_resume(st: ImportExportStateBase, action: int, holder: int, s: int) -> None:
    if action != A.DONE:
        card = action - A.CARD
        st.cargo[s].remove(card)
        st.hands[holder].append(card)
        st.show_in_hand(holder, [card])  # a loaded container is public


# ----- contracted ----------------------------------------------------------------------------------
@listener("contracted", "helicopter")
def helicopter(st: ImportExportStateBase, holder: int, p: int, s: int, card: int) -> None:
    """Whenever a luxury good is contracted (by anyone), 4 passive credits from the bank."""
    if st.game.ctype[card] == LUXURY:
        amount = min(4, st.bank)
        st.bank -= amount
        st.passive[holder] += amount


@listener("contracted", "sugar")
def sugar(st: ImportExportStateBase, holder: int, p: int, s: int, card: int) -> None:
    """+2 when you contract an agriculture shipment."""
    if p == holder and st.game.ctype[card] == AGRICULTURE:
        st.gain(holder, 2)


@listener("contracted", "drones")
def drones(st: ImportExportStateBase, holder: int, p: int, s: int, card: int) -> None:
    """Whenever you contract a new shipment, may also draw 1 card."""
    if p == holder:
        _soon(st, "drones", holder)


# ----- loaded --------------------------------------------------------------------------------------
@listener("loaded", "fixie_bikes")
def fixie_bikes(st: ImportExportStateBase, holder: int, p: int, s: int, card: int, via: str) -> None:
    """+2 whenever a container is loaded from a load action (anyone's; not pirate, not a power)."""
    if via == "load":
        st.gain(holder, 2)


@listener("loaded", "whole_wheat")
def whole_wheat(st: ImportExportStateBase, holder: int, p: int, s: int, card: int, via: str) -> None:
    """Whenever an agriculture container is loaded (anyone's, any way): may take 2 credits or
    draw 2 cards."""
    if st.game.ctype[card] == AGRICULTURE:
        _soon(st, "whole_wheat", holder)


@task("whole_wheat")
def whole_wheat_ask(st: ImportExportStateBase, holder: int) -> None:
    st.ask_power("whole_wheat", holder, [A.DONE, A.OPTION + 0, A.OPTION + 1], (holder,), public=True)


@resume("whole_wheat")
def whole_wheat_resume(st: ImportExportStateBase, action: int, holder: int) -> None:
    if action == A.OPTION + 0:
        st.gain(holder, 2)
    elif action == A.OPTION + 1:
        st.draw(holder, 2)


# ----- goods, credits ------------------------------------------------------------------------------
@listener("good_added", "bubblegum")
def bubblegum(st: ImportExportStateBase, holder: int, p: int, card: int) -> None:
    """Whenever a consumer good is added to any player's goods, +4."""
    if st.game.ctype[card] == CONSUMER:
        st.gain(holder, 4)


@listener("good_added", "chaptick")
def chaptick(st: ImportExportStateBase, holder: int, p: int, card: int) -> None:
    """Whenever a consumer good is added to any player's goods, +2."""
    if st.game.ctype[card] == CONSUMER:
        st.gain(holder, 2)


@listener("spent", "fake_dvds")
def fake_dvds(st: ImportExportStateBase, holder: int, p: int, amount: int) -> None:
    """When another player spends or loses 4 or more credits (at once), +2."""
    if p != holder and amount >= 4:
        st.gain(holder, 2)


# ----- drawing -------------------------------------------------------------------------------------
@listener("drew", "lumber")
def lumber(st: ImportExportStateBase, holder: int, p: int, k: int) -> None:
    """Whenever another player draws cards, may draw one card."""
    if p != holder:
        _soon(st, "lumber", holder)


@listener("drew", "nanobots")
def nanobots(st: ImportExportStateBase, holder: int, p: int, k: int) -> None:
    """Every time you draw cards, may use a free load action if able (it is a load action)."""
    if p == holder:
        _soon(st, "nanobots", holder)


@task("nanobots")
def nanobots_ask(st: ImportExportStateBase, holder: int) -> None:
    _ask_load(st, "nanobots", holder)


@hand_reask("nanobots")
def nanobots_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    _ask_load(st, "nanobots", args[1])


@resume("nanobots")
def nanobots_resume(st: ImportExportStateBase, action: int, step: str, holder: int, *rest: Any) -> None:
    _resume_load(st, "nanobots", action, step, holder, *rest, via="load")


@listener("draw_action", "chairs")
def chairs(st: ImportExportStateBase, holder: int, p: int) -> None:
    """When any other player uses a draw action, may discard a card from your hand."""
    if p != holder:
        _soon(st, "chairs", holder)


@task("chairs")
def chairs_ask(st: ImportExportStateBase, holder: int) -> None:
    if st.hands[holder]:
        st.ask_power("chairs", holder, [A.DONE] + [A.CARD + c for c in st.hands[holder]], (holder,))


@hand_reask("chairs")
def chairs_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    chairs_ask(st, *args)


@resume("chairs")
def chairs_resume(st: ImportExportStateBase, action: int, holder: int) -> None:
    if action != A.DONE:
        card = action - A.CARD
        st.hands[holder].remove(card)
        st.discard.append(card)


@listener("ship_returned", "backpacks")
def backpacks(st: ImportExportStateBase, holder: int, s: int) -> None:
    """Every time any ship returns to a harbor from the open sea, may draw a card."""
    _soon(st, "backpacks", holder)


# ----- the turn's action ---------------------------------------------------------------------------
@listener("execute", "books")
def books(st: ImportExportStateBase, holder: int, leader: int, action: int) -> None:
    """Leading an Import that any other player follows (plays a card): +2, once a turn."""
    if (
        leader == holder
        and action == IMPORT
        and "books" not in st.once
        and any(st.followed[q] == 1 for q in range(st.n) if q != holder)
    ):
        st.once.append("books")
        st.gain(holder, 2)


@listener("execute", "dragon_fruit")
def dragon_fruit(st: ImportExportStateBase, holder: int, leader: int, action: int) -> None:
    """Leading with the pirate action: draw 2 cards or take 2 credits."""
    if leader == holder and action == PIRATE:
        _soon(st, "dragon_fruit", holder)


@task("dragon_fruit")
def dragon_fruit_ask(st: ImportExportStateBase, holder: int) -> None:
    options = [A.OPTION + 1] + ([A.OPTION + 0] if _can_draw(st) else [])
    st.ask_power("dragon_fruit", holder, options, (holder,), public=True)


@resume("dragon_fruit")
def dragon_fruit_resume(st: ImportExportStateBase, action: int, holder: int) -> None:
    if action == A.OPTION + 0:
        st.draw(holder, 2)
    else:
        st.gain(holder, 2)


# ----- imports -------------------------------------------------------------------------------------
@listener("imported", "cannabis")
def cannabis(st: ImportExportStateBase, holder: int, p: int, s: int, card: int) -> None:
    """A player importing any red containers during an Import action pays the holder 2 (once
    per ship won: the marker is cleared when that import is done)."""
    mark = f"cannabis:{p}"
    if p != holder and st.declared == IMPORT and st.game.ctype[card] == ILLEGAL and mark not in st.once:
        st.once.append(mark)
        st.transfer(p, holder, 2)


@listener("import_done", "cannabis")
def cannabis_done(st: ImportExportStateBase, holder: int, p: int, s: int) -> None:
    mark = f"cannabis:{p}"
    if mark in st.once:
        st.once.remove(mark)


@listener("import_done", "protractors")
def protractors(st: ImportExportStateBase, holder: int, p: int, s: int) -> None:
    """Another player imported from a ship at sea: if containers are left, may import 1 free."""
    if p != holder and s >= 0 and st.at_sea[s] and st.cargo[s]:  # s < 0: the supply island
        _soon(st, "protractors", holder, s)


@task("protractors")
def protractors_ask(st: ImportExportStateBase, holder: int, s: int) -> None:
    if st.at_sea[s] and st.cargo[s]:
        st.ask_power("protractors", holder, CHOICE, (holder, s), public=True)


@resume("protractors")
def protractors_resume(st: ImportExportStateBase, action: int, holder: int, s: int) -> None:
    if action == A.YES:
        _free_import(st, holder, s)


# ----- pirate --------------------------------------------------------------------------------------
@listener("pirated", "big_ammunition")
def big_ammunition(st: ImportExportStateBase, holder: int, p: int, card: int, s: int) -> None:
    """Pirating another player's ship at sea: take a random card from the owner's hand."""
    owner = s // 2
    if p == holder and s >= 0 and st.at_sea[s] and owner != holder and st.hands[owner]:
        taken = st.rng.choice(st.hands[owner])
        st.hands[owner].remove(taken)
        st.hands[holder].append(taken)
        st.show_in_hand(holder, [taken], (owner,))  # the owner sees which card it lost


@listener("pirated", "poison_bottles")
def poison_bottles(st: ImportExportStateBase, holder: int, p: int, card: int, s: int) -> None:
    """Any player using the pirate action pays the Pirate King 2, once a turn."""
    mark = f"poison_bottles:{p}"
    if p != holder and mark not in st.once:
        st.once.append(mark)
        st.transfer(p, holder, 2)


@listener("pirated", "stolen_rice")
def stolen_rice(st: ImportExportStateBase, holder: int, p: int, card: int, s: int) -> None:
    """+2 whenever you pirate an agriculture container."""
    if p == holder and st.game.ctype[card] == AGRICULTURE:
        st.gain(holder, 2)


@listener("pirated", "stolen_tires")
def stolen_tires(st: ImportExportStateBase, holder: int, p: int, card: int, s: int) -> None:
    """Every time you pirate: draw a card and seed the supply island."""
    if p == holder:
        st.draw(holder, 1)
        seed = st.draw_card()
        if seed >= 0:
            st.island.append(seed)


@listener("pirated", "shotguns")
def shotguns(st: ImportExportStateBase, holder: int, p: int, card: int, s: int) -> None:
    """A player who pirates before the holder (the holder still has pirate actions this turn)
    gives it 2 credits or 2 cards from their hand, their choice, once a turn."""
    order = st.order_from_leader()
    mark = f"shotguns:{p}"
    if (
        st.declared == PIRATE
        and p != holder
        and st.actions_left[holder] > 0
        and order.index(p) < order.index(holder)
        and mark not in st.once
    ):
        st.once.append(mark)
        _soon(st, "shotguns", holder, p)


@task("shotguns")
def shotguns_ask(st: ImportExportStateBase, holder: int, p: int) -> None:
    options = ([A.OPTION + 0] if st.credits[p] else []) + ([A.OPTION + 1] if st.hands[p] else [])
    if options:
        st.ask_power("shotguns", p, options, ("pay", holder, p), public=True)


def _shotguns_card(st: ImportExportStateBase, holder: int, p: int, left: int) -> None:
    if left and st.hands[p]:
        st.ask_power("shotguns", p, [A.CARD + c for c in st.hands[p]], ("card", holder, p, left))


@hand_reask("shotguns")
def shotguns_reask(st: ImportExportStateBase, args: tuple[Any, ...]) -> None:
    _shotguns_card(st, *args[1:])  # only the "card" step is hidden: ("card", holder, p, left)


@resume("shotguns")
def shotguns_resume(st: ImportExportStateBase, action: int, step: str, holder: int, p: int, *rest: Any) -> None:
    if step == "pay":
        if action == A.OPTION + 0:
            st.transfer(p, holder, 2)
        else:
            _shotguns_card(st, holder, p, 2)
        return
    left, card = rest[0], action - A.CARD
    st.hands[p].remove(card)
    st.hands[holder].append(card)
    st.show_in_hand(holder, [card], (p,))
    _shotguns_card(st, holder, p, left - 1)


@hidden_choice("shotguns")
def shotguns_hidden(st: ImportExportStateBase, p: int, args: tuple[Any, ...], action: int) -> str | None:
    """Credits or cards is a public choice; which cards go from hand to hand is not."""
    if args[0] != "card":
        return None
    name = st.game.seat_name
    return f"{name(p)} gives {name(args[1])} a card from their hand (Shotguns)"
