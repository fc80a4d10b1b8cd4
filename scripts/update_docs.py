"""Regenerate the parts of README.md and docs/**/*.md that are facts about the code.

    python scripts/update_docs.py           # rewrite every stale block in place
    python scripts/update_docs.py --check   # change nothing; exit 1 naming every stale block

Each generated block sits between two HTML comments (invisible on GitHub and in the site):

``<!-- layout: ENV_ID num_players=N -->`` ... ``<!-- /layout -->``
    the observation table of ENV_ID at N players, ``game.observation_layout.table()``
    (docs/rules/*.md).
``<!-- env-table: LINK_PREFIX -->`` ... ``<!-- /env-table -->``
    the table of env ids: game (linked to ``LINK_PREFIX<game>.md``, its rules page), players,
    actions and the observation size as a formula in the player count, with its value at the
    default count (what ``smuggle list`` prints).
``<!-- obs-size: ENV_ID -->`` ... ``<!-- /obs-size -->``
    the observation size formula, inline (``1178 + 322 × players``).
``<!-- obs-size: ENV_ID num_players=N -->`` ... ``<!-- /obs-size -->``
    the observation size at N players, inline (``2,466``).
``<!-- actions: ENV_ID -->`` ... ``<!-- /actions -->``
    the number of distinct actions, inline.
``<!-- zoo-table: full -->`` / ``headline`` / ``cost`` ... ``<!-- /zoo-table -->``
    the model zoo's measured strength, from its manifest (``agents/zoo/models.json``, which
    ``benchmarks/zoo.py`` writes): every column (docs/benchmarks.md), the README's short one, or
    what each model cost to make (docs/zoo.md).
``<!-- command-budgets -->`` ... ``<!-- /command-budgets -->``
    the small budgets with which the test suite runs the docs' shell commands
    (``scripts/doc_commands.py``), in docs/docs.md.
``<!-- package-map -->`` ... ``<!-- /package-map -->``
    the map of the code: each part's folder, size and the parts it imports
    (``scripts/package_map.py``), in docs/architecture.md.
``<!-- plugin-layers -->`` ... ``<!-- /plugin-layers -->``
    a game's module in each layer above the envs, one row a registry of
    ``agents.plugins.registries()`` (``scripts/plugin_layers.py``), in docs/adding_a_game.md.
``<!-- data-table: NAME -->`` / ``<!-- data-table: NAME/KEY -->`` ... ``<!-- /data-table -->``
    a table of measured figures, from ``docs/img/data/NAME.json``'s ``"table"`` entry (or its
    ``"tables"`` entry ``KEY``): ``{"headers": [...], "align": "lrr...", "rows": [[cell, ...]]}``,
    written by the benchmark that measured them (``benchmarks/exploit_validation.py``,
    ``benchmarks/equilibrium.py``): a measured number is written by its script, never typed.
``<!-- text-prompt: ENV_ID seed=K decisions=D history=H -->`` ... ``<!-- /text-prompt -->``
    the prompt a language model (or ``smuggle play``) reads, as a ``text`` block: deal K played by
    rule bots for D decisions, then ``smuggle_envs.text.observe`` of the seat to decide, with the
    last H lines of its log (docs/llm.md).

The test suite runs ``--check`` (tests/docs/test_generated.py), so a change to an encoder, an
action space or the registry fails CI until the docs are regenerated.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction
from pathlib import Path

import smuggle_envs
from smuggle_envs import registry

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doc_commands  # scripts/doc_commands.py, beside this file
import package_map  # scripts/package_map.py
import plugin_layers  # scripts/plugin_layers.py

ROOT = Path(__file__).resolve().parents[1]

LAYOUT = re.compile(r"(<!-- layout: (\w+) num_players=(\d+) -->\n)(.*?)(\n<!-- /layout -->)", re.S)
ENV_TABLE = re.compile(r"(<!-- env-table: (\S*) -->\n)(.*?)\n?(<!-- /env-table -->)", re.S)
ZOO_TABLE = re.compile(r"(<!-- zoo-table: (full|headline|cost) -->\n)(.*?)\n?(<!-- /zoo-table -->)", re.S)
BUDGETS = re.compile(r"(<!-- command-budgets -->\n)(.*?)\n?(<!-- /command-budgets -->)", re.S)
DATA_TABLE = re.compile(r"(<!-- data-table: ([\w.-]+(?:/\w+)?) -->\n)(.*?)\n?(<!-- /data-table -->)", re.S)
PROMPT = re.compile(
    r"(<!-- text-prompt: (\w+) seed=(\d+) decisions=(\d+) history=(\d+) -->\n)(.*?)\n?(<!-- /text-prompt -->)", re.S
)
PACKAGE_MAP = re.compile(r"(<!-- package-map -->\n)(.*?)\n?(<!-- /package-map -->)", re.S)
PLUGIN_LAYERS = re.compile(r"(<!-- plugin-layers -->\n)(.*?)\n?(<!-- /plugin-layers -->)", re.S)
INLINE = re.compile(r"(<!-- (obs-size|actions): (\w+)(?: num_players=(\d+))? -->)(.*?)(<!-- /\2 -->)")


def _player_counts(env_id: str) -> range:
    game = smuggle_envs.make_game(env_id)
    return range(game.min_players, game.max_players + 1)


def obs_size(env_id: str, num_players: int) -> int:
    return smuggle_envs.make_game(env_id, num_players=num_players).observation_layout.size


def num_actions(env_id: str) -> int:
    """The action count, which must not depend on the player count (the table shows one number)."""
    counts = {smuggle_envs.make_game(env_id, num_players=n).num_actions for n in _player_counts(env_id)}
    if len(counts) != 1:
        raise ValueError(f"{env_id}: the number of actions depends on the player count: {sorted(counts)}")
    return counts.pop()


def size_coefficients(env_id: str) -> tuple[int, int, int]:
    """(a, b, c) with observation size = a + b·n + c·n² at every legal player count n, exactly."""
    counts = list(_player_counts(env_id))
    sizes = [obs_size(env_id, n) for n in counts]
    # Newton's divided differences on the first three counts, then a check on all of them.
    n0, n1, n2 = (Fraction(n) for n in counts[:3])
    s0, s1, s2 = (Fraction(s) for s in sizes[:3])
    d1, d2 = (s1 - s0) / (n1 - n0), (s2 - s1) / (n2 - n1)
    c = (d2 - d1) / (n2 - n0)
    b = d1 - c * (n0 + n1)
    a = s0 - b * n0 - c * n0 * n0
    coefficients = (a, b, c)
    if any(x.denominator != 1 for x in coefficients) or any(a + b * n + c * n * n != s for n, s in zip(counts, sizes)):
        raise ValueError(f"{env_id}: observation sizes {dict(zip(counts, sizes))} are not a + b·n + c·n²")
    return int(a), int(b), int(c)


def size_formula(env_id: str) -> str:
    """``1178 + 322 × players``; ``386 + 108 × players + players²``."""
    a, b, c = size_coefficients(env_id)
    terms = [str(a)] if a else []
    if b:
        terms.append("players" if b == 1 else f"{b} × players")
    if c:
        terms.append("players²" if c == 1 else f"{c} × players²")
    return " + ".join(terms) or "0"


def env_table(link_prefix: str) -> str:
    rows = [
        "| env id | game | players | actions | observation size | at the default count |",
        "|---|---|---|---:|---|---:|",
    ]
    for entry in registry.describe():
        env_id = entry["env_id"]
        game = smuggle_envs.make_game(env_id)
        folder = type(game).__module__.split(".")[2]  # smuggle_envs.games.<folder>.game
        page = ROOT / "docs" / "rules" / f"{folder}.md"
        if not page.exists():
            raise FileNotFoundError(f"{env_id}: no rules page {page.relative_to(ROOT)}")
        rows.append(
            f"| `{env_id}` | [{entry['game']}]({link_prefix}{folder}.md) | {entry['players']} "
            f"| {num_actions(env_id)} | {size_formula(env_id)} "
            f"| {obs_size(env_id, game.num_players):,} at {game.num_players} |"
        )
    return "\n".join(rows)


def _rate(rate: dict) -> str:
    lo, hi = rate["ci"]
    return f"{100 * rate['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _reproduced(record: dict | None) -> str:
    """What running the model's recorded command again gave (the manifest's ``reproduced``)."""
    return f"{record['date']}, at {record['code']}: {record['result']}" if record else "not checked"


def zoo_cost_table(entries: dict) -> str:
    """What each zoo model cost to make, from its manifest entry: its recipe, the steps taken,
    wall minutes and cores, the machine, the commit, its value head where it has one, and what
    its recorded command gave when it was run again."""
    rows = [
        "| model | recipe | trained steps (checkpoint) | wall min | cores | machine | commit | value head (held-out MSE / baseline) | its command run again |",
        "|---|---|---:|---:|---:|---|---|---|---|",
    ]
    for key in sorted(entries):
        e = entries[key]
        value = e.get("value")
        head = (
            f"fitted: {value['held_out_mse']:.3f} / {value['baseline_mse']:.3f}" if value else e.get("critic", "none")
        )
        start = f", from `{e['init']['file']}`" if e.get("init") else ""
        rows.append(
            f"| `zoo:{key}` | {e.get('recipe', '-')}{start} | {e['trained_steps']:,} ({e['checkpoint']}) "
            f"| {e['wall_minutes']} | {e.get('cores', '-')} | {e.get('hardware', '-')} | {e['commit']} | {head} "
            f"| {_reproduced(e.get('reproduced'))} |"
        )
    return "\n".join(rows)


def zoo_table(kind: str) -> str:
    from agents.zoo import manifest

    entries = manifest()
    if kind == "cost":
        return zoo_cost_table(entries)
    if kind == "headline":
        rows = [
            "| model | vs 3 random agents | vs 3 rule bots | mixed field: win rate (place) |",
            "|---|---:|---:|---:|",
        ]
        for env_id in smuggle_envs.ENV_IDS:
            key = next((k for k in entries if k.startswith(env_id + "@")), None)
            if key is None:
                continue
            m = entries[key]["eval"]
            mixed = m.get("mixed")
            field = f"{100 * mixed['win_rate']:.1f}% ({mixed['rank_rating']} of {mixed['agents']})" if mixed else "-"
            rows.append(f"| `zoo:{key}` | {_rate(m['random'])} | {_rate(m['rule'])} | {field} |")
        return "\n".join(rows)
    rows = [
        "| model | training | vs 3 random | vs 3 rule bots | mixed field: win rate | place (rating / wins) | goal |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for key in sorted(entries):
        e, m = entries[key], entries[key]["eval"]
        mixed = m.get("mixed")
        place = f"{mixed['rank_rating']} / {mixed['rank_win_rate']} of {mixed['agents']}" if mixed else "-"
        goal = "met" if all(m["goal"].values()) else "not met: " + ", ".join(k for k, v in m["goal"].items() if not v)
        rows.append(
            f"| `zoo:{key}` | {e['steps'] // 1000}k steps ({e['checkpoint']}), {e['wall_minutes']} min "
            f"| {_rate(m['random'])} | {_rate(m['rule'])} | {_rate(mixed) if mixed else '-'} | {place} | {goal} |"
        )
    return "\n".join(rows)


def budget_tables() -> str:
    rows = ["| option | value |", "|---|---|"]
    rows += [f"| `{option}` | {value} |" for option, value in doc_commands.SMALL.items()]
    rows += ["", "and in `smuggle train`, these `--set KEY=VALUE` settings replace the page's or are added:", ""]
    rows += ["| setting | value |", "|---|---|"]
    rows += [f"| `{key}` | {value} |" for key, value in doc_commands.SMALL_SETTINGS.items()]
    expert = (
        "and in an expert-iteration run (`smuggle train --teacher SPEC`), these instead, the teacher's "
        f"`sims=` set to {doc_commands.EXPERT_SIMS} and `{' '.join(doc_commands.EXPERT_ADDED)}` added:"
    )
    rows += ["", expert]
    rows += ["", "| setting | value |", "|---|---|"]
    rows += [f"| `{key}` | {value} |" for key, value in doc_commands.EXPERT_SETTINGS.items()]
    rows += ["", "and these options are added where the command lacks them:", ""]
    rows += ["| command | added |", "|---|---|"]
    rows += [f"| `{name}` | `{' '.join(added)}` |" for name, added in doc_commands.ADDED.items()]
    return "\n".join(rows)


def data_table(name: str) -> str:
    """The Markdown table stored in ``docs/img/data/<name>.json`` under ``"table"``, or for
    ``<name>/<key>`` under ``"tables"`` -> ``key``."""
    name, _, key = name.partition("/")
    data = json.loads((ROOT / "docs" / "img" / "data" / f"{name}.json").read_text(encoding="utf-8"))
    table = data["tables"][key] if key else data["table"]
    align = {"l": "---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(table["headers"]) + " |", "|" + "|".join(align[a] for a in table["align"]) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in table["rows"]]
    return "\n".join(lines)


def text_prompt(env_id: str, seed: int, decisions: int, history: int) -> str:
    """The prompt of the seat deciding after ``decisions`` decisions of deal ``seed`` played by
    rule bots (seeded: the same text every time), as a fenced ``text`` block."""
    from agents import make_agent
    from agents.arena import play
    from smuggle_envs.text import observe

    game = smuggle_envs.make_game(env_id)
    bots = [make_agent("rule", game, seed=i) for i in range(game.num_players)]
    state = play(game, bots, seed, max_decisions=decisions).state
    if state.is_terminal():
        raise ValueError(f"{env_id} deal {seed} is over before {decisions} decisions: no prompt to show")
    prompt = observe(state, state.current_player(), history=history).prompt
    return "```text\n" + prompt.rstrip("\n") + "\n```"


def update(text: str) -> str:
    """``text`` with every generated block rewritten from the code."""

    def layout(m: re.Match) -> str:
        table = smuggle_envs.make_game(m.group(2), num_players=int(m.group(3))).observation_layout.table()
        return m.group(1) + table + m.group(5)

    def inline(m: re.Match) -> str:
        kind, env_id, players = m.group(2), m.group(3), m.group(4)
        if kind == "actions":
            value = str(num_actions(env_id))
        elif players:
            value = f"{obs_size(env_id, int(players)):,}"
        else:
            value = size_formula(env_id)
        return m.group(1) + value + m.group(6)

    text = LAYOUT.sub(layout, text)
    text = ENV_TABLE.sub(lambda m: m.group(1) + env_table(m.group(2)) + "\n" + m.group(4), text)
    text = ZOO_TABLE.sub(lambda m: m.group(1) + zoo_table(m.group(2)) + "\n" + m.group(4), text)
    text = BUDGETS.sub(lambda m: m.group(1) + budget_tables() + "\n" + m.group(3), text)
    text = PACKAGE_MAP.sub(lambda m: m.group(1) + package_map.package_map() + "\n" + m.group(3), text)
    text = PLUGIN_LAYERS.sub(lambda m: m.group(1) + plugin_layers.plugin_layers() + "\n" + m.group(3), text)
    text = DATA_TABLE.sub(lambda m: m.group(1) + data_table(m.group(2)) + "\n" + m.group(4), text)
    text = PROMPT.sub(
        lambda m: m.group(1) + text_prompt(m.group(2), *map(int, m.group(3, 4, 5))) + "\n" + m.group(7), text
    )
    return INLINE.sub(inline, text)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if any block is stale")
    args = parser.parse_args(argv)
    stale = []
    for path in documents():
        text = path.read_text(encoding="utf-8")
        new = update(text)
        if new == text:
            continue
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        stale.append(name)
        if not args.check:
            path.write_text(new, encoding="utf-8")
            print(f"updated {name}")
    if args.check and stale:
        names = ", ".join(map(str, stale))
        print(f"stale generated blocks in {names}: run python scripts/update_docs.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
