"""Every picture in the docs is produced by a script in the repo (scripts/make_figures.py, its
table of figure -> producer -> data), is redrawn from the data the repo keeps, and the cheap
ones' data are what their commands give today."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_spec = importlib.util.spec_from_file_location("make_figures", ROOT / "scripts" / "make_figures.py")
assert _spec is not None and _spec.loader is not None
mf = importlib.util.module_from_spec(_spec)
sys.modules["make_figures"] = mf
_spec.loader.exec_module(mf)

PNG = b"\x89PNG\r\n\x1a\n"


def test_every_image_of_the_docs_is_in_the_table_of_figures_and_its_data_are_kept():
    done = subprocess.run(
        [sys.executable, "scripts/make_figures.py", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    shown = {p.name for p in mf.referenced() if p.parent == ROOT / "docs" / "img"}
    assert {"tournament_bluffing.png", "tournament_ratings.png", "zoo.png", "web_table.png"} <= shown


def test_the_check_fails_on_an_image_nobody_produces(tmp_path):
    img = tmp_path / "docs" / "img"
    img.mkdir(parents=True)
    for name in ("zoo.png", "stray.png", "orphan.png"):
        (img / name).write_bytes(PNG)
    (tmp_path / "README.md").write_text("![zoo](docs/img/zoo.png) and [a stray](docs/img/stray.png)\n")
    (tmp_path / "docs" / "page.md").write_text(
        '![gone](img/gone.png) <img src="img/zoo.png"> ![web](https://x/y.png)\n'
    )
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    cell = {"cell_type": "markdown", "source": ["![nb](../docs/img/nb.png)"], "metadata": {}}
    (notebooks / "n.ipynb").write_text(json.dumps({"cells": [cell]}))
    problems = mf.unproduced(tmp_path, listed=["zoo.png", "gone.png"])
    assert len(problems) == 4, problems
    assert any(p.startswith("docs/img/stray.png (shown by README.md) is not in") for p in problems)
    assert any(p.startswith("docs/img/nb.png (shown by notebooks/n.ipynb) is not in") for p in problems)
    assert any(p.startswith("docs/img/gone.png (shown by docs/page.md) does not exist") for p in problems)
    assert "docs/img/orphan.png is in no row of make_figures.FIGURES" in problems
    assert mf.unproduced(tmp_path, listed=["zoo.png", "gone.png", "stray.png", "orphan.png", "nb.png"]) == [
        "docs/img/gone.png (shown by docs/page.md) does not exist",
        "docs/img/nb.png (shown by notebooks/n.ipynb) does not exist",
    ]


def test_every_figure_whose_data_are_kept_is_redrawn_from_them(tmp_path, capsys):
    assert mf.main(["--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    kept = [f for f in mf.FIGURES.values() if f.draw is not None and f.data_file().exists()]
    assert {f.name for f in kept} >= {
        "zoo.png",
        "train_scaling.png",
        "tournament_ratings.png",
        "tournament_bluffing.png",
    }
    for figure in kept:
        assert (tmp_path / figure.name).read_bytes()[:8] == PNG, figure.name
        assert f"drew {figure.name} from" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f.name for f in kept)
    assert "kept web_*.png: screenshots need --web" in out


def test_the_stored_tournament_data_redraw_the_leaderboards_intervals_and_separation(tmp_path):
    from training.tournament.report import not_separated, plot_ratings

    stored = json.loads((mf.DATA / "tournament_ratings.json").read_text())
    standings = mf.standings_from_json(stored)
    assert mf.standings_to_json(standings, stored["title"], stored["command"]) == stored
    assert not_separated(standings) == [["rule#2", "rule"], ["random", "random#2"]]
    figure = plot_ratings(standings, tmp_path / "r.png", title="t")
    rating_ax, win_ax = figure.axes
    texts = [t.get_text() for t in rating_ax.texts]
    assert texts.count("a") == 2 and texts.count("b") == 2
    assert any(line.get_linestyle() == "--" and line.get_xdata()[0] == 25.0 for line in win_ax.lines)


def test_stored_panels_keep_the_counts_behind_their_rates():
    from training.analytics import Rate, wilson_bounds

    stored = json.loads((mf.DATA / "tournament_bluffing.json").read_text())
    panels = mf.panels_from_json(stored["panels"])
    assert mf.panels_to_json(panels) == stored["panels"]
    lie_rates = panels[0][1][0][1]
    assert all(isinstance(v, Rate) and wilson_bounds(v) is not None for v in lie_rates)
    assert stored["games"] == 200 and stored["names"][:2] == ["rule", "rule#2"]


def test_the_figures_commands_are_the_ones_the_docs_show():
    tournaments = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
    assert mf.RATINGS_TOURNAMENT.replace("smuggle tournament ", "$ smuggle tournament ") in tournaments
    assert mf.BLUFFING_TOURNAMENT in tournaments


def _rounded(value):
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("name", ["tournament_ratings.png", "tournament_bluffing.png"])
def test_the_cheap_figures_data_are_what_their_commands_give_today(name, tmp_path):
    figure = mf.FIGURES[name]
    assert figure.kind == "cheap" and figure.measure is not None
    fresh = tmp_path / figure.data
    figure.measure(fresh)
    kept = figure.data_file()
    assert _rounded(json.loads(fresh.read_text())) == _rounded(json.loads(kept.read_text())), (
        f"{name}: the games give other numbers than docs/img/data/{figure.data}; run "
        f"python scripts/make_figures.py --measure --only {name}"
    )


def test_every_long_run_figure_can_be_measured_again_by_the_one_command():
    long = [f for f in mf.FIGURES.values() if f.kind == "run"]
    assert long and all(f.measure is not None and f.draw is not None for f in long)


def test_a_long_measurement_runs_its_command_and_keeps_its_data(tmp_path, monkeypatch):
    """``--long``: the producing command runs (here faked: it writes what the real one writes) and
    its data are kept beside the figure, which is then drawn from them."""
    ran: list[list[str]] = []
    curve = "step,opponent,win_rate,low,high,games\n0,rule,0.25,0.2,0.3,100\n10000,rule,0.4,0.35,0.45,100\n"

    def fake_run(argv):
        ran.append(list(argv))
        out = Path(argv[argv.index("--out") + 1])
        if "train_smuggle.py" in argv[0]:
            (out / argv[argv.index("--env-id") + 1]).mkdir(parents=True)
            (out / argv[argv.index("--env-id") + 1] / "eval.csv").write_text(curve)
        else:
            (out / "eval.csv").write_text(curve)

    monkeypatch.setattr(mf, "_run", fake_run)
    drawn: list[Path] = []
    for name in ("training_ciq_v0.png", "zoo_curve_ciq_v0.png"):
        figure = mf.FIGURES[name]
        message = mf.make(
            mf.Figure(
                figure.name,
                figure.kind,
                figure.producer,
                figure.data,
                figure.made_by,
                lambda data, png: drawn.append(data),
                figure.measure,
            ),
            tmp_path / "img",
            tmp_path / "data",
            measure=False,
            long=True,
        )
        assert message.startswith("measured and drew") and (tmp_path / "data" / figure.data).read_text() == curve
    assert ran[0][:3] == ["benchmarks/train_smuggle.py", "--env-id", "ciq_v0"]
    zoo = json.loads((ROOT / "agents" / "zoo" / "models.json").read_text())["ciq_v0@4"]["command"]
    assert ran[1][:3] == ["-m", "training.cli", "train"] and "--steps" in ran[1] and zoo.split()[2] in ran[1]
    assert len(drawn) == 2
