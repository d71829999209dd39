"""Running a created operator on arrays: operands in, output allocated when
the caller gives none, threads checked."""
from __future__ import annotations

from typing import Any, Optional, Sequence

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


def output_for(x: Operand, out: Any) -> Any:
    return empty_like_operand(x) if out is None else out


def mvn_operands(x: Operand, scale: Any, bias: Any):
    """scale and bias with the input's rank (leading 1s added as a view)."""
    rank = len(x.shape)
    s = operand(with_rank(scale, rank, "scale"), "scale") if scale is not None else None
    b = operand(with_rank(bias, rank, "bias"), "bias") if bias is not None else None
    return s, b


def execute(op: _simdax.Operator, x: Operand, out: Operand, threads: Optional[int],
            scale: Optional[Operand] = None, bias: Optional[Operand] = None) -> None:
    op.execute(x.passed, out.passed, scale.passed if scale is not None else None,
               bias.passed if bias is not None else None, thread_count(threads))


def normalized_axes(axes: Sequence[int] | int) -> tuple:
    if isinstance(axes, int):
        return (axes,)
    return tuple(int(a) for a in axes)
