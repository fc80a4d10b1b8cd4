"""Every shell command shown in README.md, docs/**/*.md and notebooks/*.ipynb is run here (with
small budgets) or marked (``# illustrative: ...``, ``# tested by tests/...``); every command and
every inline mention of one is checked against the real command line. The rules and the budgets:
scripts/doc_commands.py and docs/docs.md, "Shell commands"."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_spec = importlib.util.spec_from_file_location("doc_commands", ROOT / "scripts" / "doc_commands.py")
dc = importlib.util.module_from_spec(_spec)
sys.modules["doc_commands"] = dc
_spec.loader.exec_module(dc)

COMMANDS, MENTIONS = dc.extract()
RUN_PAGES = sorted({c.path for c in COMMANDS if c.status == "run"})


def test_commands_are_found_on_every_kind_of_page():
    pages = {c.path for c in COMMANDS}
    assert {"README.md", "docs/getting_started.md", "docs/training.md", "docs/benchmarks.md"} <= pages
    assert any(m.path.startswith("notebooks/") for m in MENTIONS)
    statuses = {c.status for c in COMMANDS}
    assert {"run", "illustrative", "tested by"} <= statuses


def test_every_command_and_mention_names_real_commands_options_and_files():
    problems = []
    for command in COMMANDS:
        why = dc.check_static(command.text)
        if why:
            problems.append(f"{command.where}: {command.text}\n    {why}")
    for mention in MENTIONS:
        is_path = mention.text.split("/", 1)[0] in dc.TOP_FOLDERS and " " not in mention.text
        why = dc.check_path(mention.text) if is_path else dc.check_static(mention.text, full=False)
        if why:
            problems.append(f"{mention.where}: `{mention.text}`\n    {why}")
    assert not problems, "\n".join(problems)


def test_a_command_marked_tested_by_names_a_test_that_runs_it():
    for command in (c for c in COMMANDS if c.status == "tested by"):
        target = command.comment.removeprefix("tested by ").split()[0].rstrip(",;:")
        test = ROOT / target
        assert test.is_file() and test.name.startswith("test_"), f"{command.where}: no test {target}"
        tokens = dc._program(dc._tokens(command.text))
        if tokens[0].startswith("python") and len(tokens) > 1 and tokens[1].endswith(".py"):
            key = Path(tokens[1]).stem  # the script it runs
        elif tokens[0] == "smuggle" and len(tokens) > 1:
            key = tokens[1]  # the subcommand
        else:
            continue
        assert key in test.read_text(encoding="utf-8"), f"{command.where}: {target} does not mention {key}"


@pytest.mark.parametrize("page", RUN_PAGES)
def test_the_commands_of_a_page_run(page, tmp_path):
    folder = dc.sandbox(tmp_path)
    for command in (c for c in COMMANDS if c.path == page and c.status == "run"):
        done = dc.run(command, folder)
        assert done.returncode == 0, (
            f"{command.where}: {command.text}\nran as: {dc.budgeted(command.text)}\nexit code {done.returncode}\n"
            f"{done.stderr[-3000:] or done.stdout[-3000:]}\n"
            "Fix the command, or mark it: '# illustrative: why' (see docs/docs.md, Shell commands)."
        )


# ----- the mechanism itself ------------------------------------------------------------------
PAGE = """Intro with `smuggle replay --db DB GAME_ID` and `smuggle analyze DB [--tournament ID]`.

```bash
smuggle list                    # the envs
smuggle train smuggle_v0 \\
    --steps 500000              # a long run
smuggle serve                   # illustrative: a server
```

```bash
# illustrative: measurements
python benchmarks/throughput.py --seconds 2
```

```console
$ smuggle --version
smuggle (smuggle_envs) 0.1.0
```

```python
print("not a shell command")
```
"""


def test_extraction_finds_block_commands_their_status_and_inline_mentions():
    commands, mentions = dc.markdown_items(PAGE, "page.md")
    assert [(c.text, c.status) for c in commands] == [
        ("smuggle list", "run"),
        ("smuggle train smuggle_v0 --steps 500000", "run"),
        ("smuggle serve", "illustrative"),
        ("python benchmarks/throughput.py --seconds 2", "illustrative"),
        ("smuggle --version", "run"),
    ]
    assert [c.line for c in commands] == [4, 5, 7, 12, 16]
    assert [m.text for m in mentions] == ["smuggle replay --db DB GAME_ID", "smuggle analyze DB [--tournament ID]"]


def test_a_wrong_option_in_prose_or_a_block_is_caught():
    # notebooks/03_tournament.ipynb once told users to run this; the real syntax is smuggle replay DB GAME_ID
    assert "--db" in dc.check_static("smuggle replay --db DB GAME_ID", full=False)
    assert dc.check_static("smuggle replay DB GAME_ID", full=False) is None
    assert dc.check_static("smuggle replay DB GAME_ID") is None
    assert dc.check_static("smuggle analyze DB [--tournament ID] [--out DIR]") is None
    assert "unrecognized arguments" in dc.check_static("smuggle replay --db results.sqlite 1")
    assert "no subcommand" in dc.check_static("smuggle replays DB", full=False)
    assert "--n-steps" in dc.check_static("smuggle train smuggle_v0 --n-steps 64")
    assert "defines no option --fast" in dc.check_static("python benchmarks/throughput.py --fast")
    assert "no extra nope" in dc.check_static('pip install -c constraints.txt -e ".[train,nope]"')
    assert dc.check_path("training/selfplay/trainer.py") is None
    assert dc.check_path("docs/rules/<game>.md") is None
    assert dc.check_path("training/tournament/analytics_nope.py")


def test_budgets_shrink_a_run_and_keep_its_meaning():
    small = dc.budgeted(
        "smuggle train smuggle_v0 --players 4 --steps 200000 --set imitation_samples=50000 --set mixed_tables=0.5"
    )
    assert small.startswith("smuggle train smuggle_v0 --players 4 --steps 256 --set imitation_samples=256 ")
    assert "--set mixed_tables=0.5" in small and "--set eval_every=256" in small and small.endswith("--no-progress")
    assert dc.budgeted("SMUGGLE_ZOO=zoo smuggle match --games 300") == "SMUGGLE_ZOO=zoo smuggle match --games 2"
    tournament = dc.budgeted('smuggle tournament smuggle_v0 --agents "ismcts:sims=50;c=1.0,rule" --workers 2')
    assert tournament.endswith("'ismcts:sims=50;c=1.0,rule' --workers 2 --games 2 --bootstrap 20 --quiet")
