"""Product:4 (or an older version): identity, standby and sources.

Which actions each version has follows the service XML (ohNet `Product1.xml`, ohPipeline
`Product2-4.xml`): SetSourceBySystemName from 2, StandbyTransitioning from 3,
GetImageUri and ProductImageHiresUri from 4. ohNet looks an action up by name on the
service the device implements, so an older device answers a newer action with
501 "Action not implemented".
"""

from __future__ import annotations

from xml.sax.saxutils import escape as xml_escape

from ..errors import INVALID_SOURCE, DeviceError
from .base import Args, ArgType, EmulatedService, fmt_bool

PRODUCT_IMAGE = "https://www.linn.co.uk/images/products/selekt-dsm.png"


class ProductService(EmulatedService):
    """urn:av-openhome-org:service:Product:4."""

    name = "Product"
    version = 4

    def setup(self) -> None:
        """Declare the actions."""
        v = self.variables
        self.add(
            "Manufacturer",
            lambda _a: [
                v()[k]
                for k in (
                    "ManufacturerName",
                    "ManufacturerInfo",
                    "ManufacturerUrl",
                    "ManufacturerImageUri",
                )
            ],
            outputs=("Name", "Info", "Url", "ImageUri"),
        )
        self.add(
            "Model",
            lambda _a: [v()[k] for k in ("ModelName", "ModelInfo", "ModelUrl", "ModelImageUri")],
            outputs=("Name", "Info", "Url", "ImageUri"),
        )
        self.add(
            "Product",
            lambda _a: [
                v()[k]
                for k in (
                    "ProductRoom",
                    "ProductName",
                    "ProductInfo",
                    "ProductUrl",
                    "ProductImageUri",
                    "ProductImageHiresUri",
                )
            ],
            outputs=("Room", "Name", "Info", "Url", "ImageUri", "ImageHiresUri"),
        )
        self.getter("Standby", "Value", "Standby")
        if self.version >= 3:
            self.getter("StandbyTransitioning", "Value", "StandbyTransitioning")
        self.add("SetStandby", self._set_standby, [("Value", ArgType.BOOL)])
        self.getter("SourceCount", "Value", "SourceCount")
        self.getter("SourceXml", "Value", "SourceXml")
        self.getter("SourceIndex", "Value", "SourceIndex")
        self.add("SetSourceIndex", self._set_source_index, [("Value", ArgType.UINT)])
        self.add("SetSourceIndexByName", self._set_source_by_name, [("Value", ArgType.STRING)])
        if self.version >= 2:
            self.add(
                "SetSourceBySystemName",
                self._set_source_by_system_name,
                [("Value", ArgType.STRING)],
            )
        self.add(
            "Source",
            self._source,
            [("Index", ArgType.UINT)],
            ("SystemName", "Type", "Name", "Visible"),
        )
        self.getter("Attributes", "Value", "Attributes")
        self.add(
            "SourceXmlChangeCount",
            lambda _a: [str(self.state.source_xml_change_count)],
            outputs=("Value",),
        )
        if self.version >= 4:
            self.add(
                "GetImageUri",
                lambda _a: [PRODUCT_IMAGE],
                [("Resolution", ArgType.STRING)],
                ("ImageUri",),
            )

    def _set_standby(self, args: Args) -> list[str]:
        self.device.set_standby(args.bool("Value"))
        return []

    def _set_source_index(self, args: Args) -> list[str]:
        self.device.select_source_index(args.int("Value"))
        return []

    def _set_source_by_name(self, args: Args) -> list[str]:
        self.device.select_source_by_name(args.str("Value"))
        return []

    def _set_source_by_system_name(self, args: Args) -> list[str]:
        self.device.select_source(args.str("Value"))
        return []

    def _source(self, args: Args) -> list[str]:
        index = args.int("Index")
        if index >= len(self.state.sources):
            raise DeviceError(INVALID_SOURCE, f"Invalid source index {index}")
        source = self.state.sources[index]
        return [source.system_name, str(source.type), source.name, fmt_bool(source.visible)]

    def source_xml(self) -> str:
        """<SourceList> with every source, hidden ones included."""
        sources = "".join(
            f"<Source><SystemName>{xml_escape(source.system_name)}</SystemName>"
            f"<Type>{source.type}</Type><Name>{xml_escape(source.name)}</Name>"
            f"<Visible>{fmt_bool(source.visible)}</Visible></Source>"
            for source in self.state.sources
        )
        return f"<SourceList>{sources}</SourceList>"

    def attributes(self) -> str:
        """Product Attributes: the optional services present."""
        present = [
            name
            for name in ("Info", "Time", "Volume", "Sender", "Pins", "Receiver")
            if name in self.device.services
        ]
        return " ".join(present)

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        state = self.state
        model_slug = state.model.lower().replace(" ", "-")
        variables = {
            "ManufacturerName": state.manufacturer,
            "ManufacturerInfo": "Linn Products Ltd.",
            "ManufacturerUrl": "https://www.linn.co.uk",
            "ManufacturerImageUri": "https://www.linn.co.uk/images/linn-logo.png",
            "ModelName": state.model,
            "ModelInfo": f"Linn {state.model}",
            "ModelUrl": f"https://www.linn.co.uk/{model_slug}",
            "ModelImageUri": PRODUCT_IMAGE,
            "ProductRoom": state.room,
            "ProductName": state.name,
            "ProductInfo": "",
            "ProductUrl": "",
            "ProductImageUri": PRODUCT_IMAGE,
            "ProductImageHiresUri": PRODUCT_IMAGE,
            "Standby": fmt_bool(state.standby),
            "StandbyTransitioning": fmt_bool(state.standby_transitioning),
            "SourceIndex": str(state.source_index),
            "SourceCount": str(len(state.sources)),
            "SourceXml": self.source_xml(),
            "Attributes": self.attributes(),
        }
        if self.version < 4:
            del variables["ProductImageHiresUri"]
        if self.version < 3:
            del variables["StandbyTransitioning"]
        return variables


def product_service(version: int) -> type[ProductService]:
    """ProductService implementing Product:`version` (1-4)."""
    if not 1 <= version <= ProductService.version:
        raise ValueError(f"Product version {version} is not 1-{ProductService.version}")
    if version == ProductService.version:
        return ProductService
    older: type[ProductService] = type(
        f"ProductService{version}", (ProductService,), {"version": version}
    )
    return older
