"""German utterances: the model answers in German, and so does the code (confirmations,
budgets, limited mode); "ja" / "nein" are matched in code."""

from ..case import (
    KITCHEN,
    LIVING,
    ApiError,
    Case,
    Expect,
    Setup,
    Turn,
    ask,
    asks,
    call,
    read,
    says,
    use,
)

CATEGORY = "german"

LAUT = Turn(
    "Mach das Wohnzimmer auf 50",
    (use("set_volume", player=LIVING, volume=50), says("Das ist laut. Soll ich 50 einstellen?")),
    calls=(call("set_volume", "pending", player=LIVING, volume=50),),
    continues=True,
)

CASES = [
    Case(
        "de_volume",
        CATEGORY,
        (
            Turn(
                "Stell das Wohnzimmer auf 35",
                (use("set_volume", player=LIVING, volume=35), says("Das Wohnzimmer ist auf 35.")),
                calls=(call("set_volume", player=LIVING, volume=35),),
                says=("Wohnzimmer",),
            ),
        ),
        language="de",
        expect=Expect(players={LIVING: {"volume": 35}}),
    ),
    Case(
        "de_now_playing",
        CATEGORY,
        (
            Turn(
                "Was läuft gerade?",
                (use("get_state", player=LIVING), says("Hunter von Björk.")),
                calls=(read(player=LIVING),),
                says=("Björk",),
            ),
        ),
        language="de",
        satellite=LIVING,
        setup=Setup(playing=(LIVING,)),
    ),
    Case(
        "de_confirm_ja",
        CATEGORY,
        (
            LAUT,
            Turn(
                "ja",
                calls=(call("set_volume", "approved", player=LIVING, volume=50),),
                code_says=("Erledigt.",),
            ),
        ),
        language="de",
        setup=Setup(volume={LIVING: 40}),
        expect=Expect(players={LIVING: {"volume": 50}}, open_requests=0),
    ),
    Case(
        "de_confirm_nein",
        CATEGORY,
        (
            LAUT,
            Turn(
                "nein danke",
                calls=(call("set_volume", "denied", player=LIVING, volume=50),),
                code_says=("In Ordnung, ich lasse es, wie es ist.",),
            ),
        ),
        language="de",
        setup=Setup(volume={LIVING: 40}),
        expect=Expect(players={LIVING: {"volume": 40}}, open_requests=0),
    ),
    Case(
        "de_which_player",
        CATEGORY,
        (
            Turn(
                "lauter",
                (asks("Welcher Player, Küche oder Wohnzimmer?"),),
                calls=(ask(),),
                says=("Welcher",),
                continues=True,
            ),
            Turn(
                "die Küche",
                (use("change_volume", player=KITCHEN, change=5), says("Die Küche ist lauter.")),
                calls=(call("change_volume", player=KITCHEN, change=5),),
            ),
        ),
        language="de",
        expect=Expect(players={KITCHEN: {"volume": 35}, LIVING: {"volume": 30}}),
    ),
    Case(
        "de_source",
        CATEGORY,
        (
            Turn(
                "Schalte im Wohnzimmer auf den Plattenspieler",
                (
                    use("select_source", player=LIVING, source="Turntable"),
                    says("Der Plattenspieler läuft."),
                ),
                calls=(call("select_source", player=LIVING, source="Turntable"),),
            ),
        ),
        language="de",
        expect=Expect(players={LIVING: {"source": "Analog 1"}}),
    ),
    Case(
        "de_budget",
        CATEGORY,
        (
            Turn("Hallo", (says("Hallo!"),)),
            Turn(
                "Erzähl mir ein Gedicht",
                code_says=(
                    "Dieses Gespräch hat sein Budget aufgebraucht.",
                    "Der Assistent ist gerade eingeschränkt",
                ),
            ),
        ),
        language="de",
        setup=Setup(assistant={"budget_conversation_tokens": 10}),
    ),
    Case(
        "de_limited_mode",
        CATEGORY,
        (
            Turn(
                "Erzähl mir ein Gedicht",
                (ApiError(529, "overloaded_error", retry_after=0.01), ApiError.overloaded()),
                code_says=(
                    "Der Assistent ist gerade eingeschränkt, und lokal konnte ich das nicht "
                    "erledigen.",
                ),
            ),
        ),
        language="de",
        live=False,
    ),
]
