"""Every picture in the docs, and the one command that makes them again.

    python scripts/make_figures.py               # redraw every figure whose data the repo keeps
    python scripts/make_figures.py --measure     # measure the cheap ones again first (seconds), then redraw
    python scripts/make_figures.py --all         # --measure, and the browser screenshots (chromium)
    python scripts/make_figures.py --all --long  # every figure measured again: the long runs too (hours)
    python scripts/make_figures.py --only zoo.png tournament_ratings.png
    python scripts/make_figures.py --store-curve zoo_curve_smuggle_v0.png runs/zoo/smuggle_v0/eval.csv
    python scripts/make_figures.py --list        # the table: figure, producer, data, how it is made
    python scripts/make_figures.py --check       # exit 1 on a docs image nobody produces

``FIGURES`` is the table of every image in ``docs/img``: the code that draws it (the same
function the benchmark or the command uses), the data it is drawn from and how those data are
made. A figure is of one of four kinds:

``stored``
    drawn from numbers kept in the repo (``docs/img/data/``, ``agents/zoo/models.json``):
    redrawn by every run of this script.
``cheap``
    its data come from a command of seconds (a tournament of rule bots and random agents):
    ``--measure`` runs it again (same seeds, same numbers) and stores the data in
    ``docs/img/data/``; then as ``stored``.
``run``
    its data come from a long run (a training, a best-response table: minutes to an hour on 2
    cores). The producer saves them beside the figure (``benchmarks/exploit_table.py`` and
    ``benchmarks/train_scaling.py`` do; a learning curve's ``eval.csv`` is stored with
    ``--store-curve``); ``--long`` runs each producing command (its fixed seed gives the same
    numbers) and stores the data; until they are stored, the figure is kept as it is and listed.
``screenshot``
    ``scripts/web_screenshots.py`` drives the app in headless chromium (``--web`` or ``--all``;
    ``bash scripts/browser.sh`` installs it).

The plotting code follows the same rules everywhere: axes say their units and counts, intervals
are drawn where the tables have them, chance (1 / players) is a dashed line, legends stay off the
data, and the tournament's ratings mark the agents whose intervals overlap ("not separated").

``--check`` (run by tests/docs/test_figures.py) finds every image that README.md, docs/**/*.md
and notebooks/*.ipynb show and every file in ``docs/img``, and fails on one the table does not
list, on a listed figure that is missing, and on a ``stored`` or ``cheap`` figure whose data are
missing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

IMG = ROOT / "docs" / "img"
DATA = IMG / "data"
GAMES = ("smuggle_v0", "ciq_v0", "illegal_v0", "humble_smuggle_v0", "import_export_v0")
IMAGE = re.compile(r"""(?:!?\[[^\]]*\]\(|src=["'])([^)"'\s#?]+\.(?:png|jpe?g|gif|svg|webp))""", re.IGNORECASE)
IMAGE_FILES = ("*.png", "*.jpg", "*.jpeg", "*.gif", "*.svg", "*.webp")

RATINGS_TOURNAMENT = "smuggle tournament smuggle_v0 --players 4 --agents rule,rule,random,random --games 400"
BLUFFING_TOURNAMENT = "smuggle tournament smuggle_v0 --players 4 --agents rule,rule,random,random,random --games 200"

Draw = Callable[[Path, Path], None]
"""Draws a figure: (its data file, the PNG to write)."""


# The games with a recipes_GAME.json (benchmarks/recipes.py --env GAME_v0).
RECIPE_GAMES = ("smuggle", "ciq", "illegal", "humble_smuggle", "import_export")


@dataclass(frozen=True)
class Figure:
    """One image of the docs: its file in ``docs/img``, its kind (see the module docstring), the
    code that draws it, its data (a file name in ``docs/img/data``, or a path in the repo), the
    command that makes the data, and the functions that draw it and (``cheap`` only) measure it."""

    name: str
    kind: str
    producer: str
    data: str
    made_by: str
    draw: Draw | None = None
    measure: Callable[[Path], None] | None = None

    def data_file(self, data_dir: Path = DATA) -> Path | None:
        if not self.data:
            return None
        return ROOT / self.data if "/" in self.data else data_dir / self.data


# ----- the producers, as the benchmarks and commands draw them --------------------------------------
def _script(relative: str) -> ModuleType:
    """A script of the repo (``benchmarks/zoo.py``) as a module."""
    name = "_figure_" + relative.replace("/", "_").removesuffix(".py")
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def draw_zoo(data: Path, png: Path) -> None:
    """``benchmarks/zoo.py --report``'s figure, from the zoo's manifest."""
    entries = json.loads(data.read_text(encoding="utf-8"))
    keys = sorted(k for k in entries if "eval" in entries[k])
    _script("benchmarks/zoo.py").plot(entries, keys, png)


def draw_exploit(data: Path, png: Path) -> None:
    """``benchmarks/exploit_table.py``'s figure, from the rows it saved beside it."""
    _script("benchmarks/exploit_table.py").plot(json.loads(data.read_text(encoding="utf-8"))["rows"], png)


def draw_equilibrium(data: Path, png: Path) -> None:
    """``benchmarks/equilibrium.py``'s figure, from the counts it saved beside it."""
    _script("benchmarks/equilibrium.py").plot(json.loads(data.read_text(encoding="utf-8"))["results"], png)


def draw_recipes(data: Path, png: Path) -> None:
    """``benchmarks/recipes.py``'s figure of one game, from the curves it saved."""
    stored = json.loads(data.read_text(encoding="utf-8"))
    _script("benchmarks/recipes.py").plot(stored["results"], png, stored.get("env_id", "smuggle_v0"))


def draw_scaling(data: Path, png: Path) -> None:
    """``benchmarks/train_scaling.py --from-json``'s figure."""
    module = _script("benchmarks/train_scaling.py")
    module.plot(module.load(str(data)), str(png))


def report_plot(name: str) -> Draw:
    """``benchmarks/NAME.py --report``'s figure: the script's ``plot`` of its stored JSON report
    (``learning_per_step``, ``time_to_strength``, ``compiled_build``, ``league_exploiters``)."""

    def draw(data: Path, png: Path) -> None:
        _script(f"benchmarks/{name}.py").plot(json.loads(data.read_text(encoding="utf-8")), png)

    return draw


def learning_curve(title: str, chance: float) -> Draw:
    """A trainer's ``learning_curve.png`` (``plot_learning_curve``) from a stored ``eval.csv``."""

    def draw(data: Path, png: Path) -> None:
        from training.selfplay.trainer import plot_learning_curve

        plot_learning_curve(data, png, title=title, chance=chance)

    return draw


def draw_ratings(data: Path, png: Path) -> None:
    """``smuggle tournament``'s ``results_t1_ratings.png`` (``plot_ratings``) from stored standings."""
    from training.tournament.report import plot_ratings

    stored = json.loads(data.read_text(encoding="utf-8"))
    plot_ratings(standings_from_json(stored), png, title=stored["title"])


def draw_panels(data: Path, png: Path) -> None:
    """``smuggle analyze``'s figure (``plot_panels``) from stored panel data."""
    from training.analytics import plot_panels

    stored = json.loads(data.read_text(encoding="utf-8"))
    plot_panels(png, stored["title"], stored["names"], panels_from_json(stored["panels"]), games=stored["games"])


# ----- the data of the tournament figures ---------------------------------------------------------
def standings_to_json(standings: Any, title: str, command: str) -> dict[str, Any]:
    """What ``plot_ratings`` reads of a tournament's ``Standings``, as JSON."""
    fields = ("name", "mu", "sigma", "rating", "rating_low", "rating_high", "games", "wins", "score_sum")
    return {
        "command": command,
        "title": title,
        "games": standings.games,
        "deals": standings.deals,
        "bootstrap": standings.bootstrap,
        "names": standings.names,
        "ahead": standings.ahead,
        "met": standings.met,
        "agents": [{f: getattr(s, f) for f in fields} for s in standings.agents],
    }


def standings_from_json(stored: dict[str, Any]) -> Any:
    from training.tournament.ratings import AgentStanding, Standings

    agents = [AgentStanding(**a) for a in stored["agents"]]
    return Standings(
        agents, stored["names"], stored["ahead"], stored["met"], stored["games"], stored["deals"], stored["bootstrap"]
    )


def _value_to_json(value: Any) -> Any:
    from training.analytics import Rate

    if isinstance(value, Rate):
        return [value.num, value.den]  # the counts behind a rate: its Wilson interval is redrawn
    return None if isinstance(value, float) and math.isnan(value) else value


def _value_from_json(value: Any) -> float:
    from training.analytics import rate

    if value is None:
        return math.nan
    return rate(value[0], value[1]) if isinstance(value, list) else float(value)


def panels_to_json(panels: Sequence[Any]) -> list[dict[str, Any]]:
    """``plot_panels``' panels as JSON; a ``rate`` keeps its counts."""
    out = []
    for title, series, unit in panels:
        items = []
        for item in series:
            entry: dict[str, Any] = {"label": item[0], "values": [_value_to_json(v) for v in item[1]]}
            if len(item) > 2:
                entry["intervals"] = [list(iv) if iv is not None else None for iv in item[2]]
            items.append(entry)
        out.append({"title": title, "unit": unit, "series": items})
    return out


def panels_from_json(stored: Sequence[dict[str, Any]]) -> list[Any]:
    panels = []
    for panel in stored:
        series: list[tuple[Any, ...]] = []
        for item in panel["series"]:
            values = [_value_from_json(v) for v in item["values"]]
            if "intervals" in item:
                series.append((item["label"], values, [tuple(iv) if iv else None for iv in item["intervals"]]))
            else:
                series.append((item["label"], values))
        panels.append((panel["title"], series, panel["unit"]))
    return panels


def _smuggle() -> str:
    here = Path(sys.executable).parent / "smuggle"
    found = str(here) if here.exists() else shutil.which("smuggle")
    if not found:
        raise SystemExit("make_figures: the smuggle command is not installed (pip install -e .)")
    return found


def _tournament(command: str, folder: Path) -> tuple[Any, Any]:
    """Run a documented ``smuggle tournament`` command into ``folder``; its database and record."""
    try:
        from training.db import TournamentDB
    except ImportError:  # before the database moved out of training/tournament/
        from training.tournament.db import TournamentDB  # type: ignore[no-redef]

    db_path = folder / "results.sqlite"
    argv = [_smuggle(), *command.split()[1:], "--db", str(db_path), "--out", str(folder), "--workers", "1"]
    subprocess.run([*argv, "--quiet", "--no-plots"], check=True, cwd=folder, stdout=subprocess.DEVNULL)
    db = TournamentDB(db_path, create=False)
    (tid,) = db.tournament_ids()
    return db, db.tournament(tid)


def measure_ratings(data: Path) -> None:
    """The tournament of docs/tournaments.md again (seconds), its standings stored in ``data``."""
    from training.tournament.ratings import compute_standings

    with tempfile.TemporaryDirectory() as tmp:
        db, tournament = _tournament(RATINGS_TOURNAMENT, Path(tmp))
        try:
            standings = compute_standings(tournament.names, db.results(tournament.id))
        finally:
            db.close()
    stored = standings_to_json(standings, f"{tournament.env_id} ratings", RATINGS_TOURNAMENT)
    _write_json(data, stored)


def measure_bluffing(data: Path) -> None:
    """The first tournament of docs/tournaments.md again and its bluffing analytics (seconds)."""
    from training.analytics import analyze_tournament

    with tempfile.TemporaryDirectory() as tmp:
        db, tournament = _tournament(BLUFFING_TOURNAMENT, Path(tmp))
        try:
            analysis = analyze_tournament(db, tournament)
        finally:
            db.close()
    agents = analysis.ordered()
    stored = {
        "command": f"{BLUFFING_TOURNAMENT}; smuggle analyze results.sqlite",
        "title": f"tournament {tournament.id}: {tournament.env_id} {analysis.title}",
        "games": analysis.games,
        "names": [s.name for s in agents],
        "panels": panels_to_json([p.data(agents) for p in analysis.panels]),
    }
    _write_json(data, stored)


def _write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")


# ----- the table ------------------------------------------------------------------------------------
# ----- the long runs (``--long``): minutes to hours each on 2 cores ----------------------------------
def _run(argv: Sequence[str]) -> None:
    """Run a producing command in the repo (``python ARGV...``), its output shown as it goes."""
    subprocess.run([sys.executable, *argv], check=True, cwd=ROOT)


def measure_training(env_id: str) -> Callable[[Path], None]:
    """The benchmark training run of ``env_id`` (``benchmarks/train_smuggle.py``); its eval.csv kept."""

    def measure(data: Path) -> None:
        with tempfile.TemporaryDirectory(prefix="figures-") as tmp:
            _run(["benchmarks/train_smuggle.py", "--env-id", env_id, "--out", tmp])
            _keep(Path(tmp) / env_id / "eval.csv", data)

    return measure


def measure_zoo_curve(key: str) -> Callable[[Path], None]:
    """The zoo model's own training command (``agents/zoo/models.json``), into a fresh folder."""

    def measure(data: Path) -> None:
        import shlex

        command = json.loads((ROOT / "agents" / "zoo" / "models.json").read_text())[key]["command"]
        argv = shlex.split(command)
        if argv[:2] != ["smuggle", "train"]:
            raise SystemExit(f"make_figures: the zoo's command for {key} is not a 'smuggle train' run: {command}")
        with tempfile.TemporaryDirectory(prefix="figures-") as tmp:
            _run(["-m", "training.cli", *argv[1:], "--out", tmp])
            _keep(Path(tmp) / "eval.csv", data)

    return measure


def measure_exploit(target: str, command: str) -> Callable[[Path], None]:
    """``benchmarks/exploit_table.py`` (it saves its data beside the figure); kept as ``data``."""

    def measure(data: Path) -> None:
        import shlex

        with tempfile.TemporaryDirectory(prefix="figures-") as tmp:
            argv = [a for a in shlex.split(command)[1:] if a]
            plot = Path(tmp) / f"exploit_{target}.png"
            _run([*_without(argv, "--plot"), "--plot", str(plot)])
            _keep(Path(tmp) / "data" / f"exploit_{target}.json", data)

    return measure


def _without(argv: list[str], option: str) -> list[str]:
    """``argv`` less ``option`` and its value."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == option:
            skip = True
        else:
            out.append(a)
    return out


def _keep(produced: Path, data: Path) -> None:
    if not produced.exists():
        raise SystemExit(f"make_figures: the run finished without writing {produced}")
    data.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(produced, data)


def _curves() -> list[Figure]:
    figures = []
    for env_id in GAMES:
        draw = learning_curve(f"{env_id}, 4 players", 0.25)
        figures.append(
            Figure(
                f"training_{env_id}.png",
                "run",
                "training.selfplay.trainer.plot_learning_curve (the run's learning_curve.png)",
                f"training_{env_id}.csv",
                f"python benchmarks/train_smuggle.py --env-id {env_id} (15 to 25 minutes), then "
                f"--store-curve training_{env_id}.png runs/benchmark/{env_id}/eval.csv",
                draw,
                measure_training(env_id),
            )
        )
        figures.append(
            Figure(
                f"zoo_curve_{env_id}.png",
                "run",
                "training.selfplay.trainer.plot_learning_curve (the run's learning_curve.png)",
                f"zoo_curve_{env_id}.csv",
                f"the zoo model's training command (smuggle zoo; 4 to 9 minutes), then "
                f"--store-curve zoo_curve_{env_id}.png RUN_DIR/eval.csv",
                draw,
                measure_zoo_curve(f"{env_id}@4"),
            )
        )
    return figures


WEB_PLAY_GAMES = ("smuggle", "ciq", "illegal", "humble_smuggle", "import_export")  # a play page each, 1366x768


def _screenshots() -> list[Figure]:
    return [
        Figure(f"web_{n}.png", "screenshot", "scripts/web_screenshots.py", "", "python scripts/web_screenshots.py")
        for n in ("lobby", "table", "bid", "replay", *(f"play_{g}" for g in WEB_PLAY_GAMES))
    ]


def _measured() -> list[Figure]:
    exploit = {
        "rule": "python benchmarks/exploit_table.py",
        "zoo": "python benchmarks/exploit_table.py --target zoo --out runs/exploit_zoo --plot docs/img/exploit_zoo.png",
    }
    return [
        Figure(
            "zoo.png",
            "stored",
            "benchmarks/zoo.py: plot",
            "agents/zoo/models.json",
            "python benchmarks/zoo.py",
            draw_zoo,
        ),
        *(
            Figure(
                f"exploit_{t}.png",
                "run",
                "benchmarks/exploit_table.py: plot",
                f"exploit_{t}.json",
                exploit[t] + " (about 12 to 25 minutes)",
                draw_exploit,
                measure_exploit(t, exploit[t]),
            )
            for t in ("rule", "zoo")
        ),
        Figure(
            "equilibrium.png",
            "stored",
            "benchmarks/equilibrium.py: plot",
            "equilibrium.json",
            "python benchmarks/equilibrium.py (about 10 minutes)",
            draw_equilibrium,
        ),
        *(
            Figure(
                f"recipes_{name}.png",
                "stored",
                "benchmarks/recipes.py: plot",
                f"recipes_{name}.json",
                f"python benchmarks/recipes.py --env {name}_v0 --run LABEL=RUN_DIR ... (a minute or two a run; the runs: docs/zoo.md)",
                draw_recipes,
            )
            for name in RECIPE_GAMES
        ),
        Figure(
            "train_scaling.png",
            "stored",
            "benchmarks/train_scaling.py: plot",
            "train_scaling.json",
            "python benchmarks/train_scaling.py --steps 32768 --repeats 3 (about 10 minutes)",
            draw_scaling,
        ),
    ]


def _training_speed() -> list[Figure]:
    return [
        Figure(
            "learning_per_step.png",
            "stored",
            "benchmarks/learning_per_step.py: plot",
            "learning_per_step.json",
            "python benchmarks/learning_per_step.py --reference TREE --seeds 0,1,2 (about 25 minutes on 2 cores)",
            report_plot("learning_per_step"),
        ),
        Figure(
            "time_to_strength.png",
            "stored",
            "benchmarks/time_to_strength.py: plot",
            "time_to_strength.json",
            "python benchmarks/time_to_strength.py --seeds 0,1,2 (about 20 minutes on 2 cores)",
            report_plot("time_to_strength"),
        ),
        Figure(
            "compiled_build.png",
            "stored",
            "benchmarks/compiled_build.py: plot",
            "compiled_build.json",
            "python benchmarks/compiled_build.py --rounds 3 --seconds 2 (about 3 minutes on 2 cores, after a build of a few)",
            report_plot("compiled_build"),
        ),
        Figure(
            "league_exploiters.png",
            "stored",
            "benchmarks/league_exploiters.py: plot",
            "league_exploiters.json",
            "python benchmarks/league_exploiters.py --seeds 0,1,2 --jobs 2 (about 30 minutes on 2 cores)",
            report_plot("league_exploiters"),
        ),
    ]


def _tournaments() -> list[Figure]:
    return [
        Figure(
            "tournament_ratings.png",
            "cheap",
            "training/tournament/report.py: plot_ratings",
            "tournament_ratings.json",
            RATINGS_TOURNAMENT,
            draw_ratings,
            measure_ratings,
        ),
        Figure(
            "tournament_bluffing.png",
            "cheap",
            "training/analytics/_common.py: plot_panels (SmuggleAnalysis.plot)",
            "tournament_bluffing.json",
            f"{BLUFFING_TOURNAMENT}; smuggle analyze results.sqlite",
            draw_panels,
            measure_bluffing,
        ),
    ]


def draw_lie_detection(data: Path, png: Path) -> None:
    """``benchmarks/lie_detection.py``'s figure (``plot_lie_detection``) from the JSON it writes."""
    from training.bluffing.plots import plot_lie_detection

    plot_lie_detection(json.loads(data.read_text(encoding="utf-8")), png)


def measure_lie_detection(data: Path) -> None:
    """``benchmarks/lie_detection.py`` at its default budget; its JSON kept as ``data``."""
    with tempfile.TemporaryDirectory(prefix="figures-") as tmp:
        _run(["benchmarks/lie_detection.py", "--data", str(data), "--plot", str(Path(tmp) / "lie_detection.png")])


def _bluffing() -> list[Figure]:
    return [
        Figure(
            "lie_detection.png",
            "run",
            "training/bluffing/plots.py: plot_lie_detection (benchmarks/lie_detection.py)",
            "lie_detection.json",
            "python benchmarks/lie_detection.py (about 15 minutes on one quiet core; 40 on a loaded machine)",
            draw_lie_detection,
            measure_lie_detection,
        )
    ]


def draw_bench_card(data: Path, png: Path) -> None:
    """A ``smuggle bench`` scorecard's picture (``training/bench/plot.py``) from its stored JSON."""
    from training.bench.plot import draw

    draw(json.loads(data.read_text(encoding="utf-8")), png)


def measure_bench_card(data: Path) -> None:
    """The leaderboard's quick card of the zoo's Smuggle model made again (it is stored in
    ``docs/img/data/bench/``), then kept as ``data``."""
    _run(["-m", "training.bench.leaderboard", "--run", "zoo", "--envs", "smuggle_v0"])
    stored = ROOT / "docs/img/data/bench/smuggle_v0/zoo.json"
    if data.resolve() != stored.resolve():
        shutil.copyfile(stored, data)


def _bench() -> list[Figure]:
    return [
        Figure(
            "bench_zoo_smuggle.png",
            "run",
            "training/bench/plot.py: draw (smuggle bench)",
            "docs/img/data/bench/smuggle_v0/zoo.json",
            "python -m training.bench.leaderboard --run zoo --envs smuggle_v0 (a few minutes)",
            draw_bench_card,
            measure_bench_card,
        )
    ]


FIGURES: dict[str, Figure] = {
    f.name: f
    for f in [*_measured(), *_training_speed(), *_tournaments(), *_bluffing(), *_bench(), *_curves(), *_screenshots()]
}


def table(data_dir: Path = DATA) -> str:
    """``FIGURES`` as a markdown table, with whether each figure's data are here."""
    lines = ["| figure | kind | producer | data | made by |", "|---|---|---|---|---|"]
    for f in FIGURES.values():
        where = f.data_file(data_dir)
        if where is None:
            data = "-"
        else:
            shown = where.relative_to(ROOT) if where.is_relative_to(ROOT) else where
            data = f"`{shown}`" + ("" if where.exists() else " (not stored)")
        lines.append(f"| `{f.name}` | {f.kind} | {f.producer} | {data} | `{f.made_by}` |")
    return "\n".join(lines)


# ----- the check ------------------------------------------------------------------------------------
def pages(root: Path = ROOT) -> list[Path]:
    """The pages whose images are checked: README.md, docs/**/*.md, notebooks/*.ipynb."""
    found = [root / "README.md"] if (root / "README.md").exists() else []
    return found + sorted((root / "docs").rglob("*.md")) + sorted((root / "notebooks").glob("*.ipynb"))


def _page_texts(page: Path) -> list[str]:
    """A page's text; a notebook's cell sources, one a text."""
    text = page.read_text(encoding="utf-8")
    if page.suffix != ".ipynb":
        return [text]
    cells = json.loads(text).get("cells", [])
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells]


def referenced(root: Path = ROOT) -> dict[Path, list[str]]:
    """Every local image the pages show (markdown images and links, ``<img src>``), resolved, with
    the pages that show it."""
    shown: dict[Path, list[str]] = {}
    for page in pages(root):
        for text in _page_texts(page):
            for match in IMAGE.finditer(text):
                target = match.group(1)
                if "://" in target or target.startswith(("/", "data:")):
                    continue
                path = (page.parent / target).resolve()
                shown.setdefault(path, []).append(str(page.relative_to(root)))
    return shown


def unproduced(root: Path = ROOT, listed: Sequence[str] | None = None) -> list[str]:
    """The images nobody produces: shown by a page or kept in ``docs/img`` but not in the table
    (``listed``: the figure names; default ``FIGURES``), or shown but absent."""
    listed = list(FIGURES) if listed is None else list(listed)
    img = (root / "docs" / "img").resolve()
    problems = []
    shown = referenced(root)
    for path, where in sorted(shown.items()):
        name = path.relative_to(root.resolve()) if path.is_relative_to(root.resolve()) else path
        if path.parent != img or path.name not in listed:
            problems.append(f"{name} (shown by {', '.join(sorted(set(where)))}) is not in make_figures.FIGURES")
        elif not path.exists():
            problems.append(f"{name} (shown by {', '.join(sorted(set(where)))}) does not exist")
    kept = sorted(p.resolve() for pattern in IMAGE_FILES for p in img.glob(pattern)) if img.is_dir() else []
    problems += [
        f"docs/img/{p.name} is in no row of make_figures.FIGURES"
        for p in kept
        if p.name not in listed and p not in shown
    ]
    return problems


def check(root: Path = ROOT) -> list[str]:
    """``unproduced`` and the table's own promises: every figure exists, and a ``stored`` or
    ``cheap`` figure's data are here."""
    problems = unproduced(root)
    for f in FIGURES.values():
        if not (root / "docs" / "img" / f.name).exists():
            problems.append(f"docs/img/{f.name} is in make_figures.FIGURES but does not exist")
        data = f.data_file()
        if f.kind in ("stored", "cheap") and data is not None and not data.exists():
            problems.append(f"docs/img/{f.name}: its data {data.relative_to(ROOT)} are missing ({f.made_by})")
    return problems


# ----- making them ----------------------------------------------------------------------------------
def make(figure: Figure, out: Path, data_dir: Path, measure: bool, long: bool = False) -> str:
    """Measure (``cheap`` figures with ``measure``; ``run`` figures with ``long``) and draw one
    figure; what was done."""
    data = figure.data_file(data_dir)
    if figure.draw is None or data is None:
        return f"kept {figure.name}: a {figure.kind} ({figure.made_by})"
    measure = (measure and figure.kind == "cheap") or (long and figure.kind == "run")
    if measure and figure.measure is not None:
        figure.measure(data)
    if not data.exists():
        return f"kept {figure.name}: its data are not stored; measure: {figure.made_by}"
    out.mkdir(parents=True, exist_ok=True)
    figure.draw(data, out / figure.name)
    return f"{'measured and drew' if measure and figure.measure else 'drew'} {figure.name} from {data.name}"


def screenshots(out: Path) -> str:
    """``scripts/web_screenshots.py`` into ``out``, where chromium is installed."""
    if not (shutil.which("chromium") or Path("/usr/bin/chromium").exists()):
        return "kept web_*.png: no chromium here (bash scripts/browser.sh installs it)"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "web_screenshots.py"), "--out", str(out)], check=True)
    return "made web_lobby.png, web_table.png, web_bid.png, web_replay.png (scripts/web_screenshots.py)"


