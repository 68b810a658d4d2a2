"""Command groups whose subcommands load when used (only the module of the command being run
is imported, so ``badugi HAND...`` does not import the draw engine), and groups with a default
command: ``big2 HAND`` means ``big2 solve HAND``, ``badugi HANDS`` means ``badugi showdown
HANDS``, while ``big2 batch FILE`` runs the subcommand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from typer._click.exceptions import NoArgsIsHelpError  # typer vendors click from 0.26 on
from typer.core import TyperGroup

if TYPE_CHECKING:
    import typer


class LazyGroup(TyperGroup):
    """A group whose subcommands are ``"module:function"`` names in :attr:`lazy` (modules
    under ``handsolver.solver.commands``), each built into a command (with the root's strict
    parameters) the first time it is asked for: run, completed or listed in the group's help."""

    lazy: ClassVar[dict[str, str]] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(self.lazy)
        return names + [name for name in super().list_commands(ctx) if name not in names]

    def get_command(self, ctx: Any, name: str) -> Any:
        if name not in self.commands and name in self.lazy:
            self.commands[name] = _built(name, self.lazy[name])
        return super().get_command(ctx, name)


def _built(name: str, where: str) -> Any:
    """The command ``name`` made from the function ``where`` (``"module:function"``)."""
    import importlib

    import typer
    from typer.main import get_command

    from handsolver.solver.commands.options import strict_parameters

    module, function = where.split(":")
    holder = typer.Typer(add_completion=False, rich_markup_mode=None)  # as the root loads it
    found = importlib.import_module(f"handsolver.solver.commands.{module}")
    holder.command(name)(getattr(found, function))
    command = get_command(holder)
    strict_parameters(command)
    return command


class DefaultCommandGroup(LazyGroup):
    """A group that runs ``default_command`` when the first argument names no subcommand.

    Its help lists the default command's options too, so ``big2 --help`` shows how to solve.
    """

    default_command = ""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if ctx.resilient_parsing and not args:  # completing: offer the subcommands too
            return list(super().parse_args(ctx, args))
        if not args:  # run bare: the commands are listed (the default one needs arguments)
            raise NoArgsIsHelpError(ctx)
        names = self.list_commands(ctx)
        if args[0] not in names and args[0] not in ctx.help_option_names:
            _refuse_a_typo(ctx, args[0], names)
            args = [self.default_command, *args]
        result: list[str] = super().parse_args(ctx, args)
        return result

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        found: list[Any] = super().shell_complete(ctx, incomplete)
        if incomplete.startswith("-"):  # the default command's options complete here too
            found += self.get_command(ctx, self.default_command).shell_complete(ctx, incomplete)
        return found

    def format_options(self, ctx: Any, formatter: Any) -> None:
        super().format_options(ctx, formatter)
        default = self.get_command(ctx, self.default_command)
        records = [param.get_help_record(ctx) for param in default.get_params(ctx)]
        with formatter.section(
            f"Options of '{ctx.command_path} {self.default_command}' (the default command)"
        ):
            formatter.write_dl([record for record in records if record is not None])


def _refuse_a_typo(ctx: Any, word: str, names: list[str]) -> None:
    """A word that is not cards but close to a subcommand (``big2 chek``) is a typo of it,
    refused as click refuses an unknown command, with the suggestion."""
    from difflib import get_close_matches

    from typer._click.exceptions import UsageError

    from handsolver.models.cards import InputError, parse_cards

    if not (word.isascii() and word.isalpha()):
        return
    matches = get_close_matches(word.lower(), names)
    if not matches:
        return
    try:
        parse_cards(word)
    except InputError:
        suggestions = ", ".join(repr(name) for name in matches)
        raise UsageError(f"No such command {word!r}. Did you mean {suggestions}?", ctx) from None


def command_group(
    name: str, commands: dict[str, str], default: str = "", **settings: Any
) -> typer.Typer:
    """The group ``name`` with ``commands`` (its names and ``"module:function"`` names, modules
    under ``handsolver.solver.commands``, in the order ``--help`` lists them, each imported only
    when used); with a ``default``, ``GROUP
    ARGS...`` runs that command.  ``settings`` go to :class:`typer.Typer` (help, metavar)."""
    import typer

    fields = {"lazy": dict(commands), "default_command": default}
    base = DefaultCommandGroup if default else LazyGroup
    cls = type(f"{name.title().replace('-', '')}Group", (base,), fields)
    if default:
        settings |= {"rich_markup_mode": None}
    return typer.Typer(name=name, cls=cls, **settings)
