"""The ``handsolver`` command: a thin typer app; each area registers its commands."""

from __future__ import annotations

from typing import Annotated

import typer

from solver.commands import badugi, big2, golf, poker, sixcard

app = typer.Typer(
    name="handsolver",
    help="Exact answers to hard questions about card hands.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        # importlib.metadata costs ~30 ms to import; only --version needs it.
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"handsolver {version('handsolver')}")
        except PackageNotFoundError:
            typer.echo("handsolver (not installed)")
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Exact answers to hard questions about card hands.

    Cards are written rank then suit: ranks A 2-9 T J Q K (ten also 0 or 10), suits c d h s in
    either case, separated by spaces, commas or nothing.  Several hands in one argument are
    separated by '-' or '|'.  Every command takes --json.
    """


for _area in (badugi, poker, big2, sixcard, golf):
    _area.register(app)
