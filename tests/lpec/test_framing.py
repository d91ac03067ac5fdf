"""Message framing by quotes: values span lines, the next message stays whole."""

from __future__ import annotations

import asyncio

import pytest

from custom_components.linn.lpec.codec import (
    _ERROR_RE,
    Error,
    Event,
    Response,
    parse_device_line,
)
from custom_components.linn.lpec.errors import LpecProtocolError
from custom_components.linn.lpec.framing import (
    BrokenQuoteError,
    MessageFramer,
    MessageReader,
    MessageTooLongError,
    decode_message,
)
from linn_emulator.didl import icy_didl

DIDL = (
    b'EVENT 0 3 Metadata "&lt;DIDL-Lite&gt;\n&lt;item&gt;\r\n&lt;dc:title&gt;A\rB'
    b'&lt;/dc:title&gt;\n&lt;/item&gt;\n&lt;/DIDL-Lite&gt;" Metatext ""\r\n'
)
STREAM = (
    b"ALIVE Ds 4c494e4e-1\r\n"
    + DIDL
    + b'RESPONSE "[{\\"id\\": 1},\n{\\"id\\": 2}]"\r\n'
    + b'ERROR 801 "Id "5" not found & gone"\r\n'
    + b"\r\n"
    + b'RESPONSE "50"\r\n'
)
EXPECTED = [
    "ALIVE Ds 4c494e4e-1",
    '"&lt;DIDL-Lite&gt;\n&lt;item&gt;\n&lt;dc:title&gt;A\nB&lt;/dc:title&gt;\n'
    '&lt;/item&gt;\n&lt;/DIDL-Lite&gt;"',
    'RESPONSE "[{\\"id\\": 1},\n{\\"id\\": 2}]"',
    'ERROR 801 "Id "5" not found & gone"',
    "",
    'RESPONSE "50"',
]


def _frame(data: bytes, step: int) -> list[str]:
    framer = MessageFramer()
    messages: list[str] = []
    for start in range(0, len(data), step):
        messages.extend(framer.feed(data[start : start + step]))
    assert framer.pending == 0
    return messages


@pytest.mark.parametrize("step", [1, 2, 3, 7, 64, len(STREAM)])
def test_messages_end_at_line_breaks_outside_quotes(step: int) -> None:
    messages = [m for m in _frame(STREAM, step) if m != ""]
    assert len(messages) == 5
    assert messages[0] == EXPECTED[0]
    assert messages[1].startswith("EVENT 0 3 Metadata ")
    assert EXPECTED[1] in messages[1]
    assert messages[2:] == [EXPECTED[2], EXPECTED[3], EXPECTED[5]]


def test_line_breaks_inside_values_read_as_lf() -> None:
    (message,) = [m for m in MessageFramer().feed(DIDL) if m]
    event = parse_device_line(message)
    assert isinstance(event, Event)
    assert event.variables["Metadata"] == (
        "<DIDL-Lite>\n<item>\n<dc:title>A\nB</dc:title>\n</item>\n</DIDL-Lite>"
    )
    assert event.variables["Metatext"] == ""


def test_error_text_is_raw_and_ends_at_its_line() -> None:
    framer = MessageFramer()
    messages = framer.feed(b'ERROR 802 "a "quoted" & <raw> text"\r\nRESPONSE\r\n')
    assert [parse_device_line(m) for m in messages if m] == [
        Error(802, 'a "quoted" & <raw> text'),
        Response(()),
    ]


def test_an_unterminated_quote_without_another_quote_runs_to_the_limit() -> None:
    """Inside quotes a line break is content: with no quote after it, only the limit ends it."""
    framer = MessageFramer(limit=200)
    assert framer.feed(b'EVENT 1 0 Volume "unterminated\r\nRESPONSE\r\nBYEBYE Ds uuid:x\r\n') == []
    assert framer.feed(b"EVENT 0 4 Volume 44\r\n" * 10) == []
    assert isinstance(framer.error(), MessageTooLongError)


def test_a_value_line_that_only_resembles_a_header_stays_in_the_value() -> None:
    framer = MessageFramer()
    data = b'RESPONSE "line one\nRESPONSE is a word\nEVENTS 1 2 \nALIVE Ds\nend"\r\n'
    (message,) = framer.feed(data)
    assert parse_device_line(message) == Response(
        ("line one\nRESPONSE is a word\nEVENTS 1 2 \nALIVE Ds\nend",)
    )


