"""``smuggle play``: a person plays one seat in the terminal against bots.

On each of the person's turns the table is shown from their seat and they choose an action by
number, by its text, or by words that filter the legal actions; the bots' actions are shown as
far as the person's seat may see them (a face-down choice or a sealed bid reads as such).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from agents.base import Agent, decide
from smuggle_envs import GameSpec
from smuggle_envs.core.driver import Driver
from smuggle_envs.core.game import Game, State, new_seed
from training.gamelog import final_summary, money_changes
from training.match import build_agent
from training.stats import fmt_num

from .errors import UsageError, warn_once
from .paths import check_writable_file, write_text

MENU_LIMIT = 24  # legal actions listed in full; more than this and ``play`` asks for a filter
FILTER_LIMIT = 40  # filtered actions shown at most


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


def _show_turn(state: State[Any], seat: int, texts: Sequence[str]) -> None:
    """The table from ``seat`` and the menu of the legal actions (or how to filter them)."""
    print()
    print(_render(state, seat))
    print()
    if len(texts) <= MENU_LIMIT:
        print("Your move:")
        print("\n".join(_menu_lines(range(len(texts)), texts)))
    else:
        print(
            f"Your move: {len(texts)} legal actions, too many to list. Type words to filter them "
            f"(e.g. '{_filter_example(texts)}'), '?' to list them all, or a number."
        )


def _answer(text: str, legal: Sequence[int], texts: Sequence[str]) -> int | None:
    """The action the person's non-empty ``text`` chose, or None after printing what to do next.
    ``quit`` raises the code-0 ``UsageError`` that ends the game."""
    low = text.lower()
    lowered = [t.lower() for t in texts]
    if low in ("quit", "exit", "q"):
        raise UsageError("you left the game", 0)
    if low in ("?", "list", "all"):
        print("\n".join(_menu_lines(range(len(legal)), texts)))
        return None
    if text.lstrip("+-").isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return int(legal[number - 1])
        print(f"  {number} is out of range: choose a number from 1 to {len(legal)}.")
        return None
    if low in lowered:
        return int(legal[lowered.index(low)])
    words = low.split()
    matches = [i for i, t in enumerate(lowered) if all(w in t for w in words)]
    if not matches:
        print(
            f"  No legal action matches '{text}'. Type a number from 1 to {len(legal)}, "
            f"other text, or '?' to list every legal action."
        )
        return None
    print(f"  {len(matches)} legal action(s) match '{text}':")
    print("\n".join(_menu_lines(matches[:FILTER_LIMIT], texts)))
    if len(matches) > FILTER_LIMIT:
        print(f"  ... and {len(matches) - FILTER_LIMIT} more; type more words to narrow them.")
    print("  Type the number of your choice.")
    return None


def choose_action(state: State[Any], seat: int) -> int:
    """Ask the person at ``seat`` for one legal action; re-prompts on bad input.

    Accepted input: a number from the list (numbers are positions in the full list of legal
    actions, so they stay the same whatever filter is shown); the exact text of an action; any
    other text filters the actions to those containing every word of it; ``?`` lists every legal
    action; ``quit`` leaves. Raises ``UsageError`` (code 0 on quit, 1 at the end of input).
    """
    legal = list(state.legal_actions())
    texts = [state.action_to_string(a) for a in legal]
    _show_turn(state, seat, texts)
    while True:
        try:
            line = read_line(f"P{seat} choose (1-{len(legal)}, text to filter, ? for all, quit)> ")
        except EOFError:
            raise UsageError("input ended (EOF) before the game was over; game abandoned", 1) from None
        text = " ".join(line.strip().split())
        if not text:
            print(
                "  Please type a number from the list, some text to filter the actions, "
                "'?' to list them all, or 'quit'."
            )
            continue
        action = _answer(text, legal, texts)
        if action is not None:
            return action


def _seat_bots(args: argparse.Namespace, game: Game, seed: int) -> tuple[dict[int, Agent], dict[int, str]]:
    """The bots of every seat but the person's (``--bots``), and every seat's label."""
    bots: dict[int, Agent] = {}
    labels: dict[int, str] = {}
    warn = warn_once()
    for p in range(game.num_players):
        if p != args.seat:
            bots[p], labels[p] = build_agent(args.bots, game, seed=seed * 1000 + p, warn=warn)
    labels[args.seat] = "you"
    return bots, labels


def cmd_play(args: argparse.Namespace) -> int:
    game = GameSpec(args.env_id, {} if args.players is None else {"num_players": args.players}).make_game()
    n = game.num_players
    if not 0 <= args.seat < n:
        raise UsageError(f"--seat {args.seat} is not a seat of a {n}-player game; choose 0 to {n - 1}", 2)
    if args.save_replay:  # checked now, not after a whole game
        check_writable_file(args.save_replay, "--save-replay")
    seed = new_seed() if args.seed is None else args.seed
    bots, labels = _seat_bots(args, game, seed)
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
        action = choose_action(state, args.seat) if player == args.seat else decide(bots[player], state, player)
        before = list(state.scores())
        # The person sees a bot's action only as far as their seat may: a face-down choice or a
        # sealed bid reads as such, never which card or how much.
        text = state.action_to_string(action, args.seat)
        driver.step(action)
        changes = money_changes(before, state.scores())
        print(f"P{player} ({labels[player]}): {text}" + (f"   [{changes}]" if changes else ""))
    _print_result(driver, args.seat, [labels[p] for p in range(n)])
    if args.save_replay:
        write_text(args.save_replay, state.to_replay().to_json())
        print(f"replay written to {args.save_replay}")
    return 0


def _print_result(driver: Driver, seat: int, labels: Sequence[str]) -> None:
    """The final table from ``seat``, the scores and the winners, and how the person did."""
    state = driver.state
    print()
    print(_render(state, seat))
    print()
    print(final_summary(state, labels))
    mine = state.scores()[seat]
    if driver.truncated:
        print(f"No winner: the game was stopped by its turn limit. You finished with {fmt_num(mine)}.")
    elif seat in driver.winning_seats():
        print("You won!")
    else:
        print(f"You finished with {fmt_num(mine)}; the best was {fmt_num(max(state.scores()))}.")
