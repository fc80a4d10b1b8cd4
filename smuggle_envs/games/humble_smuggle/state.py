"""Humble smuggle's state: its fields (Python lists for the rules, mirrored in one byte buffer
for the observation), how the table is dealt, and the draws. What each phase allows and what
each action does is in ``steps.py``; ``rules.py`` assembles the two (and the resample) into
``HumbleSmuggleState``. ``_rebuild_fields`` recomputes the byte buffer from the lists (used by
``resample`` and ``scenarios.arrange``, and by the invariant tests to check the incremental
updates).
"""

from __future__ import annotations

import numpy as np

from ...core.fields import ByteState, set_one_hot
from ...core.game import TERMINAL
from . import actions as A
from .actions import MAX_PLAYERS, NK, NP, W
from .game import HumbleSmuggleGame
from .vocab import NUM_SYMBOLS, OVER, PLAY, SELECT, STAR, Reveal


class HumbleSmuggleStateBase(ByteState[HumbleSmuggleGame]):
    """A Humble smuggle position: its fields and the card moves that keep them in step
    (``rules.py``'s ``HumbleSmuggleState`` adds the rules: ``steps.py``, ``resample.py``).

    White cards are their values 1-79. ``hands[s]`` is seat s's hand (not its face-down card),
    ``sel[s]`` its face-down selection (0: none), ``known[s]`` the cards of s's hand and
    selection that everyone saw it draft (public), ``scored[s]`` its scored cards. ``deck`` is the
    white deck (``pop()`` draws the top), ``end_left`` the white cards still above the 80 (-1 once
    the 80 is out). Black kinds are 0-6 (Play) and 7-22 (Hold); ``black[s]`` counts seat s's hand
    per kind, ``attached[t]`` lists (attacher, kind) on seat t's face-down card, ``bdisc_public``
    the revealed Play cards in the black discard pile and ``bdisc_hidden`` (seat, kind) of the
    cards discarded face down for the hand limit.
    """

    _over = OVER

    # Seats and the phase are plain attributes mirrored as one-hot flags in their byte fields by
    # setters (``ByteState._set_phase``, ``_set_actor``, ``_set_first``): a class-level descriptor
    # (even one with only ``__set__``) takes every read off CPython 3.11's specialised fast path.
    _lists = ("deck", "bdeck", "centre", "bdisc_public", "bdisc_hidden", "sel", "white_discards", "pending")
    _nested = ("hands", "known", "scored", "black", "attached")
    _not_replayable: str  # set by ``scenarios.arrange``: why ``to_replay`` refuses

    def __init__(self, game: HumbleSmuggleGame, seed: int | None):
        super().__init__(game, seed)
        n = self.n = game.num_players
        self.buf = game.fields.new_buffer()
        self._bind()
        rng = self.rng
        # Setup 1: shuffle the 79, insert the 80 (kept as a count of the cards above it).
        self.deck = list(range(1, W + 1))
        rng.shuffle(self.deck)
        self.end_left = game.end_depth
        self.final = False
        # Setup 3: shuffle the black cards.
        self.bdeck = list(game.black_template)
        rng.shuffle(self.bdeck)
        self.bdisc_public: list[int] = []
        self.bdisc_hidden: list[tuple[int, int]] = []
        # Setup 5: the first player (R3.11: by chance unless configured).
        fp = game.config.first_player
        self.first = -1
        self._set_first(rng.randrange(n) if fp is None else fp)
        self.phase = OVER
        self.actor = -1
        self.rounds_played = 0
        self.rule = -1
        self.drafts = 0
        self.passes = 0
        self.centre: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.sel = [0] * n
        self.scored: list[list[int]] = [[] for _ in range(n)]
        self.white_discards: list[int] = []
        self.black: list[list[int]] = [[0] * NK for _ in range(n)]
        self.attached: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.pending = [0] * n
        self.draw_idx = 0
        self.last: Reveal | None = None
        # Setup 2: three white cards each, then players + 1 face up in the centre.
        data = game.data
        for s in range(n):
            for _ in range(data.white_hand):
                v = self._draw_white()
                self.hands[s].append(v)
                self.f_hand[s * W + v - 1] = 1
        # Setup 3: two black cards each.
        for s in range(n):
            self._draw_black(s, data.black_deal)
        self.f_bdeck[0] = len(self.bdeck)
        # The centre and the first round are set out by ``steps.start_game`` (``rules.HumbleSmuggleState``).

    def _bind(self) -> None:
        self.np_buf = np.frombuffer(self.buf, np.uint8)
        v = self.game.fields.views(self.buf)
        self.f_phase, self.f_first, self.f_to_act = v["phase"], v["first"], v["to_act"]
        self.f_drafted, self.f_selected, self.f_passes = v["drafted"], v["selected"], v["passes"]
        self.f_round, self.f_final, self.f_deck, self.f_rounds_left = (
            v["round"],
            v["final"],
            v["deck"],
            v["rounds_left"],
        )
        self.f_bdeck, self.f_bdisc, self.f_bdisc_seen = v["bdeck"], v["bdisc"], v["bdisc_seen"]
        self.f_centre, self.f_centre_rules, self.f_rule = v["centre"], v["centre_rules"], v["rule"]
        self.f_hand, self.f_sel, self.f_known, self.f_out = v["hand"], v["sel"], v["known"], v["out"]
        self.f_black, self.f_black_count = v["black"], v["black_count"]
        self.f_attach, self.f_my_attach = v["attach"], v["my_attach"]
        self.f_sym, self.f_points, self.f_nscored = v["sym"], v["points"], v["nscored"]
        self.f_last_card, self.f_last_mods, self.f_last_discarded = v["last_card"], v["last_mods"], v["last_discarded"]
        self.f_last_centre, self.f_last_centre_discarded = v["last_centre"], v["last_centre_discarded"]
        self.f_last_rule = v["last_rule"]

    # ----- setters that keep the one-hot fields in step (see the class attributes above) ---------
    def _set_actor(self, seat: int) -> None:
        set_one_hot(self.f_to_act, self.actor, seat)
        self.actor = seat

    def _set_first(self, seat: int) -> None:
        set_one_hot(self.f_first, self.first, seat)
        self.first = seat

    # ----- public reads ------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.actor if self.phase != OVER else TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def points(self, holds: bool | None = None) -> list[int]:
        """Final-scoring points of every seat (section 7): tens digits of scored white cards,
        Hold bonuses, and the best symbol sets. Hold cards are hidden until the end, so by
        default they count only once the game is over; before that the points are what the
        whole table can count. ``holds=True`` counts the Hold cards in hand now."""
        if holds is None:
            holds = self.phase == OVER
        game = self.game
        pts, syms = game.points, game.symbol
        result = []
        for s in range(self.n):
            counts = [0] * (NUM_SYMBOLS + 1)
            total = 0
            for v in self.scored[s]:
                total += pts[v]
                if syms[v] >= 0:
                    counts[syms[v]] += 1
            held: tuple[int, ...] = ()
            if holds:
                b = self.black[s]
                held = tuple(k - NP for k in range(NP, NK) if b[k] for _ in range(b[k]))
                total += sum(game.hold_bonus[h] for h in held)
            total += game.set_points(tuple(counts[:NUM_SYMBOLS]), counts[STAR], held)
            result.append(total)
        return result

    def scores(self) -> list[float]:
        """Points plus the tie-breaker (most scored white cards) as hundredths: a seat scores
        ``points + scored cards / 100``, so ties on points go to more scored cards and a tie on
        both is shared (section 7, "Tiebreakers"). At most 79 cards are scored, so the fraction
        never reaches a whole point. Before the end, hidden Hold cards do not count (see
        ``points``), so no score reveals a hidden card."""
        return [p + len(sc) / 100 for p, sc in zip(self.points(), self.scored)]

    def _public_action_string(self, action: int) -> str:
        """What the other seats see: the draft and a pass in full; a selection, the kind of a
        Play card (not who attached it where) and a hand-limit discard are face down."""
        actor = self.actor
        if A.SELECT <= action < A.PLAY:
            return f"player {actor} selects a card face down"
        if A.PLAY <= action < A.PASS:
            target = (actor + (action - A.PLAY) % MAX_PLAYERS) % self.n
            where = "their own card" if target == actor else f"player {target}'s card"
            return f"player {actor} plays a Play card face down on {where}"
        if action >= A.DISCARD:
            return f"player {actor} discards a black card face down"
        return self.game.action_to_string(action)

    def effective_value(self, seat: int) -> tuple[int, bool]:
        """(effective value, shielded) of ``seat``'s face-down card with its Play cards
        (``HumbleSmuggleGame.effective_value``)."""
        att = self.attached[seat]
        if not att:
            return self.sel[seat], False
        return self.game.effective_value(self.sel[seat], [k for _, k in att])

    def rounds_left(self) -> int:
        """Rounds still to play, this one included (public: the 80's position is printed)."""
        if self.phase == OVER and self.rounds_played:
            return 0
        if self.final:
            return 1
        return 2 + self.end_left // (self.n + 1)

    # ----- cards: draws (the deals and the black reshuffle) -------------------------------------
    def _draw_black(self, seat: int, count: int) -> None:
        bdeck, hand = self.bdeck, self.black[seat]
        for _ in range(count):
            if not bdeck:
                if not (self.bdisc_public or self.bdisc_hidden):
                    break  # Q1: nothing left to reshuffle
                bdeck.extend(self.bdisc_public)
                bdeck.extend(k for _, k in self.bdisc_hidden)
                self.rng.shuffle(bdeck)
                self.bdisc_public = []
                self.bdisc_hidden = []
                self.f_bdisc[0] = 0
                self.f_bdisc_seen[:] = bytes(NP)
            k = bdeck.pop()
            hand[k] += 1
            self.f_black[seat * NK + k] += 1
            self.f_black_count[seat] += 1
        self.f_bdeck[0] = len(bdeck)

    def _draw_white(self) -> int:
        """The top white card; passing the 80 on the way reveals it (the next round is final)."""
        if self.end_left == 0:
            self.end_left = -1
            self.final = True
            self.f_final[0] = 1
        elif self.end_left > 0:
            self.end_left -= 1
        v = self.deck.pop()
        self.f_deck[0] = len(self.deck)
        return v

    # ----- byte mirror -----------------------------------------------------------------------
    def _rebuild_fields(self) -> bytearray:
        """The byte buffer recomputed from the Python lists (what the incremental updates keep)."""
        game, n = self.game, self.n
        buf = game.fields.new_buffer()
        v = game.fields.views(buf)
        if self.phase < OVER:
            v["phase"][self.phase] = 1
            v["to_act"][self.actor] = 1
        v["first"][self.first] = 1
        for i in range(self.drafts):
            v["drafted"][(self.first + i) % n] = 1
        for s in range(n):
            v["selected"][s] = self.sel[s] > 0
        v["passes"][0] = self.passes
        v["round"][0] = self.rounds_played
        v["final"][0] = self.final
        v["deck"][0] = len(self.deck)
        v["rounds_left"][0] = self.rounds_left() if self.phase != OVER else 0
        v["bdeck"][0] = len(self.bdeck)
        v["bdisc"][0] = len(self.bdisc_public) + len(self.bdisc_hidden)
        for k in self.bdisc_public:
            v["bdisc_seen"][k] += 1
        for c in self.centre:
            v["centre"][c - 1] = 1
            v["centre_rules"][game.rule_of[c]] += 1
        if self.rule >= 0 and self.phase in (SELECT, PLAY):
            v["rule"][self.rule] = 1
        for s in range(n):
            for c in self.hands[s]:
                v["hand"][s * W + c - 1] = 1
            if self.sel[s]:
                v["sel"][s * W + self.sel[s] - 1] = 1
            for c in self.known[s]:
                v["known"][s * W + c - 1] = 1
            for c in self.scored[s]:
                v["out"][c - 1] = 1
                v["points"][s] += game.points[c]
                v["nscored"][s] += 1
                if game.symbol[c] >= 0:
                    v["sym"][s * (NUM_SYMBOLS + 1) + game.symbol[c]] += 1
            for k in range(NK):
                v["black"][s * NK + k] = self.black[s][k]
            v["black_count"][s] = sum(self.black[s])
            for attacher, kind in self.attached[s]:
                v["attach"][s * n + attacher] += 1
                v["my_attach"][(attacher * n + s) * NP + kind] += 1
        for c in self.white_discards:
            v["out"][c - 1] = 1
        if self.last is not None:
            sel, _, attached, discarded, centre_card, centre_out, rule = self.last
            for s in range(n):
                v["last_card"][s] = sel[s]
                v["last_discarded"][s] = s in discarded
                for _, kind in attached[s]:
                    v["last_mods"][s * NP + kind] += 1
            v["last_centre"][0] = centre_card
            v["last_centre_discarded"][0] = centre_out
            v["last_rule"][rule] = 1
        return buf

    def _reload_fields(self) -> None:
        self.buf[:] = self._rebuild_fields()
