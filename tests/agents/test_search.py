"""agents.search: IS-MCTS and PIMC play every game legally, deterministically, without hidden
information, parse their spec options, beat random, and run from the CLI."""

import random
from types import SimpleNamespace

import numpy as np
import pytest

import smuggle_envs
from agents import AGENT_KINDS, make_agent
from agents.arena import _StepCallback, play
from agents.base import SeatView, decide
from agents.search import ISMCTSAgent, PIMCAgent
from smuggle_envs.core.game import State

ALLOWED = {"player", "game", "observation", "legal_actions", "legal_action_mask", "sample_world"}


class _RecordingView:
    """Wraps a SeatView and records every attribute the agent reads."""

    def __init__(self, view, touched):
        object.__setattr__(self, "_view", view)
        object.__setattr__(self, "_touched", touched)

    def __getattr__(self, name):
        self._touched.add(name)
        return getattr(self._view, name)

    def __setattr__(self, name, value):
        raise AssertionError(f"the agent tried to set view.{name}")


class _Watched:
    """Hands the inner search agent a recording proxy of every view it gets."""

    def __init__(self, inner, touched):
        self.inner, self.touched, self.name = inner, touched, inner.name
        self.views = []

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act_in(self, view):
        assert isinstance(view, SeatView)
        self.views.append(view.player)
        return self.inner.act_in(_RecordingView(view, self.touched))


def _lineup(game, search_specs, seed=0):
    agents = [make_agent(spec, game, seed=seed + i) for i, spec in enumerate(search_specs)]
    agents += [make_agent("random", game, seed=seed + 10 + i) for i in range(game.num_players - len(agents))]
    return agents


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
@pytest.mark.parametrize("size", ["min", "max"])
def test_search_bots_play_whole_games_of_every_env_at_min_and_max_players(env_id, size):
    cls = smuggle_envs.game_class(env_id)
    n = cls.min_players if size == "min" else cls.max_players
    game = smuggle_envs.make_game(env_id, num_players=n)
    rollout = "random" if size == "min" else "rule"
    specs = [
        f"ismcts:sims=4;rollout_depth=8;rollout={rollout}" + (";opponents=rule" if size == "max" else ""),
        f"pimc:worlds=1;sims=1;rollout_depth=6;rollout={rollout}",
    ]
    acted = []

    def check(state, player, action):
        assert action in state.legal_actions()
        acted.append(player)

    driver = play(game, _lineup(game, specs), seed=3, observers=[_StepCallback(check)], max_decisions=600)
    assert driver.done and (driver.terminated or driver.capped)
    assert 0 in acted and 1 in acted  # both search seats really decided


def test_same_seed_same_actions_and_other_seeds_differ():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)

    def actions(seed):
        seen = []
        agents = _lineup(game, ["ismcts:sims=6;rollout_depth=20", "pimc:worlds=1;sims=1;rollout_depth=10"])
        play(game, agents, seed=5, observers=[_Rec(seen)])
        return seen

    assert actions(0) == actions(0)
    # the agent's seed alone changes its choices: one position, several agent seeds
    state = game.new_initial_state(7)
    rng = random.Random(1)
    while len(state.legal_actions()) < 4:
        state.apply_action(rng.choice(state.legal_actions()))
    agent = ISMCTSAgent(game, sims=3)
    chosen = set()
    for seed in range(12):
        agent.reset(seed)
        chosen.add(decide(agent, state, state.current_player()))
    agent.reset(4)
    first = decide(agent, state, state.current_player())
    agent.reset(4)
    assert decide(agent, state, state.current_player()) == first
    assert len(chosen) > 1


class _Rec:
    def __init__(self, seen):
        self.seen = seen

    def on_start(self, state):
        pass

    def on_action(self, state, player, action):
        self.seen.append((player, action))

    def on_end(self, state, driver):
        pass


@pytest.mark.parametrize("env_id", ["smuggle_v0", "import_export_v0"])
def test_search_uses_only_its_seat_view_and_samples_its_own_information_set(env_id, monkeypatch):
    game = smuggle_envs.make_game(env_id, num_players=3)
    state_cls = type(game.new_initial_state(0))
    resampled = []
    original = State.resample

    def recording_resample(self, player, rng=None):
        resampled.append(player)
        return original(self, player, rng)

    monkeypatch.setattr(state_cls, "resample", recording_resample)
    touched = set()
    searchers = [
        _Watched(make_agent("ismcts:sims=4;rollout_depth=10", game, seed=1), touched),
        _Watched(make_agent("pimc:worlds=1;sims=1;rollout_depth=6;rollout=rule", game, seed=2), touched),
    ]
    agents = [*searchers, make_agent("random", game, seed=3)]
    seats_at_decision = []

    orig_act_in = [s.inner.act_in for s in searchers]
    for s, inner_act in zip(searchers, orig_act_in):

        def act_in(view, inner_act=inner_act):
            before = len(resampled)
            action = inner_act(view)
            seats_at_decision.append((view.player, resampled[before:]))
            return action

        s.inner.act_in = act_in
    play(game, agents, seed=11, max_decisions=150)
    assert touched and touched <= ALLOWED, touched - ALLOWED
    assert "sample_world" in touched
    assert seats_at_decision
    for seat, seats in seats_at_decision:
        assert set(seats) <= {seat}  # every world it sampled is from its own seat's information set
    assert resampled  # and it did sample


