"""Small helpers shared by the integration's modules: device UDNs, entity entries, services."""

from __future__ import annotations

from collections.abc import Mapping
import re
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er

from .const import DOMAIN

# UDN handling shared by the config flow and setup.


def normalize_udn(udn: str) -> str:
    """'uuid:4C494E4E-…' (SSDP) and '4c494e4e-…' (LPEC ALIVE) name the same device."""
    udn = udn.strip()
    if udn[:5].lower() == "uuid:":
        udn = udn[5:]
    return udn.lower()


# The config entry of this integration behind an entity id.


@callback
def async_entry_of_entity(hass: HomeAssistant, entity_id: str) -> ConfigEntry | None:
    """The entry of one of our entities (None: not ours, or not registered)."""
    entity = er.async_get(hass).async_get(entity_id)
    if entity is None or entity.platform != DOMAIN or entity.config_entry_id is None:
        return None
    return hass.config_entries.async_get_entry(entity.config_entry_id)


# The OpenHome service versions a streamer declares in its UPnP device description.
#
# LPEC never says which version of a service a device implements; the description that
# SSDP discovery fetched does (serviceType urn:av-openhome-org:service:Product:4). Home
# Assistant hands it to the flow parsed into a dict (async_upnp_client's etree_to_dict:
# one <service> is a dict, several are a list).

_SERVICE_TYPE = re.compile(r"urn:(?:av-openhome-org|linn-co-uk):service:(\w+):(\d{1,4})")


def declared_versions(device: Mapping[str, Any]) -> dict[str, int]:
    """{"Product": 4, ...} from a parsed device description; {} when none is declared."""
    service_list = device.get("serviceList")
    services = service_list.get("service") if isinstance(service_list, Mapping) else None
    if isinstance(services, Mapping):
        services = [services]
    if not isinstance(services, list):
        return {}
    versions: dict[str, int] = {}
    for service in services:
        if not isinstance(service, Mapping):
            continue
        match = _SERVICE_TYPE.fullmatch(str(service.get("serviceType", "")).strip())
        if match and int(match[2]) >= 1:
            versions[match[1]] = max(versions.get(match[1], 0), int(match[2]))
    return versions
