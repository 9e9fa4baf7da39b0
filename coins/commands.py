"""Every command's options, defined once: the parser that the command line
(``coins.cli``) reads its arguments with and that the board (``coins.web``)
reads its JSON fields with, each command's by its own sub-parser. Neither of
them is imported here: the command line adds the board's ``serve`` command
itself (``build_parser(*more)``), so the board can use this module without
a cycle.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from importlib import metadata
from pathlib import Path

from solver.errors import cut_quotes

from . import analysis_commands, batch_commands, play_commands, solve_commands

DESCRIPTION = """coins: solve and deal positions of Coins, Mark Steere's three-player trick-taking game.

Positions are written in the notation of RULES.md, e.g.
"J9.J4..52 .K75.6.N8 A753.8.5. 0 -" (hands of seats 0, 1, 2 by suit
Cups.Coins.Swords.Clubs, the leader, the trick on the table, points taken).
"""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line (exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {cut_quotes(message)}; see {self.prog} --help\n")

    def _print_message(self, message, file=None):
        """Write ``--help`` and the like, letting a failed write through to ``main``
        (argparse's own drops it, and the help is lost with exit status 0)."""
        if message:
            (file or sys.stderr).write(message)


def version() -> str:
    """The installed package's version; run from a source tree that is not installed,
    pyproject.toml's, marked so (an installed copy elsewhere may differ)."""
    try:
        return metadata.version("coins-solver")
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        text = pyproject.read_text() if pyproject.is_file() else ""
        found = re.search(r'^version = "(.+)"', text, re.MULTILINE)
        return f"{found[1]} (source tree, not installed)" if found else "unknown (not installed)"


def build_parser(*more) -> argparse.ArgumentParser:
    """The ``coins`` parser with every command of this package's command modules;
    ``more`` are further modules' ``register(add)`` functions, whose commands
    come last (the command line's ``serve``)."""
    parser = _Parser(prog="coins", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    def add(name: str, function) -> argparse.ArgumentParser:
        """A sub-command that runs ``function``, its help taken from the docstring."""
        description = inspect.cleandoc(function.__doc__)
        summary = description.partition("\n\n")[0]
        command = commands.add_parser(
            name,
            help=" ".join(summary.split()),
            description=description,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.set_defaults(run=function)
        return command

    for register in (
        solve_commands.register,
        analysis_commands.register,
        batch_commands.register,
        play_commands.register,
        *more,
    ):
        register(add)
    return parser
