"""Mutation testing of the five games' rule code: do the tests catch a one-line bug?

    python benchmarks/mutation.py                     # every game: hours of CPU time
    python benchmarks/mutation.py --game smuggle      # one game (the CPU column of the table)
    python benchmarks/mutation.py --survivors         # only the survivors (and what a stopped run left) again
    python benchmarks/mutation.py --report            # the table again from the stored data

mutmut (3.x) plants one-line bugs (a comparison turned, a constant changed, a seat off by one, a
call dropped) in the rule code of each game: ``steps.py`` (what every action does), the end of
the game and the scores (``state.py``'s ``is_terminal`` and ``scores``; Import / Export's
``scoring.py`` and ``ties.py``), and runs that game's own tests (``tests/games/<game>/``, its
docs, encoder and render checks left out) against each mutant. A mutant is **killed** when a test fails (or the run
times out), **survives** when every test passes, and is **equivalent** when no test can fail:
the change is unobservable (each listed in ``EQUIVALENT`` with its reason, and in the results).
A mutant of a function that no test of the game reaches is counted apart (**no test**), and so
is one that a run stopped (``--limit``, or by hand) did not come to (**not yet run**).
The score is killed / (killed + survived).

Each game runs in its own copy of the repository under ``--workdir`` (mutmut writes a
``mutants/`` folder beside the code it mutates), configured by a ``[tool.mutmut]`` section
written into the copy's ``pyproject.toml``, so the checkout is never touched. With a kept work
folder (``--workdir``), ``--survivors`` runs again only what is left: the survivors (after new
tests), the mutants no test reached, and those a stopped run did not come to.

Writes ``docs/img/data/mutation.json``: per game the status of every mutant, the diff of every
survivor, the CPU time, and the table that ``scripts/update_docs.py`` puts in
docs/benchmarks.md (``<!-- data-table: mutation -->``). ``--report`` rebuilds that table from
the stored statuses and ``EQUIVALENT`` (after a reason is added), running nothing.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "img" / "data" / "mutation.json"

# The rule code of each game: the files mutated, and the functions of ``state.py`` that end the
# game and score it (the rest of ``state.py`` is the deal and the observation, tested elsewhere).
GAMES: dict[str, tuple[str, ...]] = {
    "smuggle": ("steps.py",),
    "humble_smuggle": ("steps.py",),
    "illegal": ("steps.py",),
    "ciq": ("steps.py",),
    "import_export": ("steps.py", "scoring.py", "ties.py"),
}
STATE_FUNCTIONS = ("is_terminal", "scores")
# Tests left out of every run: the docs checks (they read docs/), and the encoder and render
# checks (a faster encoder against its reference, the board drawn: both read the same state, so
# a rule bug cannot fail them, and they are the slowest of each folder).
IGNORED_TESTS = ("test_docs*.py", "test_encoder*.py", "test_render*.py")

# mutmut's statuses, grouped: a timeout is a kill (the mutant broke the game's termination).
# "no tests": no test of the game reaches the function (``_mask`` runs at import time, before
# mutmut picks a mutant; a legal-action mask is checked by the core contract, tests/core/).
KILLED = {"killed", "timeout", "caught by type check", "segfault"}
SURVIVED = {"survived", "suspicious"}
STATUS: dict[int | None, str] = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
    36: "timeout",
}
STATUS.update({24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout", -9: "segfault", -11: "segfault"})
STATUS.update({None: "not checked", 37: "caught by type check", 2: "interrupted"})

# Mutants no test can kill, by mutmut's name, with why the change cannot be observed.
_IMPORT_TIME = "runs once at import, before mutmut switches a mutant on, so no run can see it (the mask test does)"
_LEGAL_CACHE = "the legal actions are a cache: computed again, they are the same tuple"
_NO_TARGET = (
    "no phase reads the target before it is set again, and the one-hot sets nothing for a negative seat: -2 as -1"
)
_MASK_CACHE = "the per-phase masks are a cache: without one the core builds the same mask from legal_actions"
_SMUGGLE = "smuggle_envs.games.smuggle.steps."
_HUMBLE = "smuggle_envs.games.humble_smuggle.steps."
_ILLEGAL = "smuggle_envs.games.illegal.steps."
_IE_SCORING = "smuggle_envs.games.import_export.scoring."
_IE_STEPS = "smuggle_envs.games.import_export.steps."
_IE_UNSET = "'none' (-1: no bid, ship, declared action or pending card) is only tested as < 0 / >= 0, and set again before any other test: -2 as -1"
_IE_SEATS = "a game has at least 2 seats, so the other seats are never empty and max() never needs its default"
_IE_DECLARE = "a needless declaration offers only the harbor the player has: the same goods, no wild goods"
_IE_BONUS = "a majority amount is 6 or 8 (doubled by Sauna) or -6 (turned by Ivory): never 0 or 1"
_OVERWRITTEN = "the loop below sets every seat's entry before it is read"
_REVISIT = "it only revisits seats that have drawn already (nothing pending, within the limit): no-ops"
_NO_OFFICER = "'no next Officer' is only ever tested as `< 0`"
EQUIVALENT: dict[str, str] = {
    **{f"{_SMUGGLE}x__mask__mutmut_{i}": _IMPORT_TIME for i in range(1, 9)},
    f"{_SMUGGLE}x_legal_action_mask__mutmut_1": _MASK_CACHE,
    f"{_SMUGGLE}x_legal_action_mask__mutmut_2": _MASK_CACHE,
    f"{_SMUGGLE}x__forfeit_hand__mutmut_1": "only a declarer pays duty, never the Officer, so `not active[officer]` is "
    "False there; `or` and `and` both leave the 3-player check, which `_fresh_hand` repeats",
    f"{_SMUGGLE}x__next_officer__mutmut_5": _NO_OFFICER,
    f"{_SMUGGLE}x__next_officer__mutmut_20": _NO_OFFICER,
    f"{_SMUGGLE}x__next_officer__mutmut_9": "step 0 is the Officer himself, whose round was marked done just before",
    f"{_SMUGGLE}x__next_officer__mutmut_13": "step n + 1 is step 1 again, already looked at",
    f"{_SMUGGLE}x__next_officer__mutmut_12": "rounds go clockwise, so the next seat not yet Officer is 1 + (seats out "
    "between) steps on; with 3 or more still in (checked first) that is at most n - 2: steps n - 1, n are never needed",
    **{f"{_SMUGGLE}x__search__mutmut_{i}": "the Informer's seat is read only when there is one" for i in (4, 5, 6)},
    f"{_SMUGGLE}x__next_player__mutmut_8": "step n + 1 is step 1 again, already looked at",
    **{
        f"{_SMUGGLE}x__next_player__mutmut_{i}": "no next seat only with fewer than 3 in, where the round ends whatever "
        "the seat"
        for i in (14, 15)
    },
    **{
        f"{_SMUGGLE}x__clear_declaration__mutmut_{i}": "every declaration sets it before the engine reads it"
        for i in (2, 3)
    },
    f"{_SMUGGLE}x_is_legal__mutmut_1": "without the phase it falls back to `action in legal_actions()`: the same answer",
    f"{_SMUGGLE}x__reveal__mutmut_17": "at the first reveal no flag is set yet: clearing seat 1's is a no-op",
    f"{_SMUGGLE}x__reveal__mutmut_18": "set_one_hot clears nothing for a negative seat, -2 as -1",
    f"{_HUMBLE}x_is_legal__mutmut_4": "action SELECT while drafting is card 80, never in the centre (R3.6)",
    f"{_HUMBLE}x_is_legal__mutmut_11": "action PLAY while selecting is card 80, never in a hand (R3.6)",
    f"{_HUMBLE}x_is_legal__mutmut_21": "action PASS is answered (legal) on the line before",
    **{
        f"{_HUMBLE}x__start_round__mutmut_{i}": "the round's rule is set when drafting ends, before anything reads it "
        "(the observation shows it from selection on, the board once one centre card is left)"
        for i in (6, 7)
    },
    f"{_HUMBLE}x__resolve__mutmut_5": _OVERWRITTEN,
    f"{_HUMBLE}x__resolve__mutmut_8": _OVERWRITTEN,
    f"{_HUMBLE}x__discarded__mutmut_6": "every rule's branch sets k (or returns) before it is read",
    f"{_HUMBLE}x__discarded__mutmut_7": "every rule's branch sets k (or returns) before it is read",
    f"{_HUMBLE}x__discarded__mutmut_31": "the Symbol Up centre cards (10..70) carry no symbol in the packaged data, so "
    "the centre's term is always 0",
    f"{_HUMBLE}x__continue_draws__mutmut_2": _REVISIT,
    f"{_HUMBLE}x__discard__mutmut_19": _REVISIT,
    f"{_HUMBLE}x__continue_draws__mutmut_10": "a seat's pending draws are set at every reveal before they are read",
    f"{_HUMBLE}x__continue_draws__mutmut_11": "a seat's pending draws are set at every reveal before they are read",
    "smuggle_envs.games.ciq.steps.x__can_attack__mutmut_2": "the player to move always holds a card: with an empty "
    "hand and every source empty he has won already (at his turn's end, or when the Stock ran out)",
    **{
        f"smuggle_envs.games.ciq.steps.x__resolve__mutmut_{i}": "the loop is left at once and its end sets 0 "
        "again before anything reads it"
        for i in (19, 20)
    },
    "smuggle_envs.games.ciq.steps.x__resolve__mutmut_30": "the smuggled card is always the last of the shipment: "
    "nothing follows it to skip or to stop",
    "smuggle_envs.games.ciq.steps.x__resolve__mutmut_74": "only `_TURN_ENDS` stops the loop: None goes on too",
    "smuggle_envs.games.ciq.steps.x__resolve__mutmut_42": "with nothing transferred yet, pulling 0 moves and ends "
    "nothing: at that point an empty Export pile means an empty Import pile (the turn's start turned it over)",
    **{
        f"smuggle_envs.games.ciq.steps.x__resolve__mutmut_{i}": "the turn's end clears it before it is read (a "
        "finished game or a dropped probe copy never reads it)"
        for i in (80, 81)
    },
    **{
        f"smuggle_envs.games.ciq.steps.x__end_shipment__mutmut_{i}": "a shipment's first card is Legal (or a "
        "Joker): the smuggled card's index is never 0"
        for i in (1, 2)
    },
    "smuggle_envs.games.ciq.steps.x__ship__mutmut_16": "the first card is Legal (legal_actions), so the value test "
    "alone already keeps it from being smuggled",
    "smuggle_envs.games.ciq.steps.x_legal_actions__mutmut_1": _LEGAL_CACHE,
    "smuggle_envs.games.ciq.steps.x__main_plays__mutmut_4": "`acts` is still empty there: `=` as `+=`",
    "smuggle_envs.games.ciq.steps.x_apply__mutmut_14": "action FIRE + 0 (the 2 of clubs) is never legal: only face "
    "cards fire",
    "smuggle_envs.games.ciq.steps.x_start_turn__mutmut_19": "a guard never reached: the turn's start, the Stock "
    "running out and the rebuild after the last Export card each turn the Import pile over first, so an empty "
    "Export pile with Import cards is never drawn from",
    "smuggle_envs.games.ciq.steps.x_start_turn__mutmut_4": _NO_TARGET,
    "smuggle_envs.games.ciq.steps.x_apply__mutmut_1": "every action ends in `_set_phase` (its own or the next "
    "turn's), which drops the cached legal actions again before anything reads them",
    "smuggle_envs.games.ciq.steps.x_apply__mutmut_7": "A.SHIP is 0: `action + 0` is `action - 0`",
    "smuggle_envs.games.ciq.steps.x__sabotage__mutmut_44": "the pending sabotage card is read only in SABOTAGE2, "
    "after it is set, and shown only when >= 0: -2 as -1",
    "smuggle_envs.games.ciq.steps.x__reset_move_fields__mutmut_11": _NO_TARGET,
    **{
        f"smuggle_envs.games.ciq.steps.x_smuggled_worth__mutmut_{i}": "with_smuggled defaults to True and is only "
        "tested for truth: the same two calls"
        for i in (5, 8)
    },
    "smuggle_envs.games.ciq.steps.x__ship__mutmut_42": "`bribe` is only ever tested for truth: None as False",
    **{f"{_ILLEGAL}x_legal_action_mask__mutmut_{i}": _MASK_CACHE for i in (3, 4, 6, 7)},
    f"{_ILLEGAL}x_legal_actions__mutmut_1": _LEGAL_CACHE,
    f"{_ILLEGAL}x_compute_legal__mutmut_10": "`main` is only tested for truth: None as False",
    **{
        f"{_ILLEGAL}x_compute_legal__mutmut_{i}": "an offer moves on to TRADE_WANT the moment it reaches the limit, "
        "so TRADE_GIVE never sees n_give == trade_limit"
        for i in (51, 52)
    },
    **{
        f"{_ILLEGAL}x__play_actions__mutmut_{i}": "only hassle 3 (Vacation in Sweden) blocks Legal businesses; hassle 0 "
        "does not, so `h > 0` and `h >= 1` answer as `h >= 0` (the guard that matters is against -1, no hassle)"
        for i in (14, 15)
    },
    f"{_ILLEGAL}x_apply__mutmut_15": "action TARGET (75) is never legal while playing: ending the turn is END_TURN (180)",
    f"{_ILLEGAL}x_start_turn__mutmut_16": "`main_used` and `bonus_used` are only tested for truth: None as False",
    **{
        f"{_ILLEGAL}x__resume__mutmut_{i}": "the card, target and business are read only after they are set, and "
        "shown only when >= 0; the one-hot sets nothing for a negative index: -2 as -1"
        for i in (6, 9, 12)
    },
    f"{_ILLEGAL}x__paranoia__mutmut_35": "`_on_lose` only tests `lose_after == AFTER_TURN`: None goes on to the "
    "pass as AFTER_PARANOIA does",
    f"{_ILLEGAL}x__on_trade__mutmut_18": "raising what a seat knows to the count it already knows is a no-op",
    f"{_ILLEGAL}x__end_turn__mutmut_13": "'' is as falsy as None: no hassle that costs a business, no loss either way",
    f"{_IE_SCORING}x_final_scores__mutmut_44": "without Ferraris or Ceramics virtual_goods adds nothing",
    f"{_IE_SCORING}x_final_scores__mutmut_57": _IE_DECLARE,
    f"{_IE_SCORING}x__foxes__mutmut_10": "'no Foxes holder' is only tested as >= 0 or as a seat among the tied: -2 as -1",
    f"{_IE_SCORING}x__harbors__mutmut_49": "the dict only keeps the harbors distinct and in order: its values are never read",
    **{f"{_IE_SCORING}xǁ_Goodsǁscorer__mutmut_{i}": _IE_SEATS for i in (6, 8, 9)},
    **{f"{_IE_SCORING}x__rank__mutmut_{i}": _IE_SEATS for i in (15, 17)},
    **{f"{_IE_SCORING}x__declares__mutmut_{i}": _IE_DECLARE for i in (6, 11, 19)},
    **{f"{_IE_SCORING}x__best_wilds__mutmut_{i}": "the message of an assert that cannot fail" for i in (46, 47)},
    **{f"{_IE_SCORING}xǁ_Goodsǁshare__mutmut_{i}": _IE_BONUS for i in (18, 19)},
    "smuggle_envs.games.import_export.ties.x_most_share__mutmut_12": "alone, split(bonus, 1) is the whole bonus too",
    f"{_IE_SCORING}xǁ_Goodsǁown_goods__mutmut_4": "without powers good_values returns the values unchanged",
    **{f"{_IE_STEPS}x_apply__mutmut_{i}": "the message of an assert that cannot fail" for i in (3, 4)},
    **{f"{_IE_STEPS}x_t_act__mutmut_{i}": "Rice Cookers only tests the step for == 'declare'" for i in (8, 12, 13)},
    f"{_IE_STEPS}x_t_turn__mutmut_25": _IE_UNSET,
    f"{_IE_STEPS}x_t_turn__mutmut_28": _IE_UNSET,
    f"{_IE_STEPS}x_t_turn__mutmut_8": _IE_UNSET,
    f"{_IE_STEPS}x_t_turn_end__mutmut_6": _IE_UNSET,
    **{
        f"{_IE_STEPS}x_t_turn_end__mutmut_{i}": "`win()` sets `over` itself, so the run stops before the turn's end "
        "(and always with an end reason)"
        for i in (12, 13)
    },
    f"{_IE_STEPS}x_t_turn_end__mutmut_24": "`double_turn` is only tested for truth and == 1 / == 2: None as 0",
    f"{_IE_STEPS}x_r_bid__mutmut_31": _IE_UNSET,
    **{f"{_IE_STEPS}x_{f}__mutmut_3": _IE_UNSET for f in ("r_contract_ship", "r_import_zone", "r_pirate_place")},
    f"{_IE_STEPS}x_r_import_pick__mutmut_15": "A.IMPORTS is 0: `ZONE - 0` is `ZONE + 0`",
    f"{_IE_STEPS}x_r_import_zone__mutmut_32": "the only 'imported' listener (Cannabis) ignores the ship",
    f"{_IE_STEPS}x_r_lead__mutmut_30": "`leading` is only tested for truth in r_wild2: 2 as 1",
    **{
        f"{_IE_STEPS}x_r_load_ship__mutmut_{i}": "the default `via` is never used: every load-ship ask carries it"
        for i in (1, 2)
    },
    **{
        f"{_IE_STEPS}x_r_pirate_place__mutmut_{i}": "the only reader of `via` (Fixie Bikes) tests == 'load'"
        for i in (17, 22, 23)
    },
    f"{_IE_STEPS}x_r_pirate_take__mutmut_1": "the default `free` is never used: every pirate-take ask carries it",
    f"{_IE_STEPS}x_r_wild2__mutmut_13": "`_ask`'s default context is (), the one removed",
    f"{_ILLEGAL}x__magnum_removes__mutmut_1": "there is one Magnum: the discard pile held none before it",
    f"{_ILLEGAL}x__magnum_removes__mutmut_18": "`cancelled` is only tested for truth: None as False",
    **{
        f"{_ILLEGAL}x__ask_lose__mutmut_{i}": "without the seat `_on_lose` takes the decider: the player to move, who is "
        "the one losing (at his turn's end, or after his own Paranoia card)"
        for i in (6, 9)
    },
    f"{_ILLEGAL}x__on_lose__mutmut_8": "the seat passed in is always the decider (see `_ask_lose`)",
    f"{_ILLEGAL}x__open_window__mutmut_6": "`cancelled` is only tested for truth: None as False",
    f"{_ILLEGAL}x__on_react__mutmut_11": "`cancelled` is only tested for truth: None as False",
    f"{_ILLEGAL}x__on_react__mutmut_21": "there is one Magnum: the discard pile held none before it",
}


def mutmut_config(game: str) -> str:
    """The ``[tool.mutmut]`` section of a game's copy (TOML; every value is JSON too)."""
    files = [f"smuggle_envs/games/{game}/{name}" for name in GAMES[game]] + [f"smuggle_envs/games/{game}/state.py"]
    tests = f"tests/games/{game}"
    ignored = [f"--ignore-glob={tests}/{pattern}" for pattern in IGNORED_TESTS]
    return "\n".join(
        [
            "[tool.mutmut]",
            f"source_paths = {json.dumps(['smuggle_envs'])}",
            f"only_mutate = {json.dumps(files)}",
            f"pytest_add_cli_args = {json.dumps(['-p', 'no:xdist', '-p', 'no:cacheprovider', *ignored])}",
            f"pytest_add_cli_args_test_selection = {json.dumps([tests])}",
            # a CPU-time limit per mutant of (its tests' time + 5 s) x 6: a mutant that loops forever
            # costs minutes, not mutmut's default x 30
            "timeout_multiplier = 3.0",
            "timeout_constant = 5.0",
            "",
        ]
    )


