"""A play_media's pin or radio preset: the guarded Linn tool that decides it, and its id."""

from __future__ import annotations

from typing import Any

from homeassistant.components import media_source
from homeassistant.components.media_player import MediaType
from homeassistant.exceptions import ServiceValidationError

from ..const import DOMAIN, MEDIA_TYPE_PIN, MEDIA_TYPE_PRESET, MEDIA_TYPE_SOURCE

_ITEM_TOOLS: dict[str, tuple[str, str]] = {
    MEDIA_TYPE_PIN: ("play_pin", "pin"),
    MEDIA_TYPE_PRESET: ("play_radio_preset", "preset"),
}
"""A pin or a radio preset is its own tool, with its own policy (review 30f, V2): the
tool and the field that carries the item's id."""


def play_media_tool(media_type: MediaType | str, media_id: str) -> str | None:
    """The Linn tool that decides a play_media; None for a source (its select_source decides).

    A Home Assistant media id is resolved and played as a URL whatever its type: `play`.
    """
    if media_source.is_media_source_id(media_id):
        return "play"
    if media_type == MEDIA_TYPE_SOURCE:
        return None
    tool, _field = _ITEM_TOOLS.get(str(media_type), ("play", ""))
    return tool


def play_media_arguments(media_type: MediaType | str, media_id: str) -> dict[str, Any]:
    """The pin's or preset's id for its tool (an id that is no number: the tool refuses it)."""
    item = _ITEM_TOOLS.get(str(media_type))
    if item is None or media_source.is_media_source_id(media_id):
        return {}
    return {item[1]: int(media_id) if media_id.isdigit() else media_id}


def int_media_id(media_id: str, media_type: str) -> int:
    """The pin's or preset's id as the device takes it; a translated error if no number."""
    try:
        return int(media_id)
    except ValueError:
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key="invalid_media_id",
            translation_placeholders={"media_id": media_id, "media_type": media_type},
        ) from None
