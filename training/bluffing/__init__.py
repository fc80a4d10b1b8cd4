"""The bluffing kit: every claim of a stored game labelled with the truth, in one schema for the
five games.

A **claim** here is a decision whose hidden truth the table cannot see when it is taken. Each
row (:class:`Claim`) has one of three roles:

* ``"claim"``: a statement to the table that may be a lie (a Smuggle declaration, a CIQ smuggle,
  an Illegal "let it happen" or declined trade); ``truth`` says whether it was true;
* ``"call"``: a decision to challenge or believe another seat's claim (the Officer's search or
  let-pass, the next player's inform or accept, a CIQ Fire decision); ``truth`` is the truth of
  the claim it answers (``called_step``, made by ``claimant``), so a caught liar and a wrongly
  searched honest hand read alike on both rows;
* ``"commitment"``: a hidden choice nobody can challenge (a Humble smuggle selection or Play
  card, an Import / Export sealed bid); ``truth`` says whether it turned out as chosen (the card
  fit the round's rule, the bid won the ship).

What each game makes a claim, a call or a commitment, and how its truth, ``caught`` and
``payoff`` are read, is its plugin module's docstring (``training/bluffing/games/<game>.py``) and
the section "Claims and their truth" of ``docs/rules/<game>.md``.

    claims(replay)          -> list[Claim]    every labelled decision of a replay, in step order
    facing(state, seat)     -> Facing | None  the claim ``seat`` must call or believe now, with a
                                              ``truth(world)`` that evaluates it in any world
                                              (a resampled one too), for posteriors
    questions(state, seat)  -> Facing | None  the claim or hidden commitment ``seat`` faces now:
                                              ``facing``'s calls (Smuggle, CIQ), and in the
                                              games without calls the question a plugin's
                                              ``questions`` asks (an Illegal let-pass, a Humble
                                              smuggle selection, an Import / Export sealed bid)

``facing`` is the call decisions only (the lie-detection benchmark and ``smuggle analyze
--deception`` count calls through it); ``questions`` is what the posteriors and belief probes
(``beliefs``, ``probes``) ask about, in all five games.

``smuggle dataset DB --out DIR`` (``dataset.py``; its parser ``parser.py``) writes the claims of
every stored game as Parquet files, one row per claim with the columns ``COLUMNS`` lists.

This module imports only the standard library, so that the command line can print the schema
(``smuggle dataset --help``) without loading the games: ``claims``, ``facing`` and ``questions`` import the
game plugins (``games/``) when first called.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from smuggle_envs.core import Replay
    from smuggle_envs.core.game import State

ROLES = ("claim", "call", "commitment")
"""The roles of a labelled decision (see the module docstring)."""


def _column(kind: str, doc: str, nullable: bool = False) -> Any:
    """A dataclass field carrying its column type and description (the schema reads them)."""
    return dataclasses.field(metadata={"type": kind, "nullable": nullable, "doc": doc})


@dataclasses.dataclass(frozen=True)
class Claim:
    """One labelled decision of a stored game (see the module docstring for the roles)."""

    env_id: str = _column("string", "the game's env id")
    seed: int = _column("int64", "the deal's seed (with env id, config and actions: the replay)")
    step: int = _column("int64", "index in the replay's actions of the decision")
    seat: int = _column("int64", "the seat that decided")
    decision: str = _column("string", "decision type: declaration, bag_claim, search, let_pass, ...")
    role: str = _column("string", "claim (may be a lie), call (challenges or believes a claim), commitment")
    claim: str = _column("string", "what was claimed, as the table heard it (a call: the claim it answers)")
    truth: bool = _column("bool", "the claim was true (a call: the claim it answers was true)")
    challenged: bool | None = _column("bool", "the claim was challenged (a call: it challenged)", True)
    caught: bool | None = _column("bool", "a lie was exposed by the challenge", True)
    payoff: float | None = _column("float64", "the seat's score change the decision led to", True)
    called_step: int | None = _column("int64", "a call: the step of the claim it answers", True)
    claimant: int | None = _column("int64", "a call: the seat whose claim it answers", True)
    action: int = _column("int64", "the action taken")
    action_text: str = _column("string", "the action as its actor read it")
    forced: bool = _column("bool", "the only legal action: private, the table could not tell (no detector feature)")

    def to_dict(self) -> dict[str, Any]:
        """The fields by name (a row of the dataset)."""
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Facing:
    """The claim a seat must call or believe at its decision now.

    ``truth(world)`` evaluates the claim in a state at the same decision: the real one, or one
    resampled for the seat (``state.resample(seat, rng)``), which is how a posterior over the
    claim's truth is estimated from what the seat saw."""

    seat: int
    decision: str  # the call's decision type ("search", "inform", "fire", ...)
    claim: str  # the claim as the table heard it
    claimant: int | None  # the seat that made it (None: a fact nobody stated, e.g. a hidden hand)
    claim_step: int | None  # its step in the state's history (None: no decision made it)
    truth: Callable[[State[Any]], bool]


