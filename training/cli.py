"""The ``smuggle`` command line: list the games, play one against bots, run bot matches, and print
stored replays.

    smuggle list
    smuggle play smuggle_v0 --players 4 --seat 0
    smuggle match --agents rule,random,random,random --games 300
    smuggle replay-json game.json

Heavy or optional modules (the agents, tqdm, anything that might pull in torch) are imported only
inside the subcommand that needs them, so ``smuggle list`` starts instantly.

Exit codes: 0 success; 1 a ``play`` game abandoned because input ended (EOF); 2 a bad request
(unknown env id, bad player count, bad option, unreadable replay), reported on one line;
130 interrupted with Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

PROG = "smuggle"
MENU_LIMIT = 24  # legal actions listed in full; more than this and ``play`` asks for a filter
FILTER_LIMIT = 40  # filtered actions shown at most


class _Exit(Exception):
    """Leave a subcommand early with a message and an exit code."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def _err(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _warn(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def _warn_once():
    """A warning printer that prints each distinct message once (e.g. one missing bot, many seats)."""
    seen: set[str] = set()

    def warn(message: str) -> None:
        if message not in seen:
            seen.add(message)
            _warn(message)

    return warn


# ----- list --------------------------------------------------------------------------------------
def cmd_list(args) -> int:
    from smuggle_envs import registry
    from training.match import format_table

    rows = []
    for entry in registry.describe():
        game = registry.make_game(entry["env_id"])
        rows.append(
            [
                entry["env_id"],
                entry["game"],
                entry["players"],
                game.num_players,
                game.observation_layout.size,
                game.num_actions,
            ]
        )
    print(format_table(["env id", "game", "players", "default", "obs size", "actions"], rows, align="lllrrr"))
    print("\nobs size and actions are at the default player count.")
    return 0


# ----- play --------------------------------------------------------------------------------------
def read_line(prompt: str) -> str:
    """One line of the person's input (tests replace ``builtins.input``)."""
    return input(prompt)


def _render(state, seat: int) -> str:
    """The table from ``seat``'s point of view; a broken renderer must not end a person's game."""
    try:
        return state.render(player=seat)
    except Exception as exc:
        return f"(the table cannot be shown: {type(exc).__name__}: {exc})"


def _menu_lines(indices: Sequence[int], texts: Sequence[str]) -> list[str]:
    width = len(str(len(texts)))
    return [f"  {i + 1:>{width}}. {texts[i]}" for i in indices]


def _filter_example(texts: Sequence[str]) -> str:
    for text in texts[1:] + texts[:1]:
        words = text.split()
        if len(words) > 1:
            return words[-1].strip(",")
    return texts[0]


def choose_action(state, seat: int) -> int:
    """Ask the person at ``seat`` for one legal action; re-prompts on bad input.

    Accepted input: a number from the list (numbers are positions in the full list of legal
    actions, so they stay the same whatever filter is shown); the exact text of an action; any
    other text filters the actions to those containing every word of it; ``?`` lists every legal
    action; ``quit`` leaves. Raises ``_Exit`` on quit or end of input.
    """
    legal = list(state.legal_actions())
    texts = [state.action_to_string(a) for a in legal]
    lowered = [t.lower() for t in texts]
    print()
    print(_render(state, seat))
    print()
    if len(legal) <= MENU_LIMIT:
        print("Your move:")
        print("\n".join(_menu_lines(range(len(legal)), texts)))
    else:
        print(
            f"Your move: {len(legal)} legal actions, too many to list. Type words to filter them "
            f"(e.g. '{_filter_example(texts)}'), '?' to list them all, or a number."
        )
    while True:
        try:
            line = read_line(f"P{seat} choose (1-{len(legal)}, text to filter, ? for all, quit)> ")
        except EOFError:
            raise _Exit("input ended (EOF) before the game was over; game abandoned", 1) from None
        text = " ".join(line.strip().split())
        if not text:
            print(
                "  Please type a number from the list, some text to filter the actions, "
                "'?' to list them all, or 'quit'."
            )
            continue
        low = text.lower()
        if low in ("quit", "exit", "q"):
            raise _Exit("you left the game", 0)
        if low in ("?", "list", "all"):
            print("\n".join(_menu_lines(range(len(legal)), texts)))
            continue
        if text.lstrip("+-").isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            print(f"  {number} is out of range: choose a number from 1 to {len(legal)}.")
            continue
        if low in lowered:
            return legal[lowered.index(low)]
        words = low.split()
        matches = [i for i, t in enumerate(lowered) if all(w in t for w in words)]
        if not matches:
            print(
                f"  No legal action matches '{text}'. Type a number from 1 to {len(legal)}, "
                f"other text, or '?' to list every legal action."
            )
            continue
        print(f"  {len(matches)} legal action(s) match '{text}':")
        print("\n".join(_menu_lines(matches[:FILTER_LIMIT], texts)))
        if len(matches) > FILTER_LIMIT:
            print(f"  ... and {len(matches) - FILTER_LIMIT} more; type more words to narrow them.")
        print("  Type the number of your choice.")


