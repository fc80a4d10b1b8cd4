"""``run_bench``: the scorecard of an agent (a spec or an agent object) on protocol v1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from smuggle_envs import GameSpec, __version__

from . import score
from .play import Item, run_items
from .protocol import BOOTSTRAP, EXPLOIT_GAMES, FIELDS, PROTOCOL, Field, budget_deals, make_field
from .schema import KIND, SCHEMA_VERSION, clean, validate


def _subject(agent: Any, game: Any) -> tuple[str | None, str, Any]:
    """``(spec or None, name, object or None)``; a spec is built once here to check it (a
    one-line ValueError for one that cannot be seated)."""
    if isinstance(agent, str):
        from training.errors import UsageError
        from training.match import build_agent

        try:
            _, label = build_agent(agent, game, seed=0)
        except UsageError as exc:
            raise ValueError(str(exc)) from None
        if label != agent:
            raise ValueError(f"agent {agent!r} has no implementation for {game.env_id}")
        return agent, agent, None
    from agents.pyspec import check_agent

    check_agent(type(agent).__name__, agent)
    return None, f"object:{type(agent).__module__}.{type(agent).__qualname__}", agent


def _fields(game: Any, players: int, deals: int) -> tuple[list[Field], dict[str, str]]:
    """The protocol's fields at this count, and the ones left out with the reason."""
    from agents import make_agent

    fields, skipped = [], {}
    for name in FIELDS:
        if name == "zoo":
            try:
                make_agent("zoo", game, seed=0)
            except (OSError, ValueError, LookupError) as exc:
                skipped[name] = " ".join(str(exc).split())
                continue
        fields.append(make_field(name, players, deals))
    return fields, skipped


def run_bench(
    agent: Any,
    env_id: str,
    players: int | None = None,
    budget: str | int = "quick",
    workers: int = 1,
    backend: str = "local",
    exploit_steps: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The scorecard (a dict of the documented schema, checked) of ``agent`` in ``env_id`` at
    ``players`` seats (default: the game's default) on protocol v1.

    ``agent``: a spec (``"rule"``, ``"py:pkg.mod:Name"``, ...) or an agent object (played in
    this process; ``workers`` and ``backend`` then do not apply). ``budget``: ``"quick"``,
    ``"full"`` or a number of deals per field. ``exploit_steps``: also train a best response for
    that many steps (``smuggle exploit``; a spec only). ``progress(done, total)`` after each game."""
    spec = GameSpec(env_id, {} if players is None else {"num_players": players})
    game = spec.make_game()
    n = game.num_players
    name, deals = budget_deals(budget)
    subject_spec, label, subject = _subject(agent, game)
    if exploit_steps and subject_spec is None:  # before any game is played
        raise ValueError("--exploit needs an agent spec (a best response trains against copies of it), not an object")
    fields, skipped = _fields(game, n, deals)
    specs = {f.name: f.specs if subject is not None else (subject_spec, *f.specs[1:]) for f in fields}
    items: list[Item] = [(f.name, s.deal, s.rotation, s.seed, tuple(s.seating)) for f in fields for s in f.schedule]
    total = len(items)
    results = run_items(
        spec, specs, items, workers, backend, subject, None if progress is None else lambda d: progress(d, total)
    )
    by_field = {f.name: [r for r in results if r["field"] == f.name] for f in fields}
    card: dict[str, Any] = {
        "kind": KIND,
        "schema_version": SCHEMA_VERSION,
        "protocol": PROTOCOL,
        "budget": name,
        "deals": deals,
        "agent": label,
        "env_id": env_id,
        "num_players": n,
        "fields": {f.name: score.field_scores(f, by_field[f.name], n) for f in fields},
        "skipped": skipped,
        "mixed": next((score.mixed_rating(f, by_field[f.name]) for f in fields if f.name == "mixed"), None),
        "decisions": score.decision_stats(results),
        "deception": score.deception(results),
        "exploit": None if not exploit_steps else exploit_bound(subject_spec, spec, exploit_steps),
        "level": score.LEVEL,
        "bootstrap": BOOTSTRAP,
        "versions": {"smuggle_envs": __version__},
    }
    return validate(clean(card))


def exploit_bound(target: str | None, spec: GameSpec, steps: int) -> dict[str, Any]:
    """A best-response lower bound on what can be won against ``target``: ``smuggle exploit``'s
    best response trained for ``steps`` and evaluated (its win rate and interval, and chance)."""
    import tempfile
    from pathlib import Path

    from training.exploit import run_exploit
    from training.selfplay.config import TrainConfig

    assert target is not None  # run_bench refuses an object with exploit_steps
    game = spec.make_game()
    n_steps = max(8, min(256, steps))
    config = TrainConfig(
        env_id=spec.env_id, num_players=game.num_players, steps=steps, n_envs=1, n_steps=n_steps,
        batch_size=n_steps, progress=False, tensorboard=False,
    )  # fmt: skip
    config.validate()
    with tempfile.TemporaryDirectory() as out:
        got = run_exploit(game, target, config, Path(out), EXPLOIT_GAMES, steps, 0, "random", log=lambda *a: None)
    best = got["best_response"]
    return {
        "steps": int(got["steps"]),
        "games": int(best["games"]),
        "win_rate": {"value": best["win_rate"], "low": best["ci_low"], "high": best["ci_high"], "count": best["games"]},
        "chance": got["chance"],
        "margin_over_chance": got["margin_over_chance"],
    }
