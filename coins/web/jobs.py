"""Searches run off the server's event loop, each with a time limit, its progress
and a cancel.

The board's requests that search (solve, analyze, review, hint, graph) run on
a small pool of worker threads, so the server answers other requests while
they run (the compiled searches release the GIL). A request may name its job
(``"job": "<id>"``): ``GET /api/jobs/<id>`` then tells what it is doing and
for how long, with the results it has finished so far (a review's cards, as
each is done), and ``POST /api/jobs/<id>/cancel`` stops its searches at once
through ``solver.threads.Cancel``, as Ctrl-C stops the command's (or as it
starts, when the cancel overtook the request). The first
job of a server that finds the solver not compiled yet compiles it first and
says so, so the page can tell why it waits.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from solver.compiled import is_compiled, warm_up
from solver.threads import Cancel

from ..notice import COMPILE_NOTICE
from .fields import FieldError

DEFAULT_TIME_LIMIT = 60.0  # seconds a search may take unless the request or `coins serve` says
SEARCH_WORKERS = 2  # searches at once: one a core; the rest wait their turn
JOB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
EARLY_CANCELS = 256  # cancels that came before their job's request, kept for it


class Cancelled(Exception):
    """The user cancelled a job before it had anything to show."""


class Job:
    """One request's search: what it is doing (``progress``), since when, what it
    has finished so far (``partial``: JSON objects, in the order finished) and its cancel."""

    def __init__(self, job_id: str, command: str, time_limit: float | None):
        self.id = job_id
        self.command = command
        self.time_limit = time_limit
        self.started = time.perf_counter()
        self.message = "waiting for a free worker"
        self.cancel = Cancel()
        self.partial: list[dict] = []

    def progress(self, message: str) -> None:
        self.message = message

    def to_json(self) -> dict:
        return {
            "job": self.id,
            "command": self.command,
            "progress": self.message,
            "seconds": round(time.perf_counter() - self.started, 3),
            "time_limit": self.time_limit,
            "cancelled": self.cancel.is_set,
            "partial": list(self.partial),
        }


class Jobs:
    """The pool the searches run on and the jobs running or waiting there."""

    def __init__(self, workers: int = SEARCH_WORKERS):
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="coins-web")
        self.running: dict[str, Job] = {}
        self.early: deque[str] = deque(maxlen=EARLY_CANCELS)
        self.lock = threading.Lock()

    async def run(
        self,
        job_id: str | None,
        command: str,
        time_limit: float | None,
        work: Callable[[Job], dict],
    ) -> dict:
        """``work(job)`` on a worker thread, its searches watching the job's cancel;
        raises ``Cancelled`` if a cancel stopped it with nothing to show."""
        if job_id is None:
            job_id = uuid.uuid4().hex
        elif not isinstance(job_id, str) or not JOB_ID.fullmatch(job_id):
            raise FieldError(f"job is up to 64 letters, digits, - or _, not {job_id!r}", "job")
        job = Job(job_id, command, time_limit)
        with self.lock:
            if job_id in self.running:
                raise FieldError(f'job "{job_id}" is already running', "job")
            self.running[job_id] = job
            if job_id in self.early:  # the page gave it up while its request was on the way
                self.early.remove(job_id)
                job.cancel.set()
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self.executor, self._work, job, work
            )
        finally:
            with self.lock:
                del self.running[job_id]

    @staticmethod
    def _work(job: Job, work: Callable[[Job], dict]) -> dict:
        if not is_compiled():  # once per machine: the page shows why the first search waits
            job.progress(COMPILE_NOTICE)
            warm_up()
        job.progress("searching")
        with job.cancel.watching():
            try:
                return work(job)
            except KeyboardInterrupt:  # a search stopped by the cancel, with no result to give
                raise Cancelled(f"{job.command} cancelled") from None

    def cancel(self, job_id: str) -> bool:
        """Stop the job's searches; True if it was running. A job not running yet is
        stopped as it starts: a page's cancel may overtake the request it cancels."""
        with self.lock:
            job = self.running.get(job_id)
            if job is None:
                if JOB_ID.fullmatch(job_id):
                    self.early.append(job_id)
                return False
        job.cancel.set()
        return True

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            return self.running.get(job_id)

    def shutdown(self) -> None:
        with self.lock:
            for job in self.running.values():
                job.cancel.set()
        self.executor.shutdown(wait=False, cancel_futures=True)
