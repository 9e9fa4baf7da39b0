"""README.md's examples run: its Python sessions as doctests, its ``$ coins`` transcripts
through the CLI, and its test command is the one CI runs."""

import doctest
import re
import shlex
from pathlib import Path

import pytest

from coins import cli, notice

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def blocks(language):
    """The bodies of README's fenced blocks of ``language``."""
    return re.findall(rf"^```{language}\n(.*?)^```", README, re.MULTILINE | re.DOTALL)


PICTURE = re.compile(r"--out \S+\.(svg|png|pdf)\b")  # drawn by Graphviz's dot


def transcripts():
    """(command, expected output) for each ``$ coins ...`` line of the console blocks;
    the ones that draw a picture need Graphviz's dot."""
    pairs = []
    for block in blocks("console"):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            marks = [pytest.mark.needs_dot] if PICTURE.search(command) else []
            pairs.append(pytest.param(command, output, marks=marks))
    return pairs


def test_python_examples():
    """The pycon blocks, run in order as one session (later ones use earlier names)."""
    session = "\n".join(blocks("pycon"))
    test = doctest.DocTestParser().get_doctest(session, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted >= 10


@pytest.mark.parametrize("command, expected", transcripts())
def test_cli_examples(command, expected, capsys, monkeypatch, tmp_path):
    # in a scratch folder shaped like the repository, so that `coins graph --out
    # docs/...` writes there and leaves the committed picture alone
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(notice, "is_compiled", lambda: True)  # no compile notice in the transcript
    words = shlex.split(command)
    assert words[0] == "coins"
    cli.main(words[1:])
    out, err = capsys.readouterr()
    assert doctest.OutputChecker().check_output(expected, out + err, FLAGS), out + err


def test_transcripts_were_found():
    found = transcripts()
    assert len(found) >= 4
    assert any(pair.marks for pair in found)  # the decision graph drawn as a PNG


def test_ci_runs_the_readme_test_command():
    quick_start = README.split("## Quick start")[1].split("\n## ")[0]
    install_and_solve, install_and_test = blocks("bash")[:2]
    assert install_and_solve.strip() in quick_start and install_and_test.strip() in quick_start
    assert install_and_test.strip() in (REPO / ".ci" / "run").read_text()
