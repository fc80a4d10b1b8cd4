"""The base game's rules (no powers), one scripted scenario or more per rule of the rulebook.

Quotations are from the rulebook and "R5.n" is resolution n of section 5 of the project's rule
resolutions, both quoted in ``docs/rules/import_export.md``. Seats are numbered from 0 (the
rulebook's PLAYER 1 is seat 0).
Harbor colours are green, yellow, black, blue, red, grey for seats 0..5 unless a test says so:
seat 0 has the innate technology tier, seat 3 the luxury one.

Every card has a power, so the scenarios keep powers out of the way: completed shipments hold
only cards whose power acts at game end (Champagne, Cologne, Velvet Robes, Diamond Rings...) or
does not touch the rule under test (MRI Machines), and the two hand powers (Flour, Lutefisk)
start in the discard pile unless a test needs the pile empty.
"""

import random

import pytest

from smuggle_envs.core.errors import ConfigError, IllegalActionError
from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.data import load
from smuggle_envs.games.import_export.scoring import final_scores, split
from smuggle_envs.games.import_export.vocab import (
    CONTRACT,
    IMPORT,
    LOAD,
    P_BID,
    P_CONTRACT_CARD,
    P_FOLLOW,
    P_IMPORT_PICK,
    P_IMPORT_SHIP,
    P_IMPORT_ZONE,
    P_LEAD,
    P_LOAD_CARD,
    P_PIRATE_TAKE,
    P_SUPPLY,
    P_WILD1,
    P_WILD2,
    P_WILD_ACTION,
    PIRATE,
    SUPPLY,
)

HAND_POWERS = ["lutefisk", "flour"]
BANK = 520
# Cards no scenario names: the next draws of players who only draw.
FILL = [
    "a_small_tank",
    "big_ammunition",
    "cannons",
    "danger_pets",
    "dino_bones",
    "drugs",
    "fake_dvds",
    "flamethrowers",
    "poison_bottles",
    "railguns",
]
FIVE = FILL[:5]


@pytest.fixture
def lay(table):
    """``table`` with the hand powers parked in the discard pile."""

    def make(num_players=3, **kw):
        kw.setdefault("discard", HAND_POWERS)
        return table(num_players, **kw)

    return make


def ids(t, *keys):
    return [t.id(k) for k in keys]


def conserved(st):
    every = (
        st.deck
        + st.discard
        + st.island
        + [
            c
            for z in (st.hands, st.imports, st.goods, st.shipments, st.contracts, st.cargo, st.played)
            for cs in z
            for c in cs
        ]
        + ([st.pending] if st.pending >= 0 else [])
    )
    assert sorted(every) == sorted(st.game.deck_cards)
    assert sum(st.credits) + st.bank + sum(st.passive) == BANK


# ----- setting up ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_rule_setup_credits_hands_ships_island_and_harbors(n):
    # "Give each player five white credit cubes", "Deal five cards to each player", "Seed each of
    # the ship cards in the open ocean with four goods cards", "Seed the supply island with cards
    # ... equal to the number of players"; the grey harbor only at 6 players, with 4 extra credits.
    game = ImportExportGame(num_players=n)
    for seed in range(6):
        st = game.new_initial_state(seed)
        assert [len(h) for h in st.hands] == [5] * n
        assert st.at_sea == [False, True] * n
        assert [len(st.cargo[s]) for s in range(2 * n)] == [0, 4] * n
        assert not any(st.contracts) and not any(st.imports) and not any(st.goods) and not any(st.shipments)
        assert len(st.island) == n and st.discard == []
        assert len(st.deck) == 100 - n * (5 + 4 + 1)
        assert len(set(st.colour)) == n
        assert (5 in st.colour) == (n == 6) and all(0 <= c <= 5 for c in st.colour)
        assert st.credits == [14 if c == 5 else 10 for c in st.colour]
        assert st.bank == BANK - sum(st.credits) and st.passive == [0] * n
        assert st.current_player() == st.leader and st.phase == P_LEAD
        conserved(st)


def test_rule_setup_colours_and_first_leader_are_random_unless_configured():
    # R5.12: the first leader is random; ``first_leader`` fixes it.
    game = ImportExportGame(num_players=5)
    leaders = {game.new_initial_state(seed).leader for seed in range(40)}
    colours = {tuple(game.new_initial_state(seed).colour) for seed in range(40)}
    assert leaders == {0, 1, 2, 3, 4} and len(colours) > 20
    fixed = ImportExportGame(num_players=5, first_leader=3)
    assert {fixed.new_initial_state(seed).leader for seed in range(10)} == {3}


def test_rule_setup_modules_add_their_cards_to_the_deck():
    # R5.14: the 100 base cards always; Jutaku (10), Kickstarter (15), Captain (3) on request.
    for modules, size in [
        ((), 100),
        (("jutaku",), 110),
        (("kickstarter",), 115),
        (("captain",), 103),
        (("jutaku", "kickstarter", "captain"), 128),
    ]:
        game = ImportExportGame(num_players=4, modules=modules)
        assert len(game.deck_cards) == size
        st = game.new_initial_state(1)
        conserved(st)
        assert len(st.deck) == size - 4 * 10


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"modules": ("expansion",)}, "modules"),
        ({"modules": ("jutaku", "jutaku")}, "modules"),
        ({"modules": ("base",)}, "modules"),
        ({"modules": "jutaku"}, "modules"),
        ({"end_credits": 1}, "end_credits"),
        ({"end_credits": 501}, "end_credits"),
        ({"end_credits": True}, "end_credits"),
        ({"end_credits": 50.0}, "end_credits"),
        ({"first_leader": 4}, "first_leader"),
        ({"first_leader": -1}, "first_leader"),
        ({"first_leader": True}, "first_leader"),
        ({"turn_limit": 0}, "turn_limit"),
        ({"turn_limit": 10_001}, "turn_limit"),
        ({"turn_limit": 2.5}, "turn_limit"),
        ({"num_players": 1}, "num_players"),
        ({"num_players": 7}, "num_players"),
        ({"num_players": "4"}, "num_players"),
        ({"players": 4}, "unknown option"),
    ],
)
def test_rule_bad_config_is_refused(kwargs, message):
    kwargs = {"num_players": 4, **kwargs} if "players" not in kwargs else kwargs
    with pytest.raises(ConfigError, match=message):
        ImportExportGame(**kwargs)


def test_rule_config_accepts_module_lists_and_extended_games():
    # Configs come back from JSON replays with lists; "play to a higher active credit amount such
    # as 80 credits or beyond" (EXTENDED GAME).
    game = ImportExportGame(num_players=3, modules=["captain", "jutaku"], end_credits=80, first_leader=2, turn_limit=50)
    assert game.config.modules == ("captain", "jutaku") and game.end_credits == 80
    assert ImportExportGame(num_players=3).end_credits == 50


