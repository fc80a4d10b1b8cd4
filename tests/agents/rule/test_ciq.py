"""The rule-based CIQ bot (agents/rule/ciq.py): legal, deterministic, reads only its observation,
plays the way its docstring says (ships long, sabotages when it pays, fires when it should, hires
to protect itself), and beats the random agent."""

import random

import pytest

import smuggle_envs
from agents.arena import play_game
from agents.rule.ciq import CIQRuleAgent
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.vocab import FIRE_DECISION, MAIN

from . import _family as family


def position(num_players=2, turn=None, **layout):
    """A laid-out CIQ table (6 decks, so any named card has copies to spare)."""
    game = smuggle_envs.make_game("ciq_v0", num_players=num_players, decks=6)
    state = game.new_initial_state(0)
    state.arrange(turn=turn, **layout)
    return game, state


def bot_move(game, state, seed=0):
    """Let the bot play until the seat to move changes or its turn ends; the actions taken."""
    bot = CIQRuleAgent(game, seed=seed)
    seat, turns, actions = state.current_player(), state.turns, []
    while not state.is_terminal() and state.current_player() == seat and state.turns == turns:
        action = bot.act(state.observation(seat), state.legal_action_mask())
        actions.append(action)
        state.apply_action(action)
    return actions


def test_make_agent_builds_the_rule_bot_and_it_refuses_other_games():
    family.check_built_by_make_agent(smuggle_envs.make_game("ciq_v0", num_players=3), CIQRuleAgent)
    family.check_refuses_another_game(CIQRuleAgent, smuggle_envs.make_game("smuggle_v0"), match="ciq_v0")


@pytest.mark.parametrize("n", [2, 3, 5])
def test_bot_plays_only_legal_actions_and_is_deterministic(n):
    game = smuggle_envs.make_game("ciq_v0", num_players=n)
    for seed in range(4):
        runs = []
        for _ in range(2):
            agents = [CIQRuleAgent(game, seed=7) for _ in range(n)]
            state = play_game(game, agents, seed=seed)  # apply_action refuses illegal actions
            assert state.is_terminal()
            runs.append(list(state.history))
        assert runs[0] == runs[1]


def test_bot_reads_nothing_but_the_observation():
    # Two worlds a seat cannot tell apart (hidden cards redrawn) get the same action.
    game = smuggle_envs.make_game("ciq_v0", num_players=4)
    rng = random.Random(0)
    state = game.new_initial_state(5)
    checked = 0
    while not state.is_terminal() and checked < 150:
        p = state.current_player()
        other = state.resample(p, rng)
        a = CIQRuleAgent(game, seed=1).act(state.observation(p), state.legal_action_mask())
        b = CIQRuleAgent(game, seed=1).act(other.observation(p), other.legal_action_mask())
        assert a == b
        state.apply_action(a)
        checked += 1
    assert checked > 20


def test_bot_ships_long():
    game, state = position(
        hands={0: ["6h", "2h", "2d", "7c", "9s", "3d", "Qh"], 1: ["2s", "3s", "8s", "9c", "9d", "7s", "4s"]},
        tolerance={1: ["9s"]},
    )
    actions = bot_move(game, state)
    shipped = [A.card_name(a - A.SHIP) for a in actions if a < A.SABOTAGE]
    # the longest chain links 6h, 2h, 2d and 3d (either way round; the Qh may be smuggled after
    # the 6h), not the single 7c or 9s
    assert set(shipped) >= {"6h", "2h", "2d", "3d"}


def test_bot_sabotages_when_it_opens_a_big_shipment():
    # Against a 2 only the 2h is Legal; wiping the pile with the Kh opens the nines and tens.
    game, state = position(
        hands={0: ["2h", "Kh", "9c", "9d", "10c", "10d", "8c"], 1: ["2s", "3s", "8s", "9s", "9h", "7s", "4s"]},
        tolerance={1: ["2s"]},
    )
    actions = bot_move(game, state)
    assert actions[:2] == [A.sabotage("2h"), A.sabotage("Kh")]
    assert sum(1 for a in actions if a < A.SABOTAGE) >= 4


