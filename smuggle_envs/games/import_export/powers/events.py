"""Powers: events (see powers/__init__.py)."""
