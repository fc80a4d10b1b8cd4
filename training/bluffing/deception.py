"""``smuggle analyze DB --deception``: the deception metrics (``metrics.py``) of every stored game,
a table per game and a picture.

The rows are the bluffing dataset's (``dataset.game_rows``: each stored game replayed through its
labeller), with one column added to the calls: ``challenge_prob``, the calling agent's own
probability of challenging at that decision, read from its policy (``beliefs.policy_for``: a rule
bot's exact distribution, a network's softmax, or its one-hot where it plays its argmax, the
random agent's uniform one) at the observation and legal actions the agent had. An agent whose
distribution cannot be read (a search bot, a chat model, a person) gets NaN there, and its AUROC
ranks its calls by the decision itself; the table says which. Which rows each number reads
(forced calls in none, forced claims in the rate but not the payoffs) is the kit's one definition
(``metrics.report_sections``), which ``benchmarks/llm_deception.py`` reads too. The header names
the games stored and those with a labelled decision, which are the ones the tables rest on.

Which actions are challenges is a game's rule, asked of its plugin (``GameClaims.challenge``, the
labeller's own test): the Officer's search and the Informer's inform (Smuggle), a Fire (CIQ). The
games whose plugin has no ``facing`` (no seat ever calls another's claim: Illegal, Humble smuggle,
Import / Export) report claim-side metrics only, and say so.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from smuggle_envs.core import Replay
from smuggle_envs.core.game import Game, State
from training.db import DatabaseError
from training.errors import UsageError, os_error_text

from .beliefs import ActionPolicy, UnsupportedRandomness, policy_for
from .dataset import game_rows
from .games import GameClaims, plugin
from .games._common import Challenge
from .metrics import GameReport, Settings, deception_report, format_report
from .stored import StoredGame, open_db, stored_games


def _plugin_or_none(env_id: str) -> GameClaims | None:
    """``env_id``'s bluffing plugin; None for a game without one."""
    try:
        return plugin(env_id)
    except LookupError:
        return None


def calls_possible(env_id: str) -> bool | None:
    """Whether a seat of ``env_id`` ever calls another's claim (its plugin has a ``facing``);
    None for a game without a plugin."""
    found = _plugin_or_none(env_id)
    return None if found is None else found.has_calls


def challenge_rule(env_id: str) -> Challenge | None:
    """Which actions at a call of ``env_id`` challenge the claim (its plugin's rule); None for a
    game without calls or without a plugin."""
    found = _plugin_or_none(env_id)
    return None if found is None else found.challenge


# ----- the agents' probabilities of challenging ---------------------------------------------------
class Policies:
    """The action distributions of the agents that played, built once per game config and spec
    (None: an agent whose distribution cannot be read)."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str, str], ActionPolicy | None] = {}

    def get(self, game: Game, config: dict[str, Any], spec: str) -> ActionPolicy | None:
        """The distribution of the agent ``spec`` at ``game`` (None: it cannot be read)."""
        key = (game.env_id, repr(sorted(config.items())), spec)
        if key not in self.found:
            self.found[key] = _policy(game, spec)
        return self.found[key]

    def drop(self, game: Game, config: dict[str, Any], spec: str) -> None:
        """Forget an agent whose distribution turned out unreadable mid-way (all its calls: NaN)."""
        self.found[(game.env_id, repr(sorted(config.items())), spec)] = None


def _policy(game: Game, spec: str) -> ActionPolicy | None:
    from agents import make_agent

    try:
        return policy_for(make_agent(spec, game, seed=0))
    except Exception:  # any agent we cannot rebuild or read (a person, a chat model): scored by its decisions
        return None


def challenge_probability(state: State[Any], seat: int, policy: ActionPolicy, is_challenge: Challenge) -> float:
    """``policy``'s probability that ``seat`` challenges at ``state`` (its decision, not taken);
    ``is_challenge(state, action)``: the game's rule (``challenge_rule``)."""
    probs = policy.action_probabilities(state.observation(seat), state.legal_action_mask())
    return float(sum(probs[a] for a in state.legal_actions() if is_challenge(state, a)))


