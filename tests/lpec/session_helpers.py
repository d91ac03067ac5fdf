"""What the LpecSession tests (test_session_*.py) share: a device with only Ds/Product, a
recording handler, and the session's live tasks by name."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from custom_components.linn.lpec.codec import Event

PRODUCT_STATE = 'SUBSCRIBE 1\r\nEVENT 1 0 ProductRoom "Den" Standby "false"\r\n'


def product_only(**overrides: str | None) -> Callable[[str], str | None]:
    """A device with only Ds/Product; `overrides` maps a received line to its answer."""

    def answer(line: str) -> str | None:
        if line in overrides:
            return overrides[line]
        if not line:
            return None  # blank lines are ignored, as ohNet does
        if line == "SUBSCRIBE Ds/Product":
            return PRODUCT_STATE
        if line.startswith("SUBSCRIBE "):
            return 'ERROR 103 "Service not found"\r\n'
        return "RESPONSE\r\n"

    return answer


class Recorder:
    """A SessionHandler that records what the session reports."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Event]] = []
        self.availability: list[bool] = []

    def on_event(self, path: str, event: Event) -> None:
        self.events.append((path, event))

    def on_availability(self, available: bool) -> None:
        self.availability.append(available)

    def on_read_done(self) -> None:
        """Nothing to record."""


class Quiet:
    """A SessionHandler that ignores what the session reports."""

    def on_event(self, path: str, event: Event) -> None:
        """Not needed."""

    def on_availability(self, available: bool) -> None:
        """Not needed."""

    def on_read_done(self) -> None:
        """Not needed."""


def lpec_tasks(name: str) -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if t.get_name() == name and not t.done()]
