"""The sixth game: ``docs/adding_a_game.md`` proved on a game that lives only in the tests.

Liar's deal (``tests/fixtures/liars_deal/``, a few dozen lines of rules: a hidden hand per seat,
claims and a call) joins every layer with one registration line each (its ``register.py``: the
core env registry and every per-game registry there is, ``agents.plugins.registries()``: the rule
bots, the analytics, the bluffing kit, the browser app; ``FIXTURE_GAMES`` in
``tests/core/families/_games.py`` for the test families) and with no other change outside its
folder. Its text (``text.py``: glossary, hands, notes) is declared with its game, its rules brief
ships beside it (``brief.md``, ``tests/test_sixth_game_text.py``). Registered, it passes the shared families, run by pytest in a child process started with
its registration as a plugin (``-p tests.fixtures.liars_deal.register``): the env family
(PettingZoo's ``api_test`` and ``seed_test``...), the hidden-information, perfect-recall and
determinism families, the web-view family (a seat's API responses unchanged when its unseen cards
are redrawn, marks, badges, the rules panel), the bluffing kit's (claims labelled in one schema,
the dataset, which calls challenge), the tournament family (a tournament of its rule bot
and random agents, stored, replayed and analysed: ``checks.py``) and every layer's completeness
test. Left out of a layer, that layer's completeness test fails and names the file to add.

The game's own rules are checked here in this process, without registering it anywhere.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "liars_deal"
PLUGIN = "tests.fixtures.liars_deal.register"
if str(ROOT) not in sys.path:  # the fixture is imported as tests.fixtures.liars_deal, as the plugin is
    sys.path.insert(0, str(ROOT))

from agents.plugins import PluginRegistry, registries  # noqa: E402
from smuggle_envs import registry  # noqa: E402
from smuggle_envs.core.errors import ConfigError  # noqa: E402
from tests.fixtures.liars_deal import actions as A  # noqa: E402
from tests.fixtures.liars_deal.bot import LiarsDealBot  # noqa: E402
from tests.fixtures.liars_deal.facts import check  # noqa: E402
from tests.fixtures.liars_deal.rules import ENV_ID, LiarsDealGame, LiarsDealState  # noqa: E402

# What the child run must show passing for the sixth game, per test file: at least this many
# tests of the file whose name carries its env id, or these tests by name (completeness).
FAMILIES = {
    "tests/core/families/test_env_family.py": 30,  # api_test, seed_test, spaces, masks, rewards...
    "tests/core/families/test_hidden_information_family.py": 7,  # resample sweeps, who decides next
    "tests/core/families/test_recall_family.py": 2,  # perfect recall of resample
    "tests/core/families/test_determinism_family.py": 17,  # seeds, clones, replays
    "tests/core/test_all_games_contract.py": 19,
    "tests/core/families/test_text_family.py": 6,  # the text interface: prompts and logs leak nothing  # the engine contract (but the hash-seed child processes)
    "tests/training/web/test_no_leak.py": 1,  # the web-view family: a seat's API responses leak nothing
    "tests/training/web/test_marks.py": 1,
    "tests/training/web/test_page_views.py": 1,
    "tests/training/web/test_api.py": 1,
    "tests/training/web/test_games.py": 1,
    "tests/training/bluffing/test_games.py": 3,  # the labeller, the schema, which calls challenge
    "tests/training/bluffing/test_dataset.py": 2,  # the dataset rows and observations
}
COMPLETENESS = {
    "tests/core/families/test_env_family.py::test_every_registered_game_has_its_facts": "tests/core/families/_games.py",
    "tests/agents/rule/test_registry.py::test_every_game_has_a_rule_bot": "agents/rule/liars_deal.py",
    "tests/training/analytics/test_registry.py::test_every_game_has_its_analytics": "training/analytics/liars_deal.py",
    "tests/training/bluffing/test_games.py::test_every_game_has_its_bluffing_module": (
        "training/bluffing/games/liars_deal.py"
    ),
    "tests/training/web/test_games.py::test_every_game_has_a_web_module": "training/web/games/liars_deal.py",
}
CHECKS = "tests/fixtures/liars_deal/checks.py"  # the tournament family and the layers, registered


def _pytest(tmp_path: Path, targets: list[str], keywords: str | None, layers: str | None = None) -> tuple:
    """Run pytest on ``targets`` in a child process with the game registered (only ``layers`` of
    it, if given); returns (exit code, output, {(file, test name): outcome})."""
    xml = tmp_path / "report.xml"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTEST_ADDOPTS", None)
    if layers is not None:
        env["LIARS_DEAL_LAYERS"] = layers
    command = [sys.executable, "-m", "pytest", "-p", PLUGIN, "-p", "no:cacheprovider", "-q", f"--junitxml={xml}"]
    command += ["-p", "no:xdist"] if _has_xdist() else []
    command += [*targets, *(["-k", keywords] if keywords else [])]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert xml.is_file(), done.stdout[-3000:] + done.stderr[-3000:]  # pytest ran
    outcomes = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        outcomes[case.get("file") or case.get("classname", ""), case.get("name", "")] = outcome
    return done.returncode, done.stdout + done.stderr, outcomes


def _has_xdist() -> bool:
    try:
        import xdist  # noqa: F401
    except ImportError:
        return False
    return True


def _passed(outcomes: dict, file: str) -> list[str]:
    """Names of the passed tests of ``file`` (junit names files by path or by dotted class name)."""
    dotted = file.removesuffix(".py").replace("/", ".").removeprefix("tests.")
    return [
        name
        for (where, name), outcome in outcomes.items()
        if outcome == "passed" and (where == file or where.endswith(dotted))
    ]


def test_the_sixth_game_passes_every_family_once_registered(tmp_path):
    # its parametrized cases (but the hash-seed test, whose child processes do not register it),
    # the completeness tests and its own checks
    names = " or ".join(
        [
            "(liars_deal and not hash_seeds)",
            *(t.split("::")[1] for t in COMPLETENESS),
            "finds_the_game",
            "small_tournament",
        ]
    )
    targets = [*FAMILIES, *(t for t in COMPLETENESS if t.split("::")[0] not in FAMILIES), CHECKS]
    code, output, outcomes = _pytest(tmp_path, targets, names)
    assert code == 0, output[-6000:]
    assert not [key for key, outcome in outcomes.items() if outcome != "passed"], output[-3000:]
    for file, least in FAMILIES.items():
        sixth = [name for name in _passed(outcomes, file) if ENV_ID in name]
        assert len(sixth) >= least, (file, sixth)
    for target in COMPLETENESS:
        file, name = target.split("::")
        assert name in _passed(outcomes, file), target
    assert set(_passed(outcomes, CHECKS)) >= {
        "test_every_layer_finds_the_game",
        "test_a_small_tournament_of_the_rule_bot_and_random_agents",
    }


def test_a_layer_left_out_fails_its_completeness_test_naming_the_file_to_add(tmp_path):
    code, output, outcomes = _pytest(tmp_path, list(COMPLETENESS), None, layers="core")
    assert code == 1, output[-3000:]
    for target, lacking in COMPLETENESS.items():
        file, name = target.split("::")
        if lacking.startswith("tests/"):  # the families' line is in _games.py, not in the plugin
            assert name in _passed(outcomes, file), output[-3000:]
        else:
            assert name not in _passed(outcomes, file) and "liars_deal_v0 lacks a module" in output
            assert f"add {lacking} defining ENV_ID" in output, output[-3000:]


def _name(found: PluginRegistry) -> str:
    """The name a registry goes by in its package (``RULE_AGENTS``), as register.py imports it."""
    module = sys.modules[found.package]
    (name,) = [name for name, value in vars(module).items() if value is found]
    return name


def test_every_registry_has_its_completeness_test_and_its_line_in_the_fixture():
    """A new registry (a new layer) fails here until the fixture fills it and its completeness
    test is run for the sixth game: derived from ``registries()``, never a typed list."""
    own = PluginRegistry("agents.rule", "AGENT")  # a registry a test makes for itself is no layer
    layers = registries()
    assert len(layers) >= 4 and len({(r.package, r.attribute) for r in layers}) == len(layers)
    assert all(r is not own for r in layers)
    wanted = {f"{r.package.replace('.', '/')}/liars_deal.py" for r in layers}
    assert {f for f in COMPLETENESS.values() if not f.startswith("tests/")} == wanted
    register = (FIXTURE / "register.py").read_text(encoding="utf-8")
    assert all(f"{_name(r)}.register(" in register for r in layers), register


def test_it_takes_one_registration_line_a_layer_and_nothing_outside_its_folder():
    tree = ast.parse((FIXTURE / "register.py").read_text(encoding="utf-8"))
    calls = [
        ast.unparse(node.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "register"
    ]
    assert calls == ["registry.register", *(f"{_name(r)}.register" for r in registries())]
    families = (ROOT / "tests/core/families/_games.py").read_text(encoding="utf-8")
    assert [line for line in families.splitlines() if "liars_deal" in line] == [
        'FIXTURE_GAMES = {"liars_deal_v0": "tests.fixtures.liars_deal.facts"}'
    ]
    for package in ("smuggle_envs", "agents", "training"):  # the library knows nothing of it
        mentions = [p for p in (ROOT / package).rglob("*.py") if "liars_deal" in p.read_text(encoding="utf-8")]
        assert not mentions, mentions


# ----- the game's rules, in this process (unregistered) ------------------------------------------
def _state(n: int = 3, **config) -> LiarsDealState:
    return LiarsDealGame(num_players=n, **config).new_initial_state(5)


def test_a_raise_is_the_same_count_of_a_higher_rank_or_one_more_of_any():
    assert A.raises(A.claim(2, 4), 6) == [A.claim(2, 5), A.claim(2, 6)] + [A.claim(3, r) for r in range(1, 7)]
    assert A.raises(A.claim(6, 6), 6) == [] and len(A.raises(None, 4)) == 4 * A.RANKS
    assert A.action_to_string(A.claim(3, 5)) == "claim: at least 3 x 5" and A.count_rank(A.claim(3, 5)) == (3, 5)
    state = _state()
    assert A.CALL not in state.legal_actions() and max(state.legal_actions()) == A.claim(6, 6)
    state.apply_action(A.claim(2, 4))
    assert state.legal_actions() == (*A.raises(A.claim(2, 4), 6), A.CALL) and state.current_player() == 1


def _deal(state: LiarsDealState, hands: list[list[int]]) -> None:
    """Lay ``hands`` out by hand, the rest of the cards in the deck (every card still once)."""
    pool = Counter(state.deck) + Counter(card for hand in state.hands for card in hand)
    pool.subtract(card for hand in hands for card in hand)
    state.hands, state.deck = [sorted(hand) for hand in hands], sorted(pool.elements())


@pytest.mark.parametrize("held", [2, 1])
def test_a_call_lays_the_hands_open_and_the_loser_starts_the_next_round(held):
    state = _state()
    _deal(state, [[4, 6], [4, 1], [2, 3]] if held == 2 else [[4, 6], [5, 1], [2, 3]])
    state.apply_action(A.claim(2, 4))  # seat 0: "at least two 4s"
    state.apply_action(A.CALL)  # seat 1 calls
    loser = 1 if held >= 2 else 0  # the claim held: the caller loses; else the claimant
    assert state.points == ([1, 0, 0] if loser == 1 else [0, 1, 0])
    assert state.last is not None and state.last[:3] == (1, 0, A.claim(2, 4)) and state.last[3][4 - 1] == held
    assert state.last[4] == loser and state.current_player() == loser and state.claim is None and state.round == 1
    assert sum(state.out) == 6 and state.out[4 - 1] == held  # the open hands are out, face up
    assert all(len(hand) == 2 for hand in state.hands)  # the next round is dealt
    check(state)


def test_the_cards_out_go_back_in_when_the_deck_runs_short():
    state = _state(4)
    rng = random.Random(0)
    sizes = []
    while state.round < 6:
        sizes.append((len(state.deck), sum(state.out)))
        state.apply_action(rng.choice(state.legal_actions()))
        check(state)
    assert (0, 16) in sizes  # three rounds dealt: 24 cards, 16 of them out
    assert any(deck == 8 and out == 8 for deck, out in sizes)  # ... then shuffled back in


def test_resample_keeps_what_the_seat_knows_and_redraws_the_rest():
    state = _state(4)
    state.apply_action(A.claim(1, 3))
    worlds = [state.resample(2, random.Random(seed)) for seed in range(20)]
    assert all(w.hands[2] == state.hands[2] and w.out == state.out and w.claim == state.claim for w in worlds)
    assert len({tuple(map(tuple, w.hands)) for w in worlds}) > 10
    for w in worlds:
        check(w)


def test_the_game_ends_after_its_rounds_and_the_most_points_win():
    state = _state(2, rounds=3)
    while not state.is_terminal():
        state.apply_action(A.CALL if A.CALL in state.legal_actions() else state.legal_actions()[-1])
    assert state.round == 3 and sum(state.points) == 3 and state.current_player() < 0
    assert state.winning_seats() == [max(range(2), key=lambda p: state.points[p])]
    with pytest.raises(ConfigError, match="hand must be 1 or 2"):
        LiarsDealGame(num_players=2, hand=3)


def test_the_rule_bot_beats_random_play():
    from agents.base import RandomAgent, decide

    game = LiarsDealGame(num_players=3)
    wins = 0
    for seed in range(20):
        agents = [LiarsDealBot(game, seed=seed), RandomAgent(game, seed=1), RandomAgent(game, seed=2)]
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(decide(agents[seat], state, seat))
        wins += 0 in state.winning_seats()
    assert wins >= 15


def test_a_seat_reads_another_seats_action_only_as_far_as_it_saw_it():
    """The visibility family's check (``tests/core/families/_visibility.py``), whose sweeps are a
    table in its test file: run here on the game directly."""
    spec = importlib.util.spec_from_file_location("_sixth_visibility", ROOT / "tests/core/families/_visibility.py")
    assert spec is not None and spec.loader is not None
    visibility = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(visibility)
    for n in (2, 4):
        game = LiarsDealGame(num_players=n)
        policy = lambda state, rng: rng.choice(state.legal_actions())
        checked = sum(visibility.check_action_strings(s, r) for s, r in visibility.positions(game, range(3), 3, policy))
        assert checked > 50


# ----- the core registry's hook ------------------------------------------------------------------
def test_register_refuses_a_taken_id_a_bad_id_and_a_class_that_is_not_the_ids_game():
    with pytest.raises(ValueError, match="already registered"):
        registry.register("ciq_v0", LiarsDealGame, "x")
    with pytest.raises(ValueError, match="<name>_v<N>"):
        registry.register("Liars deal", LiarsDealGame, "x")
    with pytest.raises(TypeError, match="not a Game class whose env_id is 'dice_v0'"):
        registry.register("dice_v0", LiarsDealGame, "x")
    with pytest.raises(TypeError, match="env module"):
        registry.register(ENV_ID, LiarsDealGame, "x", env_module=sys.modules[__name__])
    assert ENV_ID not in registry.ENV_IDS


def test_register_makes_the_game_known_everywhere_the_registry_is_read(monkeypatch):
    import smuggle_envs
    from smuggle_envs.core import Replay
    from tests.fixtures.liars_deal import liars_deal_v0

    module_name = f"smuggle_envs.{ENV_ID}"
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))  # put back after the test
    monkeypatch.setattr(registry, "ENV_IDS", registry.ENV_IDS)
    monkeypatch.setattr(smuggle_envs, "ENV_IDS", smuggle_envs.ENV_IDS)
    monkeypatch.setattr(smuggle_envs, ENV_ID, None, raising=False)
    monkeypatch.setitem(sys.modules, module_name, None)
    registry.register(ENV_ID, LiarsDealGame, "Liar's deal (a test fixture)", env_module=liars_deal_v0)
    assert smuggle_envs.ENV_IDS == registry.ENV_IDS and smuggle_envs.ENV_IDS[-1] == ENV_ID
    assert {"env_id": ENV_ID, "game": "Liar's deal (a test fixture)", "players": "2-4"} in registry.describe()
    assert smuggle_envs.game_class(ENV_ID) is LiarsDealGame
    state = smuggle_envs.make_game(ENV_ID, num_players=3).new_initial_state(1)
    state.apply_action(state.legal_actions()[0])
    assert Replay.from_json(state.to_replay().to_json()).final_state().history == state.history
    assert smuggle_envs.make(ENV_ID, num_players=2).unwrapped.game.num_players == 2
    from smuggle_envs import liars_deal_v0 as imported  # type: ignore[attr-defined]

    assert imported is liars_deal_v0 and sys.modules[module_name] is liars_deal_v0
