"""The client's codec and the emulator's wire layer, each against the other.

They are separate implementations of the same grammar (linn-protocol.md §2.3-§2.4), so a
bug in either shows up here instead of being shared by the client and its test double.
"""

from __future__ import annotations

from hypothesis import given, strategies as st

from custom_components.linn.lpec import codec
from custom_components.linn.lpec.framing import MessageFramer
from linn_emulator import wire

# Any text (no surrogates), with the characters that matter to quoting and escaping
# drawn often enough that their combinations (a backslash before the closing quote,
# "&#" sequences, ...) are actually tried.
WIRE_SPECIALS = st.sampled_from(list("\"\\&;#<>'\r\n\t x"))
TEXT = st.text(alphabet=st.one_of(WIRE_SPECIALS, st.characters(codec="utf-8")), max_size=80)
NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,15}", fullmatch=True)
DEVICE = st.sampled_from(["Ds", "MediaRenderer", "Preamp"])
ID = st.integers(min_value=1, max_value=2**32 - 1)
UDN = st.from_regex(r"4c494e4e-[0-9a-f]{4}-[0-9a-f]{4}", fullmatch=True)

# --- device lines: the emulator writes, the client reads -------------------------------


@given(ID, st.integers(min_value=0, max_value=2**32 - 1), st.dictionaries(NAME, TEXT, max_size=6))
def test_client_reads_the_emulators_events(sid: int, seq: int, variables: dict[str, str]) -> None:
    line = wire.event_line(sid, seq, variables) + "\r\n"
    assert codec.parse_device_line(line) == codec.Event(sid, seq, variables)


@given(st.lists(TEXT, max_size=5))
def test_client_reads_the_emulators_responses(values: list[str]) -> None:
    assert codec.parse_device_line(wire.response_line(values) + "\r\n") == codec.Response(
        tuple(values)
    )


def _framed(text: str) -> list[str]:
    return [message for message in MessageFramer().feed(text.encode()) if message]


def _as_lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


@given(ID, st.integers(min_value=0, max_value=2**32 - 1), st.dictionaries(NAME, TEXT, max_size=6))
def test_client_frames_the_emulators_multiline_events(
    sid: int, seq: int, variables: dict[str, str]
) -> None:
    """As ohNet writes them: line breaks raw inside values (read back as LF)."""
    (message,) = _framed(wire.event_line(sid, seq, variables, raw_line_breaks=True) + "\r\n")
    expected = {name: _as_lf(value) for name, value in variables.items()}
    assert codec.parse_device_line(message) == codec.Event(sid, seq, expected)


@given(st.lists(TEXT, max_size=5))
def test_client_frames_the_emulators_multiline_responses(values: list[str]) -> None:
    (message,) = _framed(wire.response_line(values, raw_line_breaks=True) + "\r\n")
    assert codec.parse_device_line(message) == codec.Response(
        tuple(_as_lf(value) for value in values)
    )


@given(st.integers(min_value=100, max_value=999), TEXT.filter(lambda t: not {"\r", "\n"} & set(t)))
def test_client_reads_the_emulators_errors(code: int, description: str) -> None:
    """ERROR text is raw (ohNet): read back exactly, quotes and ampersands included."""
    (message,) = _framed(wire.error_line(code, description, raw=True) + "\r\n")
    assert codec.parse_device_line(message) == codec.Error(code, description)


@given(DEVICE, UDN, ID)
def test_client_reads_the_emulators_announcements_and_acks(device: str, udn: str, sid: int) -> None:
    assert codec.parse_device_line(wire.alive_line(device, udn) + "\r\n") == codec.Alive(
        device, udn
    )
    assert codec.parse_device_line(wire.byebye_line(device, udn) + "\r\n") == codec.ByeBye(
        device, udn
    )
    assert codec.parse_device_line(wire.subscribed_line(sid) + "\r\n") == codec.Subscribed(sid)
    assert codec.parse_device_line(wire.unsubscribed_line(sid) + "\r\n") == codec.Unsubscribed(sid)


# --- client lines: the client writes, the emulator reads -------------------------------


@given(DEVICE, NAME, st.integers(min_value=1, max_value=9), NAME, st.lists(TEXT, max_size=5))
def test_emulator_reads_the_clients_actions(
    device: str, service: str, version: int, action: str, args: list[str]
) -> None:
    line = codec.format_action(f"{device}/{service}", version, action, args) + "\r\n"
    assert wire.read_request(line) == wire.ActionRequest(
        device, service, version, action, tuple(args)
    )


@given(DEVICE, NAME, ID)
def test_emulator_reads_the_clients_subscriptions(device: str, service: str, sid: int) -> None:
    path = f"{device}/{service}"
    assert wire.read_request(codec.format_subscribe(path) + "\r\n") == wire.SubscribeRequest(
        device, service
    )
    assert wire.read_request(codec.format_unsubscribe(path)) == wire.UnsubscribeRequest(
        device=device, service=service
    )
    assert wire.read_request(codec.format_unsubscribe(sid)) == wire.UnsubscribeRequest(
        subscription_id=sid
    )
    assert wire.read_request(codec.format_unsubscribe()) == wire.UnsubscribeRequest()
