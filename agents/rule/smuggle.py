"""A rule-based Smuggle player that reads only its observation and action mask.

``SmuggleRuleAgent`` plays every role with one idea: compare the expected money of each legal
choice, using probabilities estimated from the public record in the observation (who was caught
lying, who searched how often, what is already face up in the open suitcase). It never touches
the ``State``; every fact comes from ``game.observation_layout`` pieces, read by name.

| Role (phase)          | What the bot does                                                       |
|-----------------------|-------------------------------------------------------------------------|
| holder (declare)      | holding the Diplomatic Bag: claims it (truthful and immune). Otherwise  |
|                       | compares the honest declaration with bluffs (nothing, or only the       |
|                       | cheapest items) by expected cost: duty saved against fines times the    |
|                       | chance of being searched (Officer's searches this round, next player's  |
|                       | informing). Sometimes bluffs anyway (``bluff_rate``) or falsely claims  |
|                       | the Bag with a costly hand (``false_bag_rate``).                        |
| Officer (search/pass) | searches when expected fines beat the duty it would collect plus the    |
|                       | 200 compensation risk; the lie probability comes from the holder's      |
|                       | caught/truthful record (against the whole table's), a declaration of    |
|                       | nothing, and a low mean declared duty. A Bag claim while the Bag lies   |
|                       | face up in the open suitcase is a certain lie: always challenged.       |
| next player (accept/  | informs when the 100 reward (and a fresh hand instead of a possibly     |
| inform)               | loaded one) beats the 200 risk; a known undeclared item among the cards |
|                       | it passed earlier (``known_in_hand``) makes informing a sure win.       |
| new holder (discard)  | discards the most heavily fined item (the Bag when it must); items only |
|                       | ever cost money, so a hand of luggage is the cheapest hand to declare.  |

Parameters (constructor keywords; defaults picked by one-bot-versus-three self-play matches):

| name                  | default | meaning                                                        |
|-----------------------|---------|----------------------------------------------------------------|
| ``risk``              | 1.0     | multiplies expected fines when pricing a bluff (> 1: cautious)  |
| ``bluff_rate``        | 0.1     | chance of declaring nothing when honesty priced better          |
| ``false_bag_rate``    | 0.03    | chance of a false Bag claim with a hand whose duty is at least  |
| ``false_bag_min_duty``| 300     | ... this much (never while the Bag is face up in the suitcase)  |
| ``empty_caution``     | 0.5     | extra search chance a holder expects when declaring nothing     |
| ``liar_empty_share``  | 0.6     | share of liars assumed to declare nothing (Officer's Bayes)     |
| ``max_empty_ratio``   | 4.0     | cap on how much "nothing" multiplies the odds of a lie          |
| ``min_items_ratio``   | 0.75    | floor on how much declaring items divides them (a low floor     |
|                       |         | lets "declare one cheap item, hide the rest" go unsearched)     |
| ``prior_lie``         | 0.15    | probability that a declaration is a lie before any record       |
| ``prior_search``      | 0.2     | search / inform rate of an Officer / next player, no record yet |
| ``prior_weight``      | 3.0     | how many observations those priors are worth                    |
| ``inherit_weight``    | 1.0     | weight of the duty a next player takes on by accepting a hand   |
| ``search_noise``      | 0.0     | chance of flipping an uncertain search / inform decision        |

Randomness comes only from the agent's own ``random.Random`` (seeded by ``seed``/``reset``), so
the same seed and observations give the same actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from operator import gt, mul, sub
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

import numpy as np

from agents.base import RuleAgent
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.actions import BAG, HAND_SIZE, LUGGAGE, NUM_ITEMS, NUM_KINDS
from smuggle_envs.games.smuggle.vocab import (
    COUNT_UNIT,
    DECLARE,
    DISCARD,
    OFFICER,
    R_BAG_FALSE,
    R_CAUGHT,
    R_INFORMS,
    R_NEXT_DECISIONS,
    R_OFF_SEARCH,
    R_TRUTHFUL,
    RECEIVE,
)
from smuggle_envs.games.smuggle.vocab import NUM_SEARCH_RECORDS as NUM_RECORDS

if TYPE_CHECKING:
    from smuggle_envs.games.smuggle.game import SmuggleGame


ENV_ID = "smuggle_v0"
"""The game this bot plays: ``agents.rule`` files ``AGENT`` under it."""


class SmuggleRuleAgent(RuleAgent):
    """Expected-value rules over public records; see the module docstring."""

    name = "rule"
    env_id = ENV_ID

    def __init__(
        self,
        game: SmuggleGame,
        seed: int | None = None,
        *,
        risk: float = 1.0,
        bluff_rate: float = 0.1,
        false_bag_rate: float = 0.03,
        false_bag_min_duty: int = 300,
        empty_caution: float = 0.5,
        liar_empty_share: float = 0.6,
        max_empty_ratio: float = 4.0,
        min_items_ratio: float = 0.75,
        prior_lie: float = 0.15,
        prior_search: float = 0.2,
        prior_weight: float = 3.0,
        inherit_weight: float = 1.0,
        search_noise: float = 0.0,
    ) -> None:
        super().__init__(game, seed)
        self.risk, self.bluff_rate = risk, bluff_rate
        self.false_bag_rate, self.false_bag_min_duty = false_bag_rate, false_bag_min_duty
        self.empty_caution, self.liar_empty_share = empty_caution, liar_empty_share
        self.prior_lie, self.max_empty_ratio = prior_lie, max_empty_ratio
        self.min_items_ratio = min_items_ratio
        self.prior_search, self.prior_weight = prior_search, prior_weight
        self.inherit_weight, self.search_noise = inherit_weight, search_noise

        d = game.data
        self.duties = tuple(d.duties)
        self.fines = tuple(d.fines) + (0, 0)  # the Bag and luggage carry no fine
        self.kind_counts = tuple(game.kind_counts)  # cards of each kind in the pack
        self.defamation = d.defamation  # 200 to a truthful searched player
        self.reward = d.informer_reward  # 100 to a successful Informer
        self.false_bag_fine = d.false_bag_fine  # 200 extra for a false Bag claim
        self.max_declared_duty = max(game.declared_duty)
        # Duty per unit of fine over the pack's items (1/2 with the packaged data): turns
        # expected fines on a hand into the duty its next holder would owe.
        self.duty_per_fine = sum(d.duties) / sum(d.fines)
        # Discard preference: the Bag (forced anyway), items by falling fine, luggage last.
        self._discard_order = (BAG, *sorted(range(NUM_ITEMS), key=lambda k: -self.fines[k]), LUGGAGE)
        # How ``_Obs`` reads the observation, worked out once here rather than per decision:
        # where each piece starts (a seat's entry of a piece is read by index), each count of the
        # search record as a column over the seats, the decoders of the suitcase's counts (each
        # kind scaled by its cards in the pack) and the table of the hand-scaled pieces.
        self._at: dict[str, int] = {name: piece.start for name, piece in self._slices.items()}
        records = self._slices["search_record"]
        self._record_columns = tuple(slice(records.start + f, records.stop, NUM_RECORDS) for f in range(NUM_RECORDS))
        self._suitcase_counts = tuple(_Counts(n) for n in self.kind_counts)
        self._hand_pieces = _hand_pieces()
        # The declarations worth pricing for each hand of items met so far (``_hand_plan``).
        self._plans: dict[tuple[int, ...], _HandPlan] = {}

    # ----- Agent protocol ----------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = _Obs(self, observation)
        phase = obs.phase
        if phase == DECLARE:
            action = self._declare(obs)
        elif phase == OFFICER:
            action = self._officer(obs)
        elif phase == RECEIVE:
            action = self._receive(obs)
        elif phase == DISCARD:
            action = self._discard(obs, action_mask)
        else:
            action = -1
        if 0 <= action < len(action_mask) and action_mask[action]:
            return action
        # Only reached if the observation and the mask disagree (e.g. a hand-built test):
        # never play an illegal move, fall back to the first legal one.
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask has no legal action: this agent is not to act")
        return int(legal[0])

    # ----- shared estimates ----------------------------------------------------------------
    def _rate(self, hits: float, trials: float, prior: float) -> float:
        """A rate with a Beta prior worth ``prior_weight`` observations (never 0 or 1)."""
        w = self.prior_weight
        return (hits + prior * w) / (max(trials, hits) + w)

    def _officer_search_rate(self, obs: _Obs) -> float:
        """How often the current Officer searched the declarations he judged this round.

        Each seat is Officer once, so his ``officer_searches`` all fall in this round. The
        judged declarations are not counted anywhere, but the open suitcase holds 4 cards per
        search and 1 per accepted hand, so judged = suitcase - 3 * searches (informs included;
        the informs of this round are estimated as a share of all informs so far).
        """
        searches = obs.record(obs.officer, R_OFF_SEARCH)
        informs = sum(obs.record_column(R_INFORMS))
        progress = 1.0 - obs.deck_left
        informs_now = informs * progress / (obs.rounds_done + progress) if progress > 0 else 0.0
        judged = max(searches, sum(obs.suitcase) - 3 * searches - 3 * informs_now)
        return self._rate(searches, judged, self.prior_search)

    def _inform_rate(self, obs: _Obs, seat: int) -> float:
        # Informs over the times the seat decided as next player (accept or inform).
        return self._rate(obs.record(seat, R_INFORMS), obs.record(seat, R_NEXT_DECISIONS), self.prior_search)

    def _lie_prior(self, obs: _Obs, seat: int) -> float:
        """Probability that ``seat`` lies, from the searches so far and his declared duty.

        The table's record (all seats' catches and truthful searches) sets the base rate, so a
        table of bluffers is searched more; the seat's own record then moves away from it.
        """
        caught, truthful = obs.record_column(R_CAUGHT), obs.record_column(R_TRUTHFUL)
        all_caught = sum(caught)
        base = self._rate(all_caught, all_caught + sum(truthful), self.prior_lie)
        p = self._rate(caught[seat], caught[seat] + truthful[seat], base)
        # A seat that keeps declaring much less than an average hand holds is probably hiding
        # items; nudge (not decide) with it, as honest players also declare little at times.
        if obs.declarations(seat) >= 3:
            typical = HAND_SIZE * obs.pool.mean_duty
            if typical > 0:
                shortfall = max(0.0, 1.0 - obs.mean_declared_duty(seat) / typical)
                p += (1.0 - p) * 0.2 * shortfall
        return p

    def _lie_probability(self, obs: _Obs, declared: Sequence[int], known: Sequence[int]) -> float:
        """P(the live declaration is a lie), for the Officer or the next player."""
        # Cards I passed that are still in the hand settle it when they contradict the claim:
        # an undeclared item I know is there, or more items declared than unknown cards left.
        known_items = known[:NUM_ITEMS]
        unknown = HAND_SIZE - sum(known)
        if any(map(gt, known_items, declared)) or sum(declared) - sum(known_items) > unknown:
            return 1.0
        p = self._lie_prior(obs, obs.holder)
        if any(known_items):
            return p  # known items were declared: not "nothing"
        # Bayes on the declaration: "nothing" is honest only if every unknown card is luggage
        # (or the Bag), which is rare, while it is what most smugglers say; declaring some
        # items is correspondingly less suspicious. Both likelihood ratios are capped.
        honest_empty = min(0.9, max(0.02, obs.pool.plain**unknown))
        if any(declared):
            ratio = max(self.min_items_ratio, (1.0 - self.liar_empty_share) / (1.0 - honest_empty))
        else:
            ratio = min(self.max_empty_ratio, self.liar_empty_share / honest_empty)
        odds = p / (1.0 - p) * ratio
        return odds / (1.0 + odds)

    def _hand_fines_if_lying(self, obs: _Obs, declared: Sequence[int], known: Sequence[int]) -> float:
        """Expected fines on the live hand given that its declaration is a lie."""
        unknown = HAND_SIZE - sum(known)
        pool = obs.pool
        # (``self.fines`` has a 0 for the Bag and luggage: every known card can be priced.)
        fines: float = sum(map(mul, known, self.fines)) + unknown * pool.mean_fine
        if not any(declared) and not any(known[:NUM_ITEMS]):
            # "Nothing" is a lie only if some unknown card is an item: condition on that.
            fines /= max(0.05, 1.0 - pool.plain**unknown)
        return fines

    # ----- holder: declare -------------------------------------------------------------------
    def _declare(self, obs: _Obs) -> int:
        hand = obs.my_hand
        if hand[BAG]:
            return A.CLAIM_BAG  # truthful and immune: pays nothing, ever
        honest, duty, fines, bluffs = self._hand_plan(hand[:NUM_ITEMS])
        if not bluffs:
            return honest  # nothing to hide: a search pays us 200

        # Chance of a search: the Officer now, or (if he lets it pass) the next player.
        p_officer = self._officer_search_rate(obs)
        p_inform = self._inform_rate(obs, obs.next_player_after(0))
        caught = p_officer + (1.0 - p_officer) * p_inform
        caught_empty = min(1.0, caught * (1.0 + self.empty_caution))

        # Honest: pay the duty; a search of a truthful hand pays us the defamation money.
        best_value, best_action = -duty + self.defamation * caught, honest
        # Bluffs: declare only the k cheapest items (k = 0: nothing) and hide the rest.
        for k, (declared_duty, bluff) in enumerate(bluffs):
            p_caught = caught if k else caught_empty
            value = -(1.0 - p_officer) * declared_duty - self.risk * fines * p_caught
            if value > best_value:
                best_value, best_action = value, bluff

        # A false Bag claim now and then, when the hand is expensive and the Bag is not known
        # to be face up in the suitcase (that claim would be a certain, public lie).
        if duty >= self.false_bag_min_duty and not obs.suitcase[BAG] and self.rng.random() < self.false_bag_rate:
            return A.CLAIM_BAG
        # Mixed strategy: an always-honest player would never be worth searching.
        if best_action == honest and self.rng.random() < self.bluff_rate:
            return _NOTHING
        return best_action

    def _hand_plan(self, items_held: tuple[int, ...]) -> _HandPlan:
        """What ``_declare`` prices for a hand holding ``items_held`` (a count per item): the
        honest declaration, the hand's duty and fines, and the bluffs as (declared duty, action)
        for k = 0 (nothing) up to all but one of the cheapest items declared. They depend on the
        hand alone, so each is worked out once per hand (at most 495 of them) and kept."""
        plan = self._plans.get(items_held)
        if plan is None:
            honest = A.declare(items_held)
            # The dutiable cards, cheapest first: bluffs hide the expensive ones.
            items = sorted((k for k in range(NUM_ITEMS) for _ in range(items_held[k])), key=self.duties.__getitem__)
            bluffs = []
            counts, declared_duty = [0] * NUM_ITEMS, 0
            for item in items:
                bluffs.append((declared_duty, A.declare(counts)))
                counts[item] += 1
                declared_duty += self.duties[item]
            duty, fines = declared_duty, sum(self.fines[k] for k in items)
            plan = self._plans[items_held] = _HandPlan(honest, duty, fines, tuple(bluffs))
        return plan

    # ----- Officer: search or let pass ---------------------------------------------------------
    def _officer(self, obs: _Obs) -> int:
        # The suitcase holds every card laid open this round, the last search included (an
        # older ``last_reveal`` is from a pack since reshuffled, so it proves nothing).
        if obs.bag_claim and obs.suitcase[BAG]:
            return A.SEARCH  # the Bag is face up: a certain lie
        if obs.bag_claim:
            search = self._challenge_bag(obs, known=[0] * NUM_KINDS, gain_if_false=None)
        else:
            declared = obs.declaration
            duty = sum(map(mul, declared, self.duties))
            no_known = [0] * NUM_KINDS
            p_lie = self._lie_probability(obs, declared, no_known)
            fines = self._hand_fines_if_lying(obs, declared, no_known)
            p_inform = self._inform_rate(obs, obs.next_player_after(obs.holder))
            # Search: a liar pays me his fines; a truthful holder pays duty, I pay him 200.
            search_value = p_lie * fines + (1.0 - p_lie) * (duty - self.defamation)
            # Pass: the declared duty is mine; an Informer may still catch a liar (fines to
            # me, 100 from me to him).
            pass_value = duty + p_inform * p_lie * (fines - self.reward)
            search = search_value > pass_value
        if self.search_noise and self.rng.random() < self.search_noise:
            search = not search  # optional unpredictability (uncertain cases only)
        return A.SEARCH if search else A.LET_PASS

    def _challenge_bag(self, obs: _Obs, known: Sequence[int], gain_if_false: float | None) -> bool:
        """Whether to challenge a Diplomatic Bag claim (as Officer or next player)."""
        unknown = HAND_SIZE - sum(known)
        pool = obs.pool
        p_has_bag = min(1.0, unknown / max(1, pool.size))  # the Bag is somewhere among the unseen cards
        # How readily this seat claims the Bag without it: caught false claims over all his
        # declarations, with a small prior.
        seat = obs.holder
        claim_rate = self._rate(obs.record(seat, R_BAG_FALSE), obs.declarations(seat), 0.03)
        p_real = p_has_bag / (p_has_bag + (1.0 - p_has_bag) * claim_rate)
        fines = unknown * pool.mean_fine + sum(map(mul, known, self.fines))
        if gain_if_false is None:  # Officer: he collects 200 + all the fines
            gain_if_false = self.false_bag_fine + fines
        return (1.0 - p_real) * gain_if_false > p_real * self.defamation

    # ----- next player: accept or inform -------------------------------------------------------
    def _receive(self, obs: _Obs) -> int:
        known = obs.known_in_hand
        if obs.bag_claim and obs.suitcase[BAG]:
            return A.INFORM  # the Bag is face up: a sure catch
        if obs.bag_claim:
            # Informing on a false claim earns the 100 reward (the fines go to the Officer);
            # on a real Bag it costs the 200 defamation money.
            inform = self._challenge_bag(obs, known, gain_if_false=self.reward)
        else:
            declared = obs.declaration
            p_lie = self._lie_probability(obs, declared, known)
            if p_lie >= 1.0:
                return A.INFORM  # a sure catch: 100 and a fresh hand
            # Informing: +100 from the Officer on a liar, -200 to a truthful holder.
            inform_value = p_lie * self.reward - (1.0 - p_lie) * self.defamation
            # Accepting also means holding this hand next (less the card I discard, plus one
            # drawn), while an Informer draws a fresh hand: compare the duty each would owe.
            # A truthful hand holds what was declared; a lying one holds more than that.
            mean_duty = obs.pool.mean_duty
            top = max([d for n, d in zip(declared, self.duties) if n], default=0)
            truthful_duty = sum(map(mul, declared, self.duties)) - top + mean_duty
            lying_duty = (
                0.75 * self.duty_per_fine * self._hand_fines_if_lying(obs, declared, known) + mean_duty
            )  # about a quarter of it goes with my discard
            extra_duty = p_lie * lying_duty + (1.0 - p_lie) * truthful_duty - HAND_SIZE * mean_duty
            inform = inform_value + self.inherit_weight * extra_duty > 0.0
        if self.search_noise and self.rng.random() < self.search_noise:
            inform = not inform
        return A.INFORM if inform else A.ACCEPT

    # ----- new holder: discard one card ----------------------------------------------------
    def _discard(self, obs: _Obs, mask: np.ndarray) -> int:
        # Items only ever cost money (duty or fines) and a hand of luggage declared as nothing
        # is safe and earns 200 when searched, so shed the most heavily fined item; luggage
        # only when there is no item. The Bag is forced by the mask (rule 15).
        hand = obs.my_hand
        for kind in self._discard_order:
            if hand[kind] and mask[A.DISCARD + kind]:
                return A.DISCARD + kind
        return -1


_T = TypeVar("_T")


class _once(Generic[_T]):
    """``functools.cached_property`` without its lock: Python 3.11's takes a lock on every first
    access, a sixth of this bot's time per decision (an ``_Obs`` lives for one decision, in one
    thread). Computed on first access, then read from the instance's ``__dict__``."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self.compute, self.name = compute, compute.__name__

    def __get__(self, obs: Any, owner: type | None = None) -> _T:
        value = obs.__dict__[self.name] = self.compute(obs)
        return value


