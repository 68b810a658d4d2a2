"""The ``handsolver`` command: a thin typer app whose commands load only when run.

Start-up matters for a command answered in milliseconds, so a command's module (and the engines
and tables it imports) is imported only when that command runs or shows its help; ``handsolver
--help`` reads the one-line summaries from :data:`COMMANDS`.

Everything that can go wrong ends here as one line on stderr and a documented exit code
(``docs/cli.md``): usage errors and bad input 2, internal errors 3, Ctrl-C 130, SIGTERM 143;
a closed pipe (``| head``) ends quietly with 0; never a traceback (set
``HANDSOLVER_TRACEBACK=1`` to see one for an internal error).
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Sequence
from signal import SIGTERM
from typing import Annotated, Any

import typer
from typer._click.exceptions import ClickException  # typer vendors click from 0.26 on
from typer.core import TyperGroup

from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    EXIT_USAGE,
    Interrupted,
    error_line,
    os_error_message,
)
from handsolver.solver.commands.options import strict_parameters

# Every command: the package under handsolver.solver.commands whose register(app) adds it, and
# its one-line summary for `handsolver --help` (a test checks it matches the command's own).
COMMANDS: dict[str, tuple[str, str]] = {
    "badugi": (
        "badugi",
        "Judge a Badugi showdown (ace low; distinct ranks and suits play; more cards win).",
    ),
    "poker": (
        "poker",
        "Judge a standard poker showdown: category, the five cards that play, the winner(s).",
    ),
    "euler54": (
        "poker",
        "Project Euler 54: count Player 1's wins over lines of ten cards (five each).",
    ),
    "big2": ("big2", "Big 2: partition a hand into the fewest legal plays."),
    "sixcard": (
        "sixcard",
        "The six-card game (16 cards, values 1-4): best splits, strategies, the equilibrium.",
    ),
    "paigow": (
        "paigow",
        "Pai Gow poker: the house way, exact values of every setting, house-way studies.",
    ),
    "chinese": (
        "chinese",
        "Chinese poker (13 cards set 3/5/5): best settings and the best-response study.",
    ),
    "ofc": (
        "ofc",
        "Open-face Chinese poker (Pineapple or classic): fantasyland, positions, the value of "
        "fantasyland.",
    ),
    "verify": (
        "golf",
        "Run an answer program on a challenge's own, adversarial and random cases.",
    ),
    "cases": (
        "golf",
        "Write a challenge's cases with a correct answer each, for testing elsewhere.",
    ),
}


def load_command(name: str) -> Any:
    """The click command ``name``, built from its module (imported now, not at start-up)."""
    import importlib

    from typer.main import get_group

    module = importlib.import_module(f"handsolver.solver.commands.{COMMANDS[name][0]}")
    holder = typer.Typer(rich_markup_mode=None)
    module.register(holder)
    command = get_group(holder).commands[name]
    strict_parameters(command)
    return command


_interrupted = False
_terminated = False
# What a failed write to standard output reports (a full disk, a closed pipe or descriptor).
_OUTPUT_ERRORS = {errno.EPIPE, errno.ENOSPC, errno.EBADF, errno.EIO, errno.EDQUOT, errno.EFBIG}


def _on_interrupt(signum: int, frame: Any) -> None:
    """Python's own Ctrl-C, remembered: whatever it breaks (an import of a C extension fails
    with ImportError, say) is then reported as the interruption it is.  SIGTERM takes the same
    way out (every cleanup that Ctrl-C runs runs for it too) and ends with exit code 143."""
    global _interrupted, _terminated
    _interrupted = True
    _terminated = _terminated or signum == SIGTERM
    raise KeyboardInterrupt


def _send_again(unraisable: Any) -> None:
    """An interruption raised where Python cannot pass an exception on (a finalizer, a callback
    from C code, as when numba compiles a kernel) would be lost there, and the command would run
    on: the same signal is sent again a moment later, from another thread, so that it lands in
    the command's own code and stops it as anywhere else.  Other unraisable exceptions go to
    the hook there was before."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt) and _interrupted:
        import signal
        import threading

        number = SIGTERM if _terminated else signal.SIGINT
        sender = threading.Timer(0.01, os.kill, (os.getpid(), number))
        sender.daemon = True
        sender.start()
        return
    _hook_before(unraisable)


_hook_before = sys.unraisablehook


def _with_catch(run: Callable[[], Any]) -> int:
    """Run the command line and turn every way it can end into an exit code and at most one
    line on stderr."""
    import signal

    previous = {number: signal.getsignal(number) for number in (signal.SIGINT, SIGTERM)}
    if previous[signal.SIGINT] is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_interrupt)
    if previous[SIGTERM] == signal.SIG_DFL:
        signal.signal(SIGTERM, _on_interrupt)
    global _hook_before
    _hook_before = sys.unraisablehook
    sys.unraisablehook = _send_again
    try:
        code = _exit_code(run)
    finally:
        sys.unraisablehook = _hook_before
        for number, handler in previous.items():
            if handler is not None:
                signal.signal(number, handler)
    if code == EXIT_INTERRUPTED and _terminated:
        return EXIT_TERMINATED
    return code


