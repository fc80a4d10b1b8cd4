"""Smuggle in the browser: the goods by duty and fine, the declaration form, the search's verdict.

* **Cards**: the seat's hand (if it holds the live hand), the cards it passed on, the live hand's
  declaration, the open suitcase and the last search's hand with its verdict (public).
* **Forms**: the declaration (a multiset of up to four goods, one counter per good, or the
  Diplomatic Bag claim); "Search the luggage?" and "Become Informer?" as yes/no questions.
* **Marks**: each declaration (and Diplomatic Bag claim) ``true`` or ``false``: the hand's
  dutiable items are exactly those declared (the Bag held); each search, by the Officer or an
  Informer, ``caught``, ``truthful: not caught`` or ``real bag``, the engine's verdict.
* **Badges**: the Officer, the bag holder, the next player while it may accept or inform, and
  the seats that are out. **Outcomes**: a search's bag, searcher and verdict, from the seat's own
  table text just after it; scores are money (``£``), so the log says who paid whom.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.vocab import DECLARE, DISCARD, LYING, REAL_BAG
from training.claims.smuggle import declaration_true, is_search, verdict

from ._common import (
    Array,
    Card,
    Form,
    Getter,
    Mark,
    Namer,
    Table,
    WebGame,
    Zone,
    card,
    counts,
    face_marks,
    phase_of,
    seat_getter,
    seat_of,
    zone,
)

ENV_ID = "smuggle_v0"


# ----- cards -----------------------------------------------------------------------------------------
def _face(game: Any, kind: int, count: int) -> Card:
    names = game.kind_names
    items = len(game.data.duties)
    big = face_marks(tuple(name for name in names if name != "diplomatic bag"))
    if kind < items:
        duty, fine = game.data.duties[kind], game.data.fines[kind]
        return card(names[kind], count, "good", big[names[kind]], f"£{duty}/£{fine}", f"duty £{duty}, fine £{fine}")
    if names[kind] == "diplomatic bag":
        return card("Diplomatic Bag", count, "bag", "DB", "", "claim immunity: no duty, no fine")
    return card(names[kind], count, "plain", big[names[kind]], "", "no duty")


# last_reveal_outcome: truthful, lying, real Bag (one of them), and a flag for an Informer's search
_VERDICTS = ("truthful", "caught lying", "real Bag")


def _search_note(get: Getter, seat: int | None, n: int) -> str:
    """Whose hand the last search laid open, who searched and the verdict (public)."""
    owner = None if seat is None else seat_of(get("last_reveal_seat"), seat, n)
    outcome = get("last_reveal_outcome")
    verdict = next((v for v, flag in zip(_VERDICTS, outcome[:3]) if flag > 0.5), "")
    who = "the Informer" if outcome[3] > 0.5 else "the Officer"
    whose = "the last hand laid open" if owner is None else f"P{owner}'s bag"
    return f"{whose}, searched by {who}" + (f": {verdict}" if verdict else "")


def _cards(game: Any, piece: Array, scale: Any) -> list[Card]:
    return [_face(game, k, c) for k, c in enumerate(counts(piece, scale)) if c > 0]


def zones(game: Any, get: Getter, seat: int | None) -> list[Zone]:
    """The seat's hand and passed cards, the declaration, the suitcase and the last search."""
    hand = game.data.hand_size
    shown = [zone("Your hand", _cards(game, get("my_hand"), hand), "the live hand, if you hold it")]
    known = _cards(game, get("known_in_hand"), hand)
    if known:
        shown.append(zone("Your passed-on cards", known, "still in the live hand, as far as you know"))
    declared = _cards(game, get("declaration"), hand)
    if get("bag_claim")[0] > 0.5:
        declared = [_face(game, game.kind_names.index("diplomatic bag"), 1)]
    if declared or get("phase")[1:3].any():  # while the Officer or the next player decides
        shown.append(zone("Declared", declared, "the live hand's declaration"))
    shown.append(zone("Open suitcase", _cards(game, get("suitcase"), game.kind_counts), "face-up discards"))
    reveal = _cards(game, get("last_reveal"), hand)
    if reveal:
        shown.append(zone("Last search", reveal, _search_note(get, seat, game.num_players)))
    return shown


# ----- forms -----------------------------------------------------------------------------------------
def declare_form(state: Any, seat: int, legal: tuple[int, ...]) -> Form | None:
    """The declaration: one counter per good (the page maps the counts to the action id)."""
    declarations = [a for a in legal if a < A.NUM_DECLARATIONS]
    if not declarations:
        return None
    data = state.game.data
    return {
        "kind": "declare",
        "items": [{"name": n, "duty": d} for n, d in zip(data.item_names, data.duties)],
        "max": A.HAND_SIZE,
        "options": _declarations(tuple(declarations)),
        "bag": A.CLAIM_BAG if A.CLAIM_BAG in legal else None,
        "_covers": declarations,  # the declarations need no text each: the counters say them
    }


