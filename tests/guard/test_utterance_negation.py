"""Break-it review 49: the word rules count no action the user's words negate ("what's playing?
don't turn it off"), and no "turn off" of something else the player has ("turn off shuffle")
as a standby. Where no planner runs, the word rules decide alone: an injected title's standby
rode on such words."""

from __future__ import annotations

import pytest

from custom_components.linn.guard import utterance_asks_for
from custom_components.linn.guard.utterance import request_text

NEGATED = [
    # English
    ("en", "what's playing? don't turn it off", "standby"),
    ("en", "don't turn it off", "standby"),
    ("en", "don\u2019t switch it off", "standby"),
    ("en", "do not switch it off", "standby"),
    ("en", "please don't put it in standby", "standby"),
    ("en", "I don't want you to turn it off", "standby"),
    ("en", "never turn the living room off", "standby"),
    ("en", "never mute it", "mute"),
    ("en", "don't mute the kitchen", "mute"),
    ("en", "don't stop the music", "stop"),
    ("en", "don't pause it", "pause"),
    ("en", "don't turn it up", "volume"),
    ("en", "don't turn it up to 100", "volume"),
    ("en", "don't skip this one", "next"),
    ("en", "don't turn it on", "wake"),
    # German
    ("de", "schalte ihn nicht aus", "standby"),
    ("de", "Schalte den Player bitte nicht aus", "standby"),
    ("de", "mach ihn nicht aus", "standby"),
    ("de", "nicht ausschalten!", "standby"),
    ("de", "was läuft? Schalte ihn auf keinen Fall aus", "standby"),
    ("de", "kein Standby", "standby"),
    ("de", "schalte ihn niemals stumm", "mute"),
    ("de", "stopp die Musik nicht", "stop"),
    ("de", "pausiere nicht", "pause"),
    ("de", "dreh nicht lauter", "volume"),
    ("de", "kannst du ihn nicht ausschalten?", "standby"),  # docs/security.md: no request
    # French
    ("fr", "ne l'éteins pas", "standby"),
    ("fr", "n'éteins pas le salon", "standby"),
    ("fr", "ne l'éteins jamais", "standby"),
    ("fr", "éteins-la pas", "standby"),
    ("fr", "ne mets pas en veille", "standby"),
    ("fr", "ne coupe pas le son", "mute"),
    ("fr", "n'arrête pas la musique", "stop"),
    ("fr", "ne monte pas le volume", "volume"),
    # Dutch
    ("nl", "zet hem niet uit", "standby"),
    ("nl", "zet de woonkamer nooit uit", "standby"),
    ("nl", "niet uitzetten", "standby"),
    ("nl", "geen standby", "standby"),
    ("nl", "demp hem niet", "mute"),
    ("nl", "stop de muziek niet", "stop"),
    ("nl", "pauzeer het niet", "pause"),
    ("nl", "zet het geluid niet harder", "volume"),
    # Spanish
    ("es", "no lo apagues", "standby"),
    ("es", "no apagar", "standby"),
    ("es", "nunca lo pongas en reposo", "standby"),
    ("es", "no silencies el salón", "mute"),
    ("es", "no silenciar", "mute"),
    ("es", "no detengas la música", "stop"),
    ("es", "no subas el volumen", "volume"),
]


@pytest.mark.parametrize(("language", "said", "action"), NEGATED)
def test_a_negated_action_is_not_asked_for(language: str, said: str, action: str) -> None:
    assert not utterance_asks_for(said, action, language=language)


ASKED = [
    ("en", "turn it off", "standby"),
    ("en", "switch it off", "standby"),
    ("en", "put it in standby", "standby"),
    ("en", "mute it", "mute"),
    ("en", "turn it up to 100", "volume"),
    ("de", "schalte ihn aus", "standby"),
    ("de", "ausschalten!", "standby"),
    ("de", "schalte ihn stumm", "mute"),
    ("fr", "éteins-la", "standby"),
    ("fr", "mets en veille", "standby"),
    ("fr", "coupe le son", "mute"),
    ("nl", "zet hem uit", "standby"),
    ("nl", "uitzetten", "standby"),
    ("nl", "demp hem", "mute"),
    ("es", "apágalo", "standby"),
    ("es", "apagar", "standby"),
    ("es", "silenciar", "mute"),
    # the negation belongs to another clause, or ends before the action's words
    ("en", "turn it off, don't leave it on", "standby"),
    ("en", "turn it off and don't leave it on", "standby"),
    ("en", "turn it off don't leave it on", "standby"),
    ("en", "don't stop the music, just turn it down", "volume"),
    ("en", "don't stop the music just turn it down", "volume"),
    ("de", "nicht stoppen, sondern leiser", "volume"),
    ("de", "stopp nicht, mach leiser", "volume"),
    ("nl", "stop niet, zet hem wel zachter", "volume"),
    ("fr", "n'arrête pas, baisse juste le son", "volume"),
    ("es", "no la pares, solo bájale", "volume"),
    # idioms whose negation negates no action
    ("en", "never mind, turn it off", "standby"),
    ("en", "never mind turn it off", "standby"),
    ("en", "don't forget to turn it off", "standby"),
    ("fr", "mets n'importe quelle musique", "play"),
    # a request in a question's shape: "can't you" asks as "can you" does (docs/security.md)
    ("en", "can't you turn it off?", "standby"),
    ("en", "won't you turn it down?", "volume"),
    # a level complaint asks for a volume ("not so loud" is "quieter")
    ("en", "it's not loud enough", "volume"),
    ("en", "play some Bach, not too loud", "play"),
    ("de", "nicht so laut", "volume"),
    ("de", "nicht zu laut bitte", "volume"),
    ("fr", "pas trop fort", "volume"),
    ("fr", "pas si fort", "volume"),
    ("nl", "niet zo hard", "volume"),
    ("nl", "niet te hard", "volume"),
    ("es", "no tan alto", "volume"),
    ("es", "no oigo nada", "volume"),
    # a title's negation is the title's
    ("en", "play Don't Stop Me Now", "play"),
    ("de", "spiel Nicht von dieser Welt", "play"),
    ("nl", "speel Niet of nooit geweest", "play"),
    ("es", "pon No pares de Los Secretos", "play"),
    # a negated toggle still asks for it: off
    ("en", "no more shuffle", "shuffle"),
    ("en", "don't shuffle", "shuffle"),
    ("en", "don't repeat this song", "repeat"),
    ("de", "kein Zufall mehr", "shuffle"),
    ("nl", "geen shuffle meer", "shuffle"),
    ("fr", "pas de lecture aléatoire", "shuffle"),
    ("es", "no repetir", "repeat"),
    ("en", "don't forget that I like jazz", "memory"),
    ("en", "don't let it go over the maximum", "limit"),
]


