"""Networks in the search (issue #28): ``ismcts:prior=...`` (PUCT over a network's masked action
probabilities) and ``value=...`` (leaves scored by a network's value instead of a playout).

The default search (no network) must stay exactly today's UCB: it is compared, action for action
and RNG state for RNG state, with a frozen copy of the pre-#28 default iteration
(``_reference_ucb``), on every game. The networks here are tiny hand-made ones with a value head
(``_tiny_model``), and the zoo's shipped files with their fitted value heads."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

import smuggle_envs
from agents import make_agent
from agents.base import SeatView
from agents.ppo import NumpyMLP, NumpyPolicy
from agents.search_net import SearchNetwork

GAME = smuggle_envs.make_game("smuggle_v0", num_players=4)


def _positions(game, count: int, seed: int = 5) -> list:
    """Mid-game states from random play with two legal actions or more."""
    rng, found, game_seed = random.Random(seed), [], seed
    while len(found) < count:
        state, step = game.new_initial_state(game_seed), 0
        game_seed += 1
        while not state.is_terminal() and len(found) < count:
            if step % 7 == 3 and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    return found


def _tiny_model(path, game=GAME, favourite=(), value=0.25, critic=True) -> str:
    """A saved ``NumpyPolicy`` for ``game``: a small random hidden layer, logits +6 on the
    ``favourite`` actions, and (``critic``) a value head that always says ``value``."""
    rng = np.random.default_rng(0)
    size, actions = game.observation_layout.size, game.num_actions
    bias = np.zeros(actions, np.float32)
    bias[list(favourite)] = 6.0
    policy = NumpyPolicy(
        [
            (rng.normal(0, 0.01, (8, size)), np.zeros(8), "Tanh"),
            (rng.normal(0, 0.01, (actions, 8)), bias, "Identity"),
        ]
    )
    if critic:
        policy.critic = NumpyMLP([(np.zeros((4, size)), np.zeros(4), "Tanh"), (np.zeros((1, 4)), [value], "Identity")])
    policy.save(path)
    return str(path)


# ----- the default search is today's, bit for bit --------------------------------------------------
class _RefNode:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict = {}
        self.visits, self.avail, self.total = 0, 0, 0.0


def _reference_descent(node, world, rng, c, max_depth, path) -> None:
    """The tree part of one pre-#28 SO-ISMCTS iteration (prior=none, opponents=search)."""
    depth = 0
    while not world.is_terminal():
        actor, legal = world.current_player(), world.legal_actions()
        tried = [a for a in legal if a in node.children]
        if len(tried) < len(legal):
            if max_depth is not None and depth >= max_depth:
                return
            for a in tried:
                node.children[a].avail += 1
            untried = [a for a in legal if a not in node.children]
            action = untried[rng.randrange(len(untried))]
            child = node.children[action] = _RefNode()
            child.avail = 1
            world.apply_action(action)
            path.append((child, actor))
            return
        best, best_value = tried[0], -math.inf
        for a in tried:
            child = node.children[a]
            child.avail += 1
            value = (
                math.inf
                if not child.visits
                else child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            )
            if value > best_value:
                best, best_value = a, value
        node = node.children[best]
        world.apply_action(best)
        path.append((node, actor))
        depth += 1