def positions(replay: Replay, steps: Iterable[int]) -> dict[int, State[Any]]:
    """The state before each action of ``replay`` whose index is in ``steps`` (copies)."""
    wanted = set(steps)
    found: dict[int, State[Any]] = {}
    if not wanted:
        return found
    for step, (state, _) in enumerate(_walk(replay)):
        if step in wanted:
            found[step] = state.clone()
            if len(found) == len(wanted):
                break
    return found


def _walk(replay: Replay) -> Iterator[tuple[State[Any], int]]:
    """The live state before each action (not a copy: clone what is kept)."""
    state = replay.game().new_initial_state(replay.seed)
    for action in replay.actions:
        yield state, action
        state.apply_action(action)


def add_challenge_probs(game: StoredGame, rows: list[dict[str, Any]], policies: Policies) -> None:
    """Give each call of ``rows`` (one stored game's) its ``challenge_prob`` (NaN: unreadable)."""
    record = game.record
    is_challenge = challenge_rule(record.env_id)
    calls = [r for r in rows if r["role"] == "call"]
    for r in rows:
        r["challenge_prob"] = None if r["role"] != "call" else float("nan")
    if is_challenge is None or not calls:
        return
    replay = record.replay()
    states, table = positions(replay, (r["step"] for r in calls)), replay.game()
    for r in calls:
        spec = record.agents[r["seat"]]
        policy = policies.get(table, record.config, spec)
        if policy is None:
            continue
        try:
            r["challenge_prob"] = challenge_probability(states[r["step"]], r["seat"], policy, is_challenge)
        except UnsupportedRandomness:  # a bot drawing in a way the exact enumeration cannot follow
            policies.drop(table, record.config, spec)


# ----- the command ---------------------------------------------------------------------------------
def load_rows(
    db_path: str, tournament: int | None = None, stored: dict[str, int] | None = None
) -> list[dict[str, Any]]:
    """Every labelled decision of the stored games (one tournament's with ``tournament``), the
    calls with their ``challenge_prob``; ``stored``, when given, gets the games read per env id
    (those without a labelled decision too)."""
    try:
        db = open_db(db_path)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    rows: list[dict[str, Any]] = []
    policies = Policies()
    try:
        for game in stored_games(db):
            if tournament is not None and game.record.tournament_id != tournament:
                continue
            if stored is not None:
                stored[game.record.env_id] = stored.get(game.record.env_id, 0) + 1
            found = game_rows(game)
            add_challenge_probs(game, found, policies)
            rows += found
    finally:
        db.close()
    return rows


def reports(rows: list[dict[str, Any]], settings: Settings, stored: dict[str, int] | None = None) -> list[GameReport]:
    """The report of every game in ``rows``, each knowing whether its seats could call (and the
    games stored per env id, ``stored``)."""
    envs = {r["env_id"] for r in rows}
    return deception_report(rows, settings, {e: p for e in envs if (p := calls_possible(e)) is not None}, stored)


def cmd_deception(args: argparse.Namespace) -> int:
    """``smuggle analyze DB --deception [--boot N] [--plot FILE]``: print a table per game; draw."""
    if args.boot < 1:
        raise UsageError(f"--boot must be at least 1, got {args.boot}")
    stored: dict[str, int] = {}
    rows = load_rows(args.db, args.tournament, stored)
    if not rows:
        raise UsageError(f"{args.db} holds no labelled decisions (no stored games, or none with a claim)")
    settings = Settings(n_boot=args.boot, seed=0)
    found = reports(rows, settings, stored)
    print("\n\n".join(format_report(r, settings) for r in found))
    if args.plot:
        from .plots import plot_deception

        try:
            plot_deception(found, args.plot, settings)
        except OSError as exc:
            raise UsageError(f"cannot write --plot {args.plot}: {os_error_text(exc)}", code=1) from None
        print(f"\nwritten: {Path(args.plot)}")
    return 0


__all__ = [
    "Policies",
    "add_challenge_probs",
    "calls_possible",
    "challenge_probability",
    "challenge_rule",
    "cmd_deception",
    "load_rows",
    "positions",
    "reports",
]
