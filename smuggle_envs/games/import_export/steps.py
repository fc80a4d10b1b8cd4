"""Import / Export's turn: the stack of small tasks and what each decision does, as functions of
the state (``state.py``); ``rules.ImportExportState`` binds ``apply`` as its step and the steps the
powers reuse (``declare``, ``ask_contract_ship``, ``ask_load_ship``, ``pirated``,
``won_import``) as its methods.

Quotations are from the rulebook; "R5.n" refers to resolution n of section 5 of the project's
rule resolutions. ``docs/rules/import_export.md`` quotes both, and maps every rule to the code
and to its test.

How the engine is built. A turn is a stack of small *tasks* (``st.stack``, plain tuples): "ask
the next follower", "run this player's remaining Load actions", "import round 2", "pay out this
ship". ``run`` pops and runs tasks (``TASKS``) until one of them needs a decision, which it
states as an *ask* (phase, player, options, how to resume, whether the options are public); the
player's action resumes it (``RESUME``). Powers that interrupt the flow push their own tasks, so
a power is a few small functions, not a fork of the turn. Two rules keep it sound:

* a task holds only public card ids (a card chosen from a hand is first moved to the public
  ``pending`` slot), so redrawing hidden cards never invalidates the stack;
* an ask whose options come from a hand is always asked, even with one option; only asks with
  public options and a single choice are applied automatically. Who decides next is therefore a
  function of public information, and it never reveals a hand. The decisions applied this way
  are told to ``State.auto_listeners`` (the analytics watch them there).

The options powers add to a decision, and the "any time" powers, are in
``powers/modifiers.py`` (``M`` here).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import actions as A
from .hooks import IMMEDIATE, POWER_RESUME, POWER_TASK, WIN_CHECKS
from .powers import modifiers as M  # the powers that change a basic rule
from .state import ImportExportStateBase, Task
from .vocab import (
    CHOOSE,
    CONTRACT,
    IMPORT,
    ISLAND,
    LOAD,
    NUM_ACTION_TYPES,
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
    PIRATE,
    SUPPLY,
)

_ACT_PHASE = {CONTRACT: P_CONTRACT_CARD, LOAD: P_LOAD_CARD, PIRATE: P_PIRATE_TAKE, SUPPLY: P_SUPPLY}


# ----- the step and the run of tasks ---------------------------------------------------------------
def apply(st: ImportExportStateBase, action: int) -> None:
    ask = st.ask
    assert ask is not None, "an action is legal only while a decision is stated"
    st.ask = None
    RESUME[ask.phase](st, action, *ask.context)
    run(st)


def run(st: ImportExportStateBase) -> None:
    """Run tasks until a decision is needed; apply single public choices on the way (and tell
    ``auto_listeners`` about each, before it is applied)."""
    stack = st.stack
    while not st.over:
        if st.check_wins_now:
            check_wins(st)
            if st.over:
                return
        ask = st.ask
        if ask is not None:
            if len(ask.options) == 1 and ask.public:
                action = ask.options[0]
                for listener in st.auto_listeners:
                    listener(st, ask.player, action)
                st.ask = None
                RESUME[ask.phase](st, action, *ask.context)
                continue
            return
        task = stack.pop()
        TASKS[task[0]](st, *task[1:])


def check_wins(st: ImportExportStateBase) -> None:
    """Powers whose condition wins the game outright (``powers.WIN_CHECKS``)."""
    for key, fn in WIN_CHECKS.items():
        for p in st.holders(st.game.ids[key]):
            if fn(st, p):
                st.win(p, f"{st.game.seat_name(p)} won with {st.game.names[st.game.ids[key]].title()}")
                return


# ----- tasks ---------------------------------------------------------------------------------------
def card_actions(cards: Iterable[int]) -> list[int]:
    return sorted(A.CARD + c for c in cards)


def _power_option(
    st: ImportExportStateBase,
    p: int,
    action: int,
    table: Mapping[int, Callable[[ImportExportStateBase, int], None]],
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


def _done_or_power(
    st: ImportExportStateBase,
    p: int,
    action: int,
    table: Mapping[int, Callable[[ImportExportStateBase, int], None]],
) -> bool:
    """Whether p's answer to an action's card ask was settled before any card: DONE (p's actions
    end) or a power's option (``_power_option``, which asks the action again after an "any time"
    power)."""
    if action == A.DONE:
        st.actions_left[p] = 0
        return True
    return _power_option(st, p, action, table, ("act", p))


def t_turn(st: ImportExportStateBase) -> None:
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
    ask_lead(st)


def ask_lead(st: ImportExportStateBase) -> None:
    p = st.leader
    options = [A.DRAW] + card_actions(st.hands[p])
    if st.wild_firsts(p):
        options.append(A.WILD)
    # "At any point when a player is the leader of the turn, they may discard any shipment
    # contracts" -- offered before declaring.
    options += card_actions(c for s in st.harbor_ships(p) for c in st.contracts[s])
    options += M.anytime_options(st, p)
    st._ask(P_LEAD, p, sorted(options))


def r_lead(st: ImportExportStateBase, action: int) -> None:
    p = st.leader
    if _power_option(st, p, action, {}, ("lead",)):
        return
    if action == A.DRAW:
        st.push("turn_end")  # first, so that powers answering the draw come before it
        st.draw_up(p)
        return
    if action == A.WILD:
        st._ask(P_WILD1, p, card_actions(st.wild_firsts(p)), (1, p))
        return
    card = action - A.CARD
    if card in st.hands[p]:
        st.hands[p].remove(card)
        st.played[p].append(card)
        a = st.game.caction[card]
        if a in (LOAD, CONTRACT) and st.has(p, "rice_cookers"):
            M.ask_rice_cookers(st, p, "declare")
            return
        declare(st, a)
        return
    st.push("lead")
    for s in st.harbor_ships(p):  # a contract discarded; containers stay (R5.8)
        if card in st.contracts[s]:
            st.contracts[s].remove(card)
            st.discard.append(card)
            st.check_complete(s)


def declare(st: ImportExportStateBase, action_type: int) -> None:
    st.declared = action_type
    st.followed[st.leader] = 1
    st.push("follow", st.next_seat(st.leader))


def t_lead(st: ImportExportStateBase) -> None:
    ask_lead(st)


def t_follow(st: ImportExportStateBase, p: int) -> None:
    if p == st.leader:
        st.push("execute")
        return
    options = [A.DRAW] + card_actions(M.follow_cards(st, p))
    if st.wild_firsts(p):
        options.append(A.WILD)
    options += M.anytime_options(st, p)
    st._ask(P_FOLLOW, p, sorted(options), (p,))


def r_follow(st: ImportExportStateBase, action: int, p: int) -> None:
    if _power_option(st, p, action, {}, ("follow", p)):
        return
    if action == A.DRAW:
        st.followed[p] = 2
        st.push("follow", st.next_seat(p))
        st.draw_up(p)
        return
    if action == A.WILD:
        st._ask(P_WILD1, p, card_actions(st.wild_firsts(p)), (0, p))
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.played[p].append(card)
    st.followed[p] = 1
    if M.neural_follow(st, p, card):
        st.act_as[p] = LOAD
    st.push("follow", st.next_seat(p))


def r_wild1(st: ImportExportStateBase, action: int, leading: int, p: int) -> None:
    card = action - A.CARD
    st.hands[p].remove(card)
    st.played[p].append(card)
    t = st.game.ctype[card]
    st._ask(P_WILD2, p, card_actions(c for c in st.hands[p] if st.game.ctype[c] == t), (leading, p))


def r_wild2(st: ImportExportStateBase, action: int, leading: int, p: int) -> None:
    card = action - A.CARD
    st.hands[p].remove(card)
    st.played[p].append(card)
    if leading:
        st._ask(P_WILD_ACTION, p, [A.ACTION + a for a in range(NUM_ACTION_TYPES)], (), public=True)
    else:
        st.followed[p] = 1
        st.push("follow", st.next_seat(p))


def r_wild_action(st: ImportExportStateBase, action: int) -> None:
    declare(st, action - A.ACTION)


def t_execute(st: ImportExportStateBase) -> None:
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


def _action_count(st: ImportExportStateBase, p: int) -> int:
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


def t_act(st: ImportExportStateBase, p: int) -> None:
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


def _contract_options(st: ImportExportStateBase, p: int) -> list[int]:
    ships = st.harbor_ships(p)
    left = st.actions_left[p]
    return [
        A.CARD + c
        for c in st.hands[p]
        if st.deficit(p, c) <= left - 1 and any(st.room(s) >= st.need(p, c) for s in ships)
    ]


def _load_options(st: ImportExportStateBase, p: int) -> list[int]:
    ships = [s for s in st.harbor_ships(p) if st.contracts[s]]
    return [A.CARD + c for c in st.hands[p] if any(st.fits(s, c) for s in ships) or M.pairable(st, p, c, ships)]


def r_contract_card(st: ImportExportStateBase, action: int, p: int) -> None:
    if _done_or_power(st, p, action, M.CONTRACT_OPTIONS):
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.pending = card
    # Each extra Contract action spent lowers the tier requirement by one (R5.6).
    st.actions_left[p] -= 1 + st.deficit(p, card)
    st.push("act", p)
    ask_contract_ship(st, p, card, P_CONTRACT_SHIP)


def ask_contract_ship(st: ImportExportStateBase, p: int, card: int, phase: int, key: str = "") -> None:
    """The ship for a contract in ``pending`` (a power's own ask when ``key`` is given)."""
    need = st.need(p, card)
    ships = [A.SHIP + s for s in st.harbor_ships(p) if st.room(s) >= need]
    if key:
        st.ask_power(key, p, ships, (p, card), True)
    else:
        st._ask(phase, p, ships, (p, card), True)


def r_contract_ship(st: ImportExportStateBase, action: int, p: int, card: int) -> None:
    st.pending = -1
    st.contract(p, action - A.SHIP, card)


def r_load_card(st: ImportExportStateBase, action: int, p: int) -> None:
    if _done_or_power(st, p, action, M.LOAD_OPTIONS):
        return
    card = action - A.CARD
    st.hands[p].remove(card)
    st.pending = card
    st.actions_left[p] -= 1
    st.push("act", p)
    ask_load_ship(st, p, card, "load")


def ask_load_ship(st: ImportExportStateBase, p: int, card: int, via: str) -> None:
    """The ship for the container in ``pending``. With Robot Cats, a Load action may also pick a
    ship where only a pair of its type fills a slot (the second card is asked next)."""
    ships = [s for s in st.harbor_ships(p) if st.fits(s, card)]
    robot = via == "load" and st.owner[st.game.robot_cats] == p
    if robot and M.has_partner(st, p, card):
        ships += [s for s in st.harbor_ships(p) if s not in ships and st.pair_fits(s, card)]
    # With Robot Cats the ships depend on the hand, so the ask is never automatic.
    st._ask(P_LOAD_SHIP, p, sorted(A.SHIP + s for s in ships), (p, card, via), not robot)


def t_load_ship(st: ImportExportStateBase, p: int, card: int, via: str) -> None:
    ask_load_ship(st, p, card, via)


def r_load_ship(st: ImportExportStateBase, action: int, p: int, card: int, via: str = "load") -> None:
    s = action - A.SHIP
    if not st.fits(s, card):
        M.ask_robot_partner(st, p, s, card)
        return
    st.pending = -1
    st.load_onto(s, card, via)


def _ask_pirate_take(st: ImportExportStateBase, p: int) -> None:
    options = card_actions(st.island) + card_actions(c for s in st.sea_ships() for c in st.cargo[s])
    options += M.pirate_power_options(st, p)
    st._ask(P_PIRATE_TAKE, p, sorted([A.DONE] + options), (p, 0), True)


def r_pirate_take(st: ImportExportStateBase, action: int, p: int, free: int = 0) -> None:
    """``free``: Drugs' extra container, which costs no action."""
    if _done_or_power(st, p, action, M.PIRATE_OPTIONS):
        return
    card = action - A.CARD
    if not free:
        st.actions_left[p] -= 1
    st.push("act", p)
    pirated(st, p, card, st.take_container(card))


def pirated(st: ImportExportStateBase, p: int, card: int, s: int) -> None:
    """p pirated ``card`` from ship s (-1: the island or, with Mini Van, the deck or a hand)."""
    st.pending = card
    st.emit("pirated", p, card, s)
    if s >= 0:
        st.ship_emptied(s)  # the owner gets nothing (R5.10)
    if st.ask is not None:  # a power asked something first: place the container after
        st.push("pirate_place", p, card)
        return
    _ask_pirate_place(st, p, card)


def t_pirate_place(st: ImportExportStateBase, p: int, card: int) -> None:
    _ask_pirate_place(st, p, card)


def _ask_pirate_place(st: ImportExportStateBase, p: int, card: int) -> None:
    """Load it onto a ship it fits, else discard it. Robot Cats may secure it as half of a pair;
    Stem Cells may buy it into the goods."""
    harbor = st.harbor_ships(p)
    ships = [A.SHIP + s for s in harbor if st.fits(s, card)]
    options = ships + [A.SHIP + s for s in harbor if st.pair_fits(s, card)] + M.pirate_place_options(st, p, card)
    if not ships:
        options.append(A.ZONE + A.DISCARD)
    st._ask(P_PIRATE_PLACE, p, sorted(options), (p, card), True)


def r_pirate_place(st: ImportExportStateBase, action: int, p: int, card: int) -> None:
    st.pending = -1
    if action == A.ZONE + A.DISCARD:
        st.discard.append(card)
    elif action == A.ZONE + A.GOODS:
        M.stem_cells(st, p, card)
    else:
        st.load_onto(action - A.SHIP, card, "pirate")


def r_supply(st: ImportExportStateBase, action: int, p: int) -> None:
    if _done_or_power(st, p, action, {}):
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
def t_import_round(st: ImportExportStateBase, r: int) -> None:
    """Round r: everyone with at least r Import actions bids on the ship the leader picks."""
    bidders = [p for p in st.order_from_leader() if st.actions_left[p] >= r and st.acting(p) == IMPORT]
    options = [A.SHIP + s for s in st.sea_ships()] + M.import_source_options(st)
    if not bidders or not options:
        return
    st.bidders = bidders
    st._ask(P_IMPORT_SHIP, st.leader, options, (r,), True)


def r_import_ship(st: ImportExportStateBase, action: int, r: int) -> None:
    s = ISLAND if action == M.OPT_ISLAND else action - A.SHIP
    st.import_ship = s
    st.push("import_round", r + 1)
    if len(st.bidders) == 1:  # a single participant takes the cards free (R5.9)
        won_import(st, st.bidders[0], s, 0)
        return
    st.bids = [-1] * st.n
    st.push("bid", 0)


def t_bid(st: ImportExportStateBase, i: int) -> None:
    p = st.bidders[i]
    top = min(st.credits[p] // 2, A.MAX_BID_STEPS)
    st._ask(P_BID, p, [A.BID + k for k in range(top + 1)], (i,), True)


def r_bid(st: ImportExportStateBase, action: int, i: int) -> None:
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
    won_import(st, winner, st.import_ship, 2 * best)


def won_import(st: ImportExportStateBase, p: int, s: int, price: int) -> None:
    if s == ISLAND:
        M.pay_for_island(st, p, price)
    else:
        st.pay(p, price)
        owner = s // 2
        if owner != p:
            st.gain(owner, M.owner_fee(st, owner))
    st.push("import_pick", p, s, min(M.import_take(st, p), len(_source(st, s))), 0)


def _source(st: ImportExportStateBase, s: int) -> list[int]:
    return st.island if s == ISLAND else st.cargo[s]


def t_import_pick(st: ImportExportStateBase, p: int, s: int, left: int, used_import: int) -> None:
    source = _source(st, s)
    if left <= 0 or not source:
        if s != ISLAND:
            st.ship_emptied(s)
        st.emit("import_done", p, s)
        return
    st._ask(P_IMPORT_PICK, p, card_actions(source), (p, s, left, used_import), True)


def r_import_pick(st: ImportExportStateBase, action: int, p: int, s: int, left: int, used_import: int) -> None:
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


def r_import_zone(
    st: ImportExportStateBase, action: int, p: int, s: int, left: int, used_import: int, card: int
) -> None:
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
def t_turn_end(st: ImportExportStateBase) -> None:
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


def t_sail(st: ImportExportStateBase, s: int) -> None:
    """The completed ship and its containers go to the open sea."""
    if st.cargo[s]:  # a ship emptied by a power before sailing never leaves
        st.at_sea[s] = True


def t_recheck(st: ImportExportStateBase, p: int) -> None:
    """A power that changes matching was gained: p's other shipments may be complete now."""
    for s in st.harbor_ships(p):
        st.check_complete(s)


def t_power(st: ImportExportStateBase, key: str, *args: Any) -> None:
    fn = POWER_TASK.get(key) or IMMEDIATE[key]
    fn(st, *args)


def r_power(st: ImportExportStateBase, action: int, key: str, *args: Any) -> None:
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