# ----- the turn: lead, follow, draw ----------------------------------------------------------
def test_rule_example_turn(lay):
    # EXAMPLE TURN: "PLAYER 1 plays a load card ... PLAYER 2 chooses to draw, and because they also
    # have two load cards in their imports they may follow the load action twice as well. PLAYER 3
    # plays a load card ... now execute their load actions ... in clockwise order. All cards
    # played to the harbor are discarded."
    t = lay(
        3,
        hands={0: ["batteries", "laptops"], 1: ["paprika", "bamboo"], 2: ["cell_phones", "drones"]},
        imports={1: ["chairs", "cups"]},
        shipments={1: ["cologne"]},
        ships={0: {"contracts": ["miri_machines"]}, 2: {"contracts": ["rice"]}, 4: {"contracts": ["generators"]}},
        deck_top=["beer", "rope", "paper", "glasses"],
    )
    t.do("batteries")
    assert (t.phase, t.decider) == (P_FOLLOW, 1) and t.state.declared == LOAD
    t.do("draw")  # up to five: three cards
    st = t.state
    assert st.hands[1] == ids(t, "paprika", "bamboo", "beer", "rope", "paper")
    assert (t.phase, t.decider) == (P_FOLLOW, 2)
    t.do("cell_phones")
    # Step 3: the leader loads (from his hand, not the played cards) ...
    assert (t.phase, t.decider) == (P_LOAD_CARD, 0)
    assert t.legal() == ["done", "card LAPTOPS"]
    t.do("laptops")
    assert st.cargo[0] == ids(t, "laptops")
    # ... step 4: PLAYER 2 drew, yet loads twice with the two load cards in its imports ...
    assert (t.phase, t.decider) == (P_LOAD_CARD, 1)
    t.do("paprika")
    assert (t.phase, t.decider) == (P_LOAD_CARD, 1)
    t.do("bamboo")
    assert st.cargo[2] == ids(t, "paprika", "bamboo")
    # ... then PLAYER 3 loads once for following.
    assert (t.phase, t.decider) == (P_LOAD_CARD, 2)
    t.do("drones")
    assert st.cargo[4] == ids(t, "drones")
    # Step 5: played cards to the discard pile; the imports stay; the next player leads.
    assert (t.phase, t.decider, st.leader, st.turn) == (P_LEAD, 1, 1, 1)
    assert st.discard == ids(t, *HAND_POWERS, "batteries", "cell_phones")
    assert st.imports[1] == ids(t, "chairs", "cups") and st.played == [[], [], []]
    conserved(st)


@pytest.mark.parametrize("hand, drawn", [(0, 5), (3, 2), (4, 1), (5, 1), (7, 1)])
def test_rule_leader_draw_up_to_five_or_one_more_ends_the_turn(lay, hand, drawn):
    # "Draw until they have five cards (or one additional card if they have five or more), in
    # which case the turn will end now" -- nobody follows and imports are not used (R5.3).
    cards = ["beer", "cups", "paper", "rope", "glasses", "pants", "shoes"][:hand]
    t = lay(
        3,
        hands={0: cards, 1: ["batteries"]},
        imports={0: ["chairs"], 1: ["cell_phones"]},
        ships={0: {"contracts": ["miri_machines"]}, 2: {"contracts": ["drones"]}},
        deck_top=["laptops", "telescopes", "segways", "playstations", "protractors"],
    )
    st = t.state
    t.do("draw")
    assert len(st.hands[0]) == hand + drawn
    assert st.hands[0][hand:] == ids(t, "laptops", "telescopes", "segways", "playstations", "protractors")[:drawn]
    assert (t.phase, t.decider, st.leader, st.turn) == (P_LEAD, 1, 1, 1)
    assert st.cargo[0] == [] and st.cargo[2] == [] and st.hands[1] == ids(t, "batteries")


@pytest.mark.parametrize("hand, drawn", [(1, 4), (5, 1), (6, 1)])
def test_rule_follower_draw_up_to_five_or_one_more_happens_immediately(lay, hand, drawn):
    # "Draw until they have five cards (or one additional card if they have five or more). This
    # happens immediately." -- before the next player decides.
    cards = ["beer", "cups", "paper", "rope", "glasses", "pants"][:hand]
    t = lay(3, hands={0: ["mouthwash"], 1: cards}, deck_top=["laptops", "telescopes", "segways", "playstations"])
    st = t.state
    t.do("mouthwash")  # a contract card
    t.do("draw")
    assert len(st.hands[1]) == hand + drawn and st.followed[1] == 2
    assert (t.phase, t.decider) == (P_FOLLOW, 2)


def test_rule_only_one_draw_action_per_turn(lay):
    # FAQ: "Is it possible to take 2 draw actions on the same turn? No."
    t = lay(2, hands={0: ["mouthwash"], 1: []}, deck_top=FIVE)
    t.do("mouthwash", "draw")
    st = t.state
    assert len(st.hands[1]) == 5
    assert t.phase == P_CONTRACT_CARD and t.decider == 0 and not t.can("draw")


def test_rule_followers_play_a_card_of_the_declared_action(lay):
    # "Follow the leader's declared action by playing a card from their hand matching the action
    # type" (any good type); the leader may declare with any card.
    t = lay(3, hands={0: ["mouthwash", "batteries", "almonds"], 1: ["bamboo", "cell_phones", "paper", "cologne"]})
    assert set(t.state.legal_actions()) == {A.DRAW} | {A.CARD + c for c in ids(t, "mouthwash", "batteries", "almonds")}
    t.do("mouthwash")
    st = t.state
    assert st.declared == CONTRACT and st.played[0] == ids(t, "mouthwash")
    # bamboo and paper are contract cards; cell phones (load) and cologne (supply) are not.
    assert set(t.state.legal_actions()) == {A.DRAW, A.CARD + t.id("bamboo"), A.CARD + t.id("paper")}
    with pytest.raises(IllegalActionError):
        t.do("cell_phones")
    t.do("bamboo")
    assert st.followed[1] == 1 and st.played[1] == ids(t, "bamboo")


def test_rule_two_card_wild_declares_any_action(lay):
    # "It is also possible to declare or follow an action by playing two cards of the same color
    # as a wild" (R5.2: same good colour, any printed actions).
    t = lay(2, hands={0: ["mouthwash", "cologne", "jets", "laptops"], 1: []}, deck_top=FIVE)
    assert t.can("wild")
    t.do("wild")
    assert (t.phase, t.decider) == (P_WILD1, 0)
    # only cards with a partner of their colour may start a wild
    assert set(t.state.legal_actions()) == {A.CARD + t.id("cologne"), A.CARD + t.id("jets")}
    t.do("jets")
    assert t.phase == P_WILD2 and list(t.state.legal_actions()) == [A.CARD + t.id("cologne")]
    t.do("cologne")
    assert t.phase == P_WILD_ACTION and len(t.state.legal_actions()) == 5
    t.do(("action", "pirate"))
    st = t.state
    assert st.declared == PIRATE and st.played[0] == ids(t, "jets", "cologne")
    assert (t.phase, t.decider) == (P_FOLLOW, 1)


