"""The rules Home Assistant's hassfest applies to strings.json and translations/*.json, as schemas.

hassfest (`script/hassfest/translations.py` in home-assistant/core) is not in the homeassistant
wheel, so the rules it applies to a custom integration's strings (`gen_strings_schema` and the
helpers it builds on) are restated here in probatio, the voluptuous-compatible library Home
Assistant 2026.10 validates with. What the installed package defines is used directly: HA's
`slug` and no-HTML validators.

Restated from hassfest:
- only known top-level sections; `exceptions` entries hold a `message` only;
- an issue has a `title` and either a `description` or a `fix_flow`, never both (a fixable
  issue describes itself in its fix flow's steps);
- a flow (config, options, an issue's fix flow) has `step`s with title, description, data,
  data_description, menu options, submit and sections, plus error/abort/progress/create_entry;
  a step's data_description names only fields of its data; the config flow has no `title`;
- keys are slugs or translation keys (lowercase a-z, 0-9, `_` and, for translation keys, `-`,
  neither leading nor trailing nor doubled);
- every value is a string without HTML, URLs, leading or trailing whitespace, placeholders in
  single quotes, placeholders that are no identifiers, or text around a `[%key:...%]`
  reference; entity states take no placeholders at all.

Ours on top (the quality scale's config-flow rule): every data field of every config and options
step, sections included, has a data_description; and a `[%key:component::linn::...%]` reference
points to a key that exists and is no reference itself (hassfest checks references only for core).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
import re
import string
from typing import Any

from homeassistant.helpers import config_validation as cv
import probatio as vol

DOMAIN = "linn"

_REFERENCE = re.compile(r"\[%key:([^%]+)%\]")
_TEXT_AROUND_REFERENCE = re.compile(r".\[%|%\].")
_QUOTED_PLACEHOLDER = re.compile(r"'\{\w+\}'")
# An address with a scheme or www., and a host ending in a top-level domain of letters.
_URL = re.compile(
    r"(?:(?:ftps?|scp|https?|mqtts?|socket|socks5)://|www\.)"
    r"[a-z0-9]+(?:[-.][a-z0-9]+)*\.[a-z]{2,5}(?::\d{1,5})?(?:/.*)?",
    re.IGNORECASE,
)
_TRANSLATION_KEY = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")


def translation_value(allow_placeholders: bool = True) -> Callable[[Any], str]:
    """A translated string as hassfest accepts it."""

    def validate(value: Any) -> str:
        text = cv.string_with_no_html(value)
        if _QUOTED_PLACEHOLDER.search(text):
            raise vol.Invalid("the string should not contain placeholders inside single quotes")
        try:
            fields = [field for _, field, _, _ in string.Formatter().parse(text) if field]
        except ValueError as err:
            raise vol.Invalid(f"the string is no valid format string: {err}") from err
        if fields and not allow_placeholders:
            raise vol.Invalid("placeholders are not supported in this value")
        if any(not field.isidentifier() for field in fields):
            raise vol.Invalid("placeholders must be valid identifiers ([a-zA-Z_][a-zA-Z0-9_]*)")
        if _TEXT_AROUND_REFERENCE.search(text):
            raise vol.Invalid("the string should not contain combined translations")
        if text != text.strip():
            raise vol.Invalid("the string should not contain leading or trailing spaces")
        if _URL.search(text):
            raise vol.Invalid("the string should not contain URLs, use description placeholders")
        return text

    return validate


VALUE = translation_value()
NO_PLACEHOLDERS = translation_value(allow_placeholders=False)


def translation_key(value: Any) -> str:
    """A-z, 0-9, `-` and `_`, neither leading nor trailing nor doubled."""
    if not isinstance(value, str) or _TRANSLATION_KEY.fullmatch(value) is None:
        raise vol.Invalid(
            f"invalid translation key {value!r}: [a-z0-9-_]+, not starting or ending with"
            " - or _, no two in a row"
        )
    return value


def slug_keys(value_schema: Any, key: Any = cv.slug) -> vol.Schema:
    """A mapping whose keys pass `key` (by default HA's slug), each value `value_schema`."""
    return vol.Schema({key: value_schema})


def _data_descriptions_name_data(flow: dict[str, Any]) -> dict[str, Any]:
    for step_id, step in flow["step"].items():
        extra = set(step.get("data_description", {})) - set(step.get("data", {}))
        if extra:
            raise vol.Invalid(f"step {step_id}: data_description keys not in data: {sorted(extra)}")
    return flow


def flow_schema(*, config_flow: bool = False) -> Any:
    """A data entry flow: config, options or an issue's fix flow."""
    strings = {str: VALUE}
    step = {
        vol.Optional("title"): VALUE,
        vol.Optional("description"): VALUE,
        vol.Optional("data"): strings,
        vol.Optional("data_description"): strings,
        vol.Optional("menu_options"): strings,
        vol.Optional("menu_option_descriptions"): strings,
        vol.Optional("submit"): VALUE,
        vol.Optional("sections"): {
            str: {
                vol.Optional("name"): VALUE,
                vol.Optional("description"): VALUE,
                vol.Optional("data"): strings,
                vol.Optional("data_description"): strings,
            }
        },
    }
    schema: dict[Any, Any] = {
        vol.Optional("flow_title"): VALUE,
        vol.Required("step"): {str: step},
        vol.Optional("error"): strings,
        vol.Optional("abort"): strings,
        vol.Optional("progress"): strings,
        vol.Optional("create_entry"): strings,
        vol.Optional("initiate_flow"): {vol.Required("user"): VALUE},
    }
    if not config_flow:
        # hassfest: config.title was moved to the root of strings.json (HA 0.109)
        schema[vol.Optional("title")] = VALUE
    return vol.All(vol.Schema(schema), _data_descriptions_name_data)


def _description_or_fix_flow(issue: Any) -> Any:
    if isinstance(issue, dict):
        has = [key for key in ("description", "fix_flow") if key in issue]
        if not has:
            raise vol.Invalid("an issue needs a description or a fix_flow")
        if len(has) == 2:
            raise vol.Invalid(
                "an issue has a description or a fix_flow, not both: a fixable issue"
                " describes itself in its fix flow's steps"
            )
    return issue


ISSUE = vol.All(
    _description_or_fix_flow,
    vol.Schema(
        {
            vol.Required("title"): VALUE,
            vol.Optional("description"): VALUE,
            vol.Optional("fix_flow"): flow_schema(),
        }
    ),
)

ENTITY_STATE = slug_keys(NO_PLACEHOLDERS, translation_key)
ENTITY = {
    vol.Optional("name"): VALUE,
    vol.Optional("state"): ENTITY_STATE,
    vol.Optional("state_attributes"): slug_keys(
        {vol.Optional("name"): NO_PLACEHOLDERS, vol.Optional("state"): ENTITY_STATE},
        translation_key,
    ),
    vol.Optional("unit_of_measurement"): NO_PLACEHOLDERS,
}

SERVICE_FIELD = {
    vol.Required("name"): str,
    vol.Required("description"): VALUE,
    vol.Optional("example"): VALUE,
}

STRINGS_SCHEMA = vol.Schema(
    {
        vol.Optional("title"): VALUE,
        vol.Optional("config"): flow_schema(config_flow=True),
        vol.Optional("options"): flow_schema(),
        vol.Optional("issues"): {str: ISSUE},
        vol.Optional("exceptions"): slug_keys({vol.Required("message"): VALUE}),
        vol.Optional("entity"): slug_keys(slug_keys(ENTITY, translation_key)),
        vol.Optional("device"): slug_keys({vol.Optional("name"): VALUE}, translation_key),
        vol.Optional("services"): slug_keys(
            {
                vol.Required("name"): VALUE,
                vol.Required("description"): VALUE,
                vol.Optional("fields"): slug_keys(SERVICE_FIELD, translation_key),
                vol.Optional("sections"): slug_keys(
                    {vol.Required("name"): str, vol.Optional("description"): VALUE},
                    translation_key,
                ),
            },
            translation_key,
        ),
        vol.Optional("selector"): slug_keys(
            {
                vol.Optional("choices"): slug_keys(VALUE, translation_key),
                vol.Optional("options"): slug_keys(VALUE, translation_key),
                vol.Optional("unit_of_measurement"): slug_keys(VALUE, translation_key),
                vol.Optional("fields"): vol.Any(
                    slug_keys(str),
                    slug_keys(
                        {vol.Required("name"): str, vol.Required("description"): VALUE},
                        translation_key,
                    ),
                ),
            },
            vol.Any("_", cv.slug),
        ),
        vol.Optional("system_health"): {
            vol.Optional("info"): slug_keys(VALUE, translation_key),
        },
        vol.Optional("common"): slug_keys(VALUE),
        # Sections hassfest knows and we do not use: an unknown key stays an error, and
        # whoever adds one of these also restates its rules here.
    },
    extra=vol.PREVENT_EXTRA,
)


def _walk(strings: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(strings, dict):
        for key, value in strings.items():
            yield from _walk(value, (*path, key))
    else:
        yield path, strings


def reference_errors(strings: dict[str, Any]) -> list[str]:
    """Our own references point to an existing key, one level deep (no reference to one)."""
    errors = []
    for path, value in _walk(strings):
        if not isinstance(value, str) or not (match := _REFERENCE.search(value)):
            continue
        parts = match.group(1).split("::")
        if parts[:2] != ["component", DOMAIN]:
            continue  # another integration's: hassfest resolves those for core only
        target: Any = strings
        for part in parts[2:]:
            target = target.get(part) if isinstance(target, dict) else None
        where = ".".join(path)
        if not isinstance(target, str):
            errors.append(f"{where}: reference {match.group(1)} points to no string")
        elif _REFERENCE.search(target):
            errors.append(f"{where}: reference {match.group(1)} points to another reference")
    return errors


def missing_data_descriptions(strings: dict[str, Any]) -> list[str]:
    """Every data field of every config and options step, sections included, is described."""
    missing = []
    for flow in ("config", "options"):
        for step_id, step in strings.get(flow, {}).get("step", {}).items():
            parts = [(f"{flow}.step.{step_id}", step)] + [
                (f"{flow}.step.{step_id}.sections.{name}", section)
                for name, section in step.get("sections", {}).items()
            ]
            missing.extend(
                f"{where}.data_description.{field}"
                for where, part in parts
                for field in part.get("data", {})
                if field not in part.get("data_description", {})
            )
    return missing


def strings_errors(strings: Any) -> list[str]:
    """Every error hassfest's rules and ours find in one strings file, as readable lines."""
    try:
        STRINGS_SCHEMA(strings)
    except vol.MultipleInvalid as err:
        errors = [f"{'.'.join(map(str, e.path))}: {e.msg}" for e in err.errors]
    except vol.Invalid as err:
        errors = [f"{'.'.join(map(str, err.path))}: {err.msg}"]
    else:
        errors = []
    if isinstance(strings, dict):
        errors += reference_errors(strings)
        errors += [f"{key}: missing" for key in missing_data_descriptions(strings)]
    return errors
