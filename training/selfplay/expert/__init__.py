"""Expert iteration: a MaskablePPO network taught by the search it guides (``smuggle train --teacher``).

``smuggle train ENV --teacher "ismcts:prior=student;value=student;sims=100"`` trains a student
network the way ExIt (Anthony et al. 2017) and AlphaZero do, round after round:

1. **Self-play positions.** ``games_per_round`` games in which every seat is the teacher, an
   IS-MCTS search (:class:`agents.search.ISMCTSAgent`) whose ``prior=student`` / ``value=student``
   is the *current* student's numpy network (``ppo:PATH`` or ``zoo`` names a fixed network
   instead). Each decision records the seat's observation, its action mask and the search's root
   visit distribution (``ISMCTSAgent.last_visits``); when the game ends, every decision gets its
   seat's ``win_loss`` outcome. For the first ``explore_moves`` decisions of a game the move is
   sampled from the visits (``visits ** (1 / temperature)``), after that it is the search's own.
   The networks in the search read sampled worlds only (:class:`agents.search_net.SearchNetwork`):
   the true state reaches no network.
2. **Learning.** The student (an sb3-contrib MaskablePPO policy, so its zip plays as ``ppo:PATH``,
   joins the zoo with ``smuggle zoo add`` and warm-starts PPO with ``--imitate ppo:PATH``) is fitted
   for ``epochs`` epochs to this round's positions and those of the ``replay_rounds - 1`` before:
   cross-entropy of its masked policy to the visit distribution plus ``value_weight`` times the
   squared error of its value head to the outcome (``expert_loss``), Adam (the model's own
   optimizer, saved in its zip) with gradients clipped to ``max_grad_norm``.
3. **Checkpoint and evaluation.** The round's model (zip and npz), positions and state are
   committed together; the student is evaluated against the random and rule-based agents
   (``training/selfplay/evaluate.py``), and the next round's search is guided by it.

**Workers.** ``workers`` W > 0 plays the round's games in W processes (``backend="ray"``: W Ray
tasks at a time); game ``g`` of round ``r`` is seeded from ``(seed, r, g)`` alone and the games
are assembled in game order, so W and the backend do not change the data (tests compare W = 1
and W = 2). The learner runs in the main process (``device``).

**Determinism and resume.** Everything is a function of the seed: the deals, the searches' own
RNGs, the exploration draws, the minibatch order (a generator seeded from ``(seed, r)``) and
the initial weights. A round is committed atomically (``rounds/round_NNNN/`` and
``rounds/latest.txt``), so a run stopped at any point resumes from its last complete round into
exactly the run that was not stopped (a test compares the npz bytes). A teacher with
``seconds=`` searches for a wall time instead of a number of simulations, and is not
reproducible.

The run directory::

    config.json                 {"recipe": "expert-iteration", "teacher": ..., the ExpertConfig}
    final.zip, final.npz        the last student: agent spec "ppo:<out>/final.zip"
    best.zip                    the round that did best against the rule bot (random without one)
    final_eval.json             the final evaluation, "recommended" as ``smuggle train`` writes it
    eval.csv, learning_curve.png the student's win rates after every round (step: positions learnt)
    rounds.csv                  per round: games, positions, times, losses
    rounds/round_NNNN/          model.zip (with Adam), student.npz, positions.npz, state.json

The modules, lowest first (each imports only modules above it; every public name is re-exported
here)::

    teacher.py   the --teacher spec: teacher_options, check_teacher, resolve_teacher, STUDENT
    config.py    ExpertConfig and its validation, is_expert_run, load_expert_config,
                 expert_command, RECIPE, INITS
    games.py     self-play: Positions, GameTask, GameRecord, play_game, the local and Ray pools
    learner.py   the student: new_student, expert_loss, fit, numpy_student
    loop.py      ExpertIteration: the rounds, resume, evaluation, commit, the final evaluation
"""

from .config import INITS, RECIPE, ExpertConfig, expert_command, is_expert_run, load_expert_config
from .games import GameRecord, GameTask, Positions, play_game
from .learner import expert_loss, fit, new_student, numpy_student
from .loop import ROUND_FIELDS, ExpertIteration
from .teacher import STUDENT, check_teacher, resolve_teacher, teacher_options

__all__ = [
    "INITS",
    "RECIPE",
    "ROUND_FIELDS",
    "STUDENT",
    "ExpertConfig",
    "ExpertIteration",
    "GameRecord",
    "GameTask",
    "Positions",
    "check_teacher",
    "expert_command",
    "expert_loss",
    "fit",
    "is_expert_run",
    "load_expert_config",
    "new_student",
    "numpy_student",
    "play_game",
    "resolve_teacher",
    "teacher_options",
]
