"""The sixth game's texts for people and language models (``tests/fixtures/liars_deal/text.py``):
the glossary, the seat's hand, and the notes on a call, checked in this process without
registering the game (as ``test_sixth_game.py`` checks its rules)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the fixture is imported as tests.fixtures.liars_deal, as the plugin is
    sys.path.insert(0, str(ROOT))

from tests.fixtures.liars_deal import actions as A  # noqa: E402
from tests.fixtures.liars_deal.rules import LiarsDealGame, LiarsDealState  # noqa: E402


def _state(n: int = 3, **config) -> LiarsDealState:
    return LiarsDealGame(num_players=n, **config).new_initial_state(5)


def _deal(state: LiarsDealState, hands: list[list[int]]) -> None:
    """Lay ``hands`` out by hand, the rest of the cards in the deck (every card still once)."""
    pool = Counter(state.deck) + Counter(card for hand in state.hands for card in hand)
    pool.subtract(card for hand in hands for card in hand)
    state.hands, state.deck = [sorted(hand) for hand in hands], sorted(pool.elements())


def _step(state: LiarsDealState, action: int, viewer: int = 0) -> list[str]:
    before = state.clone()
    state.apply_action(action)
    return state.step_notes(before, action, viewer)


def test_the_glossary_has_every_rank_and_the_private_cards_are_the_hand():
    state = _state()
    glossary = dict(state.game.card_glossary())
    assert list(glossary) == [str(rank) for rank in range(1, A.RANKS + 1)]
    for seat in range(3):
        cards = state.private_cards(seat)
        assert cards == [str(rank) for rank in state.hands[seat]] and all(c in glossary for c in cards)
        assert f"P{seat}: 0 points; hand {' '.join(cards)}" in state.render(seat)


def test_a_call_lays_the_hands_open_and_names_the_verdict_the_point_and_the_next_round():
    state = _state()
    _deal(state, [[4, 6], [4, 1], [2, 3]])
    assert _step(state, A.claim(2, 4)) == []
    assert _step(state, A.CALL, viewer=2) == [
        "The hands are laid open: 1 x 1, 1 x 2, 1 x 3, 2 x 4, 1 x 6 among them.",
        "2 x 4 shown: P0's claim of at least 2 x 4 holds; P0 scores a point.",
        "Round 2: new hands are dealt; P1 starts.",
    ]


def test_the_last_call_ends_the_game_with_the_points():
    state = _state(2, rounds=1)
    _deal(state, [[5, 5], [1, 2]])
    state.apply_action(A.claim(3, 5))
    notes = _step(state, A.CALL)
    assert notes[1] == "2 x 5 shown: P0's claim of at least 3 x 5 fails; P1 scores a point."
    assert notes[2] == "Game over after 1 round. Points: P0 0, P1 1. P1 wins."


def test_notes_are_the_same_in_a_world_resampled_for_the_viewer():
    """Where a world drawn from the viewer's information leaves it seeing the same table after
    the action (a call shows the hands, which differ between worlds), the notes are the same."""
    game = LiarsDealGame(num_players=3, rounds=6)
    rng = random.Random(0)
    compared = told = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            action = A.CALL if A.CALL in legal and rng.random() < 0.3 else rng.choice(legal[:6])
            actor, before = state.current_player(), state.clone()
            state.apply_action(action)
            for viewer in (v for v in range(3) if v != actor):
                truth = state.step_notes(before, action, viewer)
                for _ in range(20):  # a call's counts shown are matched by chance: try a few worlds
                    world = before.resample(viewer, rng.getrandbits(32))
                    start = world.clone()
                    world.apply_action(action)
                    if world.render(viewer) == state.render(viewer):
                        assert world.step_notes(start, action, viewer) == truth
                        compared += 1
                        told += bool(truth)
                        break
    assert compared > 40 and told > 0


def test_its_brief_is_the_rulebook_column_of_its_rules_page_and_the_text_layer_finds_it(monkeypatch):
    """``brief.md`` beside the game's ``rules.py`` is where a game outside the package ships its
    brief (``smuggle_envs.text.brief``), made as ``scripts/make_briefs.py`` makes a packaged one."""
    import importlib.util

    from smuggle_envs.text.brief import brief_text

    spec = importlib.util.spec_from_file_location("_make_briefs", ROOT / "scripts" / "make_briefs.py")
    assert spec is not None and spec.loader is not None
    make_briefs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_briefs)
    folder = ROOT / "tests" / "fixtures" / "liars_deal"
    rules = make_briefs.rules((folder / "rules.md").read_text(encoding="utf-8"))
    brief = (folder / "brief.md").read_text(encoding="utf-8")
    assert [line for line in brief.splitlines() if line[:1].isdigit()] == [f"{i}. {r}" for i, r in enumerate(rules, 1)]
    from smuggle_envs.text import brief as text_brief

    # the game's class as the registry would give it, without registering the game in this process
    monkeypatch.setattr(text_brief, "game_class", lambda env_id: LiarsDealGame)
    assert brief_text("liars_deal_v0") == brief.split("\n", 2)[2].strip("\n")
