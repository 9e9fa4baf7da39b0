"""Batch solving: many positions, one JSON line of values each, safe to interrupt and resume.

The input is a list of numbered lines, each a position or a record of play
(RULES.md; a record stands for the position after its cards). Blank lines
and lines starting with ``#`` are not input (suite files carry ``#``
headers) but keep their numbers, so a result's ``line`` is the line of the
file it came from. ``run_batch`` solves the lines in chunks on joblib
workers (local processes, or a Dask cluster) and appends one JSON object per
line to the output as each chunk finishes::

    {"line": 3, "text": "...", "mode": "paranoid", "position": "...", "to_move": 0,
     "guaranteed": [1, 2, 0], "exact": true, "nodes": 1234, "seconds": 0.002}

(``equilibrium`` in max^n mode, both in ``both``; ``bounds`` when a limit cut
the search short; ``card_values``/``optimal``/``card_results`` and the lines
of play only when asked). A line that is not a position or record becomes
``{"line": 3, "text": "...", "error": "..."}`` and the batch goes on.

Nothing is lost: every chunk is written and flushed as it arrives, so an
interrupted batch keeps all it finished; run it again with the same output
and it skips the line numbers the output already holds (``load_output``),
after dropping a last line cut off mid-write. Each worker process keeps its
transposition tables from one position to the next (``worker_tables``) and
searches on one thread: the processes are the parallelism.
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from itertools import islice
from pathlib import Path

from solver import CoinsError, Position, Record, TranspositionTable, checks, solve
from solver.cards import HAND_SIZE, SEATS
from solver.errors import PathError
from solver.maxn import MaxnTable, maxn_table_megabytes
from solver.paranoid import table_megabytes
from solver.solve import MODES

COMMENT = "#"
# Chunks: enough of them that every worker stays busy to the end and progress moves,
# few enough that a task's overhead (pickling, a round trip) is small next to its work.
CHUNKS_PER_WORKER = 8
MAX_CHUNK = 64
# Worker tables are cleared before positions of this many cards a hand or more. Small
# endings share sub-endings, so a table kept from earlier positions saves work; from 8
# cards the old entries only crowd the table (docs/experiments.md).
CLEAR_FROM_CARDS = 8
# Bounds on the numbers a batch takes, far above any real run, so that a mistyped
# number is refused rather than started (a batch of 10^9 endings would run for years).
MAX_LINES = 10**9  # random lines (--random, a study's --count)
MAX_WORKERS = 1024
MAX_CHUNK_LINES = 10_000


class BatchError(CoinsError):
    """A batch that cannot start or go on: its input, or an output that holds another batch."""


@dataclass(frozen=True)
class BatchOptions:
    """How each line is solved: ``solve``'s mode and limits (per line), and what goes out.

    ``card_values`` adds the mover's per-card values (paranoid ``card_values``
    and ``optimal``, max^n ``card_results``); ``lines`` adds the lines of play
    (``optimal_line``, ``equilibrium_line``).
    """

    mode: str = "paranoid"
    max_nodes: int | None = None
    time_limit: float | None = None
    card_values: bool = False
    lines: bool = False

    def __post_init__(self):
        if self.mode not in MODES:
            raise BatchError(f'mode "{self.mode}" is not a mode: use paranoid, maxn or both')
        checks.node_limit(self.max_nodes)
        checks.time_limit(self.time_limit)


@dataclass
class BatchSummary:
    """What a run did. ``skipped``: lines the output already held; ``solved``: lines
    solved this run (``cut_short`` of them not exact); ``errors``: error records
    written this run; ``left``: lines not done when the run stopped."""

    total: int = 0
    skipped: int = 0
    solved: int = 0
    errors: int = 0
    cut_short: int = 0
    left: int = 0
    nodes: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    failure: str | None = None  # what stopped the run early (a worker that died ...)
    repaired: bool = False  # a last line cut off mid-write was dropped from the output

    @property
    def done(self) -> int:
        return self.solved + self.errors

    def to_json(self) -> dict:
        return asdict(self) | {"seconds": round(self.seconds, 3)}


# ----- input ----------------------------------------------------------------------


def read_lines(lines: Iterable[str]) -> list[tuple[int, str]]:
    """``(number, text)`` of each input line (numbered from 1), skipping blank lines and
    ``#`` comments; the text loses its surrounding white space."""
    items = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if text and not text.startswith(COMMENT):
            items.append((number, text))
    return items


