"""Engines built on ``models``: CP-SAT and LP models, batch runners, the golf verifier, the CLI."""