def _reference_ucb(view, rng, sims, c=0.7, mode="win_loss", max_depth=None) -> int:
    """A frozen copy of the default ISMCTS decision before issue #28: UCB1, random playouts."""
    root = _RefNode()
    for _ in range(sims):
        world = view.sample_world(random.Random(rng.getrandbits(64)))
        path: list = []
        _reference_descent(root, world, rng, c, max_depth, path)
        steps = world.game.playout_depth if world.game.playout_depth is not None else -1
        while steps and not world.is_terminal():
            legal = world.legal_actions()
            world.apply_action(legal[int(rng.random() * len(legal))])
            steps -= 1
        returns = world.returns(mode)
        for child, actor in path:
            child.visits += 1
            child.total += returns[actor]
    best, key = None, (-1, -math.inf)
    for a in view.legal_actions():
        child = root.children.get(a)
        k = (0, -math.inf) if child is None else (child.visits, child.total / max(child.visits, 1))
        if k > key:
            best, key = a, k
    return best


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
@pytest.mark.parametrize("options", [{"sims": 12}, {"sims": 10, "c": 1.0, "mode": "rank", "max_depth": 2}])
def test_the_default_search_is_bit_identical_to_the_pre_network_ucb(env_id, options):
    game = smuggle_envs.make_game(env_id, num_players=4)
    spec = "ismcts:" + ";".join(f"{k}={v}" for k, v in options.items())
    for i, state in enumerate(_positions(game, 2)):
        agent, rng = make_agent(spec, game, seed=100 + i), random.Random(100 + i)
        ref = dict(options)
        sims = ref.pop("sims")
        for _ in range(2):  # the second decision starts from where the first left the RNG
            view = SeatView(state, state.current_player())
            assert agent.act_in(view) == _reference_ucb(view, rng, sims, **ref)
        assert agent.network is None and agent.rng.getstate() == rng.getstate()


# ----- PUCT and value leaves ----------------------------------------------------------------------
def _position_with_choices(minimum: int = 4):
    return next(s for s in _positions(GAME, 30) if len(s.legal_actions()) >= minimum)


@pytest.mark.parametrize("pick", [1, -1])
def test_puct_picks_the_priors_favourite_when_values_tie(tmp_path, pick):
    state = _position_with_choices()
    favourite = state.legal_actions()[pick]
    model = _tiny_model(tmp_path / "m.npz", favourite=[favourite])
    agent = make_agent(f"ismcts:sims=30;prior=ppo:{model};value=ppo:{model}", GAME, seed=1)
    assert agent.act_in(SeatView(state, state.current_player())) == favourite


def test_a_nodes_prior_is_evaluated_once_and_cached(tmp_path):
    state = _position_with_choices()
    model = _tiny_model(tmp_path / "m.npz")
    agent = make_agent(f"ismcts:sims=25;max_depth=1;prior=ppo:{model}", GAME, seed=1)
    agent.act_in(SeatView(state, state.current_player()))
    assert agent.iterations == 25 and agent.network.prior_calls == 1  # the root, once


@pytest.mark.parametrize("prior", ["none", "ppo"])
def test_value_leaves_replace_the_playout(tmp_path, monkeypatch, prior):
    state = _position_with_choices()
    model = _tiny_model(tmp_path / "m.npz")
    prior_option = f"prior=ppo:{model};" if prior == "ppo" else ""
    agent = make_agent(f"ismcts:sims=20;{prior_option}value=ppo:{model}", GAME, seed=1)

    def no_playout(world):
        raise AssertionError("a playout ran although value= scores the leaves")

    monkeypatch.setattr(agent, "_playout", no_playout)
    assert agent.act_in(SeatView(state, state.current_player())) in state.legal_actions()
    assert agent.network.value_calls == 20  # one batched evaluation per iteration


def test_value_playout_plays_k_decisions_then_asks_the_value(tmp_path, monkeypatch):
    state = _position_with_choices()
    model = _tiny_model(tmp_path / "m.npz")
    agent = make_agent(f"ismcts:sims=6;value=ppo:{model};value_playout=3", GAME, seed=1)
    advanced = []
    inner = agent._advance
    monkeypatch.setattr(agent, "_advance", lambda world, steps: (advanced.append(steps), inner(world, steps)))
    agent.act_in(SeatView(state, state.current_player()))
    assert advanced == [3] * 6 and agent.network.value_calls == 6