def test_bot_does_not_sabotage_when_shipping_pays_more():
    game, state = position(
        hands={0: ["2h", "3h", "4h", "5h", "7h", "8h", "Jh"], 1: ["2s", "3s", "8s", "9s", "9c", "7s", "4s"]},
        tolerance={1: ["10s"]},
    )
    actions = bot_move(game, state)
    assert actions[0] < A.SABOTAGE and not any(A.SABOTAGE <= a < A.HIRE for a in actions)


def _smuggle_to_bot(shipper_hand, smuggle, tolerance, shipper_import=()):
    game, state = position(
        hands={0: shipper_hand, 1: ["Js", "3s", "8s", "9c", "9d", "7s", "2s"]},
        tolerance={1: tolerance},
        imports={0: list(shipper_import)},
    )
    for card in smuggle:
        state.apply_action(A.ship(card))
    assert state.phase == FIRE_DECISION and state.current_player() == 1
    return game, state


def test_bot_fires_when_the_smuggled_card_would_move_many_cards():
    # The smuggled King would move the shipper's 20-card Import pile.
    game, state = _smuggle_to_bot(
        ["9h", "Kh", "3c", "4c", "5c", "7c", "8c"],
        ["9h", "Kh"],
        ["9s"],
        shipper_import=["2d"] * 6 + ["3d"] * 6 + ["4d"] * 6 + ["5d"] * 2,
    )
    bot = CIQRuleAgent(game, seed=0)
    assert bot.act(state.observation(1), state.legal_action_mask()) == A.fire("Js")


def test_bot_keeps_its_customs_worker_for_a_small_smuggle():
    game, state = _smuggle_to_bot(["5h", "7h", "3c", "4c", "5c", "7c", "8c"], ["5h", "7h"], ["6s"])
    bot = CIQRuleAgent(game, seed=0)
    assert bot.act(state.observation(1), state.legal_action_mask()) == A.KEEP


def test_bot_hires_to_protect_itself_without_a_customs_worker():
    # No Tolerance pile (fired earlier) and nothing Legal against a 2: hire the lowest card.
    game, state = position(
        hands={0: ["3c", "Kd", "Ks", "Qd", "Qs", "Kc", "As"], 1: ["2s", "3s", "8s", "9s", "9c", "7s", "4s"]},
        tolerance={0: [], 1: ["2d"]},
    )
    assert state.phase == MAIN
    assert bot_move(game, state) == [A.hire("3c")]


def test_bot_gives_away_high_numbers_and_keeps_its_strong_cards():
    game, state = position(
        hands={0: ["2c", "10d", "9h", "Kh", "joker"], 1: ["2s", "3s", "8s", "9s", "9c", "7s", "4s"]},
        tolerance={1: []},
        exports={1: ["Ad"]},
        stock=[],
    )
    state.apply_action(A.ship("2c"))
    state.apply_action(A.STOP)  # 2 cards to transfer from a hand of 4
    bot = CIQRuleAgent(game, seed=0)
    given = []
    while state.current_player() == 0:
        a = bot.act(state.observation(0), state.legal_action_mask())
        given.append(A.card_name(a - A.GIVE))
        state.apply_action(a)
    assert given == ["10d", "9h"]


def _won(state, seat):
    return seat in state.winners  # a drawn game (turn limit) has no winner


@pytest.mark.parametrize("n, games, min_wins", [(2, 40, 34), (4, 40, 24)])
def test_bot_beats_the_random_agent(n, games, min_wins):
    game = smuggle_envs.make_game("ciq_v0", num_players=n)
    wins = family.against_random(game, CIQRuleAgent, games, game_seed=lambda g: 1000 + g, won=_won).wins
    # a random seat would win 1 / n of the games
    assert wins >= min_wins, f"the rule bot won {wins} of {games} games against random agents"


def test_bot_act_refuses_an_empty_mask():
    family.check_refuses_an_empty_mask(smuggle_envs.make_game("ciq_v0", num_players=2), CIQRuleAgent, seat=1)
