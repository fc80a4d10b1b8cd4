"""Powers: immediates (see powers/__init__.py)."""
