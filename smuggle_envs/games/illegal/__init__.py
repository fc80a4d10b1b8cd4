"""Illegal (ElPadre), the card game of illegal businesses (a Grass / Mille Bornes relative).

| Import             | ``from smuggle_envs import illegal_v0``                          |
|--------------------|------------------------------------------------------------------|
| Actions            | Discrete(187)                                                    |
| Parallel API       | No                                                               |
| Agents             | ``player_0 .. player_{n-1}``, n = 2 to 6                         |
| Observation shape  | (177 + 70 * n,) float32 (457 for 4 players)                      |
| Observation values | counts scaled to [0, 1]; hand sizes / 7; totals / 100,000         |
| Action mask        | ``obs["action_mask"]``, int8, all zeros when not to act           |

## Actions

| actions   | who                      | meaning                                                        |
|-----------|--------------------------|----------------------------------------------------------------|
| 0 - 24    | player to move           | play a card of this kind (then its target, if any)             |
|           | Magnum holder, off turn  | (24 only) play the Magnum to remove a hassle                   |
| 25 - 49   | player to move           | discard one card of this kind as the turn's play               |
| 50 - 74   | player to move           | discard three identical cards (in addition, any time)          |
| 75 - 80   | player choosing a target | the player 0 (yourself) ... 5 seats clockwise                  |
| 81 - 88   | taker                    | take this business from the target's table                     |
| 89 - 96   | player losing a business | lose this business from your own table                         |
| 97 - 104  | Bribe player             | pay for the Bribe with this business card from hand            |
| 105 - 129 | every player, in turn    | pass this card to the left (after a Paranoia card)             |
| 130 - 179 | player to move (trading) | offer a card (130 + kind) / ask for a card (155 + kind)        |
| 180       | player to move           | end the turn                                                   |
| 181 - 184 | trading                  | no trade, offer complete, accept, decline                      |
| 185 / 186 | Magnum holder, off turn  | let it happen / play the Magnum to stop the takeover           |

## Observation

Named pieces, seat-relative; ``game.observation_layout.table()`` prints the full table (phase,
whose turn and who decides, your hand, every table, hand sizes, lost turns, open hands under Tax
Inspection, the cards you know are in each hand, the discard pile, the card being resolved with
its target and business, the trade on offer, multi-hand totals).

## Rules summary

Deal 7 cards each. In turn, a player plays one card (plus, if he likes, one legal business) or
discards one, then refills his hand to 7. A Market Open opens his business; businesses (five
illegal, three legal) score their value at the end. Hassles (Raid, Protection Money, Tax
Inspection, Vacation in Sweden) block businesses and cost one a turn; Solutions (Informant,
Mister Zero, White Coat, Alibi, Bribe) remove them. Paranoia cards cost their player turns and
businesses and make everyone pass a card left; held at the end they cost money. Hostile Takeover
and Relatives take a business; the one Magnum stops a takeover or removes a hassle, even out of
turn. Three identical cards may be discarded. Day of Accounting, an empty hand or an empty stock
ends the game: businesses on the table, minus Paranoia cards in hand, minus the best business
left in hand; most money wins. Full rules, interpretations and tests: ``docs/rules/illegal.md``.

## Files

Every game package has the same files in the same roles. A module imports only those listed
above it (``vocab``, ``actions`` and ``data`` only each other), at run time or for types:
the import graph has no cycle (``tests/core/test_import_cycles.py``).

| file             | role                                                                           |
|------------------|--------------------------------------------------------------------------------|
| ``vocab.py``     | the vocabulary: phases, card types, losses, reaction windows                   |
| ``actions.py``   | the action space: ids, their meaning, their text                               |
| ``data.py``      | the card data (``data/*.json``) and its validating loader                      |
| ``game.py``      | ``IllegalConfig`` (the rule variants) and ``IllegalGame``, the game: what it   |
|                  | fixes from them                                                                |
| ``state.py``     | ``IllegalStateBase``: the fields, the set-up, the moves that keep them in      |
|                  | step, public reads, ``clone``                                                  |
| ``steps.py``     | the rules in play, functions of the state: legal moves, plays, targets, the    |
|                  | Magnum, Paranoia, trading, hands                                               |
| ``resample.py``  | the perfect-recall resample: a world drawn from what one seat has seen         |
| ``scenarios.py`` | positions laid out by hand, for tests and tutorials (``arrange``); not rules   |
| ``encoder.py``   | the observation layout (named pieces) and the encoder                          |
| ``render.py``    | the text table, whole or from one seat                                         |
| ``text.py``      | the text interface's parts: the card glossary, a seat's private cards, the     |
|                  | notes of a step (hassles, losses, takeovers, passing, trades, accounting)      |
| ``rules.py``     | ``IllegalState``: the base, with the functions of ``steps``, ``resample``,     |
|                  | ``render`` and ``text`` bound as methods; it declares the state, the layout    |
|                  | and the encoder on ``IllegalGame``                                             |
"""

from .game import FULL_GAME, IllegalConfig, IllegalGame
from .rules import IllegalState

__all__ = ["FULL_GAME", "IllegalConfig", "IllegalGame", "IllegalState"]
