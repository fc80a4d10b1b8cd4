"""CIQ (Jason Reed), the smuggling card game of Import Tolerances and customs workers.

| Import             | ``from smuggle_envs import ciq_v0``                              |
|--------------------|------------------------------------------------------------------|
| Actions            | Discrete(274)                                                    |
| Parallel API       | No                                                               |
| Agents             | ``player_0 .. player_{n-1}``, n = 2 to 6                         |
| Observation shape  | (311 + 182 * n,) float32 (1039 for 4 players)                    |
| Observation values | card counts / copies in play, one-hots in [0, 1]; pile sizes     |
|                    | scaled (unbounded)                                               |
| Action mask        | ``obs["action_mask"]``, int8, all zeros when not to act           |

## Actions

| actions   | who                 | meaning                                                           |
|-----------|---------------------|-------------------------------------------------------------------|
| 0 - 52    | player to move      | ship a card of this kind (kind = suit * 13 + rank, 52 = Joker)    |
| 53 - 105  | player to move      | Sabotage card (a Legal card or Joker, then a card of its suit)    |
| 106 - 158 | player to move      | Hire this card as the new customs worker                          |
| 159 - 211 | target of a smuggle | Fire the customs worker with this face card                       |
| 212 - 264 | shipper             | transfer this card from hand (Export and Import piles empty)      |
| 265 - 269 | player to move      | target the opponent 1 .. 5 seats clockwise (3 or more players)    |
| 270       | player to move      | STOP: end the shipment, or the turn after a Sabotage              |
| 271       | player to move      | draw one card (ends the turn)                                     |
| 272       | target of a smuggle | keep the customs worker                                           |
| 273       | player to move      | pass (only when nothing else is legal)                            |

A turn is a sequence of these decisions by the same player: target (3+ players), then Sabotage
cards and/or shipment cards one at a time, then STOP; every masked-legal sequence is a legal
move. The target of a smuggled Illegal card decides Fire or keep (an out-of-turn decision).

## Observation

Named pieces, seat-relative; ``game.observation_layout.table()`` prints the full table (own hand
and Export pile, every Tolerance and Import pile, pile sizes, Stock, cards seen going into other
Export piles, face-up and unseen cards, the shipment or Sabotage in progress).

## Rules summary

Each player starts with a 6 as Tolerance pile and 7 cards; the rest is the Stock. On your turn,
after filling your hand to 7, you Sabotage and/or Ship to an opponent, Hire a new customs
worker, or draw a card. Cards above an opponent's Import Tolerance are Illegal. A shipment starts
with a Legal card, continues with Legal cards matching the previous card's suit or rank, may end
with one smuggled Illegal card of the previous card's suit, and Jokers bribe (the next card may be
anything). Each shipped card transfers cards (its value; J, Q, K, A have special results) from
the Stock, later your Export pile, onto the target's Import pile; the target may Fire its
customs worker with a face card to stop a smuggled card's result. When the Stock runs out, Import
piles become Export piles. The first player with no cards in Hand, Import and Export piles wins.
Full rules, interpretations and tests: ``docs/rules/ciq.md``.

## Files

Every game package has the same files in the same roles. A module imports only those listed
above it (``vocab``, ``actions`` and ``data`` only each other), at run time or for types:
the import graph has no cycle (``tests/core/test_import_cycles.py``).

| file             | role                                                                           |
|------------------|--------------------------------------------------------------------------------|
| ``vocab.py``     | the vocabulary: phases, card effects, shipment flags, scales                   |
| ``actions.py``   | the action space: ids, their meaning, their text                               |
| ``data.py``      | the card data (``data/*.json``) and its validating loader                      |
| ``game.py``      | ``CIQConfig`` (the rule variants) and ``CIQGame``, the game: what it fixes     |
|                  | from them                                                                      |
| ``state.py``     | ``CIQStateBase``: the fields, the set-up, the moves that keep them in step,    |
|                  | public reads, ``clone``                                                        |
| ``steps.py``     | the rules in play, functions of the state: legal moves, shipping, Sabotage,    |
|                  | Hire, Fire, transfers, turns                                                   |
| ``resample.py``  | the perfect-recall resample: a world drawn from what one seat has seen         |
| ``scenarios.py`` | positions laid out by hand, for tests and tutorials (``arrange``); not rules   |
| ``encoder.py``   | the observation layout (named pieces) and the encoder                          |
| ``render.py``    | the text table, whole or from one seat                                         |
| ``text.py``      | the texts for people and language models: the card glossary, a score's text,   |
|                  | the cards a seat holds in private, the notes on what an action did             |
|                  | (``smuggle_envs.text``)                                                        |
| ``rules.py``     | ``CIQState``: the base, with the functions of ``steps``, ``resample``,         |
|                  | ``render`` and ``text`` bound as methods; it declares the state, the layout    |
|                  | and the encoder on ``CIQGame``                                                 |
"""

from .game import CIQConfig, CIQGame
from .rules import CIQState

__all__ = ["CIQConfig", "CIQGame", "CIQState"]
