"""``smuggle play``: a person plays one seat in the terminal against bots, in text.

The terminal is the game's text mode, and it shows the person the text a language model gets
(``smuggle_envs.text``): every step as the seat's log lines (``SeatLog``: the move as the seat
sees it, then what the seat is told happened - a new round, a search's verdict), and on each of
the person's turns the model's prompt (``observe``: the table, their cards with what each does,
the scores and the numbered legal actions). The person chooses by number, by the text of an
action or its start (``parse_action``, as a model's answer is read), or by words that filter the
legal actions; ``help``, ``rules``, ``cards``, ``log`` and ``table`` answer at any turn.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.base import Agent, decide
from smuggle_envs import GameSpec
from smuggle_envs.core.driver import Driver
from smuggle_envs.core.game import Game, State, new_seed
from smuggle_envs.text import SeatLog, TextObservation, card_table, observe, parse_action, rules_brief
from training.gamelog import final_summary, labelled_seat, money_changes
from training.match import build_agent

from ..errors import UsageError, warn_once
from ..paths import check_writable_file, write_text

MENU_LIMIT = 24  # legal actions listed in full; more than this and ``play`` asks for a filter
FILTER_LIMIT = 40  # filtered actions shown at most
QUIT_WORDS = ("quit", "exit", "q")
LIST_WORDS = ("?", "list", "all")
HELP_TEXT = """\
How to choose your action:
  NUMBER       the action with that number (the numbers stay the same all turn)
  TEXT         the text of an action, or its start if only one action starts so
  WORDS        anything else lists the actions that contain every word; then type a number
Commands:
  help         this text
  rules        the rules of this game, numbered, with every card
  cards        every card and what it does or costs
  log          everything your seat has seen so far this game
  table        the table, your cards and your legal actions again
  ?            list every legal action (also 'list' or 'all')
  quit         leave the game
A command word always runs the command: an action whose text is a command word is chosen by its
number."""


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


@dataclass
class Turn:
    """One of the person's turns: the state, their seat's log, and what the text interface
    makes of it (``obs``: the prompt, and the legal actions with their texts in menu order)."""

    state: State[Any]
    seat: int
    log: SeatLog
    obs: TextObservation

    @property
    def legal(self) -> list[int]:
        return [int(a) for a in self.obs.legal]

    @property
    def texts(self) -> list[str]:
        return list(self.obs.texts)


def _turn_text(turn: Turn) -> str:
    """The language model's prompt for this turn, without the log lines (they were printed as
    they happened); a menu too big to read is replaced by how to filter it."""
    obs = turn.obs
    if len(obs.legal) <= MENU_LIMIT:
        return obs.prompt
    hint = (
        f"Your move: {len(obs.legal)} legal actions, too many to list. Type words to filter them "
        f"(e.g. '{_filter_example(obs.texts)}'), '?' to list them all, or a number."
    )
    for menu in (f"Your legal actions:\n{obs.menu()}", obs.menu()):  # the titled menu, else the bare one
        if menu in obs.prompt:
            return obs.prompt.replace(menu, hint)
    return f"{obs.prompt}\n{hint}"


def _show_help(turn: Turn) -> None:
    print(HELP_TEXT)


def _show_rules(turn: Turn) -> None:
    game = turn.state.game
    print(rules_brief(game.env_id, **game.config.to_dict()))


def _show_cards(turn: Turn) -> None:
    print(card_table(turn.state.game))


def _show_log(turn: Turn) -> None:
    print("\n".join(turn.log.lines) if turn.log.lines else "(nothing has happened yet)")


def _show_table(turn: Turn) -> None:
    print(_turn_text(turn))


def _show_all(turn: Turn) -> None:
    print("\n".join(_menu_lines(range(len(turn.legal)), turn.texts)))


#: The person's commands: word -> what it prints. ``quit`` is handled apart (it ends the game).
COMMANDS: dict[str, Callable[[Turn], None]] = {
    "help": _show_help,
    "rules": _show_rules,
    "cards": _show_cards,
    "log": _show_log,
    "table": _show_table,
    **{word: _show_all for word in LIST_WORDS},
}


def _run_command(word: str, turn: Turn) -> None:
    """Run a command; where an action's text is the command word itself, say how to pick it."""
    try:
        COMMANDS[word](turn)
    except Exception as exc:  # a text the game cannot build must not end a person's game
        print(f"  ('{word}' is not available: {type(exc).__name__}: {exc})")
    for i, text in enumerate(turn.texts):
        if text.lower() == word:
            print(f"  ('{word}' is a command; to choose the action '{text}', type its number, {i + 1}.)")


def _number(text: str, turn: Turn) -> int | None:
    """The action a typed number names, or None after saying the number is out of range."""
    number = int(text)
    if 1 <= number <= len(turn.legal):
        return turn.legal[number - 1]
    print(f"  {number} is out of range: choose a number from 1 to {len(turn.legal)}.")
    return None


def _filter(text: str, turn: Turn) -> None:
    """List the actions that contain every word of ``text`` (or say that none does)."""
    lowered = [t.lower() for t in turn.texts]
    words = text.lower().split()
    matches = [i for i, t in enumerate(lowered) if all(w in t for w in words)]
    if not matches:
        print(
            f"  No legal action matches '{text}'. Type a number from 1 to {len(turn.legal)}, "
            f"other text, '?' to list every legal action, or 'help'."
        )
        return
    print(f"  {len(matches)} legal action(s) match '{text}':")
    print("\n".join(_menu_lines(matches[:FILTER_LIMIT], turn.texts)))
    if len(matches) > FILTER_LIMIT:
        print(f"  ... and {len(matches) - FILTER_LIMIT} more; type more words to narrow them.")
    print("  Type the number of your choice.")


