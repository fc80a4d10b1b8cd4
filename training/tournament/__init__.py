"""Tournaments, ratings and bluffing analytics for any smuggle_envs game.

| module         | what it does                                                                 |
|----------------|------------------------------------------------------------------------------|
| ``schedule``   | duplicate deals, seat rotations, balanced lineups: the list of game specs     |
| ``db``         | the SQLite store: tournaments, one row per game (with its replay), ratings   |
| ``runner``     | plays the missing games in-process, on a local process pool, or on Ray       |
| ``ratings``    | openskill Plackett-Luce ratings, win rates and mean scores with 95% CIs, H2H |
| ``report``     | leaderboard and head-to-head tables, CSV files, PNG plots                   |
| ``analytics``  | bluffing statistics from the stored replays (Smuggle; a fallback for others) |
| ``cli``        | the ``tournament``, ``replay`` and ``analyze`` subcommands                  |
"""
