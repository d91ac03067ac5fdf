"""Make the shared LPEC codec importable without importing Home Assistant.

`custom_components/linn/__init__.py` imports Home Assistant, so a plain
`import custom_components.linn.lpec.codec` would pull it in (and break whenever the
integration is mid-edit). Unless Home Assistant or the client package is already
loaded, this registers `custom_components.linn.lpec.errors` and `.codec` in
`sys.modules` straight from their files, under their real names: later imports of
those names, by the emulator or by the client package, get the same module objects.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
import sys

PACKAGE = "custom_components.linn.lpec"
LPEC_DIR = Path(__file__).resolve().parent.parent / "custom_components" / "linn" / "lpec"


def preload(name: str) -> None:
    """Load `custom_components.linn.lpec.<name>` without running its parent packages."""
    full = f"{PACKAGE}.{name}"
    if full in sys.modules:
        return
    if "homeassistant" in sys.modules or PACKAGE in sys.modules:
        importlib.import_module(full)
        return
    spec = importlib.util.spec_from_file_location(full, LPEC_DIR / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {full} from {LPEC_DIR}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[full] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[full]
        raise


preload("errors")
preload("codec")
