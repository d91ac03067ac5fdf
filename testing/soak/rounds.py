"""The soak's rounds: a fault, commands meanwhile, and the checks of what the entity did."""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable
import logging
import random
import time
import tracemalloc
from typing import Any

from homeassistant.components.media_player import (
    ATTR_MEDIA_TITLE,
    ATTR_MEDIA_VOLUME_LEVEL,
    ATTR_MEDIA_VOLUME_MUTED,
)
from homeassistant.const import EVENT_STATE_CHANGED, STATE_UNAVAILABLE
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import llm

from custom_components.linn.guard import Guard
from custom_components.linn.guard.decisions import Outcome
from linn_emulator import LinnEmulator

from .commands import Commands
from .faults import BREAKING, FAULTS, HARMLESS, end_fault, start_fault
from .memory import growth, traced_snapshot
from .report import SoakReport, SoakSettings

MISSED_REPLY = "no reply to "
"""How the session's reason for ending starts when a reply did not come in time."""


class _SessionEnds(logging.Handler):
    """The LPEC session's own account of why each connection ended (its WARNING).

    Read from the log as an operator would; a reason it cannot read is never excused.
    """

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.reasons: list[tuple[float, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == "Lost connection to %s: %s" and len(record.args or ()) == 2:
            assert isinstance(record.args, tuple)
            self.reasons.append((time.perf_counter(), str(record.args[1])))


class Soak:
    """Rounds of faults and commands against one emulated player in one Home Assistant."""

    def __init__(
        self,
        hass: HomeAssistant,
        emulator: LinnEmulator,
        *,
        entity_id: str,
        player: str,
        api: llm.APIInstance,
        guard: Guard,
        seed: int,
        settings: SoakSettings,
    ) -> None:
        self.hass = hass
        self.emulator = emulator
        self.entity_id = entity_id
        self.player = player
        self.api = api
        self.guard = guard
        self.fault_rng = random.Random(seed)
        """The faults' order: the same for a seed (commands interleave by timing)."""
        self.rng = random.Random(seed + 1)
        self._deck: list[str] = []
        self.settings = settings
        self.report = SoakReport()
        self.snapshots: list[tracemalloc.Snapshot] = []
        self._transitions: list[tuple[float, bool]] = []
        """(perf_counter, available) for each change of the entity's availability."""
        self._started = time.perf_counter()
        self._unsub: Callable[[], None] | None = None
        self._lag_task: asyncio.Task[None] | None = None
        self._skip_lag = False
        self._ends = _SessionEnds()
        self._lag_at: deque[tuple[float, float]] = deque(maxlen=4096)
        """(perf_counter, lag) of the recent lag samples (80 s at 20 ms)."""
        self._lag_total = 0.0
        self._lag_pending_since: float | None = None
        self._logger_level = logging.NOTSET
        self._commands = Commands(
            hass,
            entity_id=entity_id,
            player=player,
            api=api,
            rng=self.rng,
            settings=settings,
            report=self.report,
        )

    # --- lifecycle -------------------------------------------------------------------

    def start(self) -> None:
        """Watch the entity's availability and the event loop's lag."""

        @callback
        def on_state(event: Event[Any]) -> None:
            if event.data["entity_id"] != self.entity_id:
                return
            new = event.data["new_state"]
            available = new is not None and new.state != STATE_UNAVAILABLE
            if not self._transitions or self._transitions[-1][1] != available:
                self._transitions.append((time.perf_counter(), available))

        self._unsub = self.hass.bus.async_listen(EVENT_STATE_CHANGED, on_state)
        self._transitions.append((time.perf_counter(), self.available))
        self._lag_task = self.hass.loop.create_task(self._watch_lag())
        logger = logging.getLogger(_SESSION_LOGGER)
        self._logger_level = logger.level
        if logger.getEffectiveLevel() > logging.WARNING:  # e.g. pytest's caplog at ERROR
            logger.setLevel(logging.WARNING)
        logger.addHandler(self._ends)

    async def stop(self) -> None:
        """Stop watching."""
        logger = logging.getLogger(_SESSION_LOGGER)
        logger.removeHandler(self._ends)
        logger.setLevel(self._logger_level)
        if self._unsub is not None:
            self._unsub()
            self._unsub = None
        if self._lag_task is not None:
            self._lag_task.cancel()
            await asyncio.gather(self._lag_task, return_exceptions=True)
            self._lag_task = None

    async def _watch_lag(self) -> None:
        interval = self.settings.lag_interval
        while True:
            before = self._lag_pending_since = time.perf_counter()
            await asyncio.sleep(interval)
            self._lag_pending_since = None
            if self._skip_lag:  # the soak's own memory snapshot held the loop
                self._skip_lag = False
                continue
            now = time.perf_counter()
            lag = max(0.0, now - before - interval)
            self.report.lag_s.append(lag)
            self._lag_at.append((now, lag))
            self._lag_total += lag

    def _lag_so_far(self) -> float:
        """Loop lag measured since start(), the sample under way included.

        The sample under way counts too: a wait that wakes up after a stall must not
        judge its bound before the lag watcher has woken up to record the stall.
        """
        pending = self._lag_pending_since
        if pending is None or self._skip_lag:
            return self._lag_total
        now = time.perf_counter()
        return self._lag_total + max(0.0, now - pending - self.settings.lag_interval)

    def _lag_between(self, start: float, end: float) -> float:
        """Loop lag in the samples that ended between `start` and `end`."""
        return sum(lag for t, lag in self._lag_at if start <= t <= end)

    async def _within(self, predicate: Callable[[], bool], bound: float) -> bool:
        """True once predicate() holds; False after `bound` seconds plus the loop lag.

        Never raises and never waits more than (1 + lag_allowance) * bound.
        """
        started = time.perf_counter()
        lag_before = self._lag_so_far()
        cap = bound * self.settings.lag_allowance
        allowed = 0.0
        try:
            async with asyncio.timeout(bound + cap):
                while not predicate():
                    allowed = min(cap, self._lag_so_far() - lag_before)
                    if time.perf_counter() - started > bound + allowed:
                        return False
                    await asyncio.sleep(0.002)
        except TimeoutError:
            return False
        finally:
            self.report.lag_allowed_s.append(allowed)
        return True

    # --- what the entity shows -------------------------------------------------------

    @property
    def available(self) -> bool:
        """True when the entity is not unavailable."""
        state = self.hass.states.get(self.entity_id)
        return state is not None and state.state != STATE_UNAVAILABLE

    def resynced(self) -> bool:
        """Available and showing the device's volume and mute."""
        state = self.hass.states.get(self.entity_id)
        if state is None or state.state == STATE_UNAVAILABLE:
            return False
        device = self.emulator.state
        return bool(
            state.attributes.get(ATTR_MEDIA_VOLUME_LEVEL) == device.volume / device.volume_max
            and state.attributes.get(ATTR_MEDIA_VOLUME_MUTED) == device.mute
        )

    def _unavailable_since(self, since: float) -> float | None:
        """When the entity first went unavailable after `since`, if it did."""
        return next((t for t, ok in self._transitions if t >= since and not ok), None)

    # --- one round -------------------------------------------------------------------

    async def round(self) -> None:  # noqa: PLR0915 - one round reads as one story
        """One fault with commands issued meanwhile; never raises on a violation."""
        report, faults, rng = self.report, self.emulator.faults, self.rng
        if not self._deck:  # every fault once, in a random order, then again
            self._deck = list(FAULTS)
            self.fault_rng.shuffle(self._deck)
        fault = self._deck.pop()
        report.faults[fault] += 1
        report.rounds += 1
        audit_before = self.guard.audit.total
        called: Counter[str] = Counter()
        self._ends.reasons.clear()  # the previous rounds'
        began = time.perf_counter()
        reboot, expected_title = start_fault(
            fault, self.emulator, rng, self.settings, report.rounds
        )
        commands = [
            asyncio.ensure_future(self._commands.issue(called))
            for _ in range(self.settings.commands_per_round)
        ]
        # A change the entity cannot hear about while the fault lasts.
        self._panel_change()

        if fault in BREAKING:
            if await self._within(
                lambda: self._unavailable_since(began) is not None, self.settings.detect_bound
            ):
                went = self._unavailable_since(began)
                assert went is not None
                report.detect_s.append(went - began)
            else:
                report.violations.append(
                    f"round {report.rounds}: still available {self.settings.detect_bound} s "
                    f"(plus the loop lag) after {fault}" + self._diag(began)
                )
        remaining = rng.uniform(*self.settings.hold) - (time.perf_counter() - began)
        if remaining > 0:
            await asyncio.sleep(remaining)

        # The end of the fault.
        end_fault(faults)
        if reboot is not None:
            await reboot
        recovered_at = time.perf_counter()
        if await self._within(self.resynced, self.settings.recover_bound):
            recovered = time.perf_counter() - recovered_at
            report.recover_s.append(recovered)
            report.recover_by_fault.setdefault(fault, []).append(recovered)
        else:
            report.violations.append(
                f"round {report.rounds}: not available and resynced "
                f"{self.settings.recover_bound} s (plus the loop lag) after {fault} ended "
                f"(available: {self.available})" + self._diag(began)
            )
        await asyncio.gather(*commands)
        ends = self._session_ends(fault, began)
        if self._unavailable_since(began) is not None and fault not in BREAKING:
            if fault not in HARMLESS:
                report.outcomes[f"{fault} ended the session"] += 1
            elif ends and all(self._missed_under_lag(reason, lag) for reason, lag in ends):
                # The session did what it must when a reply is late; the loop made it late.
                report.outcomes[f"{fault}: a reply missed under loop lag ended the session"] += 1
            else:
                report.violations.append(
                    f"round {report.rounds}: {fault} made it unavailable" + self._diag(began)
                )
        # Commands that landed after the recovery are shown too.
        if not await self._within(self.resynced, self.settings.recover_bound):
            report.violations.append(f"round {report.rounds}: state differs from the device")
        if expected_title is not None:
            still_current, title = expected_title
            if not still_current():
                report.outcomes[f"{fault}: the track changed, title not checked"] += 1
            elif await self._within(
                lambda: self._attribute(ATTR_MEDIA_TITLE) == title, self.settings.recover_bound
            ):
                report.outcomes[f"{fault}: the burst's last title shown"] += 1
            else:
                report.violations.append(
                    f"round {report.rounds}: after {fault} the title is "
                    f"{self._attribute(ATTR_MEDIA_TITLE)!r}, not {title!r}"
                )
        self._check_audit(audit_before, called)
        self._sample()

    def _session_ends(self, fault: str, since: float) -> list[tuple[str, float]]:
        """Why the session ended since `since`, with the loop lag in the reply timeout before.

        Recorded in the report.
        """
        window = self.settings.reply_timeout
        ends = [
            (reason, self._lag_between(at - window, at))
            for at, reason in self._ends.reasons
            if at >= since
        ]
        self.report.session_ends.extend((fault, reason, lag) for reason, lag in ends)
        return ends

    def _missed_under_lag(self, reason: str, lag: float) -> bool:
        settings = self.settings
        return (
            reason.startswith(MISSED_REPLY) and lag >= settings.lag_share * settings.reply_timeout
        )

    def _diag(self, since: float) -> str:
        """What a violation message adds: the session's reasons and the loop's lag."""
        window = self.settings.reply_timeout
        ends = [
            f"+{at - since:.2f} s {reason!r} (lag {self._lag_between(at - window, at):.2f} s)"
            for at, reason in self._ends.reasons
            if at >= since
        ]
        lags = [lag for t, lag in self._lag_at if t >= since]
        return (
            f" [session ends: {ends or 'none'}; loop lag since the fault:"
            f" {sum(lags):.2f} s in all, {max(lags, default=0.0):.2f} s at most]"
        )

    def _attribute(self, name: str) -> Any:
        state = self.hass.states.get(self.entity_id)
        return None if state is None else state.attributes.get(name)

    def _panel_change(self) -> None:
        device = self.emulator.state
        volume = self.rng.choice([v for v in range(5, 41) if v != device.volume])
        self.emulator.panel.set_volume(volume)

    def _check_audit(self, before: int, called: Counter[str]) -> None:
        """The round's new records are its tool calls, one each, plus any expiries.

        A held request that expires (here or in an earlier round) gets its own record.
        """
        report = self.report
        new = self.guard.audit.total - before
        records = self.guard.audit.records[-new:] if new else ()
        calls = [r for r in records if r.outcome is not Outcome.EXPIRED]
        report.tool_calls += called.total()
        report.audit_records += len(calls)
        report.expiry_records += len(records) - len(calls)
        tools = Counter(r.tool.removeprefix("linn__") for r in calls)
        if tools != called:
            report.violations.append(
                f"round {report.rounds}: tools called {dict(called)}, audited {dict(tools)}"
            )
        for record in records:
            report.outcomes[f"tool {record.outcome}"] += 1

    def _sample(self) -> None:
        now = time.perf_counter() - self._started
        self.report.tasks.append((now, len(asyncio.all_tasks())))

    def skip_lag(self) -> None:
        """Drop the lag sample now running: the caller held the loop on purpose."""
        self._skip_lag = True

    def sample_memory(self) -> int:
        """Record and return traced_bytes() (tracemalloc must be running)."""
        snapshot = traced_snapshot()
        size = sum(stat.size for stat in snapshot.statistics("filename"))
        self.skip_lag()
        self.report.memory.append((time.perf_counter() - self._started, size))
        self.snapshots = [*self.snapshots[-1:], snapshot]
        return size

    def growth_since_last_sample(self) -> list[str]:
        """Where traced memory grew between the last two samples (for a failure message)."""
        if len(self.snapshots) < 2:
            return []
        return growth(self.snapshots[-2], self.snapshots[-1])

    # --- commands --------------------------------------------------------------------


_SESSION_LOGGER = "custom_components.linn.lpec.session"
