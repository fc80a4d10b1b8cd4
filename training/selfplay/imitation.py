"""A warm start for self-play: behaviour cloning of a teacher (the game's rule-based bot).

AlphaStar's league began from a policy trained on human games; ours begins, when the game has a
rule-based bot, from a policy trained to play like it. Why: a fresh policy samples uniformly from
hundreds of actions (Smuggle's 495 declarations), so the one honest declaration of a hand is
almost never tried and policy gradients cannot raise what they never sample; PPO alone settled
on cheap lies and plateaued below the rule bot (docs/training.md). Cloning first gives PPO a
competent policy whose weaknesses, and the bot's, it can then find.

``collect(game, teacher, samples, ...)`` plays whole games with the teacher in every seat, on
the engine, and records every decision: observation, legal mask, action, and the discounted
return that seat went on to collect under exactly the learner's reward (``SelfPlayEnv``'s
``dense_score`` shaping plus the final ``reward_mode`` reward), so the value head is trained too
and PPO's first advantages are not noise. ``clone(model, data, epochs, ...)`` fits the policy
(masked cross-entropy) and the value head (squared error) of a MaskablePPO model. Shuffling uses
its own seeded generator: the warm start is part of a run's deterministic initialisation.

With ``progress=True`` (the run's ``progress`` setting; ``smuggle train --no-progress`` turns it
off) both show a tqdm progress bar on stderr, like the rest of the training.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from smuggle_envs.core.driver import Driver

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO
    from tqdm import tqdm

    from smuggle_envs.core.game import Game, State


def _bar(progress: bool, total: int, desc: str, unit: str) -> tqdm[Any] | None:
    """A progress bar on stderr as the self-play loop draws it, or None."""
    if not progress:
        return None
    from tqdm import tqdm

    tty = sys.stderr.isatty()
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        unit_scale=True,
        file=sys.stderr,
        dynamic_ncols=True,
        leave=False,
        mininterval=0.2 if tty else 30.0,
        maxinterval=10.0 if tty else 60.0,
    )


@dataclasses.dataclass
class Demonstrations:
    observations: np.ndarray[Any, np.dtype[np.float32]]  # (N, obs)
    masks: np.ndarray[Any, np.dtype[np.bool_]]  # (N, actions)
    actions: np.ndarray[Any, np.dtype[np.int64]]  # (N,)
    returns: np.ndarray[Any, np.dtype[np.float32]]  # (N,): discounted return of the deciding seat

    def __len__(self) -> int:
        return len(self.actions)


@dataclasses.dataclass
class _Recording:
    """What ``collect`` has recorded so far: one row per teacher decision, and each row's return."""

    obs: list[np.ndarray[Any, Any]] = dataclasses.field(default_factory=list)
    masks: list[np.ndarray[Any, Any]] = dataclasses.field(default_factory=list)
    actions: list[int] = dataclasses.field(default_factory=list)
    returns: list[tuple[int, float]] = dataclasses.field(default_factory=list)

    def demonstrations(self) -> Demonstrations:
        order = sorted(self.returns)
        return Demonstrations(
            np.asarray(self.obs, np.float32),
            np.asarray(self.masks, bool),
            np.asarray(self.actions, np.int64),
            np.asarray([g for _, g in order], np.float32),
        )


def _seat_players(teachers: list[Any], randoms: list[Any], rng: np.random.Generator, random_share: float) -> list[Any]:
    """Who plays each seat of a game: the teachers, each replaced by the random agent with
    chance ``random_share`` (one seat always the teacher's)."""
    players = list(teachers)
    if random_share:
        n = len(teachers)
        weak = rng.random(n) < random_share
        weak[int(rng.integers(n))] = False  # at least one teacher's seat
        for seat in map(int, np.flatnonzero(weak)):
            players[seat] = randoms[seat]
            players[seat].reset(int(rng.integers(2**63)))
    return players


def _seat_returns(
    rows: list[int], potentials: list[float], start: float, end: float, final: float, dense_score: float, gamma: float
) -> list[tuple[int, float]]:
    """(row, discounted return) of one seat's recorded decisions.

    The learner's reward for its j-th decision is paid when it next decides (or at the end):
    dense_score * (potential then - potential at its previous payment), where the first payment
    counts from the deal, as SelfPlayEnv does; the final reward is added to the last one."""
    marks = [start, *potentials[1:], end]
    rewards = [dense_score * (marks[j + 1] - marks[j]) for j in range(len(rows))]
    rewards[-1] += final
    out, g = [], 0.0
    for j in range(len(rows) - 1, -1, -1):
        g = rewards[j] + gamma * g
        out.append((rows[j], g))
    return out


