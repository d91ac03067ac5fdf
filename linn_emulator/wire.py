"""LPEC as a device speaks it: read control-point lines, write device lines.

Written from the protocol reference (linn-protocol.md §2.3, §2.4 and §2.6), not from the
integration's client codec: a test double that shared the client's parser would hide
that parser's bugs. tests/test_wire_cross.py runs each side against the other.

Grammar (client → device)::

    ACTION <sub-device>/<service> <version> <action> ["<arg>" ...]
    SUBSCRIBE <sub-device>/<service>
    UNSUBSCRIBE [<subscription-id> | <sub-device>/<service>]

Keywords match case-insensitively; arguments are double-quoted and XML-escaped.
A malformed line raises DeviceError with the LPEC code the device answers with: a line
whose quotes do not pair up is not recognised (101), an unquoted argument is 302, an
`&` that starts no entity or character reference is 406.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .errors import (
    ARGUMENT_NOT_QUOTED,
    COMMAND_NOT_RECOGNISED,
    INVALID_XML_ESCAPING,
    METHOD_NOT_SPECIFIED,
    SERVICE_NOT_SPECIFIED,
    VERSION_INVALID,
    VERSION_NOT_SPECIFIED,
    DeviceError,
)

FIELD_SEPARATORS: Final = " \t"
LINE_END: Final = "\r\n"

_NAMED_ENTITIES: Final = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
# Writing: the five XML entities; CR and LF as character references too unless the
# firmware's raw line breaks are asked for (see below).
_ENTITY_ESCAPES: Final = {char: f"&{name};" for name, char in _NAMED_ENTITIES.items()}
_XML_ESCAPES_RAW_BREAKS: Final = str.maketrans(_ENTITY_ESCAPES)
_XML_ESCAPES: Final = str.maketrans({**_ENTITY_ESCAPES, "\r": "&#13;", "\n": "&#10;"})
_DECIMAL_DIGITS: Final = frozenset("0123456789")
_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")
_LONGEST_REFERENCE: Final = 10
"""`#x10FFFF` is 8 characters; anything much longer is not a reference."""


# --- requests -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """An ACTION line: the arguments are unescaped text, in order."""

    device: str
    service: str
    version: int
    action: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SubscribeRequest:
    """A SUBSCRIBE line."""

    device: str
    service: str


@dataclass(frozen=True, slots=True)
class UnsubscribeRequest:
    """An UNSUBSCRIBE line: by id, by sub-device and service, or (all None) everything."""

    subscription_id: int | None = None
    device: str | None = None
    service: str | None = None


type Request = ActionRequest | SubscribeRequest | UnsubscribeRequest


@dataclass(frozen=True, slots=True)
class _Field:
    text: str
    quoted: bool


def xml_unescape(text: str) -> str:
    """Resolve XML entity and character references; anything else is invalid escaping."""
    pieces: list[str] = []
    start = 0
    while (ampersand := text.find("&", start)) >= 0:
        semicolon = text.find(";", ampersand + 1, ampersand + 2 + _LONGEST_REFERENCE)
        if semicolon < 0:
            raise DeviceError(INVALID_XML_ESCAPING)
        pieces.append(text[start:ampersand])
        pieces.append(_resolve_reference(text[ampersand + 1 : semicolon]))
        start = semicolon + 1
    pieces.append(text[start:])
    return "".join(pieces)


def _resolve_reference(name: str) -> str:
    if name in _NAMED_ENTITIES:
        return _NAMED_ENTITIES[name]
    if name[:2] in ("#x", "#X") and len(name) > 2 and set(name[2:]) <= _HEX_DIGITS:
        code_point = int(name[2:], 16)  # noqa: FURB166 - XML's "#x" prefix, not Python's "0x"
    elif name[:1] == "#" and len(name) > 1 and set(name[1:]) <= _DECIMAL_DIGITS:
        code_point = int(name[1:])
    else:
        raise DeviceError(INVALID_XML_ESCAPING)
    if code_point == 0 or code_point > 0x10FFFF or 0xD800 <= code_point <= 0xDFFF:
        raise DeviceError(INVALID_XML_ESCAPING)
    return chr(code_point)


def _fields(line: str) -> list[_Field]:
    """Split a line into bare words and quoted arguments (unescaped)."""
    fields: list[_Field] = []
    text = line.strip(FIELD_SEPARATORS + LINE_END)
    position = 0
    while position < len(text):
        if text[position] in FIELD_SEPARATORS:
            position += 1
            continue
        if text[position] == '"':
            closing = text.find('"', position + 1)
            after = closing + 1
            if closing < 0 or (after < len(text) and text[after] not in FIELD_SEPARATORS):
                raise DeviceError(COMMAND_NOT_RECOGNISED)  # an unterminated or glued quote
            fields.append(_Field(xml_unescape(text[position + 1 : closing]), quoted=True))
            position = after
            continue
        end = position
        while end < len(text) and text[end] not in FIELD_SEPARATORS:
            end += 1
        word = text[position:end]
        if '"' in word:
            raise DeviceError(COMMAND_NOT_RECOGNISED)
        fields.append(_Field(word, quoted=False))
        position = end
    return fields


def _device_and_service(path: str) -> tuple[str, str]:
    device, slash, service = path.partition("/")
    if not slash or not device or not service or "/" in service:
        raise DeviceError(SERVICE_NOT_SPECIFIED)
    return device, service


def _version(text: str) -> int:
    if not text or not set(text) <= _DECIMAL_DIGITS or int(text) < 1:
        raise DeviceError(VERSION_INVALID)
    return int(text)


def _action(fields: list[_Field]) -> ActionRequest:
    if not fields:
        raise DeviceError(SERVICE_NOT_SPECIFIED)
    device, service = _device_and_service(fields[0].text)
    if len(fields) < 2:
        raise DeviceError(VERSION_NOT_SPECIFIED)
    version = _version(fields[1].text)
    if len(fields) < 3:
        raise DeviceError(METHOD_NOT_SPECIFIED)
    arguments = fields[3:]
    if not all(argument.quoted for argument in arguments):
        raise DeviceError(ARGUMENT_NOT_QUOTED)
    return ActionRequest(
        device, service, version, fields[2].text, tuple(argument.text for argument in arguments)
    )


def _subscribe(fields: list[_Field]) -> SubscribeRequest:
    if not fields:
        raise DeviceError(SERVICE_NOT_SPECIFIED)
    if len(fields) > 1:
        raise DeviceError(COMMAND_NOT_RECOGNISED)
    return SubscribeRequest(*_device_and_service(fields[0].text))


def _unsubscribe(fields: list[_Field]) -> UnsubscribeRequest:
    if not fields:
        return UnsubscribeRequest()
    if len(fields) > 1:
        raise DeviceError(COMMAND_NOT_RECOGNISED)
    target = fields[0].text
    if target and set(target) <= _DECIMAL_DIGITS:
        return UnsubscribeRequest(subscription_id=int(target))
    device, service = _device_and_service(target)
    return UnsubscribeRequest(device=device, service=service)


def read_request(line: str) -> Request | None:
    """Parse one control-point line; None for a blank line."""
    fields = _fields(line)
    if not fields:
        return None
    keyword, rest = fields[0], fields[1:]
    match keyword.text.upper() if not keyword.quoted else "":
        case "ACTION":
            return _action(rest)
        case "SUBSCRIBE":
            return _subscribe(rest)
        case "UNSUBSCRIBE":
            return _unsubscribe(rest)
    raise DeviceError(COMMAND_NOT_RECOGNISED)


# --- device lines (without the CRLF the session appends) ------------------------------
#
# `raw_line_breaks` writes line breaks inside values as the firmware does: raw, CRLF and
# CR as one LF (ohNet Converter::ToXmlEscaped), so a value can span lines of the stream.
# Without it CR and LF go as character references and every message is one line (the
# wiki's reading of "XML escaping").


def xml_escape(value: str, *, raw_line_breaks: bool = False) -> str:
    """Escape a value for the inside of a quoted argument."""
    if raw_line_breaks:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
        if _has_raw_bytes(value):
            return _escape_bytewise(value)
        return value.translate(_XML_ESCAPES_RAW_BREAKS)
    return value.translate(_XML_ESCAPES)


# Bytes that are not UTF-8 (a Latin-1 radio title) travel in a value as surrogate escapes
# (`raw.decode("utf-8", "surrogateescape")`) and go out as those bytes (Session.write_line
# encodes with surrogateescape). ohNet's ToXmlEscaped works on bytes: a byte of 0xC0 or
# more starts a multi-byte character, and it and the 1-3 bytes after it (2, 3 or 4 in
# all, by its top bits) are written raw, whatever they are: a quote, `<` or a line break
# after a Latin-1 `\xe9` goes out unescaped. For UTF-8 that is the same as escaping by
# character, so only values holding raw bytes take the byte path.


def _has_raw_bytes(value: str) -> bool:
    return any("\udc80" <= char <= "\udcff" for char in value)


def _escape_bytewise(value: str) -> str:
    data = value.encode("utf-8", "surrogateescape")
    out = bytearray()
    raw = 0
    for byte in data:
        if raw == 0:
            raw = 4 if byte >= 0xF0 else 3 if byte >= 0xE0 else 2 if byte >= 0xC0 else 0
        if raw > 0:
            raw -= 1
            out.append(byte)
        elif byte < 0x80:
            out += chr(byte).translate(_XML_ESCAPES_RAW_BREAKS).encode()
        else:
            out.append(byte)
    return out.decode("utf-8", "surrogateescape")


def _quoted(value: str, raw_line_breaks: bool) -> str:
    return f'"{xml_escape(value, raw_line_breaks=raw_line_breaks)}"'


def alive_line(device: str, udn: str) -> str:
    """`ALIVE <sub-device> <udn>`."""
    return f"ALIVE {device} {udn}"


def byebye_line(device: str, udn: str) -> str:
    """`BYEBYE <sub-device> <udn>`."""
    return f"BYEBYE {device} {udn}"


def response_line(
    values: tuple[str, ...] | list[str] = (), *, raw_line_breaks: bool = False
) -> str:
    """`RESPONSE` with the out-arguments quoted, in order."""
    return " ".join(["RESPONSE", *(_quoted(value, raw_line_breaks) for value in values)])


def subscribed_line(subscription_id: int) -> str:
    """The acknowledgement of SUBSCRIBE."""
    return f"SUBSCRIBE {subscription_id}"


def unsubscribed_line(subscription_id: int) -> str:
    """The acknowledgement of UNSUBSCRIBE, or a revocation."""
    return f"UNSUBSCRIBE {subscription_id}"


def event_line(
    subscription_id: int,
    sequence: int,
    variables: dict[str, str],
    *,
    raw_line_breaks: bool = False,
) -> str:
    """`EVENT <id> <seq>` followed by name/"value" pairs."""
    pairs = (f"{name} {_quoted(value, raw_line_breaks)}" for name, value in variables.items())
    return " ".join([f"EVENT {subscription_id} {sequence}", *pairs])


def error_line(code: int, description: str, *, raw: bool = False) -> str:
    """`ERROR <code> "<description>"`; `raw` writes the text as it is (as ohNet does)."""
    text = description if raw else xml_escape(description)
    return f'ERROR {code} "{text}"'
