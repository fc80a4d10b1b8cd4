"""Subcommands ``tournament``, ``replay`` and ``analyze`` of the ``smuggle`` command line.

Their parsers are in ``parser.py``; ``training.cli.COMMANDS`` names both, and imports this module
only when one of them runs. It also runs on its own: ``python -m training.tournament.cli
tournament smuggle_v0 ...``.

    smuggle tournament smuggle_v0 --players 4 --agents rule,random,random,random,random --games 200
    smuggle replay results.sqlite 17
    smuggle analyze results.sqlite

Handlers return an exit code; a bad request raises ``training.errors.UsageError`` (or the
library's ``ConfigError``), which the command line prints on one line with exit code 2. A game
that fails (an agent raised), or a report that cannot be written at the end, raises a
``UsageError`` with code 1 whose message says how many games are stored, and where; those games
are kept. Folders written to are checked before the first game is played. ``replay`` and
``analyze`` open the database read-only: they work in a read-only folder and leave no files.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from smuggle_envs import GameSpec
from training.analytics import analysis_paths, analyze_tournament, calls_report, write_calls_jsonl
from training.db import DatabaseError, Tournament, TournamentDB
from training.errors import PROG, Handler, UsageError, os_error_text, run, warn, warn_once
from training.gamelog import GameLog, ReplayActionError, print_replay
from training.paths import check_writable_file, unwritable_reason, writable_dir
from training.stats import fmt_num

from . import schedule as sched
from .parser import add_analyze, add_replay, add_tournament
from .ratings import Standings, standings_for
from .report import head_to_head_table, leaderboard_table, write_report
from .runner import TournamentError, resolve_agents, run_tournament


def _open_db(path: str, create: bool = False, readonly: bool = False) -> TournamentDB:
    try:
        return TournamentDB(path, create=create, readonly=readonly)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None


def _config_value(text: str) -> Any:
    """``KEY=VALUE`` values: JSON when it parses (3000, true, null), else the plain string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_config(items: Sequence[str] | None) -> dict[str, Any]:
    config = {}
    for item in items or ():
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"--config {item!r} is not KEY=VALUE (e.g. --config bankruptcy=eliminate)")
        config[key.strip()] = _config_value(value.strip())
    return config


def _out_dir(args: argparse.Namespace) -> Path:
    return Path(args.out) if args.out else Path(args.db).resolve().parent


def _stem(args: argparse.Namespace, tournament_id: int) -> str:
    """Output files are named after the database and the tournament: results_t1_leaderboard.csv."""
    return f"{Path(args.db).stem}_t{tournament_id}"


# ----- tournament --------------------------------------------------------------------------------
def _tournament_game(args: argparse.Namespace) -> tuple[GameSpec, list[str]]:
    """The game (its options, and the player count: ``--players``, else the game's default, or
    fewer when fewer agents are named) and the agent specs; one-line errors for bad requests."""
    config = parse_config(args.config)
    if "num_players" in config and args.players is not None:
        raise UsageError("give the player count once: --players or --config num_players=...")
    specs = [s.strip() for s in args.agents.split(",")]
    if any(not s for s in specs):
        raise UsageError(f"--agents {args.agents!r} has an empty entry; write e.g. rule,random,random,random")
    if args.players is not None:
        config["num_players"] = args.players
    spec = GameSpec(args.env_id, config)  # ConfigError names a bad option or count
    if "num_players" not in config and len(specs) < spec.num_players:
        spec = spec.with_players(len(specs))
    return spec, specs


def _check_numbers(args: argparse.Namespace, n: int, agents: int) -> None:
    """The counts and seeds of the request, checked before anything is built."""
    if agents < n:
        raise UsageError(
            f"a {n}-player game needs at least {n} agents, --agents names {agents}; "
            f"name a spec more than once for copies (e.g. rule,random,random,random)"
        )
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, got {args.seed}")
    if args.bootstrap < 0:
        raise UsageError(f"--bootstrap must be 0 or more, got {args.bootstrap}")


