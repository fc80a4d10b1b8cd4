"""Humble smuggle's observation: named pieces, seat-relative (the observer is seat 0, then clockwise).

Everything here is public or the observer's own: its white hand, its face-down card, its black
hand and the kinds of the Play cards *it* attached. Of the others it sees what the table sees:
the cards they drafted and have not revealed yet (``known_hands``), *that* they have chosen a
card, how many Play cards each seat attached to each face-down card, black hand sizes, scored
cards and the last reveal. The white deck's order, the initial three cards of other hands, other
face-down choices, the kinds of other seats' Play cards before the reveal, other black hands,
face-down discards and the state's RNG never enter.

Speed: the state mirrors these facts in one byte buffer (``HumbleSmuggleGame.fields``), in
absolute seat order; an observation is one numpy gather from it (a precomputed index per observer
does the seat rotation and picks the observer's private fields) and one multiply by a scale.
"""

from __future__ import annotations

import numpy as np

from ...core.fields import ByteFields
from ...core.layout import ObservationLayout, Piece
from .actions import NUM_BLACK_KINDS, NUM_PLAY_KINDS
from .data import NUM_WHITE
from .game import HumbleSmuggleGame
from .state import HumbleSmuggleStateBase
from .vocab import NUM_PHASE_FLAGS, NUM_RULE_KINDS, NUM_SYMBOLS

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"
CARDS = "one bit per white card 1-79"
W, NK, NP = NUM_WHITE, NUM_BLACK_KINDS, NUM_PLAY_KINDS


def build_layout(game: HumbleSmuggleGame) -> ObservationLayout:
    n = game.num_players
    rules = ", ".join(game.rule_names)
    plays = ", ".join(p.name for p in game.data.play)
    symbols = ", ".join(game.symbol_names)
    return ObservationLayout(
        [
            Piece(
                "phase", NUM_PHASE_FLAGS, "decision in progress: draft, select, play black cards, discard black cards"
            ),
            Piece("first_player", n, f"the first player this round, {SEATS}"),
            Piece("to_act", n, f"the seat deciding now, {SEATS}"),
            Piece("drafted", n, "1 if the seat has drafted this round (seat-relative)"),
            Piece("selected", n, "1 if the seat has a face-down card waiting for the reveal (seat-relative)"),
            Piece("passes", 1, "passes in a row in the black-card play phase / players"),
            Piece("round", 1, "rounds played / 20", 0.0, INF),
            Piece(
                "rounds_left", 1, "rounds still to play, this one included / 20 (the 80's depth is public)", 0.0, INF
            ),
            Piece("final_round", 1, "1 once the 80 card has appeared: this round is the last"),
            Piece("white_deck", 1, "white cards left in the deck / 79"),
            Piece("black_deck", 1, "black cards left in the deck / 40"),
            Piece("black_discard", 1, "black cards in the discard pile / 40"),
            Piece(
                "black_discard_seen",
                NP,
                f"revealed Play cards in the discard pile since its last reshuffle / cards of the kind: {plays}",
            ),
            Piece("centre", W, f"the face-up centre cards, {CARDS}"),
            Piece("centre_rules", NUM_RULE_KINDS, f"centre cards per round-rule icon / (players + 1): {rules}"),
            Piece(
                "round_rule",
                NUM_RULE_KINDS,
                "this round's rule (the icon of the card left after drafting), one-hot; zero while drafting",
            ),
            Piece("my_hand", W, f"your white hand (not your face-down card), {CARDS}"),
            Piece("my_selection", W, f"your face-down card, {CARDS}"),
            Piece(
                "known_hands",
                n * W,
                f"per seat (seat-relative, seat-major): cards it drafted and has not revealed, {CARDS}",
            ),
            Piece("out_of_play", W, f"white cards scored or discarded so far, {CARDS}"),
            Piece("my_black", NK, "your black hand, count / 3 per kind: " + ", ".join(game.black_names), 0.0, INF),
            Piece("black_counts", n, "black cards in hand per seat / 3 (seat-relative)", 0.0, INF),
            Piece(
                "attached",
                n * n,
                "Play cards attached this round: per face-down card (seat-relative), per attacher (seat-relative), count / 3",
                0.0,
                INF,
            ),
            Piece(
                "my_attached",
                n * NP,
                f"the Play cards you attached this round: per face-down card (seat-relative), per kind ({plays}), count / 3",
                0.0,
                INF,
            ),
            Piece(
                "scored_symbols",
                n * (NUM_SYMBOLS + 1),
                f"per seat (seat-relative): symbols on its scored white cards / 8: {symbols}",
            ),
            Piece("scored_points", n, "per seat: tens-digit points of its scored white cards / 50", 0.0, INF),
            Piece("scored_cards", n, "per seat: scored white cards / 20 (the tie-breaker)", 0.0, INF),
            Piece("last_card", n, "last reveal: each seat's white card / 80 (seat-relative)"),
            Piece(
                "last_modifiers",
                n * NP,
                f"last reveal: Play cards on each seat's card, count / 3 per kind ({plays})",
                0.0,
                INF,
            ),
            Piece("last_discarded", n, "last reveal: 1 if the seat's card was discarded"),
            Piece("last_centre", 1, "last reveal: the centre card / 80"),
            Piece("last_centre_discarded", 1, "last reveal: 1 if the centre card was among the discarded"),
            Piece("last_rule", NUM_RULE_KINDS, "last reveal: the round rule, one-hot"),
        ]
    )


