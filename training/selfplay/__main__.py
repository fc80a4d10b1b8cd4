"""``python -m training.selfplay train ENV_ID ...``: ``smuggle train`` without the ``smuggle`` CLI."""

from .cli import main

raise SystemExit(main())