def test_a_quote_followed_by_text_does_not_close_the_value() -> None:
    framer = MessageFramer()
    (message,) = framer.feed(b'RESPONSE "say \\"hi\\"-there" "C:\\"\r\n')
    assert parse_device_line(message) == Response(('say "hi"-there', "C:\\"))


def test_a_message_over_the_limit_ends_the_framing() -> None:
    framer = MessageFramer(limit=100)
    assert framer.feed(b'EVENT 0 1 Metadata "' + b"x" * 70) == []
    assert framer.error() is None
    assert framer.feed(b"y" * 40) == []
    error = framer.error()
    assert isinstance(error, MessageTooLongError)
    assert str(error) == "message longer than 100 bytes"
    assert framer.pending == 0


@pytest.mark.parametrize(
    "reads",
    [
        [b"ALIVE A a\r\nALIVE B b\r\n" + b"x" * 150],
        [b"ALI", b"VE A a\r\nALIVE B b\r\n" + b"x" * 150],
        [b"ALIVE A a\r\nALIVE B", b" b\r\n" + b"x" * 150],
        [b'ALIVE A a\r\nEVENT 0 1 Metadata "' + b"x" * 150 + b'"\r\nALIVE B b\r\n' + b"y" * 150],
    ],
    ids=["one-read", "after-a-partial-one", "ending-a-partial-one", "after-a-long-one"],
)
def test_messages_completed_before_an_overlong_tail_in_the_same_read_come_out(
    reads: list[bytes],
) -> None:
    """A read that completes messages and leaves more than the limit pending: the messages
    come out (by the fast path or the general one), the overflow is recorded, not raised."""
    framer = MessageFramer(limit=100)
    messages: list[str] = []
    for data in reads:
        messages.extend(framer.feed(data))
    assert [m for m in messages if m.startswith("ALIVE")] == ["ALIVE A a", "ALIVE B b"]
    error = framer.error()
    assert isinstance(error, MessageTooLongError)
    assert "longer than 100 bytes" in str(error)
    assert framer.pending == 0
    assert framer.feed(b"ALIVE C c\r\n") == []  # where the next message starts is lost


def test_a_tail_that_grows_past_the_limit_in_a_later_read_ends_the_framing() -> None:
    """The messages of the first read came out with it; the read that overflows has none."""
    framer = MessageFramer(limit=100)
    assert framer.feed(b"ALIVE A a\r\n" + b"x" * 60) == ["ALIVE A a"]
    assert framer.error() is None
    assert framer.feed(b"x" * 60) == []
    assert isinstance(framer.error(), MessageTooLongError)


async def test_the_reader_returns_the_messages_before_an_overlong_tail_then_raises() -> None:
    stream = asyncio.StreamReader()
    reader = MessageReader(stream, limit=100)
    stream.feed_data(b"ALIVE A a\r\nALIVE B b\r\n" + b"x" * 150)
    assert await reader.read_batch() == ["ALIVE A a", "ALIVE B b"]
    with pytest.raises(MessageTooLongError, match="longer than 100 bytes"):
        await reader.read_batch()
    with pytest.raises(MessageTooLongError):  # and again: nothing more is framed
        await reader.read()


def _ohnet_event(sid: int, seq: int, name: str, value: str) -> bytes:
    """An EVENT as ohNet writes it: ToXmlEscaped value (five entities), line breaks raw."""
    escaped = (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("'", "&apos;")
        .replace('"', "&quot;")
    )
    return f'EVENT {sid} {seq} {name} "{escaped}"\r\n'.encode()


