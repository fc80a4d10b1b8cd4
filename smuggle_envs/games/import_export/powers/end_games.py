"""Powers: end_games (see powers/__init__.py)."""
