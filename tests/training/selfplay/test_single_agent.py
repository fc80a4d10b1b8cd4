"""The single-agent view (``SelfPlayEnv``): reward attribution, masks, seat randomisation,
hidden information, seeding, exact save/restore, truncation.

Reward attribution is checked on a tiny scripted game (``ToyGame``) where we choose who wins,
and on Smuggle against the engine's own ``returns``.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import numpy as np
import pytest

from smuggle_envs import make_game
from smuggle_envs.core.errors import ConfigError, GameOverError, IllegalActionError
from smuggle_envs.core.game import TERMINAL, Game, GameConfig, State
from smuggle_envs.core.layout import ObservationLayout, Piece
from training.selfplay.single_agent import SelfPlayEnv


# ----- a tiny scripted game ------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ToyConfig(GameConfig):
    """``order[i]`` is the seat that makes decision i; the game ends after ``len(order)``."""

    num_players: int = 3
    order: tuple = (0, 1, 2, 0, 1, 2)


class ToyGame(Game):
    """Each decision adds 0-3 points to the decider; most points wins. Each seat holds a secret
    card (0-3) it may not play as a number: the mask differs by seat, and the secret is hidden
    information (in the observation of its owner only)."""

    env_id = "toy_v0"
    config_class = ToyConfig
    min_players, max_players = 2, 6

    @property
    def num_actions(self) -> int:
        return 4

    @property
    def observation_layout(self) -> ObservationLayout:
        n = self.num_players
        return ObservationLayout(
            [
                Piece("secret", 4, "my secret card, one-hot"),
                Piece("points", n, "points / 10, seat-relative", 0.0, 10.0),
                Piece("turn", 1, "decisions made / all"),
            ]
        )

    def new_initial_state(self, seed=None) -> ToyState:
        return ToyState(self, seed)

    def action_to_string(self, action: int) -> str:
        return f"+{action}"


class ToyState(State):
    def __init__(self, game: ToyGame, seed):
        super().__init__(game, seed)
        self.secrets = [self.rng.randrange(4) for _ in range(game.num_players)]
        self.points = [0] * game.num_players

    def current_player(self) -> int:
        order = self.game.config.order
        return order[len(self.history)] if len(self.history) < len(order) else TERMINAL

    def legal_actions(self):
        if self.is_terminal():
            return ()
        secret = self.secrets[self.current_player()]
        return tuple(a for a in range(4) if a != secret)

    def is_terminal(self) -> bool:
        return len(self.history) >= len(self.game.config.order)

    def scores(self):
        return [float(p) for p in self.points]

    def _observation(self, player: int) -> np.ndarray:
        n = self.game.num_players
        obs = np.zeros(self.game.observation_layout.size, np.float32)
        obs[self.secrets[player]] = 1.0
        for i in range(n):
            obs[4 + i] = self.points[(player + i) % n] / 10
        obs[4 + n] = len(self.history) / len(self.game.config.order)
        return obs

    def clone(self) -> ToyState:
        twin = ToyState.__new__(ToyState)
        twin.__dict__.update(self.__dict__)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.history, twin.points, twin.secrets = list(self.history), list(self.points), list(self.secrets)
        return twin

    def _resample(self, player: int, rng: random.Random) -> ToyState:
        twin = self.clone()
        twin.secrets = [s if p == player else rng.randrange(4) for p, s in enumerate(self.secrets)]
        return twin

    def _render(self, player=None) -> str:
        return f"points {self.points}"

    def _apply(self, action: int) -> None:
        self.points[self.current_player()] += action


class Scripted:
    """Plays ``action`` when legal, else the largest legal action; counts its calls."""

    def __init__(self, action: int):
        self.action, self.calls = action, 0

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, mask) -> int:
        self.calls += 1
        return self.action if mask[self.action] else int(np.flatnonzero(mask)[-1])


def _toy_env(order=(0, 1, 2, 0, 1, 2), n=None, pool=None, **kwargs) -> SelfPlayEnv:
    """A toy env; pool entry specs are the number a ``Scripted`` opponent plays."""
    game = ToyGame(num_players=n or max(order) + 1, order=order)
    pool = pool or [(f"plays{a}", str(a)) for a in range(4)]
    return SelfPlayEnv(game, pool=pool, agent_factory=lambda spec, game, seed: Scripted(int(spec)), **kwargs)


def _play_toy(env: SelfPlayEnv, learner_action: int, seed: int):
    """Reset, force each opponent seat's script, play the learner's action; the rewards seen."""
    env.reset(seed=seed)
    rewards = []
    while True:
        mask = env.action_masks()
        action = learner_action if mask[learner_action] else int(np.flatnonzero(mask)[-1])
        _, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        if terminated or truncated:
            return rewards, info


# ----- reward attribution ---------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["win_loss", "rank", "score"])
def test_reward_is_the_learners_own_return_whoever_wins(mode):
    """Opponents all play 3 (or 0); the learner plays 0 (or 3): another seat wins, or the learner
    does. Over random seats, the reward is always ``returns(mode)[learner seat]``, paid once,
    at the end, although an opponent makes the last move whenever the learner is not seat 2."""
    seen_seats, seen_outcomes = set(), set()
    for opp_action, my_action in ((3, 0), (0, 3), (2, 2)):
        env = SelfPlayEnv(
            ToyGame(num_players=3),
            pool=[("s", str(opp_action))],
            agent_factory=lambda spec, game, seed: Scripted(int(spec)),
            reward_mode=mode,
        )
        for seed in range(30):
            rewards, info = _play_toy(env, my_action, seed)
            state, seat = env.state, env.seat
            assert state.is_terminal()
            expected = state.returns(mode)[seat]
            assert rewards[-1] == pytest.approx(expected)
            assert all(r == 0.0 for r in rewards[:-1])
            assert len(rewards) == 2  # the learner's two decisions
            scores = state.scores()
            top = max(scores)
            if mode == "win_loss":
                assert rewards[-1] == (1.0 if scores[seat] == top else -1.0)
            seen_seats.add(seat)
            seen_outcomes.add((scores[seat] == top, scores.count(top)))
            assert info["selfplay"]["seat"] == seat and info["selfplay"]["scores"] == scores
    assert seen_seats == {0, 1, 2}
    assert {(True, 1), (False, 1)} <= seen_outcomes  # learner won alone, another seat won


def test_a_different_winner_gives_the_learner_a_loss_not_the_winners_reward():
    # Seat 0 is the learner; seat 1 always plays 3 and makes the final move; seat 2 plays 0.
    env = SelfPlayEnv(
        ToyGame(num_players=3, order=(0, 2, 1)),
        pool=[("a", "3"), ("b", "0")],
        agent_factory=lambda spec, game, seed: Scripted(int(spec)),
        learner_seat=0,
    )
    losses = 0
    for seed in range(40):
        env.reset(seed=seed)
        if env.specs[1] != "3" or env.specs[2] != "0":
            continue
        _, reward, terminated, _, _ = env.step(0 if env.action_masks()[0] else 1)
        assert terminated
        returns = env.state.returns("win_loss")
        assert reward == returns[0]
        assert returns[1] == 1.0 and reward == -1.0  # seat 1 won, the last mover
        losses += 1
    assert losses > 3


def test_smuggle_rewards_match_the_engine_returns_for_every_seat():
    env = SelfPlayEnv(
        "smuggle_v0", {"num_players": 4}, pool=[("random", "random"), ("rule", "rule")], reward_mode="score"
    )
    rng = np.random.default_rng(0)
    seats = Counter()
    for seed in range(12):
        env.reset(seed=seed)
        total, steps = 0.0, 0
        while True:
            mask = env.action_masks()
            _, reward, terminated, truncated, _info = env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            if not (terminated or truncated):
                assert reward == 0.0
            total += reward
            if terminated:
                break
        returns = env.state.returns("score")
        assert total == pytest.approx(returns[env.seat])
        assert total != pytest.approx(returns[(env.seat + 1) % 4])  # not a neighbour's money
        seats[env.seat] += 1
        assert steps == _deciders(env).count(env.seat)  # one step per learner decision
    assert len(seats) >= 3


def _deciders(env: SelfPlayEnv) -> list[int]:
    """Who made each decision of the finished game (replayed from its seed)."""
    replay = env.state.to_replay()
    state = env.game.new_initial_state(replay.seed)
    out = []
    for a in replay.actions:
        out.append(state.current_player())
        state.apply_action(a)
    return out


# ----- masks and observations -----------------------------------------------------------------------
def test_masks_and_observations_are_the_learners():
    env = SelfPlayEnv("smuggle_v0", {"num_players": 4}, pool=[("random", "random")])
    game = env.game
    assert env.observation_space.shape == (game.observation_layout.size,)
    assert env.observation_space.dtype == np.float32
    assert env.action_space.n == game.num_actions
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(1)
    kinds_of_masks = set()
    for _ in range(150):
        state = env.state
        assert state.current_player() == env.seat
        np.testing.assert_array_equal(obs, state.observation(env.seat))
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (game.num_actions,)
        np.testing.assert_array_equal(mask, state.legal_action_mask().astype(bool))
        assert set(np.flatnonzero(mask)) == set(state.legal_actions())
        kinds_of_masks.add(int(mask.sum()))
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated:
            assert not env.action_masks().any()
            obs, _ = env.reset()
    assert len(kinds_of_masks) >= 3  # declare (496), officer/receive (2), discards


def test_illegal_learner_action_raises_and_changes_nothing():
    env = _toy_env()
    env.reset(seed=0)
    secret = env.state.secrets[env.seat]
    before = list(env.state.history)
    with pytest.raises(IllegalActionError):
        env.step(secret)
    assert env.state.history == before


def test_sb3_masking_support_and_gymnasium_checker():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    env = SelfPlayEnv("smuggle_v0", {"num_players": 3})
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and isinstance(info, dict)
    venv = DummyVecEnv([lambda: SelfPlayEnv("smuggle_v0", {"num_players": 5})] * 2)
    venv.seed(0)
    venv.reset()
    assert is_masking_supported(venv)
    masks = get_action_masks(venv)
    assert masks.shape == (2, venv.action_space.n) and masks.dtype == bool
    for i, env in enumerate(venv.envs):
        np.testing.assert_array_equal(masks[i], env.state.legal_action_mask().astype(bool))


# ----- seats and seeds --------------------------------------------------------------------------------
def test_seats_are_randomised_and_seeded():
    env = SelfPlayEnv("smuggle_v0", {"num_players": 4})
    seats = []
    for seed in range(200):
        env.reset(seed=seed)
        seats.append(env.seat)
    counts = Counter(seats)
    assert set(counts) == {0, 1, 2, 3}
    assert min(counts.values()) >= 30  # about 50 each
    again = SelfPlayEnv("smuggle_v0", {"num_players": 4})
    for seed in range(0, 200, 17):
        obs, _ = again.reset(seed=seed)
        assert again.seat == seats[seed]
        env.reset(seed=seed)
        np.testing.assert_array_equal(obs, env.state.observation(env.seat))
        assert again.state.to_replay().seed == env.state.to_replay().seed
    # Unseeded resets continue the seeded stream: the seat sequence is reproducible too.
    a, b = SelfPlayEnv("smuggle_v0"), SelfPlayEnv("smuggle_v0")
    a.reset(seed=5)
    b.reset(seed=5)
    assert [a.reset()[0].tolist() + [a.seat] for _ in range(5)] == [b.reset()[0].tolist() + [b.seat] for _ in range(5)]


def test_learner_seat_can_be_fixed_and_opponents_follow_the_pool_weights():
    env = SelfPlayEnv(
        "smuggle_v0", {"num_players": 4}, pool=[("a", "random"), ("b", "rule")], weights=[3, 1], learner_seat=2
    )
    ids = Counter()
    for seed in range(100):
        env.reset(seed=seed)
        assert env.seat == 2 and env.opponent_ids[2] is None
        ids.update(i for i in env.opponent_ids if i is not None)
    assert 0.65 < ids["a"] / (ids["a"] + ids["b"]) < 0.85  # 3:1
    env.set_pool([("b", "rule")])
    env.reset(seed=0)
    assert [i for i in env.opponent_ids if i] == ["b", "b", "b"]
    with pytest.raises(ConfigError):
        env.set_pool([])
    with pytest.raises(ConfigError):
        env.set_pool([("a", "random")], [-1])


def test_mixed_tables_seat_the_rule_bot_and_the_random_agent_in_turn():
    pool, weights = [("rule", "rule"), ("random", "random"), ("snap", "random")], [0, 0, 1]
    env = SelfPlayEnv("smuggle_v0", {"num_players": 4}, pool=pool, weights=weights, mixed_tables=1.0)
    for seed in range(20):
        env.reset(seed=seed)
        seat = env.seat
        after = [env.opponent_ids[(seat + k) % 4] for k in (1, 2, 3)]
        assert after == ["rule", "random", "rule"]  # from the seat after the learner's
    plain = SelfPlayEnv("smuggle_v0", {"num_players": 4}, pool=pool, weights=weights)
    plain.reset(seed=0)
    assert [i for i in plain.opponent_ids if i] == ["snap"] * 3  # per-seat draws: the weights
    half = SelfPlayEnv("smuggle_v0", {"num_players": 4}, pool=pool, weights=weights, mixed_tables=0.5)
    mixed = 0
    for seed in range(80):
        half.reset(seed=seed)
        mixed += "rule" in half.opponent_ids
    assert 24 < mixed < 56
    no_random = SelfPlayEnv(
        "smuggle_v0", {"num_players": 4}, pool=[("rule", "rule"), ("snap", "random")], weights=[0, 1], mixed_tables=1.0
    )
    no_random.reset(seed=0)
    assert [i for i in no_random.opponent_ids if i] == ["snap"] * 3  # no random agent in the pool: a normal draw
    with pytest.raises(ConfigError, match="mixed_tables"):
        SelfPlayEnv("smuggle_v0", {"num_players": 4}, mixed_tables=1.5)


# ----- hidden information ---------------------------------------------------------------------------
class Spy:
    """An opponent that checks every observation it is given against the engine, then plays
    randomly."""

    def __init__(self, env_ref: list, rng_seed: int = 0):
        self.env_ref = env_ref
        self.rng = random.Random(rng_seed)
        self.calls = 0
        self.saw_learner_holding = 0

    def reset(self, seed=None):
        pass

    def act(self, observation, mask):
        env = self.env_ref[0]
        state = env.state
        me = state.current_player()
        assert me != env.seat
        # Exactly its own observation and mask, nothing else...
        np.testing.assert_array_equal(observation, state.observation(me))
        np.testing.assert_array_equal(mask, state.legal_action_mask())
        # ... which carries nothing it may not know: redrawing every card hidden from it
        # (the learner's included) leaves it unchanged.
        twin = state.resample(me, random.Random(self.calls))
        np.testing.assert_array_equal(observation, twin.observation(me))
        if env.game.env_id == "smuggle_v0" and getattr(state, "holder", None) == env.seat:
            # The learner holds the live hand: the spy's own-hand piece shows nothing of it.
            layout = env.game.observation_layout
            assert not layout.get(observation, "my_hand").any()
            self.saw_learner_holding += 1
        self.calls += 1
        return int(self.rng.choice(list(np.flatnonzero(mask))))


@pytest.mark.parametrize("env_id", ["smuggle_v0", "toy"])
def test_opponents_only_see_their_own_observation(env_id):
    ref: list = []
    spies: list[Spy] = []

    def factory(spec, game, seed):
        spies.append(Spy(ref, len(spies)))
        return spies[-1]

    game = ToyGame(num_players=3) if env_id == "toy" else make_game(env_id, num_players=4)
    env = SelfPlayEnv(game, pool=[("spy", "spy")], agent_factory=factory)
    ref.append(env)
    rng = np.random.default_rng(0)
    for seed in range(4 if env_id == "smuggle_v0" else 20):
        env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert sum(s.calls for s in spies) > 50
    if env_id == "smuggle_v0":
        assert sum(s.saw_learner_holding for s in spies) > 10
    else:
        # The resample check is not vacuous: resampling redraws the other seats' secrets.
        state = env.state
        assert any(state.resample(0, random.Random(k)).secrets[1:] != state.secrets[1:] for k in range(10))


# ----- truncation, re-deals, errors -------------------------------------------------------------------
def test_max_decisions_truncates_with_zero_reward():
    env = SelfPlayEnv("smuggle_v0", {"num_players": 4}, max_decisions=30)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if truncated:
            assert reward == 0.0 and not terminated and "selfplay" not in info
            assert env.decisions >= 30 and not env.state.is_terminal()
            break
    else:
        pytest.fail("never truncated")


def test_games_over_before_the_learner_acts_are_dealt_again():
    # Seat 2 never decides: a learner dealt seat 2 would have nothing to do, so that deal is
    # replaced. Every reset returns a position where the learner is to act.
    env = _toy_env(order=(0, 1), n=3)
    seats = set()
    for seed in range(30):
        env.reset(seed=seed)
        assert env.state.current_player() == env.seat and not env.state.is_terminal()
        seats.add(env.seat)
    assert seats == {0, 1}
    never = _toy_env(order=(0, 1, 0, 1), n=3, learner_seat=2)
    with pytest.raises(RuntimeError, match="never"):
        never.reset(seed=0)


def test_step_after_the_end_and_bad_options_raise():
    env = _toy_env(order=(0, 1, 2))
    env.reset(seed=1)
    done = False
    while not done:
        _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(GameOverError):
        env.step(0)
    with pytest.raises(ConfigError):
        SelfPlayEnv("smuggle_v0", reward_mode="money")
    with pytest.raises(ConfigError):
        SelfPlayEnv("smuggle_v0", learner_seat=9)
    with pytest.raises(ConfigError):
        SelfPlayEnv("no_such_game")


# ----- exact save / restore ---------------------------------------------------------------------------
def test_snapshot_restores_the_episode_in_progress_exactly():
    pool = [("random", "random"), ("rule", "rule")]
    a = SelfPlayEnv("smuggle_v0", {"num_players": 4}, pool=pool)
    a.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(25):
        _, _, done, _, _ = a.step(int(rng.choice(np.flatnonzero(a.action_masks()))))
        if done:
            a.reset()
    snap = a.get_snapshot()
    b = SelfPlayEnv("smuggle_v0", {"num_players": 4})
    b.set_snapshot(snap)
    assert b.get_snapshot() == snap
    for _ in range(300):  # through several episodes
        np.testing.assert_array_equal(a._observation(), b._observation())
        np.testing.assert_array_equal(a.action_masks(), b.action_masks())
        action = int(rng.choice(np.flatnonzero(a.action_masks())))
        ra, rb = a.step(action), b.step(action)
        assert ra[1:4] == rb[1:4] and ra[4] == rb[4]
        if ra[2]:
            np.testing.assert_array_equal(a.reset()[0], b.reset()[0])


def test_restore_detects_an_opponent_that_no_longer_plays_the_same():
    # Opponents that play 1 (3 when their secret is 1) restored as ones that play 2 (3 when it
    # is 2): they never agree, and after one learner step the opponents have played.
    env = _toy_env(pool=[("s", "1")])
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    snap = env.get_snapshot()
    other = SelfPlayEnv(env.game, agent_factory=lambda spec, game, seed: Scripted(2))
    with pytest.raises(RuntimeError, match="cannot restore"):
        other.set_snapshot(snap)
    same = _toy_env(pool=[("s", "1")])
    same.set_snapshot(snap)
    assert same.get_snapshot() == snap
