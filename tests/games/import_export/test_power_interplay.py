"""Powers that meet each other across the batches (immediate, event-driven, rule-changing)."""

from smuggle_envs.games.import_export.steps import run
from smuggle_envs.games.import_export.vocab import P_LEAD, P_POWER


def test_a_ship_emptied_before_it_sails_stays_home_and_is_not_a_returning_ship(table):
    # Flash Drives takes the only container back into the hand: nothing sails, so Backpacks
    # ("every time a ship is returned to a harbor from the open sea") has nothing to react to.
    t = table(
        3,
        hands={0: ["nice_suits", "leather_coats"]},
        ships={0: {"contracts": ["cologne"]}},
        shipments={0: ["flash_drives"], 1: ["backpacks"]},
    )
    t.do("nice_suits", "draw", "draw", "leather_coats")
    assert t.phase == P_POWER and t.state.ask.context[0] == "flash_drives"
    t.do("leather_coats")
    st = t.state
    assert not st.at_sea[0] and st.cargo[0] == [] and t.id("leather_coats") in st.hands[0]
    assert t.phase == P_LEAD and t.decider == 1  # no Backpacks decision was asked


def test_printed_money_leaving_one_container_brings_an_aeroponics_ship_home(table):
    t = table(
        3,
        hands={0: ["batteries", "cell_phones"]},
        ships={
            0: {"contracts": ["printed_money"], "cargo": ["cannabis", "cannons", "drugs"]},
            3: {"at_sea": True, "cargo": ["beer", "cups"]},
        },
        shipments={1: ["aeroponics"]},
        modules=("kickstarter",),
    )
    t.do("batteries", "draw", "draw", "cell_phones")
    assert t.phase == P_POWER and t.state.ask.context[0] == "printed_money"
    t.do("beer")
    st = t.state
    assert not st.at_sea[3] and st.cargo[3] == [t.id("cups")]  # home, with its last container
    assert t.id("beer") in st.hands[0]  # no ship of seat 0 takes it: kept in hand


def test_bamboo_contracted_again_by_its_power_is_a_contract_for_paprika(table):
    t = table(
        3,
        hands={0: ["bok_choy", "coffee", "almonds"]},
        ships={0: {"contracts": ["bamboo"]}},
        shipments={0: ["paprika"]},
    )
    t.do("bok_choy", "draw", "draw", "coffee")
    assert t.phase == P_POWER and t.state.ask.context[0] == "bamboo"
    t.do(("ship", 1))
    st = t.state
    assert st.contracts[1] == [t.id("bamboo")]
    assert t.phase == P_POWER and st.ask.context[0] == "paprika"  # a free load with the new contract


def test_wind_turbines_copying_a_passive_power_gives_its_holder_that_power(table):
    # Wind Turbines copied Sugar ("When you contract an agriculture shipment, take 2 credits"):
    # its holder now earns Sugar's credits; Sugar's own holder, who did not contract, does not.
    t = table(2, hands={0: ["bubblegum", "bamboo"], 1: []}, shipments={0: ["wind_turbines"], 1: ["sugar"]})
    st = t.state
    st.wind_copy = t.id("sugar")  # as the Wind Turbines power records it
    assert st.has(0, "sugar") and st.has(1, "sugar") and st.holders(t.id("sugar")) == (1, 0)
    t.do("bubblegum", "draw", "bamboo", ("ship", 0))
    assert st.contracts[0] == [t.id("bamboo")]
    assert st.credits[0] == 12 and st.credits[1] == 10
    assert t.game.observation_layout.get(st.observation(1), "wind_copy")[t.id("sugar")] == 1


def test_a_wind_turbines_copy_of_an_any_time_power_is_offered(table):
    # Telescopes ("trade your technology goods for 4 credits each at any time"), copied by seat 0's
    # Wind Turbines, is offered to seat 0 as Telescopes' own option; Segways' copy is not, since
    # Segways moves the Segways card itself.
    t = table(
        2,
        hands={0: ["bubblegum"], 1: []},
        goods={0: ["drones"]},
        shipments={0: ["wind_turbines"], 1: ["telescopes", "segways"]},
    )
    st = t.state
    st.wind_copy = t.id("telescopes")
    st.ask = None
    st.stack = [("turn",)]
    run(st)
    assert t.can("telescopes")
    t.do("telescopes")
    assert st.credits[0] == 14 and st.goods[0] == []
    st.wind_copy = t.id("segways")
    st.ask = None
    st.stack = [("turn",)]
    run(st)
    assert not t.can("segways")
