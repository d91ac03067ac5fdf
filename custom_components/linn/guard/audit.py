"""A tamper-evident audit log: every attempt's final outcome, hash-chained.

Each record's hash covers the previous record's hash and its own canonical content, so
changing, inserting or deleting a record breaks the chain from there on. Rotation keeps
the newest records; the hash of the last dropped record becomes the anchor the kept
segment is verified against.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
import hashlib
from typing import Any

from .canonical import canonical_json
from .decisions import Outcome

GENESIS = "0" * 64
DEFAULT_MAX_RECORDS = 2000


class ChainError(Exception):
    """The chain does not verify; `index` is the first bad record."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"audit record {index}: {reason}")
        self.index = index
        self.reason = reason


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One attempt and how it ended."""

    seq: int
    ts: str
    outcome: Outcome
    tool: str
    user_id: str | None
    agent_id: str | None
    conversation_id: str | None
    arguments: dict[str, Any]
    args_hash: str
    reason: str
    latency_ms: float
    request_id: str | None = None
    entity_ids: tuple[str, ...] = ()
    prev_hash: str = GENESIS
    hash: str = field(default="")

    def content(self) -> dict[str, Any]:
        """Everything the hash covers (all but the hash itself)."""
        data = asdict(self)
        data.pop("hash")
        data["outcome"] = str(self.outcome)
        data["entity_ids"] = list(self.entity_ids)
        return data

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {**self.content(), "hash": self.hash}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditRecord:
        """Inverse of to_dict (no verification: see verify_chain)."""
        return cls(
            seq=int(data["seq"]),
            ts=str(data["ts"]),
            outcome=Outcome(data["outcome"]),
            tool=str(data["tool"]),
            user_id=data.get("user_id"),
            agent_id=data.get("agent_id"),
            conversation_id=data.get("conversation_id"),
            arguments=dict(data.get("arguments", {})),
            args_hash=str(data["args_hash"]),
            reason=str(data["reason"]),
            latency_ms=float(data["latency_ms"]),
            request_id=data.get("request_id"),
            entity_ids=tuple(data.get("entity_ids", ())),
            prev_hash=str(data["prev_hash"]),
            hash=str(data["hash"]),
        )


def record_hash(content: Mapping[str, Any]) -> str:
    """The chained hash of one record's content (which includes prev_hash)."""
    return hashlib.sha256(canonical_json(content).encode()).hexdigest()


def verify_chain(records: Iterable[AuditRecord], anchor: str = GENESIS) -> int:
    """Check every link; return the number of records, or raise ChainError."""
    previous = anchor
    last_seq: int | None = None
    count = 0
    for index, record in enumerate(records):
        if record.prev_hash != previous:
            raise ChainError(index, "does not follow the previous record")
        if last_seq is not None and record.seq != last_seq + 1:
            raise ChainError(index, "sequence gap")
        if record_hash(record.content()) != record.hash:
            raise ChainError(index, "content does not match its hash")
        previous, last_seq, count = record.hash, record.seq, count + 1
    return count


class AuditLog:
    """Append-only, chained, rotated at `max_records`."""

    def __init__(self, max_records: int = DEFAULT_MAX_RECORDS) -> None:
        self.max_records = max_records
        self.anchor = GENESIS
        self._records: list[AuditRecord] = []
        self._next_seq = 1

    @property
    def records(self) -> tuple[AuditRecord, ...]:
        """The kept records, oldest first."""
        return tuple(self._records)

    @property
    def head(self) -> str:
        """The newest hash (or the anchor when empty)."""
        return self._records[-1].hash if self._records else self.anchor

    @property
    def total(self) -> int:
        """Records ever appended (including rotated-out ones)."""
        return self._next_seq - 1

    def append(self, **fields: Any) -> AuditRecord:
        """Chain a new record (fields of AuditRecord except seq, prev_hash, hash)."""
        unsigned = AuditRecord(seq=self._next_seq, prev_hash=self.head, **fields)
        record = AuditRecord(**{**_fields(unsigned), "hash": record_hash(unsigned.content())})
        self._records.append(record)
        self._next_seq += 1
        if len(self._records) > self.max_records:
            dropped = self._records[: len(self._records) - self.max_records]
            self.anchor = dropped[-1].hash
            del self._records[: len(dropped)]
        return record

    def verify(self) -> int:
        """Verify the kept segment against the anchor."""
        return verify_chain(self._records, self.anchor)

    def to_dict(self) -> dict[str, Any]:
        """For storage."""
        return {
            "anchor": self.anchor,
            "next_seq": self._next_seq,
            "records": [r.to_dict() for r in self._records],
        }

    @classmethod
    def load(cls, data: Mapping[str, Any], max_records: int = DEFAULT_MAX_RECORDS) -> AuditLog:
        """Restore and verify; ChainError if the stored log was tampered with."""
        log = cls(max_records)
        log.anchor = str(data.get("anchor", GENESIS))
        log._records = [AuditRecord.from_dict(item) for item in data.get("records", [])]
        verify_chain(log._records, log.anchor)
        log._next_seq = int(data.get("next_seq", len(log._records) + 1))
        if log._records and log._next_seq != log._records[-1].seq + 1:
            raise ChainError(len(log._records), "records were removed from the end")
        return log


def _fields(record: AuditRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name in AuditRecord.__dataclass_fields__}
