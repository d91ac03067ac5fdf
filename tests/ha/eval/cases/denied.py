"""Denied: a read-only user (also asking for the volume limit, which a member may request),
an unknown caller, a tool turned off. The guard refuses in code whatever the model does."""

from ..case import KITCHEN, LIVING, Case, Expect, Setup, Turn, call, says, use

CATEGORY = "denied"

CASES = [
    Case(
        "deny_read_only_volume",
        CATEGORY,
        (
            Turn(
                "set the living room to 35",
                (use("set_volume", player=LIVING, volume=35), says("You may not change that.")),
                calls=(call("set_volume", "denied", player=LIVING),),
                model_sees=("Denied: you may not control this player",),
            ),
        ),
        caller="read_only",
        expect=Expect(players={LIVING: {"volume": 30}}),
    ),
    Case(
        "deny_read_only_pin",
        CATEGORY,
        (
            Turn(
                "play pin one",
                (use("play_pin", player=KITCHEN, pin=1), says("You may not do that.")),
                calls=(call("play_pin", "denied", player=KITCHEN),),
            ),
        ),
        caller="read_only",
        satellite=KITCHEN,
        expect=Expect(players={KITCHEN: {"source": "Playlist"}}),
    ),
    Case(
        "deny_read_only_volume_limit",
        CATEGORY,
        (
            Turn(
                "set the living room's volume limit to 70",
                (
                    use("set_volume_limit", player=LIVING, limit=70),
                    says("You may not ask for that."),
                ),
                calls=(call("set_volume_limit", "denied", player=LIVING),),
                model_sees=("Denied: you may not control this player",),
            ),
        ),
        caller="read_only",
        expect=Expect(players={LIVING: {"volume_limit": 80}}, open_requests=0),
    ),
    Case(
        "deny_unknown_caller_volume",
        CATEGORY,
        (
            Turn(
                "louder",
                (
                    use("change_volume", player=LIVING, change=10),
                    says("I cannot change that for an unidentified voice."),
                ),
                calls=(),  # the tool is not offered, so it never reaches a device
            ),
        ),
        caller="unknown",
        satellite=LIVING,
        expect=Expect(players={LIVING: {"volume": 30}}),
    ),
    Case(
        "deny_unknown_caller_standby",
        CATEGORY,
        (
            Turn(
                "turn off the kitchen",
                (use("standby", player=KITCHEN), says("I cannot do that for you.")),
                calls=(),
            ),
        ),
        caller="unknown",
        satellite=KITCHEN,
        expect=Expect(players={KITCHEN: {"standby": False}}),
    ),
    Case(
        "deny_turned_off_by_policy",
        CATEGORY,
        (
            Turn(
                "turn off the living room",
                (use("standby", player=LIVING), says("Standby is turned off for me.")),
                calls=(call("standby", "denied", player=LIVING),),
                model_sees=("Denied: this action is turned off",),
            ),
        ),
        setup=Setup(policies={"standby": "deny"}),
        expect=Expect(players={LIVING: {"standby": False}}),
    ),
]
