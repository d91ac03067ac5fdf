"""Config flow: SSDP discovery, manual host/port, reconfigure. The UDN is the unique id."""

from __future__ import annotations

from dataclasses import dataclass
import ipaddress
import logging
import re
from typing import Any
from urllib.parse import urlparse

from homeassistant.config_entries import ConfigEntry, ConfigFlowResult, OptionsFlow
from homeassistant.const import CONF_HOST, CONF_PORT
from homeassistant.core import callback
from homeassistant.helpers.service_info.ssdp import (
    ATTR_UPNP_FRIENDLY_NAME,
    ATTR_UPNP_MODEL_NAME,
    ATTR_UPNP_UDN,
    SsdpServiceInfo,
)
import probatio

from .agent.config_flow import AssistantOptionsFlow, AssistantSteps
from .const import (
    CONF_SERVICE_VERSIONS,
    CONNECT_TIMEOUT,
    DEFAULT_PORT,
    DOMAIN,
    is_assistant_data,
)
from .helpers import declared_versions, normalize_udn
from .lpec import LinnDevice, LpecError, Service
from .options_flow import LinnOptionsFlow

_LOGGER = logging.getLogger(__name__)

_HOSTNAME_RE = re.compile(
    r"^(?=.{1,253}$)(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?$"
)


def _schema(host: str = "", port: int = DEFAULT_PORT) -> probatio.Schema:
    return probatio.Schema(
        {
            probatio.Required(CONF_HOST, default=host): str,
            probatio.Required(CONF_PORT, default=port): probatio.All(
                probatio.Coerce(int), probatio.Range(min=1, max=65535)
            ),
        }
    )


def valid_host(host: str) -> bool:
    """An IP address or a DNS name: no scheme, path, port or spaces."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return bool(_HOSTNAME_RE.match(host))
    return True


@dataclass(frozen=True, slots=True)
class DeviceIdentity:
    """What a successful LPEC connection tells us about a device."""

    udn: str
    room: str
    model: str


async def async_identify(host: str, port: int) -> DeviceIdentity:
    """Connect over LPEC, read identity, disconnect; raises LpecError.

    Product alone names the device: a Linn has few LPEC sessions and subscriptions.
    """
    device = LinnDevice(
        host,
        port,
        connect_timeout=CONNECT_TIMEOUT,
        keepalive_interval=3600,
        services=(Service.PRODUCT,),
    )
    try:
        await device.connect()
        product = device.state.product
        return DeviceIdentity(
            udn=normalize_udn(device.udn or ""),
            room=product.room or product.name or host,
            model=product.model or "Linn",
        )
    finally:
        await device.close()


class LinnConfigFlow(AssistantSteps, domain=DOMAIN):
    """Add a Linn streamer or a Claude assistant."""

    VERSION = 1
    MINOR_VERSION = 2

    def __init__(self) -> None:
        """Nothing discovered yet."""
        self._host: str | None = None
        self._port: int = DEFAULT_PORT
        self._identity: DeviceIdentity | None = None
        self._versions: dict[str, int] = {}

    async def _async_try(
        self, user_input: dict[str, Any], errors: dict[str, str]
    ) -> tuple[str, int, DeviceIdentity | None]:
        """Check the entered address; on success the flow's unique id is the device UDN."""
        host: str = user_input[CONF_HOST].strip()
        port: int = user_input[CONF_PORT]
        if not valid_host(host):
            errors[CONF_HOST] = "invalid_host"
            return host, port, None
        try:
            identity = await async_identify(host, port)
        except LpecError as err:
            _LOGGER.debug("Cannot reach a Linn at %s:%s: %s", host, port, err)
            errors["base"] = "cannot_connect"
            return host, port, None
        await self.async_set_unique_id(identity.udn, raise_on_progress=False)
        return host, port, identity

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry) -> OptionsFlow:
        """An assistant's model and limits; a streamer's rules for assistants' tools."""
        if is_assistant_data(config_entry.data):
            return AssistantOptionsFlow()
        return LinnOptionsFlow()

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """What to add: a streamer or an assistant."""
        return self.async_show_menu(step_id="user", menu_options=["streamer", "assistant"])

    async def async_step_streamer(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Manual entry: host and port."""
        errors: dict[str, str] = {}
        if user_input is not None:
            host, port, identity = await self._async_try(user_input, errors)
            if identity is not None:
                self._abort_if_unique_id_configured(updates={CONF_HOST: host, CONF_PORT: port})
                return self.async_create_entry(
                    title=identity.room, data={CONF_HOST: host, CONF_PORT: port}
                )
            return self.async_show_form(
                step_id="streamer", data_schema=_schema(host, port), errors=errors
            )
        return self.async_show_form(step_id="streamer", data_schema=_schema(), errors=errors)

    async def async_step_ssdp(self, discovery_info: SsdpServiceInfo) -> ConfigFlowResult:
        """An OpenHome Product service was announced; offer it only if it speaks LPEC."""
        udn = discovery_info.upnp.get(ATTR_UPNP_UDN) or discovery_info.ssdp_udn
        host = urlparse(discovery_info.ssdp_location or "").hostname
        if not udn or not host:
            return self.async_abort(reason="not_linn_device")
        await self.async_set_unique_id(normalize_udn(udn))
        versions = declared_versions(discovery_info.upnp)
        updates: dict[str, Any] = {CONF_HOST: host}
        if versions:  # the device's own word, newer than what the entry has
            updates[CONF_SERVICE_VERSIONS] = versions
        self._abort_if_unique_id_configured(updates=updates)
        try:
            identity = await async_identify(host, DEFAULT_PORT)
        except LpecError:
            # Volumio and other OpenHome renderers announce Product but have no LPEC.
            return self.async_abort(reason="not_linn_device")
        if identity.udn != self.unique_id:
            return self.async_abort(reason="not_linn_device")
        self._host, self._port, self._identity = host, DEFAULT_PORT, identity
        self._versions = versions
        name = discovery_info.upnp.get(ATTR_UPNP_FRIENDLY_NAME) or identity.room
        model = discovery_info.upnp.get(ATTR_UPNP_MODEL_NAME) or identity.model
        self.context["title_placeholders"] = {"name": str(name)}
        self._identity = DeviceIdentity(identity.udn, identity.room, str(model))
        return await self.async_step_confirm()

    async def async_step_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask before adding a discovered device."""
        assert self._identity is not None
        assert self._host is not None
        if user_input is not None:
            data: dict[str, Any] = {CONF_HOST: self._host, CONF_PORT: self._port}
            if self._versions:
                data[CONF_SERVICE_VERSIONS] = self._versions
            return self.async_create_entry(title=self._identity.room, data=data)
        self._set_confirm_only()
        return self.async_show_form(
            step_id="confirm",
            description_placeholders={"room": self._identity.room, "model": self._identity.model},
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """New host or port for the same device; an assistant's own step for its key and URL."""
        entry = self._get_reconfigure_entry()
        if is_assistant_data(entry.data):
            return await self.async_step_reconfigure_assistant()
        errors: dict[str, str] = {}
        if user_input is not None:
            host, port, identity = await self._async_try(user_input, errors)
            if identity is not None:
                self._abort_if_unique_id_mismatch(reason="wrong_device")
                return self.async_update_reload_and_abort(
                    entry, data_updates={CONF_HOST: host, CONF_PORT: port}
                )
        else:
            host, port = entry.data[CONF_HOST], entry.data[CONF_PORT]
        return self.async_show_form(
            step_id="reconfigure", data_schema=_schema(host, port), errors=errors
        )
