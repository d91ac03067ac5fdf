"""Split the byte stream a device sends into messages: by quotes, not by lines.

More than `limit` bytes of a message pending (MessageTooLongError) or a broken quote
(BrokenQuoteError) ends the framing: `feed` returns the messages completed before it and
`error()` tells why. Why, and what ohNet writes (docs/protocol.md, "Framing").
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
_QUOTE = 0x22
_BACKSLASH = 0x5C
_CLOSERS = frozenset(b" \t\r\n")
_LINE_MODE_KEYWORD = b"ERROR"
_IN_QUOTE_RE = re.compile(rb'["\xc0-\xff]')
"""What matters inside a quoted value: a quote, or a byte that starts a multi-byte run."""
_SPECIAL_RE = re.compile(rb'["\x80-\xff]')
_CONTENT_ESCAPES = {'"': "&quot;", "&": "&amp;", "<": "&lt;", ">": "&gt;"}
_SIMPLE_LINE_RE = re.compile(rb'([^"\r\n]*+(?:"[^"\r\n]*+"(?=[ \t\r\n])[^"\r\n]*+)*+)\r?\n')
"""A whole line (LF or CRLF) whose every quote closes before its end: framed as it is.

An ERROR's line end is then the same, and if it decodes as UTF-8 no raw run after a lead
byte held a quote or a line break, so `_quoted_end` would have ended it there too."""


class MessageTooLongError(LpecConnectionError):
    """A message grew past the limit without ending."""


class BrokenQuoteError(LpecConnectionError):
    """Inside a quoted value, a raw quote that does not close it: the framing is lost."""


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
        self._ended: tuple[type[LpecConnectionError], str] | None = None
        """Why the framing ended (a broken quote, an overlong message); nothing more is
        framed after it. Not the exception: one kept here would keep its traceback's buffers."""

    def feed(self, data: bytes) -> list[str]:
        """Add bytes; return the messages they complete (blank ones included, as "").

        Never raises: if the framing ends in these bytes, the messages before the end are
        returned and `error()` tells why.
        """
        if self._ended is not None:
            return []
        if self._buffer:
            return self._feed(data, [])
        # The common case, e.g. one EVENT per read: whole simple lines, nothing pending.
        messages: list[str] = []
        position = 0
        while (line := _SIMPLE_LINE_RE.match(data, position)) is not None:
            try:
                messages.append(line.group(1).decode())
            except UnicodeDecodeError:
                break  # not UTF-8: decode_message's Latin-1 rules, and maybe other framing
            position = line.end()
        if position == len(data):
            return messages
        return self._feed(data[position:], messages)

    def _feed(self, data: bytes, messages: list[str]) -> list[str]:
        """The general path: any bytes, any state; `messages` are those framed before."""
        self._buffer += data
        try:
            while (message := self._next()) is not None:
                messages.append(message)
        except BrokenQuoteError as err:
            self._ended = BrokenQuoteError, str(err)
            self._buffer = bytearray()
            return messages
        if not self._buffer:
            self._buffer = bytearray()  # let go of the room a long message took
        elif len(self._buffer) > self._limit:
            # Where the next message starts is lost; those completed before it are not.
            self._ended = MessageTooLongError, f"message longer than {self._limit} bytes"
            self._buffer = bytearray()
        return messages

    def error(self) -> LpecConnectionError | None:
        """Why the framing ended (a new BrokenQuoteError or MessageTooLongError), or None."""
        if self._ended is None:
            return None
        kind, text = self._ended
        return kind(text)

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
        line_mode = self._line_mode
        self._scan = 0
        self._in_quote = False
        self._line_mode = None
        text = decode_message(raw, bool(line_mode))
        if "\r" not in text:
            return text
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
                found = _IN_QUOTE_RE.search(buffer, position)
                if found is None:
                    position = size
                    break
                at = found.start()
                if buffer[at] != _QUOTE:
                    after = at + 1 + _raw_after(buffer[at])
                    if after > size:
                        position = at  # the raw bytes after it are not all here yet
                        break
                    position = after
                    continue
                if at + 1 >= size:
                    position = at  # what follows decides: wait for it
                    break
                position = at + 1
                if buffer[at + 1] in _CLOSERS:
                    self._in_quote = False
                elif at == 0 or buffer[at - 1] != _BACKSLASH:
                    raise BrokenQuoteError(f"a raw quote inside a value at byte {at}")
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


