"""Volume: absolute, relative, mute, past the hard limit, above the soft limit.

The players' limit is 80, the soft limit 60 % of it (48): above it the user must say yes;
with a second risk signal (a jump of more than 20) an admin must approve.
"""

from ..case import KITCHEN, LIVING, Case, Expect, Setup, Turn, call, says, use

CATEGORY = "volume"

CASES = [
    Case(
        "vol_absolute",
        CATEGORY,
        (
            Turn(
                "set the living room to 35",
                (use("set_volume", player=LIVING, volume=35), says("The living room is at 35.")),
                calls=(call("set_volume", player=LIVING, volume=35),),
                says=("35",),
                model_sees=('"done":true',),
                continues=False,
            ),
        ),
        expect=Expect(players={LIVING: {"volume": 35}, KITCHEN: {"volume": 30}}),
    ),
    Case(
        "vol_absolute_kitchen",
        CATEGORY,
        (
            Turn(
                "kitchen volume 12",
                (use("set_volume", player=KITCHEN, volume=12), says("Kitchen at 12.")),
                calls=(call("set_volume", player=KITCHEN, volume=12),),
                says=("12",),
            ),
        ),
        expect=Expect(players={KITCHEN: {"volume": 12}, LIVING: {"volume": 30}}),
    ),
    Case(
        "vol_relative_up",
        CATEGORY,
        (
            Turn(
                "louder",
                (use("change_volume", player=LIVING, change=5), says("A bit louder.")),
                calls=(call("change_volume", player=LIVING, change=5),),
                says=("louder",),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"volume": 35}, KITCHEN: {"volume": 30}}),
    ),
    Case(
        "vol_relative_down",
        CATEGORY,
        (
            Turn(
                "a lot quieter please",
                (use("change_volume", player=LIVING, change=-15), says("Much quieter now.")),
                calls=(call("change_volume", player=LIVING, change=-15),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"volume": 15}}),
    ),
    Case(
        "vol_relative_floor",
        CATEGORY,
        (
            Turn(
                "turn the kitchen right down",
                (use("change_volume", player=KITCHEN, change=-20), says("Turned down.")),
                calls=(call("change_volume", player=KITCHEN, change=-20),),
            ),
        ),
        setup=Setup(volume={KITCHEN: 8}),
        expect=Expect(players={KITCHEN: {"volume": 0}}),
    ),
    Case(
        "vol_mute",
        CATEGORY,
        (
            Turn(
                "mute the living room",
                (use("mute", player=LIVING, muted=True), says("Muted.")),
                calls=(call("mute", player=LIVING, muted=True),),
                says=("Muted",),
            ),
        ),
        expect=Expect(players={LIVING: {"mute": True, "volume": 30}}),
    ),
    Case(
        "vol_past_hard_limit_is_invalid",
        CATEGORY,
        (
            Turn(
                "set the living room to 95",
                (
                    use("set_volume", player=LIVING, volume=95),
                    says("The living room only goes up to 80."),
                ),
                calls=(call("set_volume", "invalid", player=LIVING),),
                model_sees=("volume must be 0\u201380",),
            ),
        ),
        expect=Expect(players={LIVING: {"volume": 30}}),
    ),
    Case(
        "vol_above_soft_limit_needs_yes",
        CATEGORY,
        (
            Turn(
                "set the living room to 50",
                (
                    use("set_volume", player=LIVING, volume=50),
                    says("That is loud. Shall I set 50?"),
                ),
                calls=(call("set_volume", "pending", player=LIVING, volume=50),),
                model_sees=("Needs confirmation",),
                continues=True,
            ),
        ),
        setup=Setup(volume={LIVING: 40}),
        expect=Expect(players={LIVING: {"volume": 40}}, open_requests=1),
    ),
    Case(
        "vol_big_jump_above_soft_limit_needs_admin",
        CATEGORY,
        (
            Turn(
                "living room to 70",
                (
                    use("set_volume", player=LIVING, volume=70),
                    says("An administrator must approve that."),
                ),
                calls=(call("set_volume", "pending", player=LIVING, volume=70),),
                model_sees=("Needs approval",),
                continues=True,
            ),
        ),
        expect=Expect(players={LIVING: {"volume": 30}}, open_requests=1),
    ),
]
