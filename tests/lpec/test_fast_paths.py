"""The fast paths for a plain pushed EVENT give exactly what the general paths give.

`MessageFramer.feed` frames whole simple lines with nothing pending at once, and
`parse_device_line` reads a plain EVENT with one regex; `MessageFramer._feed` and
`codec._parse_device_line` are the general paths they must agree with, on any input:
the same messages, the same errors (type and text), the same state after each chunk.
"""

from __future__ import annotations

from collections.abc import Callable
import itertools

from hypothesis import given, settings, strategies as st

from custom_components.linn.lpec.codec import (
    DeviceMessage,
    _parse_device_line,
    parse_device_line,
)
from custom_components.linn.lpec.errors import LpecError
from custom_components.linn.lpec.framing import MessageFramer, MessageTooLongError

# Pieces that meet the framing's and the tokenizer's every rule: quotes (closing or not),
# backslash-quotes, CR/LF variants, tabs, entities, UTF-8, Latin-1 (with raw bytes after a
# lead byte: a quote, a line break), ERROR's raw quotes, unicode digits and blanks.
_PIECES = [
    'EVENT 12 345 Volume "47"',
    'EVENT 1 2 Mute "false" Volume "3"',
    "EVENT",
    "event",
    "ERROR",
    " ERROR 801 ",
    "RESPONSE",
    "ALIVE Ds 4c494e4e-1",
    " ",
    "  ",
    "\t",
    "\r",
    "\n",
    "\r\n",
    '"',
    '""',
    '\\"',
    "\\",
    "12",
    "0",
    "-1",
    "Volume",
    "&amp;",
    "&#10;",
    "&lt;DIDL&gt;",
    "a",
    "é",
    "\U0001f3b5",
    "٣",
    "\x0c",
    "\xa0",
]
_TEXT_PIECES = st.sampled_from(_PIECES)
_BYTE_PIECES = st.one_of(
    st.sampled_from([piece.encode() for piece in _PIECES]),
    st.sampled_from([b"\xe9", b'\xe9"', b"\xe9\n", b"\xc3", b"\xf0\x9f", b"\xff"]),
)
_VALUE = st.lists(_TEXT_PIECES, max_size=4).map("".join)
_PLAIN_VALUE = st.lists(st.sampled_from([p for p in _PIECES if '"' not in p]), max_size=4)


def _event(
    sids: list[str], sequences: list[str], names: list[str], values: st.SearchStrategy[str]
) -> st.SearchStrategy[str]:
    return st.builds(
        lambda sid, seq, pairs: " ".join(
            ["EVENT", sid, seq, *(f'{name} "{value}"' for name, value in pairs)]
        ),
        st.sampled_from(sids),
        st.sampled_from(sequences),
        st.lists(st.tuples(st.sampled_from(names), values), max_size=4),
    )


_TRICKY_VALUE = st.lists(st.sampled_from(['"', '\\"', "\\", " ", "\t", "\n", "a", "&amp;"]))
_SIMPLE_EVENT = st.one_of(
    _event(
        ["12", "0", "007"],
        ["345", "99999999999999999999"],
        ["Volume", "V\\", "&a"],
        _PLAIN_VALUE.map("".join),
    ),
    _event(["12"], ["345"], ["Volume", "Mute"], _TRICKY_VALUE.map("".join)),
    _event(["12", "-1", "1x", "٣"], ["345", "", "0"], ["Volume", '"Q"', 'V\\"'], _VALUE),
)
LINES = st.one_of(
    _SIMPLE_EVENT,
    st.lists(st.one_of(_TEXT_PIECES, _SIMPLE_EVENT), max_size=8).map("".join),
)


def _outcome(
    parse: Callable[[str], DeviceMessage | None], line: str
) -> DeviceMessage | tuple[type, str] | None:
    try:
        return parse(line)
    except LpecError as err:
        return type(err), str(err)


@settings(max_examples=600)
@given(LINES)
def test_parse_fast_path_matches_general(line: str) -> None:
    assert _outcome(parse_device_line, line) == _outcome(_parse_device_line, line)


def _feed_general(framer: MessageFramer, chunk: bytes) -> list[str]:
    """`feed` without its fast path."""
    return [] if framer.error() is not None else framer._feed(chunk, [])


def _step(
    feed: Callable[[MessageFramer, bytes], list[str]], framer: MessageFramer, chunk: bytes
) -> tuple[object, ...]:
    """What one chunk gives: its messages (feed never raises), why framing ended, if it
    did (a broken quote, an overlong message), and the bytes left pending."""
    messages = feed(framer, chunk)
    error = framer.error()
    ended = None if error is None else (type(error), str(error))
    return messages, ended, framer.pending


_LINE_BYTES = st.one_of(
    _SIMPLE_EVENT.map(lambda line: line.encode() + b"\r\n"),
    st.lists(_BYTE_PIECES, max_size=8).map(b"".join),
)


@settings(max_examples=600)
@given(
    st.lists(_LINE_BYTES, min_size=1, max_size=6).map(b"".join),
    st.lists(st.integers(min_value=0, max_value=400), max_size=6),
    st.sampled_from([8, 30, 1024]),
)
def test_framing_fast_path_matches_general(stream: bytes, cuts: list[int], limit: int) -> None:
    """Chunks cut anywhere, lines long or short: chunk by chunk, the same outcome."""
    bounds = sorted({0, len(stream), *(cut for cut in cuts if cut < len(stream))})
    fast, general = MessageFramer(limit), MessageFramer(limit)
    for start, stop in itertools.pairwise(bounds):
        chunk = stream[start:stop]
        assert _step(MessageFramer.feed, fast, chunk) == _step(_feed_general, general, chunk)


@settings(max_examples=600)
@given(
    st.lists(_LINE_BYTES, min_size=1, max_size=6).map(b"".join),
    st.lists(st.integers(min_value=0, max_value=400), max_size=6),
    st.sampled_from([8, 30, 1024]),
)
def test_the_limit_only_ends_the_framing(stream: bytes, cuts: list[int], limit: int) -> None:
    """Chunk by chunk, a framer with a limit gives what one without gives, up to and
    including the chunk in which too much is pending (its messages before the overflow come
    out); then nothing more."""
    bounds = sorted({0, len(stream), *(cut for cut in cuts if cut < len(stream))})
    limited, unlimited = MessageFramer(limit), MessageFramer(len(stream) + 1)
    for start, stop in itertools.pairwise(bounds):
        chunk = stream[start:stop]
        ended = limited.error() is not None
        messages = limited.feed(chunk)
        expected = unlimited.feed(chunk)
        assert messages == ([] if ended else expected)
    error = limited.error()
    if unlimited.error() is None and error is not None:
        assert isinstance(error, MessageTooLongError)