class Column(NamedTuple):
    """A column of the dataset: its name, type (Arrow's name), whether it may be null, and what
    it holds."""

    name: str
    type: str
    nullable: bool
    doc: str


CLAIM_COLUMNS: tuple[Column, ...] = tuple(
    Column(f.name, f.metadata["type"], f.metadata["nullable"], f.metadata["doc"]) for f in dataclasses.fields(Claim)
)
"""The columns of a :class:`Claim`, generated from its fields."""

STORE_COLUMNS: tuple[Column, ...] = (
    Column("num_players", "int64", False, "seats at the table"),
    Column("game_id", "int64", False, "the game's id in the database (smuggle replay DB GAME_ID)"),
    Column("source", "string", False, "tournament, or web (a game of the browser app, people included)"),
    Column(
        "agent",
        "string",
        False,
        "the agent's spec as the user gave it (zoo, rule, ...; human for a person), a file it names by its "
        "file name only: never a path of the machine that made the dataset",
    ),
    Column(
        "agent_sha256",
        "string",
        True,
        "the first 16 hex digits of the SHA-256 of the model file the agent played (a zoo or checkpoint spec), "
        "else null",
    ),
    Column(
        "agent_name",
        "string",
        False,
        "the seat's name in the games table (human:NAME for a person), a file in it by its file name only",
    ),
    Column("seconds", "float64", True, "a person's time for the decision (web games), else null"),
)
"""The columns a stored game adds to its claims."""

OBSERVATION_COLUMN = Column("observation", "list<float32>", False, "the seat's observation (--observations)")

COLUMNS: tuple[Column, ...] = CLAIM_COLUMNS + STORE_COLUMNS + (OBSERVATION_COLUMN,)
"""Every column of ``smuggle dataset``, in order (``observation`` only with ``--observations``)."""


def schema_text() -> str:
    """The columns as lines ``name  type  what it holds`` (``smuggle dataset --help``)."""
    name = max(len(c.name) for c in COLUMNS) + 2
    kind = max(len(c.type) + c.nullable for c in COLUMNS) + 2
    return "\n".join(f"  {c.name:<{name}}{c.type + '?' * c.nullable:<{kind}}{c.doc}" for c in COLUMNS)


def claims(replay: Replay) -> list[Claim]:
    """Every labelled decision of ``replay`` (env id, config, seed, actions), in step order."""
    from .games import label_replay

    return [claim for claim, _ in label_replay(replay)]


def facing(state: State[Any], seat: int) -> Facing | None:
    """The claim ``seat`` must call or believe at ``state`` (None where it faces none)."""
    from .games import plugin

    return plugin(state.game.env_id).facing(state, seat)


def questions(state: State[Any], seat: int) -> Facing | None:
    """The claim or hidden commitment ``seat`` faces at ``state``: its plugin module's
    ``questions`` where it has one (the games without calls), else ``facing`` (None: none).

    A separate name, not more of ``facing``: a seat answering these questions calls nobody, so
    what counts calls (``deception.calls_possible``, the lie-detection benchmark) stays as it was."""
    from .games import CLAIMS, plugin

    env_id = state.game.env_id
    ask = getattr(CLAIMS.modules().get(env_id), "questions", None)
    return ask(state, seat) if ask is not None else plugin(env_id).facing(state, seat)


__all__ = [
    "CLAIM_COLUMNS",
    "COLUMNS",
    "ROLES",
    "STORE_COLUMNS",
    "Claim",
    "Column",
    "Facing",
    "claims",
    "facing",
    "questions",
    "schema_text",
]
