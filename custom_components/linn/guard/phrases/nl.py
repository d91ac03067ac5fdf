"""Dutch: how a user asks for each kind of change (rules: see phrases/__init__.py)."""

from __future__ import annotations

from . import Language, rules

_ONES = "nul een twee drie vier vijf zes zeven acht negen tien elf twaalf"
_TEENS = "dertien veertien vijftien zestien zeventien achttien negentien"
_TENS = "twintig dertig veertig vijftig zestig zeventig tachtig negentig"

LANGUAGE = Language(
    code="nl",
    purposes={
        "play": rules(
            "speel|speelt|spelen|afspelen", "zet ... op|aan", "opzetten", "luister|luisteren",
            "hervat|hervatten", "ga ... verder|door", "verder", "doorgaan", "start|starten",
            "begin|beginnen", "draai|draaien", "laat ... horen", "horen", "ik wil|wil graag",
            "doe ... maar", "mag ik", "geef ... me", "preset", "favoriet|favorieten",
            "de eerste|tweede|derde|laatste", "nummer een|twee|drie|1|2|3",
        ),
        "pause": rules("pauze", "pauzeer|pauzeren", "even stil", "wacht ... even"),
        "stop": rules(
            "stop|stoppen", "hou|houd ... op", "uit", "genoeg", "beëindig|beëindigen", "kappen",
        ),
        "next": rules(
            "volgende|volgend", "sla ... over", "overslaan", "skip|skippen",
            "ander|andere ... nummer|liedje|song", "iets anders", "door",
        ),
        "previous": rules(
            "vorige|vorig", "terug", "opnieuw", "nog een keer|keertje", "nog eens", "ervoor",
        ),
        "volume": rules(
            "volume", "harder", "zachter", "hard", "zacht", "luider", "stiller", "omhoog",
            "omlaag", "hoger", "lager", "geluid", "niveau", "draai ... open|dicht",
            "verhoog|verhogen", "verlaag|verlagen", "hoor ... niets|niks", "beetje meer|minder",
        ),
        "mute": rules("demp|dempen", "mute", "geluid uit|aan|weg", "stil", "ontdemp|ontdempen"),
        "source": rules(
            "bron", "ingang", "schakel|schakelen ... naar|over", "zet ... op", "ga naar",
            "wissel|wisselen", "verander|veranderen", "luister|luisteren", "speel|spelen", "naar",
        ),
        "standby": rules(
            "uit", "uitzetten", "uitschakelen", "standby", "slaap|slapen", "slaapstand",
        ),
        "wake": rules(
            "aan", "aanzetten", "inschakelen", "wakker", "schakel ... in", "opstarten",
        ),
        "group": rules(
            "overal", "samen", "groep|groeperen|groepeer", "koppel|koppelen",
            "synchroniseer|synchroniseren",
            "ook$", "ook in", "ontkoppel|ontkoppelen", "alle kamers", "hele huis", "tegelijk",
        ),
        "limit": rules(
            "limiet", "volumelimiet", "maximum", "maximale", "max", "begrens|begrenzen", "grens"
        ),
        "memory": rules("onthoud|onthouden", "vergeet|vergeten", "noteer|noteren", "denk ... aan"),
        "shuffle": rules("shuffle", "willekeurig", "door elkaar", "shufflen", "husselen"),
        "repeat": rules("herhaal|herhalen|herhaling", "repeat", "lus"),
        "seek": rules(
            "spoel|spoelen", "seconde|seconden", "minuut|minuten", "spring|springen", "vooruit",
            "achteruit", "begin",
        ),
    },
    yes=frozenset(
        {"ja", "jawel", "jazeker", "zeker", "oké", "ok", "okay", "prima", "goed", "doe maar",
         "doe het", "ga je gang", "bevestig", "klopt", "graag", "ja graag", "ja doe maar",
         "natuurlijk", "akkoord"}
    ),
    no=frozenset(
        {"nee", "neen", "annuleer", "annuleren", "niet doen", "liever niet", "nee dank je",
         "nee bedankt", "laat maar", "nee laat maar", "stop nee"}
    ),
    polite=frozenset({"alsjeblieft", "alstublieft", "aub", "graag", "dank je", "bedankt"}),
    conjunctions=frozenset({"en", "dan", "maar"}),
    other_devices=frozenset(
        {
            "licht", "lichten", "lamp", "lampen", "verwarming", "kachel", "ventilator",
            "ventilatoren", "rolluik", "rolluiken", "zonwering", "gordijn", "gordijnen", "deur",
            "deuren", "slot", "garage", "airco", "thermostaat", "oven", "waterkoker", "alarm",
            "stofzuiger",
        }
    ),
    player_features=frozenset(
        {"shuffle", "willekeurig", "herhalen", "herhaling", "repeat", "lus", "timer",
         "slaaptimer", "display", "scherm"}
    ),
    negations=rules("niet|nooit|geen"),
    refusals=rules("behalve|uitgezonderd", "in plaats van", "anders dan"),
    cessations=rules("hou|houd|houdt op met", "stop|stoppen met"),
    enough=frozenset({"genoeg"}),
    negation_after=3,
    negation_ends=frozenset({"alleen", "gewoon", "liever", "wel"}),
    not_negating_next=frozenset({"zo", "te", "alleen", "vergeten"}),
    volume_words=frozenset({"volume", "geluid"}),
    level_before=frozenset({"op"}),
    hear_starts=rules("^speel|speelt", "^ik wil ... horen", "^zoek|vind"),
    fillers=frozenset(
        {"en", "dan", "maar", "oké", "ok", "okay", "nou", "hé", "hey", "eh", "uh", "nu",
         "even", "alsjeblieft", "graag", "toch", "zo"}
    ),
    question_starts=frozenset(
        {"wat", "welk", "welke", "wie", "hoe", "waarom", "wanneer", "waar", "is", "zijn",
         "speelt", "hoeveel", "heeft", "hebben", "heb", "staat", "klopt", "was", "wordt",
         "waarop", "hoor", "draait", "loopt"}
    ),
    questions=rules("vertel ... me", "weet je", "zeg eens", "^ik vraag me af"),
    requests=rules(
        "^kun|kan|kunt|zou|zoudt|wil|wilt|mag", "^hoe zit het met", "^wat dacht je van",
    ),
    also=rules("ook$", "eveneens$"),
    follow_on=frozenset({"en"}),
    source_before=frozenset({"naar", "op"}),
    source_after=frozenset({"aan", "op", "in"}),
    volume_up=rules(
        "harder", "luider", "omhoog", "hoger", "verhoog|verhogen", "hoor ... niets|niks",
        "beetje meer", "draai ... open",
    ),
    volume_down=rules(
        "zachter", "stiller", "omlaag", "lager", "verlaag|verlagen", "beetje minder",
        "draai ... dicht",
    ),
    loud=frozenset({"hard", "luid"}),
    quiet=frozenset({"zacht", "stil"}),
    too=frozenset({"te"}),
    numbers={
        **{word: value for value, word in enumerate(_ONES.split())},
        **{word: value for value, word in enumerate(_TEENS.split(), start=13)},
        **{word: 10 * value for value, word in enumerate(_TENS.split(), start=2)},
        "honderd": 100,
    },
    number_joiners=frozenset({"en", "ën"}),
    not_volume_before=frozenset(
        {"zone", "kanaal", "zender", "preset", "pin", "nummer", "track", "ingang", "bron",
         "album", "radio", "de", "het"}
    ),
    not_volume_after=frozenset(
        {"minuten", "minuut", "seconden", "seconde", "uur", "keer", "nummers"}
    ),
    closers=frozenset(
        {"dank", "je", "bedankt", "super", "top", "mooi", "goed", "prima", "fijn", "welterusten",
         "doei", "dag", "oké", "ok", "wel"}
    ),
    retry=frozenset({"probeer", "het", "opnieuw", "nog", "eens", "een", "keer"}),
)  # fmt: skip
