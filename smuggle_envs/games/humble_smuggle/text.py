"""Humble smuggle's text for people and language models (``smuggle_envs.text``, the terminal
game): the card glossary (every white card, the End-of-Game card, every black card and round
rule, with what it is worth or does), the cards a seat holds in private, the notes of a step (the
round rule, the reveal and what scored, black draws, a new round, the end), and the score as words
(points, and the tie-break that ``scores()`` carries as hundredths). ``rules.py`` binds them as
``HumbleSmuggleGame.card_glossary`` and ``.score_text``, ``HumbleSmuggleState._private_cards``
and ``._step_notes``.

The notes are built from public facts (the centre, the reveal, scored cards, black-card counts),
except the black cards a seat draws itself, which only that seat is told.
"""

from __future__ import annotations

from typing import Any

from ...core.game import State
from . import actions as A
from .actions import NK, NP
from .game import HumbleSmuggleGame
from .state import HumbleSmuggleStateBase
from .vocab import (
    ADD,
    DISCARD,
    DOUBLE,
    DOUBLE_UP,
    DRAFT,
    HIGH_LOW,
    OVER,
    PLAY,
    SAFE_ZONE,
    SELECT,
    STANDARD,
    SYMBOL_UP,
    ZERO,
)


def _plural(count: int, word: str) -> str:
    """ "1 point", "2 points"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def score_text(game: HumbleSmuggleGame, score: float) -> str:
    """A score of ``scores()`` in words: its points, and the scored white cards that break a tie
    on points (kept as hundredths), "12 points (tie-break: 3 scored cards)"; never money. A change
    of +0.01 reads "0 points (tie-break: 1 scored card)"."""
    hundredths = round(score * 100)
    points, cards = divmod(abs(hundredths), 100)
    sign = "-" if hundredths < 0 else ""
    return f"{sign}{_plural(points, 'point')} (tie-break: {_plural(cards, 'scored card')})"


# ----- the glossary --------------------------------------------------------------------------------
def card_glossary(game: HumbleSmuggleGame) -> list[tuple[str, str]]:
    """The white cards 1-79 (named by their number, as the table shows them), the End-of-Game 80,
    the Play and Hold cards (named as the table and the actions name them), the round rules and
    the symbol sets that score at the end."""
    d = game.data
    entries = [(str(w.value), _white_text(game, w.value)) for w in d.white]
    entries.append(
        (
            str(d.end_value),
            "End-of-Game card: never drafted or played; when a refill turns it up, the next round is the last",
        )
    )
    entries += [(game.black_names[k], _play_text(game, k)) for k in range(NP)]
    for h in range(NK - NP):
        symbols = ", ".join(d.hold[h].symbols)
        entries.append(
            (
                game.black_names[NP + h],
                f"Hold card: keep it to the end for +{d.hold[h].bonus} "
                f"{'point' if d.hold[h].bonus == 1 else 'points'}; it then counts as one of {symbols} in "
                f"your symbol sets, whichever scores best",
            )
        )
    entries += [(name, _rule_text(game, rule)) for rule, name in enumerate(game.rule_names)]
    sets = ", ".join(f"{size} of a symbol {points}" for size, points in sorted(d.set_points.items()))
    entries.append(
        (
            "symbol sets",
            f"at the end, the symbols of your scored white cards and Hold cards score in sets: {sets} "
            f"points; a {d.wild_symbol} is wild (counts as any symbol)",
        )
    )
    return entries


def _white_text(game: HumbleSmuggleGame, v: int) -> str:
    """A white card's points, symbol, draws and round-rule icon."""
    parts = [f"white card worth {_plural(game.points[v], 'point')} if it scores"]
    symbol = game.symbol[v]
    if symbol >= 0:
        parts.append(f"symbol {game.symbol_names[symbol]}")
    if game.draws[v]:
        parts.append(f"draws {_plural(game.draws[v], 'black card')} when it scores")
    parts.append(f"round rule if left in the centre: {game.rule_names[game.rule_of[v]]}")
    return "; ".join(parts)


def _play_text(game: HumbleSmuggleGame, k: int) -> str:
    """A Play card's effect on the face-down card it is attached to."""
    play = game.data.play[k]
    effect = game.effect[k]
    if effect == ADD:
        does = f"its value {play.amount:+d} (never below 0)"
    elif effect == ZERO:
        does = "its printed value counts as 0 (before any Double)"
    elif effect == DOUBLE:
        does = "its value x2 (Doubles compound)"
    else:
        does = "it cannot be discarded by the round rule this round"
    return (
        f"Play card ({play.count} in the deck): attach it face down to any face-down white card: {does}; "
        f"only for this round's discard, a scored card scores its printed points. A discarded card draws "
        f"its owner one black card per Play card on it"
    )


def _rule_text(game: HumbleSmuggleGame, rule: int) -> str:
    """A round rule's glossary text."""
    return (
        f"round rule: discard {_rule_discards(game, rule)}, the centre card included; tied cards go "
        f"together; Shielded cards are skipped. The other face-down cards score"
    )


def _rule_discards(game: HumbleSmuggleGame, rule: int) -> str:
    """What a round rule discards, among the revealed cards and the centre card."""
    if rule == STANDARD:
        return "the highest card"
    if rule == DOUBLE_UP:
        return "the two highest cards"
    if rule == HIGH_LOW:
        return "the highest and the lowest card"
    if rule == SAFE_ZONE:
        return f"the highest card of value {game.safe_zone_min} or more (only Play cards reach it); else none"
    symbol = game.symbol_names[rule - SYMBOL_UP]
    return f"as many highest cards as {symbol} symbols show on the revealed white cards (stars do not count)"


