"""``smuggle zoo value ENV_ID[@N]``: fit a value head for a zoo model shipped as a policy only.

The search's ``value=zoo`` leaves (``agents.search_net``) score a world by the zoo model's value
network, ``critic_*`` arrays beside the policy in its ``.npz``. Models shipped before the zoo
kept critics have none, and their training runs are gone, so PPO's own critic cannot be
recovered. What the search needs of it is an estimate, from a seat's observation, of what that
seat will get at the end of the game when the model plays on: the value of the *fixed* shipped
policy. That is policy evaluation, a supervised problem, so it is solved as one:

1. Data. The model plays ``--games`` seeded games at its player count, as it plays in the zoo
   (``ZooAgent``: argmax or sampled per its ``deterministic`` flag), at one seat that rotates
   over the table; game ``g`` fills the other seats with the ``(g mod k)``-th of the ``k``
   ``--opponents`` specs (default ``zoo,rule``: itself in even games, rule bots in odd ones), so
   each kind of table gets every seat equally. Every decision of a seat the model plays (its
   own, and every seat of a table of ``zoo`` opponents: the same model) is a position: that
   seat's own observation (what the critic will be given; never the true state), labelled with
   the seat's final return, ``State.returns("win_loss")`` (+1 for a top score, -1 otherwise, 0
   for a truncated game), the units of the search's own playouts (its default ``mode``).
2. Fit. A torch MLP with the policy's hidden sizes and activations (read from the shipped
   layers) and one output, started at the mean return (output weights zero), trained on the CPU
   by Adam on the squared error to the returns in shuffled minibatches for ``--epochs`` passes.
   The games are split, by a seeded draw, into 80% to fit, 10% to stop the fit and 10% held out.
   By game, not by position: a game's positions share one label, so positions of a game seen
   in training would measure memory, not prediction. That is also why the fit stops early: the
   labels are noisy, a few thousand games are few, and a network that learns to tell the
   training games apart gets worse at new ones, so the validation error is measured four times
   a pass and the network is kept where it was lowest (``best_epoch``; 0: the mean itself). The
   held-out MSE of the network as shipped (the numpy copy) is reported against the baseline of
   predicting the training mean. Everything is seeded from ``--seed`` (the games, the split,
   the shuffles, ``torch.manual_seed``) and torch runs on one thread, so a command makes the
   same file again, byte for byte, on the same CPU kind with the same library versions (the
   zip's dates are fixed too).
3. Write. The shipped file is loaded, given the critic (``NumpyPolicy.critic``), saved to a
   temporary file whose policy arrays are checked bit-identical to the shipped ones, and only
   then put in its place; the manifest entry gets the new ``sha256`` and a ``value`` record (the
   command line that makes it again, games, positions, both MSEs, the best epoch, commit, wall
   minutes, and the ``machine``: CPU model, cores, Python, torch, numpy).

Bad requests (an unknown model, fewer than 10 games, no epoch, an opponent spec that builds no
agent) are one-line ``UsageError``\\ s raised before any game is played: nothing changes.
"""

from __future__ import annotations

import argparse
import copy
import os
import shlex
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from agents.arena import play
from agents.base import Agent
from agents.ppo import NumpyMLP, NumpyPolicy, torch_layers
from agents.zoo import ZooAgent, git_commit, manifest, resolve, sha256, write_manifest, zoo_dir
from smuggle_envs import GameSpec
from smuggle_envs.core.driver import BaseObserver
from smuggle_envs.core.game import Game, State
from training.errors import UsageError, warn_once
from training.match import build_agent
from training.parser import ZOO_VALUE_EPOCHS, ZOO_VALUE_GAMES, ZOO_VALUE_OPPONENTS
from training.provenance import machine_record

MIN_GAMES = 10  # a tenth of the games stops the fit, a tenth is held out
HELD_OUT = 0.1  # the share of games the fit never sees, and of those that only stop it
BATCH = 256
LEARNING_RATE = 3e-4
CHECKS_PER_EPOCH = 4  # validation checks a pass (early stopping)
EVAL_ROWS = 4096  # rows a forward pass when measuring
MODE = "win_loss"  # the returns' units: the search's playouts' by default
SEED_STRIDE = 1_000_000  # game g of seed K is seeded K * SEED_STRIDE + g


