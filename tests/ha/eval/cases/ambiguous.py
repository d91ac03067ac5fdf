"""Ambiguous requests must ask (ask_user), change nothing, and keep the satellite listening."""

from ..case import KITCHEN, LIVING, Case, Expect, Turn, ask, asks, call, says, use

CATEGORY = "ambiguous"

CASES = [
    Case(
        "amb_which_player_then_answer",
        CATEGORY,
        (
            Turn(
                "louder",
                (asks("Which player, the kitchen or the living room?"),),
                calls=(ask(),),
                says=("Which player",),
                continues=True,
            ),
            Turn(
                "the kitchen",
                (use("change_volume", player=KITCHEN, change=5), says("Louder in the kitchen.")),
                calls=(call("change_volume", player=KITCHEN, change=5),),
                continues=False,
            ),
        ),
        expect=Expect(players={KITCHEN: {"volume": 35}, LIVING: {"volume": 30}}),
    ),
    Case(
        "amb_play_something",
        CATEGORY,
        (
            Turn(
                "play something",
                (asks("Where, and what would you like?"),),
                calls=(ask(),),
                continues=True,
            ),
        ),
        expect=Expect(
            players={LIVING: {"transport": "Stopped"}, KITCHEN: {"transport": "Stopped"}},
            open_requests=0,
        ),
    ),
    Case(
        "amb_which_radio_pin",
        CATEGORY,
        (
            Turn(
                "play my radio pin",
                (asks("BBC Radio 3 or FIP?"),),
                calls=(ask(),),
                continues=True,
            ),
            Turn(
                "FIP",
                (use("play_pin", player=LIVING, pin=4), says("FIP is on.")),
                calls=(call("play_pin", player=LIVING, pin=4),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Radio", "radio_id": 3}}),
    ),
    Case(
        "amb_volume_without_level",
        CATEGORY,
        (
            Turn(
                "change the volume",
                (asks("To what level?"),),
                calls=(ask(),),
                continues=True,
            ),
            Turn(
                "twenty five",
                (use("set_volume", player=LIVING, volume=25), says("At 25.")),
                calls=(call("set_volume", player=LIVING, volume=25),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"volume": 25}}),
    ),
    Case(
        "amb_turn_it_off_nowhere",
        CATEGORY,
        (
            Turn(
                "turn it off",
                (asks("Which one, the kitchen or the living room?"),),
                calls=(ask(),),
                continues=True,
            ),
        ),
        expect=Expect(players={LIVING: {"standby": False}, KITCHEN: {"standby": False}}),
    ),
]
