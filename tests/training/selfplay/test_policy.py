"""The cheaper masked distributions (``training.selfplay.policy``): ``"sb3"`` gives sb3-contrib's
numbers to the last bit (log-probabilities, entropies, probabilities, samples, gradients, and a
seeded training run's weights); ``"fused"`` gives them up to float rounding, with gradients
checked against finite differences in float64; a model saved with either is the same ``ppo:``
zip."""

from __future__ import annotations

import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.distributions import MaskableCategorical, MaskableCategoricalDistribution

from agents.ppo import NumpyPolicy, PPOAgent
from smuggle_envs import make_game
from training.selfplay.config import UPDATE_OPS, TrainConfig
from training.selfplay.policy import (
    KINDS,
    FastMaskableCategorical,
    FastMaskableCategoricalDistribution,
    FusedMaskableCategorical,
    FusedMaskableCategoricalDistribution,
    install,
)
from training.selfplay.single_agent import SelfPlayEnv


def _case(seed: int, batch: int, actions: int = 510) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    logits = 3 * torch.randn(batch, actions, generator=g)
    mask = torch.rand(batch, actions, generator=g) < 0.1
    mask[:, seed % actions] = True  # at least one legal action per row
    chosen = torch.multinomial(mask.float(), 1, generator=g).squeeze(-1).float()
    return logits, mask, chosen


def _evaluate(cls: type, logits: torch.Tensor, mask: torch.Tensor, chosen: torch.Tensor):
    """What ``evaluate_actions`` asks of a distribution, in its order: log_prob, then entropy."""
    x = logits.clone().requires_grad_(True)
    dist = cls(logits=x)
    dist.apply_masking(mask)
    log_prob, entropy = dist.log_prob(chosen), dist.entropy()
    weights = torch.linspace(-1, 1, len(chosen))
    (grad,) = torch.autograd.grad((log_prob * weights).sum() + 0.01 * entropy.mean(), x)
    return log_prob, entropy, dist.probs, grad


def _against_sb3_contrib(cls: type, logits: torch.Tensor, mask: torch.Tensor, chosen: torch.Tensor):
    """``_evaluate`` of ``cls`` and of sb3-contrib's distribution, argument checks off (as the
    trainer runs them)."""
    torch.distributions.Distribution.set_default_validate_args(False)
    try:
        return _evaluate(cls, logits, mask, chosen), _evaluate(MaskableCategorical, logits, mask, chosen)
    finally:
        torch.distributions.Distribution.set_default_validate_args(True)


@pytest.mark.parametrize(("seed", "batch"), [(0, 1), (1, 8), (2, 512), (3, 64)])
def test_same_numbers_and_gradients_as_sb3_contrib(seed: int, batch: int) -> None:
    ours, theirs = _against_sb3_contrib(FastMaskableCategorical, *_case(seed, batch))
    for a, b in zip(ours, theirs):
        assert torch.allclose(a, b, atol=1e-6, rtol=0)
        assert torch.equal(a, b)  # and bit for bit: a seeded run is unchanged


@pytest.mark.parametrize(("seed", "batch", "legal"), [(0, 1, 0.1), (1, 8, 0.5), (2, 512, 0.9), (3, 64, 0.01)])
def test_the_fused_kind_gives_the_same_numbers_up_to_rounding(seed: int, batch: int, legal: float) -> None:
    logits, mask, chosen = _case(seed, batch)
    mask |= torch.rand(mask.shape, generator=torch.Generator().manual_seed(seed)) < legal
    ours, theirs = _against_sb3_contrib(FusedMaskableCategorical, logits, mask, chosen)
    for a, b in zip(ours, theirs):
        assert torch.allclose(a, b, atol=2e-6, rtol=1e-6)


def test_the_fused_gradient_is_the_derivative() -> None:
    logits, mask, chosen = _case(5, 16, actions=40)
    mask[:, :3] = True
    weights = torch.linspace(-1, 1, 16, dtype=torch.float64)

    def loss(x: torch.Tensor) -> torch.Tensor:
        dist = FusedMaskableCategorical(x)
        dist.apply_masking(mask)
        return (dist.log_prob(chosen) * weights).sum() + 0.3 * dist.entropy().sum()

    x = logits.double().requires_grad_(True)
    assert torch.autograd.gradcheck(loss, (x,))
    (grad,) = torch.autograd.grad(loss(x), x)
    assert torch.equal(grad[~mask], torch.zeros_like(grad[~mask]))  # masked-out logits get none


