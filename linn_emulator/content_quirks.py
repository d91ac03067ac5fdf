"""What the values look like: as Linn firmware writes them (default), or as documented.

Each flag is one quirk of the OpenHome pipeline Linn firmware builds on, so a test can
turn exactly one of them off (or on, from `DOCUMENTED`):

* `icy_metatext`: on the Radio source, Info `Metatext` is the DIDL-Lite ohPipeline's
  Icy parser builds (`Media/Protocol/Icy.cpp`, IcyObserverDidlLite): the station's
  StreamTitle goes into `<dc:title>` unescaped, so a bare `&` or `<` can appear.
  Documented: the plain text.
* `radio_slots`: Radio `IdArray` always has 100 slots (`PresetDatabase::kMaxPresets`),
  0 for an empty one, and `ReadList` answers `<Entry><Id/><Metadata/></Entry>` with no
  `<Uri>`, skipping unknown ids (`Av/Radio/ProviderRadio.cpp`). Documented: only the
  stored presets, with `<Uri>`.
* `pin_slots`: Pins `IdArray` has one id per slot and an empty pin's id is 0
  (`IPinIdProvider::kIdEmpty`, `Av/Pins/Pins.cpp`); invoking it answers 803 "Pin mode
  not supported". Documented: every pin has an id of its own.
* `multiline_didl`: DIDL-Lite with a line break between elements (how the wire layer
  carries a value that spans lines is the wire layer's business). Documented: one line.
* `undeclared_prefixes`: DIDL-Lite that uses `dc:`/`upnp:` without declaring them, as
  some published captures do. Off by default (ohPipeline declares them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ContentQuirks:
    """Which firmware quirks in values the emulator shows (see the module docstring)."""

    icy_metatext: bool = True
    radio_slots: bool = True
    pin_slots: bool = True
    multiline_didl: bool = True
    undeclared_prefixes: bool = False


OHNET = ContentQuirks()
"""As ohNet/ohPipeline write values: the default."""

DOCUMENTED = ContentQuirks(
    icy_metatext=False,
    radio_slots=False,
    pin_slots=False,
    multiline_didl=False,
    undeclared_prefixes=False,
)
"""As the Linn LPEC page and our earlier notes describe them."""

RADIO_SLOTS = 100
"""ohPipeline PresetDatabase::kMaxPresets: Radio IdArray always has this many slots."""

PIN_MODE_NOT_SUPPORTED = 803
"""ohPipeline ProviderPins: what InvokeId/InvokeIndex answer for an empty pin."""


def icy_didl(stream_title: str) -> str:
    """Metatext as ohPipeline's IcyObserverDidlLite writes it: the title not escaped."""
    return (
        "<DIDL-Lite xmlns:dc='http://purl.org/dc/elements/1.1/' "
        "xmlns:upnp='urn:schemas-upnp-org:metadata-1-0/upnp/' "
        "xmlns='urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/'>"
        "<item id='' parentID='' restricted='True'><dc:title>"
        f"{stream_title}"
        "</dc:title><upnp:albumArtURI></upnp:albumArtURI>"
        "<upnp:class>object.item</upnp:class></item></DIDL-Lite>"
    )
