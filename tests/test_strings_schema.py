"""strings.json and every translations/*.json follow hassfest's rules (tests/strings_rules.py).

The real files are checked, and broken copies of them prove each rule bites.
"""

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.strings_rules import strings_errors

LINN = Path(__file__).parent.parent / "custom_components" / "linn"
FILES = [LINN / "strings.json", *sorted((LINN / "translations").glob("*.json"))]


def _strings() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LINN / "strings.json").read_text())
    return data


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_strings_file_passes_hassfest_rules(path: Path) -> None:
    assert strings_errors(json.loads(path.read_text())) == []


def _break(change: Any) -> list[str]:
    strings = copy.deepcopy(_strings())
    change(strings)
    return strings_errors(strings)


def test_an_exception_with_a_title_and_description_is_an_error() -> None:
    """An exception shaped like an issue (a title and a description): a copy of one."""

    def change(strings: dict[str, Any]) -> None:
        strings["exceptions"]["auth"] = copy.deepcopy(strings["issues"]["assistant_auth_failed"])

    errors = _break(change)
    assert any(e.startswith("exceptions.auth.title") for e in errors), errors
    assert any(e.startswith("exceptions.auth.description") for e in errors), errors


def test_an_issue_with_a_description_and_a_fix_flow_is_an_error() -> None:
    """The shape of the old issues.audit_chain_broken."""

    def change(strings: dict[str, Any]) -> None:
        strings["issues"]["audit_chain_broken"]["description"] = "The log ({error}) was altered."

    errors = _break(change)
    assert any("description or a fix_flow, not both" in e for e in errors), errors

    def neither(strings: dict[str, Any]) -> None:
        del strings["issues"]["audit_chain_broken"]["fix_flow"]

    assert any("needs a description or a fix_flow" in e for e in _break(neither))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda s: s.update(unknown={"a": "b"}), "unknown: not a valid option"),
        (lambda s: s["config"].update(title="Linn"), "config.title: not a valid option"),
        (
            lambda s: s["config"]["error"].update(Bad_Key="x"),
            "",  # error keys are free-form in hassfest; a space-padded value is not
        ),
        (lambda s: s["config"]["error"].update(padded=" x"), "leading or trailing spaces"),
        (lambda s: s["config"]["error"].update(html="<b>x</b>"), "HTML"),
        (lambda s: s["config"]["error"].update(url="see https://example.com"), "URLs"),
        (lambda s: s["config"]["error"].update(quoted="'{host}'"), "single quotes"),
        (lambda s: s["config"]["error"].update(bad="{1x}"), "valid identifiers"),
        (
            lambda s: s["config"]["error"].update(combined="a [%key:common::x%]"),
            "combined translations",
        ),
        (
            lambda s: s["exceptions"].update(Cannot={"message": "x"}),
            "exceptions.Cannot: invalid slug",
        ),
        (
            lambda s: s["services"].update(__x={"name": "a", "description": "b"}),
            "services.__x: invalid translation key",
        ),
        (
            lambda s: s["entity"]["sensor"].update(bad={"state": {"on": "On {x}"}}),
            "placeholders are not supported",
        ),
        (
            lambda s: s["config"]["step"]["reauth_confirm"]["data_description"].update(ghost="x"),
            "data_description keys not in data",
        ),
        (
            lambda s: s["config"]["step"]["reauth_confirm"]["data_description"].clear(),
            "config.step.reauth_confirm.data_description.api_key: missing",
        ),
        (
            lambda s: s["options"]["step"]["init"]["sections"]["policies"]["data_description"].pop(
                "play"
            ),
            "options.step.init.sections.policies.data_description.play: missing",
        ),
        (
            lambda s: s["config"]["abort"].update(ref="[%key:component::linn::config::nope%]"),
            "points to no string",
        ),
        (
            lambda s: (
                s["issues"].update(
                    ir={"title": "[%key:component::linn::config::abort::ref%]", "description": "x"}
                )
                or s["config"]["abort"].update(
                    ref="[%key:component::linn::issues::ir::description%]"
                )
            ),
            "points to another reference",
        ),
    ],
)
def test_each_rule_bites(change: Any, expected: str) -> None:
    errors = _break(change)
    if expected:
        assert any(expected in e for e in errors), errors
    else:
        assert errors == []
