"""The model zoo (spec ``zoo:ENV_ID[@N]``): resolves the model for the game and player count,
verifies its checksum, plays like ``ppo:PATH``, and refuses anything else on one line."""

from __future__ import annotations

import json

import pytest

from agents import make_agent
from agents.zoo import sha256
from smuggle_envs import make_game


@pytest.fixture
def zoo(tmp_path, monkeypatch):
    """A zoo folder with one untrained 3-player Smuggle model."""
    from sb3_contrib import MaskablePPO

    from training.selfplay.single_agent import SelfPlayEnv

    model = MaskablePPO(
        "MlpPolicy", SelfPlayEnv("smuggle_v0", {"num_players": 3}), seed=0, device="cpu", n_steps=64, batch_size=64
    )
    model.save(tmp_path / "smuggle_v0-3p.zip")
    entry = {"file": "smuggle_v0-3p.zip", "sha256": sha256(tmp_path / "smuggle_v0-3p.zip"), "steps": 0}
    (tmp_path / "models.json").write_text(json.dumps({"smuggle_v0@3": entry}))
    monkeypatch.setenv("SMUGGLE_ZOO", str(tmp_path))
    return tmp_path


def _actions(agent, game, seed=0):
    state, out = game.new_initial_state(seed), []
    while not state.is_terminal() and len(out) < 30:
        p = state.current_player()
        a = int(agent.act(state.observation(p), state.legal_action_mask()))
        assert a in state.legal_actions()
        out.append(a)
        state.apply_action(a)
    return out


def test_a_zoo_model_plays_like_its_file(zoo):
    game = make_game("smuggle_v0", num_players=3)
    for spec in ("zoo", "zoo:smuggle_v0", "zoo:smuggle_v0@3"):
        agent = make_agent(spec, game, seed=5)
        assert agent.entry["steps"] == 0
        assert _actions(agent, game) == _actions(make_agent(f"ppo:{zoo / 'smuggle_v0-3p.zip'}", game, seed=5), game)


@pytest.mark.parametrize(
    "spec, players, message",
    [
        ("zoo:ciq_v0", 3, "is a model for ciq_v0, but the game is smuggle_v0"),
        ("zoo:smuggle_v0@4", 3, "is for 4 players, but the game has 3"),
        ("zoo:smuggle_v0@x", 3, "is for x players"),
        ("zoo:smuggle_v0", 4, "has no model for smuggle_v0@4; it has: smuggle_v0@3"),
    ],
)
def test_specs_the_zoo_cannot_serve_are_refused_on_one_line(zoo, spec, players, message):
    with pytest.raises(ValueError, match=message) as info:
        make_agent(spec, make_game("smuggle_v0", num_players=players))
    assert "\n" not in str(info.value)


def test_a_damaged_model_is_refused(zoo):
    path = zoo / "smuggle_v0-3p.zip"
    path.write_bytes(path.read_bytes()[:-10] + b"0123456789")
    with pytest.raises(ValueError, match="does not match its checksum"):
        make_agent("zoo:smuggle_v0", make_game("smuggle_v0", num_players=3))


def test_an_empty_zoo_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("SMUGGLE_ZOO", str(tmp_path))
    with pytest.raises(ValueError, match="no model for smuggle_v0@4; it has: none yet"):
        make_agent("zoo", make_game("smuggle_v0", num_players=4))


def test_a_tournament_pins_a_zoo_agent_to_its_model_file(zoo):
    from training.tournament.runner import resolve_agents

    game = make_game("smuggle_v0", num_players=3)
    entry = resolve_agents(game, ["zoo", "random", "rule"])[0]
    path = zoo / "smuggle_v0-3p.zip"
    assert entry.play_spec == f"ppo:{path.resolve()}"
    assert entry.fingerprint == sha256(path)[:16]  # a replaced model makes it another agent


def test_a_model_the_manifest_marks_deterministic_plays_its_most_probable_action(zoo):
    from training.tournament.runner import resolve_agents

    manifest = json.loads((zoo / "models.json").read_text())
    manifest["smuggle_v0@3"]["deterministic"] = True
    (zoo / "models.json").write_text(json.dumps(manifest))
    game = make_game("smuggle_v0", num_players=3)
    agent = make_agent("zoo", game, seed=5)
    assert agent.deterministic
    argmax = make_agent(f"ppo_argmax:{zoo / 'smuggle_v0-3p.zip'}", game, seed=9)
    assert _actions(agent, game) == _actions(argmax, game)
    assert _actions(agent, game) != _actions(make_agent(f"ppo:{zoo / 'smuggle_v0-3p.zip'}", game, seed=5), game)
    # A tournament pins it to its file and keeps the way it plays.
    assert (
        resolve_agents(game, ["zoo", "random", "rule"])[0].play_spec
        == f"ppo_argmax:{(zoo / 'smuggle_v0-3p.zip').resolve()}"
    )