def test_rule_two_card_wild_follows_any_action(lay):
    t = lay(2, hands={0: ["mouthwash"], 1: ["beer", "cups", "laptops"]})
    t.do("mouthwash")
    assert t.can("wild")
    t.do("wild", "beer", "cups")
    st = t.state
    assert st.followed[1] == 1 and st.played[1] == ids(t, "beer", "cups")
    assert st.hands[1] == ids(t, "laptops")
    # the follower contracts once for following
    assert (t.phase, t.decider) == (P_CONTRACT_CARD, 0)
    t.do("done")
    assert (t.phase, t.decider) == (P_CONTRACT_CARD, 1)


def test_rule_no_wild_without_two_cards_of_one_colour(lay):
    t = lay(2, hands={0: ["mouthwash", "cologne", "laptops", "bamboo", "seeds"], 1: []})
    assert not t.can("wild")


def test_rule_imports_give_extra_actions_of_their_action_type(lay):
    # Step 3: "one action of the declared type, plus an additional action of that type for each
    # card in their imports that matches it"; imports of other actions give nothing.
    t = lay(
        2,
        hands={0: ["chairs", "laptops", "telescopes", "segways"], 1: []},
        imports={0: ["cups", "beer"]},
        shipments={0: ["cologne"]},
        ships={0: {"contracts": ["wind_turbines"]}},
        deck_top=FIVE,
    )
    t.do("chairs", "draw")  # chairs and cups are load cards, beer is supply
    st = t.state
    assert st.actions_left[0] == 2
    t.do("laptops")
    assert (t.phase, t.decider) == (P_LOAD_CARD, 0)
    t.do("telescopes")
    assert st.cargo[0] == ids(t, "laptops", "telescopes")
    assert (t.phase, t.decider) == (P_LEAD, 1)  # the follower drew and has no load imports


def test_rule_an_action_may_be_skipped(lay):
    t = lay(2, hands={0: ["chairs", "laptops"], 1: []}, ships={0: {"contracts": ["miri_machines"]}}, deck_top=FIVE)
    t.do("chairs", "draw", "done")
    assert t.state.cargo[0] == [] and t.state.hands[0] == ids(t, "laptops") and t.phase == P_LEAD


# ----- contract ------------------------------------------------------------------------------
def _contract_table(lay, colour, goods, imports, hand, shipments=()):
    return lay(
        2,
        colours=[colour, 1],
        hands={0: ["mouthwash"] + hand, 1: []},
        goods={0: goods},
        imports={0: imports},
        shipments={0: list(shipments)},
        deck_top=FIVE,
        ships={1: {"at_sea": True, "cargo": ["smart_cars"]}},
    )


def test_rule_contract_needs_the_tier_in_goods(lay):
    # "you must have at least 2 agriculture cards in the goods area" for a tier 2 good.
    t = _contract_table(lay, 0, ["almonds"], [], ["hawaiian_salt", "bamboo", "sugar"])
    t.do("mouthwash", "draw")
    # tier 1 agriculture from one good: Bamboo (tier 0) and Sugar (tier 1), not Hawaiian Salt (2)
    assert set(t.state.legal_actions()) == {A.DONE, A.CARD + t.id("bamboo"), A.CARD + t.id("sugar")}
    t2 = _contract_table(lay, 0, ["almonds", "apples"], [], ["hawaiian_salt"])
    t2.do("mouthwash", "draw", "hawaiian_salt")
    assert t2.state.contracts[0] == ids(t2, "hawaiian_salt")


def test_rule_contract_innate_tier_of_the_harbor_colour(lay):
    # "or be the yellow player and have at least 1 agriculture card in the goods area" (R5.5).
    t = _contract_table(lay, 1, ["almonds"], [], ["hawaiian_salt"])
    t.do("mouthwash", "draw")
    assert t.can("hawaiian_salt")
    t.do("hawaiian_salt")
    assert t.state.contracts[0] == ids(t, "hawaiian_salt")
    assert t.state.tier(0, 1) == 2


def test_rule_contract_any_good_type_whatever_the_colour(lay):
    # "Any player can contract any good type they choose, they are not limited by their player color."
    t = _contract_table(lay, 0, [], [], ["bamboo", "paper", "bubblegum", "velvet_robes", "protractors"])
    t.do("mouthwash", "draw")
    assert {a - A.CARD for a in t.state.legal_actions() if a != A.DONE} == set(
        ids(t, "bamboo", "paper", "bubblegum", "velvet_robes", "protractors")
    )


def test_rule_grey_harbor_has_no_innate_tier(lay):
    t = _contract_table(lay, 5, [], [], ["laptops", "bamboo"])
    t.do("mouthwash", "draw")
    assert not t.can("laptops") and t.can("bamboo")
    assert [t.state.tier(0, k) for k in range(5)] == [0] * 5


def test_rule_extra_contract_actions_skip_tier_levels(lay):
    # "if you wished to contract a tier 2 luxury good, but only had a tier 1 in luxury, you could
    # use two contract actions on your turn to skip the second tier level" (R5.6).
    t = _contract_table(lay, 0, ["cologne"], ["paper"], ["helicopter"])
    t.do("mouthwash", "draw")
    st = t.state
    assert st.actions_left[0] == 2 and t.can("helicopter")
    t.do("helicopter")
    assert st.contracts[0] == ids(t, "helicopter") and st.actions_left[0] == 0
    assert (t.phase, t.decider) == (P_LEAD, 1)
    # without the extra action it cannot be contracted
    t2 = _contract_table(lay, 0, ["cologne"], [], ["helicopter"])
    t2.do("mouthwash", "draw")
    assert not t2.can("helicopter")


def test_rule_tier_3_with_four_contract_actions(lay):
    # "you could theoretically contract a tier 3 shipment by using 4 contract actions at once"
    hand = ["diamond_rings"]
    t = _contract_table(lay, 0, [], ["paper", "candy", "bubblegum"], hand, shipments=["champagne", "velvet_robes"])
    t.do("mouthwash", "draw")
    assert t.state.actions_left[0] == 4 and t.can("diamond_rings")
    t.do("diamond_rings")
    assert t.state.contracts[0] == ids(t, "diamond_rings") and t.phase == P_LEAD
    t3 = _contract_table(lay, 0, [], ["paper", "candy"], hand, shipments=["champagne"])
    t3.do("mouthwash", "draw")
    assert t3.state.actions_left[0] == 3 and not t3.can("diamond_rings")


def test_rule_multiple_contract_actions_contract_several_cards(lay):
    # "You could contract multiple cards from your hand": two actions, two contracts, one ship
    # each or both on one ship.
    t = lay(2, hands={0: ["mouthwash", "bamboo", "bubblegum"], 1: []}, imports={0: ["paper"]}, deck_top=FIVE)
    t.do("mouthwash", "draw", "bamboo")
    assert t.legal() == ["ship 0 (P0's)", "ship 1 (P0's)"]  # both ships are in harbor
    t.do(("ship", 0), "bubblegum", ("ship", 0))
    assert t.state.contracts[0] == ids(t, "bamboo", "bubblegum") and t.state.contracts[1] == []
    assert t.state.requirement(0) == [1, 4]


