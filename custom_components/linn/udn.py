"""UDN handling shared by the config flow and setup."""

from __future__ import annotations


def normalize_udn(udn: str) -> str:
    """'uuid:4C494E4E-…' (SSDP) and '4c494e4e-…' (LPEC ALIVE) name the same device."""
    udn = udn.strip()
    if udn[:5].lower() == "uuid:":
        udn = udn[5:]
    return udn.lower()
