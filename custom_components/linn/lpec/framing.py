"""Split the byte stream a device sends into messages: by quotes, not by lines.

Linn firmware writes line breaks inside quoted values raw (ohNet Converter::ToXmlEscaped
has escaped only the five XML entities since 2016), so a multi-line DIDL-Lite or ReadList
value spans several lines of the stream. A message therefore ends at a line break (LF,
CR or CRLF) outside quotes; inside quotes a line break belongs to the value and comes out
as LF, whatever the device sent.

Quotes: a `"` opens a value; inside one, a `"` closes it only when a space, a tab or a
line break follows (the same rule the tokenizer applies, so a backslash-quoted quote or a
value ending in a backslash stays readable). The firmware escapes quotes inside values
as `&quot;`, so a raw quote is always a delimiter. Exception: ERROR descriptions are
written raw, quotes and all, so an ERROR ends at its line end.

An unterminated quote (a device gone wrong; ohNet never sends one outside ERROR) would
swallow every message after it. So inside quotes, a line that starts exactly as a device
message header does (`EVENT <id> <seq> `, `RESPONSE` alone or with a quoted value,
`ERROR <code> "`, `ALIVE`/`BYEBYE <name> <udn>`, `SUBSCRIBE`/`UNSUBSCRIBE <id>`, in the
upper case the firmware writes) ends the broken message, which the parser then rejects,
and starts a new one. A value would have to hold a line that reads exactly like an LPEC
header to be cut there; metadata and JSON lines start with markup, spaces or text.

A message longer than `limit` bytes raises MessageTooLongError: the connection cannot
tell where the next message starts, so it must end.
"""

from __future__ import annotations

import asyncio
from collections import deque
import re

from .errors import LpecConnectionError

MAX_MESSAGE_BYTES = 1024 * 1024
_READ_CHUNK = 64 * 1024
_CR = 0x0D
_LF = 0x0A
_CLOSERS = frozenset(b" \t\r\n")
_LINE_MODE_KEYWORD = b"ERROR"
_HEADER_RE = re.compile(
    rb'(?:EVENT [0-9]+ [0-9]+[ \r\n]|RESPONSE(?:[\r\n]| ")|ERROR [0-9]+ "'
    rb"|(?:ALIVE|BYEBYE) [^ \r\n\"]+ [^ \r\n\"]+[\r\n]|(?:UN)?SUBSCRIBE [0-9]+[\r\n])"
)
_HEADER_WINDOW = 160
"""Bytes of a line enough to tell whether it starts with a header (ALIVE with a long UDN)."""


class MessageTooLongError(LpecConnectionError):
    """A message grew past the limit without ending."""