def test_rule_contract_needs_a_ship_in_harbor(lay):
    # KEEPING SHIPS AVAILABLE: "you must first have an available ship card in your harbor".
    t = lay(
        2,
        hands={0: ["mouthwash", "bamboo"], 1: []},
        deck_top=FIVE,
        ships={0: {"at_sea": True, "cargo": ["beer"]}, 1: {"at_sea": True, "cargo": ["cups"]}},
    )
    t.do("mouthwash", "draw")
    assert list(t.state.legal_actions()) == [A.DONE]


def test_rule_max_six_containers_per_ship(lay):
    # "as long as the total load requirement does not exceed six loaded containers"
    t = lay(
        2,
        hands={0: ["mouthwash", "helicopter", "miri_machines", "bamboo"], 1: []},
        imports={0: ["paper"]},
        goods={0: ["cologne", "jets"]},
        ships={0: {"contracts": ["diamond_rings"]}, 1: {"at_sea": True, "cargo": ["beer"]}},
        deck_top=FIVE,
    )
    t.do("mouthwash", "draw")
    st = t.state
    assert st.room(0) == 2
    # Helicopter needs 3 containers: no ship can take it; MRI Machines (2) and Bamboo (1) fit.
    assert not t.can("helicopter") and t.can("miri_machines") and t.can("bamboo")
    t.do("miri_machines")
    assert st.contracts[0] == ids(t, "diamond_rings", "miri_machines") and st.room(0) == 0
    assert not t.can("bamboo") and list(t.state.legal_actions()) == [A.DONE]


def test_rule_contract_onto_a_partly_loaded_ship(lay):
    # R5.6: "You may add a contract to a partly loaded ship"; the shipment then needs its total.
    t = lay(
        2,
        hands={0: ["mouthwash", "wind_turbines", "bamboo"], 1: []},
        ships={0: {"contracts": ["miri_machines"], "cargo": ["laptops"]}},
        deck_top=FIVE,
    )
    t.do("mouthwash", "draw", "bamboo", ("ship", 0))
    st = t.state
    assert st.contracts[0] == ids(t, "miri_machines", "bamboo") and st.cargo[0] == ids(t, "laptops")
    assert st.matched(0) == 1 and not st.at_sea[0]


# ----- load ----------------------------------------------------------------------------------
def test_rule_load_only_the_colour_of_an_open_slot(lay):
    # "you may only load technology goods onto those shipments"; "only the color of the container
    # matters" (a supply or import card loads as well as a load card).
    t = lay(
        2,
        hands={0: ["chairs", "laptops", "bamboo", "cologne", "protractors"], 1: []},
        ships={0: {"contracts": ["miri_machines"], "cargo": ["telescopes"]}},
        deck_top=FIVE,
    )
    t.do("chairs", "draw")
    assert set(t.state.legal_actions()) == {A.DONE, A.CARD + t.id("laptops"), A.CARD + t.id("protractors")}


def test_rule_load_needs_a_contracted_shipment(lay):
    # "If you have no contracted shipments, you may not use a load action." (R5.8: containers left
    # by a discarded contract are no contract.)
    t = lay(2, hands={0: ["chairs", "laptops"], 1: []}, ships={0: {"cargo": ["telescopes"]}}, deck_top=FIVE)
    t.do("chairs", "draw")
    assert list(t.state.legal_actions()) == [A.DONE]


def test_rule_load_a_full_slot_is_closed(lay):
    t = lay(
        2,
        hands={0: ["chairs", "beer", "cups"], 1: []},
        imports={0: ["fixie_bikes"]},
        ships={0: {"contracts": ["paper", "bamboo"]}},
        deck_top=FIVE,
    )
    t.do("chairs", "draw", "beer")
    assert list(t.state.legal_actions()) == [A.DONE]  # the one black slot is full; the yellow one is open


def test_rule_load_chooses_among_ships_that_fit(lay):
    t = lay(
        2,
        hands={0: ["chairs", "laptops"], 1: []},
        ships={0: {"contracts": ["miri_machines"]}, 1: {"contracts": ["drones"]}},
        deck_top=FIVE,
    )
    t.do("chairs", "draw", "laptops")
    assert t.legal() == ["ship 0 (P0's)", "ship 1 (P0's)"]
    assert t.state.pending == t.id("laptops")
    t.do(("ship", 1))
    assert t.state.cargo[1] == ids(t, "laptops") and t.state.pending == -1


# ----- completing shipments ---------------------------------------------------------------------
def test_rule_completing_mri_machines_and_diamond_rings_pays_14(lay):
    # "MRI MACHINES requires 2 technology containers, and DIAMOND RINGS requires 4 luxury ... When
    # all 6 containers have been loaded, the player will take 14 credits from the bank and gain
    # both of the special powers ..., starting with the first contracted." Then: one card seeds
    # the island, and the ship sails with its containers (R5.7).
    t = lay(
        2,
        hands={0: ["chairs", "message_tables", "sauna"], 1: FIVE},
        imports={0: ["nice_suits"]},
        ships={
            0: {
                "contracts": ["miri_machines", "diamond_rings"],
                "cargo": ["laptops", "telescopes", "cologne", "velvet_robes"],
            }
        },
        deck_top=["pants", "shoes"],
    )
    st = t.state
    t.do("chairs", "draw")  # the follower draws one: Pants
    assert st.hands[1][-1] == t.id("pants")
    t.do("message_tables")
    # 5 of 6 loaded: MRI's own two are in, but a multi-card shipment needs its total.
    assert st.shipments[0] == [] and not st.at_sea[0] and st.credits[0] == 10 and len(st.cargo[0]) == 5
    t.do("sauna")
    assert st.credits[0] == 24 and st.bank == BANK - 24 - 10
    assert st.shipments[0] == ids(t, "miri_machines", "diamond_rings")
    assert st.owner[t.id("miri_machines")] == 0 and st.owner[t.id("diamond_rings")] == 0
    assert st.island == ids(t, "shoes")  # exactly one card per ship
    assert st.at_sea[0] and st.contracts[0] == []
    assert st.cargo[0] == ids(t, "laptops", "telescopes", "cologne", "velvet_robes", "message_tables", "sauna")
    assert st.imports_cap(0) == 3 and st.goods_cap(0) == 6
    conserved(st)


@pytest.mark.parametrize("containers, credits", [(1, 2), (2, 4), (3, 6), (4, 8)])
def test_rule_payout_by_containers_loaded(lay, containers, credits):
    # The PROPOSED payout table (R5 b): 1..6 containers pay 2, 4, 6, 8, 10, 14.
    contract = {1: "velvet_robes", 2: "champagne", 3: "gold_toilets", 4: "diamond_rings"}[containers]
    cargo = ["cologne", "jets", "sauna", "teslas"][: containers - 1]
    t = lay(
        2,
        hands={0: ["chairs", "message_tables"], 1: []},
        credits={0: 20},
        ships={0: {"contracts": [contract], "cargo": cargo}},
        deck_top=FIVE,
    )
    t.do("chairs", "draw", "message_tables")
    assert t.state.credits[0] == 20 + credits and t.state.at_sea[0]


