"""A tamper-evident audit log: every attempt's final outcome, hash-chained, kept per user.

How the chain and retention work (docs/security.md, "The audit log: retention and integrity
(as the code does it)").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
import hashlib
from typing import Any

from .canonical import canonical_json
from .decisions import Outcome

GENESIS = "0" * 64
DEFAULT_MAX_RECORDS = 1000
"""Per user: their newest records other than refusals."""
DEFAULT_MAX_REFUSALS = 500
"""Per user: their newest refused attempts, kept apart from their other records."""
DEFAULT_MAX_READS = 500
"""Per user: their newest reads that ran, kept apart from their changes."""
REFUSALS = frozenset({Outcome.DENIED, Outcome.INVALID, Outcome.RATE_LIMITED})
"""Outcomes in which the guard turned an attempt away."""


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
    attempt_id: str | None = None
    """The id of the write-ahead entry of a change (None for anything else)."""
    read: bool = False
    """The attempt was a read (its own retention quota, apart from changes)."""

    def content(self) -> dict[str, Any]:
        """Everything the hash covers (all but the hash itself)."""
        data = asdict(self)
        data.pop("hash")
        if self.attempt_id is None:  # records from before the field hash as they did
            data.pop("attempt_id")
        if not self.read:  # likewise
            data.pop("read")
        data["outcome"] = str(self.outcome)
        data["entity_ids"] = list(self.entity_ids)
        return data

    @property
    def refusal(self) -> bool:
        """The guard turned the attempt away (kept apart from the user's other records)."""
        return self.outcome in REFUSALS

    @property
    def kind(self) -> str:
        """Which of the user's quotas keeps it: refusal, read or change."""
        if self.refusal:
            return REFUSAL
        return READ if self.read else CHANGE

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
            attempt_id=data.get("attempt_id"),
            read=bool(data.get("read", False)),
        )


@dataclass(frozen=True, slots=True)
class Gap:
    """Records first..last were dropped by the retention rules; the hashes at both ends."""

    first: int
    last: int
    prev_hash: str
    hash: str

    def to_list(self) -> list[Any]:
        """Plain JSON-able data."""
        return [self.first, self.last, self.prev_hash, self.hash]

    @classmethod
    def from_list(cls, data: Iterable[Any]) -> Gap:
        """Inverse of to_list."""
        first, last, prev_hash, hash_ = data
        return cls(int(first), int(last), str(prev_hash), str(hash_))


def record_hash(content: Mapping[str, Any]) -> str:
    """The chained hash of one record's content (which includes prev_hash)."""
    return hashlib.sha256(canonical_json(content).encode()).hexdigest()


def verify_chain(
    records: Iterable[AuditRecord],
    anchor: str = GENESIS,
    gaps: Mapping[int, Gap] | None = None,
) -> int:
    """Check every link; return the number of records, or raise ChainError.

    `gaps` (by their last sequence number) are the only places where sequence numbers may
    skip, and only when the hashes at both ends of the gap match the records around it.
    """
    previous = anchor
    last_seq: int | None = None
    count = 0
    for index, record in enumerate(records):
        if last_seq is not None and record.seq != last_seq + 1:
            gap = (gaps or {}).get(record.seq - 1)
            if gap is None or gap.first != last_seq + 1 or gap.prev_hash != previous:
                raise ChainError(index, "sequence gap")
            previous = gap.hash
        if record.prev_hash != previous:
            raise ChainError(index, "does not follow the previous record")
        if record_hash(record.content()) != record.hash:
            raise ChainError(index, "content does not match its hash")
        previous, last_seq, count = record.hash, record.seq, count + 1
    return count


REFUSAL = "refusal"
READ = "read"
CHANGE = "change"
type Bucket = tuple[str | None, str]
"""Whose records, and of which kind (refusal, read, change): each has its own quota."""


