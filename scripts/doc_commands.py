"""Every shell command shown in README.md, docs/**/*.md and notebooks/*.ipynb, and how the test
suite runs it (tests/docs/test_commands.py). Documented in docs/docs.md, "Shell commands".

    python scripts/doc_commands.py            # list every command: run, illustrative or tested by
    python scripts/doc_commands.py --run      # run them as the test suite does (small budgets)

**What is a command.** Each line of a fenced block tagged ``bash``, ``sh``, ``shell`` or
``console`` (in a ``console`` block, the lines starting with ``$``; a line ending in ``\\``
continues on the next), in Markdown files and in the notebooks' Markdown cells; in a notebook's
code cells, a line starting with ``!``.

**Its status**, from its trailing comment (or a comment opening the block, for every command of
the block):

* ``# illustrative: WHY`` -- shown, not run (a set-up command, a server, an interactive game, a
  measurement that takes minutes to hours). It is still checked statically (below).
* ``# tested by tests/PATH.py ...`` -- run by that test, which must exist and name the script.
* anything else -- **run** by the test suite, in document order, one sandbox folder per page,
  with the budgets below substituted, and it must exit with 0.

**Budgets.** A run command's option values are replaced by small ones (``SMALL``), ``--set``
values of ``smuggle train`` likewise (``SMALL_SETTINGS``, added when absent), and a few options
are added when absent (``ADDED``), so that training runs a few hundred steps and a tournament a
few games. What a command prints is not compared with the page.

**Static checks**, for every command and for every inline code span in prose that starts with a
program (``smuggle``, ``python``, ``bash``, ``pip``, ...): a ``smuggle`` command must parse with
the real argument parser (upper-case words such as ``DB`` or ``GAME_ID`` stand for values; in an
inline span only the subcommand and the option names are checked), a script must exist and
define the options given to it, a ``pip install`` may name only extras that ``pyproject.toml``
defines. Paths in code spans that start with a top-level folder of the repository must exist.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SHELL_BLOCKS = {"bash", "sh", "shell", "console", "shell-session", "zsh"}
PROGRAMS = ("smuggle", "python", "python3", "bash", "pip", "jupyter", "tensorboard", "mkdocs", "nice", "taskset")
TOP_FOLDERS = ("smuggle_envs", "agents", "training", "tests", "benchmarks", "examples", "scripts", "docs", "notebooks")

# The budgets of run commands (docs/docs.md shows these tables; update_docs.py writes them there).
SMALL = {
    "--steps": "256",
    "--games": "2",
    "--eval-games": "4",
    "--eval-every": "128",
    "--frames": "256",
    "--iterations": "1",
    "--rollout": "128",
    "--seconds": "0.2",
    "--repeats": "1",
    "--bootstrap": "20",
}
SMALL_SETTINGS = {  # smuggle train --set KEY=VALUE
    "imitation_samples": "256",
    "imitation_epochs": "1",
    "n_steps": "64",
    "batch_size": "64",
    "n_epochs": "1",
    "eval_every": "256",
    "eval_games": "4",
    "snapshot_every": "128",
    "checkpoint_every": "128",
    "tensorboard": "false",
}
EXPERT_SETTINGS = {  # smuggle train --teacher ... --set KEY=VALUE (expert iteration's own settings)
    "rounds": "1",
    "games_per_round": "1",
    "max_decisions": "200",
    "eval_games": "2",
    "imitation_samples": "256",
    "imitation_epochs": "1",
}
EXPERT_SIMS = "2"  # the teacher's ``sims=N`` in an expert-iteration run command
ADDED = {  # options added where a run command lacks them
    "smuggle train": ["--steps", "256", "--n-envs", "2", "--eval-games", "4", "--no-progress"],
    "smuggle exploit": [
        "--steps",
        "256",
        "--games",
        "2",
        "--n-envs",
        "2",
        "--n-steps",
        "64",
        "--eval-games",
        "4",
        "--no-progress",
    ],
    "smuggle tournament": ["--games", "2", "--workers", "1", "--bootstrap", "20", "--quiet"],
    "smuggle match": ["--games", "2"],
}
EXPERT_ADDED = ["--eval-games", "4", "--no-progress"]  # smuggle train --teacher: PPO's --steps is refused
# Repository entries a sandbox links to, so that ``python benchmarks/x.py`` runs there.
LINKED = ("benchmarks", "examples", "scripts", "notebooks", "docs", "constraints.txt", "pyproject.toml", "mkdocs.yml")


@dataclass
class Command:
    path: str  # relative to the repository
    line: int  # 1-based; in a notebook, the cell number
    text: str  # the command, continuation lines joined, without its comment
    comment: str = ""

    @property
    def status(self) -> str:
        if self.comment.startswith("illustrative"):
            return "illustrative"
        if self.comment.startswith("tested by "):
            return "tested by"
        return "run"

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class Mention:
    path: str
    line: int
    text: str

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


# ----- extraction ----------------------------------------------------------------------------
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([^\s`]*)")
SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def split_comment(line: str) -> tuple[str, str]:
    """``cmd  # comment`` -> (``cmd``, ``comment``); a ``#`` inside quotes or a word is not one."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