def read_input(source: str | os.PathLike) -> list[tuple[int, str]]:
    """``read_lines`` of a file (``-`` is standard input)."""
    import sys

    if str(source) == "-":
        return read_lines(sys.stdin.read().splitlines())
    try:
        text = Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BatchError(f"cannot read the input {source}: {error}") from None
    return read_lines(text.splitlines())


@dataclass(frozen=True)
class GeneratedLines:
    """``count`` numbered lines (from 1), each ``str(make(rng))`` drawn from one
    ``random.Random(seed)``, made as they are read: the same seed gives the same
    lines, so a batch of them resumes like a file, and however many there are
    none waits in memory. ``len`` is ``count``; they can be read again and again."""

    count: int
    seed: int
    make: Callable[[random.Random], object]

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[tuple[int, str]]:
        rng = random.Random(self.seed)
        for number in range(1, self.count + 1):
            yield number, str(self.make(rng))


def random_lines(count: int, cards: int, seed: int = 0, leader: int = 0) -> GeneratedLines:
    """``count`` (0 to ``MAX_LINES``) random ``cards``-card endings (``Position.random``)
    led by ``leader``, numbered from 1, made as they are read (``GeneratedLines``)."""
    count = checks.whole_number(count, "the number of random positions", 0, MAX_LINES)
    checks.whole_number(cards, "cards per hand", 0, HAND_SIZE)
    checks.whole_number(leader, "the leader", 0, SEATS - 1)
    return GeneratedLines(
        count, checks.seed(seed), partial(Position.random, cards=cards, leader=leader)
    )


def parse_input(text: str) -> Position:
    """The position an input line stands for: the line itself, or a record's position after
    its cards (``<position> | <card> ...``)."""
    if "|" in text:
        record = Record.parse(text)
        if record.is_view:
            raise BatchError("a record with hidden hands (?) cannot be solved open-handed")
        return record.final
    return Position.parse(text)


# ----- solving (runs in the workers) ------------------------------------------------


# this process's tables (a thread's: a Dask worker may run tasks on several threads at once),
# kept between positions
_local = threading.local()


def worker_tables(position: Position, mode: str) -> tuple[TranspositionTable, MaxnTable]:
    """The paranoid and max^n tables this process solves ``position`` with: made on first
    use (each grown when a larger position needs it, as ``solve`` does),
    kept for the next positions, cleared first from ``CLEAR_FROM_CARDS`` cards on. Each
    thread has its own (a Dask worker may run several tasks at once on threads)."""
    if not hasattr(_local, "tables"):
        _local.tables = {}
    _tables = _local.tables
    for name, kind, megabytes in (
        ("paranoid", TranspositionTable, table_megabytes(position.cards_per_hand)),
        ("maxn", MaxnTable, maxn_table_megabytes(position.cards_per_hand)),
    ):
        if name not in _tables or _tables[name].megabytes < megabytes:
            _tables[name] = kind(megabytes)
    if position.cards_per_hand >= CLEAR_FROM_CARDS:
        for name in ("paranoid", "maxn"):
            if mode in (name, "both"):
                _tables[name].clear()
    return _tables["paranoid"], _tables["maxn"]


def solve_line(number: int, text: str, options: BatchOptions) -> dict:
    """The output record of one input line: its values, or the error that stopped it."""
    try:
        position = parse_input(text)
        table, maxn_table = worker_tables(position, options.mode)
        result = solve(
            position,
            (0, 1, 2),
            options.max_nodes,
            options.time_limit,
            mode=options.mode,
            card_values=options.card_values,
            line=options.lines,
            table=table,
            maxn_table=maxn_table,
            threads=1,
        )
    except CoinsError as error:
        return {"line": number, "text": text, "error": str(error)}
    except Exception as error:  # a bug must not stop a long batch: record it and go on
        return {"line": number, "text": text, "error": f"{type(error).__name__}: {error}"}
    out = {
        "line": number,
        "text": text,
        "mode": options.mode,
        "position": str(position),
        "to_move": position.to_move,
    }
    if options.mode in ("paranoid", "both"):
        out["guaranteed"] = result.guaranteed
        if not result.exact:
            out["bounds"] = [list(b) if b is not None else None for b in result.bounds]
        if options.card_values:
            out["card_values"] = {str(c): v for c, v in result.card_values.items()}
            out["optimal"] = [str(c) for c in result.optimal]
        if options.lines:
            out["optimal_line"] = [str(c) for c in result.line]
    if options.mode in ("maxn", "both"):
        out["equilibrium"] = result.equilibrium
        if options.card_values:
            out["card_results"] = {str(c): v for c, v in result.card_results.items()}
        if options.lines:
            out["equilibrium_line"] = [str(c) for c in result.equilibrium_line]
    out |= {"exact": result.exact, "nodes": result.nodes, "seconds": round(result.seconds, 6)}
    return out


