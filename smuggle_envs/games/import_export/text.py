"""Import / Export's text for people and language models (``smuggle_envs.text``, ``smuggle play``):
the card glossary, a score's text, the cards a seat holds in private, and the notes that tell a
seat what an action did beyond the action itself. ``rules.py`` binds them as
``ImportExportGame.card_glossary`` and ``score_text`` and ``ImportExportState._private_cards``
and ``_step_notes``.

One action can run a long way: the engine applies every decision with a single public option by
itself (a forced bid of 0, the only container left to pick, ...) and runs on. So the notes replay
the action on a copy of the position before it, with an ``auto_listeners`` hook that keeps a copy
of the position at each of those automatic decisions, and describe the run decision by decision
(a sealed-bid round revealed inside it is then told with its own bids). Only public facts are
named: cards drawn are counted, never named (the island card a completion draws shows on the
table), and an automatic decision reads as ``action_to_string`` shows it to the viewer.
"""

from __future__ import annotations

from ...core.game import State
from . import actions as A
from .data import ACTIONS, GOOD_TYPES
from .game import ImportExportGame
from .powers import modifiers as M
from .scoring import FOXES_TIE_BREAK
from .state import ImportExportStateBase
from .vocab import (
    ISLAND,
    P_BID,
    P_FOLLOW,
    P_IMPORT_SHIP,
    P_LEAD,
    P_PIRATE_TAKE,
    P_SUPPLY,
    P_WILD2,
)

_TIMINGS = {
    "immediate": "once, when its shipment completes",
    "passive": "while it is in your shipments",
    "end_game": "at the end of the game, from your shipments",
    "hand": "from your hand",
}
Segment = tuple[ImportExportStateBase, int, int, bool, ImportExportStateBase]
"""One decision of a run: (position before it, decider, action, applied by the engine, position
after it, up to the next automatic decision or the end of the run)."""


# ----- the glossary, scores and the hand ------------------------------------------------------------
def card_glossary(game: ImportExportGame) -> list[tuple[str, str]]:
    """Every card in this game's deck (the base game and the modules of the config), by id, with
    its good type, action, contract tier, load and power."""
    return [(game.names[c], _card_text(game, c)) for c in game.deck_cards]


def _card_text(game: ImportExportGame, c: int) -> str:
    card = game.data.cards[c]
    load = ", ".join(GOOD_TYPES[t] for t in card.load)
    return (
        f"{GOOD_TYPES[card.type]} good, {ACTIONS[card.action]} card; contract tier {card.tier}, loads"
        f" {len(card.load)} container{'s' if len(card.load) > 1 else ''} ({load}). Power ({_TIMINGS[card.timing]}):"
        f" {card.power}"
    )


def score_text(game: ImportExportGame, score: float) -> str:
    """Credits; Foxes' tie-break (``scoring.FOXES_TIE_BREAK``) is said in words, not shown as
    money."""
    whole = int(score)
    if score - whole == FOXES_TIE_BREAK:
        return f"{whole} (wins the tie: Foxes)"
    return str(whole) if score == whole else f"{score:g}"


def private_cards(state: ImportExportStateBase, viewer: int) -> list[str]:
    """The viewer's hand (contracts, imports, goods and shipments are all face up)."""
    return [state.game.names[c] for c in state.hands[viewer]]


# ----- what an action did -------------------------------------------------------------------------------
def step_notes(after: ImportExportStateBase, before: State[ImportExportGame], action: int, viewer: int) -> list[str]:
    """What ``action`` (taken in ``before``) did beyond itself, decision by decision (see the
    module's docstring), then the end of the game."""
    assert isinstance(before, ImportExportStateBase), "a copy of an Import / Export position"
    notes: list[str] = []
    for segment in _replay(before, action, after):
        notes += _segment_notes(segment, viewer)
    return notes + _end_notes(after, before)


def _replay(before: ImportExportStateBase, action: int, after: ImportExportStateBase) -> list[Segment]:
    """The run of ``action`` cut at each automatic decision: the action replayed on a copy of
    ``before`` (the copy carries the RNG, so it runs as the game did), ending in ``after``."""
    world = before.clone()
    stops: list[tuple[ImportExportStateBase, int, int]] = []

    def listen(st: ImportExportStateBase, player: int, auto_action: int) -> None:
        stops.append((st.clone(), player, auto_action))  # ``st`` still asks the decision

    world.auto_listeners.append(listen)
    world.apply_action(action)
    starts = [(before, before.current_player(), action)] + stops
    ends = [stop[0] for stop in stops] + [after]
    return [(st, p, a, i > 0, end) for i, ((st, p, a), end) in enumerate(zip(starts, ends))]


