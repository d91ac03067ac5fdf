"""The documentation covers what the quality scale's docs-* rules ask (quality_scale.yaml
names these): the README a HACS user reads, and the pages it links for the rest."""

from __future__ import annotations

import json
from pathlib import Path
import re

import yaml

ROOT = Path(__file__).parent.parent
LINN = ROOT / "custom_components" / "linn"

DOCUMENTATION = ("README.md", "docs/usage.md", "docs/guard.md", "docs/assistant.md")
"""The user's documentation: the README and the pages it links (CONTRIBUTING.md and the rest
of docs/ are for contributors)."""
README_LINES = 150

DOCS_SECTIONS = {
    "docs-high-level-description": "Linn for Home Assistant",
    "docs-supported-functions": "What it does",
    "docs-supported-devices": "Supported devices",
    "docs-installation-instructions": "Installation",
    "docs-removal-instructions": "Removal",
    "docs-actions": "Actions",
    "docs-examples": "Examples",
    "docs-use-cases": "Use cases",
    "docs-data-update": "How data is updated",
    "docs-known-limitations": "Known limitations",
    "docs-troubleshooting": "Troubleshooting",
}
IN_THE_README = frozenset(
    {"Linn for Home Assistant", "What it does", "Supported devices", "Installation", "Removal",
     "Actions", "Troubleshooting"}
)  # fmt: skip

# Each field of the setup and options forms, and the documentation's words for it.
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


def _documentation() -> str:
    return "\n".join((ROOT / page).read_text() for page in DOCUMENTATION)


def _section(text: str, title: str) -> str | None:
    """The text under a heading titled so, up to the next heading of its level or higher
    (code left out); None when there is none."""
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    found = re.search(rf"^(#{{1,6}}) {re.escape(title)}$", text, flags=re.MULTILINE)
    if found is None:
        return None
    level = len(found.group(1))
    rest = text[found.end() :]
    end = re.search(rf"^#{{1,{max(level, 2)}}} ", rest, flags=re.MULTILINE)
    return rest[: end.start()] if end else rest


def test_each_docs_rule_has_its_section() -> None:
    documentation, readme = _documentation(), _readme()
    for rule, title in DOCS_SECTIONS.items():
        section = _section(readme if title in IN_THE_README else documentation, title)
        assert section is not None, f"{rule}: no '{title}' section"
        words = len(section.split())
        assert words >= 20, f"{rule}: '{title}' has only {words} words"


def test_the_readme_is_short_enough_for_the_hacs_store() -> None:
    """HACS renders the whole README in its store: the rest lives in docs/ (issue 21)."""
    lines = len(_readme().splitlines())
    assert lines <= README_LINES, f"README.md has {lines} lines"


def test_every_action_is_documented_under_actions() -> None:
    actions = _section(_readme(), "Actions")
    assert actions is not None
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
    documentation = _documentation()
    for field, words in FORM_FIELDS.items():
        assert words in documentation, f"{field}: '{words}' is not in the documentation"


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


MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchor(title: str) -> str:
    """GitHub's anchor of a heading."""
    title = re.sub(r"[`*_]", "", title.strip().lower())
    return re.sub(r"[^\w\- ]", "", title).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.DOTALL)
    return {_anchor(title) for title in re.findall(r"^#{1,6} (.*)$", text, flags=re.MULTILINE)}


def test_every_relative_link_of_the_docs_resolves() -> None:
    """Files and headings that a link names exist (the docs were split out of the README)."""
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(), flags=re.DOTALL)
        for target in MARKDOWN_LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, broken