def cmd_play(args) -> int:
    from smuggle_envs import make_game
    from smuggle_envs.core.game import new_seed
    from training.match import build_agent, final_summary, fmt_num, money_changes

    game = make_game(args.env_id, **({} if args.players is None else {"num_players": args.players}))
    n = game.num_players
    if not 0 <= args.seat < n:
        raise _Exit(f"--seat {args.seat} is not a seat of a {n}-player game; choose 0 to {n - 1}", 2)
    seed = new_seed() if args.seed is None else args.seed
    bots, labels = {}, {}
    warn = _warn_once()
    for p in range(n):
        if p != args.seat:
            bots[p], labels[p] = build_agent(args.bots, game, seed=seed * 1000 + p, warn=warn)
    labels[args.seat] = "you"
    state = game.new_initial_state(seed)
    for p, bot in bots.items():
        bot.reset(seed * 1000 + p)

    print(
        f"{args.env_id}, {n} players, seed {seed}. You are P{args.seat}; "
        + ", ".join(f"P{p} is {labels[p]}" for p in sorted(bots))
        + "."
    )
    while not state.is_terminal():
        player = state.current_player()
        if player == args.seat:
            action = choose_action(state, args.seat)
        else:
            action = bots[player].act(state.observation(player), state.legal_action_mask())
        before = list(state.scores())
        text = state.action_to_string(action)
        state.apply_action(action)
        changes = money_changes(before, state.scores())
        print(f"P{player} ({labels[player]}): {text}" + (f"   [{changes}]" if changes else ""))
    print()
    print(_render(state, args.seat))
    print()
    print(final_summary(state, [labels[p] for p in range(n)]))
    mine = state.scores()[args.seat]
    best = max(state.scores())
    print("You won!" if mine == best else f"You finished with {fmt_num(mine)}; the best was {fmt_num(best)}.")
    if args.save_replay:
        _write(args.save_replay, state.to_replay().to_json())
        print(f"replay written to {args.save_replay}")
    return 0


# ----- match -------------------------------------------------------------------------------------
def cmd_match(args) -> int:
    from smuggle_envs import make_game
    from training.match import build_lineup, lineup_for_game, parse_lineup, play_logged_game, results_table, run_match

    # Built first so that a bad env id or player count is reported as the user wrote it.
    default_players = make_game(
        args.env_id, **({} if args.players is None else {"num_players": args.players})
    ).num_players
    specs = parse_lineup(args.agents, args.players, default_players)
    game = make_game(args.env_id, num_players=len(specs))
    if args.games < 0:
        raise _Exit(f"--games must be 0 or more, got {args.games}", 2)
    agents, labels = build_lineup(specs, game, args.seed, warn=_warn_once())
    n = game.num_players

    print(f"match: {args.env_id}, {n} players, lineup {', '.join(labels)}, seed {args.seed}, {args.games} games")
    if not args.quiet or args.save_replay:
        if not args.quiet:
            print(
                f"\n=== sample game (= game 0 of the match): seed {args.seed}; "
                + ", ".join(f"P{p} {lab}" for p, lab in enumerate(lineup_for_game(labels, 0)))
                + " ==="
            )
            state = play_logged_game(game, agents, labels, args.seed)
        else:
            from agents.arena import play_game

            state = play_game(game, agents, args.seed)
        if args.save_replay:
            _write(args.save_replay, state.to_replay().to_json())
            print(f"replay of the sample game written to {args.save_replay}")

    if args.games:
        records = run_match(game, agents, labels, args.seed, args.games, progress=not args.quiet)
        print(
            f"\n=== results: {args.games} games, seats rotated each game, game g uses seed "
            f"{args.seed}+g; a shared win counts 1/k; a seat's fair share is {100 / n:.1f}% ==="
        )
        print(results_table(records))
    return 0


# ----- replay-json -------------------------------------------------------------------------------
def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as exc:
        raise _Exit(f"cannot write {path}: {exc.strerror or exc}", 2) from None


def cmd_replay_json(args) -> int:
    import json

    from smuggle_envs.core import IllegalActionError, MalformedActionError, Replay
    from training.match import GameLog

    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise _Exit(f"cannot read {args.file}: {exc.strerror or exc}", 2) from None
    try:
        replay = Replay.from_json(text)
    except (ValueError, TypeError, KeyError) as exc:  # JSONDecodeError is a ValueError
        kind = "not valid JSON" if isinstance(exc, json.JSONDecodeError) else "not a replay"
        raise _Exit(f"{args.file} is {kind}: {exc}", 2) from None
    if not isinstance(replay.env_id, str) or not isinstance(replay.config, dict):
        raise _Exit(f"{args.file} is not a replay: 'env_id' must be a string and 'config' an object", 2)
    print(f"replay: {replay.env_id}, config {replay.config}, seed {replay.seed}, {len(replay.actions)} actions")
    log = GameLog()
    state = None
    try:
        for state, action in replay.states():
            if action is not None:
                player = state.current_player()
                state.check_action(action)  # refuses a bad action without side effects
                log.step(state, player, action)
    except (IllegalActionError, MalformedActionError) as exc:
        failed = log.count + 1
        log.flush(state)
        raise _Exit(f"the replay's action {failed} cannot be applied: {exc}", 2) from None
    log.finish(state)
    return 0


