"""The parsers of ``smuggle list``, ``play``, ``match`` and ``replay-json``, the commands whose code
is in this package. Each ``add_NAME(subparsers)`` adds one subcommand and returns its parser;
``training.cli.COMMANDS`` names them. Only argparse is imported here (and the options several
commands share, ``training/options.py``: argparse only), so every parser can be built for
``smuggle --help`` without loading any command's code.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from ..options import RAW, add_agents, add_env_id, add_games, add_players, add_save_replay, add_seat_view, add_seed


def add_list(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "list",
        help="list the env ids: players, observation size, actions",
        description="List every env id with its game, player range, default player count, "
        "and the observation size and number of actions at that count.",
    )
    return p


BOTS_MARK = "{bots}"  # the play epilog's place for the list of bot kinds, filled when help is shown


def bot_kinds_help(width: int = 79) -> str:
    """Every ``--bots`` kind, one entry each, read from ``agents.AGENT_KINDS`` when the help is
    shown: a new kind (a language model's ``llm:MODEL``) is listed without editing this file, and
    building the parser (``smuggle --help``) still imports nothing but argparse."""
    import textwrap

    from agents import AGENT_KINDS  # here, not at the top: agents imports numpy

    lines = ["bots (--bots SPEC): every agent kind, with its argument or options after ':'"]
    for kind, table in AGENT_KINDS.items():
        form, summary = _describe_kind(kind, table)
        pad = " " * (KIND_COLUMN + 2)
        if len(form) >= KIND_COLUMN:  # a long spec form gets a line of its own
            lines.append(f"  {form}")
        first = f"  {form:<{KIND_COLUMN}}" if len(form) < KIND_COLUMN else pad
        lines.append(textwrap.fill(summary, width, initial_indent=first, subsequent_indent=pad))
    return "\n".join(lines)


KIND_COLUMN = 18  # width of the spec column of the bot list


def _describe_kind(kind: str, table: Any) -> tuple[str, str]:
    """``(spec form, one-line summary)`` of an agent kind, from its class: its options (a search
    bot) or the name of its argument, and its docstring's first clause. A class that cannot be
    imported (a missing optional dependency) still gets its line, by name."""
    import importlib
    import inspect

    only = "" if "*" in table else f" For: {', '.join(sorted(table))}."
    target = table.get("*") or next(iter(table.values()), None)
    try:
        module, _, name = str(target).partition(":")
        cls = getattr(importlib.import_module(module), name)
    except Exception:
        return kind, f"Agent kind {kind!r} (its code cannot be loaded here).{only}"
    summary = _first_clause(cls.__doc__) + only
    options = getattr(cls, "OPTIONS", None)
    if options:
        shown = "; ".join(f"{key}={_option_kind(value)}" for key, value in options.items())
        return f"{kind}[:OPTIONS]", f"{summary} OPTIONS: key=value pairs separated by ';': {shown}."
    params = inspect.signature(cls).parameters.values()
    args = [p for p in params if p.name not in ("game", "seed") and p.annotation in (str, "str")]
    return (f"{kind}:{args[0].name.upper()}" if args else kind), summary


def _option_kind(kind: Any) -> str:
    """How an option's value is written: ``int``, ``float``, or the allowed words ``a|b``."""
    return "|".join(kind) if isinstance(kind, tuple) else getattr(kind, "__name__", str(kind))


def _first_clause(doc: str | None) -> str:
    """A docstring's first clause, as one sentence: no reST quotes, no leading restatement of
    the spec ("``ppo_argmax:PATH``: ..."), no "(see ...)", nothing after the first ':' or ';'."""
    text = " ".join((doc or "").split()).replace("``", "")
    text = re.sub(r"^\S+: |\s*\(see [^)]*\)", "", text)
    text = re.split(r"(?<=[.!?])\s|: |; ", text, maxsplit=1)[0].rstrip(".")
    return (text[:1].upper() + text[1:] + ".") if text else "."


class _PlayHelpFormatter(RAW):
    """Fills ``BOTS_MARK`` in the play help with ``bot_kinds_help()`` when the help is printed."""

    def add_text(self, text: str | None) -> None:
        if text and BOTS_MARK in text:
            text = text.replace(BOTS_MARK, bot_kinds_help())
        super().add_text(text)


def add_play(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play one seat of a game in the terminal against bots",
        formatter_class=_PlayHelpFormatter,
        description="Play one seat against bots, in text: the terminal is the game's text mode.\n"
        "Every move is shown as your seat sees it (new rounds and search verdicts too),\n"
        "and on your turn you get the same text a language model gets: the recent moves,\n"
        "the table, your cards with what each does, the scores and the legal actions.\n"
        "Choose an action by:\n"
        "  NUMBER      the action with that number (numbers never change within a turn)\n"
        "  TEXT        the exact text of an action (e.g. 'declare wine x2') or its start, or\n"
        "              words that filter the legal actions (e.g. 'wine', 'crown bag')\n"
        "Commands at your turn:\n"
        "  help        how to choose, and these commands\n"
        "  rules       the rules of the game, numbered, with every card\n"
        "  cards       every card and what it does or costs\n"
        "  log         everything your seat has seen so far\n"
        "  table       the table and your legal actions again\n"
        "  ?           list every legal action\n"
        "  quit        leave the game (exit code 0)\n"
        "An action whose text is a command word is chosen by its number.\n"
        "If input ends (EOF) before the game is over, the game is abandoned with exit code 1.",
        epilog=BOTS_MARK + "\n\nexample: smuggle play smuggle_v0 --players 4 --seat 0 --seed 7 --bots rule",
    )
    add_env_id(p)
    add_players(p)
    p.add_argument("--seat", type=int, default=0, metavar="S", help="your seat, 0 to N-1 (default: 0)")
    add_seed(p, "game seed (default: a random one, printed)", default=None)
    p.add_argument(
        "--bots",
        default="rule",
        metavar="SPEC",
        help="the agent in every other seat: any kind listed below "
        "(default: rule; random, with a warning, where the game has no rule bot)",
    )
    add_save_replay(p, "write the finished game as replay JSON")
    return p


def add_match(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "match",
        help="play bots against each other: a logged game, then statistics",
        formatter_class=RAW,
        description="Play one seeded game printed turn by turn (the same game as game 0 of the\n"
        "match), then G games with the seats rotated: game g uses seed K+g and seat s is\n"
        "played by agent (s+g) mod N of the lineup. A progress bar goes to stderr. The\n"
        "results table gives per agent: seat-games, wins (a win shared by k players\n"
        "counts 1/k), win rate with a 95% Wilson interval, and mean final score.\n"
        "Agents named twice are pooled in one row. Same arguments, same output.",
        epilog="examples:\n  smuggle match\n  smuggle match smuggle_v0 --agents rule,random,random --games 1000 --quiet\n"
        "  smuggle match --games 0 --save-replay game.json",
    )
    add_env_id(p, "the game (default: smuggle_v0)", nargs="?", default="smuggle_v0")
    add_players(p, "number of players (default: the number of --agents, else the game's default)")
    add_agents(
        p,
        "comma-separated agent per seat, e.g. rule,random,random,random; one name fills "
        "every seat (default: rule then random; rule falls back to random, with a warning, "
        "where the game has no rule bot)",
    )
    add_seed(p, "base seed (default: 0)")
    add_games(p, 300, "games for the statistics (default: 300; 0 plays only the sample game)")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="skip the turn-by-turn sample game and the progress bar; print only the results",
    )
    add_save_replay(p, "write the sample game (game 0) as replay JSON")
    return p


def add_replay_json(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "replay-json",
        help="print a game stored as replay JSON, turn by turn",
        description="Print a game stored as replay JSON (as written by 'smuggle match "
        "--save-replay' or Replay.to_json) turn by turn, with the full table "
        "at every round and the final scores.",
    )
    p.add_argument("file", metavar="FILE", help="the replay JSON file")
    add_seat_view(p)
    return p