def _answer(text: str, turn: Turn) -> int | None:
    """The action the person's non-empty ``text`` chose, or None after printing what it asked
    for (a command, a filtered list) or what to do next. ``quit`` raises the code-0
    ``UsageError`` that ends the game."""
    low = text.lower()
    if low in QUIT_WORDS:
        raise UsageError("you left the game", 0)
    if low in COMMANDS:
        _run_command(low, turn)
        return None
    if text.lstrip("+-").isdigit():
        return _number(text, turn)
    lowered = [t.lower() for t in turn.texts]
    if low in lowered:  # exact text, in any case
        return turn.legal[lowered.index(low)]
    parsed = parse_action(text, turn.legal, turn.texts)  # as a model's answer is read: a unique prefix
    if parsed.action is not None:
        return int(parsed.action)
    _filter(text, turn)
    return None


def _observe(state: State[Any], seat: int, log: SeatLog) -> TextObservation:
    """The model's view of this turn; only the current table, as the log is printed live."""
    return observe(state, seat, log, history=0)


def choose_action(state: State[Any], seat: int, log: SeatLog | None = None) -> int:
    """Ask the person at ``seat`` for one legal action; re-prompts on bad input.

    Accepted input: a number from the list (numbers are positions in the full list of legal
    actions, so they stay the same whatever filter is shown); the text of an action, or its start
    where only one action starts so; any other text filters the actions to those containing every
    word of it; ``help``, ``rules``, ``cards``, ``log``, ``table`` and ``?`` print what they name;
    ``quit`` leaves. Raises ``UsageError`` (code 0 on quit, 1 at the end of input).
    """
    if log is None:  # a turn asked for on its own: the seat's log of the game so far
        log = SeatLog(state.game, seat)
        log.follow(state)
    turn = Turn(state, seat, log, _observe(state, seat, log))
    print()
    print(_turn_text(turn))
    return _ask(turn)


def _ask(turn: Turn) -> int:
    """Read lines until one chooses an action."""
    name = turn.state.game.seat_name(turn.seat)
    prompt = f"{name} choose (1-{len(turn.legal)}, text, ? for all, help, quit)> "
    while True:
        try:
            line = read_line(prompt)
        except EOFError:
            raise UsageError("input ended (EOF) before the game was over; game abandoned", 1) from None
        text = " ".join(line.strip().split())
        if not text:
            print("  Please type a number from the list, some text to filter the actions, or 'help'.")
            continue
        action = _answer(text, turn)
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


def _intro(args: argparse.Namespace, game: Game, seed: int, labels: dict[int, str]) -> str:
    """Who plays which seat, and where a newcomer finds the rules."""
    others = ", ".join(f"{game.seat_name(p)} is {labels[p]}" for p in sorted(labels) if p != args.seat)
    return (
        f"{args.env_id}, {game.num_players} players, seed {seed}. You are {game.seat_name(args.seat)}; {others}.\n"
        "At your turn type 'help' for the commands, 'rules' for the rules, 'cards' for what each card does."
    )


def _step_text(lines: Sequence[str], who: str, name: str, changes: str) -> list[str]:
    """The seat's log lines of one step as printed: the actor's line names who plays the seat
    and ends with the score changes; the notes that follow it are indented under it."""
    out = [line if i == 0 else f"  {line}" for i, line in enumerate(lines)]
    if out and out[0].startswith(f"{name}: "):
        out[0] = f"{labelled_seat(name, who)}: {out[0][len(name) + 2 :]}"
    if changes:
        out = out or [f"{labelled_seat(name, who)}:"]
        out[0] += f"   [{changes}]"
    return out


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
    print(_intro(args, game, seed, labels))
    log = SeatLog(game, args.seat)
    while not driver.done:
        player = state.current_player()
        action = choose_action(state, args.seat, log) if player == args.seat else decide(bots[player], state, player)
        before = state.clone()
        # The person sees every step only as their seat may: a face-down choice or a sealed bid
        # reads as such, never which card or how much (SeatLog uses the seat's view throughout).
        driver.step(action)
        lines = log.record(before, action, state)
        changes = money_changes(before.scores(), state.scores(), game)
        print("\n".join(_step_text(lines, labels[player], game.seat_name(player), changes)))
    _print_result(driver, args.seat, [labels[p] for p in range(n)])
    if args.save_replay:
        write_text(args.save_replay, state.to_replay().to_json())
        print(f"replay written to {args.save_replay}")
    return 0


def _print_result(driver: Driver, seat: int, labels: Sequence[str]) -> None:
    """The final table from ``seat``, the scores and the winners, and how the person did."""
    state = driver.state
    score = state.game.score_text
    print()
    print("The table at the end of the game:")
    print(_render(state, seat))
    print()
    print(final_summary(state, labels, as_text=True))
    mine = state.scores()[seat]
    if driver.truncated:
        print(f"No winner: the game was stopped by its turn limit. You finished with {score(mine)}.")
    elif seat in driver.winning_seats():
        print("You won!")
    else:
        print(f"You finished with {score(mine)}; the best was {score(max(state.scores()))}.")
