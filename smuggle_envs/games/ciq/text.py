"""CIQ's text for people and language models (``smuggle_envs.text``, ``smuggle play``): the card
glossary, the cards a seat holds in private, and the notes that tell a seat what an action did
beyond the action itself. ``rules.py`` binds them as ``CIQGame.card_glossary``,
``CIQState._private_cards`` and ``CIQState._step_notes``.

Every decision of CIQ is public and every card moved by a result lands face up, so the notes say
the same to every seat; they never name a card drawn (from the Stock or an Export pile), only how
many. What a shipment did is read from a copy of the position before the action, replayed up to
the end of the turn (``_probe``), because the end of the turn clears the shipment's records.
"""

from __future__ import annotations

from ...core.game import State
from . import steps
from .actions import FIRE, GIVE, HIRE, JOKER, KEEP, NUM_KINDS, NUM_RANKS, SABOTAGE, STOP, SUITS, TARGET, card_name
from .game import CIQGame
from .state import CIQStateBase
from .vocab import FIRE_DECISION, GIVE_FROM_HAND, OVER, SABOTAGE2

_RANK_WORDS = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
_FACE_USE = (
    " A face card: with a card smuggled to you, it can Fire your customs worker; played Illegal in a"
    " Sabotage, it wipes the target's Tolerance pile."
)
_EFFECT_TEXT = {
    "jack": "turns over the top card of the Stock (once the Stock is gone, a card of your Export pile) onto the"
    " target's Import pile: a number card turned over transfers double its value",
    "queen": "transfers as many cards again as the shipment's cards before it transferred",
    "king": "moves your whole Import pile onto the target's",
    "ace": "once the Stock is gone, moves your whole Export pile onto the target's Import pile (nothing while"
    " the Stock lasts)",
}
_JOKER_TEXT = (
    "Joker: a bribe. Never Legal and worth nothing; in a shipment the card after it may be any card;"
    " it may open a Sabotage, followed by any suited card. Transfers nothing."
)


def _cards(count: int) -> str:
    """A count of cards in words: 1 card, 3 cards."""
    return f"{count} card{'' if count == 1 else 's'}"


# ----- the glossary and the hand -----------------------------------------------------------------
def card_glossary(game: CIQGame) -> list[tuple[str, str]]:
    """Every card kind, in kind order (clubs 2 to Ace, diamonds, hearts, spades, the Joker),
    with its value and what it does shipped, from the card data and the config (``ace_is_face``)."""
    return [(card_name(k), _card_text(game, k)) for k in range(NUM_KINDS)]


def _card_text(game: CIQGame, kind: int) -> str:
    """A card kind's name in words, its value against a Tolerance, its result and face use."""
    if kind == JOKER:
        return _JOKER_TEXT
    d = game.data
    rank = kind % NUM_RANKS
    value, effect = game.values[kind], d.effects[rank]
    title = f"{_RANK_WORDS.get(d.rank_names[rank], d.rank_names[rank])} of {SUITS[kind // NUM_RANKS]}"
    legal = f"value {value}: Legal for a target whose Tolerance is {value} or more"
    does = f"transfers {value} cards" if effect == "number" else _EFFECT_TEXT[effect]
    return f"{title}, {legal}. Shipped, it {does}." + (_FACE_USE if game.face[kind] else "")


def score_text(game: CIQGame, score: float) -> str:
    """A score is minus the cards a seat still has to get rid of: said as that count."""
    left = -int(score)
    return f"{left} card{'' if left == 1 else 's'} left"


def private_cards(state: CIQStateBase, viewer: int) -> list[str]:
    """The viewer's hand, one name a card (its Export pile is face down on the table, not held)."""
    return [card_name(k) for k in state.cards_of(state.hand[viewer])]


# ----- what an action did --------------------------------------------------------------------------
def step_notes(after: CIQStateBase, before: State[CIQGame], action: int, viewer: int) -> list[str]:
    """What ``action`` (taken in ``before``) did beyond itself, in the order it happened: the
    target named, a smuggle and the Fire decision, a Sabotage's or a Hire's result, the shipment's
    transfers, the Stock running out, the next turn and its draws, the end. The same for every
    seat (``viewer`` is not needed: nothing hidden is named)."""
    assert isinstance(before, CIQStateBase), "a copy of a CIQ position"
    probe = _probe(before, action)
    notes = _move_notes(after, before, action)
    notes += _transfer_notes(after, before, probe, action)
    if before.stock and not after.stock:
        notes.append("The Stock has run out: every Import pile is turned over to become its owner's Export pile.")
    notes += _turn_notes(after, before, probe)
    notes += _end_notes(after, before)
    return notes


def _probe(before: CIQStateBase, action: int) -> CIQStateBase:
    """``action`` applied to a copy of ``before`` that stops at the end of the turn, before the
    shipment's records (``res_total``, ``flipped``) are cleared and the next hand is drawn."""
    copy = before.clone()
    copy._probe = True
    steps.apply(copy, action)
    return copy


