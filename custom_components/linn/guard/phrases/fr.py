"""French: how a user asks for each kind of change (rules: see phrases/__init__.py).

Words are split at apostrophes ("l'album" is "l album", "qu'est-ce" is "qu est ce").
"""

from __future__ import annotations

from . import Language, rules

_ONES = (
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize"
)

LANGUAGE = Language(
    code="fr",
    purposes={
        "play": rules(
            "joue|jouer|joues", "mets|mettre|mettez|remets", "lance|lancer|lancez",
            "reprends|reprendre|reprenez",
            "continue|continuer|continuez", "écoute|écouter|écoutez", "entendre",
            "passe|passer|passez",
            "démarre|démarrer", "fais ... jouer", "envie", "j aimerais", "je voudrais|veux",
            "donne|donnez ... moi", "on se met", "preset", "favori|favoris|favorite",
            "le|la premier|première|deuxième|second|seconde|troisième|dernier|dernière",
            "numéro un|deux|trois|1|2|3",
        ),
        "pause": rules("pause", "mets|mettez ... pause", "attends", "suspends"),
        "stop": rules(
            "arrête|arrêter|arrêtez", "stop", "stoppe|stopper", "coupe|couper ... musique",
            "assez", "éteins|éteindre ... musique",
        ),
        "next": rules(
            "suivant|suivante|suivants", "passe|passer|passez", "saute|sauter", "zappe|zapper",
            "une autre", "autre chose", "autre morceau|chanson|titre",
            "change|changer ... morceau|chanson|titre",
        ),
        "previous": rules(
            "précédent|précédente", "retour", "reviens|revenir", "encore", "rejoue|rejouer",
            "recommence|recommencer", "du début",
        ),
        "volume": rules(
            "volume", "fort", "moins fort", "plus fort", "monte|monter|montez",
            "baisse|baisser|baissez",
            "augmente|augmenter|augmentez", "diminue|diminuer|diminuez", "son", "doucement",
            "bas", "niveau", "pousse|pousser", "entends rien", "n entends", "trop",
        ),
        "mute": rules(
            "sourdine", "muet", "coupe|couper ... son", "mute", "silence", "remets ... son",
        ),
        "source": rules(
            "source", "entrée", "passe|passer|passez", "bascule|basculer", "change|changer",
            "mets|mettre|mettez", "écoute|écouter", "joue|jouer", "va sur", "sur",
        ),
        "standby": rules(
            "éteins|éteindre|éteignez", "veille",
            "arrête|arrêter ... appareil|lecteur|streamer|linn",
            "dors", "dormir",
        ),
        "wake": rules(
            "allume|allumer|allumez", "réveille|réveiller", "démarre|démarrer", "sors ... veille",
            "en marche", "mets ... marche",
        ),
        "group": rules(
            "partout", "ensemble", "regroupe|regrouper", "groupe|grouper",
            "synchronise|synchroniser",
            "aussi$", "aussi", "toutes ... pièces", "toute ... maison", "sépare|séparer",
            "dégroupe|dégrouper",
            "également",
        ),
        "limit": rules("limite|limiter", "maximum", "max", "plafond", "plafonne|plafonner"),
        "memory": rules(
            "souviens", "rappelle ... toi", "retiens", "note|noter", "oublie|oublier",
            "mémorise|mémoriser",
        ),
        "shuffle": rules("aléatoire", "mélange|mélanger", "shuffle", "hasard"),
        "repeat": rules("répète|répéter", "répétition", "boucle"),
        "seek": rules(
            "avance|avancer", "recule|reculer", "seconde|secondes", "minute|minutes",
            "rembobine|rembobiner", "va à", "début", "milieu",
        ),
    },
    yes=frozenset(
        {"oui", "ouais", "d accord", "ok", "okay", "bien sûr", "vas y", "allez y", "confirme",
         "je confirme", "exactement", "c est ça", "oui vas y", "oui merci", "volontiers",
         "absolument", "parfait", "oui oui"}
    ),
    no=frozenset(
        {"non", "annule", "annuler", "non merci", "surtout pas", "laisse tomber", "pas question",
         "non annule", "ne fais pas ça", "non non"}
    ),
    polite=frozenset({"s il te plaît", "s il vous plaît", "merci", "stp", "svp"}),
    conjunctions=frozenset({"et", "puis", "mais", "ensuite"}),
    other_devices=frozenset(
        {
            "lumière", "lumières", "lampe", "lampes", "chauffage", "radiateur", "radiateurs",
            "ventilateur", "ventilateurs", "volet", "volets", "store", "stores", "rideau",
            "rideaux", "porte", "portes", "serrure", "garage", "climatisation", "clim",
            "thermostat", "four", "bouilloire", "alarme", "aspirateur",
        }
    ),
    player_features=frozenset(
        {"aléatoire", "shuffle", "répétition", "boucle", "minuteur", "minuterie", "écran",
         "affichage"}
    ),
    negations=rules("ne|n|pas|jamais|aucun|aucune"),
    refusals=rules("sauf|excepté|hormis", "autre que", "au lieu de", "plutôt que"),
    cessations=rules("arrête|arrêtez|arrêter|cesse|cessez|cesser de|d"),
    enough=frozenset({"assez", "suffisamment"}),
    negation_after=2,
    negation_ends=frozenset({"juste", "seulement", "plutôt", "simplement"}),
    not_negating_next=frozenset({"si", "trop", "aussi", "importe", "mal", "oublie"}),
    volume_words=frozenset({"volume"}),
    level_before=frozenset({"à"}),
    hear_starts=rules("^joue|jouer", "^je veux écouter|entendre", "^cherche|trouve|recherche"),
    fillers=frozenset(
        {"et", "puis", "mais", "ensuite", "alors", "bon", "ok", "okay", "euh", "eh", "hé",
         "maintenant", "bah", "ben", "allez", "oh"}
    ),
    question_starts=frozenset(
        {"qu", "que", "quoi", "quel", "quelle", "quels", "quelles", "qui", "comment",
         "pourquoi", "quand", "où", "combien", "lequel", "laquelle", "est"}
    ),
    questions=rules("quoi", "dis moi", "tu sais", "^c est quel|quelle|qui|quoi", "^je me demande"),
    requests=rules(
        "^tu|vous peux|peux|pouvez|pourrais|pourriez|voudrais|voudrais|veux",
        "^peux|pouvez|pourrais|pourriez", "^est ce que tu|vous peux|pouvez|pourrais|pourriez",
        "^et si", "^si on", "^tu mets|mettrais|lances|passes|montes|baisses",
        "^on met|écoute|passe|lance", "^ça te dit",
    ),
    intonation_questions=True,
    elision=True,
    also=rules("aussi$", "également$"),
    follow_on=frozenset({"et"}),
    source_before=frozenset({"sur", "à", "au"}),
    source_after=frozenset({"en", "sur", "dans"}),
    volume_up=rules(
        "monte|monter|montez", "augmente|augmenter|augmentez", "plus fort", "pousse|pousser",
        "entends rien", "n entends", "plus haut",
    ),
    volume_down=rules(
        "baisse|baisser|baissez", "diminue|diminuer|diminuez", "moins fort", "doucement",
        "plus bas", "moins",
    ),
    loud=frozenset({"fort"}),
    quiet=frozenset({"doux", "bas"}),
    too=frozenset({"trop"}),
    numbers={
        **{word: value for value, word in enumerate(_ONES.split())},
        "une": 1,
        "vingt": 20,
        "trente": 30,
        "quarante": 40,
        "cinquante": 50,
        "soixante": 60,
        "cent": 100,
    },
    number_joiners=frozenset({"et"}),
    not_volume_before=frozenset(
        {"zone", "piste", "preset", "pin", "numéro", "chaîne", "station", "titre", "morceau",
         "entrée", "source", "album", "radio", "le", "la"}
    ),
    not_volume_after=frozenset(
        {"minutes", "minute", "secondes", "seconde", "heures", "heure", "h", "morceaux",
         "titres", "fois"}
    ),
    closers=frozenset(
        {"merci", "beaucoup", "super", "génial", "parfait", "bonne", "nuit", "salut", "au",
         "revoir", "ok", "cool", "top"}
    ),
    retry=frozenset({"réessaie", "réessaye", "encore", "une", "fois", "essaie", "de", "nouveau"}),
)  # fmt: skip
