"""Check a Home Assistant log (its stdout and stderr) after the smoke test (scripts/test-newest).

Fails (exit 1, printing the records) on:
- a deprecation or usage report about the integration (testing/deprecations.py), from Home
  Assistant's log or from Python's warnings;
- any ERROR or CRITICAL record, or a traceback, except the ones the build machine causes
  (MACHINE_ERRORS).

A record is a line that starts with a timestamp, or a Python warning line (`path:line:
SomethingWarning: ...`), with the lines that follow it up to the next record.

With --ours it checks a normal session's log instead (scripts/develop_stop_check.py): it fails
on any WARNING, ERROR or CRITICAL record the integration logs itself (custom_components.linn
and its children), and on a deprecation or usage report about it; everything else (Home
Assistant's own warnings, the machine's) is not ours to judge there.

    python scripts/ha_log_check.py [--ours] home-assistant.log
"""

from __future__ import annotations

from pathlib import Path
import re
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from testing.deprecations import is_report_about_us

_RECORD_START = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.,]\d+\S* (?P<level>[A-Z]+) ")
_WARNING_LINE = re.compile(r"^\S+:\d+: \w*Warning: ")
_OUR_LOGGER = re.compile(r"^\[custom_components\.linn(?:\.[\w.]+)?\]")
MACHINE_ERRORS = (
    # No ffmpeg binary in the base root filesystem; Home Assistant's ffmpeg component says so.
    re.compile(r"\[haffmpeg\.core\] FFmpeg fails \[Errno 2\] No such file or directory"),
)


def records(text: str) -> list[str]:
    """The log's records, each with its continuation lines (a traceback, a source line)."""
    found: list[str] = []
    for line in text.splitlines():
        if _RECORD_START.match(line) or _WARNING_LINE.match(line) or not found:
            found.append(line)
        else:
            found[-1] += "\n" + line
    return found


_IDLE_WORKER_STOPPED = re.compile(
    r"\[concurrent\.futures\] Exception in worker\n(?:.*\n)*?"
    r".*work_queue\.get\(block=True\)\nSystemExit$"
)
"""Home Assistant's shutdown on a loaded machine: an executor thread still idle (waiting in
its queue, running no one's code) after the join timeout gets SystemExit, logged CRITICAL.
Only this exact shape is let through: a worker that runs any code fails the check."""


def problems(text: str) -> list[str]:
    """The records that fail the smoke test."""
    bad = []
    for record in records(text):
        first = record.partition("\n")[0]
        start = _RECORD_START.match(first)
        if is_report_about_us(record):
            bad.append(record)
        elif any(pattern.search(first) for pattern in MACHINE_ERRORS) or (
            _IDLE_WORKER_STOPPED.search(record.rstrip())
        ):
            continue
        elif (start and start["level"] in ("ERROR", "CRITICAL")) or "Traceback" in record:
            bad.append(record)
    return bad


def ours(text: str) -> list[str]:
    """The records that fail a normal session: our warnings and errors, reports about us."""
    bad = []
    for record in records(text):
        first = record.partition("\n")[0]
        start = _RECORD_START.match(first)
        # After the level comes the thread in parentheses, then the logger in brackets.
        logged_by_us = start and _OUR_LOGGER.match(first[start.end() :].partition(") ")[2])
        if is_report_about_us(record) or (
            logged_by_us and start and start["level"] in ("WARNING", "ERROR", "CRITICAL")
        ):
            bad.append(record)
    return bad


def main(argv: list[str]) -> int:
    """Print the records that fail; exit 1 when there are any."""
    check = problems
    if len(argv) == 3 and argv[1] == "--ours":
        check = ours
        argv = [argv[0], argv[2]]
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bad = check(Path(argv[1]).read_text(encoding="utf-8", errors="replace"))
    for record in bad:
        print(record, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
