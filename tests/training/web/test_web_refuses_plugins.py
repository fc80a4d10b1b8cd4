"""The browser app never seats a ``py:`` spec or an entry-point kind a client names: either would
import and run code of the server's choosing (agents/pyspec.py). The app's allow-list
(training/web/limits.py ``check_spec``) refuses them with a 422 that does not echo the spec."""

import pytest

from agents import PLUGIN_KINDS
from training.web.errors import TableError
from training.web.limits import ServeLimits, check_spec


@pytest.mark.parametrize(
    "spec",
    ["py:os:system", "py:smuggle_agent_example:FirstLegalAgent", "greedy_example", *sorted(PLUGIN_KINDS)],
)
def test_a_client_cannot_seat_py_specs_or_entry_points(spec):
    with pytest.raises(TableError) as caught:
        check_spec(spec, ServeLimits(), seat=1)
    assert caught.value.status == 422
    assert "not an agent this server offers" in str(caught.value) and spec not in str(caught.value)