@pytest.mark.parametrize("step", [1, 5, 4096])
def test_a_stream_title_cannot_forge_messages(step: int) -> None:
    """A radio StreamTitle goes into Metatext raw (ohPipeline Icy): lines in it stay in it."""
    title = (
        "Live\nBYEBYE Ds uuid:forged\nEVENT 1 99 Volume 100 Mute true\nRESPONSE\n"
        'RESPONSE "1"\nERROR 111 "gone"\nUNSUBSCRIBE 1\nend'
    )
    wire = _ohnet_event(4, 7, "Metatext", icy_didl(title)) + b'EVENT 2 3 Volume "40"\r\n'
    messages = [parse_device_line(m) for m in _frame(wire, step) if m]
    assert len(messages) == 2, messages
    assert isinstance(messages[0], Event)
    assert title in messages[0].variables["Metatext"]
    assert messages[1] == Event(2, 3, {"Volume": "40"})


def ohnet_to_xml_escaped(value: bytes) -> bytes:
    """ohNet Converter::ToXmlEscaped's byte rule, written from its description.

    A byte of 0xC0 or more and the 1-3 bytes after it go out raw; otherwise the five
    XML entities are escaped and line breaks written raw.
    """
    out = bytearray()
    remaining = 0
    for byte in value:
        if remaining == 0:
            remaining = 4 if byte >= 0xF0 else 3 if byte >= 0xE0 else 2 if byte >= 0xC0 else 0
        if remaining > 0:
            remaining -= 1
            out.append(byte)
            continue
        escape = {0x3C: b"&lt;", 0x3E: b"&gt;", 0x26: b"&amp;", 0x27: b"&apos;", 0x22: b"&quot;"}
        out += escape.get(byte, bytes([byte]))
    return bytes(out)


@pytest.mark.parametrize("step", [1, 2, 4096])
@pytest.mark.parametrize(
    ("title", "shown"),
    [
        (b'Live from "Caf\xe9" Berlin', 'Live from "Caf\xe9" Berlin'),  # raw quote, space
        (b"Caf\xe9\r\nBYEBYE Ds uuid:x", "Caf\xe9\nBYEBYE Ds uuid:x"),  # raw CR LF
        (b'Caf\xe9"', 'Caf\xe9"'),  # raw quote, then the closing quote
        (b'Na\xefve \xa3 5 & \xfc<"', 'Na\xefve \xa3 5 & \xfc<"'),
        ("Café ☕ 🎵".encode(), "Café ☕ 🎵"),  # valid UTF-8 as it is
    ],
)
def test_a_latin1_stream_title_keeps_the_metatext_event(
    step: int, title: bytes, shown: str
) -> None:
    """Icy titles are often Latin-1; ohNet writes the bytes after 0xC0+ raw (quotes too)."""
    didl = icy_didl("@@").encode().replace(b"@@", title)
    wire = b'EVENT 4 7 Metatext "' + ohnet_to_xml_escaped(didl) + b'"\r\nEVENT 2 3 Volume "40"\r\n'
    messages = [parse_device_line(m) for m in _frame(wire, step) if m]
    assert len(messages) == 2, messages
    assert isinstance(messages[0], Event)
    metatext = messages[0].variables["Metatext"]
    assert metatext.startswith("<DIDL-Lite")
    assert metatext.endswith("</DIDL-Lite>")
    assert shown.replace("\r\n", "\n") in metatext.replace("&lt;", "<").replace("&amp;", "&")
    assert messages[1] == Event(2, 3, {"Volume": "40"})


def test_decoding_never_raises() -> None:
    # 0xFF: the 3 bytes after it are raw in ohNet, the closing quote too (re-escaped)
    assert decode_message(b'RESPONSE "\xff\xfe\x80"') == 'RESPONSE "\xff\xfe\x80&quot;'
    assert decode_message(b"RESPONSE \xa3 \xc3\xa9") == "RESPONSE \xa3 \xe9"
    assert decode_message(b'ERROR 801 "Caf\xe9" x"', line_mode=True) == 'ERROR 801 "Caf\xe9" x"'


def test_a_raw_quote_inside_a_value_breaks_the_framing() -> None:
    """ohNet writes no raw quote inside a value (but in a raw run): an unterminated one."""
    framer = MessageFramer()
    messages = framer.feed(
        b'EVENT 0 1 Volume "40"\r\nEVENT 1 0 Volume "unterminated\r\nRESPONSE\r\n'
        b'EVENT 0 4 Volume "44"\r\nEVENT 0 5 Volume "45"\r\n'
    )
    assert messages == ['EVENT 0 1 Volume "40"']
    error = framer.error()
    assert isinstance(error, BrokenQuoteError)
    assert "raw quote" in str(error)
    assert framer.feed(b'RESPONSE "1"\r\n') == []  # nothing after it is trusted