def cmd_tournament(args: argparse.Namespace) -> int:
    spec, specs = _tournament_game(args)
    game = spec.make_game()
    n = game.num_players
    _check_numbers(args, n, len(specs))
    agents = resolve_agents(game, specs, warn=warn_once())
    # Every folder written to is checked before the first game: the database's (SQLite also
    # writes its -wal and -shm files there) and the one for the CSV and PNG files.
    writable_dir(Path(args.db).parent, "the database's folder", f"choose another --db than {args.db}")
    if args.out:
        writable_dir(args.out, "the output folder", "choose another --out")
    db = _open_db(args.db, create=True)
    try:
        tournament, created = db.find_or_create(
            GameSpec(args.env_id, game.config.to_dict()),
            agents,
            args.games,
            args.seed,
            lambda: sched.game_specs(len(agents), n, args.games, args.seed, seating=args.seating),
            seating=args.seating,
        )
        _print_schedule(args, db, tournament, n, created)
        _play(args, db, tournament)
        standings = standings_for(db, tournament, bootstrap=args.bootstrap)
        _print_standings(standings)
        _write_report(args, db, tournament, standings)
        lo, hi = db.game_id_range(tournament.id)
        print(
            f"replay a game: {PROG} replay {args.db} GAME_ID (this tournament's games are ids "
            f"{lo} to {hi}); bluffing analytics: {PROG} analyze {args.db} --tournament {tournament.id}"
        )
        return 0
    finally:
        db.close()


def _print_schedule(args: argparse.Namespace, db: TournamentDB, tournament: Tournament, n: int, created: bool) -> None:
    """The tournament's agents and schedule, and how much of it is stored already."""
    names = tournament.names
    per_deal = sched.games_per_deal(n, args.seating)
    deals = len(tournament.schedule) // per_deal
    lineups = len({tuple(sorted(s.lineup)) for s in tournament.schedule})
    stored = db.count_games(tournament.id)
    print(
        f"tournament {tournament.id} in {args.db}: {args.env_id}, {n} players, "
        f"{len(names)} agents ({', '.join(names)}), seed {args.seed}"
    )
    if args.seating == "rotation":
        seating_text = f"{n} seat rotations"
    elif per_deal == math.factorial(n):
        seating_text = f"all {per_deal} seat permutations"
    else:
        seating_text = f"{per_deal} seat permutations (balanced: seats and clockwise neighbours)"
    print(
        f"schedule: {tournament.games} games = {deals} deal{'s' if deals != 1 else ''} x {seating_text} "
        f"({lineups} lineup{'s' if lineups != 1 else ''}, each pair of agents meeting equally "
        f"often); {args.games} requested"
    )
    if not created:
        print(
            f"resuming: {stored} of {tournament.games} games already stored"
            if stored < tournament.games
            else f"complete: all {stored} games already stored"
        )


def _play(args: argparse.Namespace, db: TournamentDB, tournament: Tournament) -> None:
    """Play the games the database lacks; a failed game or Ctrl-C says how many are stored."""
    try:
        summary = run_tournament(
            db,
            tournament,
            workers=args.workers,
            backend=args.backend,
            ray_address=args.ray_address,
            progress=not args.quiet,
        )
    except TournamentError as exc:
        raise UsageError(
            f"{exc}; {db.count_games(tournament.id)} of {tournament.games} games are stored in "
            f"{args.db}; fix the agent and run the same command to resume",
            code=1,
        ) from None
    except KeyboardInterrupt:
        print(
            f"\n{PROG}: {db.count_games(tournament.id)} of {tournament.games} games are stored; "
            f"run the same command to resume",
            file=sys.stderr,
        )
        raise
    if summary.played or summary.duplicates:
        rate = summary.played / summary.seconds if summary.seconds > 0 else 0.0
        print(
            f"played {summary.played} games in {summary.seconds:.1f} s ({rate:.1f} games/s, "
            f"{args.backend} backend)"
            + (f"; {summary.duplicates} were already stored by another run" if summary.duplicates else "")
        )


