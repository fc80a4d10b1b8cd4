"""``smuggle zoo value``: a zoo model shipped as a policy only gets a value head fitted to the
returns of its own games; the policy arrays stay bit-identical, the file keeps verifying, the
search's ``value=zoo`` can use it, the same command makes the same bytes, the held-out error
beats predicting the mean, and bad requests are one line and change nothing. Every run works on
a copy of the shipped zoo (``SMUGGLE_ZOO``); tiny budgets."""

from __future__ import annotations

import functools
import json
import shlex
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from agents.arena import play
from agents.base import decide
from agents.ppo import NumpyPolicy
from agents.zoo import ZOO_DIR, ZooAgent, manifest, sha256
from smuggle_envs import make_game
from training.cli import build_parser, main
from training.zoo_value import Positions, ValueSettings, fit_value_head, play_games

from .test_cli_errors import _one_line_error

TINY = ["--games", "30", "--epochs", "2", "--no-progress"]


@functools.cache
def _policy_only() -> Path:
    """The shipped zoo with every value head taken out (the state of the files the command was
    made for: policies only), in a folder of its own, made once per test session."""
    folder = Path(tempfile.mkdtemp(prefix="zoo-policy-only-"))
    entries = json.loads((ZOO_DIR / "models.json").read_text(encoding="utf-8"))
    for entry in entries.values():
        policy = NumpyPolicy.load(ZOO_DIR / entry["file"])
        policy.critic = None
        policy.save(folder / entry["file"])
        entry["sha256"] = sha256(folder / entry["file"])
        entry.pop("value", None)
    (folder / "models.json").write_text(json.dumps(entries), encoding="utf-8")
    return folder


def _copy_zoo(folder: Path, source: Path | None = None) -> Path:
    """The files of the zoo in ``source`` (default: the shipped zoo, policies only) copied into
    ``folder``."""
    folder.mkdir(parents=True)
    for path in (source or _policy_only()).iterdir():
        if path.is_file():
            shutil.copy2(path, folder / path.name)
    return folder


@pytest.fixture(scope="module")
def fitted(tmp_path_factory) -> Path:
    """A copy of the zoo whose smuggle_v0@4 model got a value head (30 games, 2 epochs)."""
    folder = _copy_zoo(tmp_path_factory.mktemp("fitted") / "zoo")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SMUGGLE_ZOO", str(folder))
        assert main(["zoo", "value", "smuggle_v0@4", *TINY]) == 0
    return folder


@pytest.fixture
def in_fitted(fitted, monkeypatch) -> Path:
    monkeypatch.setenv("SMUGGLE_ZOO", str(fitted))
    return fitted


@pytest.fixture
def zoo(tmp_path, monkeypatch) -> Path:
    """A fresh copy of the shipped zoo, as SMUGGLE_ZOO."""
    folder = _copy_zoo(tmp_path / "zoo")
    monkeypatch.setenv("SMUGGLE_ZOO", str(folder))
    return folder


def _shipped() -> dict:
    return json.loads((_policy_only() / "models.json").read_text(encoding="utf-8"))


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def _check_value_head(folder: Path, key: str) -> None:
    """The file of ``key`` in ``folder``: the shipped policy arrays bit for bit, plus a critic of
    the policy's hidden sizes and one output; the manifest changed for ``key`` only."""
    shipped, entries = _shipped(), manifest()
    entry = entries[key]
    before, after = _arrays(_policy_only() / entry["file"]), _arrays(folder / entry["file"])
    policy_keys = {k for k in after if not k.startswith("critic_")}
    assert policy_keys == set(before)
    for k, a in before.items():
        assert after[k].dtype == a.dtype and after[k].shape == a.shape and after[k].tobytes() == a.tobytes()
    critic = NumpyPolicy.load(folder / entry["file"]).critic
    assert critic is not None
    assert [(w.shape, act) for w, _, act in critic.layers] == [
        ((128, before["w0"].shape[1]), "Tanh"),
        ((128, 128), "Tanh"),
        ((1, 128), "Identity"),
    ]
    assert entry["sha256"] == sha256(folder / entry["file"]) != shipped[key]["sha256"]
    assert {k: v for k, v in entry.items() if k not in ("sha256", "value")} == {
        k: v for k, v in shipped[key].items() if k != "sha256"
    }
    assert {k: v for k, v in entries.items() if k != key} == {k: v for k, v in shipped.items() if k != key}