_SCALES = {
    "round": 1 / 20,
    "rounds_left": 1 / 20,
    "white_deck": 1 / W,
    "black_deck": 1 / 40,
    "black_discard": 1 / 40,
    "my_black": 1 / 3,
    "black_counts": 1 / 3,
    "attached": 1 / 3,
    "my_attached": 1 / 3,
    "scored_symbols": 1 / 8,
    "scored_points": 1 / 50,
    "scored_cards": 1 / 20,
    "last_card": 1 / 80,
    "last_modifiers": 1 / 3,
    "last_centre": 1 / 80,
}

# piece -> buffer field, for pieces read straight from one field (no rotation).
_DIRECT = {
    "phase": "phase",
    "passes": "passes",
    "round": "round",
    "rounds_left": "rounds_left",
    "final_round": "final",
    "white_deck": "deck",
    "black_deck": "bdeck",
    "black_discard": "bdisc",
    "black_discard_seen": "bdisc_seen",
    "centre": "centre",
    "centre_rules": "centre_rules",
    "round_rule": "rule",
    "out_of_play": "out",
    "last_centre": "last_centre",
    "last_centre_discarded": "last_centre_discarded",
    "last_rule": "last_rule",
}
# piece -> field holding one value per absolute seat.
_PER_SEAT = {
    "first_player": "first",
    "to_act": "to_act",
    "drafted": "drafted",
    "selected": "selected",
    "black_counts": "black_count",
    "scored_points": "points",
    "scored_cards": "nscored",
    "last_card": "last_card",
    "last_discarded": "last_discarded",
}
# piece -> (field, values per seat): blocks of values per absolute seat, rotated.
_PER_SEAT_BLOCK = {
    "known_hands": ("known", W),
    "scored_symbols": ("sym", NUM_SYMBOLS + 1),
    "last_modifiers": ("last_mods", NP),
}
# piece -> (field, values per seat): the observer's own block.
_PRIVATE = {"my_hand": ("hand", W), "my_selection": ("sel", W), "my_black": ("black", NK)}


class HumbleSmuggleEncoder:
    """Precomputed gather indices (one per observer) and scales for one game."""

    def __init__(self, game: HumbleSmuggleGame):
        n = self.n = game.num_players
        layout, fields = game.observation_layout, game.fields
        self.gather = np.full((n, layout.size), fields.zero, np.intp)
        self.scale = np.ones(layout.size, np.float32)
        for piece in layout.pieces:
            sl = layout.slice(piece.name)
            self.scale[sl] = _scale(piece.name, game)
            for p in range(n):
                self.gather[p, sl] = self._source(piece.name, fields, p)
        self._rows = [self.gather[p] for p in range(n)]

    def _source(self, name: str, fields: ByteFields, p: int) -> list[int]:
        n = self.n
        if name in _DIRECT:
            start, size = fields.offsets[_DIRECT[name]]
            return list(range(start, start + size))
        if name in _PER_SEAT:
            start = fields.start(_PER_SEAT[name])
            return [start + (p + i) % n for i in range(n)]
        if name in _PER_SEAT_BLOCK:
            field, size = _PER_SEAT_BLOCK[name]
            start = fields.start(field)
            return [start + ((p + i) % n) * size + j for i in range(n) for j in range(size)]
        if name in _PRIVATE:
            field, size = _PRIVATE[name]
            start = fields.start(field) + p * size
            return list(range(start, start + size))
        if name == "attached":  # [target][attacher], both rotated
            start = fields.start("attach")
            return [start + ((p + i) % n) * n + (p + j) % n for i in range(n) for j in range(n)]
        if name == "my_attached":  # attacher = observer; [target rotated][kind]
            start = fields.start("my_attach")
            return [start + (p * n + (p + i) % n) * NP + k for i in range(n) for k in range(NP)]
        raise KeyError(f"no source for piece {name!r}")

    def encode(self, state: HumbleSmuggleStateBase, player: int) -> np.ndarray:
        if not 0 <= player < self.n:
            raise ValueError(f"player must be a seat in [0, {self.n}), got {player!r}")
        obs: np.ndarray = state.np_buf[self._rows[player]] * self.scale
        return obs


def _scale(name: str, game: HumbleSmuggleGame) -> float | list[float]:
    n = game.num_players
    if name == "passes":
        return 1 / n
    if name == "centre_rules":
        return 1 / (n + 1)
    if name == "black_discard_seen":
        return [1 / game.black_kind_counts[k] for k in range(NP)]
    return _SCALES.get(name, 1.0)
