"""The emulator's wire layer against the protocol reference (linn-protocol.md §2.3-§2.8).

Lines marked "reference" are copied from the reference's transcript; the rest are built
from its grammar. Round trips with the client's codec are in tests/test_wire_cross.py.
"""

from __future__ import annotations

import contextlib

from hypothesis import given, strategies as st
import pytest

from linn_emulator import wire
from linn_emulator.errors import DeviceError

CLIENT_LINES = [
    ("SUBSCRIBE Ds/Product\r\n", wire.SubscribeRequest("Ds", "Product")),  # reference
    ("subscribe Ds/Receiver\n", wire.SubscribeRequest("Ds", "Receiver")),
    ("UNSUBSCRIBE 49\r\n", wire.UnsubscribeRequest(subscription_id=49)),  # reference
    ("UNSUBSCRIBE\r\n", wire.UnsubscribeRequest()),
    ("Unsubscribe Ds/Volume", wire.UnsubscribeRequest(device="Ds", service="Volume")),
    (  # reference
        'ACTION MediaRenderer/RenderingControl 1 SetVolume "0" "Master" "50"\r\n',
        wire.ActionRequest(
            "MediaRenderer", "RenderingControl", 1, "SetVolume", ("0", "Master", "50")
        ),
    ),
    (  # reference
        'ACTION Ds/Product 2 SetSourceBySystemName "TV &amp; &quot;Arc&quot;"',
        wire.ActionRequest("Ds", "Product", 2, "SetSourceBySystemName", ('TV & "Arc"',)),
    ),
    (  # reference
        'ACTION Ds/Pins 1 ReadList "[ 1]"\r\n',
        wire.ActionRequest("Ds", "Pins", 1, "ReadList", ("[ 1]",)),
    ),
    (
        "ACTION Ds/Pins 1 GetIdArray\r\n",
        wire.ActionRequest("Ds", "Pins", 1, "GetIdArray"),
    ),  # reference
    ('ACTION Ds/Product 1 SetRoom ""', wire.ActionRequest("Ds", "Product", 1, "SetRoom", ("",))),
    (
        'ACTION\tDs/Product 1 SetRoom  "a&#10;b&#x26;c&apos;" \r\n',
        wire.ActionRequest("Ds", "Product", 1, "SetRoom", ("a\nb&c'",)),
    ),
    ("   \r\n", None),
    ("\n", None),
]


@pytest.mark.parametrize(("line", "expected"), CLIENT_LINES)
def test_client_lines(line: str, expected: object) -> None:
    assert wire.read_request(line) == expected


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("HELLO world", 101),
        ('"ACTION" Ds/Product 1 Standby', 101),
        ("ACTION", 102),
        ("ACTION Product 1 Standby", 102),
        ("ACTION Ds/Product", 105),
        ("ACTION Ds/Product x Standby", 104),
        ("ACTION Ds/Product 0 Standby", 104),
        ("ACTION Ds/Product -1 Standby", 104),
        ("ACTION Ds/Product 1", 107),
        ("ACTION Ds/Volume 4 SetVolume 20", 302),
        ('ACTION Ds/Volume 4 SetVolume "20', 101),
        ('ACTION Ds/Volume 4 SetVolume "20"x', 101),
        ('ACTION Ds/Volume 4 SetVolume 2"0"', 101),
        ('ACTION Ds/Product 1 SetRoom "Tom & Jerry"', 406),
        ('ACTION Ds/Product 1 SetRoom "&bogus;"', 406),
        ('ACTION Ds/Product 1 SetRoom "&#0;"', 406),
        ('ACTION Ds/Product 1 SetRoom "&#xD800;"', 406),
        ('ACTION Ds/Product 1 SetRoom "&#x110000;"', 406),
        ("SUBSCRIBE", 102),
        ("SUBSCRIBE Ds", 102),
        ("SUBSCRIBE Ds/Product Ds/Volume", 101),
        ("UNSUBSCRIBE 1 2", 101),
        ("UNSUBSCRIBE Volume", 102),
    ],
)
def test_malformed_client_lines_get_the_reference_error_code(line: str, code: int) -> None:
    with pytest.raises(DeviceError) as err:
        wire.read_request(line)
    assert err.value.code == code


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=80))
def test_reading_fails_only_with_an_lpec_error_code(line: str) -> None:
    """Whatever a control point sends, the session can answer it with ERROR <code>."""
    for text in (line, f"ACTION Ds/Product 1 SetRoom {line}", f"SUBSCRIBE {line}"):
        with contextlib.suppress(DeviceError):
            wire.read_request(text)


def test_device_lines_match_the_reference_transcript() -> None:
    udn = "4c494e4e-0050-c221-71e5-df000003013f"
    assert wire.alive_line("Ds", udn) == f"ALIVE Ds {udn}"
    assert wire.byebye_line("Ds", udn) == f"BYEBYE Ds {udn}"
    assert wire.subscribed_line(82) == "SUBSCRIBE 82"
    assert wire.unsubscribed_line(49) == "UNSUBSCRIBE 49"
    assert wire.response_line() == "RESPONSE"
    assert wire.response_line(["50"]) == 'RESPONSE "50"'
    assert wire.response_line(["[1,2,3,4,5,6]"]) == 'RESPONSE "[1,2,3,4,5,6]"'
    assert wire.error_line(103, "Service not found") == 'ERROR 103 "Service not found"'
    playlist = {
        "TransportState": "Playing",
        "Repeat": "false",
        "Shuffle": "false",
        "Id": "885",
        "IdArray": "AAADdQAAA3cAAAN5AAADew==",
        "TracksMax": "1000",
    }
    assert wire.event_line(3, 0, playlist) == (
        'EVENT 3 0 TransportState "Playing" Repeat "false" Shuffle "false" Id "885" '
        'IdArray "AAADdQAAA3cAAAN5AAADew==" TracksMax "1000"'
    )


def test_values_are_xml_escaped_and_stay_on_one_line() -> None:
    assert wire.xml_escape("<a href='x'>\"Tom\" & Jerry</a>\r\n") == (
        "&lt;a href=&apos;x&apos;&gt;&quot;Tom&quot; &amp; Jerry&lt;/a&gt;&#13;&#10;"
    )
    assert wire.xml_unescape("&lt;&gt;&amp;&quot;&apos;&#233;&#xE9;") == "<>&\"'éé"


def test_raw_bytes_in_a_value_follow_ohnets_byte_rule() -> None:
    """After a byte of 0xC0 or more, ohNet writes the next 1-3 bytes raw (ToXmlEscaped)."""
    value = b'Caf\xe9" <x> \xa3 & \xc3\xa9"'.decode("utf-8", "surrogateescape")
    escaped = wire.xml_escape(value, raw_line_breaks=True).encode("utf-8", "surrogateescape")
    assert escaped == b'Caf\xe9" &lt;x&gt; \xa3 &amp; \xc3\xa9&quot;'
