"""HTTP/1.1 with keep-alive on asyncio streams: descriptions (GET) and SOAP control (POST).

Counts requests and bytes both ways, so a benchmark can report what a UPnP client costs
on the wire.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
import contextlib
import logging

from ..errors import DeviceError
from ..model import EmulatedDeviceState
from ..services import ActionSpec, EmulatedService
from .descriptions import device_xml, scpd_xml, service_type
from .soap import (
    INVALID_ACTION,
    INVALID_ARGS,
    SoapError,
    SoapRequest,
    fault_xml,
    parse_request,
    response_xml,
)

_LOGGER = logging.getLogger(__name__)

MAX_HEAD = 16 * 1024
MAX_BODY = 1024 * 1024
IDLE_TIMEOUT = 60.0
ACTION_FAILED = 501


class HttpError(Exception):
    """A request the server answers with an HTTP error status and no SOAP body."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"{status} {reason}")
        self.status = status
        self.reason = reason


class UpnpServer:
    """Serves one device's `Ds` services at http://host:port/<udn>/Upnp/."""

    def __init__(
        self,
        *,
        host: str,
        port: int,
        state: EmulatedDeviceState,
        services: dict[str, EmulatedService],
        record_failure: Callable[[Exception], None],
        response_delay: Callable[[], float],
    ) -> None:
        self.host = host
        self._port = port
        self._state = state
        self._services = {name: s for name, s in services.items() if s.device_name == "Ds"}
        self._by_type = {service_type(s): s for s in self._services.values()}
        self._record_failure = record_failure
        self._response_delay = response_delay
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.requests = 0
        """HTTP requests served (descriptions and actions)."""
        self.actions: Counter[str] = Counter()
        """SOAP actions called, by "Service.Action"."""
        self.bytes_received = 0
        self.bytes_sent = 0

    @property
    def base_path(self) -> str:
        """Where the device's documents live: /<udn>/Upnp/."""
        return f"/{self._state.udn}/Upnp/"

    @property
    def port(self) -> int:
        """The TCP port (the real one once listening with port 0)."""
        if self._server is not None and self._server.sockets:
            return int(self._server.sockets[0].getsockname()[1])
        return self._port

    @property
    def location(self) -> str:
        """The device description URL, as SSDP would announce it."""
        return f"http://{self.host}:{self.port}{self.base_path}device.xml"

    async def start(self) -> None:
        """Listen (on the same port again after a stop)."""
        self._server = await asyncio.start_server(
            self._serve, self.host, self._port, limit=MAX_HEAD
        )
        self._port = self.port

    async def stop(self) -> None:
        """Stop listening and close every connection."""
        if self._server is None:
            return
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        await self._server.wait_closed()
        self._server = None

    # --- connections ------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            while await self._serve_one(reader, writer):
                pass
        except TimeoutError, ConnectionError, asyncio.IncompleteReadError:
            pass
        except asyncio.LimitOverrunError:
            self._write(writer, 431, "Request Header Fields Too Large", b"", close=True)
        except Exception as err:
            _LOGGER.exception("emulator bug: the UPnP server failed")
            self._record_failure(err)
        finally:
            self._writers.discard(writer)
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Answer one request; False when the connection should close."""
        async with asyncio.timeout(IDLE_TIMEOUT):
            head = await reader.readuntil(b"\r\n\r\n")
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in header_lines if line)
        }
        length = int(headers.get("content-length", "0") or 0)
        if length > MAX_BODY:
            self._write(writer, 413, "Payload Too Large", b"", close=True)
            return False
        body = await reader.readexactly(length) if length else b""
        self.bytes_received += len(head) + len(body)
        self.requests += 1
        method, path, version = [*request_line.split(" "), "", "", ""][:3]
        close = headers.get("connection", "").lower() == "close" or version == "HTTP/1.0"
        try:
            status, reason, payload = await self._handle(method, path, headers, body)
        except HttpError as err:
            status, reason, payload = err.status, err.reason, b""
        self._write(writer, status, reason, payload, close=close)
        await writer.drain()
        return not close

    def _write(
        self, writer: asyncio.StreamWriter, status: int, reason: str, body: bytes, *, close: bool
    ) -> None:
        head = (
            f"HTTP/1.1 {status} {reason}\r\n"
            'Content-Type: text/xml; charset="utf-8"\r\n'
            f"Content-Length: {len(body)}\r\n"
            "Server: Linux UPnP/1.0 linn-emulator/1.0\r\n"
            f"Connection: {'close' if close else 'keep-alive'}\r\n\r\n"
        ).encode()
        self.bytes_sent += len(head) + len(body)
        writer.write(head + body)

    # --- requests ---------------------------------------------------------------

    async def _handle(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, str, bytes]:
        if not path.startswith(self.base_path):
            raise HttpError(404, "Not Found")
        rest = path[len(self.base_path) :]
        if rest == "device.xml":
            self._expect(method, "GET")
            services = list(self._services.values())
            return 200, "OK", device_xml(self._state, services, self.base_path).encode()
        name, _, leaf = rest.partition("/")
        service = self._services.get(name)
        if service is None:
            raise HttpError(404, "Not Found")
        if leaf == "scpd.xml":
            self._expect(method, "GET")
            return 200, "OK", scpd_xml(service).encode()
        if leaf == "control":
            self._expect(method, "POST")
            return await self._control(service, headers.get("soapaction", ""), body)
        if leaf == "event":
            # openhomedevice 2.5 never subscribes; GENA is not emulated.
            raise HttpError(501, "Not Implemented")
        raise HttpError(404, "Not Found")

    @staticmethod
    def _expect(method: str, allowed: str) -> None:
        if method != allowed:
            raise HttpError(405, "Method Not Allowed")

    def _resolve(self, service: EmulatedService, request: SoapRequest) -> ActionSpec:
        """The action a request names on this service, its arguments all present."""
        if self._by_type.get(request.service_type) is not service:
            raise SoapError(INVALID_ACTION, f"not this service: {request.service_type}")
        spec = service.actions.get(request.action)
        if spec is None:
            raise SoapError(INVALID_ACTION, f"no action {request.action}")
        names = {name for name, _kind in spec.inputs}
        if set(request.arguments) != names:
            raise SoapError(INVALID_ARGS, "Invalid Args")
        return spec

    async def _control(
        self, service: EmulatedService, soap_action: str, body: bytes
    ) -> tuple[int, str, bytes]:
        try:
            request = parse_request(body, soap_action)
            spec = self._resolve(service, request)
            self.actions[f"{service.name}.{spec.name}"] += 1
            values = spec.invoke([request.arguments[name] for name, _kind in spec.inputs])
            delay = self._response_delay()
            if delay:
                await asyncio.sleep(delay)
            outputs = dict(zip(spec.outputs, values, strict=True))
            return 200, "OK", response_xml(request, outputs).encode()
        except SoapError as err:
            return 500, "Internal Server Error", fault_xml(err.code, err.description).encode()
        except DeviceError as err:
            return 500, "Internal Server Error", fault_xml(err.code, err.description).encode()
        except Exception as err:
            _LOGGER.exception("emulator bug: UPnP action failed")
            self._record_failure(err)
            return 500, "Internal Server Error", fault_xml(ACTION_FAILED, "Action Failed").encode()
