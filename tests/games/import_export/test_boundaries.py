"""Import / Export's rules at their limits: a value exactly at a rule's boundary, the seat a rule
names, and the constants of the end and of scoring.

Each test pins one comparison, constant or seat of ``steps.py``, ``scoring.py`` or ``ties.py``
that a one-line bug could move (``benchmarks/mutation.py`` plants such bugs). Seats start at 10
active credits; cards as in ``test_rules.py`` and ``test_powers_end_game.py``.
"""

from smuggle_envs.games.import_export.vocab import P_LOAD_CARD

# What seats 1 and 2 draw (five each) before seat 0's next draw.
DRAWN = ["cologne", "velvet_robes", "message_tables", "small_poodles", "teslas"]
DRAWN += ["champagne", "vintage_wines", "gold_toilets", "sauna", "nice_suits"]


def ids(t, *keys):
    return [t.id(k) for k in keys]


# ----- outright wins: who won, and why --------------------------------------------------------------
def test_an_outright_win_names_the_winner_and_the_card(table):
    # "If you have 8 illegal goods you win the game immediately": the reason names the seat and
    # the card (what a replay and the web app show).
    illegal7 = ["a_small_tank", "ammunition", "bubblegum", "big_ammunition", "cannabis", "fake_dvds", "pistols"]
    t = table(
        3,
        hands={0: ["champagne"]},
        goods={0: illegal7},
        imports={0: ["almonds", "onions", "beer"]},
        shipments={0: ["the_mother_load", "rope", "neural_units"]},
        ships={3: {"at_sea": True, "cargo": ["seeds"]}},
    )
    t.do("champagne", "draw", "draw", ("zone", "goods"))  # the 8th illegal good, exactly the limit
    st = t.state
    assert st.over and st.instant_winner == 0
    assert st.end_reason == "P0 won with The Mother Load"


# ----- Cell Phones: a drawn container is loaded by the load action ------------------------------------
def test_cell_phones_drawn_container_counts_as_loaded_from_a_load_action(table):
    # FIXIE BIKES: "Whenever a container is loaded from a load action (not pirate), take 2
    # credits"; Cell Phones' drawn card is loaded by that load action.
    t = table(
        3,
        hands={0: ["chairs"]},
        shipments={0: ["cell_phones", "fixie_bikes"]},
        deck_top=[*DRAWN, "laptops"],
        ships={0: {"contracts": ["protractors"]}},
    )
    t.do("chairs", "draw", "draw")
    assert t.phase == P_LOAD_CARD and t.decider == 0
    t.do(("option", 1))
    st = t.state
    assert st.cargo[0] == ids(t, "laptops") and st.shipments[0][-1] == t.id("protractors")
    assert st.credits[0] == 10 + 2 + 2  # the payout for one container, and Fixie Bikes


# ----- game end: Teslas' wild goods need Teslas ---------------------------------------------------------
def test_supply_imports_are_no_goods_without_teslas_even_with_diamond_rings(table):
    # Only TESLAS makes "supply imports count as goods"; Diamond Rings' choice of harbor must not
    # carry them over as wild goods.
    shipments = {0: ["diamond_rings", "cups"], 1: ["potatoes"]}
    plain = table(2, shipments=shipments, goods={1: ["bamboo"]})
    supply = table(2, shipments=shipments, goods={1: ["bamboo"]}, imports={0: ["laptops", "almonds"]})
    assert supply.state.scores() == plain.state.scores()


# Nine supply imports: one more than Teslas' wild goods placed by trying every split (8).
NINE_SUPPLY = [
    "a_small_tank",
    "beer",
    "big_ammunition",
    "chaptick",
    "flamethrowers",
    "fluffy_pillows",
    "hawaiian_salt",
    "iceland_water",
    "jasmine_tea",
]
SEVEN_FILLERS = ["cups", "glasses", "pens", "almonds", "potatoes", "bamboo", "message_tables"]


def test_teslas_wild_goods_one_past_the_exact_limit_still_go_where_they_score_most(table):
    # Seat 0 holds one good of each type, so every wild good scores its value: illegal (2) beats
    # the rest (1), and all nine are named illegal: 10 illegal goods, values 4 + 20, majorities
    # 6 + 6 + 6 + 8 - 6, one of each 10. (8 shipments: imports up to 9.)
    t = table(
        2,
        shipments={0: ["teslas", *SEVEN_FILLERS]},
        imports={0: NINE_SUPPLY},
        goods={0: ["batteries", "bok_choy", "books", "impalas", "pistols"]},
    )
    assert t.state.imports_cap(0) == 9
    assert t.state.scores() == [10 + 24 + 20 + 10, 10]