class _Counts(dict[float, int]):
    """Decodes one entry ``x`` of a count piece (written as count / ``scale``) back to the count,
    ``round(x * scale)``. The values an encoder writes (0 / scale .. scale / scale, as float32 or
    float64) are looked up, which is 2 times faster than calling ``round``; any other value is
    computed by ``__missing__``, so the result is the same for every observation."""

    def __init__(self, scale: int) -> None:
        super().__init__()
        self.scale = scale
        for count in range(scale + 1):
            for x in (count / scale, float(np.float32(count / scale))):
                self[x] = round(x * scale)

    def __missing__(self, x: float) -> int:
        return round(x * self.scale)


class _Pool(NamedTuple):
    """The unseen pool: cards neither face up in the suitcase nor in my hand (nor, for the next
    player, among the cards he knows are in the live hand). Its averages price unknown cards."""

    size: int
    mean_fine: float
    mean_duty: float
    plain: float  # share that is not dutiable (luggage or the Bag)


class _HandPlan(NamedTuple):
    """What a holder can declare with one hand of items (``SmuggleRuleAgent._hand_plan``)."""

    honest: int  # the action declaring every item
    duty: int  # the duty on every item
    fines: int  # the fines on every item
    bluffs: tuple[tuple[int, int], ...]  # (declared duty, action), k cheapest items declared


