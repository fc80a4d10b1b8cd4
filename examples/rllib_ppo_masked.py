"""Multi-agent PPO with action masks in RLlib (new API stack) on a smuggle_envs PettingZoo AEC env.

RLlib's own pieces: ``PettingZooEnv`` turns the AEC env into a ``MultiAgentEnv``; every seat is
mapped, per episode, to one of two RLModules: ``learner`` (RLlib's ``ActionMaskingTorchRLModule``:
PPO whose illegal actions' logits are pushed to -inf) in one seat, rotating from episode to episode, and
``random`` (a uniform choice among the legal actions, never trained) in every other seat. Only
``learner`` is trained (``policies_to_train``). Everything runs in this process (no env-runner or
learner actors), so it fits a laptop or a CI job. After training, the learner plays
``--eval-games`` seat-rotated games against random agents, sampling its actions (``--greedy``: the
most likely one), and the script prints its win rate with a 95% Wilson interval.

    pip install -e ".[rllib]"
    python examples/rllib_ppo_masked.py --env-id smuggle_v0 --iterations 40
"""

from __future__ import annotations

import argparse
import math
import random

import gymnasium as gym
import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

import smuggle_envs

ENV_NAME = "smuggle_masked"


class MaskedPettingZooEnv(PettingZooEnv):
    """``PettingZooEnv`` with the observation keys RLlib's action-masking module reads:
    ``observations`` (the env's ``observation``) and ``action_mask`` (as float32)."""

    def __init__(self, config: dict):
        super().__init__(smuggle_envs.make(config["env_id"], num_players=config["players"]))
        space = {aid: self._space(self.observation_spaces[aid]) for aid in self.possible_agents}
        self.observation_spaces = space
        self.observation_space = gym.spaces.Dict(space)
        # RLlib seeds only the first reset; later deals come from this generator, so a run repeats
        self.deals = random.Random(config.get("seed", 0))

    @staticmethod
    def _space(space: gym.spaces.Dict) -> gym.spaces.Dict:
        n = space["action_mask"].shape[0]
        return gym.spaces.Dict(
            {"observations": space["observation"], "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32)}
        )

    @staticmethod
    def _obs(obs: dict) -> dict:
        return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.deals.seed(seed)
        obs, infos = super().reset(seed=self.deals.getrandbits(31), options=options)
        return {aid: self._obs(o) for aid, o in obs.items()}, infos

    def step(self, action):
        obs, rewards, terminated, truncated, infos = super().step(action)
        return {aid: self._obs(o) for aid, o in obs.items()}, rewards, terminated, truncated, infos


class MaskedRandomRLModule(RLModule):
    """A random agent as an RLModule: a uniform choice among the legal actions (never trained)."""

    def _forward(self, batch, **kwargs):
        masks = np.asarray(batch[Columns.OBS]["action_mask"])
        actions = [np.random.choice(np.flatnonzero(mask)) for mask in masks]
        return {Columns.ACTIONS: np.asarray(actions)}

    def _forward_train(self, batch, **kwargs):
        raise NotImplementedError("the random module is never trained")


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="smuggle_v0", choices=smuggle_envs.ENV_IDS)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--iterations", type=int, default=40, help="PPO iterations")
    p.add_argument("--batch", type=int, default=1000, help="env steps (all seats) per iteration")
    p.add_argument("--minibatch", type=int, default=250)
    p.add_argument("--epochs", type=int, default=4)
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


def build_config(args) -> PPOConfig:
    players = args.players
    learner_seats: dict[str, int] = {}  # episode id -> the learner's seat in it

    def mapping(agent_id, episode, **kwargs):
        # the learner's seat rotates from episode to episode (in the order they start, so a run
        # is reproducible), so every seat is learnt
        seat = learner_seats.setdefault(str(episode.id_), len(learner_seats) % players)
        return "learner" if int(agent_id.rsplit("_", 1)[1]) == seat else "random"

    return (
        PPOConfig()
        # RLlib's env check steps with unmasked random actions, which these games refuse
        .environment(
            ENV_NAME,
            env_config={"env_id": args.env_id, "players": players, "seed": args.seed},
            disable_env_checking=True,
        )
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)  # sample in this process
        .learners(num_learners=0)
        .multi_agent(policies={"learner", "random"}, policy_mapping_fn=mapping, policies_to_train=["learner"])
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "learner": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config=DefaultModelConfig(fcnet_hiddens=[128, 128], fcnet_activation="tanh"),
                    ),
                    "random": RLModuleSpec(module_class=MaskedRandomRLModule),
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def learner_action(module, obs: dict, greedy: bool) -> int:
    batch = {
        Columns.OBS: {
            "observations": torch.as_tensor(obs["observation"], dtype=torch.float32)[None],
            "action_mask": torch.as_tensor(obs["action_mask"], dtype=torch.float32)[None],
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    if greedy:
        return int(logits.argmax())
    return int(torch.distributions.Categorical(logits=logits).sample())


def evaluate(args, module, games: int) -> tuple[float, tuple[float, float]]:
    """Seat-rotated games on the plain AEC loop against random agents."""
    env = smuggle_envs.make(args.env_id, num_players=args.players)
    rng, wins = random.Random(args.seed), 0
    for g in range(games):
        learner = env.possible_agents[g % args.players]
        env.reset(seed=10_000_000 + g)
        for name in env.agent_iter():
            obs, reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                wins += name == learner and reward > 0
                env.step(None)
            elif name == learner:
                env.step(learner_action(module, obs, args.greedy))
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return wins / games, wilson(wins, games)


def main(argv=None) -> dict:
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # tiny networks: threads cost more than they save
    np.random.seed(args.seed)
    register_env(ENV_NAME, MaskedPettingZooEnv)
    started = not ray.is_initialized()  # a Ray that the caller started is left running
    if started:
        # one CPU, no dashboard: everything runs in this process (num_env_runners=0, num_learners=0)
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        algo = build_config(args).build_algo()
        for i in range(args.iterations):
            algo.train()
            print(f"iteration {i + 1:>3}/{args.iterations}", flush=True)
        module = algo.get_module("learner")
        rate, (lo, hi) = evaluate(args, module, args.eval_games)
        algo.stop()
    finally:
        if started:
            ray.shutdown()
    print(f"win rate vs {args.players - 1} random agents: {rate:.1%} [{lo:.1%}, {hi:.1%}] over {args.eval_games} games")
    return {"win_rate": rate, "ci": (lo, hi)}


if __name__ == "__main__":
    main()