# ----- game end: Teslas' choice when Foxes breaks the ties ----------------------------------------------
EIGHT_BLOCKERS = ["batteries", "laptops", "bamboo", "bok_choy", "books", "cups", "impalas", "gold_watches"]


def test_teslas_holder_with_foxes_names_the_tie_he_steps_out_of(table):
    # FOXES: "You now break all ties": tied for the most illegal goods, its holder steps out of
    # the penalty. Seat 0's one wild good is worth 2 as illegal (a tie he steps out of), 1 as any
    # other type (seat 2 has two of each): illegal, and seat 1 pays the whole 6.
    t = table(
        3,
        shipments={0: ["teslas", "foxes"]},
        imports={0: ["almonds"]},
        goods={1: ["pistols"], 2: EIGHT_BLOCKERS},
    )
    assert t.state.scores() == [10 + 2, 10 + 2 - 6, 10 + 8 + 26]


def test_teslas_holder_avoids_a_tie_that_another_players_foxes_breaks(table):
    # Seat 1 holds Foxes and one technology good: a wild good named technology would tie him and
    # lose the bonus to him (worth 1, its value), so seat 0 names illegal (worth 2, seat 2 has
    # two illegal goods and pays the 6).
    t = table(
        3,
        shipments={0: ["teslas"], 1: ["foxes"]},
        imports={0: ["almonds"]},
        goods={
            1: ["batteries"],
            2: ["bamboo", "bok_choy", "books", "cups", "impalas", "gold_watches", "pistols", "drugs"],
        },
    )
    assert t.state.scores() == [10 + 2, 10 + 1 + 6, 10 + 10 + 20 - 6]


def test_teslas_holder_indifferent_between_types_names_the_first_type(table):
    # A wild good named technology or agriculture ties seat 1 or seat 2 for 3 + 1; consumer and
    # luxury are worth 1 (seats 1 and 2 have two), illegal -4. Indifferent, the holder names the
    # first type of the rulebook's order (technology), a fixed choice that other seats' scores
    # depend on.
    t = table(
        3,
        shipments={0: ["teslas"]},
        imports={0: ["almonds"]},
        goods={1: ["batteries", "books", "cups"], 2: ["bamboo", "impalas", "gold_watches"]},
    )
    assert t.state.scores() == [10 + 1 + 3, 10 + 3 + 3 + 6, 10 + 3 + 6 + 8]


def test_teslas_wild_good_tying_the_most_exactly_at_the_limit_shares_the_bonus(table):
    # Tied for the most agriculture goods, seat 0 shares its 6 (R5.13): 3 + 1, more than the 1
    # any other type is worth (seat 2 has two of each; illegal alone pays 6).
    t = table(
        3,
        shipments={0: ["teslas"]},
        imports={0: ["almonds"]},
        goods={1: ["bamboo"], 2: ["batteries", "laptops", "books", "cups", "impalas", "gold_watches"]},
    )
    assert t.state.scores() == [10 + 1 + 3, 10 + 1 + 3, 10 + 6 + 6 + 6 + 8]


# ----- game end: "the most" at its smallest -----------------------------------------------------------
def test_champagne_most_completed_shipments_with_exactly_one(table):
    # CHAMPAGNE: "If you have the most completed shipments at game end, this is worth 8 credits":
    # one shipment (Champagne itself) against none is the most.
    t = table(3, shipments={0: ["champagne"]})
    assert t.state.scores() == [10 + 8, 10, 10]


# ----- game end: Foxes breaks ties, and only ties --------------------------------------------------------
def test_foxes_holder_alone_with_the_most_illegal_goods_pays_the_penalty(table):
    # FOXES breaks ties; alone with the most illegal goods (one, against none) there is no tie
    # to break: he pays the 6.
    t = table(2, shipments={0: ["foxes"]}, goods={0: ["pistols"]})
    assert t.state.scores() == [10 + 2 - 6, 10]