# ----- argument parsing --------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=formatter,
        description="Smuggling and customs card games as PettingZoo environments:\n"
        "list them, play one against bots, run bot matches, print replays.",
        epilog="Run 'smuggle COMMAND --help' for the options of one command.\n"
        "Exit codes: 0 ok; 1 'play' abandoned at end of input; 2 bad request; 130 Ctrl-C.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "list",
        help="list the games: env ids, player counts, observation and action sizes",
        description="List every env id with its game, player range, default player count, "
        "and the observation size and number of actions at that count.",
    )
    p.set_defaults(func=cmd_list)

    p = sub.add_parser(
        "play",
        help="play one seat of a game in the terminal against bots",
        formatter_class=formatter,
        description="Play one seat against bots. On each of your turns the table is shown from your "
        "seat and you choose an action:\n"
        "  NUMBER      the action with that number (numbers never change within a turn)\n"
        "  TEXT        the exact text of an action (e.g. 'declare wine x2'), or words that\n"
        "              filter the legal actions (e.g. 'wine', 'crown bag') - then type a number\n"
        "  ?           list every legal action\n"
        "  quit        leave the game (exit code 0)\n"
        "If input ends (EOF) before the game is over, the game is abandoned with exit code 1.",
        epilog="example: smuggle play smuggle_v0 --players 4 --seat 0 --seed 7",
    )
    p.add_argument("env_id", metavar="ENV_ID", help="the game, e.g. smuggle_v0 (see 'smuggle list')")
    p.add_argument("--players", type=int, metavar="N", help="number of players (default: the game's default)")
    p.add_argument("--seat", type=int, default=0, metavar="S", help="your seat, 0 to N-1 (default: 0)")
    p.add_argument("--seed", type=int, metavar="K", help="game seed (default: a random one, printed)")
    p.add_argument(
        "--bots",
        default="rule",
        metavar="SPEC",
        help="the agent in every other seat: rule, random, or a trained model "
        "ppo:PATH (default: rule; random, with a warning, where the game has no rule bot)",
    )
    p.add_argument("--save-replay", metavar="FILE", help="write the finished game as replay JSON")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "match",
        help="play bots against each other: one logged game, then many for statistics",
        formatter_class=formatter,
        description="Play one seeded game printed turn by turn (the same game as game 0 of the\n"
        "match), then G games with the seats rotated: game g uses seed K+g and seat s is\n"
        "played by agent (s+g) mod N of the lineup. A progress bar goes to stderr. The\n"
        "results table gives per agent: seat-games, wins (a win shared by k players\n"
        "counts 1/k), win rate with a 95% Wilson interval, and mean final score.\n"
        "Agents named twice are pooled in one row. Same arguments, same output.",
        epilog="examples:\n  smuggle match\n  smuggle match smuggle_v0 --agents rule,random,random --games 1000 --quiet\n"
        "  smuggle match --games 0 --save-replay game.json",
    )
    p.add_argument("env_id", metavar="ENV_ID", nargs="?", default="smuggle_v0", help="the game (default: smuggle_v0)")
    p.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="number of players (default: the number of --agents, else the game's default)",
    )
    p.add_argument(
        "--agents",
        metavar="SPECS",
        help="comma-separated agent per seat, e.g. rule,random,random,random; one name fills "
        "every seat (default: rule then random; rule falls back to random, with a warning, "
        "where the game has no rule bot)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="K", help="base seed (default: 0)")
    p.add_argument(
        "--games",
        type=int,
        default=300,
        metavar="G",
        help="games for the statistics (default: 300; 0 plays only the sample game)",
    )
    p.add_argument(
        "--quiet",
        action="store_true",
        help="skip the turn-by-turn sample game and the progress bar; print only the results",
    )
    p.add_argument("--save-replay", metavar="FILE", help="write the sample game (game 0) as replay JSON")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser(
        "replay-json",
        help="print a game stored as replay JSON, turn by turn",
        description="Print a game stored as replay JSON (as written by 'smuggle match "
        "--save-replay' or Replay.to_json) turn by turn, with the full table "
        "at every round and the final scores.",
    )
    p.add_argument("file", metavar="FILE", help="the replay JSON file")
    p.set_defaults(func=cmd_replay_json)

    from training.selfplay.cli import register as register_train
    from training.tournament.cli import register as register_tournament

    register_train(sub)
    register_tournament(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse already printed
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)

    from smuggle_envs.core.errors import ConfigError
    from training.match import UsageError

    try:
        return args.func(args)
    except (ConfigError, UsageError) as exc:
        _err(str(exc))
        return 2
    except _Exit as exc:
        (_err if exc.code else print)(str(exc))
        return exc.code
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. 'smuggle match | head': stop quietly
        import os

        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