@functools.lru_cache(maxsize=8)
def _declarations(declarations: tuple[int, ...]) -> list[list[int | str]]:
    """``[id, counts]`` per declaration, the counts as one digit a good (``"10200000"``: one wine,
    two brandy): compact, as ~500 of them go out with every declaration; built once."""
    return [[a, "".join(str(c) for c in A.DECLARATIONS[a])] for a in declarations]


# ----- marks -----------------------------------------------------------------------------------------
def mark(state: Any, action: int) -> Mark:
    """A declaration true or false; a search caught or not (settled from the reveal)."""
    if state.phase == DECLARE:
        return "true" if declaration_true(state.hand.tolist(), action) else "false"
    if is_search(state, action):
        return _verdict
    return None


_VERDICT_MARKS = {LYING: "caught", REAL_BAG: "real bag"}  # else the hand searched was the truth


def _verdict(state: Any) -> str | None:
    outcome = verdict(state)
    return None if outcome is None else _VERDICT_MARKS.get(outcome, "truthful: not caught")


# ----- the side panel --------------------------------------------------------------------------------
def tables(game: Any) -> list[Table]:
    """Duty and fine per item, and the payments."""
    d = game.data
    rows = [
        [name, count, f"£{duty}", f"£{fine}"]
        for name, count, duty, fine in zip(d.item_names, d.item_counts, d.duties, d.fines)
    ]
    rows.append(["diplomatic bag", d.bag_count, "-", f"false claim: £{d.false_bag_fine} + all fines"])
    rows.append(["luggage", d.luggage_count, "-", "-"])
    payments = [
        ["defamation (a truthful hand searched)", f"£{d.defamation}"],
        ["informer's reward (a liar exposed)", f"£{d.informer_reward}"],
        ["starting money per player", f"£{d.money_per_player}"],
    ]
    return [
        {"title": "Duty and fine per item", "columns": ["card", "cards", "duty", "fine"], "rows": rows},
        {"title": "Payments", "columns": ["what", "amount"], "rows": payments},
    ]


# ----- badges and outcomes ---------------------------------------------------------------------------
def badges(state: Any, get: Getter, viewer: int, shown: list[list[str]]) -> None:
    """The next player while it may accept the hand or inform; the seats that are out."""
    n = len(shown)
    if get("phase")[2] > 0.5:  # the next player decides: accept the hand or inform
        p = seat_of(get("receiver"), viewer, n)
        if p is not None:
            shown[p].append("accept or inform")
    for i, active in enumerate(get("active")):
        if active < 0.5:
            shown[(viewer + i) % n].append("out")


_SEARCH_LINE = re.compile(r"last search: P(\d+) by (the Officer|the Informer): (.*) -> (.*)$", re.MULTILINE)


def search_outcome(state: Any, action: int, seat: int | None) -> str:
    """A search's result as ``seat`` sees it in its own table text (laid open to every seat)."""
    if action not in (A.SEARCH, A.INFORM):
        return ""
    found = _SEARCH_LINE.search(state.render(seat))
    if found is None:
        return ""
    owner, who, cards, verdict = found.groups()
    return f"P{owner}'s bag searched by {who}: {cards} \u2192 {verdict}"


def question(state: Any, seat: int, legal: tuple[int, ...], name: Namer) -> str | None:
    """The step (the public ``phase`` piece): the declaration and the discard."""
    phase = phase_of(seat_getter(state, seat))
    if phase == DECLARE:
        return f"Declare your hand: up to {A.HAND_SIZE} goods, truthfully or not, or claim the Diplomatic Bag"
    if phase == DISCARD:
        return "You accepted the hand: discard one card face up onto the open suitcase (you then draw one and declare)"
    return None


WEB = WebGame(
    name="Smuggle",
    zones=zones,
    form=declare_form,
    yes_no=(
        (A.SEARCH, A.LET_PASS, "Search the luggage?"),
        (A.INFORM, A.ACCEPT, "Become Informer and search the passed cards?"),
    ),
    mark=mark,
    tables=tables,
    roles=(("officer", "Officer"), ("holder", "bag holder")),
    badges=badges,
    outcome=search_outcome,
    currency="£",
    question=question,
    score_note="a score is money (£): most money wins",
)
"""Smuggle's parts of the browser app (``training.web.games.GAMES`` files it under ``ENV_ID``)."""
