"""numpy arrays, torch tensors and DLPack objects as simdax sees them.

simdax takes element strides of any sign, so every layout a numpy array or a
torch tensor can have is passed as it is: no copy, whatever the strides.
"""
from __future__ import annotations

import sys
from typing import Any, NamedTuple, Optional, Sequence, Tuple

import numpy as np

_DTYPE_NAMES = ("float32", "float16", "bfloat16", "float64", "uint8")  # uint8: masks
_known_dtypes: dict = {}  # numpy / torch dtype -> simdax name, filled on use


def _torch():
    """torch if the caller has imported it; simdax never imports it for them."""
    return sys.modules.get("torch")


def is_torch_tensor(x: Any) -> bool:
    torch = _torch()
    return torch is not None and isinstance(x, torch.Tensor)


def dtype_name(dtype: Any) -> str:
    """The simdax name of a numpy dtype, torch dtype or name; TypeError otherwise."""
    try:
        return _known_dtypes[dtype]
    except (KeyError, TypeError):
        pass
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
    if name == "bool":  # a boolean mask: one byte, 0 or 1, as uint8
        name = "uint8"
    if name not in _DTYPE_NAMES:
        raise TypeError(f"simdax takes float32, float16, bfloat16 and float64 (uint8 and bool "
                        f"for masks); got {dtype}")
    try:
        _known_dtypes[dtype] = name
    except TypeError:  # unhashable: not cached
        pass
    return name


def layout(dtype: str, shape: Sequence[int], strides: Sequence[int]):
    return (dtype, tuple(shape), tuple(0 if n == 1 else s for n, s in zip(shape, strides)))


class Operand(NamedTuple):
    """An array as the extension needs it: its layout and where element 0 is."""
    dtype: str
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]  # in elements
    array: Any                # the numpy array or torch tensor itself
    is_torch: bool
    address: int              # of element (0, ..., 0)
    writable: bool
    padding: int = 0          # leading size-1 dimensions added by with_rank

    @property
    def layout(self) -> Tuple[str, Tuple[int, ...], Tuple[int, ...]]:
        """dtype, shape and strides, with 0 for the strides of size-1
        dimensions (they reach nothing, and torch and numpy set them freely)."""
        return layout(self.dtype, self.shape, self.strides)

    def importable(self) -> Any:
        """The array as nanobind imports it, without a copy."""
        array = self.array[(None,) * self.padding] if self.padding else self.array
        if self.is_torch:
            # No autograd through simdax; DLPack refuses tensors that require grad.
            return array.detach()
        # numpy exports ml_dtypes' bfloat16 neither through DLPack nor the
        # buffer protocol; the same bits as uint16 do (same strides, no copy).
        return array.view(np.uint16) if self.dtype == "bfloat16" else array


def operand(x: Any, what: str) -> Operand:
    """Reads a numpy array, a CPU torch tensor or any CPU DLPack object."""
    if is_torch_tensor(x):
        if not x.is_cpu:
            raise TypeError(f"{what}: simdax runs on CPU tensors; this one is on {x.device}")
        return Operand(dtype_name(x.dtype), tuple(x.shape), tuple(x.stride()), x, True,
                       x.data_ptr(), True)
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
    return Operand(name, tuple(x.shape), tuple(s // size for s in x.strides), x, False,
                   x.__array_interface__["data"][0], x.flags.writeable)


def with_rank(o: Operand, rank: int, what: str) -> Operand:
    """o with leading size-1 dimensions up to rank, as MVN's scale and bias
    must have the input's rank (the same memory: the new strides reach
    nothing)."""
    missing = rank - len(o.shape)
    if missing < 0:
        raise ValueError(f"{what}: rank {len(o.shape)} exceeds the input's rank {rank}")
    if missing == 0:
        return o
    return o._replace(shape=(1,) * missing + o.shape, strides=(0,) * missing + o.strides,
                      padding=o.padding + missing)


def numpy_dtype(name: str) -> np.dtype:
    """The numpy dtype of a simdax dtype name (bfloat16: ml_dtypes')."""
    if name == "bfloat16":
        import ml_dtypes  # only when asked for: ml_dtypes is optional
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def empty_like_operand(x: Operand, shape: Optional[Sequence[int]] = None,
                       dtype: Optional[str] = None) -> Any:
    """A packed (C-order) output for x: a torch tensor for torch, else numpy;
    of x's dtype, or of `dtype` ("float32": the statistics outputs; a cast's
    target)."""
    shape = tuple(x.shape if shape is None else shape)
    same_dtype = dtype is None or dtype == x.dtype
    if x.is_torch:
        if same_dtype:
            return x.array.new_empty(shape)
        return x.array.new_empty(shape, dtype=getattr(_torch(), dtype))
    return np.empty(shape, dtype=x.array.dtype if same_dtype else numpy_dtype(dtype))
