"""German: how a user asks for each kind of change (rules: see phrases/__init__.py)."""

from __future__ import annotations

from . import Language, rules

_ONES = "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf"
_TEENS = "dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn"
_TENS = "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig"

LANGUAGE = Language(
    code="de",
    purposes={
        "play": rules(
            "spiel|spiele|spielen|abspielen|vorspielen", "fortsetzen", "fortfahren", "weiter",
            "weiterspielen", "weitermachen", "start|starte|starten", "leg|lege ... auf",
            "mach|mache|mach's|machs ... an", "mach|mache ... musik", "hör|höre|hören|anhören",
            "lass|lasst ... laufen|hören|spielen", "gib mir", "ich hätte gern|gerne",
            "ich will|möchte|würde", "ich hätt", "wie wäre|wärs|wär's", "was mit",
            "schmeiß|schmeiss|wirf ... an",
            "einlegen", "auflegen", "play", "pin", "preset", "favorit|favoriten",
            "den|die|das ersten|erste|zweiten|zweite|dritten|dritte|vierten|vierte|letzten|letzte",
            "nummer eins|zwei|drei|vier|fünf|1|2|3|4|5",
        ),
        "pause": rules(
            "pause", "pausiere|pausieren", "anhalten", "halt|halte ... an",
            "unterbrich|unterbrechen",
            "moment mal", "kurz stopp|stop|stoppen",
        ),
        "stop": rules(
            "stop", "stopp|stoppe|stoppen", "beende|beenden", "aus", "schluss", "genug",
            "aufhören", "hör|höre ... auf", "ruhe", "abschalten",
        ),
        "next": rules(
            "nächster|nächstes|nächste|nächsten", "überspring|überspringe|überspringen",
            "weiter", "skip|skippe|skippen", "ein anderes|anderer|anderen|andere",
            "was anderes", "etwas anderes", "wechsel|wechsle ... lied|song|titel|stück",
        ),
        "previous": rules(
            "zurück", "vorherige|vorheriger|vorheriges|vorherigen", "nochmal", "noch mal",
            "noch einmal", "letzte|letzten|letztes", "davor", "von vorn|vorne", "wiederholen",
        ),
        "volume": rules(
            "lautstärke", "lauter", "leiser", "laut", "leise",
            "dreh|drehe ... auf|hoch|runter|ab|zurück|lauter|leiser",
            "aufdrehen", "runterdrehen", "zurückdrehen", "hoch", "runter", "pegel", "volume",
            "mach|mache ... lauter|leiser", "stell|stelle ... auf", "erhöhe|erhöhen",
            "senke|senken",
            "reduziere|reduzieren", "bisschen mehr|weniger", "höre|hör|hört ... nichts|kaum",
            "dröhnt",
        ),
        "mute": rules(
            "stumm", "stummschalten", "stummschaltung", "ton aus|an|weg", "ton", "mute",
            "ruhe",
        ),
        "source": rules(
            "quelle", "eingang", "umschalten", "umstellen", "wechsel|wechsle|wechseln",
            "schalt|schalte ... auf|um", "stell|stelle ... auf|um", "geh|gehe ... auf",
            "hör|höre|hören|anhören", "spiel|spiele|spielen", "mach|mache ... an", "auf ... um",
            "schmeiß|schmeiss|wirf ... an",
        ),
        "standby": rules(
            "aus", "ausschalten", "ausmachen", "abschalten", "schlafen", "standby",
            "bereitschaft", "ruhezustand", "schalt|schalte ... aus", "herunterfahren",
        ),
        "wake": rules(
            "mach|mache|schalt|schalte ... an|ein", "einschalten", "anschalten", "anmachen",
            "aufwecken", "aufwachen", "weck|wecke ... auf",
            "wach ... auf", "hochfahren", "starte|starten",
        ),
        "group": rules(
            "gruppe", "gruppiere|gruppieren", "zusammen", "überall", "verbinde|verbinden",
            "trenne|trennen", "auch$", "auch in|im", "ebenfalls", "allen räumen|zimmern",
            "alle räume|zimmer", "ganzen haus|wohnung", "synchron|synchronisiere|synchronisieren",
            "koppel|koppeln|kopple", "entkoppel|entkoppeln", "gleichzeitig", "mitspielen",
        ),
        "limit": rules(
            "limit", "lautstärkegrenze", "lautstärkelimit", "maximum", "max", "grenze",
            "obergrenze", "begrenzung", "begrenze|begrenzen",
            "limitieren", "limitiere", "höchstlautstärke", "maximallautstärke",
        ),
        "memory": rules(
            "merk|merke|merken", "notiere|notier", "vergiss", "vergessen",
            "denk|denke ... dran|daran",
            "behalte|behalt", "speicher|speichere",
        ),
        "shuffle": rules(
            "zufall", "zufallsmodus", "shuffeln", "durchmischen", "zufällig|zufällige|zufälliger",
            "zufallswiedergabe", "shuffle",
            "misch|mische|mischen",
            "durcheinander",
        ),
        "repeat": rules(
            "wiederhole|wiederholen|wiederholung", "repeat", "schleife", "dauerschleife", "endlos",
            "nochmal",
        ),
        "seek": rules(
            "spul|spule|spulen|vorspulen|zurückspulen", "sekunde|sekunden", "minute|minuten",
            "spring|springe|springen", "spul|spule ... vor|zurück", "anfang", "mitte",
            "von vorn|vorne",
        ),
    },
    yes=frozenset(
        {"ja", "jawohl", "jep", "klar", "sicher", "ok", "okay", "genau", "bestätigt",
         "bestätige", "ich bestätige", "mach das", "mach es", "mach's", "machs", "gerne",
         "in ordnung", "ja mach das", "ja mach es", "ja gerne", "richtig", "natürlich"}
    ),
    no=frozenset(
        {"nein", "nee", "ne", "abbrechen", "lieber nicht", "nicht", "auf keinen fall",
         "nein danke", "nein lieber nicht", "abbruch", "stopp nein", "vergiss es"}
    ),
    polite=frozenset({"bitte", "danke", "danke schön"}),
    conjunctions=frozenset({"und", "dann", "aber"}),
    other_devices=frozenset(
        {
            "licht", "lichter", "lampe", "lampen", "heizung", "heizungen", "ventilator",
            "ventilatoren", "rollladen", "rollläden", "jalousie", "jalousien", "vorhang",
            "vorhänge", "tür", "türen", "schloss", "garage", "klimaanlage", "thermostat", "ofen",
            "herd", "wasserkocher", "alarm", "staubsauger",
        }
    ),
    player_features=frozenset(
        {"shuffle", "zufall", "zufallsmodus", "zufallswiedergabe", "zufällig", "zufällige",
         "wiederholung", "wiederholungen", "wiederholungsmodus", "repeat", "schleife",
         "dauerschleife", "endlosschleife", "timer", "schlaftimer", "sleeptimer", "display",
         "anzeige", "bildschirm"}
    ),
    negations=rules("nicht|nie|niemals|kein|keine|keinen|keinem|keiner|nimmer"),
    refusals=rules("außer|ausser|statt|anstatt", "anstelle von"),
    cessations=rules("hör|höre|hört auf", "aufhören"),
    enough=frozenset({"genug", "genügend"}),
    negation_after=3,
    negation_ends=frozenset({"sondern", "nur", "einfach", "lieber", "stattdessen"}),
    not_negating_next=frozenset({"so", "zu", "nur", "wahr", "vergessen"}),
    volume_words=frozenset({"lautstärke", "volume"}),
    level_before=frozenset({"auf", "mit"}),
    hear_starts=rules(
        "^spiel|spiele|spielen", "^hör|höre mal|dir|jetzt", "^ich will|möchte ... hören",
        "^such|suche|finde",
    ),
    fillers=frozenset(
        {"und", "dann", "aber", "na", "ach", "bitte", "jetzt", "ok", "okay", "also", "hey",
         "ähm", "äh", "so", "gut", "nun", "doch", "mal", "ja"}
    ),
    question_starts=frozenset(
        {"was", "wie", "wieso", "warum", "weshalb", "wann", "wo", "woher", "wohin", "welche",
         "welcher", "welches", "welchen", "welchem", "wer", "wem", "wen", "wessen", "ist",
         "sind", "war", "waren", "hat", "hast", "haben", "läuft", "spielt", "gibt", "bin",
         "wird", "stimmt", "wieviel", "wievielt", "läufts", "habt", "seid", "bist"}
    ),
    questions=rules("sag mir", "sag mal", "weißt du", "verrat mir", "^ich frage mich"),
    requests=rules(
        "^kannst|könntest|würdest|kann|könnte|würde|können|könnten|würden|magst|willst|wollen",
        "^wie wäre|wär|wärs|wär's", "^was ist mit", "^wie wärs", "^ist es möglich",
    ),
    also=rules("auch$", "ebenfalls$"),
    follow_on=frozenset({"und"}),
    source_before=frozenset({"auf", "zu", "zum", "zur"}),
    source_after=frozenset({"ton", "an", "im", "in", "hören", "spielen", "ein"}),
    volume_up=rules(
        "lauter", "erhöhe|erhöhen", "hoch", "dreh|drehe ... auf", "aufdrehen",
        "höre|hör|hört ... nichts|kaum", "bisschen mehr", "etwas mehr",
    ),
    volume_down=rules(
        "leiser", "runter", "senke|senken", "reduziere|reduzieren", "runterdrehen", "zurückdrehen",
        "dreh|drehe ... ab|runter|zurück", "bisschen weniger", "etwas weniger", "dröhnt",
    ),
    loud=frozenset({"laut"}),
    quiet=frozenset({"leise"}),
    too=frozenset({"zu", "so", "viel", "bisschen", "ziemlich", "recht", "etwas", "sehr"}),
    numbers={
        **{word: value for value, word in enumerate(_ONES.split())},
        **{word: value for value, word in enumerate(_TEENS.split(), start=13)},
        **{word: 10 * value for value, word in enumerate(_TENS.split(), start=2)},
        "hundert": 100,
        "ein": 1,
        "eine": 1,
    },
    number_joiners=frozenset({"und"}),
    not_volume_before=frozenset(
        {"zone", "kanal", "sender", "titel", "eingang", "quelle", "stück", "lied", "nummer",
         "pin", "preset", "playlist", "album", "cd", "der", "die", "das", "den", "radio",
         "track", "hdmi", "usb", "analog"}
    ),
    not_volume_after=frozenset(
        {"minuten", "minute", "sekunden", "sekunde", "stunden", "stunde", "uhr", "mal",
         "titel", "lieder", "tage", "min", "sek"}
    ),
    closers=frozenset(
        {"danke", "schön", "super", "gut", "prima", "toll", "tschüss", "gute", "nacht", "ok",
         "okay", "vielen", "dank", "bitte", "perfekt", "klasse"}
    ),
    retry=frozenset(
        {"nochmal", "noch", "mal", "versuch", "versuche", "versuchen", "probier", "probiere",
         "probieren", "es", "erneut", "bitte"}
    ),
)  # fmt: skip