@dataclass(frozen=True)
class ValueSettings:
    """What ``smuggle zoo value`` is asked: the model (``ENV_ID[@N]``) and the budget."""

    model: str
    games: int = ZOO_VALUE_GAMES
    seed: int = 0
    opponents: tuple[str, ...] = tuple(ZOO_VALUE_OPPONENTS.split(","))
    epochs: int = ZOO_VALUE_EPOCHS

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> ValueSettings:
        if not args.target:
            raise UsageError("smuggle zoo value needs the model, e.g. smuggle zoo value smuggle_v0@4")
        opponents = tuple(s.strip() for s in args.opponents.split(","))
        if not all(opponents):
            raise UsageError(f"--opponents {args.opponents!r} has an empty entry; write e.g. zoo,rule")
        return cls(args.target, args.games, args.seed, opponents, args.epochs)

    def command(self, key: str) -> str:
        """The command line that makes this value head again (every setting spelled out)."""
        return shlex.join(
            ["smuggle", "zoo", "value", key, "--games", str(self.games), "--seed", str(self.seed)]
            + ["--opponents", ",".join(self.opponents), "--epochs", str(self.epochs)]
        )


def cmd_value(args: argparse.Namespace) -> int:
    settings = ValueSettings.from_args(args)
    key, record = fit_value_head(settings, progress=not args.no_progress)
    print(
        f"value head for zoo:{key}: {record['games']} games, {record['positions']} positions, held-out MSE "
        f"{record['held_out_mse']:.4f} vs {record['baseline_mse']:.4f} predicting the mean; written to "
        f"{zoo_dir() / manifest()[key]['file']} in {record['wall_minutes']} min"
    )
    return 0


def fit_value_head(settings: ValueSettings, progress: bool = False) -> tuple[str, dict[str, Any]]:
    """Play, fit and write (the module docstring); returns the model's key and its ``value`` record."""
    start = time.perf_counter()
    key, entry, game = resolve_model(settings.model)
    _check(settings)
    model, tables = _agents(game, key, settings)
    positions = play_games(game, model, tables, settings, progress)
    policy = model.policy
    assert policy is not None  # a zoo model is always a numpy policy
    fitted = fit(positions, policy, settings, progress)
    record = {
        "command": settings.command(key),
        "games": settings.games,
        "positions": len(positions),
        "mode": MODE,
        "held_out_mse": round(fitted.held_out_mse, 4),
        "baseline_mse": round(fitted.baseline_mse, 4),
        "best_epoch": fitted.best_epoch,
        "commit": git_commit(),
        "wall_minutes": round((time.perf_counter() - start) / 60, 1),
        "machine": machine_record(),
    }
    write_value_head(key, entry, fitted.critic, record)
    return key, record


# ----- the request ---------------------------------------------------------------------------------
def resolve_model(text: str) -> tuple[str, dict[str, Any], Game]:
    """The manifest key, entry and game of ``ENV_ID[@N]`` (N: the game's default player count);
    a one-line UsageError for an unknown game or a model the zoo does not have."""
    env_id, at, players = text.partition("@")
    if at and not players.isdigit():
        raise UsageError(f"{text!r} is not a zoo model: write ENV_ID or ENV_ID@N, e.g. smuggle_v0@4")
    game = GameSpec(env_id, {"num_players": int(players)} if at else {}).make_game()
    try:
        key, entry = resolve(text, game)
    except ValueError as exc:  # the zoo's own lookup and message, as a usage error
        raise UsageError(str(exc)) from None
    return key, entry, game


def _check(settings: ValueSettings) -> None:
    if settings.games < MIN_GAMES:
        raise UsageError(
            f"--games must be at least {MIN_GAMES} (two tenths are held out of the fit), got {settings.games}"
        )
    if settings.epochs < 1:
        raise UsageError(f"--epochs must be 1 or more, got {settings.epochs}")
    if settings.seed < 0:
        raise UsageError(f"--seed must be 0 or more, got {settings.seed}")


def _agents(game: Game, key: str, settings: ValueSettings) -> tuple[ZooAgent, dict[str, list[Agent]]]:
    """The model (as the zoo plays it; its checksum verified) and, for each opponent spec, one
    agent a seat (built now: a bad spec fails before any game)."""
    warn = warn_once()
    model, _ = build_agent(f"zoo:{key}", game, seed=settings.seed, warn=warn)
    assert isinstance(model, ZooAgent)  # the zoo kind is always there
    tables = {
        spec: [build_agent(spec, game, seed=settings.seed, warn=warn)[0] for _ in range(game.num_players)]
        for spec in settings.opponents
    }
    return model, tables


