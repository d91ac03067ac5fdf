"""Pins (the numbered buttons) and radio presets; empty pins and unknown presets refused."""

from ..case import KITCHEN, LIVING, Case, Expect, Turn, call, says, use

CATEGORY = "pins_presets"

CASES = [
    Case(
        "pin_turntable",
        CATEGORY,
        (
            Turn(
                "play my turntable pin",
                (use("play_pin", player=LIVING, pin=3), says("Turntable pin on.")),
                calls=(call("play_pin", player=LIVING, pin=3),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Analog 1"}}),
    ),
    Case(
        "pin_album",
        CATEGORY,
        (
            Turn(
                "play pin two in the kitchen",
                (use("play_pin", player=KITCHEN, pin=2), says("Playing Re by Café Tacvba.")),
                calls=(call("play_pin", player=KITCHEN, pin=2),),
            ),
        ),
        expect=Expect(
            players={
                KITCHEN: {"source": "Playlist", "transport": "Playing", "title": "El aparato"},
                LIVING: {"transport": "Stopped"},
            }
        ),
    ),
    Case(
        "pin_radio",
        CATEGORY,
        (
            Turn(
                "classical radio pin please",
                (use("play_pin", player=LIVING, pin=1), says("BBC Radio 3 is on.")),
                calls=(call("play_pin", player=LIVING, pin=1),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Radio", "radio_id": 1}}),
    ),
    Case(
        "pin_empty_is_refused",
        CATEGORY,
        (
            Turn(
                "play pin five",
                (use("play_pin", player=LIVING, pin=5), says("Pin five is empty.")),
                calls=(call("play_pin", "invalid", player=LIVING),),
                model_sees=("pin must be one of",),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Playlist", "transport": "Stopped"}}),
    ),
    Case(
        "preset_fip",
        CATEGORY,
        (
            Turn(
                "play radio preset three in the living room",
                (use("play_radio_preset", player=LIVING, preset=3), says("FIP is on.")),
                calls=(call("play_radio_preset", player=LIVING, preset=3),),
            ),
        ),
        expect=Expect(players={LIVING: {"source": "Radio", "radio_id": 3}}),
    ),
    Case(
        "preset_unknown_is_refused",
        CATEGORY,
        (
            Turn(
                "play preset nine",
                (
                    use("play_radio_preset", player=KITCHEN, preset=9),
                    says("There is no preset nine."),
                ),
                calls=(call("play_radio_preset", "invalid", player=KITCHEN),),
            ),
        ),
        satellite=KITCHEN,
        expect=Expect(players={KITCHEN: {"source": "Playlist", "radio_id": 0}}),
    ),
]
