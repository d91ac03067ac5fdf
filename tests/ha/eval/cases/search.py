"""Search and play: results get short ids (m1, m2 ...) that only this conversation can play."""

from ..case import KITCHEN, LIVING, Case, Expect, Turn, call, change, read, says, use

CATEGORY = "search"

CASES = [
    Case(
        "search_radio_paradise",
        CATEGORY,
        (
            Turn(
                "play radio paradise",
                (
                    use("search_music", player=LIVING, query="paradise"),
                    use("play_music", player=LIVING, item="m1"),
                    says("Playing Radio Paradise."),
                ),
                planned=(change("play", item="radio paradise"),),
                calls=(
                    read("search_music", player=LIVING),
                    call("play_music", player=LIVING),
                ),
                model_sees=('"id":"m1"', "Radio Paradise"),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Radio", "radio_id": 2}}),
    ),
    Case(
        "search_jazz_in_the_kitchen",
        CATEGORY,
        (
            Turn(
                "put some jazz on in the kitchen",
                (
                    use("search_music", player=KITCHEN, query="jazz"),
                    use("play_music", player=KITCHEN, item="m1"),
                    says("Jazz and Blues in the kitchen."),
                ),
                planned=(change("play", target="the kitchen", item="some jazz"),),
                calls=(
                    read("search_music", player=KITCHEN),
                    call("play_music", player=KITCHEN),
                ),
                model_sees=("Jazz",),
            ),
        ),
        expect=Expect(
            players={KITCHEN: {"source": "Radio", "radio_id": 4}, LIVING: {"radio_id": 0}}
        ),
    ),
    Case(
        "search_nothing_found",
        CATEGORY,
        (
            Turn(
                "play xyzzy plugh",
                (
                    use("search_music", player=LIVING, query="xyzzy plugh"),
                    says("I found nothing called that."),
                ),
                calls=(read("search_music", player=LIVING),),
                model_sees=('"results":[]',),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Playlist"}}),
    ),
    Case(
        "search_unknown_short_id",
        CATEGORY,
        (
            Turn(
                "play m7",
                (
                    use("play_music", player=LIVING, item="m7"),
                    says("I need to search for it first."),
                ),
                calls=(call("play_music", "invalid", player=LIVING),),
                model_sees=("search_music in this conversation",),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Playlist"}}),
    ),
    Case(
        "search_id_from_another_player",
        CATEGORY,
        (
            Turn(
                "find FIP on the kitchen and play it here",
                (
                    use("search_music", player=KITCHEN, query="FIP"),
                    use("play_music", player=LIVING, item="m1"),
                    says("That result belongs to the kitchen."),
                ),
                calls=(
                    read("search_music", player=KITCHEN),
                    call("play_music", "invalid", player=LIVING),
                ),
                model_sees=("found on another player",),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Playlist"}, KITCHEN: {"source": "Playlist"}}),
    ),
]
