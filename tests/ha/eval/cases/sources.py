"""Sources by the names the user sees (Konfig names), never the system names."""

from ..case import KITCHEN, LIVING, Case, Expect, Setup, Turn, call, says, use

CATEGORY = "sources"

CASES = [
    Case(
        "src_turntable",
        CATEGORY,
        (
            Turn(
                "switch the living room to the turntable",
                (use("select_source", player=LIVING, source="Turntable"), says("Turntable on.")),
                calls=(call("select_source", player=LIVING, source="Turntable"),),
                says=("Turntable",),
            ),
        ),
        expect=Expect(players={LIVING: {"source": "Analog 1"}, KITCHEN: {"source": "Playlist"}}),
    ),
    Case(
        "src_tv",
        CATEGORY,
        (
            Turn(
                "TV sound please",
                (use("select_source", player=LIVING, source="TV"), says("Switched to the TV.")),
                calls=(call("select_source", player=LIVING, source="TV"),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "HDMI"}}),
    ),
    Case(
        "src_renamed_in_konfig",
        CATEGORY,
        (
            Turn(
                "play the record player",
                (
                    use("select_source", player=LIVING, source="Record Player"),
                    says("The record player is on."),
                ),
                calls=(call("select_source", player=LIVING, source="Record Player"),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(rename_source={"Analog 1": "Record Player"}),
        expect=Expect(players={LIVING: {"source": "Analog 1"}}),
    ),
    Case(
        "src_system_name_is_not_a_name",
        CATEGORY,
        (
            Turn(
                "switch to analog 1",
                (
                    use("select_source", player=LIVING, source="Analog 1"),
                    says("There is no source called Analog 1 here."),
                ),
                calls=(call("select_source", "invalid", player=LIVING),),
                model_sees=("Invalid argument",),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Playlist"}}),
    ),
    Case(
        "src_hidden_source",
        CATEGORY,
        (
            Turn(
                "switch to digital 1",
                (
                    use("select_source", player=LIVING, source="Digital 1"),
                    says("That input is not available."),
                ),
                calls=(call("select_source", "invalid", player=LIVING),),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Playlist"}}),
    ),
    Case(
        "src_kitchen_spotify",
        CATEGORY,
        (
            Turn(
                "kitchen to spotify",
                (use("select_source", player=KITCHEN, source="Spotify"), says("Spotify on.")),
                calls=(call("select_source", player=KITCHEN, source="Spotify"),),
            ),
        ),
        expect=Expect(players={KITCHEN: {"source": "Spotify"}, LIVING: {"source": "Playlist"}}),
    ),
]
