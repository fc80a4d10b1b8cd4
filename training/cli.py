"""The ``smuggle`` command line: list the games, play one against bots, run bot matches, and print
stored replays.

    smuggle list
    smuggle play smuggle_v0 --players 4 --seat 0
    smuggle match --agents rule,random,random,random --games 300
    smuggle replay-json game.json

Heavy or optional modules (the agents, tqdm, anything that might pull in torch) are imported only
inside the subcommand that needs them, so ``smuggle list`` starts instantly.

Every error a user can cause is reported by ``training.match.run_command`` (the one place that
does, for ``python -m training.tournament.cli`` and ``python -m training.selfplay`` too): one line
``smuggle: error: MESSAGE`` on stderr, no traceback. Exit codes: 0 success; 1 a ``play`` game
abandoned because input ended (EOF), or a run that failed part-way (what it finished is kept and
the message says where); 2 a bad request (unknown env id, bad player count, bad option, a missing
or unusable model or replay file, a folder that cannot be written); 130 interrupted with Ctrl-C
(``train`` saves a checkpoint first).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

# Light (the standard library only): 'smuggle list' stays instant.
from training.match import PROG, UsageError, parse_args, run_command, warn_once

if TYPE_CHECKING:
    from agents.base import Agent
    from smuggle_envs.core.game import State

MENU_LIMIT = 24  # legal actions listed in full; more than this and ``play`` asks for a filter
FILTER_LIMIT = 40  # filtered actions shown at most


class _Exit(UsageError):
    """Leave a subcommand early with a message and an exit code (``run_command`` prints it: on
    stdout for code 0, as ``smuggle: error: ...`` otherwise)."""

    def __init__(self, message: str, code: int):
        super().__init__(message, code)


# ----- list --------------------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> int:
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


def _render(state: State[Any], seat: int) -> str:
    """The table from ``seat``'s point of view; a broken renderer must not end a person's game."""
    try:
        return str(state.render(player=seat))
    except Exception as exc:
        return f"(the table cannot be shown: {type(exc).__name__}: {exc})"


def _menu_lines(indices: Sequence[int], texts: Sequence[str]) -> list[str]:
    width = len(str(len(texts)))
    return [f"  {i + 1:>{width}}. {texts[i]}" for i in indices]


def _filter_example(texts: Sequence[str]) -> str:
    for text in [*texts[1:], *texts[:1]]:
        words = text.split()
        if len(words) > 1:
            return words[-1].strip(",")
    return str(texts[0])


def choose_action(state: State[Any], seat: int) -> int:
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
                return int(legal[number - 1])
            print(f"  {number} is out of range: choose a number from 1 to {len(legal)}.")
            continue
        if low in lowered:
            return int(legal[lowered.index(low)])
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


def cmd_play(args: argparse.Namespace) -> int:
    from agents.base import decide
    from smuggle_envs import make_game
    from smuggle_envs.core.driver import Driver
    from smuggle_envs.core.game import new_seed
    from training.match import build_agent, check_writable_file, final_summary, fmt_num, money_changes

    game = make_game(args.env_id, **({} if args.players is None else {"num_players": args.players}))
    n = game.num_players
    if not 0 <= args.seat < n:
        raise _Exit(f"--seat {args.seat} is not a seat of a {n}-player game; choose 0 to {n - 1}", 2)
    if args.save_replay:  # checked now, not after a whole game
        check_writable_file(args.save_replay, "--save-replay")
    seed = new_seed() if args.seed is None else args.seed
    bots: dict[int, Agent] = {}
    labels: dict[int, str] = {}
    warn = warn_once()
    for p in range(n):
        if p != args.seat:
            bots[p], labels[p] = build_agent(args.bots, game, seed=seed * 1000 + p, warn=warn)
    labels[args.seat] = "you"
    driver = Driver(game)
    state = driver.reset(seed)
    for p, bot in bots.items():
        bot.reset(seed * 1000 + p)

    print(
        f"{args.env_id}, {n} players, seed {seed}. You are P{args.seat}; "
        + ", ".join(f"P{p} is {labels[p]}" for p in sorted(bots))
        + "."
    )
    while not driver.done:
        player = state.current_player()
        if player == args.seat:
            action = choose_action(state, args.seat)
        else:
            action = decide(bots[player], state, player)
        before = list(state.scores())
        # The person sees a bot's action only as far as their seat may: a face-down choice or a
        # sealed bid reads as such, never which card or how much.
        text = state.action_to_string(action, args.seat)
        driver.step(action)
        changes = money_changes(before, state.scores())
        print(f"P{player} ({labels[player]}): {text}" + (f"   [{changes}]" if changes else ""))
    print()
    print(_render(state, args.seat))
    print()
    print(final_summary(state, [labels[p] for p in range(n)]))
    mine = state.scores()[args.seat]
    if driver.truncated:
        print(f"No winner: the game was stopped by its turn limit. You finished with {fmt_num(mine)}.")
    elif args.seat in driver.winning_seats():
        print("You won!")
    else:
        print(f"You finished with {fmt_num(mine)}; the best was {fmt_num(max(state.scores()))}.")
    if args.save_replay:
        _write(args.save_replay, state.to_replay().to_json())
        print(f"replay written to {args.save_replay}")
    return 0


# ----- match -------------------------------------------------------------------------------------
def cmd_match(args: argparse.Namespace) -> int:
    from smuggle_envs import make_game
    from training.match import (
        build_lineup,
        check_writable_file,
        lineup_for_game,
        parse_lineup,
        play_logged_game,
        results_table,
        run_match,
    )

    # Built first so that a bad env id or player count is reported as the user wrote it.
    default_players = make_game(
        args.env_id, **({} if args.players is None else {"num_players": args.players})
    ).num_players
    specs = parse_lineup(args.agents, args.players, default_players)
    game = make_game(args.env_id, num_players=len(specs))
    if args.games < 0:
        raise _Exit(f"--games must be 0 or more, got {args.games}", 2)
    if args.save_replay:
        check_writable_file(args.save_replay, "--save-replay")
    agents, labels = build_lineup(specs, game, args.seed, warn=warn_once())
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


def cmd_replay_json(args: argparse.Namespace) -> int:
    import json

    from smuggle_envs.core import Replay
    from training.match import GameLog, ReplayActionError, print_replay

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
    seat = _replay_seat(args.seat, replay.config, replay.env_id)
    try:
        print_replay(replay.game(), replay.seed, replay.actions, GameLog(viewer=seat))
    except ReplayActionError as exc:
        raise _Exit(f"the replay's action {exc.number} cannot be applied: {exc.cause}", 2) from None
    return 0


def _replay_seat(seat: int | None, config: dict[str, Any], env_id: str) -> int | None:
    """``--seat`` of a replay, checked against the game's player count."""
    if seat is None:
        return None
    from smuggle_envs import game_class

    cls = game_class(env_id)
    n = config.get("num_players", cls.config_class().num_players)
    if not 0 <= seat < n:
        raise _Exit(f"--seat {seat} is not a seat of this {n}-player game; choose 0 to {n - 1}", 2)
    return seat


