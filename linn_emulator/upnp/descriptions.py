"""The device description (device.xml) and one service description (SCPD) per service."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from ..model import EmulatedDeviceState
from ..services import EmulatedService
from .types import out_type

DEVICE_TYPE = "urn:linn-co-uk:device:Source:1"
LINN_SERVICES = frozenset({"Update"})
"""Services in Linn's own domain; the others are OpenHome's."""


def service_type(service: EmulatedService) -> str:
    """The serviceType URN, e.g. urn:av-openhome-org:service:Product:4."""
    return f"urn:{_domain(service)}:service:{service.name}:{service.version}"


def service_id(service: EmulatedService) -> str:
    """The serviceId URN, e.g. urn:av-openhome-org:serviceId:Product."""
    return f"urn:{_domain(service)}:serviceId:{service.name}"


def _domain(service: EmulatedService) -> str:
    return "linn-co-uk" if service.name in LINN_SERVICES else "av-openhome-org"


def device_xml(
    state: EmulatedDeviceState, services: Iterable[EmulatedService], base_path: str
) -> str:
    """The root device with the `Ds` services; URLs relative to `base_path` (".../Upnp/")."""
    entries = "".join(
        "<service>"
        f"<serviceType>{service_type(s)}</serviceType>"
        f"<serviceId>{service_id(s)}</serviceId>"
        f"<SCPDURL>{base_path}{s.name}/scpd.xml</SCPDURL>"
        f"<controlURL>{base_path}{s.name}/control</controlURL>"
        f"<eventSubURL>{base_path}{s.name}/event</eventSubURL>"
        "</service>"
        for s in services
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<root xmlns="urn:schemas-upnp-org:device-1-0">'
        "<specVersion><major>1</major><minor>1</minor></specVersion>"
        "<device>"
        f"<deviceType>{DEVICE_TYPE}</deviceType>"
        f"<friendlyName>{escape(f'{state.room}:{state.name}')}</friendlyName>"
        f"<manufacturer>{escape(state.manufacturer)}</manufacturer>"
        "<manufacturerURL>https://www.linn.co.uk</manufacturerURL>"
        f"<modelName>{escape(state.model)}</modelName>"
        f"<UDN>uuid:{state.udn}</UDN>"
        f"<serviceList>{entries}</serviceList>"
        "</device></root>"
    )


def argument_variable(action: str, argument: str) -> str:
    """The state variable an argument relates to (one per argument: its type)."""
    return f"A_ARG_{action}_{argument}"


def scpd_xml(service: EmulatedService) -> str:
    """Actions with typed arguments, and the state variables that carry the types."""
    actions: list[str] = []
    variables: list[str] = []
    for spec in service.actions.values():
        arguments = [(name, "in", kind) for name, kind in spec.inputs] + [
            (name, "out", out_type(service.name, spec.name, name)) for name in spec.outputs
        ]
        argument_xml = "".join(
            f"<argument><name>{name}</name><direction>{direction}</direction>"
            f"<relatedStateVariable>{argument_variable(spec.name, name)}"
            "</relatedStateVariable></argument>"
            for name, direction, _kind in arguments
        )
        actions.append(
            f"<action><name>{spec.name}</name><argumentList>{argument_xml}</argumentList></action>"
        )
        variables.extend(
            f'<stateVariable sendEvents="no"><name>{argument_variable(spec.name, name)}</name>'
            f"<dataType>{kind}</dataType></stateVariable>"
            for name, _direction, kind in arguments
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<scpd xmlns="urn:schemas-upnp-org:service-1-0">'
        "<specVersion><major>1</major><minor>0</minor></specVersion>"
        f"<actionList>{''.join(actions)}</actionList>"
        f"<serviceStateTable>{''.join(variables)}</serviceStateTable>"
        "</scpd>"
    )
