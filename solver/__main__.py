"""``python -m handsolver.solver``: the ``handsolver`` command."""

from handsolver.solver.cli import app

app(prog_name="handsolver")
