"""Humble smuggle's observation: named pieces, seat-relative (the observer is seat 0, then clockwise).

Everything here is public or the observer's own: its white hand, its face-down card, its black
hand and the kinds of the Play cards *it* attached. Of the others it sees what the table sees:
the cards they drafted and have not revealed yet (``known_hands``), *that* they have chosen a
card, how many Play cards each seat attached to each face-down card, black hand sizes, scored
cards and the last reveal. The white deck's order, the initial three cards of other hands, other
face-down choices, the kinds of other seats' Play cards before the reveal, other black hands,
face-down discards and the state's RNG never enter.

Speed: the state mirrors these facts in one byte buffer (the fields its pieces read), in
absolute seat order; an observation is one numpy gather from it (a precomputed index per observer
does the seat rotation and picks the observer's private fields) and one multiply by a scale.
"""

from __future__ import annotations

import numpy as np

from ...core.fields import GatherTable
from ...core.layout import ObservationLayout, Piece
from .actions import NK, NP, W
from .game import HumbleSmuggleGame
from .state import HumbleSmuggleStateBase
from .vocab import NUM_PHASE_FLAGS, NUM_RULE_KINDS, NUM_SYMBOLS

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"
CARDS = "one bit per white card 1-79"
ROUNDS = 20  # the rounds a game lasts at most, the unit of the round counters
BLACK_UNIT = 3  # a black hand's usual size, the unit of black-card counts


def build_layout(game: HumbleSmuggleGame) -> ObservationLayout:
    """The pieces, each declared once: its meaning and bounds, and where it is gathered from (the
    byte field, the seat rotation, the scale); the state's byte fields are made from them."""
    n = game.num_players
    rules = ", ".join(game.rule_names)
    plays = ", ".join(p.name for p in game.data.play)
    return ObservationLayout([*_round_pieces(game, n, rules, plays), *_card_pieces(game, n, plays)])


def _round_pieces(game: HumbleSmuggleGame, n: int, rules: str, plays: str) -> list[Piece]:
    """The round: phase, seats, counters, decks, the centre and the round rule."""
    blacks = len(game.black_template)
    return [
        Piece(
            "phase",
            NUM_PHASE_FLAGS,
            "decision in progress: draft, select, play black cards, discard black cards",
            source="phase",
        ),
        Piece("first_player", n, f"the first player this round, {SEATS}", source="first", seats="rotated"),
        Piece("to_act", n, f"the seat deciding now, {SEATS}", source="to_act", seats="rotated"),
        Piece("drafted", n, "1 if the seat has drafted this round (seat-relative)", source="drafted", seats="rotated"),
        Piece(
            "selected",
            n,
            "1 if the seat has a face-down card waiting for the reveal (seat-relative)",
            source="selected",
            seats="rotated",
        ),
        Piece("passes", 1, "passes in a row in the black-card play phase / players", source="passes", scale=1 / n),
        Piece("round", 1, f"rounds played / {ROUNDS}", 0.0, INF, "round", scale=1 / ROUNDS),
        Piece(
            "rounds_left",
            1,
            f"rounds still to play, this one included / {ROUNDS} (the 80's depth is public)",
            0.0,
            INF,
            "rounds_left",
            scale=1 / ROUNDS,
        ),
        Piece("final_round", 1, "1 once the 80 card has appeared: this round is the last", source="final"),
        Piece("white_deck", 1, f"white cards left in the deck / {W}", source="deck", scale=1 / W),
        Piece("black_deck", 1, f"black cards left in the deck / {blacks}", source="bdeck", scale=1 / blacks),
        Piece("black_discard", 1, f"black cards in the discard pile / {blacks}", source="bdisc", scale=1 / blacks),
        Piece(
            "black_discard_seen",
            NP,
            f"revealed Play cards in the discard pile since its last reshuffle / cards of the kind: {plays}",
            source="bdisc_seen",
            scale=tuple(1 / game.black_kind_counts[k] for k in range(NP)),
        ),
        Piece("centre", W, f"the face-up centre cards, {CARDS}", source="centre"),
        Piece(
            "centre_rules",
            NUM_RULE_KINDS,
            f"centre cards per round-rule icon / (players + 1): {rules}",
            source="centre_rules",
            scale=1 / (n + 1),
        ),
        Piece(
            "round_rule",
            NUM_RULE_KINDS,
            "this round's rule (the icon of the card left after drafting), one-hot; zero while drafting",
            source="rule",
        ),
    ]


