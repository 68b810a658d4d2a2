"""Engines built on ``models``: CP-SAT and LP models, batch runners, the golf verifier, the CLI."""

__version__ = "0.1.0"
"""The version, as pyproject.toml states it (a test checks they agree): ``--version`` prints
it without asking the installed metadata, which is slow to search."""
