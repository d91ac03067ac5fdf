"""The emulated device's OpenHome UPnP face: descriptions, SOAP control, over HTTP.

Written from the OpenHome service specs (av.openhome.org) and from what `openhomedevice`
2.5 (Home Assistant's core `openhome`) requests: it reads the device description and every
service description, then calls actions. That library subscribes to nothing, so GENA
(SUBSCRIBE / NOTIFY) is not served. Both faces drive the same `Device`, so a change made
over UPnP is evented over LPEC and the other way round.
"""

from __future__ import annotations

from .server import UpnpServer

__all__ = ["UpnpServer"]