def _print_standings(standings: Standings) -> None:
    print(
        f"\n=== leaderboard: Plackett-Luce rating (Elo-like points, batch fit of all "
        f"{standings.games} games) with a 95% bootstrap interval over {standings.deals} deals "
        f"({standings.bootstrap} resamples); a shared win counts 1/k; mean-score interval over "
        f"deals; openskill ordinal (mu - 3 sigma) as a cross-check ==="
    )
    print(leaderboard_table(standings))
    print("\n=== head to head: share of common games the row agent finished ahead ===")
    print(head_to_head_table(standings))


def _write_report(args: argparse.Namespace, db: TournamentDB, tournament: Tournament, standings: Standings) -> None:
    """The leaderboard's CSV and PNG files; a failure says the games are kept, and where."""
    try:
        written = write_report(
            standings,
            _out_dir(args),
            _stem(args, tournament.id),
            title=args.env_id,
            specs={a.name: a.spec for a in tournament.agents},
            plots=not args.no_plots,
        )
    except OSError as exc:
        raise UsageError(
            f"cannot write the leaderboard files to {_out_dir(args)}: {os_error_text(exc)}. The games are "
            f"saved: {db.count_games(tournament.id)} of {tournament.games} games of tournament "
            f"{tournament.id} are stored in {args.db}; run the same command with --out DIR to write "
            f"the files elsewhere (no game is played again)",
            code=1,
        ) from None
    print("\nwritten: " + ", ".join(str(p) for p in written))


# ----- replay ------------------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace) -> int:
    db = _open_db(args.db, readonly=True)
    try:
        try:
            record = db.game(args.game_id)
        except DatabaseError as exc:
            raise UsageError(str(exc)) from None
    finally:
        db.close()
    seating = record.seating
    print(
        f"game {record.id} of tournament {record.tournament_id} (deal {record.deal}, rotation "
        f"{record.rotation}, key {record.game_key}): {record.env_id}, config {record.config}, "
        f"seed {record.seed}, {record.decisions} decisions"
    )
    print("seats: " + ", ".join(f"P{p} {name}" for p, name in enumerate(seating)))
    seat = args.seat
    if seat is not None and not 0 <= seat < len(seating):
        raise UsageError(
            f"--seat {seat} is not a seat of this {len(seating)}-player game; choose 0 to {len(seating) - 1}"
        )
    try:
        state = print_replay(record.replay().game(), record.seed, record.actions, GameLog(viewer=seat, labels=seating))
    except ReplayActionError as exc:
        raise UsageError(f"stored action {exc.number} cannot be applied: {exc.cause}", code=1) from None
    stored = ", ".join(
        f"P{p} ({name}) {fmt_num(s)}, rank {fmt_num(r)}"
        for p, (name, s, r) in enumerate(zip(seating, record.scores, record.ranks))
    )
    print(f"stored result: {stored}")
    if [float(s) for s in state.scores()] != [float(s) for s in record.scores]:
        raise UsageError(
            f"the replay's final scores {state.scores()} differ from the stored "
            f"ones (was the game engine changed since?)",
            code=1,
        )
    return 0


# ----- analyze -----------------------------------------------------------------------------------
def cmd_analyze(args: argparse.Namespace) -> int:
    if args.deception:  # the deception metrics instead (training/bluffing/deception.py)
        from training.bluffing.deception import cmd_deception

        return cmd_deception(args)
    if args.plot:
        raise UsageError("--plot draws the deception metrics: add --deception (the analysis' own PNG goes to --out)")
    out = _out_dir(args)
    write_files = True
    _check_outputs(args, out)  # before the analysis, which can take a while
    db = _open_db(args.db, readonly=True)
    if not args.out and (reason := unwritable_reason(out)) is not None:
        write_files = False  # e.g. a database in a read-only folder: the analysis is still printed
        warn(
            f"note: the CSV and PNG files are not written: the database's folder {out} is not "
            f"writable ({reason}); add --out DIR to write them elsewhere"
        )
    try:
        ids = _analyzed_ids(db, args)
        for i, tid in enumerate(ids):
            _analyze_one(db, args, tid, out if write_files else None, after=i > 0)
        if args.calls_out:
            _export_calls(db, ids, args.calls_out)
        return 0
    finally:
        db.close()


