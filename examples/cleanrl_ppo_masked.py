"""Single-file PPO with action masks on a smuggle_envs PettingZoo AEC env, in the CleanRL style.

One learner seat (drawn at random each game) against random opponents, played through the plain
AEC loop (``env.last()`` gives the observation and its ``action_mask``). Illegal actions get a
logit of -1e9, so the policy never samples one and its entropy and log-probabilities are over the
legal actions only. The reward is the learner's own ``env.rewards`` at the end of the game
(win_loss: +1 for a top score, -1 otherwise). After training, the policy plays ``--eval-games``
seat-rotated games against random agents (sampling its actions; ``--greedy``: the most likely one)
and prints its win rate with a 95% Wilson interval.

    python examples/cleanrl_ppo_masked.py --env-id smuggle_v0 --steps 20000
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np
import torch
from torch import nn

import smuggle_envs


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="smuggle_v0", choices=smuggle_envs.ENV_IDS)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--steps", type=int, default=20_000, help="learner decisions to train on")
    p.add_argument("--rollout", type=int, default=1024, help="learner decisions per PPO update")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
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


class Agent(nn.Module):
    """Policy and value heads on a shared two-layer body; ``dist`` applies the action mask."""

    def __init__(self, obs_size: int, num_actions: int):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh())
        self.pi, self.v = nn.Linear(128, num_actions), nn.Linear(128, 1)

    def dist(self, obs: torch.Tensor, mask: torch.Tensor):
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)  # masked actions: probability 0
        return torch.distributions.Categorical(logits=logits), self.v(h).squeeze(-1)


def play_game(env, agent: Agent, learner: str, rng: random.Random, seed: int, greedy: bool = False):
    """One game through the AEC loop; returns the learner's transitions and its final reward."""
    env.reset(seed=seed)
    steps, final = [], 0.0
    for name in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            if name == learner:
                final = float(reward)  # the learner's own result (its cumulative reward)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if name != learner:
            env.step(int(rng.choice(legal)))
            continue
        o = torch.as_tensor(obs["observation"], dtype=torch.float32)
        m = torch.as_tensor(obs["action_mask"], dtype=torch.bool)
        with torch.no_grad():
            dist, value = agent.dist(o, m)
            action = dist.probs.argmax() if greedy else dist.sample()
        steps.append((o, m, action, dist.log_prob(action), value))
        env.step(int(action))
    return steps, final


def collect(env, agent, n: int, rng: random.Random, seed: int):
    """At least ``n`` learner decisions, from whole games; GAE needs each game's reward at its end."""
    batch, games = [], 0
    while len(batch) < n:
        learner = env.possible_agents[rng.randrange(len(env.possible_agents))]
        steps, reward = play_game(env, agent, learner, rng, seed + games)
        games += 1
        for i, (o, m, a, logp, v) in enumerate(steps):
            last = i == len(steps) - 1
            batch.append((o, m, a, logp, v, reward if last else 0.0, last))
    return batch, games


def advantages(batch, gamma: float, lam: float):
    adv, ret = torch.zeros(len(batch)), torch.zeros(len(batch))
    gae = 0.0
    for t in reversed(range(len(batch))):
        _, _, _, _, v, r, done = batch[t]
        next_v = 0.0 if done else float(batch[t + 1][4])
        delta = r + gamma * next_v - float(v)
        gae = delta + gamma * lam * (0.0 if done else gae)
        adv[t], ret[t] = gae, gae + float(v)
    return adv, ret


def update(agent, optimizer, batch, args) -> None:
    adv, ret = advantages(batch, args.gamma, args.gae_lambda)
    # normalised over the whole batch: a last minibatch of one would have no standard deviation
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    obs = torch.stack([b[0] for b in batch])
    mask = torch.stack([b[1] for b in batch])
    act = torch.stack([b[2] for b in batch])
    old_logp = torch.stack([b[3] for b in batch])
    for _ in range(args.epochs):
        for idx in torch.randperm(len(batch)).split(args.minibatch):
            dist, value = agent.dist(obs[idx], mask[idx])
            ratio = (dist.log_prob(act[idx]) - old_logp[idx]).exp()
            a = adv[idx]
            pg = -torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
            loss = pg + 0.5 * ((value - ret[idx]) ** 2).mean() - args.ent_coef * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def evaluate(env, agent, games: int, seed: int, greedy: bool) -> tuple[float, tuple[float, float]]:
    """Seat-rotated games against random agents. Sampling is the default because any fixed
    policy, even an untrained network's argmax, already beats random agents at Smuggle; a sampled
    untrained policy plays like them (about 1/N), so a higher rate is what training added."""
    rng, wins = random.Random(seed), 0.0
    for g in range(games):
        learner = env.possible_agents[g % len(env.possible_agents)]
        _, reward = play_game(env, agent, learner, rng, 10_000_000 + g, greedy)
        wins += reward > 0
    return wins / games, wilson(wins, games)


def main(argv=None) -> dict:
    args = parse_args(argv)
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # tiny network: threads cost more than they save
    env = smuggle_envs.make(args.env_id, num_players=args.players)
    env.reset(seed=args.seed)
    first = env.possible_agents[0]
    agent = Agent(env.observation_space(first)["observation"].shape[0], env.action_space(first).n)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    rng, done, games = random.Random(args.seed), 0, 0
    while done < args.steps:
        batch, played = collect(env, agent, min(args.rollout, args.steps - done), rng, args.seed * 1_000_000 + games)
        games += played
        done += len(batch)
        update(agent, optimizer, batch, args)
        print(f"{done:>7} steps  {games:>5} games", flush=True)
    rate, (lo, hi) = evaluate(env, agent, args.eval_games, args.seed, args.greedy)
    print(f"win rate vs {args.players - 1} random agents: {rate:.1%} [{lo:.1%}, {hi:.1%}] over {args.eval_games} games")
    return {"win_rate": rate, "ci": (lo, hi)}


if __name__ == "__main__":
    main()
