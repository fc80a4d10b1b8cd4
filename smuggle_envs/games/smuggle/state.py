"""Smuggle's state: its fields (one byte buffer and a few lists), how it is set up, and the
card moves that keep the fields in step. What each phase allows and what each action does is in
``steps.py``; ``rules.py`` assembles the two (and the resample) into ``SmuggleState``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...core.fields import ByteState, set_one_hot
from ...core.game import TERMINAL
from . import actions as A
from .actions import NUM_KINDS
from .game import SmuggleGame
from .vocab import DECLARE, DISCARD, OFFICER, OVER, RECEIVE, Reveal

NO_CARDS = bytes(NUM_KINDS)
# An accepted pass of the live hand: (passer, receiver, declaration action, index in the state's
# history of the accept); the receiver's discard follows it in the history.
Pass = tuple[int, int, int, int]


class FinishedHand(NamedTuple):
    """A live hand gone (searched, forfeited or dropped when the pack ran out) after at least one
    accept, as ``resample`` needs it: hidden, like ``hand_past``."""

    passes: tuple[Pass, ...]  # its accepted passes
    hands: tuple[bytes, ...]  # its ``hand_past``: ``hands[j]`` was passed on as ``passes[j]``
    discards: bytes  # the discard after each pass below the last hand, ``hands[-1]``


class SmuggleStateBase(ByteState[SmuggleGame]):
    """A Smuggle position: its fields and the card moves that keep them in step (``rules.py``'s
    ``SmuggleState`` adds the rules: ``steps.py``, ``resample.py``).

    The live hand is the four cards in play: held by ``holder`` while declaring, still his while
    the Officer and then the next player (``receiver``) decide, and the receiver's once accepted.
    ``hand`` counts it per card kind; its first ``kept`` cards were kept from a passed hand, so
    they are never the Bag (rule 15). ``known[p]`` counts the cards of the live hand that seat
    ``p`` saw when it passed them on. Counts and flags live in one byte buffer (``buf``, see
    ``encoder.build_layout``: the fields its pieces read) that the rules use through list-like windows.
    ``hand_past`` keeps the live hand's counts as dealt and after each draw since (hidden, like
    the hand; never observed): a seat's memory is what is left of the hand it passed, and
    ``resample`` needs the whole hands a seat saw to keep its worlds to them. ``hand_passes``
    lists the live hand's accepted passes (``Pass``), and ``finished_hands`` keeps, for every
    earlier live hand that was accepted at least once, its passes, its ``hand_past`` (hidden too)
    and its discards (``FinishedHand``): a receiver's record of the lies it accepted
    (``received_lies``) is private, so ``resample`` redraws the other seats' records from the
    pasts it draws, and needs the hands the viewer saw among them.

    Every action is public (declarations, searches, accepting or informing, face-up discards),
    so ``action_to_string`` shows each seat the full text. ``last_discard`` (seat, card kind)
    keeps the last discard on the table's text: the discard that ends a round leaves no other
    trace, as the open suitcase goes back into the next pack.
    """

    _over = OVER

    # Seats and the phase are plain attributes mirrored as one-hot flags in their byte fields by
    # setters (``ByteState._set_phase``, ``_set_holder``, ...): they are read several times a
    # decision, and a class-level descriptor (even one with only ``__set__``) takes every read
    # off CPython 3.11's specialised fast path (a read measured 22 ns against 12 ns).
    _lists = ("money", "declared_duty", "deck")
    _not_replayable: str  # set by ``scenarios.arrange``: why ``to_replay`` refuses

    def __init__(self, game: SmuggleGame, seed: int | None):
        super().__init__(game, seed)
        n = self.n = game.num_players
        self.data = game.data
        self.buf = game.fields.new_buffer()
        self._bind()
        self.money = [game.starting_money] * n
        self.declared_duty = [0] * n
        for s in range(n):
            self.active[s] = 1
        self.phase = OVER
        self.holder = self.receiver = self.officer = -1
        self._set_officer(game.config.first_officer)
        self.rounds_played = 0
        self.last_reveal: Reveal | None = None
        self.last_discard: tuple[int, int] | None = None  # (seat, card kind): public, face up
        self.hand_size = 0
        self.kept = 0
        self.decl_action = -1  # -1: nothing declared on the live hand yet
        self.deck: list[int] = []
        self.hand_past: tuple[bytes, ...] = ()  # immutable: ``clone`` may share it
        self.hand_passes: tuple[Pass, ...] = ()  # immutable, like ``hand_past``
        self.finished_hands: tuple[FinishedHand, ...] = ()
        # The first round is dealt by ``steps.start_round`` (``rules.SmuggleState.__init__``).

    def _bind(self) -> None:
        self.np_buf = np.frombuffer(self.buf, np.uint8)  # a live numpy view for the encoder
        v = self.game.fields.views(self.buf)
        self.f_phase, self.f_officer, self.f_holder, self.f_receiver = (
            v["phase"],
            v["officer"],
            v["holder"],
            v["receiver"],
        )
        self.f_declaration, self.f_bag_claim, self.f_duty_paid = v["declaration"], v["bag_claim"], v["duty_paid"]
        self.declarations, self.bag_claims, self.mean_declared_duty = (
            v["declarations"],
            v["bag_claims"],
            v["mean_declared_duty"],
        )
        self.hand, self.known_all = v["hand"], v["known"]
        self.known = [self.known_all[s * NUM_KINDS : (s + 1) * NUM_KINDS] for s in range(self.game.num_players)]
        self.active, self.officer_done, self.suitcase = v["active"], v["officer_done"], v["suitcase"]
        self.f_reveal, self.f_reveal_seat, self.f_reveal_outcome = (
            v["last_reveal"],
            v["last_reveal_seat"],
            v["last_reveal_outcome"],
        )
        self.f_deck, self.f_round, self.search_record = v["deck"], v["round"], v["search_record"]
        # Private records: [receiver * n + passer] counts hands accepted from the passer, and
        # how many of them the receiver saw to be untruthful.
        self.received_from, self.received_lies = v["received_from"], v["received_lies"]

    # ----- setters that keep the one-hot fields in step (see the class attributes above) ---------
    def _set_officer(self, seat: int) -> None:
        set_one_hot(self.f_officer, self.officer, seat)
        self.officer = seat

    def _set_receiver(self, seat: int) -> None:
        set_one_hot(self.f_receiver, self.receiver, seat)
        self.receiver = seat

    def _set_holder(self, seat: int) -> None:
        set_one_hot(self.f_holder, self.holder, seat)
        self.holder = seat

    # ----- public reads ------------------------------------------------------------------------
    @property
    def declaration(self) -> tuple[int, ...] | None:
        """Declared item counts, or None for a Bag claim or before anything is declared."""
        if 0 <= self.decl_action < A.CLAIM_BAG:
            return A.DECLARATIONS[self.decl_action]
        return None

    def current_player(self) -> int:
        phase = self.phase
        if phase in (DECLARE, DISCARD):
            return self.holder
        if phase == OFFICER:
            return self.officer
        if phase == RECEIVE:
            return self.receiver
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[float]:
        return [float(m) for m in self.money]

    def hand_cards(self) -> list[int]:
        """The live hand as a sorted list of card kinds."""
        return [k for k in range(NUM_KINDS) for _ in range(self.hand[k])]

    # ----- cards: the live hand, the pack and the suitcase ----------------------------------------
    def _draw(self, count: int) -> None:
        deck, hand = self.deck, self.hand
        for _ in range(count):
            hand[deck.pop()] += 1
        self.hand_size += count
        self.f_deck[0] = len(deck)
        self.hand_past += (bytes(hand),)

    def _to_suitcase(self) -> None:
        suitcase, hand = self.suitcase, self.hand
        for k in range(NUM_KINDS):
            if hand[k]:
                suitcase[k] += hand[k]
        self._drop_hand()

    def _drop_hand(self) -> None:
        passes = self.hand_passes
        if passes:
            # Its last hand is public however it ended (see ``resample``), so what a seat saw
            # of the rest can be told apart from what it could not. The discards are read now,
            # once, rather than in every resample.
            top, history = len(self.hand_past) - 1, self.history
            discards = bytes([history[at + 1] - A.DISCARD for *_, at in passes[:top]])
            self.finished_hands += (FinishedHand(passes, self.hand_past, discards),)
            self.hand_passes = ()
        self.hand[:] = NO_CARDS
        self.known_all[:] = self.game.no_known
        self.hand_size = self.kept = 0
        self.hand_past = ()
