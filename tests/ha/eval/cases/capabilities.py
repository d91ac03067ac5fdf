"""Issue 19's capabilities as owners say them: wake, shuffle, repeat, seek, a track of the
play queue by name (and which one, when two fit), "turn it up a bit", and a member asking
for the volume limit, which an administrator decides."""

from ..case import (
    KITCHEN,
    LIVING,
    Case,
    Expect,
    Setup,
    Turn,
    ask,
    asks,
    call,
    change,
    read,
    says,
    use,
)

CATEGORY = "capabilities"
WIRES = (("Wires", "Athlete"),)
TWO_WIRES = (("Wires", "Athlete"), ("Wires", "The Verve"))
QUEUE = 11
"""The emulator's own play queue before a case adds to it."""

CASES = [
    Case(
        "cap_turn_the_streamer_on",
        CATEGORY,
        (
            Turn(
                "Turn the streamer on",
                (use("wake", player=LIVING), says("It's on.")),
                calls=(call("wake", player=LIVING),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(standby=(LIVING,)),
        # back on its own source, and nothing starts playing
        expect=Expect(
            players={LIVING: {"standby": False, "source": "Playlist", "transport": "Stopped"}}
        ),
    ),
    Case(
        "cap_wake_up_the_linn",
        CATEGORY,
        (
            Turn(
                "Wake up the Linn in the kitchen",
                (use("wake", player=KITCHEN), says("The kitchen is awake.")),
                calls=(call("wake", player=KITCHEN),),
            ),
        ),
        setup=Setup(standby=(KITCHEN,)),
        expect=Expect(players={KITCHEN: {"standby": False, "transport": "Stopped"}}),
    ),
    Case(
        "cap_wake_german",
        CATEGORY,
        (
            Turn(
                "Schalte den Streamer ein",
                (use("wake", player=LIVING), says("Er ist an.")),
                calls=(call("wake", player=LIVING),),
            ),
        ),
        satellite=LIVING,
        language="de",
        setup=Setup(standby=(LIVING,)),
        expect=Expect(players={LIVING: {"standby": False}}),
    ),
    Case(
        "cap_turn_on_shuffle",
        CATEGORY,
        (
            Turn(
                "Turn on shuffle",
                (use("set_shuffle", player=LIVING, shuffle=True), says("Shuffle is on.")),
                calls=(call("set_shuffle", player=LIVING, shuffle=True),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"shuffle": True}}),
    ),
    Case(
        "cap_repeat_off",
        CATEGORY,
        (
            Turn(
                "Repeat off",
                (use("set_repeat", player=LIVING, repeat=False), says("Repeat is off.")),
                calls=(call("set_repeat", player=LIVING, repeat=False),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(repeat=(LIVING,)),
        expect=Expect(players={LIVING: {"repeat": False}}),
    ),
    Case(
        "cap_back_30_seconds",
        CATEGORY,
        (
            Turn(
                "back 30 seconds",
                (use("seek", player=LIVING, change=-30), says("Back 30 seconds.")),
                calls=(call("seek", player=LIVING, change=-30),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(paused_at={LIVING: 100}),
        expect=Expect(players={LIVING: {"seconds": 70}}),
    ),
    Case(
        "cap_play_wires_from_the_queue",
        CATEGORY,
        (
            Turn(
                "play Wires",
                (
                    use("search_music", player=LIVING, query="Wires"),
                    use("play_music", player=LIVING, item="m1"),
                    says("Playing Wires."),
                ),
                planned=(change("play", item="Wires"),),
                calls=(
                    read("search_music", player=LIVING),
                    call("play_music", player=LIVING, item="m1"),
                ),
                model_sees=('"kind":"queue_track"',),
            ),
        ),
        satellite=LIVING,
        setup=Setup(queue={LIVING: WIRES}, source={LIVING: "Radio"}),
        # SeekId: the queue stays as it was
        expect=Expect(
            players={
                LIVING: {
                    "title": "Wires",
                    "source": "Playlist",
                    "transport": "Playing",
                    "queue_length": QUEUE + 1,
                }
            }
        ),
    ),
    Case(
        "cap_two_equal_queue_hits_ask_which",
        CATEGORY,
        (
            Turn(
                "play Wires",
                (
                    use("search_music", player=LIVING, query="Wires"),
                    asks("Which one: m1 (Wires by Athlete) or m2 (Wires by The Verve)?"),
                ),
                calls=(read("search_music", player=LIVING), ask()),
                continues=True,
            ),
            Turn(
                "the one by The Verve",
                (use("play_music", player=LIVING, item="m2"), says("Playing Wires by The Verve.")),
                planned=(change("play", item="Wires"),),
                calls=(call("play_music", player=LIVING, item="m2"),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(queue={LIVING: TWO_WIRES}),
        expect=Expect(
            players={LIVING: {"title": "Wires", "artist": "The Verve", "queue_length": QUEUE + 2}}
        ),
    ),
    Case(
        "cap_turn_it_up_a_bit",
        CATEGORY,
        (
            Turn(
                "turn it up a bit",
                (use("change_volume", player=LIVING, change=5), says("A bit louder.")),
                calls=(call("change_volume", player=LIVING, change=5),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"volume": 35}}),
    ),
    Case(
        "cap_member_asks_for_the_volume_limit",
        CATEGORY,
        (
            Turn(
                "could you raise the living room's volume limit to 70",
                (
                    use("set_volume_limit", player=LIVING, limit=70),
                    says("I've asked an administrator; they will decide."),
                ),
                calls=(call("set_volume_limit", "pending", player=LIVING, limit=70),),
                model_sees=("Needs approval: request",),
                continues=True,
            ),
        ),
        caller="user",
        decision="approve",
        expect=Expect(players={LIVING: {"volume_limit": 70}}, open_requests=0),
    ),
    Case(
        "cap_admins_own_volume_limit_waits",
        CATEGORY,
        (
            Turn(
                "set the kitchen's volume limit to 50",
                (
                    use("set_volume_limit", player=KITCHEN, limit=50),
                    says("That waits for an administrator's decision."),
                ),
                calls=(call("set_volume_limit", "pending", player=KITCHEN, limit=50),),
                continues=True,
            ),
        ),
        # no decision: it stays open, the limit unchanged
        expect=Expect(players={KITCHEN: {"volume_limit": 80}}, open_requests=1),
    ),
]
