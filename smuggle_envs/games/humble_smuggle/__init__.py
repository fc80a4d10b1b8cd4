"""Humble smuggle, the drafting game of high cards that get discarded.

| Import             | ``from smuggle_envs import humble_smuggle_v0``                   |
|--------------------|------------------------------------------------------------------|
| Actions            | Discrete(217)                                                    |
| Parallel API       | No                                                               |
| Agents             | ``player_0 .. player_{n-1}``, n = 2 to 5                         |
| Observation shape  | (386 + 108 * n + n * n,) float32 (834 for 4 players)             |
| Observation values | bits, and counts scaled to about [0, 1]                          |
| Action mask        | ``obs["action_mask"]``, int8, all zeros when not to act           |

## Actions

| actions   | who                        | meaning                                                        |
|-----------|----------------------------|----------------------------------------------------------------|
| 0 - 78    | drafter (turn order)       | draft white card ``a + 1`` from the centre                     |
| 79 - 157  | each seat (turn order)     | lay white card ``a - 78`` from your hand face down (hidden)     |
| 158 - 192 | each seat (round-robin)    | play Play card kind ``(a - 158) // 5`` on the face-down card   |
|           |                            | of the seat ``(a - 158) % 5`` places to your left (0 = yours)  |
| 193       | each seat (round-robin)    | pass; a full lap of passes ends the black-card play phase      |
| 194 - 216 | a seat over 3 black cards  | discard a black card of kind ``a - 194`` (7 Play, 16 Hold)     |

## Observation

Named pieces, seat-relative; ``game.observation_layout.table()`` prints the full table (phase,
first player, centre, round rule, your hand, face-down card and black hand, every seat's
publicly drafted cards, attachments, scored symbols and points, the last reveal).

## Rules summary

79 white cards (1-79, worth their tens digit) and 40 black cards (16 Hold cards with symbols and
a bonus, 24 Play cards that change a face-down card's value). Each round: draft one of the
players + 1 centre cards in turn order; the card left decides the round rule (Standard, Double
Up, High & Low, Symbol Up, Safe Zone). Everyone secretly lays one white card face down; Play
cards are attached face down; all are revealed, the rule discards the highest (and/or lowest)
cards, centre card included, ties together. Undiscarded cards score; black cards are drawn for
scored cards' icons and for Play cards on discarded cards; hands are cut to 3 black cards. The
round after the End-of-Game 80 card appears in the centre is the last. Points: tens digits,
Hold bonuses and symbol sets (stars wild). Full rules, interpretations and tests:
``docs/rules/humble_smuggle.md``.

## Files

Every game package has the same files in the same roles. A module imports only those listed
above it (``vocab``, ``actions`` and ``data`` only each other), at run time or for types:
the import graph has no cycle (``tests/core/test_import_cycles.py``).

| file             | role                                                                           |
|------------------|--------------------------------------------------------------------------------|
| ``vocab.py``     | the vocabulary: phases, round rules, symbols, Play effects, the reveal         |
| ``actions.py``   | the action space: ids, their meaning, their text                               |
| ``data.py``      | the card data (``data/*.json``) and its validating loader                      |
| ``game.py``      | ``HumbleSmuggleConfig`` (the rule variants) and ``HumbleSmuggleGame``, the     |
|                  | game: what it fixes from them                                                  |
| ``state.py``     | ``HumbleSmuggleStateBase``: the fields, the set-up, the moves that keep them   |
|                  | in step, public reads, ``clone``                                               |
| ``steps.py``     | the rules in play, functions of the state: draft, selection, Play cards, the   |
|                  | resolution, draws, rounds                                                      |
| ``resample.py``  | the perfect-recall resample: a world drawn from what one seat has seen         |
| ``scenarios.py`` | positions laid out by hand, for tests and tutorials (``arrange``); not rules   |
| ``encoder.py``   | the observation layout (named pieces) and the encoder                          |
| ``render.py``    | the text table, whole or from one seat                                         |
| ``text.py``      | the text interface's parts: the card glossary, the score in words (points and  |
|                  | tie-break), a seat's private cards, the notes of a step (reveals, rounds)      |
| ``rules.py``     | ``HumbleSmuggleState``: the base, with the functions of ``steps``,             |
|                  | ``resample``, ``render`` and ``text`` bound as methods; it declares the state, |
|                  | the layout and the encoder on ``HumbleSmuggleGame``                            |
"""

from .game import HumbleSmuggleConfig, HumbleSmuggleGame
from .rules import HumbleSmuggleState

__all__ = ["HumbleSmuggleConfig", "HumbleSmuggleGame", "HumbleSmuggleState"]
