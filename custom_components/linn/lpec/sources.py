"""Product SourceXml: the list of sources a device offers."""

from __future__ import annotations

from dataclasses import dataclass

from .capabilities import SourceType
from .xmlsafe import child_text, local_name, parse_xml


@dataclass(frozen=True, slots=True)
class Source:
    """One source; `index` counts hidden sources, as SourceIndex does.

    `type` is the Type as the device spells it; `kind` is what the client knows it as.
    """

    index: int
    system_name: str
    type: str
    name: str
    visible: bool

    @property
    def kind(self) -> SourceType:
        """The source's type (case-insensitive; OTHER for types without a service)."""
        return SourceType.parse(self.type)


def parse_source_xml(text: str) -> tuple[Source, ...]:
    """Parse SourceXml; an empty tuple (and a log line) if it is not usable."""
    root = parse_xml(text, "SourceXml")
    if root is None:
        return ()
    sources: list[Source] = []
    for element in root:
        if local_name(element.tag) != "Source":
            continue
        name = child_text(element, "Name") or ""
        system_name = child_text(element, "SystemName") or name
        visible = (child_text(element, "Visible") or "true").lower() in ("true", "1")
        sources.append(
            Source(
                index=len(sources),
                system_name=system_name,
                type=child_text(element, "Type") or "",
                name=name,
                visible=visible,
            )
        )
    return tuple(sources)
