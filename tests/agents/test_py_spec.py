"""``py:package.module:Name`` specs and the ``smuggle_envs.agents`` entry points (agents/pyspec.py):
seated by make_agent and every command that takes a spec, one-line errors for what cannot be seated.

The example package examples/smuggle_agent_example is installed by the test set-up (its entry
point ``greedy_example``); the ``py:`` tests put its folder on sys.path themselves."""

import sys
import textwrap
from pathlib import Path

import pytest

import smuggle_envs
from agents import AGENT_KINDS, PLUGIN_KINDS, make_agent
from agents.arena import play
from training.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "smuggle_agent_example"
SPEC = "py:smuggle_agent_example:FirstLegalAgent"


@pytest.fixture
def example_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """A module ``user_agents`` with a factory, a search agent and objects that are no agents."""
    (tmp_path / "user_agents.py").write_text(
        textwrap.dedent(
            """
            from agents.base import RandomAgent

            def factory(game, seed=None, tag="x"):
                agent = RandomAgent(game, seed=seed)
                agent.tag = tag
                return agent

            import random

            class Searcher:
                name = "searcher"
                def __init__(self, game, seed=None):
                    self.rng = random.Random(seed)
                def reset(self, seed=None):
                    self.rng.seed(seed)
                def act_in(self, view):
                    return self.rng.choice(view.legal_actions())

            class NoAct:
                def __init__(self, game, seed=None):
                    pass
                def reset(self, seed=None):
                    pass

            CONSTANT = 3
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    sys.modules.pop("user_agents", None)


def test_a_py_spec_seats_a_class_with_its_options(example_path):
    game = smuggle_envs.make_game("smuggle_v0")
    agent = make_agent(SPEC + ";pick=last", game, seed=3)
    assert type(agent).__name__ == "FirstLegalAgent" and agent.pick == "last"
    driver = play(game, [agent] + [make_agent("random", game, seed=s) for s in range(3)], 1)
    assert driver.terminated


def test_a_py_spec_seats_a_factory_and_a_search_agent(user_module):
    game = smuggle_envs.make_game("smuggle_v0")
    assert make_agent("py:user_agents:factory;tag=hi", game, seed=1).tag == "hi"
    searcher = make_agent("py:user_agents:Searcher", game)
    assert play(game, [searcher] * 4, 2).terminated


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("py:no_such_module_xyz:Agent", "cannot import 'no_such_module_xyz': ModuleNotFoundError"),
        ("py:user_agents:Missing", "module 'user_agents' has no 'Missing'"),
        ("py:user_agents:NoAct", "NoAct does not implement the Agent protocol (it lacks act"),
        ("py:user_agents:CONSTANT", "is a int, not a class or factory"),
        ("py:user_agents", "write py:package.module:Name"),
        ("py:user_agents:factory;bad", "option 'bad' is not key=value"),
        ("py:user_agents:Searcher;depth=3", "Searcher(game, seed=..., depth) failed"),
    ],
)
def test_what_cannot_be_seated_is_one_line_error(user_module, spec, message):
    game = smuggle_envs.make_game("smuggle_v0")
    with pytest.raises(ValueError) as caught:
        make_agent(spec, game)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_match_refuses_a_bad_py_spec_on_one_line(user_module, capsys):
    assert main(["match", "--agents", "py:user_agents:NoAct,random,random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not implement the Agent protocol" in err


def test_match_and_tournament_seat_a_py_spec(example_path, tmp_path, capsys):
    assert main(["match", "--agents", f"{SPEC},random,random", "--games", "3", "--quiet"]) == 0
    assert "smuggle_agent_example" not in capsys.readouterr().err
    db = tmp_path / "t.db"
    argv = ["tournament", "smuggle_v0", "--players", "3", "--agents", f"{SPEC},random,random", "--games", "3"]
    assert main([*argv, "--db", str(db), "--workers", "1", "--out", str(tmp_path / "out"), "--no-plots"]) == 0
    assert SPEC in capsys.readouterr().out


def test_the_entry_point_adds_a_kind_with_its_help_line(capsys):
    assert PLUGIN_KINDS["greedy_example"] == {"*": "smuggle_agent_example:FirstLegalAgent"}
    assert AGENT_KINDS["greedy_example"] is PLUGIN_KINDS["greedy_example"]
    game = smuggle_envs.make_game("illegal_v0")
    assert type(make_agent("greedy_example", game, seed=1)).__name__ == "FirstLegalAgent"
    assert make_agent("greedy_example:last", game).pick == "last"
    assert main(["play", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "greedy_example:PICK Plays the first legal action" in help_text
    assert "py:TARGET Any agent class or factory of an importable module" in help_text


def test_a_library_kind_cannot_be_taken_by_an_entry_point(monkeypatch):
    from importlib import metadata

    from agents.pyspec import entry_point_kinds

    points = [
        metadata.EntryPoint("rule", "evil:Agent", "smuggle_envs.agents"),
        metadata.EntryPoint("mine", "pkg.mod:Mine", "smuggle_envs.agents"),
    ]
    monkeypatch.setattr(metadata, "entry_points", lambda group: points if group == "smuggle_envs.agents" else [])
    assert entry_point_kinds({"rule", "random"}) == {"mine": {"*": "pkg.mod:Mine"}}
