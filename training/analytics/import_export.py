"""Sealed-bid analytics of Import / Export (``import_export_v0``), computed from stored replays.

What Import / Export hides is the hands and the **sealed bids** of the Import action: the leader
picks a ship at sea, every player with an Import action this round bids in secret (even amounts,
0 up to its active credits, asked in turn from the leader), and the bids are revealed once all
are in. "The highest bidder pays their bid to the bank" and takes two containers from the ship,
"up to one card in their imports, and/or up to two cards in their goods"; the leader breaks ties
(else the tied bidder closest clockwise from him; a Foxes holder breaks every tie); "the owner
takes 2 credits from the bank per won bid" by someone else; a player alone in a round takes the
containers free (R5.9). The replay sees every bid, including those the engine applies by itself
(a bidder with fewer than 2 credits can only bid 0; a leader with one ship at sea has no choice).
Per agent, over the Import rounds of the Import action (the solo imports some powers give,
Glasses or Pocky, are not bids and are left out):

**Sealed bids** (rounds with two or more bidders):
  * *rounds bid*, *mean bid* (credits), *bids of 0*, of which *forced* (fewer than 2 active
    credits: 0 was the only bid); *bid share*: the mean of bid / its active credits, over the
    bids where it had a choice (at least 2 credits);
  * *won*, *won at a tie* (the bid equalled another's and the tie-break gave it the ship), *lost
    at a tie*; win rate = won / rounds bid;
  * *paid*: credits its winning bids cost it (to the bank, or to the Dark Flight Games holder for
    an island import; nothing when that holder wins its own island import);
  * *overpay*: on each win, its bid minus the second-highest bid (0 at a tie): the credits it
    left on the table, since the same ship went for the second-highest bid plus nothing.
**Ships won** (sealed or alone): *free imports* (it was the only bidder), ships of *others*
(their owner took the *owner fee* from the bank: 2 credits, 4 with Pants), its *own* ships (no
fee), the supply *island* (Dark Flight Games); the *containers* taken and where they went: *to
imports* (an extra action of the card's type every turn), *to goods* (points, tiers), or
*discarded* (no room); credits paid per container bought. As ship owner: imports by others from
its ships and the owner fees it received.
**As leader**: the ships it picked for each round: its own ship, another's, the island; how many
picks were *forced* (a single option), and how often its own ship was at sea to be picked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from smuggle_envs.core.driver import BaseObserver, Driver, replay_policy
from smuggle_envs.core.game import Game, State
from smuggle_envs.core.spec import GameSpec
from smuggle_envs.games.import_export import ImportExportState
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.powers import modifiers as M
from smuggle_envs.games.import_export.vocab import ISLAND, P_BID, P_IMPORT_PICK, P_IMPORT_SHIP, P_IMPORT_ZONE

from ._common import money, pct, rate
from ._report import Column, Panel, PerAgentAnalysis, Table, rate_columns, ratio

ENV_ID = "import_export_v0"
"""The game analysed: ``training.analytics.ANALYZERS`` files ``ANALYSIS`` under it."""

Note = tuple[Any, ...]
"""What one decision tells the analysis: ``(kind, ...)``, kind "ship", "bids", "pick" or "zone"."""
Resolution = tuple[int, int, list[int], int, int, int]
"""An import round resolved: (winner, price, tied bidders, paid, owner fee, containers to take)."""


@dataclass
class ImportExportAgentStats:
    """One agent's counts in Import / Export games: sealed bids, ships won, ship picks as leader
    (module docstring)."""

    name: str
    # sealed bids (Import rounds with two or more bidders)
    bids: int = 0
    bid_credits: int = 0
    zero_bids: int = 0
    forced_bids: int = 0  # fewer than 2 active credits: 0 was the only bid
    share_sum: float = 0.0  # sum of bid / active credits over bids with a choice
    share_bids: int = 0
    won: int = 0
    won_tie: int = 0
    lost_tie: int = 0
    paid: int = 0
    overpay: int = 0
    # ships won, sealed or alone
    free: int = 0
    won_other: int = 0
    owner_fees: int = 0  # credits the owners of those ships took from the bank
    won_own: int = 0
    won_island: int = 0
    containers: int = 0
    containers_bought: int = 0  # taken after a won sealed bid
    to_imports: int = 0
    to_goods: int = 0
    discarded: int = 0
    # as ship owner
    imported_from: int = 0  # imports by others from its ships
    fees_received: int = 0
    # as leader
    picks: int = 0
    picks_forced: int = 0
    picks_own: int = 0
    picks_other: int = 0
    picks_island: int = 0
    own_at_sea: int = 0  # picks where one of its own ships could be picked

    @property
    def rounds(self) -> int:
        return self.bids + self.free

    @property
    def ships_won(self) -> int:
        return self.won + self.free

    def row(self) -> dict[str, str | float]:
        return {
            "agent": self.name,
            "import_rounds": self.rounds,
            "rounds_bid": self.bids,
            "bid_credits": self.bid_credits,
            "mean_bid": rate(self.bid_credits, self.bids),
            "bids_of_0": self.zero_bids,
            "forced_bids_of_0": self.forced_bids,
            "bid_share": rate(self.share_sum, self.share_bids),
            "bids_with_a_choice": self.share_bids,
            "won": self.won,
            "won_at_tie": self.won_tie,
            "lost_at_tie": self.lost_tie,
            "win_rate": rate(self.won, self.bids),
            "paid": self.paid,
            "overpay": self.overpay,
            "overpay_per_win": rate(self.overpay, self.won),
            "ships_won": self.ships_won,
            "free_imports": self.free,
            "won_others_ship": self.won_other,
            "owner_fees_paid_to_owners": self.owner_fees,
            "won_own_ship": self.won_own,
            "won_island": self.won_island,
            "containers": self.containers,
            "containers_bought": self.containers_bought,
            "to_imports": self.to_imports,
            "to_goods": self.to_goods,
            "discarded": self.discarded,
            "credits_per_container_bought": rate(self.paid, self.containers_bought),
            "imported_from_by_others": self.imported_from,
            "owner_fees_received": self.fees_received,
            "leader_picks": self.picks,
            "leader_picks_forced": self.picks_forced,
            "leader_picks_own_ship": self.picks_own,
            "leader_picks_others_ship": self.picks_other,
            "leader_picks_island": self.picks_island,
            "leader_own_ship_at_sea": self.own_at_sea,
        }


@dataclass
class _Won:
    """A resolved Import round, followed while the winner places its containers."""

    winner: int
    ship: int  # -1: the supply island
    sealed: bool
    bids: dict[int, int] = field(default_factory=dict)  # seat -> credits bid (sealed rounds)
    left: int = 0  # containers still to place
    checked: bool = False


def _resolve(st: ImportExportState, s: int, bidders: Sequence[int], bids: dict[int, int]) -> Resolution:
    """The engine's resolution of an Import round on ship ``s`` (``steps.r_bid``, ``won_import``), read
    from the state just before it: (winner, price, tied, paid, owner fee, containers to take)."""
    if len(bidders) == 1:
        winner, price, tied = bidders[0], 0, [bidders[0]]
    else:
        price = max(bids.values())
        tied = [q for q in bidders if bids[q] == price]  # bidders are listed from the leader
        foxes = [q for q in st.holders(st.game.foxes) if q in tied]
        winner = foxes[0] if foxes else tied[0]
    if s == ISLAND:
        paid = 0 if st.holder("dark_flight_games") == winner else price
        fee, source = 0, st.island
    else:
        paid = price
        fee = M.owner_fee(st, s // 2) if s // 2 != winner else 0
        source = st.cargo[s]
    return winner, price, tied, paid, fee, min(M.import_take(st, winner), len(source))


def decision_note(st: ImportExportState, action: int) -> Note | None:
    """What a decision about to be applied tells, read from the state before it (None: nothing
    this analysis counts)."""
    ask = st.ask
    if ask is None:
        return None
    phase, player, options, ctx, _public = ask
    if phase == P_IMPORT_SHIP:
        s = ISLAND if action == M.OPT_ISLAND else action - A.SHIP
        bidders = list(st.bidders)
        own = any(A.SHIP + t in options for t in (2 * player, 2 * player + 1))
        free = _resolve(st, s, bidders, {}) if len(bidders) == 1 else None
        return "ship", player, s, bidders, len(options), own, free
    if phase == P_BID and ctx[0] + 1 == len(st.bidders):  # the last bid: all are in
        bidders = list(st.bidders)
        bids = {q: 2 * st.bids[q] for q in bidders}
        bids[player] = 2 * (action - A.BID)
        credits = {q: st.credits[q] for q in bidders}
        s = st.import_ship
        return "bids", s, bidders, bids, credits, _resolve(st, s, bidders, bids)
    if phase == P_IMPORT_PICK:
        return "pick", ctx[0], ctx[1], list(st.last_bids)
    if phase == P_IMPORT_ZONE:
        return "zone", ctx[0], ctx[1], action - A.ZONE
    return None


TABLES = (
    Table(
        "sealed Import bids (rounds with two or more bidders; bids in credits, hidden until all are in): "
        "forced = fewer than 2 credits, 0 was the only bid;\nbid share = bid / its active credits (bids "
        "with a choice); overpay = its winning bid - the second-highest bid",
        (
            Column("rounds bid", "bids"),
            Column("mean bid", ratio("bid_credits", "bids"), money),
            Column("bids of 0", "zero_bids"),
            Column("forced", "forced_bids"),
            Column("bid share", ratio("share_sum", "share_bids"), pct),
            Column("won", "won"),
            Column("won at tie", "won_tie"),
            Column("lost at tie", "lost_tie"),
            *rate_columns("win rate", "won", "bids"),
            Column("paid", "paid", money),
            Column("overpay", "overpay", money),
            Column("overpay/win", ratio("overpay", "won"), money),
        ),
    ),
    Table(
        "ships won (sealed bids and free imports: the only bidder); owner fee = credits the ship's owner "
        "took from the bank;\ncontainers taken: to imports, to goods, discarded (no room)",
        (
            Column("ships won", "ships_won"),
            Column("free imports", "free"),
            Column("others' ships", "won_other"),
            Column("owner fees", "owner_fees", money),
            Column("own ship", "won_own"),
            Column("island", "won_island"),
            Column("containers", "containers"),
            Column("to imports", "to_imports"),
            Column("to goods", "to_goods"),
            Column("discarded", "discarded"),
            Column("credits/container", ratio("paid", "containers_bought"), money),
            Column("imported from", "imported_from"),
            Column("fees received", "fees_received", money),
        ),
    ),
    Table(
        "as leader: the ship it picked for each Import round (forced = one option; own at sea = its own ship "
        "could be picked)",
        (
            Column("ships picked", "picks"),
            Column("forced", "picks_forced"),
            Column("own ship", "picks_own"),
            Column("others' ships", "picks_other"),
            Column("island", "picks_island"),
            Column("own at sea", "own_at_sea"),
            Column("own when at sea", ratio("picks_own", "own_at_sea"), pct),
        ),
    ),
)

PANELS = (
    Panel(
        "sealed bids",
        (("win rate", ratio("won", "bids")), ("bid share of credits", ratio("share_sum", "share_bids"))),
        "share",
    ),
    Panel(
        "credits per sealed bid",
        (("mean bid", ratio("bid_credits", "bids")), ("overpay per win", ratio("overpay", "won"))),
        "credits",
    ),
    Panel(
        "ships won",
        (
            ("free", ratio("free", "ships_won")),
            ("others' ships", ratio("won_other", "ships_won")),
            ("own ship", ratio("won_own", "ships_won")),
        ),
        "share",
    ),
    Panel(
        "as leader: ships picked",
        (("own ship", ratio("picks_own", "picks")), ("others' ships", ratio("picks_other", "picks"))),
        "share",
    ),
)


class ImportExportAnalysis(PerAgentAnalysis, BaseObserver):
    """Sealed Import bids, ships won and the leader's ship picks of Import / Export games; see
    the module docstring for the definitions. It is the observer of the games it replays."""

    title = "sealed_bids"
    plot_title = "Import / Export sealed bids"
    stats_class = ImportExportAgentStats
    tables = TABLES
    panels = PANELS

    def __init__(self, names: Sequence[str]):
        super().__init__(names)
        self.mismatches = 0  # engine reveals that disagree with our resolution
        self._open: _Won | None = None  # the last round resolved, its containers being placed
        self._seats: list[ImportExportAgentStats] = []  # the stats of each seat of the game replayed

    def add_game(self, spec: GameSpec, seed: int, actions: Sequence[int], seating: Sequence[str]) -> None:
        self._replay(spec.make_game(), actions, seating, seed=seed)

    def add_state(self, state: ImportExportState, actions: Sequence[int], seating: Sequence[str]) -> None:
        """Apply ``actions`` to ``state`` (a new game from its seed, or a position laid out with
        ``arrange``), counting every Import decision, those the engine applies by itself too."""
        self._replay(state.game, actions, seating, state=state)

    def _replay(
        self,
        game: Game,
        actions: Sequence[int],
        seating: Sequence[str],
        seed: int | None = None,
        state: ImportExportState | None = None,
    ) -> None:
        """Play ``actions`` back on a driver (stopping when they run out: a stored game may have
        been cut short), this analysis observing."""
        self.games += 1
        self._seats = [self._stat(name) for name in seating]
        self._open = None
        driver = Driver(game, max_decisions=len(actions) or None, observers=[self])
        live = driver.reset(seed, state=state)
        try:
            if actions:
                driver.play(replay_policy(actions))
        finally:
            if isinstance(live, ImportExportState) and self.on_action in live.auto_listeners:
                live.auto_listeners.remove(self.on_action)

    # ----- the observer --------------------------------------------------------------------
    def on_start(self, state: State[Any]) -> None:
        if not isinstance(state, ImportExportState):
            raise TypeError(f"ImportExportAnalysis replays import_export_v0 games, not {state.game.env_id}")
        state.auto_listeners.append(self.on_action)  # the decisions the engine applies by itself

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        assert isinstance(state, ImportExportState)
        note = decision_note(state, action)
        if note is not None:
            self._count(note, self._seats)

    def _count(self, note: Note, stats: Sequence[ImportExportAgentStats]) -> None:
        count = {"ship": self._ship, "bids": self._bids, "pick": self._pick, "zone": self._zone}[note[0]]
        count(note, stats)

    def _ship(self, note: Note, stats: Sequence[ImportExportAgentStats]) -> None:
        """The leader picked a ship; a bidder alone imports for free."""
        _, leader, s, bidders, n_options, own, free = note
        me = stats[leader]
        me.picks += 1
        me.picks_forced += n_options == 1
        me.own_at_sea += own
        if s < 0:
            me.picks_island += 1
        elif s // 2 == leader:
            me.picks_own += 1
        else:
            me.picks_other += 1
        self._open = None
        if free is not None:
            stats[bidders[0]].free += 1
            self._won(stats, s, free, {}, False)

    def _bids(self, note: Note, stats: Sequence[ImportExportAgentStats]) -> None:
        """The last sealed bid is in: every bid of the round, and its winner."""
        _, s, bidders, bids, credits, resolution = note
        winner, price, tied = resolution[:3]
        second = max(b for q, b in bids.items() if q != winner)
        for q in bidders:
            me, bid = stats[q], bids[q]
            me.bids += 1
            me.bid_credits += bid
            me.zero_bids += bid == 0
            if credits[q] < 2:
                me.forced_bids += 1
            else:
                me.share_sum += bid / credits[q]
                me.share_bids += 1
            if q != winner and q in tied:
                me.lost_tie += 1
        me = stats[winner]
        me.won += 1
        me.won_tie += len(tied) > 1
        me.overpay += price - second
        self._won(stats, s, resolution, bids, True)

    def _pick(self, note: Note, stats: Sequence[ImportExportAgentStats]) -> None:
        """The winner picks its containers: the engine's reveal checked against our resolution."""
        _, p, s, revealed = note
        won = self._open
        if won is not None and not won.checked:
            won.checked = True
            if (p, s) != (won.winner, won.ship) or any(revealed[q] * 2 != b for q, b in won.bids.items()):
                self.mismatches += 1

    def _zone(self, note: Note, stats: Sequence[ImportExportAgentStats]) -> None:
        """A container of the round placed: to imports, to goods, or discarded."""
        _, p, s, zone = note
        won = self._open
        if won is None or (p, s) != (won.winner, won.ship) or won.left <= 0:
            return  # a power's import (Pocky), not a round's
        won.left -= 1
        me = stats[p]
        me.containers += 1
        me.containers_bought += won.sealed
        if zone == A.IMPORTS:
            me.to_imports += 1
        elif zone == A.GOODS:
            me.to_goods += 1
        else:
            me.discarded += 1

    def _won(
        self,
        stats: Sequence[ImportExportAgentStats],
        s: int,
        resolution: Resolution,
        bids: dict[int, int],
        sealed: bool,
    ) -> None:
        winner, _price, _tied, paid, fee, take = resolution
        me = stats[winner]
        me.paid += paid
        if s < 0:
            me.won_island += 1
        elif s // 2 == winner:
            me.won_own += 1
        else:
            me.won_other += 1
            me.owner_fees += fee
            owner = stats[s // 2]
            owner.imported_from += 1
            owner.fees_received += fee
        self._open = _Won(winner, s, sealed, bids, take)

    def warnings(self) -> list[str]:
        if not self.mismatches:
            return []
        return [
            f"warning: {self.mismatches} Import rounds revealed by the engine disagreed with the resolution of the bids"
        ]


ANALYSIS = ImportExportAnalysis
"""The analyser of ``ENV_ID``'s games, built as ``ANALYSIS(agent_names)``."""
