"""The component data file and its validating loader."""

import json
from importlib import resources

import pytest

from smuggle_envs.core.errors import DataError
from smuggle_envs.games.smuggle import data


def raw():
    return json.loads(resources.files("smuggle_envs.games.smuggle").joinpath("data", "smuggle.json").read_text())


def test_packaged_data_matches_the_rulebook():
    d = data.load()
    assert d.deck_size == 56 and d.luggage_count == 26 and d.bag_count == 1  # "56 cards", "26 luggage"
    fines = dict(zip(d.item_names, d.fines))
    duties = dict(zip(d.item_names, d.duties))
    assert (fines["wine"], fines["cigars"], fines["watch"]) == (50, 100, 300)  # rule 7's example
    assert (duties["crown"], fines["crown"]) == (500, 1000)  # rule 16
    assert d.item_names == ("wine", "cigars", "brandy", "perfume", "watch", "camera", "necklace", "crown")
    assert (d.defamation, d.informer_reward, d.false_bag_fine) == (200, 100, 200)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r["luggage"].update(count=25), "add up"),
        (lambda r: r["items"][0].update(fine=10), "fine"),
        (lambda r: r["items"][7].update(count=2), "one Diplomatic Bag and one Crown"),
        (lambda r: r["items"].pop(), "8 dutiable items"),
        (lambda r: r["items"][1].update(duty="50"), "integer"),
        (lambda r: r["money"].update(per_player=3002), "multiple"),
        (lambda r: r.pop("payments"), "malformed"),
    ],
)
def test_loader_rejects_bad_data(mutate, message):
    r = raw()
    mutate(r)
    with pytest.raises(DataError, match=message):
        data.load(json.dumps(r))


def test_loader_rejects_bad_json():
    with pytest.raises(DataError):
        data.load("{not json")
