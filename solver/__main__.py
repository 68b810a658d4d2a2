"""``python -m handsolver.solver``: the ``handsolver`` command."""

from handsolver.solver.cli import app

if __name__ == "__main__":
    app(prog_name="handsolver")
