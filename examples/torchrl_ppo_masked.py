"""PPO with action masks in TorchRL on a smuggle_envs PettingZoo AEC env.

TorchRL's own pieces do the work: ``GymWrapper`` over a small single-agent view of the AEC env
(the learner's seat, drawn each game, against random agents; its observation is a dict of the
observation vector and the ``action_mask``), the ``ActionMask`` transform, a ``ProbabilisticActor``
with ``MaskedCategorical`` (illegal actions get probability 0), ``Collector``, ``GAE`` and
``ClipPPOLoss``. After training the policy plays ``--eval-games`` seat-rotated games against random
agents and prints its win rate with a 95% Wilson interval.

    pip install -e ".[torchrl]"
    python examples/torchrl_ppo_masked.py --env-id smuggle_v0 --frames 20000
"""

from __future__ import annotations

import argparse
import math
import random

import gymnasium as gym
import numpy as np
import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.data import LazyTensorStorage, ReplayBuffer, SamplerWithoutReplacement
from torchrl.envs import ActionMask, ExplorationType, GymWrapper, TransformedEnv, set_exploration_type
from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

import smuggle_envs


class LearnerSeat(gym.Env):
    """One seat of a PettingZoo AEC env as a gymnasium env: the other seats play at random. The
    reward is the seat's own result when its game ends (``env.last()``'s cumulative reward)."""

    def __init__(self, env_id: str, players: int, seat: int | None = None):
        self.aec = smuggle_envs.make(env_id, num_players=players)
        self.aec.reset(seed=0)
        first = self.aec.possible_agents[0]
        size, n = self.aec.observation_space(first)["observation"].shape[0], int(self.aec.action_space(first).n)
        self.observation_space = gym.spaces.Dict(
            {
                "observation": gym.spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": gym.spaces.Box(0, 1, (n,), bool),  # booleans: what MaskedCategorical takes
            }
        )
        self.action_space = gym.spaces.Discrete(n)
        self.fixed_seat = seat
        self.rng = random.Random(0)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.rng.seed(seed)
        agents = self.aec.possible_agents
        self.learner = agents[self.fixed_seat] if self.fixed_seat is not None else self.rng.choice(agents)
        self.aec.reset(seed=self.rng.getrandbits(31))
        obs, _reward, _done = self._advance()
        return obs, {}

    def step(self, action):
        self.aec.step(int(action))
        obs, reward, done = self._advance()
        return obs, reward, done, False, {}

    def _advance(self):
        """Let the other seats play until the learner must act or its game is over."""
        for name in self.aec.agent_iter():
            obs, reward, terminated, truncated, _info = self.aec.last()
            if terminated or truncated:
                if name == self.learner:
                    return self._obs(obs), float(reward), True
                self.aec.step(None)
            elif name == self.learner:
                return self._obs(obs), 0.0, False
            else:
                self.aec.step(int(self.rng.choice(np.flatnonzero(obs["action_mask"]))))
        raise RuntimeError("the game ended without the learner's result")

    @staticmethod
    def _obs(obs):
        return {"observation": obs["observation"].astype(np.float32), "action_mask": obs["action_mask"].astype(bool)}


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="smuggle_v0", choices=smuggle_envs.ENV_IDS)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--frames", type=int, default=20_000, help="learner decisions to train on")
    p.add_argument("--frames-per-batch", type=int, default=1000)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch", type=int, default=250)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument(
        "--greedy", action="store_true", help="evaluate the most likely action (default: sample, as in training)"
    )
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    cls = smuggle_envs.game_class(args.env_id)
    if not cls.min_players <= args.players <= cls.max_players:  # one line, before any work
        p.error(f"{args.env_id} takes {cls.min_players} to {cls.max_players} players, got {args.players}")
    return args


def make_env(args, seat: int | None = None) -> TransformedEnv:
    # categorical: actions are indices (as MaskedCategorical samples them), not one-hot vectors
    base = GymWrapper(LearnerSeat(args.env_id, args.players, seat), categorical_action_encoding=True)
    return TransformedEnv(base, ActionMask())


def build(env: TransformedEnv):
    size = env.observation_spec["observation"].shape[-1]
    n = env.action_spec.space.n
    body = nn.Sequential(nn.Linear(size, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(), nn.Linear(128, n))
    actor = ProbabilisticActor(
        TensorDictModule(body, in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"},
        distribution_class=MaskedCategorical,
        spec=env.action_spec,
        return_log_prob=True,
    )
    critic = ValueOperator(
        nn.Sequential(nn.Linear(size, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(), nn.Linear(128, 1)),
        in_keys=["observation"],
    )
    return actor, critic


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def evaluate(args, actor, games: int) -> tuple[float, tuple[float, float]]:
    """Seat-rotated games against random agents; a game is won if the learner's result is positive.
    Actions are sampled by default: any fixed policy, even an untrained network's argmax, already
    beats random agents at Smuggle, while a sampled untrained one plays like them (about 1/N)."""
    mode = ExplorationType.DETERMINISTIC if args.greedy else ExplorationType.RANDOM
    wins = 0
    for seat in range(args.players):
        env = make_env(args, seat)
        for g in range(seat, games, args.players):
            td = env.reset(seed=10_000_000 + g)
            while True:
                with torch.no_grad(), set_exploration_type(mode):
                    td = env.step(actor(td))
                if td["next", "done"].item():
                    wins += td["next", "reward"].item() > 0
                    break
                td = td["next"]
    return wins / games, wilson(wins, games)


def main(argv=None) -> dict:
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # tiny networks: threads cost more than they save
    env = make_env(args)
    env.set_seed(args.seed)
    actor, critic = build(env)
    collector = Collector(
        env,
        actor,
        frames_per_batch=args.frames_per_batch,
        total_frames=args.frames,
        auto_register_policy_transforms=False,  # a feed-forward policy needs no InitTracker
    )
    advantage = GAE(gamma=0.99, lmbda=0.95, value_network=critic)
    loss = ClipPPOLoss(actor, critic, clip_epsilon=0.2, entropy_coeff=0.01)
    optimizer = torch.optim.Adam(loss.parameters(), lr=args.lr)
    buffer = ReplayBuffer(
        storage=LazyTensorStorage(args.frames_per_batch),
        sampler=SamplerWithoutReplacement(),
        batch_size=args.minibatch,
    )
    done = 0
    for batch in collector:
        for _ in range(args.epochs):
            with torch.no_grad():
                advantage(batch)
            buffer.extend(batch.reshape(-1))
            for _ in range(args.frames_per_batch // args.minibatch):
                parts = loss(buffer.sample())
                total = parts["loss_objective"] + parts["loss_critic"] + parts["loss_entropy"]
                optimizer.zero_grad()
                total.backward()
                nn.utils.clip_grad_norm_(loss.parameters(), 0.5)
                optimizer.step()
        done += batch.numel()
        print(f"{done:>7} frames", flush=True)
    collector.shutdown()
    rate, (lo, hi) = evaluate(args, actor, args.eval_games)
    print(f"win rate vs {args.players - 1} random agents: {rate:.1%} [{lo:.1%}, {hi:.1%}] over {args.eval_games} games")
    return {"win_rate": rate, "ci": (lo, hi)}


if __name__ == "__main__":
    main()
