"""LpecSession edge cases: byebye and alive, revocations, resubscribing, keepalive."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import logging

import pytest

from custom_components.linn.lpec import LinnDevice, LpecSession, Service
from custom_components.linn.lpec.codec import Event
from linn_emulator import LinnEmulator
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, PEER_UDN, ScriptedPeer, assert_no_lpec_tasks
from tests.lpec.session_helpers import Recorder, lpec_tasks, product_only

# --- liveness ---------------------------------------------------------------------


async def test_byebye_then_alive_without_revocation_keeps_the_connection(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    changes: list[bool] = []
    device.add_availability_listener(changes.append)
    subscriptions = emu.subscriptions
    emu.faults.send_raw(f"BYEBYE Ds {emu.udn}")
    await wait_for(lambda: changes == [False])
    emu.faults.send_raw(f"ALIVE Ds {emu.udn}")
    await wait_for(lambda: changes == [False, True])
    assert emu.sessions == 1
    assert emu.subscriptions == subscriptions  # no resubscribe, no reconnect
    emu.panel.set_volume(41)
    await wait_for(lambda: device.state.volume.volume == 41)


async def test_keepalive_in_flight_when_the_connection_drops(
    emu: LinnEmulator, caplog: pytest.LogCaptureFixture
) -> None:
    """The probe fails with the connection: its task ends quietly, the session reconnects."""
    device = LinnDevice("127.0.0.1", emu.port, **{**FAST, "keepalive_interval": 0.1})
    await device.connect()
    changes: list[bool] = []
    device.add_availability_listener(changes.append)
    try:
        with caplog.at_level(logging.ERROR, logger="custom_components.linn.lpec"):
            emu.faults.response_delay = 1.0
            await wait_for(lambda: bool(emu.actions) and emu.actions[-1].action == "Standby")
            emu.faults.response_delay = 0
            emu.faults.drop_connections()
            await wait_for(lambda: changes == [False, True])
            await device.set_volume(22)
        assert emu.state.volume == 22
        assert "failed" not in caplog.text
    finally:
        await device.close()
    assert_no_lpec_tasks()


async def test_revocation_while_connecting_is_repaired(emu: LinnEmulator) -> None:
    """The device disables and re-enables Ds while connect() is still subscribing.

    The Product subscription revoked before connect() returns must come back.
    """
    device = LinnDevice("127.0.0.1", emu.port, **FAST)
    revoked: list[bool] = []

    def revoke_once(changed: frozenset[Service]) -> None:
        if Service.PRODUCT in changed and not revoked:
            revoked.append(True)
            emu.faults.revoke_subscriptions("Product", realive_after=0.0)

    device.add_listener(revoke_once)
    async with asyncio.timeout(3):
        await device.connect()
    try:
        assert revoked
        await wait_for(lambda: device.available and emu.subscriptions == len(Service))
        emu.panel.set_standby(not emu.state.standby)
        await wait_for(lambda: device.state.product.standby == emu.state.standby)
    finally:
        await device.close()


async def test_revocation_then_drop_restores_every_subscription(emu: LinnEmulator) -> None:
    """A resubscribe pending when the connection dies gives up; the reconnect restores all."""
    device = LinnDevice(
        "127.0.0.1", emu.port, **{**FAST, "reconnect_min": 0.3, "reconnect_max": 0.5}
    )
    await device.connect()
    changes: list[bool] = []
    device.add_availability_listener(changes.append)
    try:
        emu.faults.revoke_subscriptions("Volume", realive_after=1.0)
        await wait_for(lambda: changes == [False])
        emu.faults.drop_connections()
        await wait_for(lambda: changes == [False, True])
        await wait_for(lambda: not lpec_tasks("lpec-resubscribe"))
        assert emu.subscriptions == len(Service)
        emu.panel.set_volume(66)
        await wait_for(lambda: device.state.volume.volume == 66)
    finally:
        await device.close()


async def test_quick_disable_and_reenable_resubscribes_without_reconnecting(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """ALIVE before the revocation's own retry: the two resubscribes must not collide.

    A second SUBSCRIBE for the same service gets ERROR 401 and would cost a reconnect.
    """
    changes: list[bool] = []
    device.add_availability_listener(changes.append)
    emu.faults.revoke_subscriptions(None, realive_after=0.0)
    await wait_for(lambda: changes == [False, True])
    await wait_for(lambda: not lpec_tasks("lpec-resubscribe"))
    assert changes == [False, True]
    assert emu.subscriptions == len(Service)
    emu.panel.set_volume(52)
    emu.panel.set_standby(not emu.state.standby)
    await wait_for(
        lambda: (
            device.state.volume.volume == 52 and device.state.product.standby == emu.state.standby
        )
    )


async def test_late_resubscribe_ack_starts_over() -> None:
    """The device revokes Product, then answers its SUBSCRIBE after the command timeout.

    The late ack comes just before the next SUBSCRIBE's, on the connection that carried
    it. A session that carried on there would take it for the next SUBSCRIBE's ack and
    drop the events of the id the device really uses: the session must start over.

    The ack once came from a 0.4 s timer and was written to every connection: under
    heavy load it reached the reconnected connection while its SUBSCRIBE was in flight,
    passed for that command's ack and the test timed out (a device answers on the
    connection that carried the command). Only the unanswered SUBSCRIBE meets a timeout.
    """
    subscribes = [0]
    late_ack: list[Callable[[], None]] = []

    def answer(line: str) -> str | None:
        if line == "SUBSCRIBE Ds/Product":
            subscribes[0] += 1
            n = subscribes[0]
            reply = f'SUBSCRIBE {n}\r\nEVENT {n} 0 ProductRoom "Den {n}" Standby "false"\r\n'
            if n == 2:
                late_ack.append(peer.deferred(reply))
                return None
            if n == 3:
                late_ack[0]()
            return reply
        return product_only()(line)

    async with ScriptedPeer(answer) as peer:
        device = LinnDevice("127.0.0.1", peer.port, **FAST, services=(Service.PRODUCT,))
        await device.connect()
        try:
            peer.write_all(f"UNSUBSCRIBE 1\r\nBYEBYE Ds {PEER_UDN}\r\nALIVE Ds {PEER_UDN}\r\n")
            await wait_for(lambda: subscribes[0] >= 3, timeout=3)
            await wait_for(lambda: device.available and device.state.product.room == "Den 3")
            peer.write_all('EVENT 3 1 ProductRoom "Back"\r\n')
            await wait_for(lambda: device.state.product.room == "Back")
            assert peer.connections == 2
        finally:
            await device.close()


async def test_alive_during_a_slow_resubscribe_does_not_collide() -> None:
    """The revocation's own retry wakes while the ALIVE-triggered resubscribe waits.

    Run deterministically with a device that acks SUBSCRIBE after 0.2 s and answers
    ERROR 401 to a second SUBSCRIBE of a subscribed service, as ohNet does.
    """
    subscribed = [False]
    count = [0]
    loop = asyncio.get_running_loop()

    def answer(line: str) -> str | None:
        if line == "SUBSCRIBE Ds/Product":
            if subscribed[0]:
                return 'ERROR 401 "Already subscribed"\r\n'
            subscribed[0] = True
            count[0] += 1
            n = count[0]
            reply = f'SUBSCRIBE {n}\r\nEVENT {n} 0 ProductRoom "Den {n}"\r\n'
            if n == 1:
                return reply
            loop.call_later(0.2, peer.deferred(reply))
            return None
        return product_only()(line)

    async with ScriptedPeer(answer) as peer:
        # The revocation's retry comes reconnect_min (0.05 s) after the UNSUBSCRIBE.
        device = LinnDevice(
            "127.0.0.1",
            peer.port,
            **{**FAST, "reconnect_min": 0.05, "reconnect_max": 0.1},
            services=(Service.PRODUCT,),
        )
        await device.connect()
        changes: list[bool] = []
        device.add_availability_listener(changes.append)
        try:
            subscribed[0] = False
            peer.write_all(f"UNSUBSCRIBE 1\r\nBYEBYE Ds {PEER_UDN}\r\nALIVE Ds {PEER_UDN}\r\n")
            await wait_for(lambda: device.state.product.room == "Den 2")
            await wait_for(lambda: not lpec_tasks("lpec-resubscribe"))
            assert changes == [False, True]
            assert peer.connections == 1
            assert peer.received.count("SUBSCRIBE Ds/Product") == 2
        finally:
            await device.close()


async def test_resubscribe_refused_keeps_the_connection() -> None:
    """Ds comes back without the revoked service (ERROR 103): carry on with the rest."""
    volume_gone = [False]

    def answer(line: str) -> str | None:
        if line == "SUBSCRIBE Ds/Volume":
            if volume_gone[0]:
                return 'ERROR 103 "Service not found"\r\n'
            return 'SUBSCRIBE 2\r\nEVENT 2 0 Volume "10"\r\n'
        return product_only()(line)

    async with ScriptedPeer(answer) as peer:
        device = LinnDevice(
            "127.0.0.1", peer.port, **FAST, services=(Service.PRODUCT, Service.VOLUME)
        )
        await device.connect()
        changes: list[bool] = []
        device.add_availability_listener(changes.append)
        try:
            volume_gone[0] = True
            peer.write_all(f"UNSUBSCRIBE 2\r\nBYEBYE Ds {PEER_UDN}\r\nALIVE Ds {PEER_UDN}\r\n")
            await wait_for(lambda: changes == [False, True])
            await wait_for(lambda: not lpec_tasks("lpec-resubscribe"))
            assert peer.connections == 1
            assert peer.received.count("SUBSCRIBE Ds/Volume") >= 2  # retried, refused again
            peer.write_all('EVENT 1 1 ProductRoom "Still here"\r\n')
            await wait_for(lambda: device.state.product.room == "Still here")
        finally:
            await device.close()


async def test_failing_event_handler_does_not_kill_the_connection(
    emu: LinnEmulator, caplog: pytest.LogCaptureFixture
) -> None:
    class Failing(Recorder):
        def on_event(self, path: str, event: Event) -> None:
            super().on_event(path, event)
            raise RuntimeError("handler bug")

    handler = Failing()
    session = LpecSession("127.0.0.1", emu.port, ["Ds/Product", "Ds/Volume"], handler, **FAST)
    with caplog.at_level(logging.ERROR, logger="custom_components.linn.lpec"):
        async with asyncio.timeout(3):
            await session.connect()  # the initial events still count
        try:
            assert [path for path, _event in handler.events] == ["Ds/Product", "Ds/Volume"]
            emu.panel.set_volume(35)
            await wait_for(lambda: handler.events[-1][1].variables.get("Volume") == "35")
            await session.action("Ds/Volume", 1, "SetVolume", ["36"])
            assert handler.availability == [True]
        finally:
            await session.close()
    assert emu.state.volume == 36
    assert "Failed to handle LPEC line" in caplog.text