# ----- the private cards ---------------------------------------------------------------------------
def private_cards(st: HumbleSmuggleStateBase, viewer: int) -> list[str]:
    """The seat's hand as its own table text shows it: the white cards (by number, not the one
    laid face down), then its black cards."""
    game = st.game
    whites = [str(v) for v in sorted(st.hands[viewer])]
    counts = st.black[viewer]
    return whites + [game.black_names[k] for k in range(NK) for _ in range(counts[k])]


# ----- the notes of a step -------------------------------------------------------------------------
def step_notes(after: HumbleSmuggleStateBase, before: State[Any], action: int, viewer: int) -> list[str]:
    """What ``viewer`` is told happened in the step beyond the action itself."""
    if not isinstance(before, HumbleSmuggleStateBase):  # core types it as any game's state
        raise TypeError(f"before must be a Humble smuggle state, got {type(before).__name__}")
    game, seat = after.game, after.game.seat_name
    notes: list[str] = []
    if before.phase == DRAFT and after.phase == SELECT:
        left = after.centre[0]
        notes.append(
            f"every player has drafted: {left}, left in the centre, sets the round rule: "
            f"{game.rule_names[after.rule]} (discard {_rule_discards(game, after.rule)}, the centre card included)"
        )
    elif before.phase == SELECT and after.phase == PLAY:
        notes.append(
            f"every player has laid a card face down; now Play cards, round the table from {seat(after.first)}, "
            f"until everyone passes in a row"
        )
    elif before.phase == PLAY and after.last is not before.last:
        notes += _reveal_notes(after, before)
    if before.phase in (PLAY, DISCARD):
        notes += _draw_notes(after, before, action, viewer)
    if after.rounds_played > before.rounds_played:
        notes += _round_notes(after, before)
    return notes


def _reveal_notes(after: HumbleSmuggleStateBase, before: HumbleSmuggleStateBase) -> list[str]:
    """The reveal: each card with its Play cards and fate, the centre card, and the points."""
    game, seat = after.game, after.game.seat_name
    reveal = after.last
    assert reveal is not None  # the step resolved the round
    shown = []
    for s in range(after.n):
        mods = "".join(" " + game.data.play[k].name for _, k in reveal.attached[s])
        value = f" = {reveal.values[s]}" if mods else ""
        if s in reveal.discarded:
            fate = "discarded"
        else:
            fate = f"scores {_plural(game.points[reveal.cards[s]], 'point')}"
        shown.append(f"{seat(s)} {reveal.cards[s]}{mods}{value} {fate}")
    shown.append(f"centre {reveal.centre} {'discarded' if reveal.centre_discarded else 'not discarded'}")
    notes = [f"reveal ({game.rule_names[reveal.rule]}): " + "; ".join(shown)]
    old, new = before.points(holds=False), after.points(holds=False)
    gains = ", ".join(f"{seat(s)} {new[s]} ({new[s] - old[s]:+d})" for s in range(after.n))
    notes.append(f"points from scored cards and sets (Hold cards count at the end): {gains}")
    return notes


def _draw_notes(after: HumbleSmuggleStateBase, before: HumbleSmuggleStateBase, action: int, viewer: int) -> list[str]:
    """Black cards drawn in the step (how many is public; which, only the drawer's own), and a
    seat over the hand limit that must now discard."""
    game, seat, actor = after.game, after.game.seat_name, before.actor
    spent = [0] * NK  # the card that left the actor's hand in this step (a Play card, a discard)
    if A.PLAY <= action < A.PASS:
        spent[(action - A.PLAY) // A.MAX_PLAYERS] = 1
    elif action >= A.DISCARD:
        spent[action - A.DISCARD] = 1
    drawn = [sum(after.black[s]) - sum(before.black[s]) + (sum(spent) if s == actor else 0) for s in range(after.n)]
    notes = []
    if any(drawn):
        notes.append("black cards drawn: " + ", ".join(f"{seat(s)} {c}" for s, c in enumerate(drawn) if c))
    if drawn[viewer]:
        had = [before.black[viewer][k] - (spent[k] if viewer == actor else 0) for k in range(NK)]
        mine = [game.black_names[k] for k in range(NK) for _ in range(after.black[viewer][k] - had[k])]
        notes.append(f"you draw: {', '.join(mine)}")
    if after.phase == DISCARD:
        count = sum(after.black[after.actor])
        notes.append(
            f"{seat(after.actor)} holds {count} black cards: over the limit of {game.limit}, "
            f"discards down to {game.limit} face down"
        )
    return notes


def _round_notes(after: HumbleSmuggleStateBase, before: HumbleSmuggleStateBase) -> list[str]:
    """The round's end, then the next round (its first player, the centre, the rounds left, the
    End-of-Game card turning up) or the final scores."""
    game, seat = after.game, after.game.seat_name
    notes = [f"round {after.rounds_played} is over"]
    if after.phase == OVER:
        scores = after.scores()
        final = ", ".join(f"{seat(s)} {score_text(game, sc)}" for s, sc in enumerate(scores))
        best = max(scores)
        won = ", ".join(seat(s) for s in range(after.n) if scores[s] == best)
        notes.append(f"game over: final scores (Hold cards and sets included) {final}; winner: {won}")
        return notes
    if after.final and not before.final:
        notes.append(f"the End-of-Game card ({game.data.end_value}) has turned up: the next round is the last")
    left = "the final round" if after.final else f"{after.rounds_left()} rounds left"
    centre = ", ".join(str(v) for v in sorted(after.centre))
    notes.append(
        f"round {after.rounds_played + 1} begins ({left}): {seat(after.first)} is first player; centre: {centre}"
    )
    return notes
