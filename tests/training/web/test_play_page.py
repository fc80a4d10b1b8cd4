"""What a participant meets on the play page, from the API (no browser): the rules panel is the
player's brief and the card glossary, not the rules page with its engine notes.

The browser's side of it (hand and decision in view together, the result where the decision was,
the join page naming the game and the seat) is ``test_browser.py``'s; the questions, the names
on the buttons and the scores are ``test_page_views.py``'s.
"""

from __future__ import annotations

import pytest

from smuggle_envs import ENV_IDS, make_game


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_rules_panel_is_the_players_brief_and_the_card_glossary(client, env_id):
    """The panel shows the packaged rules brief (what the terminal's ``rules`` prints), without
    the rulebook's section marks or the rules page's engine notes, and the card glossary."""
    from smuggle_envs.text.brief import brief_text

    data = client.get(f"/api/rules/{env_id}").json()
    texts = [r["text"] for r in data["rules"]]
    assert [r["n"] for r in data["rules"]] == [str(i) for i in range(1, len(texts) + 1)]
    assert not [t for t in texts if "§" in t or t.lower().startswith("config validation")], texts
    brief = brief_text(env_id) or ""
    assert texts[0].rstrip(".")[:20].lower() in brief.lower()
    glossary = next(t for t in data["tables"] if t["title"] == "Card glossary")
    assert glossary["rows"] == [list(row) for row in make_game(env_id).card_glossary()]
    assert "docs/" not in data["source"]
