"""Remembered preferences: short facts per Home Assistant user, in HA storage, bounded.

Only the `remember` / `forget` tools write them, through the guard, which lets them run only
when the user's own words ask for it in a conversation that never read device text. The
facts reach the model as data (in the turn facts), never in the system prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Any, Final

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.singleton import singleton
from homeassistant.helpers.storage import Store
from homeassistant.util import dt as dt_util
from homeassistant.util.hass_dict import HassKey

from ..const import DOMAIN
from ..guard import clean_text

STORAGE_VERSION: Final = 1
STORAGE_KEY: Final = f"{DOMAIN}.assistant_memory"
SAVE_DELAY: Final = 1.0
MAX_FACTS: Final = 10
"""Facts kept per user."""
MAX_FACT_CHARS: Final = 120
FACT_ID: Final = re.compile(r"^r([1-9][0-9]{0,2})$")
DATA_MEMORY: HassKey[AssistantMemory] = HassKey(f"{DOMAIN}_assistant_memory")


class MemoryFull(Exception):
    """The user already has MAX_FACTS facts."""


@dataclass(frozen=True, slots=True)
class Fact:
    """One remembered fact: its short id (r1, r2 ...), text and when it was added."""

    id: str
    text: str
    added: str

    def as_data(self) -> dict[str, str]:
        """How the model sees it."""
        return {"id": self.id, "fact": self.text}


class AssistantMemory:
    """Every user's facts; saved (debounced) after each change."""

    def __init__(self, hass: HomeAssistant) -> None:
        self._store: Store[dict[str, Any]] = Store(hass, STORAGE_VERSION, STORAGE_KEY)
        self._facts: dict[str, list[Fact]] = {}

    async def async_load(self) -> None:
        """Read the stored facts (bounds applied again, in case the file was edited)."""
        data = await self._store.async_load() or {}
        for user_id, items in (data.get("users") or {}).items():
            facts = []
            for item in items[:MAX_FACTS]:
                text = clean_text(str(item.get("text", "")), MAX_FACT_CHARS)
                if text and FACT_ID.match(str(item.get("id", ""))):
                    facts.append(Fact(str(item["id"]), text, str(item.get("added", ""))))
            if facts:
                self._facts[str(user_id)] = facts

    def facts(self, user_id: str | None) -> list[Fact]:
        """One user's facts, oldest first (none for an unidentified caller)."""
        return list(self._facts.get(user_id, [])) if user_id else []

    def all_facts(self) -> dict[str, list[Fact]]:
        """Every user's facts (diagnostics)."""
        return {user_id: list(facts) for user_id, facts in self._facts.items()}

    @callback
    def remember(self, user_id: str, text: str) -> Fact:
        """Add a fact (an identical one is not added twice); MemoryFull when at the bound."""
        cleaned = clean_text(text, MAX_FACT_CHARS) or ""
        facts = self._facts.setdefault(user_id, [])
        for fact in facts:
            if fact.text.casefold() == cleaned.casefold():
                return fact
        if len(facts) >= MAX_FACTS:
            raise MemoryFull
        used = {fact.id for fact in facts}
        number = next(n for n in range(1, MAX_FACTS + 2) if f"r{n}" not in used)
        fact = Fact(f"r{number}", cleaned, dt_util.utcnow().isoformat(timespec="seconds"))
        facts.append(fact)
        self._save()
        return fact

    @callback
    def forget(self, user_id: str, fact_id: str) -> bool:
        """Remove one fact by id; False when the user has no such fact."""
        facts = self._facts.get(user_id, [])
        kept = [fact for fact in facts if fact.id != fact_id]
        if len(kept) == len(facts):
            return False
        if kept:
            self._facts[user_id] = kept
        else:
            del self._facts[user_id]
        self._save()
        return True

    @callback
    def clear(self, user_id: str | None = None) -> int:
        """Remove one user's facts, or everyone's; the number of facts removed."""
        if user_id is None:
            removed = sum(len(facts) for facts in self._facts.values())
            self._facts.clear()
        else:
            removed = len(self._facts.pop(user_id, []))
        if removed:
            self._save()
        return removed

    def _save(self) -> None:
        self._store.async_delay_save(self._data, SAVE_DELAY)

    def _data(self) -> dict[str, Any]:
        return {
            "users": {
                user_id: [{"id": f.id, "text": f.text, "added": f.added} for f in facts]
                for user_id, facts in self._facts.items()
            }
        }


@singleton(DATA_MEMORY, async_=True)
async def async_get_memory(hass: HomeAssistant) -> AssistantMemory:
    """The memory of this Home Assistant, loaded once."""
    memory = AssistantMemory(hass)
    await memory.async_load()
    return memory
