"""Loads and validates Smuggle's component data (``data/smuggle.json``)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.data import data_error, parsing, read_json
from .vocab import DUTY_UNIT

DATA_FILE = "smuggle.json"


@dataclass(frozen=True)
class SmuggleData:
    item_names: tuple[str, ...]  # dutiable items in board order, the Crown last
    item_counts: tuple[int, ...]
    duties: tuple[int, ...]
    fines: tuple[int, ...]
    bag_count: int
    luggage_count: int
    deck_size: int
    hand_size: int
    defamation: int  # paid to a truthful searched player
    informer_reward: int  # paid by the Officer to an Informer who exposes a liar
    false_bag_fine: int  # extra fine for a false Diplomatic Bag claim
    money_per_player: int
    denomination: int


def load(text: str | None = None) -> SmuggleData:
    """Parse and validate the data; ``text`` overrides the packaged file (for tests)."""
    raw = read_json(__package__, DATA_FILE, text)
    with parsing(DATA_FILE):
        items = raw["items"]
        data = SmuggleData(
            item_names=tuple(i["name"] for i in items),
            item_counts=tuple(i["count"] for i in items),
            duties=tuple(i["duty"] for i in items),
            fines=tuple(i["fine"] for i in items),
            bag_count=raw["diplomatic_bag"]["count"],
            luggage_count=raw["luggage"]["count"],
            deck_size=raw["deck_size"],
            hand_size=raw["hand_size"],
            defamation=raw["payments"]["defamation"],
            informer_reward=raw["payments"]["informer_reward"],
            false_bag_fine=raw["payments"]["false_bag_fine"],
            money_per_player=raw["money"]["per_player"],
            denomination=raw["money"]["denomination"],
        )
    _validate(data)
    return data


def _validate(d: SmuggleData) -> None:
    def fail(msg: str) -> None:
        raise data_error(DATA_FILE, msg)

    ints = [
        *d.item_counts,
        *d.duties,
        *d.fines,
        d.bag_count,
        d.luggage_count,
        d.deck_size,
        d.hand_size,
        d.defamation,
        d.informer_reward,
        d.false_bag_fine,
        d.money_per_player,
        d.denomination,
    ]
    if any(isinstance(x, bool) or not isinstance(x, int) for x in ints):
        fail("every count and amount must be an integer")
    if len(d.item_names) != 8 or d.item_names[-1] != "crown":
        fail(f"expected the 8 dutiable items of the board ending with the crown, got {d.item_names}")
    if len(set(d.item_names)) != len(d.item_names):
        fail("duplicate item names")
    if d.bag_count != 1 or d.item_counts[-1] != 1:
        fail("the rulebook has exactly one Diplomatic Bag and one Crown")
    total = sum(d.item_counts) + d.bag_count + d.luggage_count
    if total != d.deck_size or d.deck_size != 56:
        fail(f"cards add up to {total}, the pack has {d.deck_size} (rulebook: 56)")
    if min(d.item_counts) < 1 or max(d.item_counts) > 4:
        fail("each item must have 1 to 4 cards: a declaration covers at most a 4-card hand")
    if d.hand_size != 4:
        fail("the rulebook's hands are 4 cards")
    if min(d.duties) <= 0 or any(f <= du for f, du in zip(d.fines, d.duties)):
        fail("duties must be positive and every fine larger than its duty")
    if min(d.defamation, d.informer_reward, d.false_bag_fine, d.money_per_player, d.denomination) <= 0:
        fail("payments and money must be positive")
    if 4 * max(d.duties) > 255 * DUTY_UNIT:
        fail("the observation stores a mean declared duty in 25s in one byte: keep 4 x the top duty <= 6375")
    if d.money_per_player % d.denomination:
        fail("money per player must be a multiple of the smallest note")