def test_foxes_holder_with_ivory_tied_for_the_most_illegal_goods_takes_the_6_alone(table):
    # IVORY: "if you have the most illegal goods take 6 credits instead of paying them"; tied,
    # FOXES breaks the tie his way: he takes the 6 alone, the other pays nothing.
    t = table(2, modules=("kickstarter",), shipments={0: ["foxes", "ivory"]}, goods={0: ["pistols"], 1: ["drugs"]})
    assert t.state.scores() == [10 + 2 + 6, 10 + 2]


def test_foxes_holder_steps_out_of_a_three_way_illegal_tie_and_the_other_two_share_it(table):
    # Three tied for the most illegal goods: Foxes' holder steps out, the other two share the 6.
    t = table(3, shipments={0: ["foxes"]}, goods={0: ["pistols"], 1: ["drugs"], 2: ["fake_dvds"]})
    assert t.state.scores() == [10 + 2, 10 + 2 - 3, 10 + 2 - 3]


# ----- game end: containers on both of a seat's ships -------------------------------------------------
def test_containers_count_on_both_ships_in_the_harbor_and_none_at_sea(table):
    # "Each container that has been loaded onto a shipment that remains in your harbor ... is
    # worth 2 credits": seat p's ships are 2p and 2p + 1; seat 1's are at sea (they count nothing).
    t = table(
        2,
        ships={
            0: {"contracts": ["miri_machines"], "cargo": ["batteries"]},
            1: {"contracts": ["diamond_rings"], "cargo": ["impalas", "gold_watches"]},
            2: {"at_sea": True, "cargo": ["cups", "glasses"]},
            3: {"at_sea": True, "cargo": ["bamboo"]},
        },
    )
    assert t.state.scores() == [10 + 2 * 3, 10]


# ----- game end: harbor changes declared clockwise from the leader ---------------------------------------
def test_harbor_changes_are_declared_clockwise_from_the_leader(table):
    # Step 3 of scoring: declared one seat at a time clockwise from the leader (seat 0), each
    # given the declarations before his. Seat 1 (Teslas, one wild good) declares first and names
    # luxury (1 + 8); Diamond Rings then moves seat 2's Cups and Potatoes (1 + 6 twice) rather
    # than tie seat 1's luxury. Counter-clockwise, seat 2 would take the luxury first.
    t = table(
        3,
        shipments={1: ["teslas"], 2: ["diamond_rings", "cups", "potatoes"]},
        imports={1: ["almonds"]},
    )
    assert t.state.leader == 0
    assert t.state.scores() == [10, 10 + 9, 10 + 14]


# ----- game end: an outright win at the first seat ----------------------------------------------------
def test_an_outright_winner_at_seat_0_is_ranked_first(table):
    # Seat 0 is a seat like any other: its outright win puts it 1 credit above the rest.
    t = table(2, credits={0: 10, 1: 40})
    t.state.win(0, "test")
    assert t.state.scores() == [41, 40]


def test_diamond_rings_that_would_move_foxes_into_the_goods_weighs_the_harbor_without_its_tie_break(table):
    # Seat 0 ties seat 1 for the most agriculture goods (one each) and breaks the tie with Foxes.
    # Diamond Rings may move Foxes' own shipment into the goods (two luxuries), but that harbor
    # gives the tie-break up with the card: moving Diamond Rings and Laptops instead keeps Foxes
    # and the agriculture bonus alone, which scores more.
    t = table(
        2,
        shipments={0: ["diamond_rings", "foxes", "laptops"]},
        goods={0: ["hawaiian_salt", "segways"], 1: ["rice"]},
    )
    assert t.state.scores() == [34, 11]


def test_teslas_wild_goods_are_placed_by_trying_every_split_exactly_at_the_exact_budget():
    # Up to the budget every split is tried; only a surplus over it is placed one at a time. A
    # scorer that pays only for three wild goods of the last type: placed one at a time (first
    # of the equal gains), the first would go to the first type and the three never meet.
    from smuggle_envs.games.import_export.scoring import _best_wilds

    def score(counts, powers):
        return 10 if counts[-1] >= 3 else 0

    assert _best_wilds(score, (0, 0, 0, 0, 0), 3, frozenset(), exact=3) == (10, [0, 0, 0, 0, 3])
    assert _best_wilds(score, (0, 0, 0, 0, 0), 3, frozenset(), exact=2)[0] == 0  # one over: missed
