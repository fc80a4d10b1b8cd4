"""Illegal's text for people and language models (``smuggle_envs.text``, the terminal game): the
card glossary (every card with its value or what it does), the cards a seat holds, and the notes
of a step (hassles placed and removed, businesses lost and taken over, lost turns, the passing
after a Paranoia card, trades, the accounting at the end of a hand). ``rules.py`` binds them as
``IllegalGame.card_glossary``, ``IllegalState._private_cards`` and ``IllegalState._step_notes``.

The notes are built from public facts (tables, hassles, lost turns, the stock's size, the trade
on offer, the accounting), except the cards a seat draws or receives itself, which only that
seat is told.
"""

from __future__ import annotations

from typing import Any

from ...core.game import State
from . import actions as A
from .actions import FIRST_BUSINESS, FIRST_HASSLE, KIND_NAMES, NUM_BUSINESSES, NUM_KINDS
from .game import IllegalGame
from .state import IllegalStateBase
from .vocab import (
    LOSES_ALL,
    LOSES_TOP,
    LOSS_ANY,
    LOSS_ILLEGAL,
    OVER,
    PASS,
    PLAY,
    REACT,
    T_ACCOUNTING,
    T_BRIBE,
    T_HASSLE,
    T_ILLEGAL,
    T_LEGAL,
    T_MARKET,
    T_PARANOIA,
    T_RELATIVES,
    T_SOLUTION,
    T_TAKEOVER,
    TARGET,
    TRADE_ANSWER,
    TRADE_WANT,
    W_TAKEOVER,
)


def euros(amount: int) -> str:
    """Money as the table text writes it ("25,000 EUR")."""
    return f"{amount:,} EUR"


def _plural(count: int, word: str) -> str:
    """ "1 turn", "2 turns"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _cards(counts: list[int]) -> str:
    """Cards per kind as the table text lists them ("gambling x2, raid")."""
    return ", ".join(f"{KIND_NAMES[k]} x{c}" if c > 1 else KIND_NAMES[k] for k, c in enumerate(counts) if c) or "-"


# ----- the glossary --------------------------------------------------------------------------------
def card_glossary(game: IllegalGame) -> list[tuple[str, str]]:
    """Every card of the deck, in the rulebook's order, with its value or what it does."""
    return [(name, f"{_card_text(game, k)} ({game.kind_counts[k]} in the deck)") for k, name in enumerate(KIND_NAMES)]


def _card_text(game: IllegalGame, k: int) -> str:
    """What a card kind is worth or does, from the data and the config."""
    t = game.types[k]
    if t == T_MARKET:
        return (
            "opens your business: needed before a business, Hostile Takeover, Relatives or Day of Accounting; "
            "only a player with one can be hassled or taken over; one a player"
        )
    if t == T_ACCOUNTING:
        return "ends the hand at once (needs your Market Open with no hassle on it): the accounting follows"
    if t in (T_ILLEGAL, T_LEGAL):
        return _business_text(game, k)
    if t == T_HASSLE:
        return _hassle_text(game, k - FIRST_HASSLE)
    if t == T_SOLUTION:
        return f"removes {_title(FIRST_HASSLE + game.solves[k])} from any player, you included"
    if t == T_BRIBE:
        return (
            "removes any hassle from any player; you also discard a business card from your hand to pay "
            "(no business card in hand: it cannot be played)"
        )
    if t == T_PARANOIA:
        return _paranoia_text(game, k)
    if t == T_TAKEOVER:
        which = "one of the lowest-valued businesses" if game.config.takeover == "smallest" else "a business"
        return f"take {which} from another player's table (needs your Market Open with no hassle on it)"
    if t == T_RELATIVES:
        return (
            "a takeover you may play while a hassle covers your Market Open, and it discards that hassle; "
            "with nobody to take from, it only discards the hassle"
        )
    return "stops a Hostile Takeover or Relatives, or removes any one hassle, even on another player's turn"


def _business_text(game: IllegalGame, k: int) -> str:
    """A business's value and what it needs."""
    value = euros(game.values[k])
    if game.types[k] == T_ILLEGAL:
        return f"illegal business worth {value} on your table at the end; needs your Market Open with no hassle on it"
    return (
        f"legal business worth {value} on your table at the end; may be played as a second card in a turn; "
        f"needs your Market Open, not covered by Vacation in Sweden"
    )


def _hassle_effect(game: IllegalGame, h: int) -> str:
    """What a hassle does to the player under it."""
    effects = ["no businesses at all" if game.blocks_legal[h] else "no illegal businesses"]
    loss = game.turn_loss[h]
    if loss == LOSS_ILLEGAL:
        effects.append("an illegal business lost at the end of each turn (it goes once none is left)")
    elif loss == LOSS_ANY:
        effects.append("a business lost at the end of each turn (it goes once none is left)")
    if game.open_hand[h]:
        effects.append("the hand is played face up")
    return "; ".join(effects)


