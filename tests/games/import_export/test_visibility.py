"""What the other seats see of an action (``State.action_to_string(action, viewer)``).

Secret in Import / Export: the sealed bids (until all are in: the reveal shows them), the cards a
power makes a player hand over from its hand (A Small Tank, Shotguns), and the choices the
table's view does not keep (the island card LED Lights and Rope will take, the type or card
Shower Heads, Exclusive Cards and Rolls Royce name). Everything else is played face up.

The random-game checks that every seat reads another seat's action only as far as it saw it
are shared by every game: ``tests/core/families/test_visibility_family.py``. Here: the scripted
cases.
"""

from smuggle_envs.games.import_export.vocab import P_BID, P_POWER

MODULES = ("jutaku", "kickstarter", "captain")


def test_a_sealed_bid_reads_as_a_bid_to_the_others_until_the_reveal(table):
    t = table(
        3,
        hands={0: ["champagne"], 1: ["jets"], 2: ["vintage_wines"]},
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
        discard=["lutefisk", "flour"],
    )
    t.do("champagne", "jets", "vintage_wines")
    st = t.state
    assert (t.phase, t.decider) == (P_BID, 0)
    bid = t.action(("bid", 4))
    assert st.action_to_string(bid, 0) == st.action_to_string(bid) == "bid 4"
    assert st.action_to_string(bid, 1) == st.action_to_string(bid, 2) == "P0 bids (sealed)"
    t.do(bid, ("bid", 2))
    last = t.action(("bid", 6))
    assert st.action_to_string(last, 0) == "P2 bids (sealed)" and st.action_to_string(last, 2) == "bid 6"
    t.do(last)
    assert "P2 to decide: import: choose a container; options: card LAPTOPS, card TELESCOPES" in st.render(0)
    pick = t.action("laptops")
    assert st.action_to_string(pick, 0) == "card LAPTOPS"  # the revealed winner picks in the open


def test_a_card_handed_over_face_down_is_hidden(table):
    t = table(
        3,
        hands={0: ["batteries", "cologne", "beer", "cups"]},
        shipments={1: ["a_small_tank"]},
        ships={0: {"contracts": ["velvet_robes"]}},
    )
    t.do("batteries", "draw", "draw", "cologne")
    st = t.state
    assert st.phase == P_POWER and st.ask.context[0] == "a_small_tank" and t.decider == 0
    beer, cups = t.action("beer"), t.action("cups")
    assert st.action_to_string(beer, 0) == "card BEER"
    for viewer in (1, 2):
        assert st.action_to_string(beer, viewer) == st.action_to_string(cups, viewer)
        assert st.action_to_string(beer, viewer) == "P0 gives P1 a card from their hand (A Small Tank)"


def test_shotguns_credits_or_cards_is_public_and_the_cards_are_not(table):
    t = table(
        3,
        hands={0: ["potatoes", "beer"], 1: ["rope", "cups", "cologne", "almonds"], 2: ["chicken_feed"]},
        shipments={2: ["shotguns"]},
        island=["velvet_robes", "apples", "glasses"],
    )
    t.do("potatoes", "rope", "chicken_feed", "velvet_robes", ("option", 0), "apples")
    st = t.state
    option = t.action(("option", 1))
    assert st.ask.context[0] == "shotguns" and st.action_to_string(option, 2) == "option 1"
    t.do(option)
    cups, cologne = t.action("cups"), t.action("cologne")
    assert st.action_to_string(cups, 1) == "card CUPS"
    assert st.action_to_string(cups, 0) == st.action_to_string(cologne, 0)
    assert st.action_to_string(cups, 2) == "P1 gives P2 a card from their hand (Shotguns)"


def test_a_named_type_is_said_aloud_so_every_seat_reads_it_and_the_table_keeps_it(table):
    t = table(
        2,
        hands={0: ["playstations", "mouthwash"], 1: ["chairs"]},
        ships={0: {"contracts": ["shower_heads"], "cargo": ["candy"]}},
        deck_top=["onions", "sugar", "foxes"],
    )
    t.do("playstations", "chairs", "mouthwash")
    st = t.state
    assert st.phase == P_POWER and st.ask.context[0] == "shower_heads"
    named = t.action(("type", "consumer"))
    assert st.action_to_string(named, 0) == st.action_to_string(named, 1) == "good type consumer"
    t.do(named)
    assert "said aloud: P0 named consumer (Shower Heads)" in st.render(1)


def test_the_island_card_rope_will_take_reads_as_a_choice_until_the_swap(table):
    t = table(3, hands={0: ["beer", "laptops"]}, shipments={0: ["rope"]}, island=["drones", "almonds"])
    st = t.state
    rope = t.action(("card", "rope"))
    assert st.action_to_string(rope, 1) == "card ROPE"  # using an "any time" power is public
    t.do(rope)
    almonds = t.action("almonds")
    assert st.action_to_string(almonds, 1) == "P0 chooses a card of the supply island (Rope)"
    t.do(almonds)
    beer = t.action("beer")
    assert st.action_to_string(beer, 1) == "card BEER"  # it goes to the island, face up
    t.do(beer)
    assert "island: Drones, Beer" in st.render(1)


def test_public_decisions_keep_their_full_text(table):
    t = table(3, hands={0: ["champagne", "laptops"], 1: ["jets"]})
    st = t.state
    for action in st.legal_actions():
        assert st.action_to_string(action, 1) == st.action_to_string(action) == st.game.action_to_string(action)