class MessageFramer:
    """Feed bytes in, take complete messages out (without their line break, decoded)."""

    def __init__(self, limit: int = MAX_MESSAGE_BYTES) -> None:
        self._limit = limit
        self._buffer = bytearray()
        self._scan = 0
        """Where scanning resumes inside the message under way."""
        self._in_quote = False
        self._line_mode: bool | None = None
        """True for a message that ends at its line end whatever its quotes (ERROR)."""

    def feed(self, data: bytes) -> list[str]:
        """Add bytes; return the messages they complete (blank ones included, as "")."""
        self._buffer += data
        messages: list[str] = []
        while (message := self._next()) is not None:
            messages.append(message)
        if not self._buffer:
            self._buffer = bytearray()  # let go of the room a long message took
        elif len(self._buffer) > self._limit:
            self._buffer = bytearray()  # the traceback may be kept: not this buffer
            self._scan, self._in_quote, self._line_mode = 0, False, None
            raise MessageTooLongError(f"message longer than {self._limit} bytes")
        return messages

    @property
    def pending(self) -> int:
        """Bytes of a message not yet complete."""
        return len(self._buffer)

    def _next(self) -> str | None:
        buffer = self._buffer
        if self._line_mode is None:
            self._line_mode = _starts_line_mode(buffer)
            if self._line_mode is None:
                return None
        end = self._line_end() if self._line_mode else self._quoted_end()
        if end is None:
            return None
        raw = bytes(buffer[:end])
        # A CRLF outside quotes leaves its LF as a blank message: skip it right here.
        skip = end + 1
        if buffer[end] == _CR and len(buffer) > skip and buffer[skip] == _LF:
            skip += 1
        del buffer[:skip]
        self._scan = 0
        self._in_quote = False
        self._line_mode = None
        text = raw.decode("utf-8", errors="replace")
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def _line_end(self) -> int | None:
        end = _line_break(self._buffer, self._scan, len(self._buffer))
        if end is None:
            self._scan = len(self._buffer)
        return end

    def _quoted_end(self) -> int | None:
        buffer = self._buffer
        position = self._scan
        size = len(buffer)
        while position < size:
            if self._in_quote:
                quote = buffer.find(b'"', position)
                broken, position = self._header_inside(position, quote if quote >= 0 else size)
                if broken is not None:
                    return broken
                if position < (quote if quote >= 0 else size):
                    break  # wait for the rest of a line that may be a header
                if quote < 0:
                    position = size
                    break
                if quote + 1 >= size:
                    position = quote  # what follows decides: wait for it
                    break
                position = quote + 1
                if buffer[quote + 1] in _CLOSERS:
                    self._in_quote = False
                continue
            quote = buffer.find(b'"', position)
            end = _line_break(buffer, position, quote if quote >= 0 else size)
            if end is not None:
                return end
            if quote < 0:
                position = size
                break
            self._in_quote = True
            position = quote + 1
        self._scan = position
        return None

    def _header_inside(self, start: int, stop: int) -> tuple[int | None, int]:
        """Look for a line inside the open quote, in [start, stop), that starts a message.

        Returns (where the broken message ends, None if nowhere; where scanning may
        resume: `stop` once every line break before it was judged).
        """
        buffer = self._buffer
        size = len(buffer)
        position = start
        while (brk := _line_break(buffer, position, stop)) is not None:
            line = brk + 1
            if buffer[brk] == _CR and line < size and buffer[line] == _LF:
                line += 1
            window_end = min(size, line + _HEADER_WINDOW)
            if _HEADER_RE.match(buffer, line, window_end):
                return brk, brk
            if (
                window_end == size
                and _line_break(buffer, line, size) is None
                and (size - line < _HEADER_WINDOW)
            ):
                return None, brk  # not enough of the next line yet
            position = line
        return None, stop


def _line_break(buffer: bytearray, start: int, stop: int) -> int | None:
    """The first CR or LF in buffer[start:stop], if any."""
    found = [
        i for i in (buffer.find(b"\r", start, stop), buffer.find(b"\n", start, stop)) if i >= 0
    ]
    return min(found) if found else None


def _starts_line_mode(buffer: bytearray) -> bool | None:
    """Whether the message at the start of `buffer` is an ERROR; None until known."""
    start = 0
    while start < len(buffer) and buffer[start] in b" \t":
        start += 1
    end = start
    while end < len(buffer) and buffer[end] not in _CLOSERS:
        if end - start > len(_LINE_MODE_KEYWORD):
            return False
        end += 1
    if end == len(buffer):
        return None  # the keyword may go on
    return bytes(buffer[start:end]).upper() == _LINE_MODE_KEYWORD


class MessageReader:
    """Messages from a stream: `read()` returns the next one, None at the end."""

    def __init__(self, reader: asyncio.StreamReader, limit: int = MAX_MESSAGE_BYTES) -> None:
        self._reader = reader
        self._framer = MessageFramer(limit)
        self._ready: deque[str] = deque()

    @property
    def buffered(self) -> bool:
        """True while bytes read from the stream wait here (complete or not)."""
        return bool(self._ready) or self._framer.pending > 0

    async def read(self) -> str | None:
        """The next message (without its line break); None once the device closed.

        Raises MessageTooLongError, or OSError from the socket.
        """
        while not self._ready:
            data = await self._reader.read(_READ_CHUNK)
            if not data:
                return None
            self._ready.extend(self._framer.feed(data))
        return self._ready.popleft()
