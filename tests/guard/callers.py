"""The callers the guard tests speak as: an admin, two household users, a guest who may only
read and an unknown voice."""

from __future__ import annotations

from custom_components.linn.guard import Caller

ADMIN = Caller("admin-id", is_admin=True)
ALICE = Caller("alice", can_read=lambda _e: True, can_control=lambda _e: True)
BOB = Caller("bob", can_read=lambda _e: True, can_control=lambda _e: True)
GUEST = Caller("guest", can_read=lambda _e: True)
NOBODY = Caller(None, can_read=lambda _e: True)
