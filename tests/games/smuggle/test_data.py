"""What the component data file says, against the rulebook. (The loader takes the packaged file and
refuses broken ones, as for every game: ``tests/core/families/test_data_family.py``.)"""

from smuggle_envs.games.smuggle import data


def test_packaged_data_matches_the_rulebook():
    d = data.load()
    assert d.deck_size == 56 and d.luggage_count == 26 and d.bag_count == 1  # "56 cards", "26 luggage"
    fines = dict(zip(d.item_names, d.fines))
    duties = dict(zip(d.item_names, d.duties))
    assert (fines["wine"], fines["cigars"], fines["watch"]) == (50, 100, 300)  # rule 7's example
    assert (duties["crown"], fines["crown"]) == (500, 1000)  # rule 16
    assert d.item_names == ("wine", "cigars", "brandy", "perfume", "watch", "camera", "necklace", "crown")
    assert (d.defamation, d.informer_reward, d.false_bag_fine) == (200, 100, 200)
