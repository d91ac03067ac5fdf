"""Translations: en.json matches strings.json, and every key the code uses exists."""

import json
from pathlib import Path
import re

LINN = Path(__file__).parent.parent / "custom_components" / "linn"


def test_en_json_matches_strings_json() -> None:
    strings = json.loads((LINN / "strings.json").read_text())
    english = json.loads((LINN / "translations" / "en.json").read_text())
    assert english == strings


def test_every_exception_key_raised_in_code_is_translated() -> None:
    strings = json.loads((LINN / "strings.json").read_text())
    keys = set(strings["exceptions"])
    source = "\n".join(path.read_text() for path in LINN.glob("*.py"))
    used = set(re.findall(r'translation_domain=DOMAIN,\s*translation_key="([a-z_]+)"', source))
    assert used, "no translation keys found: the pattern is stale"
    assert used <= keys, f"untranslated: {sorted(used - keys)}"
    abort_and_errors = set(strings["config"]["abort"]) | set(strings["config"]["error"])
    flow_source = (LINN / "config_flow.py").read_text()
    flow_keys = set(re.findall(r'(?:reason=|errors\[[^]]+\] = )"([a-z_]+)"', flow_source))
    assert flow_keys <= abort_and_errors, f"untranslated: {sorted(flow_keys - abort_and_errors)}"
