"""Test families every registered game gets: one test, parametrized over ``smuggle_envs.ENV_IDS``.

* ``test_env_family.py``: the AEC env (PettingZoo's ``api_test`` and ``seed_test``, the registry
  and constructors, spaces, observations and masks, rewards, ``max_turns``, refused actions);
* ``test_determinism_family.py``: a game is a function of (config, seed, actions), clones are
  independent, replays reproduce the game;
* ``test_hidden_information_family.py``: ``resample`` redraws only what a seat cannot see, and
  who decides next never depends on a hidden card;
* ``test_data_family.py``: the card-data loader takes the packaged file and refuses broken ones.

A game joins by registering its env id and adding what the families need to know of it (which
attributes hold its deck, what a seat knows, how to break its data file...) to ``_games.py`` and
``_data_breaks.py``; a registered game without them fails ``test_every_registered_game_has_its_facts``.
The tests under ``tests/games/<game>/`` are the game's own: its rules, scenarios and numbers.
"""
