"""The rules Home Assistant and HACS apply to manifest.json and hacs.json, as schemas.

hassfest (`script/hassfest/manifest.py` in home-assistant/core) is not in the homeassistant
wheel, so its custom-integration rules (`CUSTOM_INTEGRATION_MANIFEST_SCHEMA`,
`validate_version`, `sort_manifest`, the IoT-class check) are restated here in probatio, the
voluptuous-compatible library Home Assistant 2026.10 validates with. What the installed package
does define is used directly: the integration types of `homeassistant.loader.Manifest`, HA's URL
validator and `valid_domain`. HACS's rules are those of `custom_components/hacs/utils/validate.py`
in hacs/integration (`HACS_MANIFEST_JSON_SCHEMA`, `INTEGRATION_MANIFEST_JSON_SCHEMA`), documented
at https://hacs.xyz/docs/publish/start.
"""

from typing import Any, get_args, get_type_hints
from urllib.parse import urlparse

from awesomeversion import AwesomeVersion, AwesomeVersionException, AwesomeVersionStrategy
from homeassistant.core import valid_domain
from homeassistant.generated.countries import COUNTRIES
from homeassistant.helpers import config_validation as cv
from homeassistant.loader import Manifest
import probatio as vol

# hassfest: SUPPORTED_IOT_CLASSES
IOT_CLASSES = [
    "assumed_state",
    "calculated",
    "cloud_polling",
    "cloud_push",
    "local_polling",
    "local_push",
]
# hassfest: ScaledQualityScaleTiers + NonScaledQualityScaleTiers
QUALITY_SCALES = [
    "bronze",
    "silver",
    "gold",
    "platinum",
    "custom",
    "no_score",
    "internal",
    "legacy",
]
# A virtual integration has its own, much smaller schema; this integration is not one.
INTEGRATION_TYPES = [
    t for t in get_args(get_type_hints(Manifest)["integration_type"]) if t != "virtual"
]
CORE_DOCUMENTATION = "https://www.home-assistant.io/integrations"


def _version(value: str) -> str:
    """Both hassfest and the loader accept only these version strategies."""
    try:
        AwesomeVersion(
            value,
            ensure_strategy=[
                AwesomeVersionStrategy.CALVER,
                AwesomeVersionStrategy.SEMVER,
                AwesomeVersionStrategy.SIMPLEVER,
                AwesomeVersionStrategy.BUILDVER,
                AwesomeVersionStrategy.PEP440,
            ],
        )
    except AwesomeVersionException as err:
        raise vol.Invalid(f"'{value}' is not a valid version") from err
    return value


def _custom_documentation(value: str) -> str:
    if urlparse(value).scheme != "https":
        raise vol.Invalid("documentation url is not https")
    if value.startswith(CORE_DOCUMENTATION):
        raise vol.Invalid("documentation must point to the custom integration's own docs")
    return value


def _domain(value: str) -> str:
    if not valid_domain(value):
        raise vol.Invalid(f"'{value}' is not a valid integration domain")
    return value


def _countries(value: str | list[str]) -> str | list[str]:
    """HACS: ISO 3166 alpha-2 codes, any case, plus "UK"."""
    for code in [value] if isinstance(value, str) else value:
        if code.upper() not in COUNTRIES | {"UK"}:
            raise vol.Invalid(f"'{code}' is not an ISO 3166 country code")
    return value


def _ssdp_matchers(value: Any) -> Any:
    return vol.Schema([vol.All(vol.Schema({}, extra=vol.ALLOW_EXTRA), vol.Length(min=1))])(value)


# hassfest's INTEGRATION_MANIFEST_SCHEMA extended as CUSTOM_INTEGRATION_MANIFEST_SCHEMA, with
# `version` (validate_version) and `iot_class` (required outside hassfest's NO_IOT_CLASS list)
# required. The discovery matchers this integration does not use are checked only for their
# container type.
CUSTOM_INTEGRATION_MANIFEST = vol.Schema(
    {
        vol.Required("domain"): vol.All(str, _domain),
        vol.Required("name"): str,
        vol.Optional("integration_type"): vol.In(INTEGRATION_TYPES),
        vol.Optional("config_flow"): bool,
        vol.Optional("ssdp"): _ssdp_matchers,
        vol.Optional("zeroconf"): list,
        vol.Optional("bluetooth"): list,
        vol.Optional("dhcp"): list,
        vol.Optional("usb"): list,
        vol.Optional("mqtt"): [str],
        vol.Optional("homekit"): dict,
        vol.Optional("preview_features"): dict,
        vol.Required("documentation"): vol.All(cv.url, _custom_documentation),
        vol.Optional("issue_tracker"): cv.url,
        vol.Optional("quality_scale"): vol.In(QUALITY_SCALES),
        vol.Optional("requirements"): [str],
        vol.Optional("dependencies"): [str],
        vol.Optional("after_dependencies"): [str],
        vol.Required("codeowners"): [str],
        vol.Optional("loggers"): [str],
        vol.Optional("disabled"): str,
        vol.Required("iot_class"): vol.In(IOT_CLASSES),
        vol.Optional("single_config_entry"): bool,
        vol.Required("version"): vol.All(str, _version),
        vol.Optional("import_executor"): bool,
    },
    extra=vol.PREVENT_EXTRA,
)

# HACS: INTEGRATION_MANIFEST_JSON_SCHEMA (what HACS needs from manifest.json)
HACS_INTEGRATION_MANIFEST = vol.Schema(
    {
        vol.Required("codeowners"): list,
        vol.Required("documentation"): cv.url,
        vol.Required("domain"): str,
        vol.Required("issue_tracker"): cv.url,
        vol.Required("name"): str,
        vol.Required("version"): vol.Coerce(AwesomeVersion),
    },
    extra=vol.ALLOW_EXTRA,
)

# HACS: HACS_MANIFEST_JSON_SCHEMA (hacs.json); an unknown key is an error.
HACS_JSON = vol.Schema(
    {
        vol.Optional("content_in_root"): bool,
        vol.Optional("country"): vol.All(vol.Any(str, [str]), _countries),
        vol.Optional("filename"): str,
        vol.Optional("hacs"): vol.Coerce(AwesomeVersion),
        vol.Optional("hide_default_branch"): bool,
        vol.Optional("homeassistant"): vol.Coerce(AwesomeVersion),
        vol.Optional("persistent_directory"): str,
        vol.Optional("render_readme"): bool,
        vol.Optional("zip_release"): bool,
        vol.Required("name"): str,
    },
    extra=vol.PREVENT_EXTRA,
)


def keys_in_hassfest_order(manifest: dict[str, Any]) -> bool:
    """hassfest's sort_manifest: domain, name, then the other keys alphabetically."""
    keys = list(manifest)
    return keys == sorted(keys, key=lambda key: {"domain": "0", "name": "1"}.get(key, f"2{key}"))