def _card_pieces(game: HumbleSmuggleGame, n: int, plays: str) -> list[Piece]:
    """The cards: hands, black cards and attachments, scored cards, the last reveal."""
    symbols = ", ".join(game.symbol_names)
    return [
        Piece("my_hand", W, f"your white hand (not your face-down card), {CARDS}", source="hand", seats="own"),
        Piece("my_selection", W, f"your face-down card, {CARDS}", source="sel", seats="own"),
        Piece(
            "known_hands",
            n * W,
            f"per seat (seat-relative, seat-major): cards it drafted and has not revealed, {CARDS}",
            source="known",
            seats="rotated_rows",
        ),
        Piece("out_of_play", W, f"white cards scored or discarded so far, {CARDS}", source="out"),
        Piece(
            "my_black",
            NK,
            f"your black hand, count / {BLACK_UNIT} per kind: " + ", ".join(game.black_names),
            0.0,
            INF,
            "black",
            "own",
            1 / BLACK_UNIT,
        ),
        Piece(
            "black_counts",
            n,
            f"black cards in hand per seat / {BLACK_UNIT} (seat-relative)",
            0.0,
            INF,
            "black_count",
            "rotated",
            1 / BLACK_UNIT,
        ),
        Piece(
            "attached",
            n * n,
            "Play cards attached this round: per face-down card (seat-relative), per attacher (seat-relative), "
            f"count / {BLACK_UNIT}",
            0.0,
            INF,
            "attach",
            "rotated_grid",
            1 / BLACK_UNIT,
        ),
        Piece(
            "my_attached",
            n * NP,
            f"the Play cards you attached this round: per face-down card (seat-relative), per kind ({plays}), "
            f"count / {BLACK_UNIT}",
            0.0,
            INF,
            "my_attach",
            "own_rotated",
            1 / BLACK_UNIT,
        ),
        *_scored_pieces(n, plays, symbols),
    ]


def _scored_pieces(n: int, plays: str, symbols: str) -> list[Piece]:
    """Each seat's scored cards (symbols, points, count), then the last reveal."""
    return [
        Piece(
            "scored_symbols",
            n * (NUM_SYMBOLS + 1),
            f"per seat (seat-relative): symbols on its scored white cards / 8: {symbols}",
            source="sym",
            seats="rotated_rows",
            scale=1 / 8,
        ),
        Piece(
            "scored_points",
            n,
            "per seat: tens-digit points of its scored white cards / 50",
            0.0,
            INF,
            "points",
            "rotated",
            1 / 50,
        ),
        Piece(
            "scored_cards",
            n,
            "per seat: scored white cards / 20 (the tie-breaker)",
            0.0,
            INF,
            "nscored",
            "rotated",
            1 / 20,
        ),
        *_last_reveal_pieces(n, plays),
    ]


def _last_reveal_pieces(n: int, plays: str) -> list[Piece]:
    """The last reveal: each seat's card, the Play cards on it, what was discarded, the centre."""
    return [
        Piece(
            "last_card",
            n,
            f"last reveal: each seat's white card / {W + 1} (seat-relative)",
            source="last_card",
            seats="rotated",
            scale=1 / (W + 1),
        ),
        Piece(
            "last_modifiers",
            n * NP,
            f"last reveal: Play cards on each seat's card, count / {BLACK_UNIT} per kind ({plays})",
            0.0,
            INF,
            "last_mods",
            "rotated_rows",
            1 / BLACK_UNIT,
        ),
        Piece(
            "last_discarded",
            n,
            "last reveal: 1 if the seat's card was discarded",
            source="last_discarded",
            seats="rotated",
        ),
        Piece("last_centre", 1, f"last reveal: the centre card / {W + 1}", source="last_centre", scale=1 / (W + 1)),
        Piece(
            "last_centre_discarded",
            1,
            "last reveal: 1 if the centre card was among the discarded",
            source="last_centre_discarded",
        ),
        Piece("last_rule", NUM_RULE_KINDS, "last reveal: the round rule, one-hot", source="last_rule"),
    ]


class HumbleSmuggleEncoder:
    """The gather table of the pieces' declarations for one game (one row per observer)."""

    def __init__(self, game: HumbleSmuggleGame):
        n = self.n = game.num_players
        table = GatherTable(game.observation_layout, game.fields, n)
        self.scale = table.scale
        self._rows = [table.row(p) for p in range(n)]

    def encode(self, state: HumbleSmuggleStateBase, player: int) -> np.ndarray:
        if not 0 <= player < self.n:
            raise ValueError(f"player must be a seat in [0, {self.n}), got {player!r}")
        obs: np.ndarray = state.np_buf[self._rows[player]] * self.scale
        return obs