async def test_one_read_of_several_lines_and_a_partial_one_is_one_batch() -> None:
    """Issue 31: the complete messages of one TCP read come out together, the partial one
    (here an ERROR cut after "ER", whose line mode is not known yet) waits for the rest."""
    stream = asyncio.StreamReader()
    reader = MessageReader(stream)
    stream.feed_data(
        b'EVENT 3 7 Volume "41"\r\nEVENT 3 8 Volume "42" Mute "true"\r\n'
        b'EVENT 4 2 Metatext "a\nb"\r\nER'
    )
    batch = await reader.read_batch()
    assert batch == [
        'EVENT 3 7 Volume "41"',
        'EVENT 3 8 Volume "42" Mute "true"',
        'EVENT 4 2 Metatext "a\nb"',
    ]
    assert [parse_device_line(line) for line in batch] == [
        Event(3, 7, {"Volume": "41"}),
        Event(3, 8, {"Volume": "42", "Mute": "true"}),
        Event(4, 2, {"Metatext": "a\nb"}),
    ]
    assert reader.buffered  # the partial "ER" is kept
    stream.feed_data(b'ROR 801 "Id "5" gone"\r\nRESPONSE "50"\r\n')
    batch = await reader.read_batch()
    assert batch == ['ERROR 801 "Id "5" gone"', 'RESPONSE "50"']
    assert [parse_device_line(line) for line in batch] == [
        Error(801, 'Id "5" gone'),
        Response(("50",)),
    ]
    # read() and read_batch() share the queue: what read() left comes out next, in order.
    stream.feed_data(b"ALIVE Ds 1\r\nALIVE Ds 2\r\nALIVE Ds 3\r\n")
    assert await reader.read() == "ALIVE Ds 1"
    assert await reader.read_batch() == ["ALIVE Ds 2", "ALIVE Ds 3"]
    stream.feed_eof()
    assert await reader.read_batch() is None


async def test_an_event_longer_than_the_firmwares_write_buffer_arrives_in_pieces() -> None:
    """ohNet's LPEC session writes through a 4000-byte buffer (DviSessionLpec
    kWriteBufferBytes) and flushes at each message's end: a longer event (a track's DIDL-Lite
    Metadata) reaches the socket in 4000-byte pieces, the first behind a short event. Each
    read's batch holds only what it completed; the long event comes out whole, once."""
    metadata = "&lt;DIDL-Lite&gt;" + "&lt;upnp:albumArtURI&gt;x&lt;/upnp:albumArtURI&gt;" * 220
    wire = b'EVENT 3 7 Volume "41"\r\n' + f'EVENT 4 2 Metadata "{metadata}"\r\n'.encode()
    assert len(wire) > 2 * 4000
    pieces = [wire[start : start + 4000] for start in range(0, len(wire), 4000)]
    stream = asyncio.StreamReader()
    reader = MessageReader(stream)
    stream.feed_data(pieces[0])
    assert await reader.read_batch() == ['EVENT 3 7 Volume "41"']
    waiting = asyncio.ensure_future(reader.read_batch())
    for piece in pieces[1:-1]:
        stream.feed_data(piece)
        await asyncio.sleep(0)
        assert not waiting.done(), "a batch before the event's end"
    stream.feed_data(pieces[-1])
    assert await waiting == [f'EVENT 4 2 Metadata "{metadata}"']
    assert not reader.buffered


@pytest.mark.parametrize(
    "line",
    ["ERROR 5 x", "error 5 x", " \tError 5 x", "ERROR\t5", "EVENT 1 0", "ERRORS 5", "ER"],
)
def test_the_error_precheck_accepts_what_the_error_pattern_does(line: str) -> None:
    """parse_device_line runs the ERROR pattern only on lines that may be one: the same
    lines parse as ERROR, and the others as before."""
    try:
        parsed: object = parse_device_line(line)
    except LpecProtocolError as err:
        parsed = type(err)
    matched = _ERROR_RE.match(line)
    assert isinstance(parsed, Error) == (matched is not None)
