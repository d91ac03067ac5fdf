"""Deprecation and usage reports about this integration, in either Home Assistant we test.

Home Assistant reports a custom integration's use of a deprecated API in its log, not as a
Python warning: "Detected that custom integration 'linn' ..." (helpers/frame.py) and "The
deprecated function X was called from linn ..." (helpers/deprecation.py); and blocking I/O in
the event loop as "Detected blocking call ... by custom integration 'linn'" (util/loop.py).
Python's own DeprecationWarnings name the file they come from. Any of these about our code is a
failure: in pytest (tests/conftest.py, Home Assistant 2026.10.4) and in the smoke test on the
newest release (scripts/ha_log_check.py).
"""

from __future__ import annotations

import re

_ABOUT_US = re.compile(
    r"integration 'linn'|\b(?:called|used|passed to \S+) from linn\b|custom_components[/.]linn\b"
)
_A_REPORT = re.compile(r"(?i:deprecat)|Detected (?:that|blocking call)|FutureWarning")


def is_report_about_us(text: str) -> bool:
    """Whether a log message (or a printed warning) reports a deprecated or wrong use by us."""
    return bool(_ABOUT_US.search(text) and _A_REPORT.search(text))
