"""Base entity: device info, availability from the LPEC session, pushed updates."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any, cast

from homeassistant.core import callback
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity import Entity

from .const import DOMAIN, MANUFACTURER
from .helpers import normalize_udn
from .lpec import (
    LinnDevice,
    LpecError,
    LpecInvalidArgumentError,
    LpecUnsupportedError,
    Service,
)

_NOTHING_WRITTEN = object()


def command[F: Callable[..., Awaitable[Any]]](func: F) -> F:
    """Turn library errors into translated Home Assistant errors."""

    @wraps(func)
    async def wrapper(self: LinnEntity, *args: Any, **kwargs: Any) -> Any:
        try:
            return await func(self, *args, **kwargs)
        except LpecInvalidArgumentError as err:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="invalid_argument",
                translation_placeholders={"entity_id": self.entity_id, "error": str(err)},
            ) from err
        except LpecUnsupportedError as err:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="not_supported",
                translation_placeholders={"entity_id": self.entity_id, "error": str(err)},
            ) from err
        except LpecError as err:
            raise HomeAssistantError(
                translation_domain=DOMAIN,
                translation_key="command_failed",
                translation_placeholders={
                    "command": func.__name__.removeprefix("async_"),
                    "entity_id": self.entity_id,
                    "error": str(err) or type(err).__name__,
                },
            ) from err

    return cast(F, wrapper)


def streamer_device_info(device: LinnDevice, *, area: str | None = None) -> DeviceInfo:
    """The streamer's device, from the identity it reported on connect.

    `area`: the suggested area, which Home Assistant uses only when it creates the device
    (a device already registered keeps the area it has, or has none).
    """
    udn = normalize_udn(device.udn or "")
    product = device.state.product
    info = DeviceInfo(
        identifiers={(DOMAIN, udn)},
        manufacturer=product.manufacturer or MANUFACTURER,
        model=product.model,
        name=product.room or product.name or product.model or "Linn",
        serial_number=udn,
        sw_version=device.state.update.software.current_version,
    )
    if area:
        info["suggested_area"] = area
    return info


class LinnEntity(Entity):
    """An entity of one Linn streamer; the device pushes, nothing polls."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, device: LinnDevice, unique_suffix: str | None = None) -> None:
        """Describe the device from the state it reported on connect."""
        self.device = device
        self.udn = normalize_udn(device.udn or "")
        self._attr_unique_id = self.udn if unique_suffix is None else f"{self.udn}_{unique_suffix}"
        self._attr_device_info = streamer_device_info(device)

    @property
    def available(self) -> bool:
        """Available while the LPEC session is up."""
        return self.device.available

    async def async_added_to_hass(self) -> None:
        """Follow the device's pushed changes and its availability."""
        self.async_on_remove(self.device.add_listener(self._on_device_change))
        self.async_on_remove(self.device.add_availability_listener(self._on_availability))

    @callback
    def _on_device_change(self, changed: frozenset[Service]) -> None:
        if self.relevant_services is None or not changed.isdisjoint(self.relevant_services):
            self.async_write_if_shown_changed()

    @callback
    def _on_availability(self, _available: bool) -> None:
        self.async_write_ha_state()

    relevant_services: frozenset[Service] | None = None
    """Services whose changes affect this entity; None means all."""

    _shown_written: object = _NOTHING_WRITTEN

    @callback
    def async_write_if_shown_changed(self) -> None:
        """Write the state unless nothing Home Assistant shows has changed since the last write.

        The device tells its listeners once per read of its socket, after every event of
        that read has applied: several events that arrive together make one write, which
        shows the last value of each.
        """
        shown = self.shown_key()
        if shown is not None and shown == self._shown_written:
            return
        self._shown_written = shown
        self.async_write_ha_state()

    def shown_key(self) -> object:
        """Everything of the device's state this entity shows, compared with ==.

        Compared on every relevant change: keep it cheap to compute.

        None (the default) writes on every relevant change. It may hold more than is shown
        (an extra write is harmless), never less (a change would not reach Home Assistant).
        """
        return None