# ----- the data ------------------------------------------------------------------------------------
class Positions:
    """The positions of the model's seats: observations as sparse rows (most entries of an
    observation are zero: a dense copy of 2000 games of import_export_v0, 2466 numbers a
    position, would take gigabytes), each with its seat's final return and its game's number."""

    def __init__(self, size: int):
        self.size = size
        self._indices: list[np.ndarray] = []
        self._values: list[np.ndarray] = []
        self._returns: list[float] = []
        self._games: list[int] = []

    def add(self, observation: np.ndarray, value: float, game: int) -> None:
        nonzero = np.flatnonzero(observation)
        self._indices.append(nonzero.astype(np.int32))
        self._values.append(np.asarray(observation, np.float32)[nonzero])
        self._returns.append(value)
        self._games.append(game)

    def __len__(self) -> int:
        return len(self._returns)

    def finish(self) -> None:
        """Pack the rows (CSR: ``indptr``, ``indices``, ``values``) for ``dense``."""
        lengths = np.array([len(i) for i in self._indices], np.int64)
        self.indptr = np.concatenate([[0], np.cumsum(lengths)])
        self.indices = np.concatenate(self._indices) if self._indices else np.zeros(0, np.int32)
        self.values = np.concatenate(self._values) if self._values else np.zeros(0, np.float32)
        self.returns = np.array(self._returns, np.float32)
        self.games = np.array(self._games, np.int64)

    def dense(self, rows: np.ndarray) -> np.ndarray:
        """The observations of ``rows`` as a dense float32 matrix."""
        starts, lengths = self.indptr[rows], self.indptr[rows + 1] - self.indptr[rows]
        total = int(lengths.sum())
        offsets = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        flat = np.repeat(starts, lengths) + offsets
        out = np.zeros((len(rows), self.size), np.float32)
        out[np.repeat(np.arange(len(rows)), lengths), self.indices[flat]] = self.values[flat]
        return out


class _SeatRecorder(BaseObserver):
    """Each decision of the ``seats``: the seat and its observation (before the action applies)."""

    def __init__(self, seats: set[int]):
        self.seats = seats
        self.decisions: list[tuple[int, np.ndarray]] = []

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        if player in self.seats:
            self.decisions.append((player, state.observation(player)))


