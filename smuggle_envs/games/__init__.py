"""One folder per game, with the same files in the same roles: config, state, the rules in play
(``steps.py``), the resample, card data, actions, observation encoder, text render, and
``rules.py`` assembling them (each game's ``__init__`` docstring has the "Files" table)."""