def _hassle_text(game: IllegalGame, h: int) -> str:
    """A hassle's effect and the cards that remove it."""
    solvers = [_title(k) for k in range(NUM_KINDS) if game.types[k] == T_SOLUTION and game.solves[k] == h]
    return (
        f"hassle, played on another player's Market Open with no hassle: {_hassle_effect(game, h)}; removed by "
        f"{', '.join(solvers)}, a Bribe, Relatives or the Magnum"
    )


def _paranoia_text(game: IllegalGame, k: int) -> str:
    """What a Paranoia card costs when played and when held at the end."""
    loses = game.loses[k]
    if loses == LOSES_ALL:
        what = "every business (not the Market Open)"
    elif loses == LOSES_TOP:
        what = "your most expensive business"
    else:
        what = "one business of your choice"
    return (
        f"Paranoia: playing it costs you {_plural(game.lost_turns[k], 'turn')} and {what}; then every player "
        f"passes a card face down to the left. Held at the end: -{euros(game.penalties[k])}. Never discarded alone"
    )


# ----- the private cards ---------------------------------------------------------------------------
def private_cards(st: IllegalStateBase, viewer: int) -> list[str]:
    """The seat's hand, as its own table text shows it (face up to all under Tax Inspection)."""
    return [KIND_NAMES[k] for k in st.hand_cards(viewer)]


# ----- the notes of a step -------------------------------------------------------------------------
def step_notes(after: IllegalStateBase, before: State[Any], action: int, viewer: int) -> list[str]:
    """What ``viewer`` is told happened in the step beyond the action itself."""
    if not isinstance(before, IllegalStateBase):  # core types it as any game's state
        raise TypeError(f"before must be an Illegal state, got {type(before).__name__}")
    ended = after.rounds_played > before.rounds_played
    notes: list[str] = []
    if not ended or after.phase == OVER:  # a new hand resets the tables: nothing to compare
        notes += _trade_notes(after, before, action)
        notes += _business_notes(after, before)
        notes += _hassle_notes(after, before, action)
        notes += _reaction_notes(after, before, action)
        notes += _paranoia_notes(after, before, action, viewer)
        notes += _turn_notes(after, before, viewer)
    if ended:
        notes += _hand_end_notes(after, before, action)
    return notes


def _trade_notes(after: IllegalStateBase, before: IllegalStateBase, action: int) -> list[str]:
    """A trade answered (both sides, public once offered), or one nobody could take."""
    seat = after.game.seat_name
    if before.phase == TRADE_ANSWER:
        p, q = before.active, before.decider
        if action == A.ACCEPT:
            give, want = _cards(before.give.tolist()), _cards(before.want.tolist())
            return [f"trade made: {seat(p)} gives {give} to {seat(q)} and gets {want}"]
        return [f"{seat(q)} declines: no trade"]
    if before.phase == TRADE_WANT and after.phase == PLAY:
        return ["nobody holds enough cards to answer: no trade"]
    return []


def _business_notes(after: IllegalStateBase, before: IllegalStateBase) -> list[str]:
    """Businesses taken over or lost (a business played is the action's own text)."""
    seat, values = after.game.seat_name, after.game.biz_values
    notes = []
    for b in range(NUM_BUSINESSES):
        change = [after.tables[q][b] - before.tables[q][b] for q in range(after.n)]
        name = f"{KIND_NAMES[FIRST_BUSINESS + b]} ({euros(values[b])})"
        losers = [q for q in range(after.n) if change[q] < 0]
        gainers = [q for q in range(after.n) if change[q] > 0]
        if len(losers) == 1 and len(gainers) == 1:
            notes.append(f"{seat(gainers[0])} takes {name} from {seat(losers[0])}")
        else:
            notes += [f"{seat(q)} loses {name}" for q in losers for _ in range(-change[q])]
    return notes


def _hassle_notes(after: IllegalStateBase, before: IllegalStateBase, action: int) -> list[str]:
    """Hassles placed and removed, and one discarded at once for having nothing to cost."""
    game, seat = after.game, after.game.seat_name
    notes = []
    for q in range(after.n):
        old, new = before.hassle[q], after.hassle[q]
        if old == new:
            continue
        if old >= 0:
            closed = "; the hand is closed again (everyone has seen it)" if game.open_hand[old] else ""
            notes.append(f"the {_hassle_name(old)} on {seat(q)}'s Market Open is removed{closed}")
        if new >= 0:
            notes.append(f"{seat(q)}'s Market Open is covered by {_hassle_name(new)}: {_hassle_effect(game, new)}")
    played = _card_played(before, action)
    if played >= 0 and game.types[played] == T_HASSLE and after.phase != TARGET:
        h = played - FIRST_HASSLE
        if all(after.hassle[q] != h or before.hassle[q] == h for q in range(after.n)):
            # a Raid on a table without an illegal business (R4.6): placed and gone at once
            notes.append(f"the {_hassle_name(h)} has nothing to cost and is discarded at once")
    return notes


