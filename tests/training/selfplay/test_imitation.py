"""The behaviour-cloning warm start: demonstrations carry the learner's own returns, and cloning
makes the policy play like the teacher."""

from __future__ import annotations

import numpy as np
import pytest

from smuggle_envs import make_game
from training.selfplay.imitation import clone, collect
from training.selfplay.single_agent import SelfPlayEnv


def test_returns_are_the_learners_reward_summed():
    game = make_game("smuggle_v0", num_players=3)
    # gamma = 1, no shaping: every decision of a seat carries that seat's final reward.
    data = collect(game, "rule", samples=300, seed=0, reward_mode="win_loss", gamma=1.0)
    assert len(data) >= 300 and set(np.unique(data.returns)) <= {-1.0, 1.0}
    assert data.observations.dtype == np.float32 and data.masks.dtype == bool
    assert all(data.masks[i, a] for i, a in enumerate(data.actions))  # legal
    # With shaping, a seat's first decision carries dense * (final - initial normalised score)
    # + its final reward: the same total SelfPlayEnv pays over a game.
    dense = 2.0
    first = collect(game, "rule", samples=1, seed=3, reward_mode="rank", dense_score=dense, gamma=1.0)
    state = game.new_initial_state(int(np.random.default_rng(3).integers(2**63)))
    seat = state.current_player()  # the first row is this seat's first decision
    rng = np.random.default_rng(3)
    rng.integers(2**63)
    from agents import make_agent

    teachers = [make_agent("rule", game) for _ in range(3)]
    for t in teachers:
        t.reset(int(rng.integers(2**63)))
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(teachers[p].act(state.observation(p), state.legal_action_mask()))
    expected = dense * state.returns("score")[seat] + state.returns("rank")[seat]
    assert first.returns[0] == pytest.approx(expected, rel=1e-5)


def test_cloning_makes_the_policy_play_like_the_teacher():
    import torch
    from sb3_contrib import MaskablePPO

    game = make_game("smuggle_v0", num_players=3)
    data = collect(game, "rule", samples=3000, seed=1)
    model = MaskablePPO("MlpPolicy", SelfPlayEnv(game), seed=0, device="cpu", policy_kwargs={"net_arch": [64, 64]})

    def nll():
        with torch.no_grad():
            _, logp, _ = model.policy.evaluate_actions(
                torch.as_tensor(data.observations),
                torch.as_tensor(data.actions),
                action_masks=torch.as_tensor(data.masks),
            )
        return float(-logp.mean())

    before = nll()
    stats = clone(model, data, epochs=3, batch_size=256, seed=0)
    assert nll() < 0.75 * before
    assert stats["teacher_over_half"] > 0.5 and stats["value_mse"] >= 0


def test_random_seats_in_the_warm_start_play_but_are_not_recorded(monkeypatch):
    import agents.base
    from agents.base import RandomAgent

    calls: list[tuple[bool, bytes, int]] = []
    real = agents.base.decide

    def spy(agent, state, seat):
        action = real(agent, state, seat)
        calls.append((isinstance(agent, RandomAgent), state.observation(seat).tobytes(), action))
        return action

    monkeypatch.setattr(agents.base, "decide", spy)
    game = make_game("smuggle_v0", num_players=4)
    data = collect(game, "rule", samples=400, seed=5, random_share=0.5)
    taught = [(o, a) for weak, o, a in calls if not weak]
    assert [(o.tobytes(), int(a)) for o, a in zip(data.observations, data.actions)] == taught
    weak_share = sum(weak for weak, _, _ in calls) / len(calls)
    assert 0.15 < weak_share < 0.6  # random agents really sat at the tables
    calls.clear()
    plain = collect(game, "rule", samples=400, seed=5)
    assert not any(weak for weak, _, _ in calls) and len(plain) == len(calls)
    again = collect(game, "rule", samples=400, seed=5, random_share=0.5)
    assert np.array_equal(again.actions, data.actions)  # seeded


def test_dagger_records_the_teachers_labels_in_the_positions_the_student_reaches(monkeypatch):
    import agents.base
    from agents.base import RandomAgent

    class First(RandomAgent):
        """A student that always plays its first legal action."""

        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

    labels: list[tuple[bytes, int]] = []
    real = agents.base.decide

    def spy(agent, state, seat):
        action = real(agent, state, seat)
        if not isinstance(agent, RandomAgent):  # the teacher's decisions
            labels.append((state.observation(seat).tobytes(), action))
        return action

    monkeypatch.setattr(agents.base, "decide", spy)
    game = make_game("smuggle_v0", num_players=3)
    data = collect(game, "rule", samples=300, seed=2, student=First())
    assert [(o.tobytes(), int(a)) for o, a in zip(data.observations, data.actions)] == labels
    # The student's moves were played: its first-legal-action choices differ from the labels.
    firsts = np.array([int(np.flatnonzero(m)[0]) for m in data.masks])
    assert (firsts != data.actions).any()
    plain = collect(game, "rule", samples=300, seed=2)
    assert not np.array_equal(plain.observations[: len(data)], data.observations[: len(plain)])


def test_join_keeps_the_newest_rows():
    from training.selfplay.imitation import Demonstrations, join

    def demos(start, n):
        return Demonstrations(
            np.full((n, 2), start, np.float32),
            np.ones((n, 3), bool),
            np.arange(start, start + n),
            np.zeros(n, np.float32),
        )

    both = join(demos(0, 4), demos(10, 3), limit=5)
    assert both.actions.tolist() == [2, 3, 10, 11, 12] and both.observations.shape == (5, 2)


def test_a_warm_start_with_dagger_rounds_fits_more_data(tmp_path):
    from training.selfplay.trainer import Trainer

    from .test_pipeline import tiny

    logs: list[str] = []
    Trainer(tiny("smuggle_v0", steps=256, imitation_dagger=1, tensorboard=False), tmp_path, log=logs.append).run()
    import re

    line = next(line for line in logs if line.startswith("warm start: cloned"))
    decisions = int(re.search(r"from (\d+) decisions", line).group(1))
    assert decisions >= 500 + 250  # the first 500 and the DAgger round's 250 (whole games: at least)
