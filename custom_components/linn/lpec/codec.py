"""LPEC grammar, the client's half: build control-point lines, parse device messages.

The client builds ACTION, SUBSCRIBE and UNSUBSCRIBE lines and parses what a device
sends (ALIVE, BYEBYE, RESPONSE, SUBSCRIBE, UNSUBSCRIBE, EVENT, ERROR), one message at a
time as `framing` cuts them (a quoted value may hold line breaks). Keywords match
case-insensitively. Every argument the client sends is XML-escaped and double-quoted,
carriage returns and line feeds too (the firmware reads a request up to its LF). ERROR
descriptions are read raw: the firmware writes them unescaped, quotes and all. The emulator has
its own, independent implementation of the device's half (linn_emulator/wire.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
import re

from .errors import LpecInvalidArgumentError, LpecProtocolError

_ESCAPES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&apos;",
    "\r": "&#13;",
    "\n": "&#10;",
}
_ESCAPE_RE = re.compile("[&<>\"'\r\n]")
_NAMED_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_ENTITY_RE = re.compile(r"&(amp|lt|gt|quot|apos|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")

# A quoted token or a bare token. A quoted token ends at the first quote followed by a
# space, a tab or the end of the line: a device XML-escapes quotes inside values, so a
# value may end in a backslash (`"C:\"`). Firmware that backslash-quotes instead of
# using &quot; is read too (`\"` inside a token is a quote) unless the backslash-quoted
# quote is itself followed by a space.
_TOKEN_RE = re.compile(r'[ \t]*(?:"(.*?)"(?=[ \t]|$)|([^\s"]+))', re.DOTALL)
_TRAILING_SPACE_RE = re.compile(r"[ \t]*")

MAX_CODE_POINT = 0x10FFFF

MAX_REQUEST_BYTES = 12000
"""The longest request the firmware reads, its CRLF included: ohNet reads each request into
a 12000-byte buffer (DviSessionLpec kMaxReadBytes, ReaderUntilS); a line that does not end
within it throws ReaderError, which ends the session, unanswered (DviSessionLpec::Run)."""


def escape(value: str) -> str:
    """XML-escape a value for the inside of a quoted LPEC argument."""
    escaped = _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], value)
    if escaped.endswith("\\"):
        # A trailing backslash would read as \" (a backslash-quoted quote) and leave
        # the argument unterminated; quotes never follow one otherwise (they are &quot;).
        escaped = escaped[:-1] + "&#92;"
    return escaped


def _entity(match: re.Match[str]) -> str:
    name = match.group(1)
    if name[0] != "#":
        return _NAMED_ENTITIES[name]
    # the prefix is XML's "#x", not Python's "0x": int(name, 0) would not parse it
    number = int(name[2:], 16) if name[1] in "xX" else int(name[1:])  # noqa: FURB166
    if number > MAX_CODE_POINT or 0xD800 <= number <= 0xDFFF:
        return match.group(0)
    return chr(number)


def unescape(value: str) -> str:
    """Undo one level of XML escaping; unknown entities are left as they are."""
    if "&" not in value:
        return value
    return _ENTITY_RE.sub(_entity, value)


def quote(value: str) -> str:
    """Escape and double-quote one argument."""
    return f'"{escape(value)}"'


def format_bool(value: bool) -> str:
    """Booleans travel as true/false."""
    return "true" if value else "false"


def parse_bool(value: str) -> bool:
    """Accept true/false/1/0, case-insensitively (as the device does)."""
    lowered = value.strip().lower()
    if lowered in ("true", "1"):
        return True
    if lowered in ("false", "0"):
        return False
    raise LpecProtocolError(f"not a boolean: {value!r}")


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a line: a bare word or the unescaped content of a quoted string."""

    value: str
    quoted: bool


def tokenize(line: str) -> list[Token]:
    """Split a line into tokens; raise LpecProtocolError on an unterminated quote."""
    tokens: list[Token] = []
    pos = 0
    end = len(line.rstrip("\r\n"))
    while pos < end:
        match = _TOKEN_RE.match(line, pos, end)
        if match is None:
            rest = _TRAILING_SPACE_RE.match(line, pos, end)
            if rest is not None and rest.end() == end:
                break
            raise LpecProtocolError(f"unterminated or misplaced quote at column {pos}")
        quoted_text = match.group(1)
        if quoted_text is not None:
            tokens.append(Token(unescape(quoted_text.replace('\\"', '"')), True))
        else:
            tokens.append(Token(match.group(2), False))
        pos = match.end()
    return tokens


# --- device -> client messages ------------------------------------------------


@dataclass(frozen=True, slots=True)
class Alive:
    """A sub-device announced itself (on connect, or when it comes back)."""

    device: str
    udn: str


@dataclass(frozen=True, slots=True)
class ByeBye:
    """A sub-device is going away (disabled, or the device is rebooting)."""

    device: str
    udn: str


@dataclass(frozen=True, slots=True)
class Response:
    """The reply to the ACTION in flight; values are the out-arguments in order."""

    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Subscribed:
    """Acknowledgement of SUBSCRIBE with the id events will carry."""

    subscription_id: int


@dataclass(frozen=True, slots=True)
class Unsubscribed:
    """Acknowledgement of UNSUBSCRIBE, or the device revoking a subscription."""

    subscription_id: int


@dataclass(frozen=True, slots=True)
class Event:
    """State variables of one subscription; sequence 0 carries the full state."""

    subscription_id: int
    sequence: int
    variables: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Error:
    """The device rejected the command in flight."""

    code: int
    description: str