class _Obs:
    """The pieces the bot uses, decoded from one observation on first use (counts back to
    integers, scaled counts back to counts). The bot decides in every step of a self-play
    rollout, so the decoding is kept lean: the observation is read in place, a piece read for one
    seat only (records, declarations) is read entry by entry, and counts are looked up rather
    than rounded, with results equal to plain decoding for every observation."""

    def __init__(self, bot: SmuggleRuleAgent, observation: np.ndarray) -> None:
        self.bot = bot
        self.s, self.at = bot._slices, bot._at
        # Read in place: each entry read becomes a Python float, as ``tolist()`` would make it, but
        # only the few dozen entries a decision reads are converted (not all 150 of them).
        self.raw = observation.data  # its bytes key the look-up of hand-scaled pieces
        self.v: Sequence[float] = self.raw
        self.phase = _seat(self.v[self.s["phase"]])

    @_once
    def officer(self) -> int:
        return _seat(self.v[self.s["officer"]])

    @_once
    def holder(self) -> int:
        return _seat(self.v[self.s["holder"]])

    @_once
    def suitcase(self) -> list[int]:
        return list(map(dict.__getitem__, self.bot._suitcase_counts, self.v[self.s["suitcase"]]))

    @property
    def deck_left(self) -> float:
        """Share of the pack not drawn yet this round."""
        return self.v[self.at["deck"]]

    @property
    def rounds_done(self) -> int:
        return round(self.v[self.at["round"]] * self.bot.n)

    def declarations(self, seat: int) -> float:
        """How many declarations ``seat`` has made."""
        return self.v[self.at["declarations"] + seat] * COUNT_UNIT

    def mean_declared_duty(self, seat: int) -> float:
        return self.v[self.at["mean_declared_duty"] + seat] * self.bot.max_declared_duty

    def record(self, seat: int, field: int) -> float:
        """One count of ``seat``'s public search record (``field``: an R_* constant)."""
        return self.v[self.at["search_record"] + seat * NUM_RECORDS + field] * COUNT_UNIT

    def record_column(self, field: int) -> list[float]:
        """One count of the public search record for every seat."""
        return [x * COUNT_UNIT for x in self.v[self.bot._record_columns[field]]]

    def _counts(self, name: str) -> tuple[int, ...]:
        """A piece of card counts scaled by HAND_SIZE, looked up whole (see ``_hand_pieces``)."""
        piece = self.s[name]
        counts = self.bot._hand_pieces.get(self.raw[piece].tobytes())
        return counts if counts is not None else _hand_counts(self.v[piece])

    @_once
    def my_hand(self) -> tuple[int, ...]:
        return self._counts("my_hand")

    @_once
    def known_in_hand(self) -> tuple[int, ...]:
        return self._counts("known_in_hand")

    @_once
    def declaration(self) -> tuple[int, ...]:
        return self._counts("declaration")

    @property
    def bag_claim(self) -> bool:
        return self.v[self.at["bag_claim"]] > 0.5

    def next_player_after(self, seat: int) -> int:
        """The seat that receives a hand passed by ``seat``: next active, not the Officer."""
        n, officer = self.bot.n, self.officer
        active = self.v[self.s["active"]]  # 1.0 for a seat still in the game
        for step in range(1, n + 1):
            s = (seat + step) % n
            if active[s] > 0.5 and s != officer:
                return s
        return seat

    @_once
    def pool(self) -> _Pool:
        """The unseen pool (``_Pool``): the pack less the suitcase and the cards I hold or know."""
        bot = self.bot
        mine = self.my_hand if self.phase in (DECLARE, DISCARD) else self.known_in_hand
        unseen = list(map(sub, map(sub, bot.kind_counts, self.suitcase), mine))  # pack - suitcase - mine
        if min(unseen) < 0:  # only in an inconsistent (hand-built) observation
            unseen = [max(0, n) for n in unseen]
        size = sum(unseen)
        if size == 0:
            return _Pool(0, 0.0, 0.0, 1.0)
        # Integer sums (the Bag and luggage carry neither fine nor duty), then one division.
        fine, duty = sum(map(mul, unseen, bot.fines)), sum(map(mul, unseen, bot.duties))
        return _Pool(size, fine / size, duty / size, (unseen[BAG] + unseen[LUGGAGE]) / size)


