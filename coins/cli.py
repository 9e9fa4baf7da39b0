"""The ``coins`` command line: reads the arguments with the parser of
``coins.commands`` (plus the board's ``serve``), runs the command, and ends
bad input, Ctrl-C and output that cannot be written in one line with the
exit status README gives.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys

from rich.console import Console

from solver import CoinsError

from . import commands, web

OUTPUT_FAILED = 74  # sysexits.h EX_IOERR: standard output failed (a full disk, a closed pipe)


def _broken_pipe(console: Console) -> None:
    """rich's ``Console.on_broken_pipe``: the BrokenPipeError goes on to ``main``, which
    reports it as any output it cannot write (rich's own exits with status 1, silently)."""
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


Console.on_broken_pipe = _broken_pipe


def build_parser() -> argparse.ArgumentParser:
    """Every command's parser, the board's ``serve`` last."""
    return commands.build_parser(web.register)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (README, "Exit status")."""
    try:
        try:
            return _run(build_parser(), argv)
        finally:  # now, not at exit: a full disk or a closed pipe is caught below
            sys.stdout.flush()
    except OSError as error:  # the output (or a file) could not be written
        if error.filename is None:  # standard output, which the flush at exit would try again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        what = error.filename or "cannot write the output"
        print(f"coins: error: {what}: {error.strerror or error}", file=sys.stderr)
        return OUTPUT_FAILED


def _run(parser: argparse.ArgumentParser, argv: list[str] | None) -> int:
    """Read ``argv`` and run its command: bad input and Ctrl-C end in one line."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse: --help or --version (0) or a usage error (2)
        return stop.code
    try:
        if hasattr(args, "check"):  # the command's checks of several arguments at once
            args.check(args)
        args.run(args)
    except CoinsError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    return 0