def _move_notes(after: CIQStateBase, before: CIQStateBase, action: int) -> list[str]:
    """The action's own result, where the action text alone leaves it unsaid."""
    g = before.game
    name = g.seat_name
    actor = before.current_player()
    if TARGET <= action < STOP:
        return [f"{name(actor)} targets {name(after.target)}."]
    if after.phase == FIRE_DECISION and before.phase != FIRE_DECISION:
        t, k = after.target, after.ship[after.smuggled]
        return [
            f"{card_name(k)} is Illegal for {name(t)} (Tolerance {before.tol_value[t]}): it is smuggled and the"
            f" shipment ends; {name(t)} may Fire its customs worker with a face card to stop its result."
        ]
    if FIRE <= action < GIVE:
        t, k = before.target, before.ship[before.smuggled]
        return [
            f"{name(t)} fires its customs worker: its Tolerance pile ({_cards(len(before.tol[t]))}) and"
            f" {card_name(action - FIRE)} go into its Export pile; {name(t)} has no Tolerance now (every card is"
            f" Legal for it); the smuggled {card_name(k)} transfers nothing."
        ]
    if action == KEEP:
        k = before.ship[before.smuggled]
        return [f"{name(actor)} keeps its customs worker: the smuggled {card_name(k)} has its result."]
    if SABOTAGE <= action < HIRE and before.phase == SABOTAGE2:
        return [_sabotage_note(after, before, action - SABOTAGE)]
    if HIRE <= action < FIRE:
        k, old = action - HIRE, len(before.tol[actor])
        gone = f" its old Tolerance pile ({_cards(old)}) goes into its Export pile;" if old else ""
        return [f"{name(actor)} hires {card_name(k)} as its customs worker:{gone} its Tolerance is now {g.values[k]}."]
    return []


def _sabotage_note(after: CIQStateBase, before: CIQStateBase, second: int) -> str:
    """The second Sabotage card played: the target's new Tolerance, or the pile wiped."""
    t = before.target
    who = before.game.seat_name(t)
    played = f"{card_name(before.sab_card)} and {card_name(second)}"
    if after.tol[t]:
        return f"The Sabotage puts {played} on {who}'s Tolerance pile: its Tolerance is now {after.tol_value[t]}."
    return (
        f"The Sabotage's Illegal face card {card_name(second)} wipes {who}'s Tolerance pile: all"
        f" {len(before.tol[t]) + 2} cards go into its Export pile; {who} has no Tolerance now."
    )


def _transfer_notes(after: CIQStateBase, before: CIQStateBase, probe: CIQStateBase, action: int) -> list[str]:
    """A shipment's results: the cards Jacks turned over, then the total once it is resolved, or
    what the shipper still owes from its hand."""
    if probe.res_i == before.res_i and not GIVE <= action < TARGET:
        return []  # no result was resolved by this action
    name = before.game.seat_name
    s, t = before.turn, before.target
    notes = []
    flipped = probe.flipped[len(before.flipped) :]
    if flipped:
        shown = " ".join(card_name(k) for k in flipped)
        notes.append(f"Jacks turn over {shown} onto {name(t)}'s Import pile.")
    if after.phase == GIVE_FROM_HAND:
        notes.append(
            f"{_cards(after.res_total)} transferred so far; {name(s)} must now transfer {after.res_pending} more"
            f" from its hand onto {name(t)}'s Import pile."
        )
    else:
        sources = _sources(before, probe, action)
        whence = f" (from {' and '.join(sources)})" if sources and probe.res_total else ""
        notes.append(f"The shipment transferred {_cards(probe.res_total)} in all onto {name(t)}'s Import pile{whence}.")
    return notes


def _sources(before: CIQStateBase, probe: CIQStateBase, action: int) -> list[str]:
    """Where the shipper's transfers came from, so that a short shipment explains itself (the
    Stock runs out and ends the turn; the Export pile runs out with Import cards left)."""
    s = before.turn
    who = before.game.seat_name(s)
    shipped = 1 if action < SABOTAGE else 0  # a card shipped by this action left the hand too
    # The Stock running out turns the Import piles into Export piles: the sizes no longer say.
    piles = not before.stock or bool(probe.stock)
    used = [
        ("the Stock", len(before.stock) > len(probe.stock)),
        (f"{who}'s Export pile", piles and probe.exp_size[s] < before.exp_size[s]),
        (f"{who}'s Import pile", piles and probe.imp_size[s] < before.imp_size[s]),
        (f"{who}'s hand", probe.hand_size[s] < before.hand_size[s] - shipped),
    ]
    return [source for source, was in used if was]


def _turn_notes(after: CIQStateBase, before: CIQStateBase, probe: CIQStateBase) -> list[str]:
    """The next turn: whose it is, an Import pile turned over, the cards drawn up to the hand size."""
    if after.phase == OVER or after.turns == before.turns:
        return []
    name = before.game.seat_name
    p = after.turn
    notes = [f"Turn {after.turns + 1}: {name(p)} to play."]
    if probe.imp_size[p] and not after.imp_size[p] and probe.stock == after.stock:
        notes.append(f"{name(p)}'s Import pile ({_cards(probe.imp_size[p])}) is turned over as its Export pile.")
    drawn = after.hand_size[p] - probe.hand_size[p]
    if drawn > 0:
        notes.append(f"{name(p)} draws {_cards(drawn)} (hand: {after.hand_size[p]}).")
    return notes


def _end_notes(after: CIQStateBase, before: CIQStateBase) -> list[str]:
    """The end: the winner (or a draw at the turn limit) and every seat's cards left (its score)."""
    if after.phase != OVER or before.phase == OVER:
        return []
    g = before.game
    left = ", ".join(f"{g.seat_name(q)} {-int(s)}" for q, s in enumerate(after.scores()))
    if after.drawn_game:
        head = f"Game over: a draw at the turn limit ({after.turns} turns); nobody wins."
    else:
        won = ", ".join(g.seat_name(q) for q in after.winners)
        head = f"Game over: {won} has no cards left in hand, Import and Export piles and wins."
    return [head, f"Cards still to get rid of: {left}."]
