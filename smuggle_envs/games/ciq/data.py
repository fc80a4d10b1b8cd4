"""Loads and validates CIQ's component data (``data/ciq.json``)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.data import data_error, parsing, read_json
from .actions import RANK_NAMES, SUITS

DATA_FILE = "ciq.json"
EFFECTS = ("number", "jack", "queen", "king", "ace")


@dataclass(frozen=True)
class CIQData:
    suits: tuple[str, ...]
    rank_names: tuple[str, ...]  # low to high
    values: tuple[int, ...]  # per rank: the value compared with an Import Tolerance
    effects: tuple[str, ...]  # per rank: what the card does when shipped
    face: tuple[bool, ...]  # per rank: a face card (Sabotage wipe, Firing)
    jokers_per_deck: int
    decks_per_player: int
    hand_size: int
    tolerance_start_rank: str
    min_players: int
    max_players: int


def load(text: str | None = None) -> CIQData:
    """Parse and validate the data; ``text`` overrides the packaged file (for tests)."""
    raw = read_json(__package__, DATA_FILE, text)
    with parsing(DATA_FILE):
        ranks = raw["ranks"]
        data = CIQData(
            suits=tuple(raw["suits"]),
            rank_names=tuple(r["name"] for r in ranks),
            values=tuple(r["value"] for r in ranks),
            effects=tuple(r["effect"] for r in ranks),
            face=tuple(r.get("face", False) for r in ranks),
            jokers_per_deck=raw["jokers_per_deck"],
            decks_per_player=raw["decks_per_player"],
            hand_size=raw["hand_size"],
            tolerance_start_rank=raw["tolerance_start_rank"],
            min_players=raw["players"]["min"],
            max_players=raw["players"]["max"],
        )
    _validate(data)
    return data


def _validate(d: CIQData) -> None:
    def fail(msg: str) -> None:
        raise data_error(DATA_FILE, msg)

    ints = [*d.values, d.jokers_per_deck, d.decks_per_player, d.hand_size, d.min_players, d.max_players]
    if any(isinstance(x, bool) or not isinstance(x, int) for x in ints):
        fail("every value and count must be an integer")
    if any(not isinstance(f, bool) for f in d.face):
        fail("'face' must be true or false")
    if d.suits != SUITS:
        fail(f"expected the four suits {SUITS}, got {d.suits}")
    if d.rank_names != RANK_NAMES:
        fail(f"expected the 13 ranks {RANK_NAMES} from low to high (the Ace high), got {d.rank_names}")
    if any(b <= a for a, b in zip(d.values, d.values[1:])) or d.values[0] < 1:
        fail("rank values must be positive and strictly increasing from the 2 to the Ace")
    for name, value, effect in zip(d.rank_names, d.values, d.effects):
        if effect not in EFFECTS:
            fail(f"unknown effect {effect!r} for rank {name}; effects are {EFFECTS}")
        if effect == "number" and str(value) != name:
            fail(f"a number card transfers its own value: rank {name} has value {value}")
    if d.effects[9:] != ("jack", "queen", "king", "ace") or set(d.effects[:9]) != {"number"}:
        fail("2-10 are number cards; J, Q, K, A have the effects of the 'Result of Shipping' table")
    if max(d.values) > 255:
        fail("values must fit in a byte")
    if d.face[:9] != (False,) * 9 or d.face[9:12] != (True, True, True):
        fail("J, Q and K are face cards and number cards are not (the Ace is a config flag)")
    if d.jokers_per_deck != 2:
        fail("the rulebook has two Jokers in each deck")
    if d.decks_per_player != 1:
        fail("the rulebook has one deck for each player")
    if not 1 <= d.hand_size <= 20:
        fail("hand size must be 1 to 20")
    if d.tolerance_start_rank not in d.rank_names:
        fail(f"unknown tolerance start rank {d.tolerance_start_rank!r}")
    if not 2 <= d.min_players <= d.max_players <= 6:
        fail("players must be within 2 to 6 (the action space has 5 target offsets)")
