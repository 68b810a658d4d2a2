"""The ``handsolver`` command: a thin typer app; each area registers its commands."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer._click.exceptions import ClickException  # typer vendors click from 0.26 on
from typer.core import TyperGroup

from handsolver.solver.commands import badugi, big2, golf, paigow, poker, sixcard


class OneLineErrors(TyperGroup):
    """Usage errors (a bad option value, a missing argument) as one line on stderr, exit 2.

    The commands report bad cards the same way (``commands.common.user_errors``), so
    every kind of bad input looks alike and never shows a traceback or a boxed panel.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except ClickException as error:
            # Bare `handsolver big2` has already printed its help; that is not an error line.
            if type(error).__name__ != "NoArgsIsHelpError":
                ctx = getattr(error, "ctx", None)
                hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
                typer.echo(f"error: {error.format_message()}{hint}", err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            typer.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="handsolver",
    cls=OneLineErrors,
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


for _area in (badugi, poker, big2, sixcard, paigow, golf):
    _area.register(app)
