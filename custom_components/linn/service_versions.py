"""The OpenHome service versions a streamer declares in its UPnP device description.

LPEC never says which version of a service a device implements; the description that
SSDP discovery fetched does (serviceType urn:av-openhome-org:service:Product:4). Home
Assistant hands it to the flow parsed into a dict (async_upnp_client's etree_to_dict:
one <service> is a dict, several are a list).
"""

from __future__ import annotations

from collections.abc import Mapping
import re
from typing import Any

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