def test_rule_payout_table_data():
    assert load().payout == (0, 2, 4, 6, 8, 10, 14, 16, 18)


def test_rule_completion_with_an_empty_deck_recycles_the_discard_to_seed_the_island(lay):
    # "if at any point the draw deck should run out, simply shuffle the discard pile"
    every = [c.key for c in load().cards if c.module == "base"]
    used = {"chairs", "message_tables", "velvet_robes", "beer"}
    rest = [k for k in every if k not in used]
    t = lay(
        2,
        hands={0: ["chairs", "message_tables"], 1: []},
        island=rest[2:],
        discard=rest[:2],
        ships={0: {"contracts": ["velvet_robes"]}},
        deck_top=["beer"],
    )
    st = t.state
    assert st.deck == ids(t, "beer")
    t.do("chairs", "draw")  # the follower draws Beer and both discards
    assert len(st.hands[1]) == 3 and st.deck == [] and st.discard == []
    assert st.end_reason == "the final card was drawn"
    t.do("message_tables")  # completes: no card left to seed the island
    assert st.credits[0] == 12 and len(st.island) == len(rest) - 2
    assert st.is_terminal() and not st.is_truncated()


# ----- discarding contracts --------------------------------------------------------------------
def test_rule_leader_discards_contracts_and_the_containers_stay(lay):
    # "At any point when a player is the leader of the turn, they may discard any shipment
    # contracts ... Move these contracts to the discard pile, leaving any loaded containers."
    # R5.8: those containers count toward a later contract of their colour on that ship.
    t = lay(
        2,
        hands={0: ["mouthwash", "champagne"], 1: []},
        goods={0: ["jets"]},
        ships={
            0: {"contracts": ["helicopter", "bamboo"], "cargo": ["cologne", "velvet_robes"]},
            1: {"at_sea": True, "cargo": ["smart_cars"]},
        },
        deck_top=FIVE,
    )
    st = t.state
    assert t.can("helicopter") and t.can("bamboo")
    t.do("helicopter")
    assert st.contracts[0] == ids(t, "bamboo") and st.cargo[0] == ids(t, "cologne", "velvet_robes")
    assert t.id("helicopter") in st.discard
    # still the leader's lead: he may discard more, draw or declare
    assert (t.phase, t.decider) == (P_LEAD, 0) and t.can("bamboo") and t.can("mouthwash")
    t.do("bamboo")
    assert st.contracts[0] == [] and st.cargo[0] == ids(t, "cologne", "velvet_robes") and not st.at_sea[0]
    # Champagne needs two blue containers: the two left on the ship complete it as it is contracted.
    t.do("mouthwash", "draw", "champagne")
    assert st.at_sea[0] and st.shipments[0] == ids(t, "champagne") and st.credits[0] == 14
    conserved(st)


def test_rule_discarding_a_contract_can_complete_the_rest(lay):
    # The ship's remaining contracts are met by the containers on board: it completes at once.
    t = lay(
        2,
        hands={0: ["mouthwash"], 1: []},
        ships={0: {"contracts": ["miri_machines", "helicopter"], "cargo": ["laptops", "telescopes"]}},
        deck_top=FIVE,
    )
    t.do("helicopter")
    st = t.state
    assert st.shipments[0] == ids(t, "miri_machines") and st.credits[0] == 14 and st.at_sea[0]
    assert (t.phase, t.decider) == (P_LEAD, 0)


def test_rule_only_the_leader_discards_contracts(lay):
    t = lay(2, hands={0: ["mouthwash"], 1: ["paper"]}, ships={2: {"contracts": ["helicopter"]}})
    t.do("mouthwash")
    assert t.decider == 1 and not t.can("helicopter")


# ----- import ----------------------------------------------------------------------------------
def _import_table(lay, n=3, **kw):
    """Seat 0 leads an import; every seat's second ship is at sea with four containers."""
    sea = {
        1: ["laptops", "telescopes", "segways", "playstations"],
        3: ["almonds", "bamboo", "coffee", "sugar"],
        5: ["beer", "cups", "paper", "rope"],
        7: ["bubblegum", "seeds", "cannabis", "pistols"],
        9: ["wheat", "honey", "rice", "onions"],
        11: ["pens", "pants", "books", "chairs"],
    }
    ships = kw.pop("ships", {s: {"at_sea": True, "cargo": sea[s]} for s in range(1, 2 * n, 2)})
    return lay(n, ships=ships, **kw)


def test_rule_import_sealed_bid_winner_pays_the_bank_and_the_owner_takes_2(lay):
    # "The highest bidder pays their bid to the bank, chooses two cards from the ship ... up to one
    # card in their imports, and/or up to two cards in their goods"; "the owner takes 2 credits
    # from the bank per won bid"; FAQ: the loser does not pay.
    t = _import_table(lay, hands={0: ["champagne"], 1: ["vintage_wines"], 2: []}, deck_top=FIVE)
    t.do("champagne", "vintage_wines", "draw")
    st = t.state
    assert (t.phase, t.decider) == (P_IMPORT_SHIP, 0) and st.declared == IMPORT
    assert t.legal() == ["ship 1 (P0's)", "ship 3 (P1's)", "ship 5 (P2's)"]
    t.do(("ship", 5))
    assert (t.phase, t.decider) == (P_BID, 0) and len(t.state.legal_actions()) == 6  # 0..10 credits
    t.do(("bid", 4))
    assert (t.phase, t.decider) == (P_BID, 1)
    t.do(("bid", 2))
    assert st.credits == [6, 10, 12] and st.last_bids == [2, 1, -1]
    assert (t.phase, t.decider) == (P_IMPORT_PICK, 0)
    t.do("cups")
    assert t.legal() == ["to imports", "to goods"]
    t.do(("zone", "imports"), "beer")  # imports used: goods, automatically
    assert st.imports[0] == ids(t, "cups") and st.goods[0] == ids(t, "beer")
    assert st.cargo[5] == ids(t, "paper", "rope") and st.at_sea[5]
    assert st.bank == BANK - sum(st.credits)
    assert t.phase == P_LEAD and st.leader == 1
    conserved(st)


def test_rule_import_both_cards_to_goods(lay):
    t = _import_table(lay, hands={0: ["champagne"], 1: [], 2: []}, deck_top=FILL)
    t.do("champagne", "draw", "draw", ("ship", 3), "bamboo", ("zone", "goods"))
    assert t.legal() == ["card ALMONDS", "card COFFEE", "card SUGAR"]
    t.do("sugar")
    assert t.legal() == ["to imports", "to goods"]
    t.do(("zone", "goods"))
    assert t.state.goods[0] == ids(t, "bamboo", "sugar") and t.state.imports[0] == []


def test_rule_import_only_one_card_to_imports(lay):
    # "up to one card in their imports": after one import, the second card goes to goods.
    t = _import_table(
        lay, hands={0: ["champagne"], 1: [], 2: []}, shipments={0: ["cologne", "velvet_robes"]}, deck_top=FILL
    )
    t.do("champagne", "draw", "draw", ("ship", 3), "bamboo", ("zone", "imports"), "sugar")
    assert t.state.imports_cap(0) == 3
    assert t.state.imports[0] == ids(t, "bamboo") and t.state.goods[0] == ids(t, "sugar")


