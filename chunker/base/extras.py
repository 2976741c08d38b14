"""Importing an adapter's package, or saying which extra brings it."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, extra: str, adapter: str) -> ModuleType:
    """`import module`, or an ImportError saying `pip install chunkspan[extra]`."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{adapter} needs the package {module.split('.', maxsplit=1)[0]!r}, "
            "which is not installed: "
            f"pip install 'chunkspan[{extra}]'"
        ) from error
