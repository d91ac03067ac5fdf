"""The OpenHome and Linn services the emulator implements, one module each."""

from __future__ import annotations

from .base import ActionSpec, Args, ArgType, EmulatedService
from .config import ConfigService
from .info import InfoService, TimeService
from .media_renderer import AvTransportService, RenderingControlService
from .pins import PinsService
from .playlist import PlaylistService
from .product import ProductService
from .radio import RadioService
from .songcast import ReceiverService, SenderService
from .transport import TransportService
from .update import UpdateService
from .volume import VolumeService

SERVICE_TYPES: tuple[type[EmulatedService], ...] = (
    ProductService,
    VolumeService,
    TransportService,
    PlaylistService,
    RadioService,
    InfoService,
    TimeService,
    PinsService,
    ReceiverService,
    SenderService,
    UpdateService,
    ConfigService,
    RenderingControlService,
    AvTransportService,
)
ALL_SERVICES: frozenset[str] = frozenset(cls.name for cls in SERVICE_TYPES)

__all__ = [
    "ALL_SERVICES",
    "SERVICE_TYPES",
    "ActionSpec",
    "ArgType",
    "Args",
    "EmulatedService",
]