def _segment_notes(segment: Segment, viewer: int) -> list[str]:
    """One decision of the run: a line for a decision the engine took (no seat's line shows it),
    what the decision meant, then what changed on the table up to the next decision."""
    st, p, action, auto, end = segment
    name = st.game.seat_name
    notes = []
    if auto:
        text = st.action_to_string(action, viewer).removeprefix(name(p) + " ")
        if st.pending >= 0 and A.SHIP <= action < A.BID:  # the public card being placed
            text = f"{st.game.names[st.pending]} onto {text}"
        elif st.pending >= 0 and A.ZONE <= action < A.OPTION:
            text = f"{st.game.names[st.pending]} {text}"
        notes.append(f"{name(p)} (the only option): {text}.")
    notes += _decision_notes(st, p, action, end)
    notes += _declare_notes(st, end) + _completion_notes(st, end) + _credit_notes(end, st)
    return notes + _table_notes(st, end)


def _decision_notes(st: ImportExportStateBase, p: int, action: int, end: ImportExportStateBase) -> list[str]:
    """What the decision itself meant, where its text ("card LAPTOPS") leaves it unsaid."""
    g = st.game
    name, phase, card = g.seat_name, st.phase, action - A.CARD
    if phase == P_LEAD and 0 <= card < len(g.names) and card not in st.hands[p]:
        s = next((s for s in st.harbor_ships(p) if card in st.contracts[s]), -1)
        if s >= 0:  # else an "any time" power of its shipments, named by its text
            return [f"{name(p)} discards the contract {g.names[card]} from ship {s}."]
    if phase in (P_LEAD, P_FOLLOW) and action == A.DRAW:
        drawn = len(end.hands[p]) - len(st.hands[p])
        return [f"{name(p)} draws {drawn} card{'s' if drawn != 1 else ''} (hand: {len(end.hands[p])})."]
    if phase == P_SUPPLY and card in st.hands[p]:
        return [f"{name(p)} sells {g.names[card]} to the supply island for {g.sale_price} credits."]
    if phase == P_SUPPLY and card in st.island:
        return [f"{name(p)} takes {g.names[card]} from the supply island into its imports."]
    if phase == P_PIRATE_TAKE and card in st.island:
        return [f"{name(p)} pirates {g.names[card]} from the supply island."]
    if phase == P_PIRATE_TAKE and 0 <= card < len(g.names):
        s = next((s for s in range(2 * st.n) if card in st.cargo[s]), -1)
        if s >= 0:
            owner = s // 2
            paid = "" if owner == p else f"; {name(owner)}, the owner, gets nothing"
            return [f"{name(p)} pirates {g.names[card]} from ship {s} ({name(owner)}'s){paid}."]
    if phase == P_IMPORT_SHIP:
        return _import_round_note(st, action)
    if phase == P_BID and st.ask is not None and st.ask.context[0] == len(st.bidders) - 1:
        return _reveal_note(st, p, action)
    return []


def _import_round_note(st: ImportExportStateBase, action: int) -> list[str]:
    """The leader's pick of the ship (or the island) opens an Import round: who bids, or the
    single importer who takes the containers free (R5.9)."""
    name = st.game.seat_name
    source = "the supply island" if action == M.OPT_ISLAND else _ship_text(st, action - A.SHIP)
    if len(st.bidders) == 1:
        return [f"{name(st.bidders[0])}, the only importer this round, takes containers from {source} for free."]
    bidders = ", ".join(name(q) for q in st.bidders)
    return [f"Import round on {source}: {bidders} bid in secret, in even credits."]


def _ship_text(st: ImportExportStateBase, s: int) -> str:
    return f"ship {s} ({st.game.seat_name(s // 2)}'s)"


def _reveal_note(st: ImportExportStateBase, p: int, action: int) -> list[str]:
    """The last sealed bid is in: every bid, the winner and what it paid (as ``steps.r_bid``
    decides: the highest bid; ties to the Foxes holder, else the first bidder from the leader)."""
    g = st.game
    name = g.seat_name
    bids = st.bids[:]
    bids[p] = action - A.BID
    best = max(bids[q] for q in st.bidders)
    tied = [q for q in st.bidders if bids[q] == best]
    foxes = [q for q in st.holders(g.foxes) if q in tied]
    winner = foxes[0] if foxes else tied[0]
    shown = ", ".join(f"{name(q)} {2 * bids[q]}" for q in st.bidders)
    tie = ""
    if len(tied) > 1:
        tie = " (a tie: Foxes breaks it)" if foxes else " (a tie: the first of them from the leader wins it)"
    s = st.import_ship
    where = "the supply island" if s == ISLAND else _ship_text(st, s)
    note = f"The sealed bids on {where} are revealed: {shown}. {name(winner)} wins{tie} and pays {2 * best} credits"
    owner = s // 2 if s != ISLAND else -1
    if owner >= 0 and owner != winner:
        note += f"; {name(owner)}, the ship's owner, takes {M.owner_fee(st, owner)} from the bank"
    return [note + "."]


