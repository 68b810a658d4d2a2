"""CLI commands for big2 (not yet built)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
