"""The exceptions the toolkit raises: bad input (each says what and where),
and a solve stopped by Ctrl-C, which carries what it had proven."""

import re

QUOTED_CHARS = 80  # of a quoted input, the most an error message shows
# text in quotes ('...' or "...", backslash escapes inside; not an apostrophe) longer than that
_LONG_QUOTE = re.compile(rf"""(?<!\w)(['"])((?:(?!\1)[^\\]|\\.){{{QUOTED_CHARS + 1},}})\1(?!\w)""")


def cut_quotes(message: str) -> str:
    """``message`` with each quoted text beyond ``QUOTED_CHARS`` cut to that many
    and "...": an error quotes what it was given, which may be a 100 KB line."""
    return _LONG_QUOTE.sub(lambda m: f"{m[1]}{m[2][:QUOTED_CHARS]}...{m[1]}", message)


class CoinsError(ValueError):
    """Base class: bad input to the Coins toolkit (the message is one line; the
    input it quotes is cut: ``cut_quotes``)."""

    def __str__(self) -> str:
        return cut_quotes(super().__str__())


class NotationError(CoinsError):
    """Text that is not a card, hand, position or record in RULES.md notation."""


class PositionError(NotationError):
    """A position that breaks a rule: ``field`` names the part that is wrong."""

    def __init__(self, message: str, field: str = "position"):
        super().__init__(message)
        self.field = field


class IllegalMoveError(CoinsError):
    """A card that cannot be played here (not in the mover's hand, or the hand is over)."""


class SolveInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped ``solve``; ``result`` holds what was proven until then
    (not exact, like a result cut short by a limit). A KeyboardInterrupt, so
    code that does not look for it still stops."""

    def __init__(self, result):
        super().__init__("solve interrupted")
        self.result = result


class OptionError(CoinsError):
    """A number the toolkit cannot take (a limit, a count, a seed, a size): the
    message names the argument and the values it accepts (``solver.checks``)."""


class PathError(CoinsError):
    """A file that cannot be read or written, or that would overwrite another
    file of the same run (``solver.checks``)."""