def _analyzed_ids(db: TournamentDB, args: argparse.Namespace) -> list[int]:
    """The tournaments ``analyze`` reports: ``--tournament``, else every one in the database."""
    ids = db.tournament_ids()
    if not ids:
        raise UsageError(f"{args.db} holds no tournaments")
    if args.tournament is not None:
        if args.tournament not in ids:
            raise UsageError(f"no tournament {args.tournament} in {args.db}; it has {', '.join(map(str, ids))}")
        ids = [args.tournament]
    return ids


def _analyze_one(db: TournamentDB, args: argparse.Namespace, tid: int, out: Path | None, after: bool) -> None:
    """Print the analysis of tournament ``tid`` (and its agents' records; ``after`` another one:
    a blank line first), and write its files to ``out`` (None: not written)."""
    try:
        tournament = db.tournament(tid)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    stored = db.count_games(tid)
    if after:
        print()
    print(
        f"=== tournament {tid}: {tournament.env_id}, {tournament.num_players} players, "
        f"agents {', '.join(tournament.names)}; {stored} of {tournament.games} games stored ==="
    )
    analysis = analyze_tournament(db, tournament)
    print(analysis.text())
    _print_calls(db, tid)
    if out is None:
        return
    paths = analysis_paths(out, _stem(args, tid), analysis)
    try:
        out.mkdir(parents=True, exist_ok=True)
        analysis.write_csv(paths["csv"])
        written = [paths["csv"]]
        if not args.no_plots:
            analysis.plot(paths["png"], title=f"tournament {tid}: {tournament.env_id} {analysis.title}")
            written.append(paths["png"])
    except OSError as exc:
        raise UsageError(
            f"cannot write the analysis files to {out}: {os_error_text(exc)}; the analysis of "
            f"tournament {tid} is printed above; add --out DIR to write the files elsewhere",
            code=1,
        ) from None
    print("\nwritten: " + ", ".join(str(p) for p in written))


def _check_outputs(args: argparse.Namespace, out: Path) -> None:
    """The files ``analyze`` was told where to write can be written (a one-line UsageError)."""
    if args.out:
        writable_dir(out, "the output folder", "choose another --out")
    if args.calls_out:
        check_writable_file(args.calls_out, "--calls-out")


def _print_calls(db: TournamentDB, tournament_id: int) -> None:
    """The table of the agents' stored records (model calls), only where agents kept some."""
    report = calls_report(db.agent_calls(tournament_id))
    if report:
        print("\n" + report)


def _export_calls(db: TournamentDB, ids: Sequence[int], path: str) -> None:
    """``--calls-out``: the agents' stored records of the tournaments ``ids`` as JSON lines."""
    records = (record for tid in ids for record in db.agent_calls(tid))
    try:
        count = write_calls_jsonl(records, path)
    except OSError as exc:
        raise UsageError(f"cannot write --calls-out {path}: {os_error_text(exc)}", code=1) from None
    print(f"\nwrote {count} agent call record(s) to {path}")


# ----- on its own ----------------------------------------------------------------------------
#: This module's subcommands, as ``smuggle`` lists them: the function that adds each one's parser
#: and the one that runs it (imported here directly: this module is the code they name).
OWN: dict[str, tuple[Callable[[Any], argparse.ArgumentParser], Handler]] = {
    "tournament": (add_tournament, cmd_tournament),
    "replay": (add_replay, cmd_replay),
    "analyze": (add_analyze, cmd_analyze),
}
COMMANDS = tuple(OWN)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Tournaments, replays and bluffing analytics.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add, _ in OWN.values():
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one of this module's subcommands, with the error handling of ``smuggle``
    (``training.errors.run_command``)."""
    return run(build_parser(), argv, lambda name: OWN[name][1], PROG)


if __name__ == "__main__":
    raise SystemExit(main())
