"""``python -m training.cli ...``: the ``smuggle`` command line."""

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