def _exit_code(run: Callable[[], Any]) -> int:
    try:
        code = run()
        _flush_stdout()
        if code == EXIT_INTERRUPTED and _interrupted:  # typer turned it into an exit code
            _say(_stopped("interrupted"))
        return code if isinstance(code, int) else 0
    except typer.Exit as done:  # raised outside a command (help, --version)
        _flush_stdout_quietly()
        return done.exit_code
    except ClickException as error:
        _flush_stdout_quietly()
        ctx = getattr(error, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        bare = _bare_group(error, ctx)
        message = "no arguments given" if bare else error.format_message()
        error_line(f"{message}{hint}")
        if bare and ctx is not None:
            _say(_command_list(ctx))
        return error.exit_code
    except InputError as error:  # bad input found while the work ran (a batch line, a cluster)
        _flush_stdout_quietly()
        error_line(str(error))
        return EXIT_USAGE
    except (Interrupted, KeyboardInterrupt) as stop:
        _flush_stdout_quietly()
        _say(_stopped(str(stop) or "interrupted"))
        return EXIT_INTERRUPTED
    except (OSError, _Failed) as failure:  # a write failed (a file's errors name the file)
        cause = failure.error if isinstance(failure, _Failed) else failure
        _silence_stdout()
        if cause.filename is None and cause.errno == errno.EPIPE:
            return 0  # the reader has all it wanted (`| head`): quiet, as git and ripgrep are
        if cause.filename is not None:
            error_line(os_error_message(cause))
        elif cause.errno in _OUTPUT_ERRORS:
            error_line(f"cannot write to standard output: {cause.strerror or cause}")
        else:
            error_line(str(cause.strerror or cause))
        return EXIT_USAGE
    except Exception as error:  # a bug: one line, and the traceback only when asked for
        if _interrupted:
            _flush_stdout_quietly()
            _say(_stopped("interrupted"))
            return EXIT_INTERRUPTED
        if os.environ.get("HANDSOLVER_TRACEBACK"):
            raise
        _flush_stdout_quietly()
        error_line(
            f"internal error ({type(error).__name__}: {error}); please report it, "
            "with HANDSOLVER_TRACEBACK=1 for the details"
        )
        return EXIT_INTERNAL


def _bare_group(error: ClickException, ctx: Any) -> bool:
    """Whether ``error`` is a group run without arguments (its commands are then listed)."""
    if type(error).__name__ == "NoArgsIsHelpError":  # a group that set no_args_is_help
        return True
    group = ctx is not None and hasattr(ctx.command, "commands")
    return group and error.format_message() == "Missing command."


def _command_list(ctx: Any) -> str:
    """The group's commands with their summaries, as its ``--help`` lists them."""
    formatter = ctx.make_formatter()
    ctx.command.format_commands(ctx, formatter)
    listing: str = formatter.getvalue()
    return listing.rstrip()


def _stopped(message: str) -> str:
    """The line for a stop: ``interrupted ...`` after Ctrl-C, ``terminated ...`` after SIGTERM."""
    if _terminated:
        return message.replace("interrupted", "terminated", 1)
    return message


def _say(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, AttributeError, ValueError):
        pass


def _flush_stdout() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


def _flush_stdout_quietly() -> None:
    try:
        _flush_stdout()
    except (OSError, ValueError):
        _silence_stdout()


def _silence_stdout() -> None:
    """After a failed write to stdout, point it at /dev/null so the exit flush stays quiet."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError):
        pass


class _Failed(Exception):
    """An OSError carried past typer, which would turn a broken pipe into a silent exit 1."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _ClosedStdout:
    """Standing in for a closed stdout (``>&-``): the first write is a clear error."""

    closed = False

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise ValueError("standard output is closed")


class LazyCommands(TyperGroup):
    """The root group: commands from :data:`COMMANDS`, loaded on use, and the one place where
    every error, signal and failed write becomes one line and an exit code."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *COMMANDS]

    def get_command(self, ctx: Any, name: str) -> Any:
        if name not in self.commands and name in COMMANDS:
            self.commands[name] = load_command(name)
        return super().get_command(ctx, name)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as error:
            raise _Failed(error) from error
        except KeyboardInterrupt:  # typer would exit 130 without a word
            raise Interrupted("interrupted") from None

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except ClickException as error:  # typer suggests only among the commands loaded
            import difflib

            close = difflib.get_close_matches(args[0], COMMANDS) if args else []
            if close and "Did you mean" not in error.message:
                names = ", ".join(repr(name) for name in close)
                error.message = f"{error.message.rstrip('.')}. Did you mean {names}?"
            raise

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = [(name, summary) for name, (_, summary) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        def run() -> Any:
            return super(LazyCommands, self).main(
                args, prog_name, complete_var, False, windows_expand_args, **extra
            )

        if not standalone_mode:
            return run()
        if sys.stdout is None:
            sys.stdout = _ClosedStdout()
        sys.exit(_with_catch(run))


app = typer.Typer(
    name="handsolver",
    cls=LazyCommands,
    help="Exact answers to hard questions about card hands.",
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from handsolver.solver import __version__

        typer.echo(f"handsolver {__version__}")
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
    separated by '-' or '|'; '-' alone reads hands from standard input.  Every command takes
    --json.  Errors are one line on stderr: exit 2 for bad input, 130 after Ctrl-C.
    """
