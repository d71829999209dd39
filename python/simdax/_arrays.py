"""numpy arrays, torch tensors and DLPack objects as simdax sees them.

simdax takes element strides of any sign, so every layout a numpy array or a
torch tensor can have is passed as it is: no copy, whatever the strides.
"""
from __future__ import annotations

import sys
from typing import Any, NamedTuple, Optional, Sequence, Tuple

import numpy as np

_NUMPY_DTYPES = {"float32": "float32", "float16": "float16", "float64": "float64",
                 "bfloat16": "bfloat16"}  # numpy dtype name -> simdax dtype name
_DTYPE_NAMES = tuple(_NUMPY_DTYPES.values())


def _torch():
    """torch if the caller has imported it; simdax never imports it for them."""
    return sys.modules.get("torch")


def is_torch_tensor(x: Any) -> bool:
    torch = _torch()
    return torch is not None and isinstance(x, torch.Tensor)


def dtype_name(dtype: Any) -> str:
    """The simdax name of a numpy dtype, torch dtype or name; TypeError otherwise."""
    torch = _torch()
    if torch is not None and isinstance(dtype, torch.dtype):
        name = str(dtype).replace("torch.", "")
    elif isinstance(dtype, str) and dtype in _DTYPE_NAMES:
        name = dtype
    else:
        try:
            name = np.dtype(dtype).name
        except TypeError:
            name = str(dtype)
    if name not in _DTYPE_NAMES:
        raise TypeError(f"simdax takes float32, float16, bfloat16 and float64; got {dtype}")
    return name


class Operand(NamedTuple):
    """An array ready for the extension: what it is, and what to pass."""
    dtype: str
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]  # in elements
    passed: Any               # the object nanobind imports (no copy)
    is_torch: bool


def operand(x: Any, what: str) -> Operand:
    """Reads a numpy array, a CPU torch tensor or any CPU DLPack object."""
    if is_torch_tensor(x):
        if x.device.type != "cpu":
            raise TypeError(f"{what}: simdax runs on CPU tensors; this one is on {x.device}")
        # Inference only (torch.ops.simdax says so to autograd): a tensor that
        # requires grad cannot be exported through DLPack otherwise.
        t = x.detach()
        return Operand(dtype_name(t.dtype), tuple(t.shape), tuple(t.stride()), t, True)
    if not isinstance(x, np.ndarray):
        if hasattr(x, "__dlpack__"):
            x = np.from_dlpack(x)  # a view: CPU DLPack producers share their memory
        else:
            raise TypeError(f"{what}: expected a numpy array, a torch tensor or a DLPack "
                            f"object, got {type(x).__name__}")
    name = dtype_name(x.dtype)
    size = x.dtype.itemsize
    if any(s % size for s in x.strides):
        raise ValueError(f"{what}: byte strides {x.strides} are not whole elements of "
                         f"{size} bytes")
    # numpy cannot export ml_dtypes' bfloat16 through DLPack or the buffer
    # protocol; the same bits as uint16 travel fine (same strides, no copy).
    passed = x.view(np.uint16) if name == "bfloat16" else x
    return Operand(name, tuple(x.shape), tuple(s // size for s in x.strides), passed, False)


def numpy_dtype(name: str) -> Any:
    if name == "bfloat16":
        import ml_dtypes  # only bfloat16 needs it
        return ml_dtypes.bfloat16
    return np.dtype(name)


def empty_like_operand(x: Operand, shape: Optional[Sequence[int]] = None) -> Any:
    """A packed (C-order) output for x: a torch tensor for torch, else numpy."""
    shape = tuple(x.shape if shape is None else shape)
    if x.is_torch:
        torch = _torch()
        return torch.empty(shape, dtype=getattr(torch, x.dtype), device="cpu")
    return np.empty(shape, dtype=numpy_dtype(x.dtype))


def with_rank(x: Any, rank: int, what: str) -> Any:
    """x with leading size-1 dimensions up to rank (a view), as MVN's scale
    and bias must have the input's rank."""
    missing = rank - len(x.shape)
    if missing < 0:
        raise ValueError(f"{what}: rank {len(x.shape)} exceeds the input's rank {rank}")
    return x[(None,) * missing] if missing else x