def _title(k: int) -> str:
    """A card's name as the rulebook writes it ("Vacation in Sweden", "Mister Zero")."""
    words = KIND_NAMES[k].split()
    return " ".join(w if i and w in ("in", "the", "and") else w.capitalize() for i, w in enumerate(words))


def _hassle_name(h: int) -> str:
    """A hassle index's card name ("Tax Inspection")."""
    return _title(FIRST_HASSLE + h)


def _card_played(before: IllegalStateBase, action: int) -> int:
    """The kind of the card that took effect in this step (played with no target to choose, or
    its target chosen now), or -1."""
    if before.phase == PLAY and action < A.DISCARD:
        return action
    if before.phase == TARGET and before.magnum_actor < 0:
        return before.card
    return -1


def _reaction_notes(after: IllegalStateBase, before: IllegalStateBase, action: int) -> list[str]:
    """A Magnum window opening, and the Magnum stopping a takeover."""
    seat = after.game.seat_name
    if before.phase == REACT and action == A.CANCEL:
        business = KIND_NAMES[FIRST_BUSINESS + before.biz]
        return [f"the Magnum stops the {_title(before.card)}: {seat(before.target)} keeps {business}"]
    if after.phase == REACT and before.phase != REACT:
        if after.window == W_TAKEOVER:
            return ["each player who might hold the Magnum is asked in turn whether to stop the takeover with it"]
        return ["each player who might hold the Magnum is asked in turn whether to remove a hassle with it"]
    return []


def _paranoia_notes(after: IllegalStateBase, before: IllegalStateBase, action: int, viewer: int) -> list[str]:
    """Lost turns, the start and end of the passing, and the card the viewer received."""
    seat = after.game.seat_name
    notes = [
        f"{seat(q)} loses {_plural(after.skip[q] - before.skip[q], 'turn')}"
        for q in range(after.n)
        if after.skip[q] > before.skip[q]
    ]
    if after.phase == PASS and before.phase != PASS:
        notes.append(f"every player with cards passes one face down to the left, from {seat(after.pass_order[0])}")
    if before.phase == PASS and after.phase != PASS:
        notes.append("the chosen cards have passed to the left")
        passer = (viewer - 1) % after.n
        if passer in before.pass_order:
            # the last chooser's card is this step's action; the others chose before
            k = action - A.PASS_CARD if passer == before.decider else before.pending[passer]
            notes.append(f"you receive {KIND_NAMES[k]} from {seat(passer)}")
    return notes


def _turn_notes(after: IllegalStateBase, before: IllegalStateBase, viewer: int) -> list[str]:
    """The refill that ends a turn, and the turns sat out before the next one."""
    seat = after.game.seat_name
    notes = []
    drawn = len(before.deck) - len(after.deck)
    if drawn > 0:
        notes.append(f"{seat(before.active)} draws {_plural(drawn, 'card')}")
        if viewer == before.active:
            gained = [max(0, a - b) for a, b in zip(after.hands[viewer], before.hands[viewer])]
            notes.append(f"you draw: {_cards(gained)}")
    for q in range(after.n):
        notes += [f"{seat(q)} sits out a lost turn"] * max(0, before.skip[q] - after.skip[q])
    return notes


def _hand_end_notes(after: IllegalStateBase, before: IllegalStateBase, action: int) -> list[str]:
    """Why the hand ended, the accounting, then the next hand or the winner."""
    seat, n = after.game.seat_name, after.n
    if before.phase == PLAY and action == A.PLAY + A.ACCOUNTING:
        why = "Day of Accounting"
    elif after.phase == OVER and 0 in after.hsize:
        why = f"{seat(list(after.hsize).index(0))}'s hand is empty"
    elif after.phase == OVER and not after.deck:
        why = "the stock is empty"
    else:  # a hand of several ended by an empty hand or stock: the new deal hides which
        why = ""
    scores = after.last_scores or [0] * n
    notes = [f"hand {after.rounds_played} ends" + (f": {why}" if why else "")]
    if after.phase == OVER:
        # the tables stay as they ended: show what the hand deducted (Paranoia and business cards in hand)
        parts = [f"{seat(q)} {euros(s)} ({euros(after.table_value(q))} on the table)" for q, s in enumerate(scores)]
    else:
        parts = [f"{seat(q)} {euros(s)}" for q, s in enumerate(scores)]
    notes.append(
        "accounting (businesses on the table, minus Paranoia cards and the best business left in hand): "
        + ", ".join(parts)
    )
    if after.game.config.target_score is not None:
        notes.append("totals: " + ", ".join(f"{seat(q)} {euros(t)}" for q, t in enumerate(after.totals)))
    if after.phase == OVER:
        best = max(after.totals)
        won = ", ".join(seat(q) for q in range(n) if after.totals[q] == best)
        notes.append(f"game over; winner: {won} with {euros(best)}")
    else:
        notes.append(f"hand {after.rounds_played + 1} is dealt: {seat(after.active)} plays first")
    return notes
