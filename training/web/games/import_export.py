"""Import / Export in the browser: cards and powers, the sealed-bid form, the engine's prompt.

* **Cards**: the seat's hand, its shipments (their powers) and the contracts on its ships.
* **Forms**: the sealed Import bid (a number among the legal bids, even credits), with the ship
  (or the island) being auctioned and its cargo, from the seat's own observation and table text;
  "Use the power?" as a yes/no question.
* **Prompt**: the engine's own line for the decision in progress ("P1 to decide: import:
  sealed bid"), from the seat's table text, so a page shows what the terminal shows.
* **Marks**: every declared action is played face up; the sealed Import bids are what is hidden.
  The bid that completes a round (or the action after which the engine placed a forced last
  bid) is marked with every bid and the winner, read as ``smuggle analyze`` reads an Import round
  (``training/claims/import_export.py``, which the bluffing kit's labels read too).
* **Badges**: the leader, and each bidder while the bids are open ("bidding", "bid placed").
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.data import ACTIONS, GOOD_TYPES
from training.claims.import_export import BidRound, bid_round

from ._common import Array, Card, Form, Getter, Mark, Namer, Table, WebGame, Zone, card, name_seats, zone

ENV_ID = "import_export_v0"

COLOURS = ("green", "yellow", "black", "blue", "red")


# ----- cards -----------------------------------------------------------------------------------------
def face(game: Any, card_id: int, count: int = 1) -> Card:
    """Card ``card_id``: its name, good type and action, its power as the text."""
    c = game.data.cards[card_id]
    kind, action = GOOD_TYPES[c.type], ACTIONS[c.action]
    return card(c.name.title(), count, "ie-" + COLOURS[c.type], action[:1].upper(), f"{kind}, {action}", c.power)


def zones(game: Any, get: Getter, seat: int | None) -> list[Zone]:
    """The seat's hand, shipments and contracts."""

    def ids(piece: Array) -> list[int]:
        return [int(i) for i in np.flatnonzero(piece > 0.5)]

    cards = len(game.data.cards)
    shown = [zone("Your hand", [face(game, i) for i in ids(get("my_hand"))])]
    shown.append(zone("Your shipments", [face(game, i) for i in ids(get("shipments")[:cards])], "their powers"))
    shown.append(zone("Contracts on your ships", [face(game, i) for i in ids(get("my_contracts"))]))
    return shown


