"""Self-play training with a league, for every smuggle_envs game.

* ``single_agent.SelfPlayEnv``: a gymnasium view of one seat of any game, opponents inside.
* ``league.League``: the opponent pool (snapshots, rule bot, random) sampled by PFSP.
* ``trainer.Trainer`` / ``TrainConfig``: MaskablePPO runs with checkpoints, exact resume,
  TensorBoard, learning curves and a final evaluation table.
* ``expert.ExpertIteration`` / ``ExpertConfig``: expert iteration (``smuggle train --teacher``):
  the IS-MCTS search's visit counts and the games' outcomes teach a MaskablePPO student.
* ``weights``: a numpy network's weights as a run's start (``init=NETWORK``, both trainers).
* ``distributed``: data-parallel workers (processes or Ray actors); ``device``: the learner's device.
* ``evaluate``: an agent against tables of baselines, seats rotated, Wilson intervals.
* ``cli``: the ``smuggle train`` subcommand; ``parser``: its options (argparse only).

Trained models load as agents: ``agents.make_agent("ppo:runs/smuggle_v0/final.zip", game)``.
Nothing here imports torch until a run starts.
"""
