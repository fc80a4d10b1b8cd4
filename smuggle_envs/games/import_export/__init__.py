"""Import / Export (Jordan Draper, Dark Flight Games): shipping, contracts and sealed bids.

Work in progress: the turn, the five actions, sealed bids, completion and scoring are in
``rules.py``; the cards' powers are being added in ``powers/``. Not yet in the registry.

| Import             | ``smuggle_envs.games.import_export.ImportExportGame``            |
|--------------------|------------------------------------------------------------------|
| Actions            | Discrete(219)                                                    |
| Agents             | ``player_0 .. player_{n-1}``, n = 2 to 6                         |

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
| 215 - 218 | a numbered option a power offers                                                 |

## Rules summary

Each turn the leader draws (up to five cards, or one more) or declares Contract, Load, Import,
Pirate or Supply with a matching card or two cards of one colour; every other player in turn
follows the same way or draws. Then the leader and the followers carry out the action, once
for following and once more per matching card in their imports. Contracts need the tier in goods;
loaded containers complete shipments, which pay by containers, seed the supply island, give the
card's power and send the ship to sea, where others import its containers by sealed bids or
pirate them. The game ends after the turn in which a player reaches 50 active credits or the
deck runs out; credits, containers in harbor, goods and majorities score.
"""

from .rules import ImportExportConfig, ImportExportGame, ImportExportState

__all__ = ["ImportExportConfig", "ImportExportGame", "ImportExportState"]