def test_the_config_s_choices_are_the_kinds() -> None:
    assert set(UPDATE_OPS) == set(KINDS)
    assert TrainConfig().update_ops == "fused"
    with pytest.raises(ValueError, match="update_ops must be one of"):
        install(object(), "exact")


def test_unmasked_and_odd_shapes_fall_back_to_torch() -> None:
    logits, _, chosen = _case(4, 6, actions=7)
    ours, theirs = FastMaskableCategorical(logits), MaskableCategorical(logits=logits)
    assert torch.equal(ours.entropy(), theirs.entropy())
    assert torch.equal(ours.log_prob(chosen), theirs.log_prob(chosen))
    every = torch.arange(7.0).unsqueeze(-1)  # one action for every row, as enumerate_support gives
    assert torch.equal(ours.log_prob(every), theirs.log_prob(every))
    torch.manual_seed(5)
    a = ours.sample((3,))
    torch.manual_seed(5)
    assert torch.equal(a, theirs.sample((3,)))


def _model(fast: bool) -> MaskablePPO:
    env = SelfPlayEnv("smuggle_v0", {"num_players": 3})
    model = MaskablePPO(
        "MlpPolicy", env, seed=7, device="cpu", n_steps=128, batch_size=64, n_epochs=2, policy_kwargs={"net_arch": [32]}
    )
    if fast:  # else the reference: sb3-contrib's own distribution
        assert install(model.policy, "sb3")
    return model


def test_a_seeded_run_gives_the_same_weights_and_a_loadable_zip(tmp_path) -> None:
    torch.set_num_threads(1)
    runs = {}
    for fast in (True, False):
        model = _model(fast)
        assert isinstance(model.policy.action_dist, FastMaskableCategoricalDistribution) is fast
        model.learn(256)
        runs[fast] = model
    for (name, a), b in zip(runs[True].policy.state_dict().items(), runs[False].policy.state_dict().values()):
        assert torch.equal(a, b), name
    path = tmp_path / "fast.zip"
    runs[True].save(path)
    loaded = MaskablePPO.load(path, device="cpu")
    assert type(loaded.policy.action_dist) is MaskableCategoricalDistribution  # nothing of ours saved
    NumpyPolicy.from_sb3(loaded.policy)
    game = make_game("smuggle_v0", num_players=3)
    state = game.new_initial_state(0)
    player = state.current_player()
    assert PPOAgent(game, str(path)).act(state.observation(player), state.legal_action_mask()) >= 0


def test_install_leaves_other_distributions_alone() -> None:
    class Other:
        action_dist = object()

    assert install(Other()) is False
    assert install(object()) is False


def test_the_trainer_learns_with_it_and_resumes_with_it(tmp_path) -> None:
    from training.selfplay.trainer import TrainConfig, Trainer

    config = TrainConfig(
        env_id="smuggle_v0",
        num_players=3,
        steps=256,
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        net_arch=(16,),
        imitate=None,
        eval_every=10**9,
        snapshot_every=10**9,
        checkpoint_every=10**9,
        eval_games=0,
        final_eval_games=0,
        progress=False,
        tensorboard=False,
    )
    trainer = Trainer(config, tmp_path, log=lambda _: None)
    trainer.run()
    assert isinstance(trainer.model.policy.action_dist, FusedMaskableCategoricalDistribution)  # the default
    config.steps = 384
    resumed = Trainer(config, tmp_path, log=lambda _: None)
    resumed.run(resume=True)
    assert isinstance(resumed.model.policy.action_dist, FusedMaskableCategoricalDistribution)
    config.update_ops = "sb3"
    exact = Trainer(config, tmp_path / "sb3", log=lambda _: None)
    exact.run()
    assert isinstance(exact.model.policy.action_dist, FastMaskableCategoricalDistribution)


def test_a_row_without_a_legal_action_gives_what_sb3_contrib_gives() -> None:
    logits, mask, chosen = _case(6, 4, actions=9)
    mask[2] = False
    torch.distributions.Distribution.set_default_validate_args(False)
    try:
        theirs = _evaluate(MaskableCategorical, logits, mask, chosen)
        for kind in (FastMaskableCategorical, FusedMaskableCategorical):
            ours = _evaluate(kind, logits, mask, chosen)
            for a, b in zip(ours, theirs):
                assert torch.equal(a, b), kind
    finally:
        torch.distributions.Distribution.set_default_validate_args(True)
