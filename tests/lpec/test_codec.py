"""The client's codec: captured device lines, the lines it writes, property tests.

Round trips through the emulator's independent wire layer are in tests/test_wire_cross.py.
"""

from __future__ import annotations

import contextlib

from hypothesis import given, strategies as st
import pytest

from custom_components.linn.lpec.codec import (
    Alive,
    ByeBye,
    Error,
    Event,
    Response,
    Subscribed,
    Unsubscribed,
    escape,
    format_action,
    format_subscribe,
    format_unsubscribe,
    parse_bool,
    parse_device_line,
    tokenize,
    unescape,
)
from custom_components.linn.lpec.errors import LpecProtocolError
from custom_components.linn.lpec.idarray import format_base64_ids, parse_base64_ids

# Arbitrary text, including quotes, ampersands, CR/LF and non-ASCII (no surrogates).
TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=80)
NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,15}", fullmatch=True)


@given(TEXT)
def test_escape_round_trip(value: str) -> None:
    escaped = escape(value)
    assert "\r" not in escaped
    assert "\n" not in escaped
    assert '"' not in escaped
    assert unescape(escaped) == value


@given(st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=50))
def test_base64_id_array_round_trip(ids: list[int]) -> None:
    assert parse_base64_ids(format_base64_ids(ids)) == tuple(ids)


@given(TEXT)
def test_parser_raises_only_protocol_errors(line: str) -> None:
    """Whatever a device sends, parsing fails only with LpecProtocolError."""
    for text in (line, f"EVENT 1 2 {line}", f"RESPONSE {line}", f"ERROR {line}"):
        with contextlib.suppress(LpecProtocolError):
            parse_device_line(text)


CAPTURED = [
    (
        "ALIVE Ds 4c494e4e-0050-c221-71e5-df000003013f\r\n",
        Alive("Ds", "4c494e4e-0050-c221-71e5-df000003013f"),
    ),
    (
        "byebye Ds 4c494e4e-0050-c221-71e5-df000003013f",
        ByeBye("Ds", "4c494e4e-0050-c221-71e5-df000003013f"),
    ),
    ("SUBSCRIBE 82\r\n", Subscribed(82)),
    ("Unsubscribe 49\r\n", Unsubscribed(49)),
    ("RESPONSE\r\n", Response(())),
    ('RESPONSE "50"\r\n', Response(("50",))),
    ('RESPONSE "[1,2,3,4,5,6]"', Response(("[1,2,3,4,5,6]",))),
    ('ERROR 103 "Service not found"\r\n', Error(103, "Service not found")),
    ('ERROR 801 "JsonCorrupt"', Error(801, "JsonCorrupt")),
    (
        'EVENT 3 0 TransportState "Playing" Repeat "false" Shuffle "false" Id "885" '
        'IdArray "AAADdQAAA3cAAAN5AAADew==" TracksMax "1000"\r\n',
        Event(
            3,
            0,
            {
                "TransportState": "Playing",
                "Repeat": "false",
                "Shuffle": "false",
                "Id": "885",
                "IdArray": "AAADdQAAA3cAAAN5AAADew==",
                "TracksMax": "1000",
            },
        ),
    ),
    (
        'EVENT 49 0 ProductName "Sneaky Music DS" ProductRoom "Main Room" '
        'ProductStandby "true" ProductSourceIndex "0"',
        Event(
            49,
            0,
            {
                "ProductName": "Sneaky Music DS",
                "ProductRoom": "Main Room",
                "ProductStandby": "true",
                "ProductSourceIndex": "0",
            },
        ),
    ),
    (
        'EVENT 7 12 Metadata "&lt;DIDL-Lite&gt;&lt;item&gt;&lt;dc:title&gt;Simon &amp;amp; '
        'Garfunkel&lt;/dc:title&gt;&lt;/item&gt;&lt;/DIDL-Lite&gt;"',
        Event(
            7,
            12,
            {
                "Metadata": "<DIDL-Lite><item><dc:title>Simon &amp; Garfunkel"
                "</dc:title></item></DIDL-Lite>"
            },
        ),
    ),
    # Some firmware backslash-quotes instead of &quot;.
    ('EVENT 5 1 Metatext "Say \\"Hi\\""', Event(5, 1, {"Metatext": 'Say "Hi"'})),
    ("   \r\n", None),
]


@pytest.mark.parametrize(("line", "expected"), CAPTURED)
def test_captured_device_lines(line: str, expected: object) -> None:
    assert parse_device_line(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('RESPONSE "C:\\" "next"\r\n', Response(("C:\\", "next"))),
        (
            'EVENT 5 2 Uri "smb://nas/music\\" Metatext ""',
            Event(5, 2, {"Uri": "smb://nas/music\\", "Metatext": ""}),
        ),
    ],
)
def test_a_value_ending_in_a_backslash_keeps_its_closing_quote(line: str, expected: object) -> None:
    """A device escapes quotes in values as &quot;, so a backslash never escapes one."""
    assert parse_device_line(line) == expected


def test_captured_id_array_decodes() -> None:
    assert parse_base64_ids("AAADdQAAA3cAAAN5AAADew==") == (885, 887, 889, 891)


@pytest.mark.parametrize(
    "line",
    [
        'EVENT 3 0 Volume "40',  # unterminated quote
        "EVENT 3",  # no sequence
        'EVENT 3 0 Volume "40" Mute',  # odd pairs
        'EVENT x 0 Volume "40"',  # id not a number
        'EVENT 3 0 "Volume" "40"',  # quoted variable name
        "ALIVE Ds",  # missing udn
        "SUBSCRIBE",  # missing id
        "ERROR",  # missing code
        'ERROR abc "x"',
        "HELLO world",  # unknown keyword
        '"RESPONSE"',  # quoted keyword
    ],
)
def test_malformed_device_lines_raise_protocol_error(line: str) -> None:
    with pytest.raises(LpecProtocolError):
        parse_device_line(line)


def test_client_lines() -> None:
    assert format_subscribe("Ds/Volume") == "SUBSCRIBE Ds/Volume"
    line = format_action("Ds/Product", 2, "SetSourceBySystemName", ['TV & "Arc"'])
    assert line == 'ACTION Ds/Product 2 SetSourceBySystemName "TV &amp; &quot;Arc&quot;"'
    assert format_action("Ds/Pins", 1, "GetIdArray") == "ACTION Ds/Pins 1 GetIdArray"
    assert format_unsubscribe() == "UNSUBSCRIBE"
    assert format_unsubscribe(49) == "UNSUBSCRIBE 49"
    assert format_unsubscribe("Ds/Volume") == "UNSUBSCRIBE Ds/Volume"


def test_malformed_paths_are_refused_before_sending() -> None:
    for path in ("Product", "/Product", "Ds/", "Ds/Product/1"):
        with pytest.raises(LpecProtocolError):
            format_action(path, 1, "Standby")


def test_trailing_backslash_cannot_escape_the_closing_quote() -> None:
    assert escape("C:\\").endswith("&#92;")


def test_tokenize_unknown_entity_left_alone() -> None:
    assert tokenize('"a &bogus; b"')[0].value == "a &bogus; b"


@pytest.mark.parametrize(
    ("text", "value"), [("true", True), ("FALSE", False), ("1", True), ("0", False)]
)
def test_parse_bool(text: str, value: bool) -> None:
    assert parse_bool(text) is value


def test_parse_bool_rejects_other_text() -> None:
    with pytest.raises(LpecProtocolError):
        parse_bool("yes")
