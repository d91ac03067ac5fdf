"""The test environment is exactly requirements/ha.lock, and it holds what the components need.

scripts/test syncs the environment before it runs; these tests turn a run in a drifted
environment (a package installed by hand, or by a Home Assistant that was run in it) red with
the difference named, instead of letting it pass or fail by accident.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path
import re

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scripts.ha_requirements import read_domain_list, requirements

REQUIREMENTS = Path(__file__).parent.parent / "requirements"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def locked(path: Path) -> dict[str, str]:
    """Name -> version of every pin in a lock file."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := _PIN.match(line):
            pins[canonicalize_name(match[1])] = match[2]
    return pins


def installed() -> dict[str, str]:
    """Name -> version of every distribution in this environment."""
    return {
        canonicalize_name(dist.metadata["Name"]): dist.version for dist in metadata.distributions()
    }


def test_environment_is_exactly_the_lock() -> None:
    want, have = locked(REQUIREMENTS / "ha.lock"), installed()
    extra = sorted(f"{name}=={have[name]}" for name in have.keys() - want.keys())
    missing = sorted(f"{name}=={want[name]}" for name in want.keys() - have.keys())
    changed = sorted(
        f"{name}: {have[name]} installed, {want[name]} locked"
        for name in want.keys() & have.keys()
        if have[name] != want[name]
    )
    differences = extra + missing + changed
    assert not differences, (
        "the environment differs from requirements/ha.lock (run scripts/setup to sync it):\n"
        f"  not in the lock: {extra}\n  missing: {missing}\n  other version: {changed}"
    )


def test_every_listed_component_has_its_requirements() -> None:
    have = installed()
    unmet = [
        f"{domain}: {req}"
        for domain, reqs in requirements(
            read_domain_list(REQUIREMENTS / "ha-components.txt")
        ).items()
        for req in map(Requirement, reqs)
        if canonicalize_name(req.name) not in have
        or not req.specifier.contains(have[canonicalize_name(req.name)], prereleases=True)
    ]
    assert not unmet, f"run scripts/lock: requirements not in the environment: {unmet}"