def test_spec_options_are_parsed_and_bad_ones_are_refused():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    assert AGENT_KINDS["ismcts"] == {"*": "agents.search:ISMCTSAgent"} and "*" in AGENT_KINDS["pimc"]
    agent = make_agent("ismcts:sims=50;c=1.2", game)
    assert isinstance(agent, ISMCTSAgent) and agent.sims == 50 and agent.c == 1.2
    assert agent.rollout == "random" and agent.mode == "win_loss"
    agent = make_agent("ismcts: sims=40 ; rollout=rule; rollout_depth=30; max_depth=5; mode=rank; seconds=0.5", game)
    assert (agent.sims, agent.rollout, agent.rollout_depth, agent.max_depth, agent.mode, agent.seconds) == (
        40,
        "rule",
        30,
        5,
        "rank",
        0.5,
    )
    default = make_agent("ismcts", game)
    assert default.sims == 200 and default.c == 0.7
    pimc = make_agent("pimc:worlds=7;sims=2", game)
    assert isinstance(pimc, PIMCAgent) and (pimc.worlds, pimc.sims) == (7, 2)
    for bad, words in [
        ("ismcts:simz=3", "unknown option 'simz'"),
        ("ismcts:sims=many", "bad value 'many' for sims"),
        ("ismcts:sims=0", "sims must be positive"),
        ("ismcts:c=-1", "c must be a non-negative"),
        ("ismcts:rollout=greedy", "bad value 'greedy' for rollout"),
        ("ismcts:mode=money", "bad value 'money' for mode"),
        ("ismcts:sims", "not key=value"),
        ("ismcts:sims=3;sims=4", "given twice"),
        ("pimc:c=1", "unknown option 'c'"),
    ]:
        with pytest.raises(ValueError, match=words) as info:
            make_agent(bad, game)
        assert "\n" not in str(info.value) and "valid options: " in str(info.value)
    with pytest.raises(TypeError, match="act_in"):
        agent.act(None, None)


def test_a_single_legal_action_is_returned_without_searching():
    class _View:
        player = 0
        game = None

        def legal_actions(self):
            return (7,)

        def sample_world(self, rng=None):
            raise AssertionError("no search for a forced move")

    assert ISMCTSAgent(sims=5, seed=0).act_in(_View()) == 7
    assert PIMCAgent(seed=0).act_in(_View()) == 7


def test_ismcts_beats_random_at_smuggle_four_players():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    games, wins = 16, 0.0
    for g in range(games):
        seat = g % 4
        agents = [make_agent("random", game, seed=i) for i in range(4)]
        agents[seat] = make_agent("ismcts:sims=20", game, seed=g)
        winners = play(game, agents, seed=1000 + g).winning_seats()
        if seat in winners:
            wins += 1 / len(winners)
    # chance is 1/4; measured 0.8 over these seeds
    assert wins / games >= 0.5, wins / games


