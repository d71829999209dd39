"""Running a created operator on arrays: operands in, output allocated when
the caller gives none, threads checked."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from . import _simdax
from ._arrays import Operand, empty_like_operand, operand, with_rank


def thread_count(threads: Optional[int]) -> int:
    if threads is None:
        return 1
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be an int >= 1 or None, got {threads!r}")
    return threads


def spec(o: Operand) -> _simdax.TensorSpec:
    return _simdax.TensorSpec(o.dtype, list(o.shape), list(o.strides))


def output_for(x: Operand, out: Any, dtype: Optional[str] = None) -> Any:
    """out, or a new packed array of x's kind and of dtype (None: x's)."""
    return empty_like_operand(x, dtype=dtype) if out is None else out


def mvn_operands(x: Operand, scale: Any, bias: Any):
    """scale and bias with the input's rank (leading 1s added as a view)."""
    rank = len(x.shape)
    s = with_rank(operand(scale, "scale"), rank, "scale") if scale is not None else None
    b = with_rank(operand(bias, "bias"), rank, "bias") if bias is not None else None
    return s, b


Layout = Tuple[str, Tuple[int, ...], Tuple[int, ...]]


def execute(op: _simdax.Operator, x: Operand, out: Operand, threads: Optional[int],
            scale: Optional[Operand] = None, bias: Optional[Operand] = None,
            created_for: Optional[Sequence[Optional[Layout]]] = None) -> None:
    """Runs op. created_for: the layouts (input, output, scale, bias) op was
    created for, when the operands may differ; None when op was created
    from these very operands (the functions' cache key is their layout)."""
    if not out.writable:
        raise ValueError("out: the array is read-only")
    operands = (x, out, scale, bias)
    if created_for is not None and any(
            (o.layout if o is not None else None) != want
            for o, want in zip(operands, created_for)):
        # The extension's checked path, which names what differs.
        op.execute(x.importable(), out.importable(),
                   scale.importable() if scale is not None else None,
                   bias.importable() if bias is not None else None, thread_count(threads))
        return
    # The layouts are the operator's: bare addresses are enough, and cost
    # less than importing each array (torch's DLPack export is slow).
    op.execute_addresses(x.address, out.address,
                         scale.address if scale is not None else None,
                         bias.address if bias is not None else None, thread_count(threads))


def normalized_axes(axes: Sequence[int] | int) -> tuple:
    if isinstance(axes, int):
        return (axes,)
    return tuple(int(a) for a in axes)
