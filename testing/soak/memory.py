"""Traced memory for the soak: snapshots without the harness's own retention, and growth."""

from __future__ import annotations

import fnmatch
import gc
from pathlib import Path
import sysconfig
import tracemalloc

HARNESS = (
    # phacc's mocked storage: a MagicMock that keeps every write in its call list
    tracemalloc.Filter(False, "*/unittest/mock.py", all_frames=True),
    # pytest's log capture keeps every record and its text
    tracemalloc.Filter(False, "*/_pytest/logging.py", all_frames=True),
    tracemalloc.Filter(False, "*/logging/__init__.py"),
    # the soak's own samples (every module of this package)
    tracemalloc.Filter(False, str(Path(__file__).parent / "*")),
    tracemalloc.Filter(False, tracemalloc.__file__),
    # a module imported for the first time mid-soak (a fresh clone has no bytecode cache, and
    # some code paths import lazily) stays loaded once: not growth per round
    tracemalloc.Filter(False, "<frozen importlib._bootstrap>", all_frames=True),
)
"""What a test harness keeps that a running Home Assistant would not."""


_STDLIB = sysconfig.get_paths()["stdlib"]


def growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, top: int = 8) -> list[str]:
    """The largest growths between two filtered snapshots, by where they were allocated.

    Each names the allocating line and its nearest callers outside the standard library: an
    allocation in re's compiler (or json, fnmatch, ...) says little until its caller shows.
    """
    stats = after.compare_to(before, "traceback")
    return [f"{stat.size_diff:+d} B: {_where(stat.traceback)}" for stat in stats[:top]]


def _where(traceback: tracemalloc.Traceback) -> str:
    innermost, *callers = reversed(traceback)
    outside = [frame for frame in callers if not frame.filename.startswith(_STDLIB)][:3]
    text = " <- ".join(str(frame) for frame in (innermost, *outside))
    return text if outside else f"{text} (no caller outside the standard library in the frames)"


def traced_bytes(*also: tracemalloc.Filter) -> int:
    """Traced memory now, less the harness's own retention.

    Needs tracemalloc running with enough frames to see the harness (16 do). Garbage in
    reference cycles is collected first: when the collector last ran is not growth.
    """
    return sum(stat.size for stat in traced_snapshot(*also).statistics("filename"))


def traced_snapshot(*also: tracemalloc.Filter) -> tracemalloc.Snapshot:
    """A snapshot without the harness's own retention, after a full collection."""
    filters = (*HARNESS, *also)
    _compile_patterns(filters)
    gc.collect()
    return tracemalloc.take_snapshot().filter_traces(filters)


def _compile_patterns(filters: tuple[tracemalloc.Filter, ...]) -> None:
    """Compile the filters' patterns before the snapshot, not while it is filtered.

    tracemalloc matches a filter with fnmatch, which compiles the pattern on first use and
    keeps it (fnmatch's cache, re's cache of 512). Compiled while the first sample was being
    filtered, after its snapshot, the patterns (3-5 KB, allocated in re's compiler) were
    counted as growth by the next sample, in every run.
    """
    for filter_ in filters:
        fnmatch.fnmatch("", filter_.filename_pattern)