# ----- the sealed bid ----------------------------------------------------------------------------------
def _auction(state: Any, seat: int) -> dict[str, Any]:
    """What is being auctioned, as ``seat`` sees it: the ship (its number and owner) or the
    island, its cargo, and the seat's credits. From the seat's observation (``import_ship``,
    seat-relative, and ``import_island``) and its table text (the cargo lines, the credits)."""
    game = state.game
    n = game.num_players
    layout = game.observation_layout
    obs = state.observation(seat)
    text = state.render(seat)
    shown: dict[str, Any] = {"ship": None, "owner": None, "island": False, "cargo": ""}
    ships = np.flatnonzero(np.asarray(layout.get(obs, "import_ship")) > 0.5)
    if len(ships):
        relative = int(ships[0])
        owner = (seat + relative // 2) % n
        ship = 2 * owner + relative % 2
        cargo = re.search(rf"^  ship {ship} at sea: (.*)$", text, re.MULTILINE)
        shown.update(ship=ship, owner=owner, cargo=cargo.group(1) if cargo else "")
    elif layout.get(obs, "import_island")[0] > 0.5:
        island = re.search(r"; island: (.*)$", text, re.MULTILINE)
        shown.update(island=True, cargo=island.group(1) if island else "")
    credits = re.search(rf"^P{seat} \([a-z ]+\): (-?\d+) credits", text, re.MULTILINE)
    shown["credits"] = int(credits.group(1)) if credits else None
    return shown


def bid_form(state: Any, seat: int, legal: tuple[int, ...]) -> Form | None:
    """The sealed bid: the legal amounts (even credits) and what is auctioned."""
    bids = [a for a in legal if A.BID <= a < A.TYPE]
    if not bids:
        return None
    return {
        "kind": "bid",
        "bids": [{"id": a, "amount": 2 * (a - A.BID)} for a in bids],
        "step": 2,
        **_auction(state, seat),
    }


# ----- the engine's prompt -----------------------------------------------------------------------------
# "P1 to decide: import: sealed bid; options: bid 0, bid 2": the last line of the table text
_PROMPT = re.compile(r"^P(\d+) to decide: (.*)$")
_OPTIONS = re.compile(r"; (options: .*|\d+ options)$")
_POWER = re.compile(r" \(the ``power`` piece names the card\) \[(.*)\]")


def prompt(state: Any, seat: int | None) -> dict[str, Any] | None:
    """The engine's line for the decision in progress, as ``seat`` reads it in its own table text
    (``None``: the full text): who decides and what (without the options, which the page lists),
    and for a power's decision the card and its power."""
    if state.is_terminal():
        return None
    line = state.render(seat).splitlines()[-1]
    found = _PROMPT.match(line)
    if found is None:
        return None
    text = _OPTIONS.sub("", found.group(2))
    shown: dict[str, Any] = {"seat": int(found.group(1)), "text": text, "card": None, "power": None}
    power = _POWER.search(text)
    if power is not None:
        name = power.group(1)
        shown["text"] = _POWER.sub(f" [{name}]", text)
        shown["card"] = name
        c = next((c for c in state.game.data.cards if c.name.lower() == name.lower()), None)
        shown["power"] = c.power if c is not None else None
    return shown


# ----- marks -----------------------------------------------------------------------------------------
def mark(state: Any, action: int) -> Mark:
    """The sealed bids of an Import round, marked on the action that completes them.

    The engine applies a forced bid (fewer than 2 credits: only 0) by itself, so the round may
    complete inside the action: its ``auto_listeners`` tell those decisions, until settled."""
    rounds = [bid_round(state, action)]

    def listen(st: Any, player: int, auto_action: int) -> None:
        rounds.append(bid_round(st, auto_action))

    state.auto_listeners.append(listen)

    def settle(after: Any) -> str | None:
        state.auto_listeners.remove(listen)
        return "; ".join(_bids_text(r) for r in rounds if r is not None) or None

    return settle


def _bids_text(r: BidRound) -> str:
    tie = " (tie)" if len(r.tied) > 1 else ""
    return f"bids {', '.join(f'P{q} {r.bids[q]}' for q in r.bidders)}: P{r.winner} wins{tie}"


# ----- the side panel and the badges -------------------------------------------------------------------
def tables(game: Any) -> list[Table]:
    """Every card and its power."""
    rows = [
        [
            c.id,
            c.name.title(),
            GOOD_TYPES[c.type],
            ACTIONS[c.action],
            c.tier,
            ", ".join(GOOD_TYPES[t] for t in c.load),
            c.timing,
            c.module,
            c.power,
        ]
        for c in game.data.cards
    ]
    columns = ["id", "card", "type", "action", "tier", "load", "timing", "module", "power"]
    return [{"title": f"Every card ({len(rows)}) and its power", "columns": columns, "rows": rows}]


def badges(state: Any, get: Getter, viewer: int, shown: list[list[str]]) -> None:
    """Each bidder while the bids are open: "bidding", then "bid placed"."""
    bidders, done = get("bidders"), get("has_bid")
    for i in range(len(shown)):
        if bidders[i] > 0.5:
            shown[(viewer + i) % len(shown)].append("bid placed" if done[i] > 0.5 else "bidding")


_SHIP_OWNER = re.compile(r"\(P(\d+)'s\)")


def names(text: str, actor: int, n: int, name: Namer) -> str:
    """ "player +1" and a ship's owner ("ship 3 (P1's)") named as the page names the seat."""
    return name_seats(_SHIP_OWNER.sub(lambda found: f"({name(int(found.group(1)))}'s)", text), actor, n, name)


def question(state: Any, seat: int, legal: tuple[int, ...], name: Namer) -> str | None:
    """The engine's own line for the step ("import: sealed bid"), as the terminal shows it."""
    line = prompt(state, seat)
    return None if line is None else line["text"][:1].upper() + line["text"][1:]


WEB = WebGame(
    name="Import / Export",
    zones=zones,
    form=bid_form,
    yes_no=((A.YES, A.DONE, "Use the power?"),),
    mark=mark,
    tables=tables,
    roles=(("leader", "leader"),),
    badges=badges,
    prompt=prompt,
    question=question,
    name_seats=names,
    score_note="a score is the final scoring as it stands now: credits, passive income, containers in harbour "
    "and goods; most wins",
)
"""Import / Export's parts of the browser app (``training.web.games.GAMES`` files it under ``ENV_ID``)."""
