"""Two players in two areas: the satellite's area decides when the request names no player.

The cases check in code that the turn facts give the model the satellite's area, and that
the other room is left alone.
"""

from ..case import KITCHEN, LIVING, Case, Expect, Setup, Turn, call, says, use, uses

CATEGORY = "multi_room"

CASES = [
    Case(
        "mr_kitchen_satellite_louder",
        CATEGORY,
        (
            Turn(
                "louder",
                (use("change_volume", player=KITCHEN, change=5), says("Louder in the kitchen.")),
                calls=(call("change_volume", player=KITCHEN, change=5),),
            ),
        ),
        satellite=KITCHEN,
        expect=Expect(
            players={KITCHEN: {"volume": 35}, LIVING: {"volume": 30}},
            user_area_in_facts=KITCHEN,
        ),
    ),
    Case(
        "mr_living_satellite_pause",
        CATEGORY,
        (
            Turn(
                "pause",
                (use("pause", player=LIVING), says("Paused.")),
                calls=(call("pause", player=LIVING),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(playing=(LIVING, KITCHEN)),
        expect=Expect(
            players={LIVING: {"transport": "Paused"}, KITCHEN: {"transport": "Playing"}},
            user_area_in_facts=LIVING,
        ),
    ),
    Case(
        "mr_named_room_beats_satellite",
        CATEGORY,
        (
            Turn(
                "play the turntable in the living room",
                (
                    use("select_source", player=LIVING, source="Turntable"),
                    says("Turntable on in the living room."),
                ),
                calls=(call("select_source", player=LIVING, source="Turntable"),),
            ),
        ),
        satellite=KITCHEN,
        expect=Expect(
            players={LIVING: {"source": "Analog 1"}, KITCHEN: {"source": "Playlist"}},
            user_area_in_facts=KITCHEN,
        ),
    ),
    Case(
        "mr_stop_everything",
        CATEGORY,
        (
            Turn(
                "stop the music everywhere",
                (
                    uses(("stop", {"player": LIVING}), ("stop", {"player": KITCHEN})),
                    says("Stopped both."),
                ),
                calls=(call("stop", player=LIVING), call("stop", player=KITCHEN)),
            ),
        ),
        setup=Setup(playing=(LIVING, KITCHEN)),
        expect=Expect(
            players={LIVING: {"transport": "Stopped"}, KITCHEN: {"transport": "Stopped"}}
        ),
    ),
    Case(
        "mr_kitchen_satellite_standby",
        CATEGORY,
        (
            Turn(
                "turn it off",
                (use("standby", player=KITCHEN), says("The kitchen is off.")),
                calls=(call("standby", player=KITCHEN),),
            ),
        ),
        satellite=KITCHEN,
        expect=Expect(
            players={KITCHEN: {"standby": True}, LIVING: {"standby": False}},
            user_area_in_facts=KITCHEN,
        ),
    ),
    Case(
        "mr_join_kitchen_to_living_room",
        CATEGORY,
        (
            Turn(
                "play this in the kitchen too",
                (
                    use("join", player=LIVING, members=[KITCHEN]),
                    says("The kitchen joins the living room."),
                ),
                calls=(call("join", player=LIVING),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(playing=(LIVING,)),
        expect=Expect(players={KITCHEN: {"source": "Songcast"}, LIVING: {"source": "Playlist"}}),
    ),
]
