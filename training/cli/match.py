"""``smuggle match``: bots against each other. One seeded game printed turn by turn (the same game
as game 0 of the match), then G games with the seats rotated and a results table per agent:
seat-games, wins (a shared win counts 1/k), win rate with a 95% Wilson interval, mean score."""

from __future__ import annotations

import argparse
from typing import Any

from agents.arena import play_game
from agents.base import Agent
from smuggle_envs import GameSpec
from smuggle_envs.core.game import Game, State
from training.match import build_lineup, lineup_for_game, parse_lineup, play_logged_game, results_table, run_match

from ..errors import UsageError, warn_once
from ..paths import check_writable_file, write_text


def cmd_match(args: argparse.Namespace) -> int:
    # Checked first, so that a bad env id or player count is reported as the user wrote it.
    spec = GameSpec(args.env_id, {} if args.players is None else {"num_players": args.players})
    specs = parse_lineup(args.agents, args.players, spec.num_players)
    game = spec.with_players(len(specs)).make_game()
    if args.games < 0:
        raise UsageError(f"--games must be 0 or more, got {args.games}", 2)
    if args.save_replay:
        check_writable_file(args.save_replay, "--save-replay")
    agents, labels = build_lineup(specs, game, args.seed, warn=warn_once())
    n = game.num_players

    print(f"match: {args.env_id}, {n} players, lineup {', '.join(labels)}, seed {args.seed}, {args.games} games")
    if not args.quiet or args.save_replay:
        state = _sample_game(args, game, agents, labels)
        if args.save_replay:
            write_text(args.save_replay, state.to_replay().to_json())
            print(f"replay of the sample game written to {args.save_replay}")

    if args.games:
        records = run_match(game, agents, labels, args.seed, args.games, progress=not args.quiet)
        print(
            f"\n=== results: {args.games} games, seats rotated each game, game g uses seed "
            f"{args.seed}+g; a shared win counts 1/k; a seat's fair share is {100 / n:.1f}% ==="
        )
        print(results_table(records))
    return 0


def _sample_game(args: argparse.Namespace, game: Game, agents: list[Agent], labels: list[str]) -> State[Any]:
    """Game 0 of the match, printed turn by turn unless ``--quiet``; returns its final state."""
    if args.quiet:
        return play_game(game, agents, args.seed)
    print(
        f"\n=== sample game (= game 0 of the match): seed {args.seed}; "
        + ", ".join(f"P{p} {lab}" for p, lab in enumerate(lineup_for_game(labels, 0)))
        + " ==="
    )
    return play_logged_game(game, agents, labels, args.seed)
