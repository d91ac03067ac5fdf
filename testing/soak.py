"""The fault soak: random emulator faults while commands arrive through HA actions and tools.

Shared by the short soak in the tests (tests/ha/test_soak.py) and the long one
(scripts/bench --soak MINUTES). One round: pick a fault, inject it, issue random commands at
once (Home Assistant media player actions and guarded `linn__*` tools through the Assist
API), change the device's front panel while the fault lasts, then end the fault. The round
records, and never raises on, what the issue asks to hold:

- every command completes or raises within its bound (none lost, none hanging);
- after a fault that breaks the session, the entity is unavailable within `detect_bound`;
  after every fault it is available with the device's state within `recover_bound` of the
  end of the fault; a fault that does not break the session never makes it unavailable;
- a starved event loop (a loaded machine) runs the integration late, and the soak's clock
  does not stop meanwhile: each bound is extended by the loop lag measured during the wait,
  and a session that a harmless fault's round ended is excused only when the session's own
  reason was a reply missed while the loop lagged for at least half the reply timeout
  (late replies end the session by design). Any other reason stays a violation;
- every tool call has its audit record (per round: the new records' tools are exactly the
  tools called);
- event-loop lag, task count and traced memory are sampled for the caller to judge.

Violations are collected as text; the caller asserts there are none.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
import fnmatch
import gc
import logging
import random
import sysconfig
import time
import tracemalloc
from typing import Any

from homeassistant.components.media_player import (
    ATTR_MEDIA_TITLE,
    ATTR_MEDIA_VOLUME_LEVEL,
    ATTR_MEDIA_VOLUME_MUTED,
    DOMAIN as MP_DOMAIN,
)
from homeassistant.const import ATTR_ENTITY_ID, EVENT_STATE_CHANGED, STATE_UNAVAILABLE
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm

from custom_components.linn.guard import Guard
from custom_components.linn.guard.decisions import Outcome
from linn_emulator import LinnEmulator

BREAKING = (
    "drop",
    "half_open",
    "reboot",
    "session_limit",
    "oversized",
    "byebye",
    "unterminated",
)
"""Faults that end the LPEC session: the entity must go unavailable, then come back.
`byebye` is the device disabled as ohNet does it: BYEBYE alone, the session left open
with the device gone from it, ALIVE only on new sessions once it is enabled again.
`unterminated` is a value whose closing quote never comes (ohNet never sends one): inside
quotes a line break is content (a station title may hold any line), so what follows cannot
be trusted, and the next quoted value ends the session (BrokenQuoteError)."""
HARMLESS = ("malformed", "multiline_burst", "ampersand_flood")
"""Faults the session rides out: the entity must stay available. `multiline_burst` is a
burst of now-playing changes whose DIDL-Lite spans lines (raw line breaks, as ohNet writes
them); `ampersand_flood` a burst of Metatext with bare `&` in it (ohPipeline's Icy
parser). After either, the entity must show the last of the burst."""
EITHER = ("slow",)
"""Responses at half the action timeout: a command queued behind others can run out of
time in flight, and the connection then resynchronises by reconnecting (by design: a late
reply cannot be told from the next one). Either way it must be back within the bound."""
FAULTS = BREAKING + HARMLESS + EITHER

HARNESS = (
    # phacc's mocked storage: a MagicMock that keeps every write in its call list
    tracemalloc.Filter(False, "*/unittest/mock.py", all_frames=True),
    # pytest's log capture keeps every record and its text
    tracemalloc.Filter(False, "*/_pytest/logging.py", all_frames=True),
    tracemalloc.Filter(False, "*/logging/__init__.py"),
    # the soak's own samples
    tracemalloc.Filter(False, __file__),
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


@dataclass(frozen=True, slots=True)
class SoakSettings:
    """Bounds and pacing of a soak."""

    action_bound: float
    """Seconds an HA action may take (the integration's action timeout plus margin)."""
    tool_bound: float
    """Seconds a tool call may take (the guard's timeout and its re-read, plus margin)."""
    slow_delay: float
    """The slow-response fault's delay: below the action timeout, so it is survivable."""
    reply_timeout: float
    """The integration's action (and keepalive) timeout: a reply not read within it ends
    the session, by design, even when only a starved event loop made it late."""
    detect_bound: float = 5.0
    recover_bound: float = 5.0
    """Both bounds are of the integration's own work: each wait is extended by the event
    loop's lag measured meanwhile (a starved loop runs nothing on time), up to
    `lag_allowance` times the bound more."""
    lag_allowance: float = 3.0
    lag_share: float = 0.5
    """A reply missed while a harmless fault ran is excused only when the loop lagged at
    least this share of `reply_timeout` in the `reply_timeout` before the session ended."""
    commands_per_round: int = 4
    hold: tuple[float, float] = (0.3, 1.5)
    """How long a fault lasts, seconds (uniform)."""
    lag_interval: float = 0.02


@dataclass(slots=True)
class SoakReport:
    """What a soak saw; `violations` must stay empty."""

    rounds: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    commands: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    detect_s: list[float] = field(default_factory=list)
    recover_s: list[float] = field(default_factory=list)
    recover_by_fault: dict[str, list[float]] = field(default_factory=dict)
    """recover_s again, by the fault that ended."""
    lag_s: list[float] = field(default_factory=list)
    memory: list[tuple[float, int]] = field(default_factory=list)
    """(seconds since start, traced bytes without the harness) from sample_memory()."""
    tasks: list[tuple[float, int]] = field(default_factory=list)
    tool_calls: int = 0
    audit_records: int = 0
    """Records of tool calls (expiries of held requests are counted apart)."""
    expiry_records: int = 0
    session_ends: list[tuple[str, str, float]] = field(default_factory=list)
    """(fault, the session's reason, loop lag in the reply timeout before) for every end."""
    lag_allowed_s: list[float] = field(default_factory=list)
    """How far each bounded wait was extended by the loop lag measured meanwhile."""
    violations: list[str] = field(default_factory=list)


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
        reboot: asyncio.Task[None] | None = None
        expected_title: tuple[Callable[[], bool], str] | None = None
        match fault:
            case "drop":
                faults.drop_connections()
            case "half_open":
                faults.half_open(True)
            case "reboot":
                reboot = asyncio.ensure_future(
                    faults.reboot(downtime=rng.uniform(*self.settings.hold))
                )
            case "session_limit":
                # Other controllers take every slot, then our session is cut: the reconnect
                # is accepted but hears nothing until a slot is free.
                faults.session_limit(True)
                faults.drop_connections()
            case "oversized":
                faults.send_oversized(2 * 1024 * 1024)
            case "malformed":
                faults.send_raw(rng.choice(_MALFORMED))
            case "unterminated":
                faults.send_raw(b'EVENT 99 "unterminated\r\n')
            case "byebye":
                faults.disable()
            case "multiline_burst":
                expected_title = self._multiline_burst()
            case "ampersand_flood":
                expected_title = self._ampersand_flood()
            case "slow":
                faults.response_delay = self.settings.slow_delay
        commands = [
            asyncio.ensure_future(self._command(called))
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
        faults.half_open(False)
        faults.response_delay = 0.0
        faults.session_limit(False)
        faults.enable()
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

    def _multiline_burst(self) -> tuple[Callable[[], bool], str]:
        """Now-playing changes whose DIDL-Lite spans lines; returns the check of the last."""
        panel, state = self.emulator.panel, self.emulator.state
        title = ""
        panel.set_metatext("")  # the title shows, not an earlier flood's Metatext
        for index in range(BURST):
            title = f"Burst {self.report.rounds}.{index}\nline two"
            panel.set_metadata(title=title, artist="Line\r\nbreaks", album="A\nB")
        last = state.metadata_override
        return (lambda: state.metadata_override is last and state.metatext_override == ""), title

    def _ampersand_flood(self) -> tuple[Callable[[], bool], str]:
        """Metatext with bare ampersands (the Icy StreamTitle, unescaped); the last's check."""
        panel, state = self.emulator.panel, self.emulator.state
        text = ""
        title = ""
        for index in range(BURST):
            title = f"Tom & Jerry & Co {self.report.rounds}.{index}"
            text = (
                "<DIDL-Lite xmlns:dc='http://purl.org/dc/elements/1.1/' "
                "xmlns='urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/'><item><dc:title>"
                f"{title}</dc:title><upnp:class>object.item</upnp:class></item></DIDL-Lite>"
            )
            panel.set_metatext(text)
        return (lambda: state.metatext_override == text), title

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

    async def _command(self, called: Counter[str]) -> None:
        await asyncio.sleep(self.rng.uniform(0, 0.3))
        if self.rng.random() < 0.5:
            await self._action()
        else:
            await self._tool(called)

    async def _action(self) -> None:
        rng, report = self.rng, self.report
        choices: list[tuple[str, dict[str, Any]]] = [
            ("volume_set", {ATTR_MEDIA_VOLUME_LEVEL: rng.randint(5, 50) / 100}),
            ("media_play", {}),
            ("media_pause", {}),
            ("media_stop", {}),
            ("volume_mute", {ATTR_MEDIA_VOLUME_MUTED: rng.random() < 0.5}),
        ]
        service, data = rng.choice(choices)
        report.commands[f"action {service}"] += 1
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.settings.action_bound):
                await self.hass.services.async_call(
                    MP_DOMAIN, service, {ATTR_ENTITY_ID: self.entity_id, **data}, blocking=True
                )
        except HomeAssistantError:
            report.outcomes["action raised"] += 1
        except TimeoutError:
            report.outcomes["action hung"] += 1
            report.violations.append(
                f"round {report.rounds}: {service} still running after "
                f"{time.perf_counter() - started:.1f} s"
            )
        except Exception as err:  # noqa: BLE001 - any other exception is the finding
            report.outcomes[f"action {type(err).__name__}"] += 1
            report.violations.append(f"round {report.rounds}: {service} raised {err!r}")
        else:
            report.outcomes["action completed"] += 1

    async def _tool(self, called: Counter[str]) -> None:
        rng, report = self.rng, self.report
        choices: list[tuple[str, dict[str, Any]]] = [
            ("play", {}),
            ("pause", {}),
            ("set_volume", {"volume": rng.randint(5, 40)}),
            ("change_volume", {"change": rng.choice([-5, -2, 2, 5])}),
            ("mute", {"muted": rng.random() < 0.5}),
        ]
        tool, arguments = rng.choice(choices)
        report.commands[f"tool {tool}"] += 1
        called[tool] += 1
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.settings.tool_bound):
                await self.api.async_call_tool(
                    llm.ToolInput(f"linn__{tool}", {"player": self.player, **arguments})
                )
        except TimeoutError:
            report.outcomes["tool hung"] += 1
            report.violations.append(
                f"round {report.rounds}: tool {tool} still running after "
                f"{time.perf_counter() - started:.1f} s"
            )
        except Exception as err:  # noqa: BLE001 - a tool reports failures in its result
            report.outcomes[f"tool raised {type(err).__name__}"] += 1
            report.violations.append(f"round {report.rounds}: tool {tool} raised {err!r}")


_SESSION_LOGGER = "custom_components.linn.lpec.session"
BURST = 20
"""Changes per multi-line burst and per ampersand flood."""

_MALFORMED = (
    b"GARBAGE 1 2 3\r\n",
    b"\x00\xff\xfe\n",
    b'EVENT 1 1 Volume "not a number"\r\n',
    b"RESPONSE\r\n",
)
