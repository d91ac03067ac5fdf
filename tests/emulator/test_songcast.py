"""Two emulators grouped with Songcast: B's receiver follows A's sender."""

from __future__ import annotations

from linn_emulator import LinnEmulator

from .client import Client


async def test_group_two_emulators() -> None:
    async with (
        LinnEmulator(room="Living Room", tick_interval=0.05) as leader,
        LinnEmulator(room="Kitchen", tick_interval=0.05) as follower,
    ):
        assert leader.udn != follower.udn
        a = await Client.connect(leader.port)
        b = await Client.connect(follower.port)
        _, sender = await a.subscribe("Ds/Sender")
        assert leader.sender_uri == f"ohz://239.255.255.250:51972/{leader.udn}"
        assert "<dc:title>Living Room</dc:title>" in sender["Metadata"]
        assert leader.sender_uri in sender["Metadata"]
        receiver, state = await b.subscribe("Ds/Receiver")
        info, _ = await b.subscribe("Ds/Info")
        time_sub, _ = await b.subscribe("Ds/Time")
        assert state["TransportState"] == "Stopped"
        await b.action("Ds/Receiver", "SetSender", leader.sender_uri, sender["Metadata"])
        await b.action("Ds/Receiver", "Play")
        assert follower.state.source.system_name == "Songcast"
        waiting = await b.event(receiver, lambda v: "TransportState" in v)
        assert waiting.variables["TransportState"] == "Waiting"  # A is not playing yet
        leader.panel.play()
        playing = await b.event(receiver, lambda v: v.get("TransportState") == "Playing")
        assert playing.variables["TransportState"] == "Playing"
        now = await b.event(info, lambda v: "Hunter" in v.get("Metadata", ""))
        assert "Björk" in now.variables["Metadata"]
        tick = await b.event(time_sub, lambda v: v.get("Seconds", "0") != "0")
        assert int(tick.variables["Seconds"]) >= 1
        leader.panel.next()
        await b.event(info, lambda v: "Jóga" in v.get("Metadata", ""))
        leader.panel.stop()
        await b.event(receiver, lambda v: v.get("TransportState") == "Waiting")
        await b.action("Ds/Receiver", "Stop")
        sender_reply = await b.action("Ds/Receiver", "Sender")
        assert sender_reply.values[0] == leader.sender_uri
        await a.close()
        await b.close()


async def test_sender_gone_when_leader_stops() -> None:
    follower = LinnEmulator(room="Kitchen")
    async with follower:
        leader = LinnEmulator()
        await leader.start()
        leader.panel.play()
        follower.device.receiver_set_sender(leader.sender_uri, "")
        follower.device.receiver_play()
        assert str(follower.device.transport_state()) == "Playing"
        await leader.stop()
        assert str(follower.device.transport_state()) == "Waiting"


async def test_receiver_state_visible_in_emulator_state() -> None:
    async with LinnEmulator() as leader, LinnEmulator(room="Kitchen") as follower:
        follower.device.receiver_set_sender(leader.sender_uri, leader.sender_metadata)
        follower.device.receiver_play()
        assert follower.state.transport_state.value == "Waiting"
        leader.panel.play()
        assert follower.state.transport_state.value == "Playing"
        leader.panel.set_standby(True)
        assert follower.state.transport_state.value == "Waiting"