@pytest.mark.parametrize(("language", "said", "action"), ASKED)
def test_an_action_no_negation_reaches_is_asked_for(language: str, said: str, action: str) -> None:
    assert utterance_asks_for(said, action, language=language)


FEATURE_OFF = [
    ("en", "turn off shuffle", "shuffle"),
    ("en", "switch off shuffle", "shuffle"),
    ("en", "turn the shuffle off", "shuffle"),
    ("en", "turn off repeat", "repeat"),
    ("en", "switch repeat off", "repeat"),
    ("en", "repeat off", "repeat"),
    ("en", "stop repeating this song", "repeat"),
    ("de", "Shuffle aus", "shuffle"),
    ("de", "Zufallsmodus aus", "shuffle"),
    ("de", "schalte den Zufallsmodus aus", "shuffle"),
    ("de", "mach die Zufallswiedergabe aus", "shuffle"),
    ("de", "Wiederholung aus", "repeat"),
    ("de", "schalte die Wiederholung ab", "repeat"),
    ("fr", "désactive la lecture aléatoire", "shuffle"),
    ("fr", "éteins la lecture aléatoire", "shuffle"),
    ("fr", "arrête la lecture aléatoire", "shuffle"),
    ("fr", "arrête la répétition", "repeat"),
    ("nl", "shuffle uit", "shuffle"),
    ("nl", "zet shuffle uit", "shuffle"),
    ("nl", "zet willekeurig afspelen uit", "shuffle"),
    ("nl", "herhalen uit", "repeat"),
    ("es", "apaga el modo aleatorio", "shuffle"),
    ("es", "apaga la reproducción aleatoria", "shuffle"),
    ("es", "apaga la repetición", "repeat"),
]


@pytest.mark.parametrize(("language", "said", "feature"), FEATURE_OFF)
def test_turning_off_shuffle_or_repeat_asks_for_it_not_for_a_standby(
    language: str, said: str, feature: str
) -> None:
    assert utterance_asks_for(said, feature, language=language)
    assert not utterance_asks_for(said, "standby", language=language)
    assert not utterance_asks_for(said, "stop", language=language)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "turn off the sleep timer"),
        ("en", "switch the display off"),
        ("de", "schalte die Anzeige aus"),
        ("fr", "éteins l'écran"),
        ("nl", "zet het scherm uit"),
        ("es", "apaga la pantalla"),
    ],
)
def test_turning_off_the_timer_or_the_display_is_no_standby(language: str, said: str) -> None:
    assert not utterance_asks_for(said, "standby", language=language)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "turn on shuffle"),
        ("en", "switch repeat on"),
        ("de", "mach die Zufallswiedergabe an"),
        ("nl", "zet shuffle aan"),
        ("es", "enciende el modo aleatorio"),
        ("fr", "allume la lecture aléatoire"),
    ],
)
def test_turning_on_shuffle_or_repeat_wakes_nothing(language: str, said: str) -> None:
    assert not utterance_asks_for(said, "wake", language=language)


def test_a_feature_in_another_clause_leaves_the_standby_asked() -> None:
    assert utterance_asks_for("turn off shuffle and then turn it off", "standby")
    assert utterance_asks_for("shuffle aus, dann schalte ihn aus", "standby", language="de")


@pytest.mark.parametrize(
    ("language", "said", "previous"),
    [
        ("en", "don't turn it off", "turn it off"),
        ("de", "schalte ihn nicht aus", "schalte ihn aus"),
        ("fr", "ne l'éteins pas", "éteins-la"),
        ("nl", "zet hem niet uit", "zet hem uit"),
        ("es", "no lo apagues", "apágalo"),
    ],
)
def test_a_negated_request_does_not_go_on_with_the_previous_one(
    language: str, said: str, previous: str
) -> None:
    """It asks for something itself (its negation), so it is no follow-up: the previous turn's
    "turn it off" does not count in it."""
    words = request_text(said, previous, language)
    assert words == said
    assert not utterance_asks_for(words, "standby", language=language)


@pytest.mark.parametrize(
    ("language", "said", "previous"),
    [
        ("en", "and don't turn it off", "turn it off"),
        ("de", "und nicht ausschalten", "schalte ihn aus"),
        ("es", "y no lo apagues", "apágalo"),
    ],
)
def test_a_negated_follow_up_does_not_go_on_with_the_previous_one(
    language: str, said: str, previous: str
) -> None:
    assert not utterance_asks_for(
        request_text(said, previous, language), "standby", language=language
    )
