"""How the emulated firmware deviates from Linn's LPEC wiki page: one named quirk each.

By default the emulator speaks as Linn's own server code does (openhome/ohNet and
openhome/ohPipeline, the code in the firmware; reference §2.10): every quirk is on
(`OHNET`). `DOCUMENTED` (no quirk) is the protocol as the wiki page describes it. A test
that wants exactly one firmware behaviour passes a set with just that quirk::

    LinnEmulator(quirks={Quirk.BYEBYE_ONLY})   # documented otherwise
    LinnEmulator(quirks=OHNET - {Quirk.RAW_LINE_BREAKS})
    emu.quirks = DOCUMENTED                     # switch at run time

Code that behaves differently reads `Quirk.X in state.quirks` (the device state every
service reaches as `self.device.state`). To add a quirk: add a member below with a
docstring line saying what the firmware does and where that is in Linn's code, read it
where the behaviour lives, and test it on its own (quirks={Quirk.NEW}) and off (DOCUMENTED).
`scripts/emulator --quirks` takes `ohnet`, `documented` or a comma-separated list of
the values below.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Final


class Quirk(StrEnum):
    """One way the firmware differs from the wiki; the value is its command-line name."""

    RAW_LINE_BREAKS = "raw_line_breaks"
    """Line breaks inside quoted values are written raw (CRLF and CR as LF), not escaped:
    a value spans lines (ohNet Converter::ToXmlEscaped, escaping switched off in 2016).
    Off: CR and LF go as `&#13;` `&#10;` and every message is one line."""

    MULTILINE_METADATA = "multiline_metadata"
    """DIDL-Lite metadata (Info, Radio, Receiver, Sender `Metadata`/`Metatext`, `Read`,
    `ReadList`, `Track`, `Channel` replies) and Pins ReadList JSON carry line breaks
    between elements, as control points store it. Off: one line of text."""

    BYEBYE_ONLY = "byebye_only"
    """Disabling the device (`faults.disable`) writes `BYEBYE` only: no UNSUBSCRIBE first,
    the session stays open, later commands on it get `ERROR 111`, no ALIVE ever again on it
    (ohNet DviSessionLpec::NotifyDeviceDisabled, the FIXME). Off: the documented variant,
    UNSUBSCRIBE of each subscription, BYEBYE, then ALIVE on the same session."""

    SILENT_ENABLE = "silent_enable"
    """A session announces once, when it starts, and only the sub-devices enabled then
    (ohNet DviSessionLpec::Run/Announce skips disabled devices; DviProtocolLpec::Enable is
    empty): a session begun while the device is disabled hears no ALIVE ever, and enabling
    the device sends nothing to any session. Its commands are answered as usual all the
    same: the session's device map holds disabled devices too (DviDeviceMap::CopyMap) and
    LPEC invokes actions whatever the enabled state (DviService::InvokeDirect); disabling
    the device later sends BYEBYE on it, an ALIVE it never had notwithstanding. Off: such
    a session is held, silent, until the device is enabled, and enabling sends ALIVE on
    every session the device is not gone from."""

    NO_FIRST_COMMAND_ERROR = "no_first_command_error"
    """Every command is answered as it should be, the first one too; a blank line is
    ignored (ohNet DviSessionLpec::Run: an empty method is skipped, nothing else differs
    for the first command). Off: the wiki's first-command bug, the first command after
    ALIVE gets `ERROR 101` unless a blank line came before it."""

    RAW_ERROR_TEXT = "raw_error_text"
    """ERROR descriptions are written as they are, not XML-escaped
    (ohNet DviSessionLpec::ReportErrorNoThrow). Off: escaped like any value."""

    SUBSCRIPTION_IDS_FROM_ZERO = "subscription_ids_from_zero"
    """Subscription ids come from one stack-wide counter that starts at 0 (ohNet
    Environment::SequenceNumber). Off: a per-device counter from 1."""

    ICY_METATEXT = "icy_metatext"
    """On the Radio source, Info `Metatext` is the DIDL-Lite ohPipeline's Icy parser builds
    (Media/Protocol/Icy.cpp, IcyObserverDidlLite): the station's StreamTitle goes into
    `<dc:title>` unescaped, so a bare `&` or `<` can appear. Off: the plain text."""

    RADIO_SLOTS = "radio_slots"
    """Radio `IdArray` always has 100 slots (PresetDatabase::kMaxPresets), 0 for an empty
    one; `ReadList` answers `<Entry><Id/><Metadata/></Entry>` without `<Uri>` and skips
    unknown ids (Av/Radio/ProviderRadio.cpp). Off: the stored presets only, with `<Uri>`."""

    PIN_SLOTS = "pin_slots"
    """Pins `IdArray` has one id per slot and an empty pin's id is 0 (IPinIdProvider::kIdEmpty,
    Av/Pins/Pins.cpp); `ReadList` skips unknown ids (`null` when none is left). Off: every
    pin has an id of its own. Either way invoking an empty pin answers 803 "Pin mode not
    supported" (its mode is empty: PinsManager::BeginInvoke), as ProviderPins does."""


OHNET: Final[frozenset[Quirk]] = frozenset(Quirk)
"""What the firmware does: the default."""
DOCUMENTED: Final[frozenset[Quirk]] = frozenset()
"""The protocol as Linn's LPEC wiki page documents it."""

_NAMED: Final = {"ohnet": OHNET, "documented": DOCUMENTED, "wiki": DOCUMENTED, "none": DOCUMENTED}


def parse_quirks(text: str) -> frozenset[Quirk]:
    """`ohnet`, `documented` (or `wiki`, `none`) or a comma-separated list of quirk values."""
    lowered = text.strip().lower()
    if lowered in _NAMED:
        return _NAMED[lowered]
    names = [part.strip() for part in lowered.split(",") if part.strip()]
    known = {quirk.value for quirk in Quirk}
    unknown = [name for name in names if name not in known]
    if unknown:
        choices = ", ".join(quirk.value for quirk in Quirk)
        raise ValueError(f"unknown quirks {unknown}; known: {choices}, or ohnet, documented")
    return frozenset(Quirk(name) for name in names)


def quirk_set(quirks: Iterable[Quirk | str]) -> frozenset[Quirk]:
    """A frozen set of quirks from members or their values (ValueError for unknown ones)."""
    return frozenset(Quirk(quirk) for quirk in quirks)