def test_rule_import_alone_is_free_but_the_owner_still_takes_2(lay):
    # R5.9: a single participant takes the cards free; the owner is paid for any import by
    # someone else, free ones included.
    t = _import_table(lay, hands={0: ["champagne"], 1: [], 2: []}, deck_top=FILL)
    t.do("champagne", "draw", "draw", ("ship", 3))
    st = t.state
    assert (t.phase, t.decider) == (P_IMPORT_PICK, 0) and st.last_bids == [-1, -1, -1]
    assert st.credits == [10, 12, 10]


def test_rule_import_own_ship_pays_no_owner_fee(lay):
    t = _import_table(lay, hands={0: ["champagne"], 1: ["jets"], 2: []}, deck_top=FIVE)
    t.do("champagne", "jets", "draw", ("ship", 1), ("bid", 2), ("bid", 0))
    assert t.state.credits == [8, 10, 10]


@pytest.mark.parametrize(
    "leader, bids, winner",
    [
        (0, {0: 4, 1: 4, 2: 2, 3: 0}, 0),  # the leader breaks ties
        (0, {0: 2, 1: 4, 2: 0, 3: 4}, 1),  # else the tied player closest clockwise from him
        (2, {2: 0, 3: 2, 0: 4, 1: 4}, 0),
        (3, {3: 0, 0: 6, 1: 0, 2: 6}, 0),
        (1, {1: 2, 2: 0, 3: 0, 0: 0}, 1),
    ],
)
def test_rule_import_ties_go_to_the_leader_then_clockwise(lay, leader, bids, winner):
    # "with the leader breaking ties" (R5.9)
    hand = {p: [card] for p, card in enumerate(["champagne", "jets", "vintage_wines", "foxes"])}
    t = _import_table(lay, 4, hands=hand, leader=leader)
    for _ in range(4):
        t.do(("card", t.state.hands[t.decider][0]))  # everyone follows with an import card
    t.do(("ship", 7))  # seat 3's ship
    for p in [(leader + i) % 4 for i in range(4)]:
        assert (t.phase, t.decider) == (P_BID, p)
        t.do(("bid", bids[p]))
    st = t.state
    assert (t.phase, t.decider) == (P_IMPORT_PICK, winner)
    expected = [10] * 4
    expected[winner] -= bids[winner]
    expected[3] += 2
    assert st.credits == expected


def test_rule_import_bids_are_even_and_at_most_the_bidders_credits(lay):
    # R5.9: bids are even, at least 0 and at most the bidder's active credits.
    t = _import_table(lay, hands={0: ["champagne"], 1: ["jets"], 2: []}, credits={0: 6, 1: 0}, deck_top=FIVE)
    t.do("champagne", "jets", "draw", ("ship", 5))
    assert t.legal() == ["bid 0", "bid 2", "bid 4", "bid 6"]
    t.do(("bid", 0))
    # a bidder with no credits can only bid 0: applied automatically (a public, single option)
    st = t.state
    assert t.phase == P_IMPORT_PICK and t.decider == 0 and st.last_bids == [0, 0, -1]


def test_rule_import_a_ship_with_a_single_container_empties_and_returns(lay):
    # FAQ: "Can you import from a ship at sea if it only has a single container? Yes." "If a ship is
    # emptied of containers, it returns to the owner's harbor."
    t = _import_table(
        lay,
        hands={0: ["champagne"], 1: [], 2: []},
        deck_top=FILL,
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}, 3: {"at_sea": True, "cargo": ["almonds"]}},
    )
    t.do("champagne", "draw", "draw", ("ship", 3))
    st = t.state
    # one container, one zone choice (the pick itself is automatic)
    assert t.phase == P_IMPORT_ZONE and st.pending == t.id("almonds")
    t.do(("zone", "goods"))
    assert st.goods[0] == ids(t, "almonds") and st.cargo[3] == [] and not st.at_sea[3]
    assert st.credits == [10, 12, 10]
    assert st.sea_ships() == [1]


def test_rule_import_with_no_room_discards_the_card(lay):
    # FAQ: "if the card cannot be put anywhere, discard it"; "cards may not be swapped out".
    t = _import_table(
        lay, hands={0: ["champagne"], 1: [], 2: []}, deck_top=FILL, imports={0: ["smart_cars"]}, goods={0: ["cologne"]}
    )
    t.do("champagne", "draw", "draw", ("ship", 3), "bamboo")  # imports full: goods, automatically
    st = t.state
    assert st.goods[0] == ids(t, "cologne", "bamboo") and st.imports[0] == ids(t, "smart_cars")
    # goods full (2) and imports full (1): the second card goes to the discard pile by itself
    t.do("sugar")
    assert t.id("sugar") in st.discard and t.phase == P_LEAD
    conserved(st)


def test_rule_multiple_import_rounds_example(lay):
    # MULTIPLE IMPORT ACTIONS: "Player 1 leads an import action and follows his import action with
    # a second import action from an import card in his 'imports'. Player 2 then follows with a
    # single import action ... Player 3 draws, and then follows with three import cards in her
    # 'imports'. P1 will then choose a ship to bid on, and all players will bid. P1 then picks a
    # second ship, only P1 and P3 will bid on this ship. Finally P1 picks a third ship, and P3
    # takes two containers for free."
    t = _import_table(
        lay,
        hands={0: ["champagne"], 1: ["jets"], 2: FIVE},
        imports={0: ["foxes"], 2: ["vintage_wines", "glasses", "ammunition"]},
        shipments={2: ["cologne", "velvet_robes"]},
        deck_top=["shoes"],
    )
    t.do("champagne", "jets", "draw")
    st = t.state
    assert st.actions_left == [2, 1, 3]
    # round 1: everyone bids; P2 wins its own ship's containers
    assert (t.phase, t.decider) == (P_IMPORT_SHIP, 0)
    t.do(("ship", 3))
    assert st.bidders == [0, 1, 2]
    t.do(("bid", 2), ("bid", 4), ("bid", 0))
    assert t.decider == 1
    t.do("almonds", ("zone", "imports"), "bamboo")  # imports used: goods, automatically
    assert st.imports[1] == ids(t, "almonds") and st.goods[1] == ids(t, "bamboo")
    assert st.credits == [10, 6, 10]
    # round 2: P1 picks the ship; only P1 and P3 bid
    assert (t.phase, t.decider) == (P_IMPORT_SHIP, 0)
    t.do(("ship", 1))
    assert st.bidders == [0, 2]
    assert (t.phase, t.decider) == (P_BID, 0)
    t.do(("bid", 0))
    assert (t.phase, t.decider) == (P_BID, 2)
    t.do(("bid", 2))
    t.do("laptops")  # P3's imports are full (3 of 3): goods only, automatically
    t.do("telescopes")
    assert st.goods[2] == ids(t, "laptops", "telescopes") and st.credits == [12, 6, 8]
    # round 3: the leader still picks the ship, though he is not bidding; P3 alone takes it free
    assert (t.phase, t.decider) == (P_IMPORT_SHIP, 0)
    t.do(("ship", 5))
    assert (t.phase, t.decider) == (P_IMPORT_PICK, 2)
    t.do("beer", "cups")
    assert st.goods[2] == ids(t, "laptops", "telescopes", "beer", "cups") and st.credits == [12, 6, 8]
    assert t.phase == P_LEAD and st.leader == 1
    conserved(st)