def _raw_after(byte: int) -> int:
    """How many bytes ohNet's ToXmlEscaped writes raw after `byte` (0 below 0xC0)."""
    if byte >= 0xF0:
        return 3
    if byte >= 0xE0:
        return 2
    if byte >= 0xC0:
        return 1
    return 0


def decode_message(raw: bytes, line_mode: bool = False) -> str:
    """Decode one message: UTF-8, or Latin-1 where it is not; never raises.

    Inside quotes (not in a line-mode ERROR), the raw bytes after a byte of 0xC0 or more
    that do not form UTF-8 come out Latin-1 and re-escaped, so they stay content.
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    parts: list[str] = []
    in_quote = False
    position = 0
    size = len(raw)
    while position < size:
        found = _SPECIAL_RE.search(raw, position)
        stop = size if found is None else found.start()
        parts.append(raw[position:stop].decode("ascii"))
        if found is None:
            break
        byte = raw[stop]
        if byte == _QUOTE:
            parts.append('"')
            if not in_quote:
                in_quote = not line_mode
            elif stop + 1 >= size or raw[stop + 1] in _CLOSERS:
                in_quote = False
            position = stop + 1
            continue
        run = raw[stop : stop + 1 + _raw_after(byte)]
        try:
            parts.append(run.decode("utf-8"))
        except UnicodeDecodeError:
            if not in_quote:
                run = run[:1]
            parts.append("".join(_CONTENT_ESCAPES.get(c, c) for c in run.decode("latin-1")))
        position = stop + len(run)
    return "".join(parts)


def _line_break(buffer: bytearray, start: int, stop: int) -> int | None:
    """The first CR or LF in buffer[start:stop], if any."""
    found = [
        i for i in (buffer.find(b"\r", start, stop), buffer.find(b"\n", start, stop)) if i >= 0
    ]
    return min(found) if found else None


def _starts_line_mode(buffer: bytearray) -> bool | None:
    """Whether the message at the start of `buffer` is an ERROR; None until known."""
    head = bytes(buffer[:2]).upper()
    if len(head) == 2 and head != b"ER" and head[0] not in b" \t":
        return False  # e.g. EVENT: known from its first two bytes
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
    """Messages from a stream: `read()` returns the next one, None at the end.

    The library receives through an asyncio.Protocol (connection.py, `_Receiver`) and does
    not use this; the emulator's test client and the framing tests do.
    """

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

        Raises MessageTooLongError or BrokenQuoteError (after the messages before it), each
        time once it has been reached, or OSError from the socket.
        """
        while not self._ready:
            messages = await self._read_chunk()
            if messages is None:
                return None
            self._ready.extend(messages)
        return self._ready.popleft()

    async def read_batch(self) -> list[str] | None:
        """Every message ready (at least one); None once the device closed.

        All complete messages of one TCP read at once: one await per read, not per message.

        Raises as read() does: a broken quote or an overlong message after the messages
        framed before it have been returned.
        """
        while not self._ready:
            messages = await self._read_chunk()
            if messages is None:
                return None
            if messages:
                return messages  # the common case: nothing was queued by read()
        messages = list(self._ready)
        self._ready.clear()
        return messages

    async def _read_chunk(self) -> list[str] | None:
        """The messages one read of the stream completes (maybe none); None at its end.

        The chunk read is not held while the caller waits for the next one (the framer
        copied what it needs).
        """
        error = self._framer.error()
        if error is not None:
            raise error
        data = await self._reader.read(_READ_CHUNK)
        if not data:
            return None
        return self._framer.feed(data)