class AuditLog:
    """Append-only and chained; each user's records (and refusals apart) within a quota."""

    def __init__(
        self,
        max_records: int = DEFAULT_MAX_RECORDS,
        max_refusals: int = DEFAULT_MAX_REFUSALS,
        max_reads: int = DEFAULT_MAX_READS,
    ) -> None:
        if min(max_records, max_refusals, max_reads) < 1:
            raise ValueError("a quota keeps at least one record")
        self.max_records = max_records
        self.max_refusals = max_refusals
        self.max_reads = max_reads
        self.anchor = GENESIS
        """The hash before the first kept record (of the last record dropped at the start)."""
        self._records: dict[int, AuditRecord] = {}
        """By sequence number, oldest first."""
        self._stored: dict[int, dict[str, Any]] = {}
        """Each kept record as stored (made once: a save of thousands stays cheap)."""
        self._gaps_by_first: dict[int, Gap] = {}
        self._gaps_by_last: dict[int, Gap] = {}
        self._buckets: dict[Bucket, deque[int]] = {}
        self._next_seq = 1

    @property
    def records(self) -> tuple[AuditRecord, ...]:
        """The kept records, oldest first."""
        return tuple(self._records.values())

    @property
    def gaps(self) -> tuple[Gap, ...]:
        """Where the retention rules dropped records between kept ones."""
        return tuple(sorted(self._gaps_by_first.values(), key=lambda gap: gap.first))

    @property
    def head(self) -> str:
        """The newest hash (or the anchor when empty)."""
        return next(reversed(self._records.values())).hash if self._records else self.anchor

    @property
    def total(self) -> int:
        """Records ever appended (including dropped ones)."""
        return self._next_seq - 1

    def hash_of(self, seq: int) -> str | None:
        """The hash of record `seq` if it is kept or ends a gap (the anchor for seq 0)."""
        if (record := self._records.get(seq)) is not None:
            return record.hash
        if (gap := self._gaps_by_last.get(seq)) is not None:
            return gap.hash
        if self._records and seq == next(iter(self._records)) - 1:
            return self.anchor
        return GENESIS if seq == 0 else None

    def append(self, **fields: Any) -> AuditRecord:
        """Chain a new record (fields of AuditRecord except seq, prev_hash, hash)."""
        unsigned = AuditRecord(seq=self._next_seq, prev_hash=self.head, **fields)
        record = AuditRecord(**{**_fields(unsigned), "hash": record_hash(unsigned.content())})
        self._keep(record)
        self._next_seq += 1
        return record

    def _keep(self, record: AuditRecord) -> None:
        self._records[record.seq] = record
        self._stored[record.seq] = record.to_dict()
        kind = record.kind
        bucket = self._buckets.setdefault((record.user_id, kind), deque())
        bucket.append(record.seq)
        quota = {REFUSAL: self.max_refusals, READ: self.max_reads}.get(kind, self.max_records)
        while len(bucket) > quota:  # never the new record: a quota keeps at least one
            self._drop(bucket.popleft())

    def _drop(self, seq: int) -> None:
        """Drop one record, leaving (or widening) a gap whose end hashes are kept."""
        record = self._records.pop(seq)
        del self._stored[seq]
        gap = Gap(seq, seq, record.prev_hash, record.hash)
        if (left := self._gaps_by_last.pop(seq - 1, None)) is not None:
            del self._gaps_by_first[left.first]
            gap = Gap(left.first, seq, left.prev_hash, gap.hash)
        if (right := self._gaps_by_first.pop(seq + 1, None)) is not None:
            del self._gaps_by_last[right.last]
            gap = Gap(gap.first, right.last, gap.prev_hash, right.hash)
        if gap.prev_hash == self.anchor and (
            not self._records or next(iter(self._records)) > gap.last
        ):
            self.anchor = gap.hash  # dropped at the start: the anchor moves on
            return
        self._gaps_by_first[gap.first] = gap
        self._gaps_by_last[gap.last] = gap

    def verify(self) -> int:
        """Verify the kept records against the anchor and the gaps."""
        return verify_chain(self._records.values(), self.anchor, self._gaps_by_last)

    def to_dict(self) -> dict[str, Any]:
        """For storage."""
        return {
            "anchor": self.anchor,
            "next_seq": self._next_seq,
            "records": list(self._stored.values()),  # never changed after they are made
            "gaps": [gap.to_list() for gap in self.gaps],
        }

    @classmethod
    def load(
        cls,
        data: Mapping[str, Any],
        max_records: int = DEFAULT_MAX_RECORDS,
        max_refusals: int = DEFAULT_MAX_REFUSALS,
        max_reads: int = DEFAULT_MAX_READS,
    ) -> AuditLog:
        """Restore and verify; ChainError if the stored log was tampered with."""
        log = cls(max_records, max_refusals, max_reads)
        log.anchor = str(data.get("anchor", GENESIS))
        records = [AuditRecord.from_dict(item) for item in data.get("records", [])]
        for gap in (Gap.from_list(item) for item in data.get("gaps", [])):
            log._gaps_by_first[gap.first] = gap
            log._gaps_by_last[gap.last] = gap
        verify_chain(records, log.anchor, log._gaps_by_last)
        log._next_seq = int(data.get("next_seq", len(records) + 1))
        if records and log._next_seq != records[-1].seq + 1:
            raise ChainError(len(records), "records were removed from the end")
        for record in records:
            log._keep(record)
        return log


def _fields(record: AuditRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name in AuditRecord.__dataclass_fields__}