def solve_chunk(chunk: list[tuple[int, str]], options: BatchOptions) -> list[dict]:
    """``solve_line`` for each line of a chunk: one worker task."""
    return [solve_line(number, text, options) for number, text in chunk]


def chunk_size(lines: int, workers: int) -> int:
    """Lines per task: about ``CHUNKS_PER_WORKER`` tasks a worker, at most ``MAX_CHUNK``."""
    return max(1, min(MAX_CHUNK, math.ceil(lines / (max(workers, 1) * CHUNKS_PER_WORKER))))


def chunks(items: Iterable, size: int) -> Iterator[list]:
    """``items`` in lists of ``size`` (the last may be shorter), read as they are needed."""
    items = iter(items)
    while part := list(islice(items, size)):
        yield part


# ----- output and resuming ------------------------------------------------------------


def load_output(path: str | os.PathLike, repair: bool = True) -> tuple[dict[int, dict], bool]:
    """The records an output file already holds, by line number, and whether its last line
    was cut off mid-write (no newline). With ``repair`` that last line is cut from the
    file, so that appending starts on a fresh line. A missing file holds nothing, and so
    does a device or a pipe. A file with any other line than a record is not a batch's
    output, and is refused (``BatchError``) rather than added to."""
    path = Path(path)
    if not path.is_file():  # missing, or a device or pipe (/dev/stdout): nothing to resume
        return {}, False
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PathError(f"cannot read the output {path}: {error.strerror}") from None
    cut = data.rfind(b"\n") + 1  # everything after the last newline is a partial line
    truncated = cut < len(data)
    done: dict[int, dict] = {}
    for number, raw in enumerate(data[:cut].splitlines(), start=1):
        try:
            record = json.loads(raw)
        except ValueError:
            record = None
        if not isinstance(record, dict) or not isinstance(record.get("line"), int):
            raise BatchError(
                f"the output {path} is not a batch's results: its line {number} "
                "is not a result record; write to a new file"
            )
        done.setdefault(record["line"], record)
    if truncated and repair:
        with open(path, "r+b") as file:
            file.truncate(cut)
    return done, truncated


def check_output(out: str | os.PathLike, source: str | os.PathLike | None = None) -> Path:
    """``out`` if a batch may append to it: a file that can be written, not the file
    ``source`` it reads, and empty or a batch's results (``load_output``);
    ``PathError`` or ``BatchError`` otherwise."""
    out = checks.output_file(out, "the output", {"the input": source})
    load_output(out, repair=False)
    return out


def check_resume(done: dict[int, dict], items: Iterable[tuple[int, str]], options: BatchOptions):
    """Refuse to add to an output that holds another batch: each record there must be of
    an input line with the same text, solved in the same mode (error records: any mode).
    ``items`` are read only as far as the last line the output holds."""
    for record in done.values():
        if "error" not in record and record.get("mode") != options.mode:
            raise BatchError(
                f"the output holds results in mode {record.get('mode')}, not {options.mode}: "
                "write to a new file"
            )
    unmatched = set(done)
    lines = iter(items) if unmatched else iter(())
    while unmatched and (line := next(lines, None)) is not None:
        number, text = line
        if number in unmatched:
            unmatched.discard(number)
            if text != done[number].get("text"):
                _another_input(number, done[number])
    if unmatched:
        number = min(unmatched)
        _another_input(number, done[number])


def _another_input(number: int, record: dict):
    raise BatchError(
        f"the output holds line {number} of another input ({record.get('text')!r}): "
        "write to a new file, or run the batch that made it"
    )