type DeviceMessage = Alive | ByeBye | Response | Subscribed | Unsubscribed | Event | Error


def _int(token: Token, what: str) -> int:
    try:
        return int(token.value)
    except ValueError:
        raise LpecProtocolError(f"{what} is not a number: {token.value!r}") from None


def _expect(tokens: list[Token], count: int, keyword: str) -> None:
    if len(tokens) != count:
        raise LpecProtocolError(f"{keyword} takes {count - 1} fields, got {len(tokens) - 1}")


_BLANKS = frozenset(" \t")
_ERROR_RE = re.compile(r"[ \t]*ERROR[ \t]+([^ \t\r\n]*)[ \t]*(.*)", re.IGNORECASE | re.DOTALL)


def _parse_error(match: re.Match[str]) -> Error:
    """ERROR <code> "<description>": the firmware writes the text raw, quotes and all."""
    code_text, text = match.group(1), match.group(2).rstrip("\r\n")
    if not code_text:
        raise LpecProtocolError("ERROR without a code")
    try:
        code = int(code_text)
    except ValueError:
        raise LpecProtocolError(f"error code is not a number: {code_text!r}") from None
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        text = text[1:-1]
    return Error(code, text)


# An EVENT that tokenize reads as its plain reading too: single spaces, unquoted numbers and
# names, values without a quote inside (so the first quote ends each, at a space or the end).
_SIMPLE_EVENT_RE = re.compile(r'EVENT ([0-9]+) ([0-9]+)((?: [^\s"]+ "[^"]*+")*+)')
_PAIR_RE = re.compile(r' ([^\s"]+) "([^"]*+)"')


def parse_device_line(line: str) -> DeviceMessage | None:
    """Parse one message sent by a device; None for a blank one."""
    if (event := _SIMPLE_EVENT_RE.fullmatch(line)) is not None:
        sid, sequence, pairs = event.groups()
        variables = {name: unescape(value) for name, value in _PAIR_RE.findall(pairs)}
        return Event(int(sid), int(sequence), variables)
    return _parse_device_line(line)


def _parse_device_line(line: str) -> DeviceMessage | None:
    """parse_device_line's general path: any line."""
    # The ERROR pattern only where it may match: a blank, a tab or "ERROR" first.
    if (line[:1] in _BLANKS or line[:5].upper() == "ERROR") and (
        error := _ERROR_RE.match(line)
    ) is not None:
        return _parse_error(error)
    tokens = tokenize(line)
    if not tokens:
        return None
    keyword = tokens[0].value.upper() if not tokens[0].quoted else ""
    args = tokens[1:]
    match keyword:
        case "ALIVE" | "BYEBYE":
            _expect(tokens, 3, keyword)
            kind = Alive if keyword == "ALIVE" else ByeBye
            return kind(args[0].value, args[1].value)
        case "RESPONSE":
            return Response(tuple(token.value for token in args))
        case "SUBSCRIBE":
            _expect(tokens, 2, keyword)
            return Subscribed(_int(args[0], "subscription id"))
        case "UNSUBSCRIBE":
            _expect(tokens, 2, keyword)
            return Unsubscribed(_int(args[0], "subscription id"))
        case "EVENT":
            return _parse_event(args)
    raise LpecProtocolError(f"unknown keyword {tokens[0].value!r}")


def _parse_event(args: list[Token]) -> Event:
    if len(args) < 2:
        raise LpecProtocolError("EVENT needs a subscription id and a sequence number")
    pairs = args[2:]
    if len(pairs) % 2:
        raise LpecProtocolError("EVENT variables must come in name/value pairs")
    variables: dict[str, str] = {}
    for index in range(0, len(pairs), 2):
        name = pairs[index]
        if name.quoted:
            raise LpecProtocolError(f"EVENT variable name is quoted: {name.value!r}")
        variables[name.value] = pairs[index + 1].value
    return Event(_int(args[0], "subscription id"), _int(args[1], "sequence"), variables)


# --- client -> device messages ------------------------------------------------


def split_path(path: str) -> tuple[str, str]:
    """Split 'Ds/Product' into ('Ds', 'Product')."""
    device, sep, service = path.partition("/")
    if not sep or not device or not service or "/" in service:
        raise LpecProtocolError(f"expected <device>/<service>, got {path!r}")
    return device, service


def format_action(
    path: str, version: int, action: str, args: tuple[str, ...] | list[str] = ()
) -> str:
    """Build an ACTION line; path is '<device>/<service>'.

    Raises LpecInvalidArgumentError when the line is longer than the device reads
    (MAX_REQUEST_BYTES): it would end the session, and the command would not run.
    """
    split_path(path)
    line = " ".join([f"ACTION {path} {version} {action}", *(quote(arg) for arg in args)])
    try:
        size = len(line.encode()) + 2  # CRLF
    except UnicodeEncodeError as err:
        raise LpecInvalidArgumentError(f"{action}: an argument is not valid text ({err})") from None
    if size > MAX_REQUEST_BYTES:
        raise LpecInvalidArgumentError(
            f"{action} would be a {size}-byte request; the device reads at most"
            f" {MAX_REQUEST_BYTES} (with CRLF) and ends the session on a longer one"
        )
    return line


def format_subscribe(path: str) -> str:
    """Build a SUBSCRIBE line."""
    split_path(path)
    return f"SUBSCRIBE {path}"


def format_unsubscribe(target: int | str | None = None) -> str:
    """Build an UNSUBSCRIBE line for an id, a '<device>/<service>' path, or everything."""
    return "UNSUBSCRIBE" if target is None else f"UNSUBSCRIBE {target}"
