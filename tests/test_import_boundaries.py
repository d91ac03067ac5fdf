"""Import boundaries, checked at import time (ruff's TID251 rules check them statically).

Each package is imported, with every submodule, in a fresh interpreter, which then
reports the modules it loaded that the package must not depend on.
"""

from __future__ import annotations

import json
from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import importlib, json, pkgutil, sys
sys.path.insert(0, {path!r})
package = importlib.import_module({package!r})
for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(module.name)
print(json.dumps(sorted(
    name for name in sys.modules if name.partition(".")[0] in {banned!r}
)))
"""


def loaded_modules(package: str, path: Path, banned: set[str]) -> list[str]:
    """Modules from `banned` top-level packages loaded by importing all of `package`."""
    code = PROBE.format(path=str(path), package=package, banned=sorted(banned))
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    loaded: list[str] = json.loads(result.stdout)
    return loaded


@pytest.mark.parametrize(
    ("package", "path", "banned"),
    [
        # The emulator: no Home Assistant, nothing of the integration it is a test double for.
        ("linn_emulator", ROOT, {"homeassistant", "custom_components"}),
        # lpec as a top-level package: importing it through custom_components.linn would run
        # the integration's __init__ (which imports Home Assistant) before lpec itself.
        ("lpec", ROOT / "custom_components" / "linn", {"homeassistant", "custom_components"}),
    ],
)
def test_package_imports_nothing_it_must_not(package: str, path: Path, banned: set[str]) -> None:
    assert loaded_modules(package, path, banned) == []
