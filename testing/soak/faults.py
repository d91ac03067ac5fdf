"""The soak's faults: which there are, what each must do to the entity, and injecting one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import random

from linn_emulator import LinnEmulator
from linn_emulator.faults import Faults

from .report import SoakSettings

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

BURST = 20
"""Changes per multi-line burst and per ampersand flood."""

_MALFORMED = (
    b"GARBAGE 1 2 3\r\n",
    b"\x00\xff\xfe\n",
    b'EVENT 1 1 Volume "not a number"\r\n',
    b"RESPONSE\r\n",
)


def start_fault(
    fault: str, emulator: LinnEmulator, rng: random.Random, settings: SoakSettings, rounds: int
) -> tuple[asyncio.Task[None] | None, tuple[Callable[[], bool], str] | None]:
    """Inject `fault`: the reboot under way (if it is one), and the check of a burst's title.

    The title check is whether the burst's last change is still current, and its title.
    """
    faults = emulator.faults
    reboot: asyncio.Task[None] | None = None
    expected_title: tuple[Callable[[], bool], str] | None = None
    match fault:
        case "drop":
            faults.drop_connections()
        case "half_open":
            faults.half_open(True)
        case "reboot":
            reboot = asyncio.ensure_future(faults.reboot(downtime=rng.uniform(*settings.hold)))
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
            expected_title = multiline_burst(emulator, rounds)
        case "ampersand_flood":
            expected_title = ampersand_flood(emulator, rounds)
        case "slow":
            faults.response_delay = settings.slow_delay
    return reboot, expected_title


def end_fault(faults: Faults) -> None:
    """End whichever fault is on (a reboot ends by itself)."""
    faults.half_open(False)
    faults.response_delay = 0.0
    faults.session_limit(False)
    faults.enable()


def multiline_burst(emulator: LinnEmulator, rounds: int) -> tuple[Callable[[], bool], str]:
    """Now-playing changes whose DIDL-Lite spans lines; returns the check of the last."""
    panel, state = emulator.panel, emulator.state
    title = ""
    panel.set_metatext("")  # the title shows, not an earlier flood's Metatext
    for index in range(BURST):
        title = f"Burst {rounds}.{index}\nline two"
        panel.set_metadata(title=title, artist="Line\r\nbreaks", album="A\nB")
    last = state.metadata_override
    return (lambda: state.metadata_override is last and state.metatext_override == ""), title


def ampersand_flood(emulator: LinnEmulator, rounds: int) -> tuple[Callable[[], bool], str]:
    """Metatext with bare ampersands (the Icy StreamTitle, unescaped); the last's check."""
    panel, state = emulator.panel, emulator.state
    text = ""
    title = ""
    for index in range(BURST):
        title = f"Tom & Jerry & Co {rounds}.{index}"
        text = (
            "<DIDL-Lite xmlns:dc='http://purl.org/dc/elements/1.1/' "
            "xmlns='urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/'><item><dc:title>"
            f"{title}</dc:title><upnp:class>object.item</upnp:class></item></DIDL-Lite>"
        )
        panel.set_metatext(text)
    return (lambda: state.metatext_override == text), title
