"""The operator may offer agents from outside the library by name (``smuggle serve --agent
NAME=SPEC``, as ``--models`` and ``--llm`` offer theirs); a client seats one as ``agent:NAME`` and
never names a ``py:`` spec or an entry-point kind itself (test_web_refuses_plugins.py)."""

import pytest
from starlette.testclient import TestClient

from training.cli import main
from training.web.app import create_app
from training.web.errors import TableError
from training.web.limits import ServeLimits, agent_offers, check_spec

from .conftest import BASE, make_table

PY_SPEC = "py:smuggle_agent_example:FirstLegalAgent"  # examples/smuggle_agent_example, installed by the test set-up


def test_an_offered_py_agent_and_an_entry_point_kind_play_a_table(tmp_path):
    limits = ServeLimits(agents=agent_offers([f"first={PY_SPEC}", "greedy=greedy_example"]))
    with TestClient(create_app(tmp_path / "web.db", limits=limits), base_url=BASE) as client:
        envs = client.get("/api/envs")
        assert "agent:first" in envs.text and "agent:greedy" in envs.text
        assert PY_SPEC not in envs.text  # the spec stays on the server
        table = make_table(client, "smuggle_v0", ["human", "agent:first", "agent:greedy", "rule"])
        info = client.get(f"/api/tables/{table.id}")
        labels = [seat["label"] for seat in info.json()["seats"]]
        assert labels[1:3] == ["agent:first", "agent:greedy"] and PY_SPEC not in info.text
        assert info.json()["decisions"] >= 1  # the bots played up to the person's first decision


def test_a_name_the_operator_did_not_offer_is_refused_without_echo():
    limits = ServeLimits(agents={"first": PY_SPEC})
    with pytest.raises(TableError) as caught:
        check_spec("agent:other", limits, seat=2)
    assert caught.value.status == 422 and "first" in caught.value.message and PY_SPEC not in caught.value.message
    with pytest.raises(TableError, match="none"):
        check_spec("agent:first", ServeLimits(), seat=2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("first", "give NAME=SPEC"),
        ("first=rule", "py:module:Name spec or an installed kind"),
        ("bad name=" + PY_SPEC, "letters, digits"),
    ],
)
def test_bad_offers_are_one_line_errors(text, message):
    with pytest.raises(ValueError, match=message):
        agent_offers([text])
    with pytest.raises(ValueError, match="given twice"):
        agent_offers([f"a={PY_SPEC}", f"a={PY_SPEC}"])


def test_serve_refuses_a_bad_offer_on_one_line(tmp_path, capsys):
    code = main(["serve", "--db", str(tmp_path / "w.db"), "--agent", "x=rule"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--agent" in err[0]