@contextmanager
def _no_interrupt_while_writing():
    """Hold off Ctrl-C during a write, so that a line is never cut in half by it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt


# ----- running ------------------------------------------------------------------------


def default_workers() -> int:
    return os.cpu_count() or 1


def run_batch(
    items: Collection[tuple[int, str]],
    out: str | os.PathLike,
    options: BatchOptions = BatchOptions(),
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    on_progress: Callable[[int, int, BatchSummary], None] | None = None,
) -> BatchSummary:
    """Solve ``items`` (``(number, text)`` pairs: a list, or lines made as they are read
    such as ``random_lines``) into the JSONL file ``out``, skipping the lines it already
    holds; return what was done. ``check_output`` says which outputs are refused.

    ``workers`` processes (default: all cores; 1 solves in this process);
    with ``scheduler`` (a dask.distributed address, or a ``Client``) the
    chunks run on that cluster instead, ``workers`` at a time (default: all
    its cores). ``on_progress(done, to_do, summary)`` is called at the start
    and after each chunk. Ctrl-C stops the run: the summary says
    ``interrupted`` and what is ``left``, and what was written stays. A
    worker that dies (killed, out of memory) or a lost cluster stops it the
    same way, with the reason in ``failure``.
    """
    if workers is not None:
        checks.whole_number(workers, "workers", 1, MAX_WORKERS)
    if chunk is not None:
        checks.whole_number(chunk, "lines a chunk", 1, MAX_CHUNK_LINES)
    start = time.perf_counter()
    summary = BatchSummary(total=len(items))
    out = checks.output_file(out, "the output")
    done, summary.repaired = load_output(out)
    check_resume(done, items, options)
    summary.skipped = len(done)  # check_resume found each of them among the items
    summary.left = summary.total - summary.skipped
    if on_progress:
        on_progress(0, summary.left, summary)
    if not summary.left:
        summary.seconds = time.perf_counter() - start
        return summary
    count = summary.left
    todo = ((number, text) for number, text in items if number not in done)
    try:
        file = open(out, "ab", buffering=0)  # unbuffered: each write goes straight out
    except OSError as error:
        raise PathError(f"cannot write the output {out}: {error.strerror}") from None
    try:
        results = _results(todo, count, options, workers, scheduler, chunk)
        with file:
            try:
                for records in results:
                    _write(file, out, records, summary)
                    if on_progress:
                        on_progress(summary.done, count, summary)
            finally:
                results.close()  # stops the workers when the run stops early
    except KeyboardInterrupt:
        summary.interrupted = True
    except BatchError:
        raise
    except Exception as error:  # a worker killed, a cluster lost: keep what was written
        first_line = str(error).strip().partition("\n")[0]
        summary.failure = f"{type(error).__name__}: {first_line}".strip().rstrip(":")
    summary.seconds = time.perf_counter() - start
    return summary


def _write(file, out, records: list[dict], summary: BatchSummary) -> None:
    """Append a chunk's records (whole lines, flushed) and count them in ``summary``."""
    data = memoryview("".join(json.dumps(r) + "\n" for r in records).encode("utf-8"))
    try:
        with _no_interrupt_while_writing():
            while data:
                data = data[file.write(data) :]
            for record in records:
                if "error" in record:
                    summary.errors += 1
                else:
                    summary.solved += 1
                    summary.nodes += record["nodes"]
                    summary.cut_short += not record["exact"]
            summary.left -= len(records)
    except OSError as error:
        raise BatchError(
            f"cannot write the output {out}: {error}; what was written is kept: "
            "run the same command again to go on"
        ) from None


def _results(todo, count, options, workers, scheduler, chunk):
    """The records of the chunks of ``todo`` (``count`` lines), a chunk at a time, in the
    order they finish."""
    if scheduler is None and workers == 1:  # no processes to start: solve right here
        for part in chunks(todo, chunk or chunk_size(count, 1)):
            yield solve_chunk(part, options)
        return
    import joblib

    if scheduler is None:
        n_jobs = workers or default_workers()
        backend = joblib.parallel_config(backend="loky", n_jobs=n_jobs)
        client = None
    else:
        client = _client(scheduler)
        n_jobs = workers or max(sum(client.nthreads().values()), 1)
        backend = joblib.parallel_config(backend="dask", n_jobs=n_jobs)
    size = chunk or chunk_size(count, n_jobs)
    try:
        with backend:
            parallel = joblib.Parallel(
                return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs"
            )
            yield from parallel(
                joblib.delayed(solve_chunk)(part, options) for part in chunks(todo, size)
            )
    finally:
        if client is not None and isinstance(scheduler, str):
            client.close()


def _client(scheduler):
    try:
        from dask.distributed import Client
    except ImportError:
        raise BatchError(
            'running on a Dask cluster needs dask.distributed: pip install ".[cluster]"'
        ) from None
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler, timeout="20s")
    except (OSError, TimeoutError) as error:
        raise BatchError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
