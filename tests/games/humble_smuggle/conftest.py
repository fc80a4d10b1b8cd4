"""Fixtures for scripted Humble smuggle scenarios."""

import pytest

import smuggle_envs
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.vocab import PLAY

ENV = "humble_smuggle_v0"


class Table:
    """A game (3 players by default, P0 first) with arranged cards, driven by rulebook moves.

    Seats not given a black hand start with none, so the play phase is a lap of passes unless a
    scenario hands out Play cards."""

    def __init__(
        self,
        n=3,
        hands=None,
        centre=None,
        black=None,
        deck_top=(),
        black_top=(),
        first=0,
        end_left=None,
        black_discard=(),
        black_hidden=None,
        seed=0,
        **config,
    ):
        self.game = smuggle_envs.make_game(ENV, num_players=n, first_player=first, **config)
        self.state = self.game.new_initial_state(seed)
        black = dict(black or {})
        for s in range(n):
            black.setdefault(s, [])
        self.state.arrange(
            hands=hands,
            centre=centre,
            black=black,
            deck_top=deck_top,
            black_top=black_top,
            black_discard=black_discard,
            black_hidden=black_hidden,
            end_left=end_left,
        )
        self.n = n

    # moves ---------------------------------------------------------------------------------
    def apply(self, action):
        """Apply one action, then check the byte mirror against a rebuild from the lists."""
        self.state.apply_action(action)
        assert bytes(self.state.buf) == bytes(self.state._rebuild_fields())
        return self

    def draft(self, *values):
        for v in values:
            self.apply(A.draft(v))
        return self

    def select(self, *values):
        for v in values:
            self.apply(A.select(v))
        return self

    def play(self, kind, target):
        """The seat to act plays a Play card of ``kind`` (name or index) on seat ``target``'s card."""
        s = self.state
        offset = (target - s.current_player()) % self.n
        self.apply(A.play(self.game.black_kind(kind), offset))
        return self

    def pass_(self, times=1):
        for _ in range(times):
            self.apply(A.PASS)
        return self

    def finish_play(self):
        """Everyone passes until the reveal."""
        while self.state.phase == PLAY:
            self.apply(A.PASS)
        return self

    def round(self, drafts, selects, plays=()):
        """Draft and select in turn order; ``plays`` are (kind, target) moves or None for a pass,
        in round-robin order; then everyone passes to the reveal."""
        self.draft(*drafts).select(*selects)
        for move in plays:
            if move is None:
                self.pass_()
            else:
                self.play(*move)
        return self.finish_play()

    def discard(self, kind):
        self.apply(A.discard(self.game.black_kind(kind)))
        return self

    # reading -------------------------------------------------------------------------------
    def black(self, seat):
        return sorted(self.game.black_names[k] for k in range(23) for _ in range(self.state.black[seat][k]))

    @property
    def last_discarded(self):
        return self.state.last[3]


@pytest.fixture
def table():
    return Table
