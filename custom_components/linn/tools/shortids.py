"""Short per-conversation ids for search results (m1, m2 ...): models mangle long ids."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

MAX_CONVERSATIONS = 50
MAX_ITEMS = 200


@dataclass(frozen=True, slots=True)
class MediaRef:
    """What a short id stands for; resolved in code, never shown to a model."""

    entity_id: str
    media_content_type: str
    media_content_id: str


class ShortIds:
    """Per conversation: m1 -> MediaRef, numbered on from the last search."""

    def __init__(self) -> None:
        self._books: OrderedDict[str, dict[str, MediaRef]] = OrderedDict()

    def add(self, conversation: str, ref: MediaRef) -> str:
        """A new short id for `ref` in this conversation."""
        book = self._books.setdefault(conversation, {})
        self._books.move_to_end(conversation)
        while len(self._books) > MAX_CONVERSATIONS:
            self._books.popitem(last=False)
        short = f"m{len(book) + 1}"
        if len(book) >= MAX_ITEMS:
            book.clear()
            short = "m1"
        book[short] = ref
        return short

    def resolve(self, conversation: str, short: str) -> MediaRef | None:
        """The reference behind a short id of this conversation, if any."""
        return self._books.get(conversation, {}).get(short.strip().lower())
