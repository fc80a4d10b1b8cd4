"""Import / Export (Jordan Draper, Dark Flight Games): shipping, contracts and sealed bids.

The turn, the five actions, sealed bids and the end are in ``steps.py``, the state with its
capacities, loading and completion in ``state.py``, final scoring in ``scoring.py``, every
card's power in ``powers/`` (immediates, events, modifiers, end_games); see "Files" below.
``docs/rules/import_export.md`` maps every rule and card to its code and its test.

| Import             | ``from smuggle_envs import import_export_v0``                    |
|--------------------|------------------------------------------------------------------|
| Game               | ``smuggle_envs.games.import_export.ImportExportGame``            |
| Actions            | Discrete(219)                                                    |
| Parallel API       | No                                                               |
| Agents             | ``player_0 .. player_{n-1}``, n = 2 to 6                         |
| Observation shape  | (1178 + 322 * n,) float32 (2466 for 4 players)                   |
| Action mask        | ``obs["action_mask"]``, int8, all zeros when not to act           |

## Actions

| actions   | meaning                                                                          |
|-----------|----------------------------------------------------------------------------------|
| 0         | done: stop taking actions of this kind / decline                                 |
| 1         | yes: use an optional power                                                       |
| 2         | draw (leader or follower)                                                        |
| 3         | two-card wild: declare or follow with two cards of the same colour               |
| 4 - 131   | choose card c (from the hand, the island, a ship, your contracts: by context)    |
| 132 - 136 | choose an action type (contract, load, import, pirate, supply)                   |
| 137 - 148 | choose ship s (ships 2p and 2p+1 belong to seat p)                               |
| 149 - 199 | a sealed bid of 2k credits                                                       |
| 200 - 204 | name a good type                                                                 |
| 205 - 210 | choose the player r seats clockwise from you                                     |
| 211 - 214 | put the card into imports, goods, hand, or the discard pile                      |
| 215 - 218 | a numbered option a power offers (below)                                         |

Powers that change a rule add options to their holder's existing decisions
(``powers/modifiers.py``):

| decision                  | action              | meaning                                              |
|---------------------------|---------------------|------------------------------------------------------|
| load: choose a container  | option 0            | Batteries: pay 2 credits for one extra Load action   |
|                           | option 1            | Cell Phones: draw instead (loaded if it fits)        |
|                           | option 2            | Smart Cars: a hand card to the island for 2 credits  |
|                           | card c              | Robot Cats: c may start a pair of one type (the ship |
|                           |                     | and then the second card are asked)                  |
| contract: choose a card   | option 0            | Jasmine Tea: sell a hand card to the island for 2    |
| pirate: take a container  | option 0            | Drugs: an extra container from a ship at sea         |
|                           | option 1 / 2        | Mini Van: the deck's top card / a random card from a |
|                           |                     | chosen player's hand                                 |
|                           | card c              | Mini Van: c, on another player's ship in harbor      |
| pirate: load it           | to goods            | Stem Cells: pay 2 credits to put it in the goods     |
| import: choose the ship   | option 0            | Dark Flight Games: import from the supply island     |
| lead, follow, and the     | option 3            | Lutefisk: contract it from the hand, no action       |
| contract, load and supply | card c (one of your | use c's "any time" power: Iceland Water, Telescopes, |
| decisions                 | shipments)          | Segways, Oysters; LED Lights and Rope when leading   |
| follow                    | card c              | 3D Printers: any card; Rice Cookers: Load and        |
|                           |                     | Contract cards alike; Neural Units: a Load card      |

## Rules summary

Each turn the leader draws (up to five cards, or one more) or declares Contract, Load, Import,
Pirate or Supply with a matching card or two cards of one colour; every other player in turn
follows the same way or draws. Then the leader and the followers carry out the action, once
for following and once more per matching card in their imports. Contracts need the tier in goods;
loaded containers complete shipments, which pay by containers, seed the supply island, give the
card's power and send the ship to sea, where others import its containers by sealed bids or
pirate them. The game ends after the turn in which a player reaches 50 active credits or the
deck runs out; credits, containers in harbor, goods and majorities score.

## Files

Every game package has the same files in the same roles. A module imports only those listed
above it (``vocab``, ``actions`` and ``data`` only each other), at run time or for types:
the import graph has no cycle (``tests/core/test_import_cycles.py``).

| file             | role                                                                           |
|------------------|--------------------------------------------------------------------------------|
| ``vocab.py``     | the vocabulary: the decisions (phases), action and good types                  |
| ``actions.py``   | the action space: ids, their meaning, their text                               |
| ``data.py``      | the card data (``data/*.json``) and its validating loader                      |
| ``ties.py``      | how a tie for the most of something is shared (R5.13)                          |
| ``game.py``      | ``ImportExportConfig`` (the rule variants) and ``ImportExportGame``, the game: |
|                  | what it fixes from them                                                        |
| ``hooks.py``     | the tables through which the engine calls the powers (filled by ``powers/``)   |
| ``matching.py``  | the exact maximum matching of containers to a ship's slots (R5.7)              |
| ``state.py``     | ``ImportExportStateBase``: the fields, the set-up, the moves that keep them in |
|                  | step, public reads, ``clone``                                                  |
| ``powers/``      | every card's power (immediates, events, modifiers, end_games)                  |
| ``scoring.py``   | final scoring, in the rulebook's steps                                         |
| ``steps.py``     | the turn, as functions of the state: the task stack, lead and follow, the      |
|                  | five actions, bids, the turn's end                                             |
| ``resample.py``  | the perfect-recall resample: a world drawn from what one seat has seen         |
| ``scenarios.py`` | positions laid out by hand, for tests and tutorials (``arrange``); not rules   |
| ``encoder.py``   | the observation layout (named pieces) and the encoder                          |
| ``render.py``    | the text table, whole or from one seat                                         |
| ``text.py``      | the texts for people and language models: the card glossary, a score's text,   |
|                  | the cards a seat holds in private, the notes on what an action did             |
|                  | (``smuggle_envs.text``)                                                        |
| ``rules.py``     | ``ImportExportState``: the base, with the functions of ``steps``,              |
|                  | ``resample``, ``render`` and ``text`` bound as methods; it declares the state, |
|                  | the layout and the encoder on ``ImportExportGame``                             |
"""

from .game import ImportExportConfig, ImportExportGame
from .rules import ImportExportState

__all__ = ["ImportExportConfig", "ImportExportGame", "ImportExportState"]
