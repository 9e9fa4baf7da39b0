"""The web board's JSON fields read as a command's options, by that command's own parser.

``POST /api/solve {"position": "...", "mode": "both", "time_limit": 5}`` is read
as ``coins solve POSITION --mode both --time-limit 5`` by the sub-parser the
command line uses: the same types, choices, defaults and one-line errors, and
no second list of options to keep in step.
"""

from __future__ import annotations

import argparse

from solver import CoinsError

# what the command line has and a JSON request does not
LEFT_OUT = ("help", "json", "out", "force", "run")


class FieldError(CoinsError):
    """A request's field that its command cannot take; ``field`` names it."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def command_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The sub-parser of each command of ``parser`` (argparse keeps them in a
    private action), each made to raise ``FieldError`` rather than exit."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in commands.choices.values():
        command.error = _raise_field_error
    return dict(commands.choices)


def _raise_field_error(message: str):
    raise FieldError(message)


def fields_of(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The fields a command takes: its options' and arguments' names (``dest``)."""
    return {a.dest: a for a in parser._actions if a.dest not in LEFT_OUT}


def read_fields(
    parser: argparse.ArgumentParser, fields: dict, command: str, preset: dict | None = None
) -> argparse.Namespace:
    """``fields`` (a JSON object, or a query string's values) as ``parser``'s
    options; ``preset``: options the board sets itself (``{"out": ...}``)."""
    if not isinstance(fields, dict):
        raise FieldError(f"{command} takes a JSON object of fields, not {type(fields).__name__}")
    actions = fields_of(parser)
    options = [f"--{name.replace('_', '-')}={value}" for name, value in (preset or {}).items()]
    arguments: list[str] = []
    for name, value in fields.items():
        action = actions.get(name)
        if action is None:
            raise FieldError(
                f'{command} has no field "{name}": it takes {", ".join(actions)}', name
            )
        if value is None:
            continue  # the default
        if action.nargs == 0:  # a flag
            if not isinstance(value, bool):
                raise FieldError(f"{name} is true or false, not {value!r}", name)
            options += [action.option_strings[-1]] if value else []
            continue
        words = _words(name, value, action)
        if not action.option_strings:
            arguments += words
        elif len(words) == 1:
            options.append(f"{action.option_strings[-1]}={words[0]}")  # "=": "-1" stays a value
        else:
            options += [action.option_strings[-1], *words]
    missing = [
        name for name, a in actions.items() if not a.option_strings and fields.get(name) is None
    ]
    if missing:
        raise FieldError(f"{command} needs the field {missing[0]}", missing[0])
    return parser.parse_args([*options, "--", *arguments] if arguments else options)


def _words(name: str, value, action: argparse.Action) -> list[str]:
    """A field's value as the words the command line would have had."""
    several = action.nargs not in (None, "?")
    values = value if several and isinstance(value, list) else [value]
    if several and not isinstance(value, list) and not isinstance(value, str):
        raise FieldError(f"{name} is a list, not {value!r}", name)
    words = []
    for item in values:
        if isinstance(item, bool) or not isinstance(item, (str, int, float)):
            raise FieldError(
                f"{name} is a {'list of ' if several else ''}text or number, not {item!r}", name
            )
        words.append(str(item))
    return words