def markdown_items(text: str, path: str, line_of=lambda i: i + 1) -> tuple[list[Command], list[Mention]]:
    commands: list[Command] = []
    mentions: list[Mention] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            for span in SPAN.finditer(lines[i]):
                body = span.group(2).strip()
                command = (" " in body and body.split(" ", 1)[0] in PROGRAMS) or re.match(r"[A-Z_]+=\S+ ", body)
                if command or re.match(rf"({'|'.join(TOP_FOLDERS)})/", body):
                    mentions.append(Mention(path, line_of(i), body))
            i += 1
            continue
        fence, info = m.group(1), m.group(2).lower()
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append((i, lines[i]))
            i += 1
        i += 1
        console = info in ("console", "shell-session") or (not info and any(text.startswith("$ ") for _, text in body))
        if info not in SHELL_BLOCKS and not console:
            continue
        first = next((text.strip() for _, text in body if text.strip()), "")
        if console and first.startswith("$ "):
            first = first[2:]
        # a comment opening the block gives every command in it its status
        block_comment = first[1:].strip() if first.startswith("#") else ""
        pending = ""
        start = 0
        for j, raw in body:
            stripped = raw.strip()
            if console and not pending:
                if not stripped.startswith("$ "):
                    continue
                stripped = stripped[2:]
            if not pending:
                if not stripped or stripped.startswith("#"):
                    continue
                start = j
            if stripped.endswith("\\"):
                pending += stripped[:-1] + " "
                continue
            command, comment = split_comment(pending + stripped)
            pending = ""
            if block_comment.startswith(("illustrative", "tested by")):
                comment = f"{block_comment}; {comment}" if comment else block_comment
            commands.append(Command(path, line_of(start), " ".join(command.split()), comment))
    return commands, mentions


def notebook_items(path: Path) -> tuple[list[Command], list[Mention]]:
    rel = path.relative_to(ROOT).as_posix()
    book = json.loads(path.read_text(encoding="utf-8"))
    commands: list[Command] = []
    mentions: list[Mention] = []
    for number, cell in enumerate(book["cells"], start=1):
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown":
            c, m = markdown_items(source, rel, line_of=lambda _i, n=number: n)
            commands += c
            mentions += m
        elif cell["cell_type"] == "code":
            for raw in source.split("\n"):
                if raw.lstrip().startswith("!"):
                    command, comment = split_comment(raw.lstrip()[1:])
                    commands.append(Command(rel, number, " ".join(command.split()), comment))
    return commands, mentions


def sources() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "notebooks").glob("*.ipynb"))]


