"""Codec: property-based round trips and table tests of real captured lines."""

from __future__ import annotations

import contextlib

from hypothesis import given, strategies as st
import pytest

from custom_components.linn.lpec.codec import (
    ActionRequest,
    Alive,
    ByeBye,
    Error,
    Event,
    Response,
    Subscribed,
    SubscribeRequest,
    Unsubscribed,
    UnsubscribeRequest,
    escape,
    format_action,
    format_error,
    format_event,
    format_response,
    format_subscribe,
    format_unsubscribe,
    parse_bool,
    parse_client_line,
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


@given(
    st.integers(min_value=1, max_value=2**31),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.dictionaries(NAME, TEXT, max_size=6),
)
def test_event_round_trip(sid: int, seq: int, variables: dict[str, str]) -> None:
    assert parse_device_line(format_event(sid, seq, variables) + "\r\n") == Event(
        sid, seq, variables
    )


@given(st.lists(TEXT, max_size=5))
def test_response_round_trip(values: list[str]) -> None:
    assert parse_device_line(format_response(values)) == Response(tuple(values))


@given(NAME, st.integers(min_value=1, max_value=9), NAME, st.lists(TEXT, max_size=5))
def test_action_round_trip(service: str, version: int, action: str, args: list[str]) -> None:
    line = format_action(f"Ds/{service}", version, action, args)
    assert parse_client_line(line) == ActionRequest("Ds", service, version, action, tuple(args))


@given(st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=50))
def test_base64_id_array_round_trip(ids: list[int]) -> None:
    assert parse_base64_ids(format_base64_ids(ids)) == tuple(ids)


@given(TEXT)
def test_parser_raises_only_protocol_errors(line: str) -> None:
    """Whatever a device sends, parsing fails only with LpecProtocolError."""
    for text in (line, f"EVENT 1 2 {line}", f"RESPONSE {line}", f"ERROR {line}"):
        with contextlib.suppress(LpecProtocolError):
            parse_device_line(text)


@given(TEXT)
def test_error_round_trip(description: str) -> None:
    assert parse_device_line(format_error(801, description)) == Error(801, description)


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
    assert parse_client_line("subscribe Ds/Product") == SubscribeRequest("Ds", "Product")
    assert parse_client_line("UNSUBSCRIBE") == UnsubscribeRequest()
    assert parse_client_line("UNSUBSCRIBE 49") == UnsubscribeRequest(subscription_id=49)
    assert format_subscribe("Ds/Volume") == "SUBSCRIBE Ds/Volume"
    line = format_action("Ds/Product", 2, "SetSourceBySystemName", ['TV & "Arc"'])
    assert line == 'ACTION Ds/Product 2 SetSourceBySystemName "TV &amp; &quot;Arc&quot;"'


def test_client_line_edge_cases() -> None:
    assert parse_client_line("   ") is None
    for version in ("0", "-1", "x"):
        with pytest.raises(LpecProtocolError) as err:
            parse_client_line(f"ACTION Ds/Product {version} Standby")
        assert err.value.code == 104
    assert format_unsubscribe() == "UNSUBSCRIBE"
    assert format_unsubscribe(49) == "UNSUBSCRIBE 49"
    assert format_unsubscribe("Ds/Volume") == "UNSUBSCRIBE Ds/Volume"
    assert parse_client_line(format_unsubscribe("Ds/Volume")) == UnsubscribeRequest(
        path="Ds/Volume"
    )


def test_trailing_backslash_survives_quoting() -> None:
    """A value ending in a backslash must not escape the closing quote."""
    line = format_action("Ds/Product", 1, "SetRoom", ["C:\\", "next"])
    request = parse_client_line(line)
    assert isinstance(request, ActionRequest)
    assert request.args == ("C:\\", "next")
    assert escape("a\\").endswith("&#92;")


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