def test_rule_import_rounds_stop_when_the_sea_is_empty(lay):
    t = _import_table(
        lay,
        hands={0: ["champagne"], 1: [], 2: []},
        imports={0: ["foxes"]},
        deck_top=FILL,
        ships={3: {"at_sea": True, "cargo": ["almonds", "bamboo"]}},
    )
    t.do("champagne", "draw", "draw")
    assert t.state.actions_left[0] == 2
    # the one ship is chosen automatically; imports are full (Foxes): both cards go to goods
    t.do("almonds")
    st = t.state
    assert st.goods[0] == ids(t, "almonds", "bamboo") and not st.at_sea[3]
    assert t.phase == P_LEAD and st.leader == 1  # no ship at sea: round 2 cannot happen


# ----- pirate ----------------------------------------------------------------------------------
def test_rule_pirate_loads_the_container_onto_your_ship_and_the_owner_gets_nothing(lay):
    # "take one container from a ship at sea or the supply island, load it onto one of your ships
    # if able, otherwise discard it"; "the owner of the ship will not receive any credits".
    t = lay(
        2,
        hands={0: ["rope"], 1: []},
        island=["cologne"],
        deck_top=FIVE,
        ships={0: {"contracts": ["miri_machines"]}, 3: {"at_sea": True, "cargo": ["laptops", "bamboo"]}},
    )
    t.do("rope", "draw")
    st = t.state
    assert (t.phase, t.decider) == (P_PIRATE_TAKE, 0)
    assert set(st.legal_actions()) == {A.DONE} | {A.CARD + c for c in ids(t, "cologne", "laptops", "bamboo")}
    t.do("laptops")  # loads onto ship 0 by itself: the one ship that fits
    assert st.cargo[0] == ids(t, "laptops") and st.cargo[3] == ids(t, "bamboo")
    assert st.credits == [10, 10] and t.phase == P_LEAD


def test_rule_pirate_from_the_island_and_discard_what_cannot_be_loaded(lay):
    t = lay(
        2, hands={0: ["rope"], 1: []}, island=["cologne"], deck_top=FIVE, ships={0: {"contracts": ["miri_machines"]}}
    )
    t.do("rope", "draw", "cologne")
    st = t.state
    assert st.island == [] and t.id("cologne") in st.discard and st.cargo[0] == []
    conserved(st)


def test_rule_pirate_chooses_the_ship_when_several_fit(lay):
    t = lay(
        2,
        hands={0: ["rope"], 1: []},
        island=["laptops"],
        deck_top=FIVE,
        ships={0: {"contracts": ["miri_machines"]}, 1: {"contracts": ["drones"]}},
    )
    t.do("rope", "draw", "laptops")
    assert t.legal() == ["ship 0 (P0's)", "ship 1 (P0's)"]
    t.do(("ship", 1))
    assert t.state.cargo[1] == ids(t, "laptops")


def test_rule_pirating_the_last_container_returns_the_ship(lay):
    # AN EMPTY SHIP / PIRATING YOUR SHIPS: the ship returns to its owner's harbor, unpaid.
    t = lay(
        2,
        hands={0: ["rope"], 1: []},
        deck_top=FIVE,
        ships={1: {"at_sea": True, "cargo": ["bamboo"]}, 3: {"at_sea": True, "cargo": ["laptops"]}},
    )
    t.do("rope", "draw", "bamboo")
    st = t.state
    assert not st.at_sea[1] and st.cargo[1] == [] and t.id("bamboo") in st.discard and st.credits == [10, 10]


def test_rule_multiple_pirate_actions_leader_first(lay):
    # "the leader of the turn will execute all of their pirate actions before moving clockwise"
    t = lay(
        3,
        hands={0: ["rope"], 1: ["potatoes"], 2: []},
        imports={0: ["backpacks"]},
        deck_top=FIVE,
        island=["cologne", "jets", "teslas"],
    )
    t.do("rope", "potatoes", "draw")
    seen = []
    while t.phase == P_PIRATE_TAKE:
        seen.append(t.decider)
        t.do(t.state.legal_actions()[-1])
    assert seen == [0, 0, 1] and t.state.island == []


def test_rule_pirate_with_nothing_to_take_is_skipped(lay):
    t = lay(2, hands={0: ["rope"], 1: []}, deck_top=FIVE)
    t.do("rope", "draw")
    assert t.phase == P_LEAD and t.decider == 1


# ----- supply ----------------------------------------------------------------------------------
def test_rule_supply_sells_a_card_for_4_credits(lay):
    # "sell a card from your hand to the supply island, taking 4 credits from the bank"
    t = lay(2, hands={0: ["beer", "laptops"], 1: []}, deck_top=FIVE)
    t.do("beer", "draw")
    st = t.state
    assert (t.phase, st.declared) == (P_SUPPLY, SUPPLY)
    t.do("laptops")
    assert st.credits == [14, 10] and st.island == ids(t, "laptops") and st.bank == BANK - 24


def test_rule_supply_only_one_sale_per_turn(lay):
    # "you may only sell one card to the supply island regardless of how many supply actions you
    # take" (R5.11); "There is no limit to how many cards you can take for the extra actions."
    t = lay(
        2,
        hands={0: ["beer", "laptops", "telescopes"], 1: []},
        imports={0: ["almonds", "cologne"]},
        shipments={0: ["champagne", "velvet_robes", "diamond_rings"]},
        island=["jets"],
        deck_top=FIVE,
    )
    t.do("beer", "draw", "laptops")
    st = t.state
    assert st.sold[0] and st.actions_left[0] == 2
    # the second action may only take from the island (which now holds the sold card too)
    assert set(st.legal_actions()) == {A.DONE, A.CARD + t.id("jets"), A.CARD + t.id("laptops")}
    t.do("jets", "laptops")
    assert st.imports[0] == ids(t, "almonds", "cologne", "jets", "laptops")
    assert st.credits[0] == 14 and st.island == []


def test_rule_supply_sale_resets_next_turn(lay):
    t = lay(2, hands={0: ["beer", "laptops", "telescopes", "segways"], 1: ["chaptick", "shoes"]})
    t.do("beer", "draw", "laptops")
    assert t.state.credits == [14, 10] and t.state.leader == 1
    t.do("chaptick", "telescopes", "shoes")
    assert t.state.sold == [False, True]
    t.do("segways")  # a sale again, in the next turn
    assert t.state.credits == [18, 14]


