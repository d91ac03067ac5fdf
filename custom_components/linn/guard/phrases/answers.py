"""Yes and no in languages without word rules, where every change waits for the user's yes.

Only whole answers ("sì", "não"); what a request asks for is not read in these languages.
English words count too ("ok" is said everywhere).
"""

from __future__ import annotations

YES: dict[str, frozenset[str]] = {
    "it": frozenset(
        {"sì", "si", "certo", "va bene", "d accordo", "d'accordo", "sì grazie", "fallo"}
    ),
    "pt": frozenset({"sim", "claro", "pode", "está bem", "sim obrigado", "sim obrigada"}),
    "sv": frozenset({"ja", "javisst", "visst", "okej", "ja tack"}),
    "da": frozenset({"ja", "javel", "ja tak", "okay"}),
    "nb": frozenset({"ja", "javisst", "ja takk", "greit"}),
    "pl": frozenset({"tak", "dobrze", "jasne", "tak proszę"}),
}
NO: dict[str, frozenset[str]] = {
    "it": frozenset({"no", "no grazie", "annulla", "lascia stare"}),
    "pt": frozenset({"não", "nao", "não obrigado", "não obrigada", "cancela", "cancelar"}),
    "sv": frozenset({"nej", "nej tack", "avbryt"}),
    "da": frozenset({"nej", "nej tak", "annuller"}),
    "nb": frozenset({"nei", "nei takk", "avbryt"}),
    "pl": frozenset({"nie", "nie dziękuję", "anuluj"}),
}