def play_games(
    game: Game, model: Agent, tables: dict[str, list[Agent]], settings: ValueSettings, progress: bool = False
) -> Positions:
    """The model's positions over ``settings.games`` games (the module docstring's step 1)."""
    n, k = game.num_players, len(settings.opponents)
    positions = Positions(game.observation_layout.size)
    for g in tqdm(range(settings.games), desc="games", unit="game", file=sys.stderr, leave=False, disable=not progress):
        seat = (g // k) % n  # every seat with every kind of table, in turn
        others = tables[settings.opponents[g % k]]
        agents = [model if s == seat else others[s] for s in range(n)]
        # The model's seats: its own, and in a table of zoo opponents theirs (the same model).
        recorder = _SeatRecorder({s for s, agent in enumerate(agents) if isinstance(agent, ZooAgent)})
        returns = play(game, agents, settings.seed * SEED_STRIDE + g, observers=[recorder]).returns(MODE)
        for player, observation in recorder.decisions:
            positions.add(observation, returns[player], g)
    positions.finish()
    return positions


# ----- the fit -------------------------------------------------------------------------------------
def critic_network(policy: NumpyMLP) -> nn.Sequential:
    """An MLP with the hidden layers (sizes and activations) of ``policy`` and one output."""
    modules: list[nn.Module] = []
    width = policy.obs_size
    for w, _, act in policy.layers[:-1]:
        modules += [nn.Linear(width, w.shape[0]), getattr(nn, act)()]  # the layer names are torch's
        width = w.shape[0]
    return nn.Sequential(*modules, nn.Linear(width, 1))


def split_games(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The validation games and the held-out games: two seeded tenths (at least one each)."""
    order = np.random.default_rng(seed).permutation(games)
    tenth = max(1, round(games * HELD_OUT))
    return np.sort(order[tenth : 2 * tenth]), np.sort(order[:tenth])


@dataclass
class Fitted:
    """A fitted critic and how well it does on the held-out games."""

    critic: NumpyMLP
    held_out_mse: float
    baseline_mse: float  # predicting the training games' mean return
    best_epoch: float  # where the validation error was lowest (0: the mean itself)


def fit(positions: Positions, policy: NumpyMLP, settings: ValueSettings, progress: bool = False) -> Fitted:
    """The critic fitted to the training games' positions, the validation games choosing when
    to stop; a UsageError where a part of the split has no position."""
    validation, held_out = split_games(settings.games, settings.seed)
    val, test = np.isin(positions.games, validation), np.isin(positions.games, held_out)
    train_rows, val_rows, test_rows = np.flatnonzero(~(val | test)), np.flatnonzero(val), np.flatnonzero(test)
    if not (len(train_rows) and len(val_rows) and len(test_rows)):
        raise UsageError(f"{len(positions)} positions leave nothing to fit, validate or hold out: play more games")
    mean = float(positions.returns[train_rows].mean())
    with _one_thread():
        torch.manual_seed(settings.seed)
        net = critic_network(policy)
        output = net[-1]
        assert isinstance(output, nn.Linear)
        with torch.no_grad():  # start from the mean: the baseline is where the search begins
            output.weight.zero_()
            output.bias.fill_(mean)
        best_epoch = _train(net, positions, train_rows, val_rows, settings, progress)
    layers = torch_layers(net)
    assert layers is not None  # Linear layers and known activations only
    critic = NumpyMLP(layers)
    target = positions.returns[test_rows]
    predicted = np.concatenate([critic(positions.dense(rows))[:, 0] for rows in _chunks(test_rows)])
    return Fitted(critic, float(np.mean((predicted - target) ** 2)), float(np.mean((target - mean) ** 2)), best_epoch)


def _chunks(rows: np.ndarray) -> list[np.ndarray]:
    """``rows`` in pieces of at most ``EVAL_ROWS`` (a dense copy of all of them can be large)."""
    return [rows[i : i + EVAL_ROWS] for i in range(0, len(rows), EVAL_ROWS)]


@contextmanager
def _one_thread() -> Iterator[None]:
    """Torch on one thread meanwhile, as ``smuggle train`` (``torch_threads=1``): small matrices
    gain nothing from more, lose much on a busy machine, and the sums come out in one order
    whatever the machine's core count."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _mse(net: nn.Sequential, positions: Positions, rows: np.ndarray) -> float:
    """The network's mean squared error on ``rows``."""
    total = 0.0
    with torch.no_grad():
        for chunk in _chunks(rows):
            error = net(torch.from_numpy(positions.dense(chunk)))[:, 0] - torch.from_numpy(positions.returns[chunk])
            total += float((error**2).sum())
    return total / len(rows)


def _train(
    net: nn.Sequential,
    positions: Positions,
    rows: np.ndarray,
    val_rows: np.ndarray,
    settings: ValueSettings,
    progress: bool,
) -> float:
    """Adam on the squared error over ``settings.epochs`` passes of shuffled minibatches of
    ``rows``, the validation error measured ``CHECKS_PER_EPOCH`` times a pass; the network is
    left at its best check (early stopping: the labels are noisy, a game's positions share one,
    and a network that learns to tell the training games apart gets worse at new ones).
    Returns where that was, in epochs."""
    optimizer = torch.optim.Adam(net.parameters(), lr=LEARNING_RATE)
    rng = np.random.default_rng(settings.seed + 1)
    returns = torch.from_numpy(positions.returns)
    best = (_mse(net, positions, val_rows), 0.0, copy.deepcopy(net.state_dict()))
    batches = -(-len(rows) // BATCH)
    checks = {round(batches * (i + 1) / CHECKS_PER_EPOCH) for i in range(CHECKS_PER_EPOCH)}
    for epoch in tqdm(
        range(settings.epochs), desc="fit", unit="epoch", file=sys.stderr, leave=False, disable=not progress
    ):
        order = rng.permutation(rows)
        for b in range(batches):
            batch = order[b * BATCH : (b + 1) * BATCH]
            loss = nn.functional.mse_loss(net(torch.from_numpy(positions.dense(batch)))[:, 0], returns[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if b + 1 in checks and (mse := _mse(net, positions, val_rows)) < best[0]:
                best = (mse, epoch + (b + 1) / batches, copy.deepcopy(net.state_dict()))
    net.load_state_dict(best[2])
    return round(best[1], 2)


# ----- the file ------------------------------------------------------------------------------------
def write_value_head(key: str, entry: dict[str, Any], critic: NumpyMLP, record: dict[str, Any]) -> None:
    """Give the zoo's file for ``key`` the critic, its policy arrays unchanged, and its manifest
    entry the new checksum and ``record`` (the module docstring's step 3)."""
    path = zoo_dir() / entry["file"]
    if sha256(path) != entry["sha256"]:
        raise UsageError(f"the zoo's model for {key} ({path}) changed while its value head was fitted")
    policy = NumpyPolicy.load(path)
    policy.critic = critic
    tmp = path.with_name(path.name + ".tmp")
    try:
        policy.save(tmp)
        _check_policy_unchanged(path, tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    entries = manifest()
    entries[key] = {**entries[key], "sha256": sha256(path), "value": record}
    write_manifest(entries)


def _policy_arrays(path: Path) -> dict[str, np.ndarray]:
    """The arrays of a saved policy that are not its critic's."""
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files if not name.startswith("critic_")}


def _check_policy_unchanged(shipped: Path, written: Path) -> None:
    """Refuse (a RuntimeError: a bug, never the user's) a written file whose policy arrays differ
    from the shipped file's in any name, dtype, shape or bit, or that holds no critic."""
    before, after = _policy_arrays(shipped), _policy_arrays(written)
    same = before.keys() == after.keys() and all(
        a.dtype == after[k].dtype and a.shape == after[k].shape and a.tobytes() == after[k].tobytes()
        for k, a in before.items()
    )
    if not same or NumpyPolicy.load(written).critic is None:
        raise RuntimeError(f"writing the value head would change the policy arrays of {shipped}: not written")


__all__ = ["Positions", "ValueSettings", "cmd_value", "fit_value_head", "play_games"]
