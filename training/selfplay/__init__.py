"""Self-play training with a league, for every smuggle_envs game.

* ``single_agent.SelfPlayEnv``: a gymnasium view of one seat of any game, opponents inside.
* ``league.League``: the opponent pool (snapshots, rule bot, random) sampled by PFSP.
* ``trainer.Trainer`` / ``TrainConfig``: MaskablePPO runs with checkpoints, exact resume,
  TensorBoard, learning curves and a final evaluation table.
* ``evaluate``: an agent against tables of baselines, seats rotated, Wilson intervals.
* ``cli``: the ``smuggle train`` subcommand; ``parser``: its options (argparse only).

Trained models load as agents: ``agents.make_agent("ppo:runs/smuggle_v0/final.zip", game)``.
Nothing here imports torch until a run starts.
"""