def store_curve(name: str, csv_path: Path, data_dir: Path) -> Path:
    """Keep a run's ``eval.csv`` as the data of the learning-curve figure ``name``."""
    figure = FIGURES.get(name)
    if figure is None or not figure.data.endswith(".csv"):
        curves = ", ".join(n for n, f in FIGURES.items() if f.data.endswith(".csv"))
        raise SystemExit(f"make_figures: {name} is not a learning curve; they are {curves}")
    target = figure.data_file(data_dir)
    assert target is not None
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(csv_path, target)
    return target


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 on an image nobody produces")
    p.add_argument("--list", action="store_true", help="print the table of figures, producers and data")
    p.add_argument("--measure", action="store_true", help="measure the cheap figures' data again first")
    p.add_argument("--web", action="store_true", help="also the browser screenshots (chromium)")
    p.add_argument(
        "--long", action="store_true", help="also run the long measurements (trainings, best responses: hours)"
    )
    p.add_argument("--all", action="store_true", help="--measure and --web")
    p.add_argument("--only", nargs="+", metavar="NAME", choices=sorted(FIGURES), help="these figures only")
    p.add_argument("--store-curve", nargs=2, metavar=("NAME", "EVAL_CSV"), help="keep a run's eval.csv, draw it")
    p.add_argument("--out", type=Path, default=IMG, help="folder for the PNG files (default docs/img)")
    p.add_argument("--data", type=Path, default=DATA, help="folder of the figures' data (default docs/img/data)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.check:
        problems = check()
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    if args.list:
        print(table(args.data))
        return 0
    names = args.only or list(FIGURES)
    if args.store_curve:
        print(f"stored {store_curve(args.store_curve[0], Path(args.store_curve[1]), args.data)}")
        names = [args.store_curve[0]]
    for name in names:
        figure = FIGURES[name]
        if figure.kind != "screenshot":
            print(make(figure, args.out, args.data, args.measure or args.all, args.long), flush=True)
    if any(FIGURES[n].kind == "screenshot" for n in names):
        print(screenshots(args.out) if args.web or args.all else "kept web_*.png: screenshots need --web")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