def test_rule_supply_in_any_order_take_then_sell(lay):
    t = lay(
        2,
        hands={0: ["beer", "laptops"], 1: []},
        imports={0: ["almonds"]},
        island=["jets"],
        shipments={0: ["cologne"]},
        deck_top=FIVE,
    )
    t.do("beer", "draw", "jets", "laptops")
    st = t.state
    assert st.imports[0] == ids(t, "almonds", "jets") and st.credits[0] == 14 and st.island == ids(t, "laptops")


def test_rule_supply_taking_is_limited_by_the_imports_capacity(lay):
    # IMPORTS: "you may always have at least 1 card in your imports" plus one per shipment.
    t = lay(2, hands={0: ["beer", "laptops"], 1: []}, imports={0: ["glasses"]}, island=["jets"], deck_top=FIVE)
    t.do("beer", "draw")
    assert set(t.state.legal_actions()) == {A.DONE, A.CARD + t.id("laptops")}


# ----- capacities -----------------------------------------------------------------------------
def test_rule_capacity_imports_one_per_shipment_goods_two_per_shipment(lay):
    # "limited by the number of shipments you have completed at a 1 to 1 ratio ... You start with
    # a base of 1"; goods: "a max of 2x your completed shipments, starting with a base of 1" (R5.4).
    t = lay(3, shipments={1: ["cologne"], 2: ["champagne", "velvet_robes", "diamond_rings"]})
    st = t.state
    assert [st.imports_cap(p) for p in range(3)] == [1, 2, 4]
    assert [st.goods_cap(p) for p in range(3)] == [2, 4, 8]


# ----- the end of the game ----------------------------------------------------------------------
def test_rule_50_active_credits_end_the_game_after_the_turn(lay):
    # "When any player has reached 50 active credits ... the game will end immediately after
    # finishing the current turn" (R5.12: checked after every action).
    t = lay(3, hands={0: ["beer", "laptops"], 1: ["chaptick", "shoes"], 2: []}, credits={0: 46, 1: 44}, deck_top=FIVE)
    t.do("beer", "chaptick", "draw", "laptops")
    st = t.state
    assert st.credits[0] == 50 and st.end_reason == "P0 reached 50 active credits"
    assert not st.is_terminal() and (t.phase, t.decider) == (P_SUPPLY, 1)  # the turn finishes
    t.do("shoes")
    assert st.credits[1] == 48 and st.is_terminal() and not st.is_truncated()
    assert st.current_player() == -1 and list(st.legal_actions()) == [] and st.phase == -1
    assert st.played == [[], [], []] and t.id("beer") in st.discard
    assert st.returns() == [1.0, -1.0, -1.0]


def test_rule_end_credits_option():
    # EXTENDED GAME (or a shorter one): ``end_credits`` moves the threshold.
    game = ImportExportGame(num_players=2, end_credits=20)
    st = game.new_initial_state(0)
    st.arrange(hands={0: ["beer", "laptops"], 1: []}, credits={0: 16}, deck_top=FIVE, leader=0, discard=HAND_POWERS)
    for card in ("beer", A.DRAW, "laptops"):
        st.apply_action(card if isinstance(card, int) else A.CARD + game.card_id(card))
    assert st.credits[0] == 20 and st.is_terminal()
    assert st.end_reason == "P0 reached 20 active credits"


def test_rule_the_final_card_drawn_ends_the_game_after_the_turn(lay):
    # "draws the final card from the draw deck (with no cards left in the discard to recycle)"
    every = [c.key for c in load().cards if c.module == "base"]
    used = {"beer", "laptops", "telescopes", "segways"}
    rest = [k for k in every if k not in used]
    t = lay(2, hands={0: ["beer", "laptops"], 1: ["segways"]}, island=rest, discard=[], deck_top=["telescopes"])
    t.do("beer")
    st = t.state
    assert st.deck == ids(t, "telescopes")
    t.do("draw")
    assert st.deck == [] and st.end_reason == "the final card was drawn" and not st.is_terminal()
    t.do("laptops")
    assert st.is_terminal() and not st.is_truncated() and st.credits == [14, 10]


def test_rule_an_empty_deck_and_discard_end_the_game(lay):
    every = [c.key for c in load().cards if c.module == "base"]
    rest = [k for k in every if k != "beer"]
    t = lay(2, hands={0: ["beer"], 1: []}, island=rest, discard=[])
    st = t.state
    assert st.deck == []
    t.do("beer", "draw")  # nothing to draw
    assert st.hands[1] == [] and st.end_reason == "the draw deck and the discard pile are empty"
    t.do("done")
    assert st.is_terminal()


def test_rule_turn_cap_truncates():
    game = ImportExportGame(num_players=2, turn_limit=3, first_leader=0)
    st = game.new_initial_state(0)
    for _ in range(3):
        assert not st.is_terminal()
        st.apply_action(A.DRAW)
    assert st.is_terminal() and st.is_truncated() and st.turn == 3 and st.end_reason == "turn cap (3 turns)"


def test_rule_random_games_end():
    game = ImportExportGame(num_players=4)
    for seed in range(5):
        st = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        assert st.end_reason and not st.is_truncated()


# ----- scoring -------------------------------------------------------------------------------
def test_rule_scoring_credits_containers_goods_majorities_and_one_of_each(lay):
    # SCORING: credits; 2 per container on a shipment still in harbor; goods 1 each (illegal 2);
    # majorities +6 / +8 luxury / -6 illegal, ties split rounded up (toward 0 for illegal, R5.13);
    # +10 for one of each type.
    t = lay(
        3,
        credits={0: 20, 1: 12, 2: 8},
        goods={
            0: ["laptops", "almonds", "beer", "cologne", "bubblegum"],
            1: ["telescopes", "seeds", "jets", "champagne"],
            2: ["cannabis"],
        },
        ships={
            0: {"contracts": ["miri_machines"], "cargo": ["segways"]},
            4: {"cargo": ["cups", "paper"]},
            5: {"at_sea": True, "cargo": ["rope"]},
        },
    )
    scores = final_scores(t.state)
    # seat 0: 20 + 2 (container) + 6 (goods) + 10 (one of each) + 3 (tech tie) + 6 (agri) + 6 (cons)
    #         - 2 (illegal three-way tie: -6/3)
    # seat 1: 12 + 5 (goods) + 3 (tech tie) + 8 (luxury) - 2
    # seat 2: 8 + 4 (two containers in harbor) + 2 (goods) - 2; the ship at sea does not count
    assert scores == [20 + 2 + 6 + 10 + 3 + 6 + 6 - 2, 12 + 5 + 3 + 8 - 2, 8 + 4 + 2 - 2]
    assert t.state.scores() == [float(s) for s in scores]


def test_rule_scoring_tie_splits_round_up_and_the_illegal_penalty_toward_zero():
    assert split(6, 2) == 3 and split(6, 4) == 2 and split(8, 3) == 3 and split(6, 5) == 2
    assert split(-6, 2) == -3 and split(-6, 4) == -1 and split(-6, 5) == -1 and split(-6, 1) == -6


def test_rule_scoring_ties_share_victory(lay):
    t = lay(2, credits={0: 10, 1: 10})
    assert t.state.returns() == [1.0, 1.0]
