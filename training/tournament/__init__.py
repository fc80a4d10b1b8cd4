"""Tournaments and ratings for any smuggle_envs game.

| module         | what it does                                                                 |
|----------------|------------------------------------------------------------------------------|
| ``schedule``   | duplicate deals, seat rotations, balanced lineups: the list of games         |
| ``runner``     | plays the missing games in-process, on a local process pool, or on Ray       |
| ``ratings``    | openskill Plackett-Luce ratings, win rates and mean scores with 95% CIs, H2H |
| ``report``     | leaderboard and head-to-head tables, CSV files, PNG plots                   |
| ``cli``        | the ``tournament``, ``replay`` and ``analyze`` subcommands                  |
| ``parser``     | their options (argparse only: built for every ``smuggle`` command)          |

Below this package, shared with self-play and the browser app: ``training/db.py`` (the SQLite
store: tournaments, one row per game with its replay, ratings), ``training/scheduled.py`` (a
scheduled game as stored) and ``training/analytics/`` (the hidden-information analytics that
``analyze`` prints, one module a game).
"""
