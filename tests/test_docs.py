"""The README covers what the quality scale's docs-* rules ask (quality_scale.yaml names these)."""

from __future__ import annotations

import json
from pathlib import Path
import re

import yaml

ROOT = Path(__file__).parent.parent
LINN = ROOT / "custom_components" / "linn"

DOCS_SECTIONS = {
    "docs-high-level-description": "# Linn for Home Assistant",
    "docs-supported-functions": "### What it does",
    "docs-supported-devices": "### Supported devices",
    "docs-installation-instructions": "### Installation",
    "docs-removal-instructions": "### Removal",
    "docs-actions": "### Actions",
    "docs-examples": "### Examples",
    "docs-use-cases": "### Use cases",
    "docs-data-update": "### How data is updated",
    "docs-known-limitations": "### Known limitations",
    "docs-troubleshooting": "### Troubleshooting",
}

# Each field of the setup and options forms, and the README's words for it.
FORM_FIELDS = {
    "host": "**Host**",
    "port": "**Port**",
    "api_key": "API key",
    "base_url": "**Server URL**",
    "policies": "Policy per tool",
    "soft_limit_percent": "Soft volume limit",
    "quiet_hours_start": "Quiet hours",
    "quiet_hours_end": "Quiet hours",
    "approval_expiry_minutes": "Approval expiry",
    "notify_target": "Notify for approvals",
    "model": "the model (default",
    "instructions": "extra instructions",
    "max_tokens": "max output tokens",
    "max_steps": "max steps per turn",
    "thinking_effort": "**thinking\n  effort**",
    "llm_apis": "other LLM APIs",
    "budget_conversation_tokens": "token and estimated-cost budgets",
    "budget_conversation_cost": "token and estimated-cost budgets",
    "budget_day_tokens": "per conversation and per day",
    "budget_day_cost": "per conversation and per day",
    "budget_day_share": "**day budget share per member**",
}


def _readme() -> str:
    return (ROOT / "README.md").read_text()


def _section(readme: str, heading: str) -> str:
    """The section's text up to the next heading of its level or higher (code left out)."""
    start = readme.index(f"\n{heading}\n") + 1 if heading.startswith("##") else 0
    level = max(len(heading.split(" ", maxsplit=1)[0]), 2)
    rest = re.sub(r"```.*?```", "", readme[start + len(heading) + 1 :], flags=re.DOTALL)
    end = re.search(rf"^#{{1,{level}}} ", rest, flags=re.MULTILINE)
    return rest[: end.start()] if end else rest


def test_each_docs_rule_has_its_readme_section() -> None:
    readme = _readme()
    for rule, heading in DOCS_SECTIONS.items():
        assert f"\n{heading}\n" in f"\n{readme}", f"{rule}: no '{heading}' section"
        words = len(_section(readme, heading).split())
        assert words >= 20, f"{rule}: '{heading}' has only {words} words"


def test_every_action_is_documented_under_actions() -> None:
    actions = _section(_readme(), "### Actions")
    for name in yaml.safe_load((LINN / "services.yaml").read_text()):
        assert f"linn.{name}" in actions, f"linn.{name} is not under Actions"


def test_every_setup_and_options_field_is_documented() -> None:
    """docs-installation-parameters and docs-configuration-parameters."""
    strings = json.loads((LINN / "strings.json").read_text())
    fields: set[str] = set()
    for flow, steps in (
        ("config", ("streamer", "assistant", "reconfigure", "reconfigure_assistant")),
        ("options", ("init", "assistant", "assistant_guard")),
    ):
        for step_id in steps:
            step = strings[flow]["step"][step_id]
            fields |= set(step.get("data", {})) | set(step.get("sections", {}))
    assert fields == set(FORM_FIELDS), "a form field changed: document it and list it here"
    readme = _readme()
    for field, words in FORM_FIELDS.items():
        assert words in readme, f"{field}: '{words}' is not in the README"


SECURITY_TEST_REFERENCE = re.compile(r"(tests/[\w/]+\.py)::(\w+)")


def test_every_test_named_in_the_threat_model_exists() -> None:
    """docs/security.md names the test proving each control: each must be a real test."""
    text = (ROOT / "docs" / "security.md").read_text()
    references = set(SECURITY_TEST_REFERENCE.findall(text))
    assert references, "docs/security.md names no test"
    missing = []
    for path, name in sorted(references):
        source = ROOT / path
        defined = source.is_file() and re.search(
            rf"^(?:async )?def {name}\(", source.read_text(), flags=re.MULTILINE
        )
        if not defined:
            missing.append(f"{path}::{name}")
    assert not missing, f"docs/security.md names tests that do not exist: {missing}"