def mutant_globs(game: str) -> list[str]:
    """The mutants to run: every function of the rule files, and ``state.py``'s end and scores."""
    module = f"smuggle_envs.games.{game}"
    globs = [f"{module}.{name.removesuffix('.py')}.*" for name in GAMES[game]]
    globs += [f"{module}.state.x*ǁ{fn}__mutmut_*" for fn in STATE_FUNCTIONS]
    return globs


def prepare(game: str, work: Path) -> Path:
    """A copy of the package and the game's tests in ``work/<game>``, mutmut configured."""
    copy = work / game
    copy.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for sub in ("smuggle_envs", f"tests/games/{game}"):
        if (copy / sub).exists():
            shutil.rmtree(copy / sub)
        shutil.copytree(ROOT / sub, copy / sub, ignore=ignore)
    for shared in ("tests/conftest.py", "tests/games/conftest.py"):  # fixtures and hooks every game test uses
        if (ROOT / shared).exists():
            shutil.copy2(ROOT / shared, copy / shared)
    # The project's pytest options, without any [tool.mutmut] of its own: this copy's rules.
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    start = text.find("[tool.mutmut]")
    if start >= 0:
        end = text.find("\n[", start + 1)
        text = text[:start] + (text[end + 1 :] if end >= 0 else "")
    (copy / "pyproject.toml").write_text(text.rstrip() + "\n\n" + mutmut_config(game), encoding="utf-8")
    return copy


