"""Issue 19's everyday phrasings, each after device text was read in the same turn (a search
or the state), where the guard runs a change only when the user's own words asked for it:
"listen to", "I want to hear", "tune in to", "spiel", "mach ... an", "dreh etwas auf",
"turn it up", a follow-up ("the second one"); and a question, which never counts as asking
for a change ("put on" is search_jazz_in_the_kitchen)."""

from ..case import LIVING, Case, Expect, Setup, Turn, ask, asks, call, change, read, says, use

CATEGORY = "phrasings"
TWO_WIRES = (("Wires", "Athlete"), ("Wires", "The Verve"))


def _search_and_play(name: str, text: str, query: str, reply: str, language: str = "en") -> Case:
    """A case: search for QUERY, play the first hit (Radio Paradise, radio id 2); the
    planner read a play of Radio Paradise."""
    return Case(
        name,
        CATEGORY,
        (
            Turn(
                text,
                (
                    use("search_music", player=LIVING, query=query),
                    use("play_music", player=LIVING, item="m1"),
                    says(reply),
                ),
                calls=(read("search_music", player=LIVING), call("play_music", player=LIVING)),
                planned=(change("play", item="Radio Paradise"),),
            ),
        ),
        satellite=LIVING,
        language=language,
        expect=Expect(players={LIVING: {"source": "Radio", "radio_id": 2}}),
    )


CASES = [
    Case(
        "phr_listen_to_spotify",
        CATEGORY,
        (
            Turn(
                "Listen to Spotify",
                (
                    use("search_music", player=LIVING, query="Spotify"),
                    use("play_music", player=LIVING, item="m1"),
                    says("Spotify is on."),
                ),
                planned=(change("play", item="Spotify"), change("source", item="Spotify")),
                calls=(read("search_music", player=LIVING), call("play_music", player=LIVING)),
                model_sees=("Spotify",),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Spotify"}}),
    ),
    _search_and_play(
        "phr_i_want_to_hear", "I want to hear Radio Paradise", "paradise", "Radio Paradise."
    ),
    _search_and_play(
        "phr_tune_in_to", "tune in to Radio Paradise", "paradise", "Tuned in to Radio Paradise."
    ),
    _search_and_play(
        "phr_spiel", "Spiel Radio Paradise", "paradise", "Radio Paradise läuft.", "de"
    ),
    _search_and_play(
        "phr_mach_an", "Mach Radio Paradise an", "paradise", "Radio Paradise läuft.", "de"
    ),
    Case(
        "phr_dreh_etwas_auf",
        CATEGORY,
        (
            Turn(
                "Dreh etwas auf",
                (
                    use("get_state", player=LIVING),
                    use("change_volume", player=LIVING, change=5),
                    says("Etwas lauter."),
                ),
                planned=(change("volume", volume="up"),),
                calls=(read("get_state"), call("change_volume", player=LIVING, change=5)),
            ),
        ),
        satellite=LIVING,
        language="de",
        expect=Expect(players={LIVING: {"volume": 35}}),
    ),
    Case(
        "phr_turn_it_up",
        CATEGORY,
        (
            Turn(
                "turn it up",
                (
                    use("get_state", player=LIVING),
                    use("change_volume", player=LIVING, change=5),
                    says("Louder."),
                ),
                planned=(change("volume", volume="up"),),
                calls=(read("get_state"), call("change_volume", player=LIVING, change=5)),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"volume": 35}}),
    ),
    Case(
        "phr_the_second_one",
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
                "the second one",
                (use("play_music", player=LIVING, item="m2"), says("Playing Wires by The Verve.")),
                planned=(change("play", item="Wires"),),
                calls=(call("play_music", player=LIVING, item="m2"),),
            ),
        ),
        satellite=LIVING,
        setup=Setup(queue={LIVING: TWO_WIRES}),
        expect=Expect(players={LIVING: {"title": "Wires", "artist": "The Verve"}}),
    ),
    Case(
        # a model that switches anyway is refused: a question asks for no change
        "phr_a_question_is_no_request",
        CATEGORY,
        (
            Turn(
                "which source is playing?",
                (
                    use("get_state", player=LIVING),
                    use("select_source", player=LIVING, source="TV"),
                    says("The playlist is playing."),
                ),
                calls=(read("get_state"), call("select_source", "denied", player=LIVING)),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"source": "Playlist"}}),
    ),
    Case(
        # "too loud" asks for less; as a question it asks for nothing
        "phr_is_it_too_loud_is_no_request",
        CATEGORY,
        (
            Turn(
                "is it too loud?",
                (
                    use("get_state", player=LIVING),
                    use("change_volume", player=LIVING, change=-5),
                    says("It is at 30."),
                ),
                calls=(read("get_state"), call("change_volume", "denied", player=LIVING)),
            ),
        ),
        satellite=LIVING,
        expect=Expect(players={LIVING: {"volume": 30}}),
    ),
]