def test_the_value_head_joins_the_policy_unchanged(in_fitted):
    _check_value_head(in_fitted, "smuggle_v0@4")
    record = manifest()["smuggle_v0@4"]["value"]
    assert record["games"] == 30 and record["positions"] > 30 and record["mode"] == "win_loss"
    assert record["held_out_mse"] > 0 and record["baseline_mse"] > 0 and record["commit"]
    assert record["wall_minutes"] >= 0 and 0 <= record["best_epoch"] <= 2


def test_another_game_too(zoo):
    key, record = fit_value_head(ValueSettings("illegal_v0", games=30, epochs=2))
    assert key == "illegal_v0@4" and manifest()[key]["value"] == record
    _check_value_head(zoo, key)


def test_the_zoo_agent_loads_it_and_verifies_its_checksum(fitted, tmp_path, monkeypatch):
    folder = _copy_zoo(tmp_path / "zoo", fitted)
    monkeypatch.setenv("SMUGGLE_ZOO", str(folder))
    game = make_game("smuggle_v0", num_players=4)
    agent = ZooAgent(game, "smuggle_v0@4")
    assert agent.policy is not None and agent.policy.critic is not None
    entries = manifest()
    entries["smuggle_v0@4"]["sha256"] = _shipped()["smuggle_v0@4"]["sha256"]  # the old file's
    (folder / "models.json").write_text(json.dumps(entries))
    with pytest.raises(ValueError, match="does not match its checksum"):
        ZooAgent(game, "smuggle_v0@4")


def test_the_search_reads_the_value_head(in_fitted, monkeypatch):
    game = make_game("smuggle_v0", num_players=4)
    spec = "ismcts:sims=5;prior=zoo;value=zoo"
    agent = make_agent(spec, game, seed=0)
    state = game.new_initial_state(0)
    for _ in range(6):
        action = decide(agent, state, state.current_player())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert agent.network.value_calls > 0
    monkeypatch.setenv("SMUGGLE_ZOO", str(_policy_only()))  # a policy only
    with pytest.raises(ValueError, match="no value head"):
        make_agent(spec, game, seed=0)