def collect(
    game: Game,
    teacher_spec: str,
    samples: int,
    seed: int,
    reward_mode: str = "win_loss",
    dense_score: float = 0.0,
    gamma: float = 0.99,
    max_decisions: int | None = None,
    progress: bool = False,
    privileged: bool = False,
    random_share: float = 0.0,
    student: Any = None,
) -> Demonstrations:
    """At least ``samples`` decisions of games with ``teacher_spec`` in every seat. ``privileged``:
    record what a privileged critic's learner is given (``State.global_observation``, whose
    first block is the seat's own observation); the teachers act on their own either way.

    ``random_share``: each seat of each game is played by the random agent with this chance
    (one seat is always the teacher's), and only the teacher's decisions are recorded. A clone
    that only ever saw its teacher at the table copies it badly where weak players sit too
    (Smuggle: the clone won 24% against 3 rule bots but 12% at tables of 2 rule bots and a random
    agent, where the rule bots won 44%).

    ``student`` (DAgger, Ross et al. 2011): an agent that plays every teacher's seat instead of
    it, while the teacher's decision in the same position is what is recorded; the returns are
    the student's own. The clone then learns what to do in the positions its own mistakes lead
    to, not only in those its teacher would reach."""
    from agents import make_agent

    n = game.num_players
    rng = np.random.default_rng(seed)
    teachers = [make_agent(teacher_spec, game, seed=None) for _ in range(n)]
    randoms = [make_agent("random", game, seed=None) for _ in range(n)]
    rec = _Recording()
    bar = _bar(progress, samples, f"warm start: playing {teacher_spec}", "decision")
    driver = Driver(game, max_decisions)  # the core's loop and termination contract
    while len(rec.actions) < samples:
        state = driver.reset(int(rng.integers(2**63)))
        for agent in teachers:
            agent.reset(int(rng.integers(2**63)))
        players = _seat_players(teachers, randoms, rng, random_share)
        start = state.normalised_scores()
        rows: list[list[int]] = [[] for _ in range(n)]  # each seat's decisions (row indices)
        potentials: list[list[float]] = [[] for _ in range(n)]
        driver.play(_teacher_move(rec, teachers, players, rows, potentials, privileged, student))
        end = state.normalised_scores()
        final = driver.returns(reward_mode)  # zero for a truncated game, as SelfPlayEnv pays
        for p in range(n):
            if rows[p]:
                rec.returns.extend(
                    _seat_returns(rows[p], potentials[p], start[p], end[p], final[p], dense_score, gamma)
                )
        if bar is not None:
            bar.update(min(len(rec.actions), samples) - bar.n)
    if bar is not None:
        bar.close()
    return rec.demonstrations()


def _teacher_move(
    rec: _Recording,
    teachers: list[Any],
    players: list[Any],
    rows: list[list[int]],
    potentials: list[list[float]],
    privileged: bool,
    student: Any,
) -> Any:
    """The move function of one recorded game: a teacher's decision is recorded with what the
    learner would have seen (and played by ``student`` if given); other seats just play."""
    from agents.base import decide

    def teach(state: State[Any], p: int) -> int:
        if players[p] is not teachers[p]:
            return decide(players[p], state, p)
        o = state.global_observation(p) if privileged else state.observation(p)
        m = state.legal_action_mask()
        a = decide(teachers[p], state, p)
        rows[p].append(len(rec.actions))
        potentials[p].append(state.normalised_scores()[p])
        rec.obs.append(o)
        rec.masks.append(m.astype(bool))
        rec.actions.append(a)
        return a if student is None else decide(student, state, p)

    return teach


def join(first: Demonstrations, second: Demonstrations, limit: int) -> Demonstrations:
    """Both sets of demonstrations, keeping the newest ``limit`` rows (memory)."""
    parts = [
        np.concatenate([getattr(first, f.name), getattr(second, f.name)])[-limit:] for f in dataclasses.fields(first)
    ]
    return Demonstrations(*parts)


def clone(
    model: MaskablePPO,
    data: Demonstrations,
    epochs: int,
    batch_size: int = 512,
    seed: int = 0,
    learning_rate: float = 1e-3,
    vf_coef: float = 0.5,
    progress: bool = False,
) -> dict[str, float]:
    """Fit ``model``'s policy to the teacher's actions and its value head to the returns.
    Returns the final epoch's mean losses, and how often the policy gives the teacher's action
    more than half of its probability."""
    import torch

    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    rng = np.random.default_rng(seed)
    device = policy.device  # the learner's (smuggle train --device); the CPU by default
    obs = torch.as_tensor(data.observations, device=device)
    masks = torch.as_tensor(data.masks, device=device)
    actions = torch.as_tensor(data.actions, device=device)
    returns = torch.as_tensor(data.returns, device=device)
    stats: dict[str, float] = {}
    batches = -(-len(data) // batch_size)
    bar = _bar(progress, epochs * batches, f"warm start: cloning ({epochs} epochs)", "batch")
    for _ in range(epochs):
        order = torch.as_tensor(rng.permutation(len(data)), device=device)
        nll_sum = vf_sum = confident = 0.0
        for start in range(0, len(data), batch_size):
            idx = order[start : start + batch_size]
            values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx], action_masks=masks[idx])
            nll = -log_prob.mean()
            vf = torch.nn.functional.mse_loss(values.flatten(), returns[idx])
            loss = nll + vf_coef * vf
            optimizer.zero_grad()
            torch.autograd.backward(loss)
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            nll_sum += float(nll.detach()) * len(idx)
            vf_sum += float(vf.detach()) * len(idx)
            confident += float((log_prob.detach() > np.log(0.5)).sum())
            if bar is not None:
                bar.update(1)
        stats = {
            "nll": nll_sum / len(data),
            "value_mse": vf_sum / len(data),
            "teacher_over_half": confident / len(data),
        }
    if bar is not None:
        bar.close()
    policy.set_training_mode(False)
    return stats