@pytest.mark.parametrize("prior", ["none", "uniform"])
def test_a_value_that_knows_the_answer_finds_the_winning_move(tmp_path, monkeypatch, prior):
    state = _position_with_choices()
    legal, me, start = state.legal_actions(), state.current_player(), len(state.history)
    winning = legal[len(legal) // 2]
    model = _tiny_model(tmp_path / "m.npz")
    prior_option = f"prior=ppo:{model};" if prior == "uniform" else ""
    agent = make_agent(f"ismcts:sims={len(legal) + 4};{prior_option}value=ppo:{model}", GAME, seed=3)

    def oracle(world, seats):  # +1 to the searcher after the winning move, -1 otherwise
        won = world.history[start] == winning
        return {p: (1.0 if won == (p == me) else -1.0) for p in seats}

    monkeypatch.setattr(agent.network, "values", oracle)
    assert agent.act_in(SeatView(state, me)) == winning


@pytest.mark.parametrize("batch", ["", ";leaf_batch=4"])
def test_the_network_only_ever_sees_sampled_worlds(tmp_path, monkeypatch, batch):
    state = _position_with_choices()
    model = _tiny_model(tmp_path / "m.npz")
    agent = make_agent(f"ismcts:sims=12;prior=ppo:{model};value=ppo:{model}{batch}", GAME, seed=1)
    worlds: list = []  # kept alive, so that no two worlds share an id
    sample_world = SeatView.sample_world

    def recording_sample(view, rng=None):
        worlds.append(sample_world(view, rng))
        return worlds[-1]

    seen: list[int] = []
    for name in ("prior_logits", "values"):
        method = getattr(SearchNetwork, name)
        monkeypatch.setattr(
            SearchNetwork, name, lambda net, world, arg, _m=method: (seen.append(id(world)), _m(net, world, arg))[1]
        )
    many = SearchNetwork.values_many
    monkeypatch.setattr(
        SearchNetwork, "values_many", lambda net, items: (seen.extend(id(w) for w, _ in items), many(net, items))[1]
    )
    observed: list[int] = []
    for name in ("observation", "global_observation"):
        method = getattr(type(state), name)
        monkeypatch.setattr(type(state), name, lambda s, p, _m=method: (observed.append(id(s)), _m(s, p))[1])
    monkeypatch.setattr(SeatView, "sample_world", recording_sample)
    agent.act_in(SeatView(state, state.current_player()))
    sampled = {id(world) for world in worlds}
    assert seen and set(seen) <= sampled and len(sampled) == 12
    assert id(state) not in observed  # nothing in the search read the true state's observation


# ----- the value head: exported from a MaskablePPO policy, saved beside the policy -------------------
@pytest.mark.parametrize("privileged", [False, True])
def test_the_critic_is_exported_saved_and_read_by_the_search(tmp_path, privileged):
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from agents.privileged_critic import PrivilegedCriticPolicy

    size, n = GAME.observation_layout.size, GAME.num_players
    width = n * size if privileged else size
    space = spaces.Box(-1.0, 1.0, shape=(width,), dtype=np.float32)
    cls, extra = (PrivilegedCriticPolicy, {"own_size": size}) if privileged else (MaskableActorCriticPolicy, {})
    policy = cls(space, spaces.Discrete(GAME.num_actions), lambda _: 1e-3, net_arch=[16, 16], **extra)
    numpy_policy = NumpyPolicy.from_sb3(policy, critic=True)
    assert numpy_policy is not None and numpy_policy.critic is not None
    obs = torch.rand(3, width)
    with torch.no_grad():
        expected = policy.predict_values(obs).numpy()
    np.testing.assert_allclose(numpy_policy.critic(obs.numpy()), expected, rtol=1e-5, atol=1e-6)
    numpy_policy.save(tmp_path / "m.npz")
    loaded = NumpyPolicy.load(tmp_path / "m.npz")
    np.testing.assert_array_equal(loaded.critic(obs.numpy()), numpy_policy.critic(obs.numpy()))
    agent = make_agent(f"ismcts:sims=5;value=ppo:{tmp_path / 'm.npz'}", GAME, seed=0)
    state = _position_with_choices()
    assert agent.act_in(SeatView(state, state.current_player())) in state.legal_actions()
    assert agent.network.value_calls == 5


def test_the_zoo_serves_as_a_prior_and_the_search_stays_a_function_of_its_seed():
    states = _positions(GAME, 3)
    runs = []
    for _ in range(2):
        agent = make_agent("ismcts:sims=8;prior=zoo", GAME, seed=0)
        runs.append([agent.act_in(SeatView(s, s.current_player())) for s in states])
        assert agent.network.prior_calls >= 1 and agent.network.critic is None
    assert runs[0] == runs[1] and all(a in s.legal_actions() for a, s in zip(runs[0], states))


def _policy_only_zoo(folder: Path) -> Path:
    """A zoo holding the shipped Smuggle model without its value head."""
    from agents.zoo import ZOO_DIR, sha256

    folder.mkdir()
    entries = json.loads((ZOO_DIR / "models.json").read_text(encoding="utf-8"))
    entry = entries["smuggle_v0@4"]
    policy = NumpyPolicy.load(ZOO_DIR / entry["file"])
    policy.critic = None
    policy.save(folder / entry["file"])
    entry["sha256"] = sha256(folder / entry["file"])
    (folder / "models.json").write_text(json.dumps({"smuggle_v0@4": entry}), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    "options, message",
    [
        ("prior=foo", "bad value 'foo' for prior (expected none|rule|zoo[:ENV[@N]]|ppo:PATH)"),
        ("value=rule", "bad value 'rule' for value (expected none|zoo[:ENV[@N]]|ppo:PATH)"),
        ("value_playout=2", "value_playout needs value=zoo or value=ppo:PATH"),
        ("value=zoo;value_playout=-1", "value_playout must be 0 or more"),
        ("value=zoo", "the zoo's model smuggle_v0-4p.npz has no value head"),
        ("value=ppo:NOCRITIC", "NOCRITIC has no value head"),
        ("prior=ppo:/no/such/model.npz", "no trained model at /no/such/model.npz"),
        ("prior=zoo:ciq_v0", "zoo:ciq_v0 is a model for ciq_v0, but the game is smuggle_v0"),
        ("prior=ppo:OTHER", "it was trained for another game"),
    ],
)
def test_bad_network_options_are_one_line_errors(tmp_path, monkeypatch, options, message):
    monkeypatch.setenv("SMUGGLE_ZOO", str(_policy_only_zoo(tmp_path / "zoo")))
    nocritic = _tiny_model(tmp_path / "nocritic.npz", critic=False)
    other = _tiny_model(tmp_path / "other.npz", game=smuggle_envs.make_game("smuggle_v0", num_players=3))
    spec = "ismcts:" + options.replace("NOCRITIC", nocritic).replace("OTHER", other)
    with pytest.raises(ValueError) as info:
        make_agent(spec, GAME, seed=0)
    assert message.replace("NOCRITIC", nocritic) in str(info.value) and "\n" not in str(info.value)


def test_a_runs_zip_serves_as_value_and_smuggle_zoo_add_ships_its_critic(tmp_path, monkeypatch):
    # The export path: a MaskablePPO zip (what a run saves) carries its critic; add_model (what
    # `smuggle zoo add` calls) writes it into the zoo's .npz, and value=zoo then reads it.
    from sb3_contrib import MaskablePPO

    from agents.zoo import add_model
    from training.selfplay.single_agent import SelfPlayEnv

    env = SelfPlayEnv("smuggle_v0", {"num_players": 4})
    model = MaskablePPO(
        "MlpPolicy", env, seed=0, device="cpu", n_steps=64, batch_size=64, policy_kwargs={"net_arch": [16]}
    )
    model.save(tmp_path / "final.zip")
    monkeypatch.setenv("SMUGGLE_ZOO", str(tmp_path / "zoo"))
    add_model(tmp_path / "final.zip", GAME, {"steps": 0})
    assert NumpyPolicy.load(tmp_path / "zoo" / "smuggle_v0-4p.npz").critic is not None
    state = _position_with_choices()
    for value in (f"ppo:{tmp_path / 'final.zip'}", "zoo"):
        agent = make_agent(f"ismcts:sims=4;prior=zoo;value={value}", GAME, seed=0)
        assert agent.act_in(SeatView(state, state.current_player())) in state.legal_actions()
        assert agent.network.value_calls == 4


def test_the_benchmark_times_network_leaves_beside_playouts(tmp_path, monkeypatch):
    import importlib.util
    import json
    from pathlib import Path

    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(name, "1")  # what the script sets at import; restored afterwards
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "search.py"
    spec = importlib.util.spec_from_file_location("search_benchmark", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.network_speed("illegal_v0", 4, seconds=0.05, sims=3)
    assert [r["search"].split(" (")[0] for r in rows] == [label for label, _ in bench.NETWORK_ROWS]
    assert rows[0]["prior_per_sim"] == rows[0]["value_per_sim"] == 0.0  # UCB: no network
    assert rows[1]["prior_per_sim"] > 0 and rows[1]["value_per_sim"] == 0.0
    assert all(r["value_per_sim"] > 0 and r["sims_per_s"] > 0 for r in rows[2:])
    monkeypatch.setattr(bench, "DATA", tmp_path / "search_network.json")
    bench.save_network_table(rows, "python benchmarks/search.py --network")
    table = json.loads((tmp_path / "search_network.json").read_text())["table"]
    assert len(table["rows"]) == 4 and len(table["headers"]) == len(table["align"]) == 5


# ----- leaf_batch: K descents under a virtual loss, their leaves in one forward pass ----------------
def _late_position(game=GAME, seed: int = 2):
    """The last decision of a random game with two legal actions or more: near the end, so that
    some descents of a search reach a terminal world."""
    rng, state, last = random.Random(seed), game.new_initial_state(seed), None
    while not state.is_terminal():
        if len(state.legal_actions()) > 1:
            last = state.clone()
        state.apply_action(rng.choice(state.legal_actions()))
    return last


def _tree(node):
    yield node
    for child in node.children.values():
        yield from _tree(child)


def test_leaf_batch_1_is_the_one_at_a_time_search(tmp_path):
    model = _tiny_model(tmp_path / "m.npz", favourite=[3])
    runs = []
    for batch in ("", ";leaf_batch=1"):
        agent = make_agent(f"ismcts:sims=10;prior=ppo:{model};value=ppo:{model}{batch}", GAME, seed=4)
        states = [*_positions(GAME, 4), _late_position()]
        actions = [agent.act_in(SeatView(s, s.current_player())) for s in states]
        runs.append((actions, agent.last_visits.tolist(), agent.rng.getstate(), agent.network.value_calls))
    assert runs[0] == runs[1]


def _recording_batches(agent) -> list[list[bool]]:
    """Record, for each batch the agent scores, whether each of its leaves is terminal."""
    batches: list[list[bool]] = []
    score = agent._score_leaves
    agent._score_leaves = lambda leaves: (batches.append([w.is_terminal() for w, _ in leaves]), score(leaves))[1]
    return batches


def test_leaf_batch_runs_sims_simulations_with_one_forward_pass_a_batch(tmp_path):
    model = _tiny_model(tmp_path / "m.npz")
    states = [*_positions(GAME, 3), _late_position()]
    runs, terminal = [], []
    for _ in range(2):  # two agents of the same seed: the same search
        agent = make_agent(f"ismcts:sims=12;prior=ppo:{model};value=ppo:{model};leaf_batch=4", GAME, seed=6)
        batches = _recording_batches(agent)
        run = []
        for state in states:
            batches.clear()
            calls, leaves = agent.network.value_calls, agent.network.value_leaves
            action = agent.act_in(SeatView(state, state.current_player()))
            assert action in state.legal_actions()
            assert agent.iterations == 12 and agent.last_visits.sum() == 12 and len(batches) == 3
            # one forward pass per batch with a non-terminal leaf; terminal leaves scored exactly
            assert agent.network.value_calls - calls == sum(not all(b) for b in batches) <= 3
            assert agent.network.value_leaves - leaves == sum(not t for b in batches for t in b)
            run.append((action, agent.last_visits.tolist()))
            terminal.append(sum(t for b in batches for t in b))
        runs.append(run)
    assert runs[0] == runs[1]
    assert terminal[:3] == [0, 0, 0] and terminal[3] > 0  # mid-game: none; the last decision: some


def test_leaf_batch_cuts_its_last_batch_to_the_simulations_left(tmp_path):
    model = _tiny_model(tmp_path / "m.npz")
    state = _positions(GAME, 1)[0]
    agent = make_agent(f"ismcts:sims=10;prior=ppo:{model};value=ppo:{model};leaf_batch=4", GAME, seed=0)
    agent.act_in(SeatView(state, state.current_player()))
    assert agent.iterations == agent.last_visits.sum() == agent.network.value_leaves == 10  # 4 + 4 + 2
    assert agent.network.value_calls == 3


@pytest.mark.parametrize("value", [0.0, 0.25])
def test_leaf_batch_takes_its_virtual_loss_back(tmp_path, value):
    # A critic that says `value` for every seat of every (mid-game, never terminal) leaf: every
    # edge's total must then be exactly value * visits; a virtual loss left behind (-1 a visit)
    # would show as a lower total.
    model = _tiny_model(tmp_path / "m.npz", value=value)
    agent = make_agent(f"ismcts:sims=16;prior=ppo:{model};value=ppo:{model};leaf_batch=4", GAME, seed=2)
    roots = []
    monkey_search = agent._search_batched
    agent._search_batched = lambda view, root, deadline: (roots.append(root), monkey_search(view, root, deadline))[1]
    for state in _positions(GAME, 3):
        agent.act_in(SeatView(state, state.current_player()))
        nodes = list(_tree(roots[-1]))[1:]
        assert sum(child.visits for child in roots[-1].children.values()) == 16
        assert any(node.visits for node in nodes)
        assert all(node.total == value * node.visits for node in nodes)


def test_leaf_batch_a_value_that_knows_the_answer_finds_the_winning_move(tmp_path, monkeypatch):
    # One batch of one descent per legal action: nothing is scored before the batch ends, so it
    # is the virtual loss that spreads the descents (an action descended into counts as lost, so
    # the next descent prefers an untried one), and the value's verdict then decides the move.
    state = _position_with_choices()
    legal, me, start = state.legal_actions(), state.current_player(), len(state.history)
    winning = legal[len(legal) // 2]
    model = _tiny_model(tmp_path / "m.npz")
    k = len(legal)
    agent = make_agent(f"ismcts:sims={k};prior=ppo:{model};value=ppo:{model};leaf_batch={k}", GAME, seed=3)

    def oracle(world, seats):  # +1 to the searcher after the winning move, -1 otherwise
        won = world.history[start] == winning
        return {p: (1.0 if won == (p == me) else -1.0) for p in seats}

    monkeypatch.setattr(agent.network, "values_many", lambda items: [oracle(w, s) for w, s in items])
    assert agent.act_in(SeatView(state, me)) == winning
    assert set(agent.last_visits[list(legal)].tolist()) == {1}  # one descent per action


def test_leaf_batch_values_many_matches_values(tmp_path):
    model = _tiny_model(tmp_path / "m.npz")
    network = SearchNetwork(GAME, None, f"ppo:{model}")
    rng = np.random.default_rng(1)
    network.critic.layers[0] = (rng.normal(0, 0.1, network.critic.layers[0][0].shape), np.zeros(4), "Tanh")
    network.critic.layers[1] = (rng.normal(0, 1, (1, 4)), np.zeros(1), "Identity")
    items = [(s, seats) for s, seats in zip(_positions(GAME, 3), ([0, 2], [1], [0, 1, 2, 3]))]
    many = network.values_many(items)
    assert network.value_calls == 1 and network.value_leaves == 3
    for (world, seats), got in zip(items, many):
        expected = network.values(world, seats)
        assert list(got) == seats and got == pytest.approx(expected, abs=1e-6)


def test_leaf_batch_makes_the_new_nodes_priors_in_one_pass_a_batch(tmp_path):
    model = _tiny_model(tmp_path / "m.npz", favourite=[3])
    state = _positions(GAME, 1)[0]
    counts = {}
    for batch in (1, 4):
        agent = make_agent(f"ismcts:sims=16;prior=ppo:{model};value=ppo:{model};leaf_batch={batch}", GAME, seed=5)
        roots = []
        search = agent._search_batched if batch > 1 else agent._search
        spy = lambda view, root, deadline, search=search, roots=roots: (
            roots.append(root),
            search(view, root, deadline),
        )[1]
        setattr(agent, "_search_batched" if batch > 1 else "_search", spy)
        agent.act_in(SeatView(state, state.current_player()))
        counts[batch] = (agent.network.prior_calls, agent.network.prior_rows)
        # every node chosen from has its prior, of its chooser, over that world's legal actions
        for node in _tree(roots[-1]):
            if node.children:
                legal, _actor, _logits, by_action, ranked = node.prior
                assert set(by_action) == set(legal) and sorted(ranked) == sorted(legal)
                assert sum(by_action.values()) == pytest.approx(1.0)
    assert counts[1][0] == counts[1][1]  # one at a time: a pass a row
    assert counts[4][0] < counts[4][1]  # batched: several new nodes a pass


def test_prior_logits_many_matches_prior_logits(tmp_path):
    model = _tiny_model(tmp_path / "m.npz", favourite=[3, 7])
    network = SearchNetwork(GAME, f"ppo:{model}", None)
    items = [(s, p) for s, p in zip(_positions(GAME, 3), (0, 2, 1))]
    many = network.prior_logits_many(items)
    assert network.prior_calls == 1 and network.prior_rows == 3 and network.prior_logits_many([]) == []
    for (world, actor), got in zip(items, many):
        np.testing.assert_allclose(got, network.prior_logits(world, actor), atol=1e-5)


@pytest.mark.parametrize(
    "options, message",
    [
        ("leaf_batch=0", "leaf_batch must be a positive integer, got 0"),
        ("leaf_batch=-3", "leaf_batch must be a positive integer, got -3"),
        ("prior=ppo:MODEL;leaf_batch=2", "leaf_batch=2 needs a network prior"),
        ("value=ppo:MODEL;leaf_batch=2", "leaf_batch=2 needs a network prior"),
        ("prior=rule;value=ppo:MODEL;leaf_batch=2", "and a network value (value=zoo or value=ppo:PATH)"),
        ("leaf_batch=4", "leaf_batch=4 needs a network prior (prior=zoo or prior=ppo:PATH: PUCT)"),
    ],
)
def test_bad_leaf_batch_options_are_one_line_errors(tmp_path, options, message):
    model = _tiny_model(tmp_path / "m.npz")
    with pytest.raises(ValueError) as info:
        make_agent("ismcts:" + options.replace("MODEL", model), GAME, seed=0)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_the_benchmark_times_batched_value_leaves(monkeypatch):
    import importlib.util
    from pathlib import Path

    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(name, "1")
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "search.py"
    spec = importlib.util.spec_from_file_location("search_benchmark", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    (row,) = bench.network_speed("illegal_v0", 4, seconds=0.05, sims=10, searches=bench.BATCHED_ROWS)
    assert row["search"].startswith("PUCT prior=zoo, value leaves, leaf_batch=8")
    assert row["sims_per_s"] > 0 and 0 < row["value_per_sim"] <= 2 / 10  # a pass per batch: 8 + 2