def extract(paths: list[Path] | None = None) -> tuple[list[Command], list[Mention]]:
    commands: list[Command] = []
    mentions: list[Mention] = []
    for path in paths or sources():
        if path.suffix == ".ipynb":
            c, m = notebook_items(path)
        else:
            c, m = markdown_items(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
        commands += c
        mentions += m
    return commands, mentions


# ----- static checks ---------------------------------------------------------------------------
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*(\.\.\.)?$")


def _tokens(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"not a shell command ({exc})") from None


def _program(tokens: list[str]) -> list[str]:
    """The tokens from the program on: environment assignments, ``nice`` and ``taskset -c N``
    dropped."""
    while tokens and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", tokens[0]):
        tokens = tokens[1:]
    while tokens and tokens[0] in ("nice", "time", "taskset"):
        tokens = tokens[3:] if tokens[0] == "taskset" else tokens[1:]
    return tokens


def _values(tokens: list[str]) -> list[str]:
    """Placeholders (``DB``, ``GAME_ID``, ``MODEL...``) as values; ``[--opt X]`` as ``--opt X``;
    a bare ``...`` dropped."""
    out = []
    for token in tokens:
        token = token[1:] if token.startswith("[") else token  # [--tournament ID] -> --tournament ID
        token = token[:-1] if token.endswith("]") and "[" not in token else token
        if not token or token == "...":
            continue
        out.append("1" if PLACEHOLDER.match(token) else token)
    return out


def _parser() -> argparse.ArgumentParser:
    from training.cli import build_parser

    return build_parser()


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {s for action in parser._actions for s in action.option_strings}


def check_smuggle(args: list[str], full: bool) -> str | None:
    parser = _parser()
    if not full:  # an inline mention: the subcommand and the option names
        subs = _subparsers(parser)
        if args[:1] == ["1"]:  # smuggle COMMAND ...: any subcommand
            return None
        if args and not args[0].startswith("-"):
            if args[0] not in subs:
                return f"no subcommand {args[0]!r} (smuggle has {', '.join(sorted(subs))})"
            known, rest = _options(subs[args[0]]), args[1:]
        else:
            known, rest = _options(parser), args
        unknown = [a.split("=")[0] for a in rest if a.startswith("--") and a.split("=")[0] not in known]
        return f"unknown option(s) {', '.join(unknown)}" if unknown else None
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            namespace = parser.parse_args(args)
    except SystemExit as exc:
        return err.getvalue().strip().splitlines()[-1] if exc.code else None
    return check_settings(getattr(namespace, "settings", None) or [], bool(getattr(namespace, "teacher", None)))


def check_settings(settings: list[str], expert: bool = False) -> str | None:
    """``smuggle train --set KEY=VALUE``: each KEY a field of TrainConfig (of ExpertConfig for an
    expert-iteration run, ``--teacher``), each VALUE JSON."""
    import dataclasses

    from training.selfplay.expert import ExpertConfig
    from training.selfplay.trainer import TrainConfig

    config = ExpertConfig if expert else TrainConfig
    fields = {f.name for f in dataclasses.fields(config)}
    for item in settings:
        key, _, value = item.partition("=")
        if key not in fields:
            return f"--set {item}: {config.__name__} has no field {key!r}"
        try:
            json.loads(value)
        except ValueError:
            return f"--set {item}: the value is not JSON"
    return None


def _extras() -> set[str]:
    """The extras of pyproject.toml (its ``[project.optional-dependencies]`` keys)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return set(re.findall(r"^([A-Za-z0-9_-]+)\s*=", section, re.M))


def check_static(text: str, full: bool = True) -> str | None:
    """Why the command (or, with ``full=False``, the inline mention) cannot be right, or None."""
    try:
        tokens = _program(_tokens(text))
    except ValueError as exc:
        return str(exc)
    if not tokens:
        return None
    program, raw, args = tokens[0], tokens[1:], _values(tokens[1:])
    if program == "smuggle":
        return check_smuggle(args, full)
    if program in ("python", "python3"):
        if args[:1] == ["-m"]:
            import importlib.util

            name = args[1] if len(args) > 1 else ""
            return None if name in ("venv", "pip") or importlib.util.find_spec(name) else f"no module {name}"
        if not args:
            return None
        scripts = sorted(ROOT.glob(re.sub(r"\b[A-Z][A-Z0-9_]*\b", "*", raw[0])))  # examples/X.py: any
        if not scripts or not scripts[0].is_file():
            return f"no script {raw[0]}"
        source = "".join(s.read_text(encoding="utf-8") for s in scripts)
        missing = [a for a in args[1:] if a.startswith("--") and f'"{a.split("=")[0]}"' not in source]
        return f"{args[0]} defines no option {', '.join(missing)}" if missing else None
    if program == "bash":
        return None if args and (ROOT / args[0]).is_file() else f"no script {args[:1]}"
    if program == "pip":
        extras = {e for a in raw for group in re.findall(r"\[([^\]]*)\]", a) for e in group.split(",") if e}
        unknown = sorted(extras - _extras())
        files = [raw[i + 1] for i, a in enumerate(raw[:-1]) if a in ("-c", "-r")]
        missing = [f for f in files if not (ROOT / f).is_file()]
        if unknown:
            return f"pyproject.toml defines no extra {', '.join(unknown)}"
        return f"no file {', '.join(missing)}" if missing else None
    if program in ("jupyter", "tensorboard", "mkdocs"):
        return None  # programs of the dev, train and docs extras
    if program in (".", "source"):
        return None
    return f"unknown program {program!r}"


def check_path(text: str) -> str | None:
    """A path in a code span (``training/selfplay/trainer.py``, ``docs/rules/<game>.md``) exists."""
    path = text.split(":")[0].split(" ")[0].rstrip(".,;)")
    pattern = re.sub(r"<[^>]*>", "*", path)
    if any(ROOT.glob(pattern)) or (ROOT / pattern).exists():
        return None
    return f"no such path {path}"


# ----- running ---------------------------------------------------------------------------------
def small_teacher(spec: str) -> str:
    """An expert-iteration teacher at ``EXPERT_SIMS`` simulations a decision (added if unset)."""
    if re.search(r"\bsims=\d+", spec):
        return re.sub(r"\bsims=\d+", f"sims={EXPERT_SIMS}", spec)
    return f"{spec}{';' if ':' in spec else ':'}sims={EXPERT_SIMS}"


def budgeted(text: str) -> str:
    """The command with small budgets: ``SMALL`` values, ``SMALL_SETTINGS``, ``ADDED`` options."""
    tokens = _tokens(text)
    head = _program(tokens)
    prefix = tokens[: len(tokens) - len(head)]
    out: list[str] = []
    settings_seen: set[str] = set()
    name = " ".join(head[:2])
    expert = name == "smuggle train" and "--teacher" in head
    settings = EXPERT_SETTINGS if expert else SMALL_SETTINGS
    i = 0
    while i < len(head):
        token = head[i]
        if token in SMALL and i + 1 < len(head):
            out += [token, SMALL[token]]
            i += 2
            continue
        if token == "--set" and i + 1 < len(head):
            key = head[i + 1].split("=", 1)[0]
            settings_seen.add(key)
            out += [token, f"{key}={settings[key]}" if key in settings else head[i + 1]]
            i += 2
            continue
        if token == "--teacher" and i + 1 < len(head):
            out += [token, small_teacher(head[i + 1])]
            i += 2
            continue
        out.append(token)
        i += 1
    if name == "smuggle train":
        for key, value in settings.items():
            if key not in settings_seen:
                out += ["--set", f"{key}={value}"]
    added = EXPERT_ADDED if expert else ADDED.get(name, [])
    j = 0
    while j < len(added):
        option = added[j]
        has_value = j + 1 < len(added) and not added[j + 1].startswith("--")
        if option not in out:
            out += added[j : j + 2] if has_value else [option]
        j += 2 if has_value else 1
    return shlex.join(prefix + out)


def sandbox(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = folder / name
        if not link.exists():
            link.symlink_to(ROOT / name)
    return folder


def run(command: Command, folder: Path, timeout: float = 150) -> subprocess.CompletedProcess[str]:
    """Run one command (budgeted) in ``folder`` with the project's Python first on the PATH."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(MPLBACKEND="Agg", PYTHONUNBUFFERED="1")
    env.pop("SMUGGLE_ZOO", None)
    return subprocess.run(
        ["bash", "-c", budgeted(command.text)],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The shell commands of the docs and how the tests treat them.")
    parser.add_argument("--run", action="store_true", help="run the run commands as the test suite does")
    args = parser.parse_args(argv)
    commands, _ = extract()
    failed = 0
    for command in commands:
        print(f"{command.status:<12} {command.where:<32} {command.text}")
        if args.run and command.status == "run":
            folder = sandbox(ROOT / "runs" / "doc_commands" / command.path.replace("/", "_"))
            done = run(command, folder)
            if done.returncode:
                failed += 1
                print(f"  FAILED ({done.returncode}): {budgeted(command.text)}\n{done.stderr[-2000:]}")
    return 1 if failed else 0


if __name__ == "__main__":
    if shutil.which("bash") is None:
        raise SystemExit("bash is needed")
    raise SystemExit(main())
