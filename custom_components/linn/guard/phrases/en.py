"""English: how a user asks for each kind of change (rules: see phrases/__init__.py)."""

from __future__ import annotations

from . import Language, rules

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"

LANGUAGE = Language(
    code="en",
    purposes={
        "play": rules(
            "play", "resume", "continue", "unpause", "start", "restart", "carry on",
            "put|stick|throw|bung ... on", "put on", "listen", "hear", "tune in", "tune ... to",
            "give me", "can|could i have|get", "mind playing|putting", "keep playing",
            "i want|wanna", "i'd|id|i'd|would like", "fancy", "in the mood",
            "how about", "what about", "let's|lets have", "queue up", "pin", "preset",
            "favourite", "favorite", "get ... going", "keep going",
            "the first|second|third|fourth|fifth|last one",
            "number one|two|three|four|five|1|2|3|4|5", "that one",
        ),
        "pause": rules("pause", "hold", "hang on", "wait a", "freeze"),
        "stop": rules(
            "stop", "off", "kill", "cut ... music", "enough", "end ... music", "quit",
        ),
        "next": rules(
            "next", "skip", "another song|track|one", "something else", "move on", "forward",
            "change the song|track", "different song|track",
        ),
        "previous": rules(
            "previous", "back", "last", "again", "replay", "start ... over", "from the top",
            "one before",
        ),
        "volume": rules(
            "volume", "louder", "quieter", "softer", "loud", "quiet", "up", "down", "lower",
            "raise", "level", "crank", "pump", "boost", "bit more|less", "can't|cant hear",
            "hardly hear", "too soft", "reduce", "increase", "turn ... down|up", "blast",
            "blasting", "deafening", "tone ... down",
        ),
        "mute": rules("mute", "unmute", "silence", "hush", "shh", "sound off", "sound back"),
        "source": rules(
            "play", "source", "input", "switch", "change", "put", "listen", "tune", "go to",
            "over to", "use", "flip", "hear",
        ),
        "standby": rules(
            "off", "standby", "sleep", "shut", "power", "power down", "switch off", "turn off",
        ),
        "wake": rules(
            "wake|waken|awaken|wakeup", "turn|switch|power ... on", "turn|switch|power on",
            "power up", "start up", "boot",
        ),
        "group": rules(
            "join", "group", "together", "everywhere", "sync", "unjoin", "ungroup", "leave",
            "separate", "all rooms", "every room", "whole house", "throughout", "too$",
            "as well$", "also", "split", "link",
        ),
        "limit": rules("limit", "maximum", "max", "cap", "ceiling"),
        "memory": rules(
            "remember", "memorise", "memorize", "note", "forget", "keep in mind",
        ),
        "shuffle": rules(
            "shuffle|shuffled|shuffling", "random|randomly|randomise|randomize", "mix ... up"
        ),
        "repeat": rules("repeat|repeating", "loop|looping", "again and again"),
        "seek": rules(
            "seek", "rewind", "fast forward", "forward|forwards", "ahead", "backwards", "jump",
            "seconds|secs|sec", "minute|minutes|min|mins", "halfway", "beginning", "start of",
        ),
    },
    yes=frozenset(
        {"yes", "yeah", "yep", "yup", "sure", "ok", "okay", "confirm", "confirmed", "do it",
         "go ahead", "yes do it", "yes go ahead", "please do", "correct", "that's right",
         "thats right", "affirmative", "of course", "yes of course"}
    ),
    no=frozenset(
        {"no", "nope", "nah", "cancel", "don't", "dont", "do not", "don't do it", "no don't",
         "no cancel", "never mind", "nevermind", "abort", "negative"}
    ),
    polite=frozenset({"please", "thanks", "thank you"}),
    conjunctions=frozenset({"and", "then", "but"}),
    other_devices=frozenset(
        {
            "light", "lights", "lamp", "lamps", "lamplight", "heating", "heater", "heaters",
            "thermostat", "fan", "fans", "blind", "blinds", "curtain", "curtains", "shutter",
            "shutters", "door", "doors", "lock", "locks", "garage", "oven", "kettle", "boiler",
            "aircon", "alarm", "sprinkler", "sprinklers", "vacuum",
        }
    ),
    player_features=frozenset(
        {"shuffle", "shuffling", "random", "randomly", "repeat", "repeating", "loop", "looping",
         "crossfade", "timer", "display", "screen"}
    ),
    negations=rules(
        "don't|dont|never|didn't|didnt|shouldn't|shouldnt|mustn't|mustnt|doesn't|doesnt|nor",
        "do|does|did|should|must|please|you|to|i|we not", "not to",
    ),
    refusals=rules(
        "not", "anything|everything|whatever but", "except|excluding", "other than",
        "apart from", "instead of", "rather than",
    ),
    whole_before=frozenset({"anything", "everything", "whatever"}),
    no_more=frozenset({"no", "not"}),
    cessations=rules(
        "stop|stopping|quit|quitting turning|making|putting|setting|cranking|pumping|raising|"
        "increasing|boosting|pushing|bumping|lowering|reducing|decreasing|dropping|changing",
    ),
    enough=frozenset({"enough"}),
    negation_ends=frozenset({"just", "only", "instead", "rather", "simply"}),
    fact_negations=frozenset({"not", "no", "t", "cannot"}),  # "t": can't, won't, isn't
    not_negating_next=frozenset({"mind", "forget", "only", "hesitate"}),
    volume_words=frozenset({"volume", "loudness"}),
    level_before=frozenset({"at"}),
    hear_starts=rules(
        "^play", "^play me", "^put on", "^listen to", "^i want to hear", "^i'd like to hear",
        "^can|could you play", "^let's hear", "^i wanna hear", "^find", "^search", "^look for",
        "^look up", "^search for",
    ),
    fillers=frozenset(
        {"and", "then", "but", "also", "oh", "so", "hey", "ok", "okay", "well", "please",
         "actually", "now", "um", "uh", "right", "alright", "just", "kindly"}
    ),
    question_starts=frozenset(
        {"what", "what's", "whats", "which", "who", "who's", "whos", "whose", "whom", "how",
         "how's", "hows", "why", "when", "where", "where's", "wheres", "is", "isn't", "isnt",
         "are", "aren't", "arent", "was", "wasn't", "were", "does", "doesn't", "did",
         "didn't", "has", "hasn't", "have", "haven't", "am", "should", "shall"}
    ),
    questions=rules(
        "^do|don't|dont you|i|we|they|u", "tell me", "let me know", "do you know",
        "^i wonder", "^any idea", "remind me what|which|who",
    ),
    requests=rules(
        "^can|could|would|will|can't|cant|won't|wont",
        "^how|what about", "^is it possible", "^do|would you mind", "^mind",
    ),
    also=rules("too$", "as well$"),
    follow_on=frozenset({"and"}),
    source_before=frozenset({"to", "on"}),
    source_after=frozenset({"sound", "input", "in", "on"}),
    volume_up=rules(
        "up", "louder", "raise", "increase", "higher", "crank", "pump", "boost",
        "can't|cant hear", "hardly hear", "bit more",
    ),
    volume_down=rules(
        "down", "quieter", "softer", "lower", "decrease", "reduce", "bit less", "blasting",
        "deafening",
    ),
    loud=frozenset({"loud"}),
    quiet=frozenset({"quiet", "soft"}),
    too=frozenset({"too", "so", "bit", "little", "rather", "quite", "pretty", "very"}),
    numbers={
        **{word: value for value, word in enumerate(_ONES.split())},
        **{word: 10 * value for value, word in enumerate(_TENS.split(), start=2)},
        "hundred": 100,
    },
    not_volume_before=frozenset(
        {"zone", "channel", "preset", "presets", "pin", "pins", "track", "tracks", "song",
         "songs", "input", "inputs", "source", "hdmi", "analog", "analogue", "digital",
         "optical", "toslink", "spdif", "coax", "usb", "station", "episode", "chapter",
         "number", "no", "playlist", "album", "disc", "cd", "side", "item", "result",
         "radio", "bbc", "the"}
    ),
    not_volume_after=frozenset(
        {"minutes", "minute", "min", "mins", "seconds", "second", "sec", "secs", "hours",
         "hour", "days", "o'clock", "oclock", "am", "pm", "tracks", "songs", "times", "music",
         "cent", "th", "st", "nd", "rd"}
    ),
    closers=frozenset(
        {"thanks", "thank", "you", "cheers", "great", "cool", "nice", "good", "night", "bye",
         "ok", "okay", "fine", "perfect", "alright", "awesome", "lovely", "please"}
    ),
    retry=frozenset({"try", "again", "retry", "please", "one", "more", "time"}),
)  # fmt: skip