def _table_notes(st: ImportExportStateBase, end: ImportExportStateBase) -> list[str]:
    """What else changed on the table during the decision's run: ships back in harbor, a
    reshuffle, a name said aloud, the end being triggered, the next turn."""
    notes = []
    name = st.game.seat_name
    for s in range(2 * st.n):
        if st.at_sea[s] and not end.at_sea[s]:
            notes.append(f"Ship {s} is empty and returns to {name(s // 2)}'s harbor.")
    if end.reshuffles > st.reshuffles:
        notes.append("The draw deck ran out: the discard pile is shuffled into a new draw deck.")
    if end.said_aloud != st.said_aloud and end.said_aloud:
        notes.append(f"Said aloud: {end.said_aloud}.")
    if end.end_reason and not st.end_reason and not end.over:
        notes.append(f"{end.end_reason}: the game ends after this turn.")
    if end.turn > st.turn and not end.over:
        notes.append(f"Turn {end.turn + 1}: {name(end.leader)} leads.")
    return notes


def _declare_notes(st: ImportExportStateBase, end: ImportExportStateBase) -> list[str]:
    """The action the leader declared, and once the last follower has decided, each seat's
    number of actions."""
    name = st.game.seat_name
    notes = []
    if st.declared < 0 <= end.declared:
        what = ACTIONS[end.declared]
        a = "an" if what[0] in "aeiou" else "a"
        notes.append(
            f"{name(end.leader)} declares {what}: each other player in turn follows with {a} {what} card (or"
            " two cards of one colour) or draws."
        )
    counted = any(end.actions_left) and not any(st.actions_left) and end.turn == st.turn
    if counted and st.declared >= 0 and st.phase in (P_FOLLOW, P_WILD2):
        # the last follower decided: everyone's actions are counted (``steps.t_execute``)
        shown = ", ".join(f"{name(q)} {k}" for q, k in enumerate(end.actions_left) if k > 0)
        notes.append(
            f"The {ACTIONS[st.declared]} actions (1 for following, 1 per matching card in one's imports): {shown}."
        )
    return notes


def _completion_notes(st: ImportExportStateBase, end: ImportExportStateBase) -> list[str]:
    """Each shipment completed: the ship, its containers and payout, the contracts that became
    shipments (whose powers their owner now holds)."""
    g = st.game
    name = g.seat_name
    notes = []
    for p in range(st.n):
        new = [c for c in end.shipments[p] if c not in st.shipments[p]]
        for s in st.harbor_ships(p):
            done = [c for c in st.contracts[s] if c in new]
            if not done:
                continue
            containers = len(set(st.cargo[s]) | set(end.cargo[s]))
            names = ", ".join(g.names[c] for c in done)
            joins = "joins" if len(done) == 1 else "join"
            powers = "its power is" if len(done) == 1 else "their powers are"
            notes.append(
                f"{name(p)}'s ship {s} completes with {containers} container{'s' if containers != 1 else ''}:"
                f" it pays {g.payout[min(containers, 8)]} credits; {names} {joins} {name(p)}'s shipments"
                f" ({powers} {name(p)}'s now), and the ship sails."
            )
    return notes


def _credit_notes(after: ImportExportStateBase, before: ImportExportStateBase) -> list[str]:
    """Every seat whose credits changed: its credits now and by how much (credits are public)."""
    name = after.game.seat_name
    moved = [
        f"{name(p)} {after.credits[p]} ({after.credits[p] - before.credits[p]:+d})"
        for p in range(after.n)
        if after.credits[p] != before.credits[p]
    ]
    return [f"Credits now: {', '.join(moved)}."] if moved else []


def _end_notes(after: ImportExportStateBase, before: ImportExportStateBase) -> list[str]:
    """The end: why, the final scores (``score_text``) and the winners, or no winner for a cap."""
    if not after.over or before.over:
        return []
    g = after.game
    scores = ", ".join(f"{g.seat_name(p)} {g.score_text(s)}" for p, s in enumerate(after.scores()))
    if after.truncated:
        return [f"Game over ({after.end_reason}): no winner. Scores: {scores}."]
    won = " and ".join(g.seat_name(p) for p in after.winning_seats())
    return [f"Game over ({after.end_reason}). Final scores: {scores}. {won} wins."]
