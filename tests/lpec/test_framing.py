"""Message framing by quotes: values span lines, the next message stays whole."""

from __future__ import annotations

import pytest

from custom_components.linn.lpec.codec import Error, Event, Response, parse_device_line
from custom_components.linn.lpec.framing import MessageFramer, MessageTooLongError

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


def test_an_unterminated_quote_loses_only_its_message() -> None:
    framer = MessageFramer()
    messages = framer.feed(
        b'EVENT 1 0 Volume "unterminated\r\nnot a header\r\nRESPONSE\r\nEVENT 0 4 Volume "44"\r\n'
    )
    assert [m for m in messages if m] == [
        'EVENT 1 0 Volume "unterminated\nnot a header',
        "RESPONSE",
        'EVENT 0 4 Volume "44"',
    ]


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


def test_a_message_over_the_limit_raises() -> None:
    framer = MessageFramer(limit=100)
    framer.feed(b'EVENT 0 1 Metadata "' + b"x" * 70)
    with pytest.raises(MessageTooLongError):
        framer.feed(b"y" * 40)
