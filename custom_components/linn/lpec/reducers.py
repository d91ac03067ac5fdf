"""Apply EVENT variables to the typed state: one table per service.

Each variable is converted once, when its event arrives (DIDL-Lite and SourceXml
are parsed here, not on property access). A value that does not convert is logged
and skipped; the rest of the event still applies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
import dataclasses
import logging
import time
from typing import Any

from .codec import parse_bool
from .didl import parse_didl, parse_metatext
from .errors import LpecProtocolError
from .idarray import parse_base64_ids, parse_json_ids
from .model import DeviceState
from .services import Service
from .software import parse_software_status
from .sources import parse_source_xml

_LOGGER = logging.getLogger(__name__)

type Converter = Callable[[str], object]
type Table = Mapping[str, tuple[str, Converter]]


def _text(value: str) -> str:
    return value


def _optional_text(value: str) -> str | None:
    return value or None


_PRODUCT: Table = {
    "ProductRoom": ("room", _text),
    "ProductName": ("name", _text),
    "ManufacturerName": ("manufacturer", _text),
    "ModelName": ("model", _text),
    "Standby": ("standby", parse_bool),
    "ProductStandby": ("standby", parse_bool),  # Product:1 names (Linn doc example)
    "SourceIndex": ("source_index", int),
    "ProductSourceIndex": ("source_index", int),
    "SourceXml": ("sources", parse_source_xml),
    "ProductSourceXml": ("sources", parse_source_xml),
}
_VOLUME: Table = {
    "Volume": ("volume", int),
    "Mute": ("mute", parse_bool),
    "VolumeMax": ("volume_max", int),
    "VolumeLimit": ("volume_limit", int),
    "VolumeSteps": ("volume_steps", int),
    "VolumeUnity": ("volume_unity", int),
}
_TRANSPORT: Table = {
    "TransportState": ("state", _optional_text),
    "CanPause": ("can_pause", parse_bool),
    "CanSeek": ("can_seek", parse_bool),
    "CanSkipNext": ("can_skip_next", parse_bool),
    "CanSkipPrevious": ("can_skip_previous", parse_bool),
    "CanRepeat": ("can_repeat", parse_bool),
    "CanShuffle": ("can_shuffle", parse_bool),
    "Shuffle": ("shuffle", parse_bool),
    "Repeat": ("repeat", parse_bool),
    "StreamId": ("stream_id", int),
}
_INFO: Table = {
    "Uri": ("uri", _optional_text),
    "Metadata": ("track", parse_didl),
    "Metatext": ("metatext", parse_metatext),
    "CodecName": ("codec_name", _optional_text),
    "BitDepth": ("bit_depth", int),
    "SampleRate": ("sample_rate", int),
    "BitRate": ("bit_rate", int),
    "Lossless": ("lossless", parse_bool),
    "Duration": ("duration", int),
}
_TIME: Table = {
    "Duration": ("duration", int),
    "Seconds": ("seconds", int),
}
_PINS: Table = {"IdArray": ("slots", parse_json_ids)}
_RADIO: Table = {
    "IdArray": ("slots", parse_base64_ids),
    "Id": ("channel_id", int),
    "Uri": ("uri", _optional_text),
    "Metadata": ("metadata", parse_didl),
    "TransportState": ("transport_state", _optional_text),
}
_RECEIVER: Table = {
    "Uri": ("uri", _optional_text),
    "Metadata": ("metadata", _text),
    "TransportState": ("transport_state", _optional_text),
}
_SENDER: Table = {
    "Metadata": ("metadata", _text),
    "Status": ("status", _optional_text),
    "Audio": ("audio", parse_bool),
    "PresentationUrl": ("presentation_url", _optional_text),
}
_PLAYLIST: Table = {
    "IdArray": ("ids", parse_base64_ids),
    "Id": ("current_id", int),
    "TransportState": ("transport_state", _optional_text),
    "Shuffle": ("shuffle", parse_bool),
    "Repeat": ("repeat", parse_bool),
}

_UPDATE: Table = {"SoftwareStatus": ("software", parse_software_status)}


def _time_hook(changes: dict[str, Any]) -> None:
    if "seconds" in changes:
        changes["seconds_updated_at"] = time.monotonic()


def _sender_hook(changes: dict[str, Any]) -> None:
    if "metadata" in changes:
        changes["uri"] = parse_didl(changes["metadata"]).uri


def _no_hook(changes: dict[str, Any]) -> None:
    return None


_SERVICES: dict[Service, tuple[str, Table, Callable[[dict[str, Any]], None]]] = {
    Service.PRODUCT: ("product", _PRODUCT, _no_hook),
    Service.VOLUME: ("volume", _VOLUME, _no_hook),
    Service.TRANSPORT: ("transport", _TRANSPORT, _no_hook),
    Service.INFO: ("info", _INFO, _no_hook),
    Service.TIME: ("time", _TIME, _time_hook),
    Service.PINS: ("pins", _PINS, _no_hook),
    Service.RADIO: ("radio", _RADIO, _no_hook),
    Service.RECEIVER: ("receiver", _RECEIVER, _no_hook),
    Service.SENDER: ("sender", _SENDER, _sender_hook),
    Service.PLAYLIST: ("playlist", _PLAYLIST, _no_hook),
    Service.UPDATE: ("update", _UPDATE, _no_hook),
}


def apply_event(state: DeviceState, service: Service, variables: Mapping[str, str]) -> DeviceState:
    """Return `state` with one service's variables applied (the same object if nothing changed)."""
    attribute, table, hook = _SERVICES[service]
    current = getattr(state, attribute)
    changes: dict[str, Any] = {}
    for name, value in variables.items():
        spec = table.get(name)
        if spec is None:
            continue
        field_name, convert = spec
        try:
            changes[field_name] = convert(value)
        except ValueError, LpecProtocolError:
            _LOGGER.debug("Ignoring %s %s=%.80r: not convertible", service.short_name, name, value)
    if not changes:
        return state
    hook(changes)
    if all(getattr(current, name) == value for name, value in changes.items()):
        return state  # e.g. a repeated value: no copy at all
    return _replace(state, {attribute: _replace(current, changes)})


_FIELDS: dict[type, tuple[str, ...]] = {}
_set = object.__setattr__


def _replace[T](obj: T, changes: Mapping[str, Any]) -> T:
    """`dataclasses.replace` for the frozen state dataclasses, about twice as fast.

    They have no `__post_init__` and no init-only fields, so a copy with the changed fields
    set is what `replace` would build; the field names are looked up once per class.
    """
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    new = object.__new__(cls)
    for name in names:
        _set(new, name, changes[name] if name in changes else getattr(obj, name))
    return new
