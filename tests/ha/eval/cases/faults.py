"""Device faults in the middle of a request: the model's tool call meets a dropped, rebooting
or slow player. The fault fires when the model's response with the tool call arrives,
before the call runs; after the turn the player recovers."""

from ..case import KITCHEN, LIVING, Case, Expect, Fault, Turn, call, read, says, use

CATEGORY = "faults"

SET_25 = (use("set_volume", player=LIVING, volume=25),)

CASES = [
    Case(
        "fault_drop_then_retry",
        CATEGORY,
        (
            Turn(
                "living room to 25",
                (*SET_25, says("The living room is not answering right now.")),
                # the action waits for the lost session until the guard's 3 s timeout
                calls=(call("set_volume", "timed_out", player=LIVING),),
                model_sees=("Timed out", '"state":"unavailable"'),
            ),
            Turn(
                "try again",
                (*SET_25, says("It is at 25 now.")),
                calls=(call("set_volume", player=LIVING, volume=25),),
            ),
        ),
        fault=Fault("drop"),
        expect=Expect(players={LIVING: {"volume": 25}}),
    ),
    Case(
        "fault_drop_leaves_state",
        CATEGORY,
        (
            Turn(
                "kitchen to 25",
                (
                    use("set_volume", player=KITCHEN, volume=25),
                    says("The kitchen is not answering."),
                ),
                calls=(call("set_volume", "timed_out", player=KITCHEN),),
            ),
        ),
        fault=Fault("drop", player=KITCHEN),
        expect=Expect(players={KITCHEN: {"volume": 30}, LIVING: {"volume": 30}}),
    ),
    Case(
        "fault_reboot_mid_request",
        CATEGORY,
        (
            Turn(
                "living room to 25",
                (*SET_25, says("The living room is restarting; try again in a moment.")),
                # the rebooting device refuses connections for 4 s: the call fails, or waits
                # for the session until the guard's 3 s timeout; either way it never lands
                calls=(call("set_volume", "failed|timed_out", player=LIVING),),
            ),
        ),
        fault=Fault("reboot"),
        expect=Expect(players={LIVING: {"volume": 30}}),
    ),
    Case(
        "fault_slow_past_timeout",
        CATEGORY,
        (
            Turn(
                "living room to 25",
                (*SET_25, says("The living room answered late; it is at 25.")),
                calls=(call("set_volume", "timed_out", player=LIVING),),
                model_sees=("Timed out",),
            ),
        ),
        fault=Fault("slow"),
        expect=Expect(players={LIVING: {"volume": 25}}),
    ),
    Case(
        "fault_slow_within_timeout",
        CATEGORY,
        (
            Turn(
                "living room to 25",
                (*SET_25, says("At 25.")),
                calls=(call("set_volume", player=LIVING, volume=25),),
            ),
        ),
        fault=Fault("slow_ok"),
        expect=Expect(players={LIVING: {"volume": 25}}),
    ),
    Case(
        "fault_read_while_dropped",
        CATEGORY,
        (
            Turn(
                "what is the kitchen playing?",
                (use("get_state", player=KITCHEN), says("The kitchen is unavailable.")),
                calls=(read(player=KITCHEN),),
                model_sees=('"state":"unavailable"',),
            ),
        ),
        fault=Fault("drop", player=KITCHEN),
        expect=Expect(players={KITCHEN: {"volume": 30}}),
    ),
]
