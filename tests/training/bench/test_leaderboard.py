"""The leaderboard (docs/leaderboard.md) is generated from the scorecards stored in the repo, and
its numbers reproduce: a few rows re-run at one deal a field equal the stored cards of that budget."""

import json

import pytest

from training.bench import leaderboard
from training.bench.protocol import PROTOCOL
from training.bench.schema import read, reproducible

STORED = sorted(p for p in leaderboard.CARDS.glob("*/*.json") if p.parent.name != "tiny")


def test_the_tables_are_what_the_stored_cards_give():
    stored = json.loads(leaderboard.TABLES.read_text(encoding="utf-8"))
    assert stored == json.loads(json.dumps(leaderboard.tables())), (
        "docs/img/data/leaderboard.json is stale: run python -m training.bench.leaderboard "
        "and python scripts/update_docs.py"
    )
    page = (leaderboard.ROOT / "docs" / "leaderboard.md").read_text(encoding="utf-8")
    for env in leaderboard.ENVS:
        assert f"<!-- data-table: leaderboard/{env} -->" in page


def test_every_row_of_every_game_is_measured_or_names_its_command():
    for env in leaderboard.ENVS:
        rows = leaderboard.table(env)["rows"]
        assert [r[0] for r in rows] and len(rows) == len(leaderboard.ROWS)
        for row in rows:
            assert row[1] != "not measured yet" or row[-1].startswith(("`smuggle bench", "`python -m"))


@pytest.mark.parametrize("path", STORED, ids=[f"{p.parent.name}/{p.stem}" for p in STORED])
def test_every_stored_card_is_a_labelled_protocol_card(path):
    card = read(path)
    assert card["protocol"] == PROTOCOL and card["num_players"] == leaderboard.PLAYERS
    assert card["budget"] in ("quick", "full", "custom") and card["label"]
    assert path.stem in leaderboard.ROWS and card["env_id"] == path.parent.name


@pytest.mark.parametrize(
    ("key", "env"), [(k, e) for k, envs in leaderboard.TINY.items() for e in envs], ids=lambda x: str(x)
)
def test_the_numbers_reproduce_at_one_deal_a_field(key, env):
    stored = read(leaderboard.card_path(env, key, tiny=True))
    assert stored["deals"] == 1
    assert reproducible(leaderboard.score_row(key, env, 1)) == reproducible(stored)
