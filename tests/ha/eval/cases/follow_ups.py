"""Follow-ups in the same conversation: the model gets the earlier turns as history."""

from ..case import KITCHEN, LIVING, Case, Expect, Setup, Turn, call, change, read, says, use

CATEGORY = "follow_ups"

CASES = [
    Case(
        "fu_set_then_louder",
        CATEGORY,
        (
            Turn(
                "living room to 20",
                (use("set_volume", player=LIVING, volume=20), says("At 20.")),
                calls=(call("set_volume", player=LIVING, volume=20),),
            ),
            Turn(
                "a bit louder",
                (use("change_volume", player=LIVING, change=5), says("At 25.")),
                calls=(call("change_volume", player=LIVING, change=5),),
            ),
        ),
        expect=Expect(players={LIVING: {"volume": 25}}),
    ),
    Case(
        "fu_what_then_skip",
        CATEGORY,
        (
            Turn(
                "what's playing in the living room",
                (use("get_state", player=LIVING), says("Hunter by Björk.")),
                calls=(read(player=LIVING),),
            ),
            Turn(
                "skip it",
                (use("next", player=LIVING), says("Skipped.")),
                planned=(change("next", target="the living room"),),  # from the earlier words
                calls=(call("next", player=LIVING),),
            ),
        ),
        setup=Setup(playing=(LIVING,)),
        expect=Expect(players={LIVING: {"title": "Jóga", "transport": "Playing"}}),
    ),
    Case(
        "fu_same_for_the_kitchen",
        CATEGORY,
        (
            Turn(
                "turntable in the living room",
                (use("select_source", player=LIVING, source="Turntable"), says("Done.")),
                calls=(call("select_source", player=LIVING, source="Turntable"),),
            ),
            Turn(
                "and the kitchen too",
                (use("select_source", player=KITCHEN, source="Turntable"), says("Kitchen too.")),
                calls=(call("select_source", player=KITCHEN, source="Turntable"),),
            ),
        ),
        expect=Expect(players={LIVING: {"source": "Analog 1"}, KITCHEN: {"source": "Analog 1"}}),
    ),
    Case(
        "fu_pause_then_resume",
        CATEGORY,
        (
            Turn(
                "pause",
                (use("pause", player=LIVING), says("Paused.")),
                calls=(call("pause", player=LIVING),),
            ),
            Turn(
                "carry on",
                (use("play", player=LIVING), says("Playing again.")),
                calls=(call("play", player=LIVING),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(playing=(LIVING,)),
        expect=Expect(players={LIVING: {"transport": "Playing"}}),
    ),
    Case(
        "fu_new_conversation",
        CATEGORY,
        (
            Turn(
                "kitchen to 20",
                (use("set_volume", player=KITCHEN, volume=20), says("At 20.")),
                calls=(call("set_volume", player=KITCHEN, volume=20),),
            ),
            Turn(
                "louder",
                (use("change_volume", player=KITCHEN, change=5), says("Louder.")),
                calls=(call("change_volume", player=KITCHEN, change=5),),
                new_conversation=True,
            ),
        ),
        satellite=KITCHEN,
        expect=Expect(players={KITCHEN: {"volume": 25}, LIVING: {"volume": 30}}),
    ),
]