def test_the_same_command_makes_the_same_bytes(fitted, zoo, capsys):
    assert main(["zoo", "value", "smuggle_v0", *TINY]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("value head for zoo:smuggle_v0@4: 30 games, ") and "held-out MSE" in out
    assert "\n" not in out and str(zoo / "smuggle_v0-4p.npz") in out
    assert (zoo / "smuggle_v0-4p.npz").read_bytes() == (fitted / "smuggle_v0-4p.npz").read_bytes()
    mine, theirs = manifest()["smuggle_v0@4"], json.loads((fitted / "models.json").read_text())["smuggle_v0@4"]
    mine["value"].pop("wall_minutes"), theirs["value"].pop("wall_minutes")
    assert mine == theirs


def test_the_recorded_command_parses_back_to_the_settings(in_fitted):
    command = manifest()["smuggle_v0@4"]["value"]["command"]
    argv = shlex.split(command)
    assert argv[:3] == ["smuggle", "zoo", "value"]
    settings = ValueSettings.from_args(build_parser().parse_args(argv[1:]))
    assert settings == ValueSettings("smuggle_v0@4", games=30, seed=0, opponents=("zoo", "rule"), epochs=2)
    assert settings.command("smuggle_v0@4") == command


def test_the_held_out_error_beats_predicting_the_mean(zoo):
    # 200 games, 4 epochs (a few seconds): 0.76-0.88 of the baseline at every seed tried (0-5)
    _, record = fit_value_head(ValueSettings("smuggle_v0@4", games=200, epochs=4))
    assert record["held_out_mse"] < record["baseline_mse"] and record["best_epoch"] > 0


def test_every_seat_the_model_plays_is_recorded(zoo):
    """At a table of zoo opponents every decision is the model's; against rule bots, only its
    seat's (one label a game)."""
    game = make_game("smuggle_v0", num_players=4)
    model = make_agent("zoo", game, seed=0)
    for spec in ("zoo", "rule"):
        settings = ValueSettings("smuggle_v0@4", games=1, opponents=(spec,))
        table = [make_agent(spec, game, seed=s) for s in range(4)]
        positions = play_games(game, model, {spec: table}, settings)
        driver = play(game, [model, *table[1:]], 0)  # the same game again
        if spec == "zoo":
            assert len(positions) == driver.decisions and set(positions.returns) == {-1.0, 1.0}
        else:
            assert 0 < len(positions) < driver.decisions / 2 and len(set(positions.returns)) == 1


def test_the_list_shows_the_value_head(in_fitted, capsys):
    assert main(["zoo"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("zoo:") and "core" in line}
    assert rows["zoo:smuggle_v0@4"].rstrip().endswith("fitted")
    assert rows["zoo:ciq_v0@4"].rstrip().endswith("none")
    assert manifest()["smuggle_v0@4"]["value"]["command"] in out


def test_positions_keep_the_observations():
    rng = np.random.default_rng(0)
    rows = rng.random((7, 11)).astype(np.float32) * (rng.random((7, 11)) < 0.3)
    positions = Positions(11)
    for g, row in enumerate(rows):
        positions.add(row, float(g), g)
    positions.finish()
    picked = np.array([3, 0, 6, 3])
    assert np.array_equal(positions.dense(picked), rows[picked]) and len(positions) == 7


@pytest.mark.parametrize(
    "argv, message",
    [
        (["zoo", "value"], "needs the model"),
        (["zoo", "value", "smuggle_v0@3"], "has no model for smuggle_v0@3"),
        (["zoo", "value", "smuggle_v0@x"], "write ENV_ID or ENV_ID@N"),
        (["zoo", "value", "nope_v0"], "nope_v0"),
        (["zoo", "value", "smuggle_v0", "--games", "9"], "--games must be at least 10"),
        (["zoo", "value", "smuggle_v0", "--epochs", "0"], "--epochs must be 1 or more"),
        (["zoo", "value", "smuggle_v0", "--opponents", "zoo,bogus"], "unknown agent 'bogus'"),
        (["zoo", "value", "smuggle_v0", "--opponents", "ismcts:sims=0"], "sims"),
        (["zoo", "value", "smuggle_v0", "--opponents", "zoo,,rule"], "empty entry"),
    ],
)
def test_bad_requests_are_one_line_and_change_nothing(zoo, argv, message, capsys):
    before = {path.name: path.read_bytes() for path in zoo.iterdir()}
    assert main(argv) == 2
    assert message in _one_line_error(capsys)
    assert {path.name: path.read_bytes() for path in zoo.iterdir()} == before


def test_a_written_file_whose_policy_changed_is_refused(zoo, monkeypatch):
    """The bit-identity check guards the replacement: a policy array changed on the way (here
    by a stand-in for the save) leaves the shipped file, the manifest and no temporary."""

    save = NumpyPolicy.save

    def damage(self: NumpyPolicy, path: Path) -> None:
        save(self, path)
        arrays = _arrays(path)
        arrays["b0"] = np.nextafter(arrays["b0"], np.float32(1))  # one ulp
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    monkeypatch.setattr(NumpyPolicy, "save", damage)
    before = {path.name: path.read_bytes() for path in zoo.iterdir()}
    with pytest.raises(RuntimeError, match="would change the policy arrays"):
        fit_value_head(ValueSettings("illegal_v0@4", games=10, epochs=1))
    assert {path.name: path.read_bytes() for path in zoo.iterdir()} == before


def test_every_shipped_model_has_a_fitted_value_head():
    """The shipped zoo: each file holds a value head that its recorded command made, better than
    predicting the mean on its held-out games."""
    for key, entry in json.loads((ZOO_DIR / "models.json").read_text(encoding="utf-8")).items():
        assert NumpyPolicy.load(ZOO_DIR / entry["file"]).critic is not None, key
        record = entry["value"]
        assert shlex.split(record["command"])[:4] == ["smuggle", "zoo", "value", key]
        assert record["held_out_mse"] < record["baseline_mse"], key