# ----- argument parsing --------------------------------------------------------------------------
class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps each subcommand and its help on one line: argparse leaves the subcommands' extra
    indentation out of the width of the name column, so a long name (replay-json) wrapped."""

    def add_argument(self, action: argparse.Action) -> None:
        if action.help is not argparse.SUPPRESS and isinstance(action, argparse._SubParsersAction):
            names = [self._format_action_invocation(a) for a in action._get_subactions()]
            longest = max(map(len, names), default=0) + self._current_indent + self._indent_increment
            self._action_max_length = max(self._action_max_length, longest)
        super().add_argument(action)


class _VersionAction(argparse.Action):
    """``--version``: the package version, imported only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: Any = None
    ) -> NoReturn:
        from smuggle_envs import __version__

        print(f"{PROG} (smuggle_envs) {__version__}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=_HelpFormatter,
        description="Smuggling and customs card games as PettingZoo environments: list them,\n"
        "play one against bots, run bot matches and tournaments, train agents.",
        epilog="Run 'smuggle COMMAND --help' for the options of one command.\n"
        "Exit codes: 0 ok; 1 'play' abandoned at end of input, or a run failed part-way;\n"
        "2 bad request; 130 Ctrl-C.",
    )
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "list",
        help="list the env ids: players, observation size, actions",
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
        help="play bots against each other: a logged game, then statistics",
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
    p.add_argument(
        "--seat",
        type=int,
        metavar="S",
        help="show the game as seat S saw it: its own table and the others' actions as far as S saw them",
    )
    p.set_defaults(func=cmd_replay_json)

    from training.exploit import register as register_exploit
    from training.selfplay.cli import register as register_train
    from training.tournament.cli import register as register_tournament
    from training.web.cli import register as register_web
    from training.zoo import register as register_zoo

    register_train(sub)
    register_tournament(sub)
    register_exploit(sub)
    register_web(sub)
    register_zoo(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(build_parser(), argv)
    return args if isinstance(args, int) else run_command(args, PROG)


if __name__ == "__main__":
    raise SystemExit(main())