def test_cli_match_with_a_search_bot(capsys):
    from training.cli import main

    assert main(["match", "--agents", "ismcts:sims=20,random,random,random", "--games", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "ismcts:sims=20" in out


def test_the_rule_opponent_model_moves_only_the_other_seats_in_the_tree(monkeypatch):
    """``opponents=rule``: the other seats' tree moves come from their rule bot, on their own
    observation of the sampled world; the searcher's own moves are still searched."""
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    state = game.new_initial_state(2)
    while state.current_player() != 0 or not 2 <= len(state.legal_actions()) <= 6:  # a tree deeper than the root
        state.apply_action(random.Random(len(state.history)).choice(state.legal_actions()))
    asked = []

    def counting_bot(self, g, seat):
        bot = make_agent("rule", g, seed=seat)
        inner = bot.act

        def act(observation, mask):
            asked.append(seat)
            return inner(observation, mask)

        bot.act = act
        return bot

    monkeypatch.setattr(ISMCTSAgent, "_rule_bot", counting_bot)
    for opponents in ("search", "rule"):
        asked.clear()
        agent = ISMCTSAgent(game, seed=0, sims=30, opponents=opponents, rollout_depth=30)
        assert agent.act_in(SeatView(state, 0)) in state.legal_actions()
        if opponents == "search":
            assert asked == []  # random playouts, UCB for everyone
        else:
            assert asked and 0 not in asked


def test_an_unknown_opponent_model_is_refused():
    with pytest.raises(ValueError, match="opponents must be one of search, rule"):
        ISMCTSAgent(sims=5, opponents="oracle")


def test_the_rule_prior_tries_the_rule_bots_move_first_and_widens_slowly(monkeypatch):
    """``prior=rule``: a declaration of hundreds of actions gets a few candidates, the rule bot's
    first, instead of one simulation each for the first ``sims`` random ones."""
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    state = game.new_initial_state(2)
    rng = random.Random(0)
    while len(state.legal_actions()) < 50:
        state.apply_action(rng.choice(state.legal_actions()))
    me = state.current_player()
    suggested = int(make_agent("rule", game, seed=0).act(state.observation(me), state.legal_action_mask()))
    roots = []
    original = ISMCTSAgent._iterate

    def keep_root(self, view, root):
        roots.append(root)
        return original(self, view, root)

    monkeypatch.setattr(ISMCTSAgent, "_iterate", keep_root)
    ISMCTSAgent(game, seed=0, sims=40, prior="rule", rollout_depth=5).act_in(SeatView(state, me))
    children = roots[0].children
    assert next(iter(children)) == suggested  # the first child tried
    assert 2 <= len(children) <= 1 + 6  # 1 + isqrt(39 passes)
    ISMCTSAgent(game, seed=0, sims=40, rollout_depth=5).act_in(SeatView(state, me))
    assert len(roots[-1].children) == 40  # plain SO-ISMCTS: one new action per simulation


def test_the_rule_prior_keeps_the_rule_move_unless_another_is_clearly_better():
    from agents.search import _Node

    def node(visits, total):
        n = _Node()
        n.visits, n.total = visits, total
        return n

    root = _Node()
    root.children = {7: node(20, -10.0), 3: node(20, -4.0), 5: node(1, 1.0)}  # 7 is the rule bot's
    # 3's mean is 0.3 better: 0.95 standard errors at 20 visits each; 5 was tried once
    assert ISMCTSAgent(sims=5, prior="rule", margin=2.0)._keep_or_improve(root) == 7
    assert ISMCTSAgent(sims=5, prior="rule", margin=0.5)._keep_or_improve(root) == 3
    with pytest.raises(ValueError, match="margin must be a non-negative number"):
        ISMCTSAgent(sims=5, margin=-1)


def test_an_opponent_models_node_can_be_the_searchers_own_decision_in_another_world(monkeypatch):
    """Who acts after the same actions can depend on hidden cards (Import / Export's powers): a
    child made by the opponent model's move in one world, never visited, is then one of the
    searcher's own choices in another world, and UCB1 must not divide by its zero visits."""

    class World:
        game = SimpleNamespace(playout_depth=None)

        def __init__(self, other_acts_second):
            self.other_acts_second, self.history = other_acts_second, []

        def is_terminal(self):
            return len(self.history) >= 3

        def current_player(self):
            return 1 if len(self.history) == 1 and self.other_acts_second else 0

        def legal_actions(self):
            return (0, 1)

        def apply_action(self, action):
            self.history.append(action)

        def observation(self, player):
            return np.zeros(1, np.float32)

        def legal_action_mask(self):
            return np.ones(2, np.int8)

        def returns(self, mode):
            return [1.0 if self.history[-1] == 1 else -1.0, 0.0]

    class View:
        player, game = 0, None
        worlds = 0

        def legal_actions(self):
            return (0, 1)

        def sample_world(self, rng=None):
            View.worlds += 1
            return World(other_acts_second=rng.random() < 0.5)

    class FirstAction:
        def act(self, observation, mask):
            return 0

    monkeypatch.setattr(ISMCTSAgent, "_rule_bot", lambda self, game, seat: FirstAction())
    assert ISMCTSAgent(sims=40, seed=0, opponents="rule").act_in(View()) in (0, 1)
    assert View.worlds == 40


def _visits_of_a_game(game, spec, seed, decisions=20):
    """``last_visits`` (and the iterations) after each of the first ``decisions`` decisions of a
    game played by one ``spec`` agent in every seat."""
    agent = make_agent(spec, game, seed=seed)
    state = game.new_initial_state(seed)
    seen = []
    while not state.is_terminal() and len(seen) < decisions:
        player = state.current_player()
        action = decide(agent, state, player)
        seen.append((agent.last_visits.copy(), agent.iterations, state.legal_action_mask().copy(), action))
        state.apply_action(action)
    return seen


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_the_root_visits_of_every_decision_are_the_searchs_policy_over_legal_actions(env_id):
    """``ISMCTSAgent.last_visits`` (expert iteration's target): the root's visits of every action,
    summing to the simulations (1 on a forced move), zero where illegal, and a function of the seed."""
    game = smuggle_envs.make_game(env_id)
    specs = ["ismcts:sims=12"] + (["ismcts:sims=12;prior=rule"] if env_id == "smuggle_v0" else [])
    for spec in specs:
        seen = _visits_of_a_game(game, spec, seed=3)
        assert seen
        for visits, iterations, mask, action in seen:
            assert visits.shape == (game.num_actions,) and visits.dtype == np.int64
            assert visits.sum() == (iterations or 1) and (iterations == 12 or mask.sum() == 1)
            assert not visits[mask == 0].any() and visits[action] > 0
        again = _visits_of_a_game(game, spec, seed=3)
        assert all(np.array_equal(a[0], b[0]) for a, b in zip(seen, again))
