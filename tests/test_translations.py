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
    source = "\n".join(path.read_text() for path in LINN.rglob("*.py"))
    used = set(re.findall(r'translation_domain=DOMAIN,\s*translation_key="([a-z_]+)"', source))
    assert used, "no translation keys found: the pattern is stale"
    assert used <= keys, f"untranslated: {sorted(used - keys)}"
    abort_and_errors = (
        set(strings["config"]["abort"])
        | set(strings["config"]["error"])
        | set(strings["options"]["error"])
    )
    flow_source = "\n".join(
        (LINN / name).read_text()
        for name in ("config_flow.py", "agent/config_flow.py", "options_flow.py")
    )
    flow_keys = set(re.findall(r'(?:reason=|errors\[[^]]+\] = )"([a-z_]+)"', flow_source))
    # the key check's outcomes are error keys too
    flow_keys |= set(re.findall(r'return "([a-z_]+)"', (LINN / "agent/client.py").read_text()))
    assert {
        "invalid_auth",
        "invalid_url",
        "model_required",
        "unknown_notify_target",
    } <= flow_keys, "pattern is stale"
    assert flow_keys <= abort_and_errors, f"untranslated: {sorted(flow_keys - abort_and_errors)}"


def test_every_notification_text_the_code_uses_is_translated() -> None:
    strings = json.loads((LINN / "strings.json").read_text())
    used = set(
        re.findall(r'_text\(\s*hass,\s*"([a-z_]+)"', (LINN / "approvals" / "flow.py").read_text())
    )
    assert "approval_action_approve" in used, "pattern is stale"
    assert used <= set(strings["common"]), f"untranslated: {sorted(used - set(strings['common']))}"
    assert not {key for key in strings["exceptions"] if key in strings["common"]}


def test_every_options_step_and_menu_option_is_translated() -> None:
    strings = json.loads((LINN / "strings.json").read_text())
    steps = strings["options"]["step"]
    assistant_options = (
        (LINN / "agent/config_flow.py").read_text().split("class AssistantOptionsFlow")[1]
    )
    source = (LINN / "options_flow.py").read_text() + assistant_options
    used = set(re.findall(r'step_id="([a-z_]+)"', source))
    assert {"init", "assistant", "assistant_menu", "assistant_guard"} <= used, "pattern is stale"
    assert used <= set(steps), f"untranslated: {sorted(used - set(steps))}"
    for menu in re.findall(r"menu_options=\[([^]]*)\]", assistant_options):
        options = set(re.findall(r'"([a-z_]+)"', menu))
        assert options <= set(steps["assistant_menu"]["menu_options"])
        assert options <= set(steps)


def test_quality_scale_tracks_every_rule() -> None:
    import yaml

    rules = yaml.safe_load((LINN / "quality_scale.yaml").read_text())["rules"]
    all_rules = {
        # bronze
        "action-setup",
        "appropriate-polling",
        "brands",
        "common-modules",
        "config-flow",
        "config-flow-test-coverage",
        "dependency-transparency",
        "docs-actions",
        "docs-conditions",
        "docs-high-level-description",
        "docs-installation-instructions",
        "docs-removal-instructions",
        "docs-triggers",
        "entity-event-setup",
        "entity-unique-id",
        "has-entity-name",
        "runtime-data",
        "test-before-configure",
        "test-before-setup",
        "unique-config-entry",
        # silver
        "action-exceptions",
        "config-entry-unloading",
        "docs-configuration-parameters",
        "docs-installation-parameters",
        "entity-unavailable",
        "integration-owner",
        "log-when-unavailable",
        "parallel-updates",
        "reauthentication-flow",
        "test-coverage",
        # gold
        "devices",
        "diagnostics",
        "discovery",
        "discovery-update-info",
        "docs-data-update",
        "docs-examples",
        "docs-known-limitations",
        "docs-supported-devices",
        "docs-supported-functions",
        "docs-troubleshooting",
        "docs-use-cases",
        "dynamic-devices",
        "entity-category",
        "entity-device-class",
        "entity-disabled-by-default",
        "entity-translations",
        "exception-translations",
        "icon-translations",
        "reconfiguration-flow",
        "repair-issues",
        "stale-devices",
        # platinum
        "async-dependency",
        "inject-websession",
        "strict-typing",
    }
    assert set(rules) == all_rules
    tests = {
        match
        for path in (LINN.parent.parent / "tests").rglob("test_*.py")
        for match in re.findall(r"^(?:async )?def (test_\w+)", path.read_text(), re.MULTILINE)
    }
    for name, rule in rules.items():
        assert isinstance(rule, dict), f"{name}: status and comment"
        assert rule["status"] in ("done", "todo", "exempt"), name
        assert rule.get("comment"), f"{name} needs a reason, or the tests that show it"
        if rule["status"] == "done":
            named = set(re.findall(r"\btest_\w+(?![\w.])", rule["comment"]))
            assert named or "scripts/test" in rule["comment"], f"{name}: no test named"
            assert named <= tests, f"{name}: no such test {sorted(named - tests)}"