def _hand_counts(piece: Sequence[float]) -> tuple[int, ...]:
    """The card counts of a piece written as count / HAND_SIZE per kind."""
    return tuple([round(x * HAND_SIZE) for x in piece])


@cache
def _hand_pieces() -> dict[bytes, tuple[int, ...]]:
    """The counts of every hand-scaled piece (10 kinds: ``my_hand``, ``known_in_hand``; 8 items:
    ``declaration``) that up to HAND_SIZE + 1 cards (the discarder's) can write, keyed by the
    piece's bytes as the encoder writes it (float32): one look-up decodes a piece 4 times faster
    than ``_hand_counts``. Each value is decoded from its own key, so a look-up gives exactly
    what decoding would; any other piece (another dtype, say) is decoded."""
    table = {}
    for kinds in (NUM_KINDS, NUM_ITEMS):  # different lengths: their keys never collide
        for size in range(HAND_SIZE + 2):
            for cards in combinations_with_replacement(range(kinds), size):
                piece = np.bincount(cards, minlength=kinds).astype(np.float32) / np.float32(HAND_SIZE)
                table[piece.tobytes()] = _hand_counts(piece.tolist())
    return table


def _seat(one_hot: Sequence[float]) -> int:
    """Where a one-hot piece holds its 1 (-1 where it holds none)."""
    values = list(one_hot)
    return values.index(1.0) if 1.0 in values else -1


_NOTHING = A.declare([0] * NUM_ITEMS)
"""The declaration of no item at all."""

AGENT = SmuggleRuleAgent
"""The rule bot of ``ENV_ID``, built as ``AGENT(game, seed=seed)`` by ``make_agent("rule", game)``."""
