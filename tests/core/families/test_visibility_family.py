"""What each seat is told of another seat's action, for every registered game
(``State.action_to_string(action, viewer)``; the check is in ``_visibility.py``).

Random games at the fewest and the most players (and the variants that add decisions), sampling
every few decisions and always at the game's rarer decision types (a sealed bid, a face-down
selection, a card passed face down...). Each game's own ``tests/games/<game>/test_visibility.py``
holds the scripted cases: which actions are secret and what the others read instead.
"""

import pytest

import smuggle_envs

from ._games import facts
from ._visibility import check_action_strings, positions

SWEEPS = {
    # env id: (player count, config, games, every)
    "smuggle_v0": [(3, {}, 4, 7), (6, {}, 3, 11)],
    "ciq_v0": [(2, {}, 12, 2), (6, {}, 4, 2)],
    "illegal_v0": [(2, {}, 6, 2), (6, {}, 2, 2), (3, {"trading": True, "trade_max": 2, "trade_unequal": True}, 4, 2)],
    "humble_smuggle_v0": [(2, {}, 4, 3), (5, {}, 3, 3)],
    "import_export_v0": [(2, {}, 2, 5), (6, {}, 2, 5), (2, {"modules": ("jutaku", "kickstarter", "captain")}, 2, 5)],
}
CASES = [(env_id, *sweep) for env_id in smuggle_envs.ENV_IDS for sweep in SWEEPS[env_id]]


def test_every_registered_game_has_a_sweep():
    assert set(SWEEPS) == set(smuggle_envs.ENV_IDS)


@pytest.mark.parametrize(
    "env_id, n, config, games, every", CASES, ids=[f"{c[0]}-{c[1]}p-{i}" for i, c in enumerate(CASES)]
)
def test_a_seat_reads_another_seats_action_only_as_far_as_it_saw_it(env_id, n, config, games, every):
    f = facts(env_id)
    game = smuggle_envs.make_game(env_id, num_players=n, **config)
    checked = sum(
        check_action_strings(state, rng)
        for state, rng in positions(game, range(games), every, f.policy, f.always_sample)
    )
    assert checked > 50