def statuses(copy: Path, game: str) -> dict[str, str]:
    """Every selected mutant's status, read from mutmut's ``.meta`` files."""
    out: dict[str, str] = {}
    module = f"smuggle_envs.games.{game}."
    for meta in sorted((copy / "mutants" / "smuggle_envs" / "games" / game).glob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        for name, code in codes.items():
            if selected(name, game) and name.startswith(module):
                out[name] = STATUS.get(code, "suspicious")
    return out


def selected(name: str, game: str) -> bool:
    """Whether ``name`` is one of the mutants ``mutant_globs(game)`` selects."""
    rest = name.removeprefix(f"smuggle_envs.games.{game}.")
    module = rest.split(".", 1)[0]
    if module + ".py" in GAMES[game]:
        return True
    return module == "state" and any(f"ǁ{fn}__mutmut_" in rest for fn in STATE_FUNCTIONS)


def diff(copy: Path, name: str) -> str:
    """mutmut's diff of one mutant against the code."""
    run = subprocess.run(
        [sys.executable, "-m", "mutmut", "show", name], cwd=copy, capture_output=True, text=True, timeout=120
    )
    lines = [
        line for line in run.stdout.splitlines() if line.startswith(("@@", "-", "+")) and line[:3] not in ("---", "+++")
    ]
    return "\n".join(lines)


def run_game(game: str, work: Path, max_children: int, limit: float, old: dict[str, Any] | None) -> dict[str, Any]:
    """Run mutmut over one game; its statuses, survivors' diffs and the CPU seconds it took.
    With ``old`` (a stored result), only its survivors, the mutants no test reached and those a
    stopped run did not come to run again."""
    copy = prepare(game, work)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    names = to_run_again(old) if old else mutant_globs(game)
    if not names:
        return old or {}
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children), *names]
    with (work / f"{game}.log").open("w", encoding="utf-8") as log:
        code = _run_mutmut(cmd, copy, log, limit, game)
    if code not in (0, -signal.SIGTERM, -signal.SIGINT):  # stopped by hand: keep what was checked
        raise SystemExit(f"{game}: mutmut failed (exit {code}), nothing stored: see {log.name}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    status = statuses(copy, game)
    if old:  # the survivors' new statuses over the stored ones
        status = {**old["statuses"], **{name: status.get(name, "not checked") for name in names}}
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime + (old["cpu_seconds"] if old else 0)
    survivors = {name: diff(copy, name) for name, s in status.items() if s in SURVIVED}
    return {
        "files": [f"smuggle_envs/games/{game}/{f}" for f in GAMES[game]]
        + [f"smuggle_envs/games/{game}/state.py ({', '.join(STATE_FUNCTIONS)})"],
        "tests": f"tests/games/{game}/",
        "cpu_seconds": round(cpu),
        "wall_seconds": round(time.monotonic() - start) + (old["wall_seconds"] if old else 0),
        "statuses": status,
        "survivors": survivors,
    }


def to_run_again(old: dict[str, Any]) -> list[str]:
    """The mutants ``--survivors`` runs again: the survivors (new tests may kill them), those no
    test reached, and those a stopped run did not come to; an equivalent one only if it never ran."""
    again = SURVIVED | {"no tests", "not checked"}
    return [n for n, s in old["statuses"].items() if s in again and (n not in EQUIVALENT or s == "not checked")]


def _run_mutmut(cmd: list[str], copy: Path, log: Any, limit: float, game: str) -> int:
    """Run mutmut for at most ``limit`` seconds. At the limit it is stopped with SIGINT, which
    mutmut catches to write what it checked (a SIGKILL left its .meta files empty and lost the
    run's results); its exit code, 0 for a run stopped at the limit."""
    process = subprocess.Popen(cmd, cwd=copy, stdout=log, stderr=subprocess.STDOUT)
    try:
        return process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        print(f"{game}: stopped after {limit:.0f} s; what was checked is kept", file=sys.stderr)
        return 0


def _store(path: Path, game: str, result: dict[str, Any]) -> None:
    """Write one game's result into the JSON at ``path``, read again just before: runs of other
    games at the same time keep theirs."""
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"games": {}}
    data["games"][game] = result
    path.write_text(json.dumps(report(data), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def counts(result: dict[str, Any]) -> dict[str, int]:
    """Mutants killed, survived, equivalent, with no test, and not yet run, of one game's result."""
    c = {"mutants": 0, "killed": 0, "survived": 0, "equivalent": 0, "no tests": 0, "not checked": 0}
    for name, status in result["statuses"].items():
        c["mutants"] += 1
        if name in EQUIVALENT and status in SURVIVED:
            c["equivalent"] += 1
        elif status in KILLED:
            c["killed"] += 1
        elif status in SURVIVED:
            c["survived"] += 1
        elif status == "no tests":
            c["no tests"] += 1
        else:  # a run stopped before it came to it
            c["not checked"] += 1
    return c


def table(games: dict[str, Any]) -> dict[str, Any]:
    """The docs' table: one row per game run, in ``GAMES`` order."""
    rows = []
    for game in [g for g in GAMES if g in games]:
        c = counts(games[game])
        checked = c["killed"] + c["survived"]
        score = f"{100 * c['killed'] / checked:.1f}%" if checked else "-"
        files = ", ".join(f"`{Path(f).name}`" for f in games[game]["files"])
        minutes = f"{games[game]['cpu_seconds'] / 60:.0f} min"
        row = [
            f"{game}",
            files,
            *(f"{c[k]:,}" for k in ("mutants", "killed", "survived", "equivalent", "no tests", "not checked")),
        ]
        rows.append([*row, score, minutes])
    headers = ["game", "files", "mutants", "killed", "survived", "equivalent", "no test", "not yet run", "score", "CPU"]
    return {"headers": headers, "align": "llrrrrrrrr", "rows": rows}


def report(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its equivalents and table rebuilt from ``EQUIVALENT``."""
    data["equivalent"] = {
        name: reason
        for name, reason in sorted(EQUIVALENT.items())
        if any(name in g["statuses"] for g in data["games"].values())
    }
    data["table"] = table(data["games"])
    return data


def markdown(t: dict[str, Any]) -> str:
    align = {"l": ":---", "r": "---:"}
    lines = ["| " + " | ".join(t["headers"]) + " |", "|" + "|".join(align[a] for a in t["align"]) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in t["rows"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", choices=list(GAMES), help="a game to run (repeatable; default: all)")
    p.add_argument("--workdir", help="where the copies go (kept; default: a temporary folder, removed)")
    p.add_argument("--max-children", type=int, default=1, help="mutants tested at once (default: 1)")
    p.add_argument("--limit", type=float, default=4 * 3600, help="seconds at most per game (default: 4 h)")
    p.add_argument("--data", default=str(DATA), help="the JSON (default: docs/img/data/mutation.json)")
    p.add_argument("--survivors", action="store_true", help="run each game's survivors, untested and unreached again")
    p.add_argument("--report", action="store_true", help="rebuild the table from the stored data; run nothing")
    args = p.parse_args(argv)
    path = Path(args.data)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"games": {}}
    if args.report and not data["games"]:
        p.error(f"{path} holds no results: run a game first")
    if not args.report:
        if not _has_mutmut():
            p.error("mutmut is not installed: pip install 'mutmut>=3.8'")
        work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="mutation-"))
        try:
            for game in args.game or list(GAMES):
                old = data["games"].get(game) if args.survivors else None
                if args.survivors and old is None:
                    p.error(f"{game} has no stored results: run it without --survivors first")
                _store(path, game, run_game(game, work, args.max_children, args.limit, old))
        finally:
            if not args.workdir:
                shutil.rmtree(work, ignore_errors=True)
    data = report(json.loads(path.read_text(encoding="utf-8")) if path.exists() else data)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(markdown(data["table"]))
    return 0


def _has_mutmut() -> bool:
    try:
        import mutmut  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
