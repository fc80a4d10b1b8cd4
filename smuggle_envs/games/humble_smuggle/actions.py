"""Humble smuggle's flat action space and its names.

| actions    | meaning                                                                          |
|------------|----------------------------------------------------------------------------------|
| 0 - 78     | draft white card ``a + 1`` from the centre                                       |
| 79 - 157   | select white card ``a - 78`` from your hand and lay it face down                 |
| 158 - 192  | play a Play card: kind ``(a - 158) // 5`` onto the face-down card of the seat     |
|            | ``(a - 158) % 5`` places to your left (0 = your own card)                        |
| 193        | pass (play no more black cards for now)                                          |
| 194 - 216  | discard a black card of kind ``a - 194`` (hand limit): 0-6 Play cards, 7-22 Hold  |

Targets are seat-relative, like the observation. The action space is the same for 2 to 5 players;
targets beyond the table are never legal.
"""

from __future__ import annotations

from .data import NUM_WHITE, PLAY_NAMES

MAX_PLAYERS = 5
NUM_PLAY_KINDS = len(PLAY_NAMES)  # 7
NUM_HOLD_KINDS = 16
NUM_BLACK_KINDS = NUM_PLAY_KINDS + NUM_HOLD_KINDS  # 23: Play kinds first, then each Hold card
# The short names the rules and the encoder use.
W = NUM_WHITE  # 79
NK = NUM_BLACK_KINDS  # 23
NP = NUM_PLAY_KINDS  # 7

DRAFT = 0  # + value - 1
SELECT = DRAFT + NUM_WHITE  # 79 + value - 1
PLAY = SELECT + NUM_WHITE  # 158 + kind * MAX_PLAYERS + target offset
PASS = PLAY + NUM_PLAY_KINDS * MAX_PLAYERS  # 193
DISCARD = PASS + 1  # 194 + black kind
NUM_ACTIONS = DISCARD + NUM_BLACK_KINDS  # 217


def draft(value: int) -> int:
    _check_value(value)
    return DRAFT + value - 1


def select(value: int) -> int:
    _check_value(value)
    return SELECT + value - 1


def play(kind: int, offset: int) -> int:
    """Play a card of Play kind ``kind`` on the card of the seat ``offset`` places to the left."""
    if not 0 <= kind < NUM_PLAY_KINDS:
        raise ValueError(f"Play kind {kind} is out of range [0, {NUM_PLAY_KINDS})")
    if not 0 <= offset < MAX_PLAYERS:
        raise ValueError(f"target offset {offset} is out of range [0, {MAX_PLAYERS})")
    return PLAY + kind * MAX_PLAYERS + offset


def discard(kind: int) -> int:
    if not 0 <= kind < NUM_BLACK_KINDS:
        raise ValueError(f"black kind {kind} is out of range [0, {NUM_BLACK_KINDS})")
    return DISCARD + kind


def _check_value(value: int) -> None:
    if not 1 <= value <= NUM_WHITE:
        raise ValueError(f"white card {value} is out of range [1, {NUM_WHITE}]")


def black_names(data) -> tuple[str, ...]:
    """Names of the 23 black kinds: the Play cards, then each Hold card (symbols and bonus)."""
    holds = tuple(f"hold {'/'.join(h.symbols)} +{h.bonus}" for h in data.hold)
    return tuple(f"play {p.name}" for p in data.play) + holds


def action_text(action: int, data) -> str:
    if DRAFT <= action < SELECT:
        return f"draft {action - DRAFT + 1}"
    if SELECT <= action < PLAY:
        return f"select {action - SELECT + 1}"
    if PLAY <= action < PASS:
        kind, offset = divmod(action - PLAY, MAX_PLAYERS)
        where = "your own card" if offset == 0 else f"the card of the player {offset} to your left"
        return f"play {data.play[kind].name} on {where}"
    if action == PASS:
        return "pass"
    if DISCARD <= action < NUM_ACTIONS:
        return "discard " + black_names(data)[action - DISCARD]
    raise ValueError(f"action {action} is out of range [0, {NUM_ACTIONS})")
