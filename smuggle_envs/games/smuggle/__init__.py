"""Smuggle (MB Games 1981; = Pepys "Contraband"), the customs bluffing game.

| Import             | ``from smuggle_envs import smuggle_v0``                         |
|--------------------|-----------------------------------------------------------------|
| Actions            | Discrete(510)                                                   |
| Parallel API       | No                                                              |
| Agents             | ``player_0 .. player_{n-1}``, n = 3 to 6                        |
| Observation shape  | (63 + 22 * n,) float32 (151 for 4 players)                      |
| Observation values | counts scaled to [0, 1]; money / starting money (unbounded)     |
| Action mask        | ``obs["action_mask"]``, int8, all zeros when not to act          |

## Actions

| actions   | who                     | meaning                                                  |
|-----------|-------------------------|----------------------------------------------------------|
| 0 - 494   | holder of the live hand | declare a multiset of at most 4 dutiable items            |
| 495       | holder                  | claim the Diplomatic Bag                                  |
| 496 / 497 | Customs Officer         | search (challenge) / let the luggage pass                 |
| 498 / 499 | next player             | accept the passed cards / become Informer and search them |
| 500 - 509 | new holder              | discard one card of a kind (items, Bag, luggage)          |

## Observation

Named pieces, seat-relative; ``game.observation_layout.table()`` prints the full table
(phase, roles, money, own hand, cards you passed on, declaration, open suitcase, last search,
pack size, round, and every seat's public record of declarations and searches).

## Rules summary

Each player is Customs Officer for one round, a pass through the 56-card pack. The player left of
the Officer draws four cards and declares dutiable items (truthfully or not) or claims the
Diplomatic Bag. The Officer lets the hand pass (the declared duty is paid) or searches it: a
liar pays the fines on every dutiable card, a truthful player pays the duty and receives 200.
A passed hand goes face down to the next player (skipping the Officer), who accepts it (discards
one, draws one, declares) or becomes Informer and searches it: a liar pays the fines and the
Officer pays the Informer 100; a truthful passer receives 200 from the Informer. Searched cards
go to the open suitcase and a fresh hand of four is drawn. Most money after every player has been
Officer wins. Full rules, interpretations and tests: ``docs/rules/smuggle.md``.

## Files

Every game package has the same files in the same roles. A module imports only those listed
above it (``vocab``, ``actions`` and ``data`` only each other), at run time or for types:
the import graph has no cycle (``tests/core/test_import_cycles.py``).

| file             | role                                                                           |
|------------------|--------------------------------------------------------------------------------|
| ``vocab.py``     | the vocabulary: phases, search outcomes, the search record                     |
| ``actions.py``   | the action space: ids, their meaning, their text                               |
| ``data.py``      | the card data (``data/*.json``) and its validating loader                      |
| ``game.py``      | ``SmuggleConfig`` (the rule variants) and ``SmuggleGame``, the game: what it   |
|                  | fixes from them                                                                |
| ``state.py``     | ``SmuggleStateBase``: the fields, the set-up, the moves that keep them in      |
|                  | step, public reads, ``clone``                                                  |
| ``steps.py``     | the rules in play, functions of the state: the declaration, search, pass,      |
|                  | accept, discard, rounds                                                        |
| ``resample.py``  | the perfect-recall resample: a world drawn from what one seat has seen         |
| ``scenarios.py`` | positions laid out by hand, for tests and tutorials (``arrange``); not         |
|                  | rules                                                                          |
| ``encoder.py``   | the observation layout (named pieces) and the encoder                          |
| ``render.py``    | the text table, whole or from one seat                                         |
| ``text.py``      | the text interface's parts: the card glossary (duties and fines), a seat's     |
|                  | private cards, the notes of a step (search verdicts and payments, rounds)      |
| ``rules.py``     | ``SmuggleState``: the base, with the functions of ``steps``, ``resample``,     |
|                  | ``render`` and ``text`` bound as methods; it declares the state, the layout    |
|                  | and the encoder on ``SmuggleGame``                                             |
"""

from .game import SmuggleConfig, SmuggleGame
from .rules import SmuggleState

__all__ = ["SmuggleConfig", "SmuggleGame", "SmuggleState"]
