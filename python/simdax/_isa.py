"""The ISA cap, per call and per block, and what the library reports."""
from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Dict, Iterator, Optional

from . import _simdax

# A per-context cap: `with max_isa(...)` affects operators created in that
# block on that thread (or asyncio task) only. The library's own cap is
# process-wide; the extension applies this one around each create.
_block_cap: contextvars.ContextVar[Optional[str]] = contextvars.ContextVar(
    "simdax_max_isa", default=None)


def effective_isa(isa: Optional[str]) -> str:
    """The cap a create runs under: the call's, else the block's, else the
    library's current one (simdax_set_max_isa / SIMDAX_MAX_ISA)."""
    if isa is not None:
        return isa
    block = _block_cap.get()
    return block if block is not None else _simdax.active_isa()


@contextlib.contextmanager
def max_isa(isa: str) -> Iterator[None]:
    """Caps the ISA of operators created inside the block (this thread or task).

    >>> with simdax.max_isa("avx2"):
    ...     y = simdax.softmax(x)          # planned for avx2 at most

    Operators created before keep their ISA. An ISA this CPU or build lacks
    raises ValueError with the library's message when an operator is created.
    """
    _simdax_isa_check(isa)
    token = _block_cap.set(isa)
    try:
        yield
    finally:
        _block_cap.reset(token)


def _simdax_isa_check(isa: str) -> None:
    if isa not in ("scalar", "avx2", "avx512", "avx512fp16", "neon", "neonfp16"):
        raise ValueError(f"unknown ISA '{isa}' (scalar, avx2, avx512, avx512fp16, neon, "
                         "neonfp16)")


def set_max_isa(isa: str) -> None:
    """Caps the ISA for the whole process, as simdax_set_max_isa does."""
    _simdax.set_max_isa(isa)


def info() -> Dict[str, Any]:
    """The library version, the active ISA, the ISAs this machine runs and
    those compiled in, and the CPU."""
    return {
        "version": _simdax.version(),
        "isa": effective_isa(None),
        "isas_available": list(_simdax.supported_isas()),
        "isas_compiled": list(_simdax.compiled_isas()),
        "cpu": _simdax.cpu_name(),
        "cpu_features": _simdax.cpu_features(),
    }
