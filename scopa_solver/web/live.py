"""The board's live analyses: an `AnalysisHandle` a thread of its own runs between requests, so
that the board starts one search, reads its progress (`info`: the depth being searched, the
nodes counted live, nodes per second) and its latest depth as often as it likes, and stops it,
instead of asking again from scratch with a longer time limit each time.

At most `most` run at once (a new one past the cap stops the oldest); one the board has not
asked about for `idle` seconds is stopped (a closed tab); `stop_all` ends them all (the server
stopping). Each is known by a random id, so one board cannot read or stop another's.
"""
from __future__ import annotations

import secrets
import threading
import time
from typing import Any, Callable, Optional

from ..errors import ScopaError
from ..kernel.limit import Limit
from ..core.position import Position
from ..search.solver import Analysis, AnalysisHandle, analysis

__all__ = ["LiveAnalyses", "NoSuchAnalysis"]


class NoSuchAnalysis(ScopaError):
    """The id names no live analysis (never started, stopped and dropped, or another server's)."""


class _Run:
    __slots__ = ("handle", "thread", "latest", "error", "asked", "started", "objective")

    def __init__(self, handle: AnalysisHandle[Analysis], objective: Any = "value") -> None:
        self.handle, self.objective = handle, objective
        self.latest: Optional[Analysis] = None
        self.error: Optional[BaseException] = None
        self.asked = self.started = time.monotonic()
        self.thread = threading.Thread(target=self._run, name="scopa-live-analysis", daemon=True)

    def _run(self) -> None:
        try:
            for snapshot in self.handle:
                self.latest = snapshot
        except BaseException as exc:        # reported to the board by `poll`, never lost
            self.error = exc

    @property
    def done(self) -> bool:
        return not self.thread.is_alive()


class LiveAnalyses:
    """The live analyses of one app (see the module)."""

    def __init__(self, most: int = 4, idle: float = 30.0) -> None:
        self.most, self.idle = most, idle
        self._runs: dict[str, _Run] = {}
        self._lock = threading.Lock()
        self._reaper: Optional[threading.Thread] = None     # stops the idle ones while nobody asks

    def start(self, position: Position, limit: Limit, objective: Any) -> str:
        """Start analysing `position` under `limit` and `objective` (a name or a `Match`); its id."""
        handle = analysis(position, limit, objective=objective)      # bad arguments raise here
        run = _Run(handle, objective)
        key = secrets.token_urlsafe(12)
        with self._lock:
            self._prune()
            running = sorted((r.started, k) for k, r in self._runs.items() if not r.done)
            for _, old in running[:max(0, len(running) - self.most + 1)]:
                self._runs[old].handle.stop()
            self._runs[key] = run
            if self._reaper is None:
                self._reaper = threading.Thread(target=self._reap, name="scopa-live-reaper", daemon=True)
                self._reaper.start()
        run.thread.start()
        return key

    def _reap(self) -> None:
        """Every few seconds, stop the analyses nobody asked about for `idle` seconds (a tab
        closed without a word), even when no request comes."""
        while True:
            time.sleep(max(0.05, self.idle / 6))
            with self._lock:
                self._prune()

    def poll(self, key: Any, show: Callable[[Analysis, Any], dict[str, Any]]) -> dict[str, Any]:
        """What the analysis `key` has done: `info` (depth being searched, nodes, seconds, nodes
        per second), `analysis` (its latest depth, `show(analysis, objective)`; None before the first), `done`. An
        analysis that failed raises its error here (once)."""
        run = self._get(key)
        run.asked = time.monotonic()
        info = run.handle.info
        done = run.done
        if done and run.error is not None:
            with self._lock:
                self._runs.pop(key, None)
            raise run.error
        latest = run.latest
        return {"id": key, "done": done,
                "info": {"depth": info.depth, "nodes": info.nodes, "seconds": round(info.seconds, 3),
                         "nps": round(info.nodes_per_second)},
                "analysis": None if latest is None else show(latest, run.objective)}

    def stop(self, key: Any) -> None:
        """Stop the analysis `key` (its latest depth stays readable until it is dropped)."""
        self._get(key).handle.stop()

    def stop_all(self) -> None:
        with self._lock:
            for run in self._runs.values():
                run.handle.stop()

    def _get(self, key: Any) -> _Run:
        with self._lock:
            self._prune()
            run = self._runs.get(key) if isinstance(key, str) else None
        if run is None:
            raise NoSuchAnalysis("no such analysis (it ended long ago, or was never started): start another")
        return run

    def _prune(self) -> None:
        """Stop the analyses nobody asked about for `idle` seconds; drop the ended ones no one
        has asked about since (under the lock)."""
        now = time.monotonic()
        for key, run in list(self._runs.items()):
            if now - run.asked > self.idle:
                run.handle.stop()
                if run.done:
                    del self._runs[key]
