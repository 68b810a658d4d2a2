"""Command groups with a default command: ``big2 HAND`` means ``big2 solve HAND``, ``badugi
HANDS`` means ``badugi showdown HANDS``, while ``big2 batch FILE`` runs the subcommand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from typer._click.exceptions import NoArgsIsHelpError  # typer vendors click from 0.26 on
from typer.core import TyperGroup

if TYPE_CHECKING:
    import typer


class DefaultCommandGroup(TyperGroup):
    """A group that runs ``default_command`` when the first argument names no subcommand.

    Its help lists the default command's options too, so ``big2 --help`` shows how to solve.
    """

    default_command = ""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if ctx.resilient_parsing and not args:  # completing: offer the subcommands too
            return list(super().parse_args(ctx, args))
        if not args:  # run bare: the commands are listed (the default one needs arguments)
            raise NoArgsIsHelpError(ctx)
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            _refuse_a_typo(ctx, args[0] if args else "", list(self.commands))
            args = [self.default_command, *args]
        result: list[str] = super().parse_args(ctx, args)
        return result

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        found: list[Any] = super().shell_complete(ctx, incomplete)
        if incomplete.startswith("-"):  # the default command's options complete here too
            found += self.commands[self.default_command].shell_complete(ctx, incomplete)
        return found

    def format_options(self, ctx: Any, formatter: Any) -> None:
        super().format_options(ctx, formatter)
        default = self.commands[self.default_command]
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


def default_group(command: str) -> type[DefaultCommandGroup]:
    """A :class:`DefaultCommandGroup` class whose default is ``command``."""
    name = f"Default{command.title()}Group"
    return type(name, (DefaultCommandGroup,), {"default_command": command})


def command_group(
    name: str, commands: dict[str, Any], default: str = "", **settings: Any
) -> typer.Typer:
    """The group ``name`` with ``commands`` (its names and functions, in the order ``--help``
    lists them); with a ``default``, ``GROUP ARGS...`` runs that command.  ``settings`` go to
    :class:`typer.Typer` (help, metavar)."""
    import typer

    if default:
        settings |= {"cls": default_group(default), "rich_markup_mode": None}
    group = typer.Typer(name=name, **settings)
    for command, function in commands.items():
        group.command(command)(function)
    return group
