"""A first check that the arranged position plays as the rulebook's example turn says."""

from smuggle_envs.games.import_export.vocab import P_FOLLOW, P_LOAD_CARD


def test_example_turn_load_declared_followed_and_drawn(table):
    # "PLAYER 1 plays a load card ... PLAYER 2 chooses to draw, and because they also have two
    # load cards in their imports they may follow the load action twice ... PLAYER 3 plays a
    # load card." (seats 0, 1, 2 here)
    t = table(
        3,
        hands={0: ["batteries", "laptops"], 1: ["bamboo"], 2: ["cell_phones", "drones"]},
        imports={1: ["bok_choy"]},
        shipments={1: ["fake_dvds"]},
        ships={0: {"contracts": ["miri_machines"]}, 2: {"contracts": ["almonds"]}, 4: {"contracts": ["generators"]}},
    )
    t.do("batteries")  # Batteries is a Load card
    assert t.phase == P_FOLLOW and t.decider == 1
    t.do("draw")
    assert t.decider == 2
    t.do("cell_phones")
    assert t.phase == P_LOAD_CARD and t.decider == 0
    t.do("laptops")  # one ship fits: it is chosen automatically
    st = t.state
    assert t.id("laptops") in st.cargo[0]
    # Player 2 drew, but its Load import still gives it one Load action.
    assert t.decider == 1 and t.phase == P_LOAD_CARD
    t.do("bamboo")
    assert t.id("bamboo") in st.cargo[2]
    assert t.decider == 2
    t.do("drones")
    assert t.id("drones") in st.cargo[4]
    # The played cards are discarded and the next player clockwise leads.
    assert st.leader == 1 and {t.id("batteries"), t.id("cell_phones")} <= set(st.discard)
