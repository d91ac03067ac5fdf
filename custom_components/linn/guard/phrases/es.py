"""Spanish: how a user asks for each kind of change (rules: see phrases/__init__.py)."""

from __future__ import annotations

from . import Language, rules

_ONES = (
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince "
    "dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós veintitrés "
    "veinticuatro veinticinco veintiséis veintisiete veintiocho veintinueve"
)
_TENS = "treinta cuarenta cincuenta sesenta setenta ochenta noventa"

LANGUAGE = Language(
    code="es",
    purposes={
        "play": rules(
            "pon|ponme|ponle|poner|pones|pongas|ponga", "reproduce|reproducir|reprodúceme",
            "toca|tocar", "escuchar|escucha|escuchemos|escuchamos", "oír", "sigue|seguir",
            "continúa|continuar|continua", "reanuda|reanudar", "inicia|iniciar", "empieza|empezar",
            "dale", "me apetece", "quiero", "quisiera", "me gustaría", "sintoniza|sintonizar",
            "arranca", "preset", "favorito|favorita|favoritos",
            "la|el primera|primero|segunda|segundo|tercera|tercero|última|último",
            "número uno|dos|tres|1|2|3",
        ),
        "pause": rules("pausa|pausar|pausa", "pon ... pausa", "espera"),
        "stop": rules(
            "^para", "para ... música|reproducción", "detén|detener|deten", "stop", "basta",
            "quita|quitar ... música", "apaga|apagar ... música", "ya está bien",
        ),
        "next": rules(
            "siguiente", "salta|saltar|sáltate|sáltala", "pasa|pasar", "otra canción|pista|cosa",
            "cambia|cambiar ... canción|tema|pista", "otra", "adelante",
        ),
        "previous": rules(
            "anterior", "atrás", "vuelve|volver", "otra vez", "de nuevo", "repite",
        ),
        "volume": rules(
            "volumen", "sube|súbele|súbelo|subir|súbeme", "baja|bájale|bájalo|bajar|bájame",
            "más alto|fuerte|bajo", "alto", "bajo", "fuerte", "flojo", "suave", "nivel",
            "aumenta|aumentar", "disminuye|disminuir", "reduce|reducir", "no oigo|escucho",
            "un poco más|menos",
        ),
        "mute": rules(
            "silencia|silenciar|silencio", "mute", "quita|quitar ... sonido", "sin sonido",
            "activa ... sonido",
        ),
        "source": rules(
            "fuente", "entrada", "cambia|cambiar|cámbiate|cámbialo", "pon|ponme|poner",
            "escuchar|escucha", "pasa|pásate", "sintoniza|sintonizar",
        ),
        "standby": rules(
            "apaga|apágalo|apágala|apagar", "reposo", "standby", "dormir", "suspende|suspender",
        ),
        "wake": rules(
            "enciende|enciéndelo|enciéndela|encender", "despierta|despertar", "prende|prender",
            "arranca|arrancar",
        ),
        "group": rules(
            "todas ... habitaciones|partes", "toda ... casa", "juntos|juntas|junto",
            "agrupa|agrupar",
            "sincroniza|sincronizar", "también$", "también", "desagrupa|desagrupar",
            "separa|separar",
            "une|unir",
        ),
        "limit": rules("límite", "limita|limitar", "máximo", "max", "tope"),
        "memory": rules(
            "recuerda|recordar", "acuérdate", "apunta|apuntar", "anota|anotar", "olvida|olvidar",
            "olvídate",
        ),
        "shuffle": rules("aleatorio|aleatoria", "mezcla|mezclar", "shuffle", "al azar"),
        "repeat": rules("repite|repetir", "repetición", "bucle"),
        "seek": rules(
            "adelanta|adelantar", "retrocede|retroceder", "rebobina|rebobinar", "segundo|segundos",
            "minuto|minutos", "ve al", "principio", "mitad",
        ),
    },
    yes=frozenset(
        {"sí", "si", "vale", "claro", "de acuerdo", "ok", "okay", "adelante", "hazlo",
         "confirmo", "correcto", "por supuesto", "sí hazlo", "sí claro", "venga", "dale",
         "perfecto", "exacto", "sí por favor"}
    ),
    no=frozenset(
        {"no", "cancela", "cancelar", "no gracias", "mejor no", "para nada", "ni hablar",
         "déjalo", "no lo hagas", "olvídalo", "no no"}
    ),
    polite=frozenset({"por favor", "gracias", "porfa"}),
    conjunctions=frozenset({"y", "luego", "pero", "después"}),
    other_devices=frozenset(
        {
            "luz", "luces", "lámpara", "lámparas", "calefacción", "radiador", "radiadores",
            "ventilador", "ventiladores", "persiana", "persianas", "cortina", "cortinas", "puerta",
            "puertas", "cerradura", "garaje", "aire", "termostato", "horno", "hervidor", "alarma",
            "aspiradora",
        }
    ),
    player_features=frozenset(
        {"aleatorio", "aleatoria", "shuffle", "repetición", "repetir", "bucle", "temporizador",
         "pantalla"}
    ),
    negations=rules("no|nunca|jamás|tampoco|ni"),
    refusals=rules("excepto|salvo", "todo menos", "en vez de", "en lugar de", "distinto de"),
    cessations=rules("deja|dejar|deje|dejen|para|parar|pare|paren de"),
    enough=frozenset({"bastante", "suficiente", "suficientemente"}),
    negation_ends=frozenset({"sino", "solo", "sólo", "simplemente", "mejor"}),
    not_negating_next=frozenset({"tan", "muy", "demasiado", "olvides"}),
    volume_words=frozenset({"volumen"}),
    level_before=frozenset({"a", "al"}),
    hear_starts=rules("^reproduce", "^toca", "^quiero escuchar|oír", "^busca|encuentra"),
    fillers=frozenset(
        {"y", "luego", "pero", "oye", "vale", "ok", "okay", "bueno", "venga", "eh", "ahora",
         "porfa", "pues", "a", "ver"}
    ),
    question_starts=frozenset(
        {"qué", "que", "cuál", "cual", "cuáles", "quién", "quien", "quiénes", "cómo", "como",
         "por", "cuándo", "cuando", "dónde", "donde", "cuánto", "cuánta", "cuanto"}
    ),
    questions=rules("dime", "dígame", "sabes", "^me pregunto"),
    requests=rules(
        "^puedes|podrías|podría|puede|pueden|quieres|me|nos",
        "^pones|subes|bajas|apagas|enciendes|quitas|cambias|pasas", "^qué tal si|tal si",
        "^y si",
    ),
    intonation_questions=True,
    also=rules("también$"),
    follow_on=frozenset({"y"}),
    source_before=frozenset({"a", "en", "al"}),
    source_after=frozenset({"en"}),
    volume_up=rules(
        "sube|súbele|súbelo|subir|súbeme", "aumenta|aumentar", "más alto|fuerte", "no oigo|escucho",
        "un poco más",
    ),
    volume_down=rules(
        "baja|bájale|bájalo|bajar|bájame", "disminuye|disminuir", "reduce|reducir", "más bajo",
        "un poco menos",
    ),
    loud=frozenset({"alto", "fuerte"}),
    quiet=frozenset({"bajo", "suave", "flojo"}),
    too=frozenset({"demasiado", "muy", "tan"}),
    numbers={
        **{word: value for value, word in enumerate(_ONES.split())},
        **{word: 10 * value for value, word in enumerate(_TENS.split(), start=3)},
        "una": 1,
        "cien": 100,
    },
    number_joiners=frozenset({"y"}),
    not_volume_before=frozenset(
        {"zona", "canal", "emisora", "preset", "pin", "número", "pista", "canción", "entrada",
         "fuente", "álbum", "radio", "la", "el"}
    ),
    not_volume_after=frozenset(
        {"minutos", "minuto", "segundos", "segundo", "horas", "hora", "veces", "canciones"}
    ),
    closers=frozenset(
        {"gracias", "muchas", "genial", "perfecto", "vale", "bien", "buenas", "noches", "adiós",
         "chao", "ok", "estupendo", "muy"}
    ),
    retry=frozenset({"inténtalo", "intenta", "otra", "vez", "de", "nuevo", "prueba", "repite"}),
)  # fmt: skip
