"""SOAP control: parse an action request, write its response or a UPnP fault."""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape

SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/"
INVALID_ACTION = 401
INVALID_ARGS = 402


class SoapError(Exception):
    """A request that names no known action or carries bad arguments: a UPnP fault."""

    def __init__(self, code: int, description: str) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description


@dataclass(frozen=True, slots=True)
class SoapRequest:
    """One action call: the service type and action it names, and its arguments by name."""

    service_type: str
    action: str
    arguments: dict[str, str]


def parse_request(body: bytes, soap_action_header: str) -> SoapRequest:
    """Read the action element inside the SOAP body; it must match the SOAPAction header."""
    try:
        envelope = ET.fromstring(body)
    except ET.ParseError as err:
        raise SoapError(INVALID_ACTION, f"unparseable request: {err}") from None
    soap_body = envelope.find(f"{{{SOAP_ENV}}}Body")
    if soap_body is None or len(soap_body) != 1:
        raise SoapError(INVALID_ACTION, "no action in the SOAP body")
    element = soap_body[0]
    namespace, _, action = element.tag[1:].partition("}")
    header = soap_action_header.strip().strip('"')
    if header != f"{namespace}#{action}":
        raise SoapError(INVALID_ACTION, f"SOAPAction {header!r} does not match the body")
    return SoapRequest(namespace, action, {child.tag: child.text or "" for child in element})


def response_xml(request: SoapRequest, outputs: dict[str, str]) -> str:
    """The <ActionResponse> envelope with the out-arguments in order."""
    values = "".join(f"<{name}>{escape(value)}</{name}>" for name, value in outputs.items())
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        f'<s:Envelope xmlns:s="{SOAP_ENV}" '
        's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>'
        f'<u:{request.action}Response xmlns:u="{request.service_type}">{values}'
        f"</u:{request.action}Response></s:Body></s:Envelope>"
    )


def fault_xml(code: int, description: str) -> str:
    """A UPnPError fault (sent with HTTP 500)."""
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        f'<s:Envelope xmlns:s="{SOAP_ENV}" '
        's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><s:Fault>'
        "<faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>"
        '<UPnPError xmlns="urn:schemas-upnp-org:control-1-0">'
        f"<errorCode>{code}</errorCode><errorDescription>{escape(description)}"
        "</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>"
    )
