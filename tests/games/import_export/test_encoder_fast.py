"""The fast encoder (harbor and pile caches) against the encoder it replaced, byte for byte."""

import random

import pytest

from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export.vocab import GREY

from ._reference_encoder import ReferenceEncoder

ALL_MODULES = ("jutaku", "kickstarter", "captain")


@pytest.mark.parametrize(
    "n, modules",
    [(2, ()), (3, ()), (4, ()), (5, ()), (6, ()), (2, ALL_MODULES), (4, ALL_MODULES), (6, ALL_MODULES)],
)
def test_fast_encoder_is_byte_identical_to_the_reference(n, modules, same_observations):
    game = ImportExportGame(num_players=n, modules=modules)
    assert same_observations(game, ReferenceEncoder(game), range(2)) > 1000


def test_a_full_cache_is_emptied_and_the_observations_stay_the_same(same_observations):
    game = ImportExportGame(num_players=3)
    game.encoder.cache_size = 2
    assert same_observations(game, ReferenceEncoder(game), range(1)) > 500
    assert len(game.encoder._harbors) <= 2 and len(game.encoder._seats) <= 2


def _mid_game(n=4, decisions=80):
    game = ImportExportGame(num_players=n)
    state = game.new_initial_state(7)
    rng = random.Random(7)
    for _ in range(decisions):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _harbor_ship(st):
    return next(s for s in range(2 * st.n) if not st.at_sea[s])


def _swap_a_good(st):
    """Same length, other content: a good of seat 1 replaced by a card of another type."""
    if not st.goods[1]:
        st.goods[1].append(st.deck.pop())
    old = st.goods[1][0]
    st.goods[1][0] = next(c for c in st.deck if st.game.ctype[c] != st.game.ctype[old])


def _recolour(st):
    st.colour[0] = next(c for c in range(GREY) if c != st.colour[0])


def _replace_a_discard(st):
    """Same length, other content: the top of the discard pile replaced."""
    if not st.discard:
        st.discard.append(st.deck.pop())
    st.discard[-1] = st.deck.pop()


# In-place changes to every list the caches are keyed on (the powers change them in place).
CHANGES = {
    "imports": lambda st: st.imports[1].append(st.deck.pop()),
    "goods": lambda st: st.goods[2].append(st.deck.pop()),
    "goods, same length": _swap_a_good,
    "shipments": lambda st: st.shipments[3].append(st.deck.pop()),
    "cargo": lambda st: st.cargo[_harbor_ship(st)].append(st.deck.pop()),
    "contracts": lambda st: st.contracts[_harbor_ship(st)].append(st.deck.pop()),
    "at_sea": lambda st: st.at_sea.__setitem__(0, not st.at_sea[0]),
    "colour": _recolour,
    "island": lambda st: st.island.append(st.deck.pop()),
    "discard": lambda st: st.discard.append(st.deck.pop()),
    "discard, same length": _replace_a_discard,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_an_in_place_change_reaches_every_observation(change):
    state = _mid_game()
    reference = ReferenceEncoder(state.game)
    before = [state.observation(p) for p in range(state.n)]  # fills the caches
    changed = state.clone()
    CHANGES[change](changed)
    after = [changed.observation(p) for p in range(state.n)]
    for p in range(state.n):
        assert after[p].tobytes() == reference.encode(changed, p).tobytes(), f"seat {p}"
        assert before[p].tobytes() == state.observation(p).tobytes(), "the original is untouched"
    assert any(a.tobytes() != b.tobytes() for a, b in zip(after, before)), "the change is visible"
