"""One function per operator: creates (or reuses) an operator for the
arrays' exact layout and runs it once.

Operators are cached by everything they were created from (dtypes, shapes,
strides, axes, parameters, ISA cap), so a loop over same-shaped arrays pays
for planning once, as the operator objects do.
"""
from __future__ import annotations

import functools
from typing import Any, Optional, Sequence, Tuple, Union

from . import _simdax
from ._arrays import Operand, dtype_name, operand
from ._isa import effective_isa
from ._run import execute, mvn_operands, normalized_axes, output_for

Axes = Union[int, Sequence[int]]
_Key = Optional[Tuple[str, Tuple[int, ...], Tuple[int, ...]]]


def _key(o: Optional[Operand]) -> _Key:
    return None if o is None else o.layout


def _spec(key: _Key) -> Optional[_simdax.TensorSpec]:
    return None if key is None else _simdax.TensorSpec(key[0], list(key[1]), list(key[2]))


@functools.lru_cache(maxsize=256)
def _operator(kind: str, x: _Key, out: _Key, scale: _Key, bias: _Key, params: tuple,
              isa: str) -> _simdax.Operator:
    if kind in ("log_softmax", "softmax", "hardmax"):
        (axes,) = params
        return _simdax.make_axes_operator(kind, _spec(x), _spec(out), list(axes), isa)
    if kind == "mvn":
        axes, normalize_variance, epsilon, placement, activation, alpha, beta, gamma = params
        return _simdax.make_mvn_operator(_spec(x), _spec(out), list(axes), _spec(scale),
                                         _spec(bias), normalize_variance, epsilon, placement,
                                         activation, alpha, beta, gamma, isa)
    if kind == "hard_sigmoid":
        alpha, beta = params
        return _simdax.make_hard_sigmoid_operator(_spec(x), _spec(out), alpha, beta, isa)
    if kind == "cast":
        return _simdax.make_cast_operator(_spec(x), _spec(out), isa)
    activation, alpha, beta, gamma = params
    return _simdax.make_activation_operator(_spec(x), _spec(out), activation, alpha, beta,
                                            gamma, isa)


def _run(kind: str, x: Any, out: Any, threads: Optional[int], isa: Optional[str],
         params: tuple, scale: Any = None, bias: Any = None,
         out_dtype: Optional[str] = None) -> Any:
    xo = operand(x, "input")
    result = output_for(xo, out, out_dtype)
    oo = operand(result, "out")
    s, b = mvn_operands(xo, scale, bias) if kind == "mvn" else (None, None)
    op = _operator(kind, _key(xo), _key(oo), _key(s), _key(b), params, effective_isa(isa))
    execute(op, xo, oo, threads, s, b)
    return result


def log_softmax(x: Any, axes: Axes = -1, *, out: Any = None, threads: Optional[int] = None,
                isa: Optional[str] = None) -> Any:
    """log(softmax(x)) over axes (an int or a sequence; negative counts from the end).

    x: numpy array (float16, ml_dtypes.bfloat16, float32, float64), CPU torch
    tensor or CPU DLPack object, any strides. out: the array to write (same
    dtype and shape; any strides); None allocates a packed one of x's kind
    (torch for torch, else numpy). threads: split over that many threads.
    isa: cap the ISA. Returns out.
    """
    return _run("log_softmax", x, out, threads, isa, (normalized_axes(axes),))


def softmax(x: Any, axes: Axes = -1, *, out: Any = None, threads: Optional[int] = None,
            isa: Optional[str] = None) -> Any:
    """exp(x - max) / sum(exp(x - max)) over axes; arguments as log_softmax."""
    return _run("softmax", x, out, threads, isa, (normalized_axes(axes),))


def hardmax(x: Any, axes: Axes = -1, *, out: Any = None, threads: Optional[int] = None,
            isa: Optional[str] = None) -> Any:
    """1 at the first maximum of each group over axes, 0 elsewhere; arguments as log_softmax."""
    return _run("hardmax", x, out, threads, isa, (normalized_axes(axes),))


def mvn(x: Any, axes: Axes = -1, scale: Any = None, bias: Any = None, *,
        normalize_variance: bool = True, epsilon: float = 1e-5,
        epsilon_placement: str = "directml", activation: Optional[str] = None,
        alpha: Optional[float] = None, beta: Optional[float] = None,
        gamma: Optional[float] = None, out: Any = None, threads: Optional[int] = None,
        isa: Optional[str] = None) -> Any:
    """MeanVarianceNormalization over axes: (x - mean) / sqrt(var + epsilon) * scale + bias.

    scale, bias: optional arrays of x's dtype whose sizes equal x's or 1
    (fewer dimensions get leading 1s, as in broadcasting). epsilon_placement:
    "directml" adds epsilon to the variance (torch LayerNorm's formula),
    "onnx" to the standard deviation. normalize_variance=False subtracts the
    mean only. activation: a fused activation (simdax.ACTIVATIONS) with
    alpha/beta/gamma overriding its defaults. Other arguments as log_softmax.
    """
    params = (normalized_axes(axes), bool(normalize_variance), float(epsilon),
              epsilon_placement, activation, alpha, beta, gamma)
    return _run("mvn", x, out, threads, isa, params, scale, bias)


mean_variance_normalization = mvn


def hard_sigmoid(x: Any, alpha: float = 0.2, beta: float = 0.5, *, out: Any = None,
                 threads: Optional[int] = None, isa: Optional[str] = None) -> Any:
    """max(0, min(alpha * x + beta, 1)); out may be x itself (in place)."""
    return _run("hard_sigmoid", x, out, threads, isa, (float(alpha), float(beta)))


def activation(x: Any, name: str, alpha: Optional[float] = None, beta: Optional[float] = None,
               gamma: Optional[float] = None, *, out: Any = None,
               threads: Optional[int] = None, isa: Optional[str] = None) -> Any:
    """The activation `name` (simdax.ACTIVATIONS) element-wise; out may be x
    itself. alpha/beta/gamma: None keeps DirectML's default
    (simdax.activation_defaults(name))."""
    return _run("activation", x, out, threads, isa, (name, alpha, beta, gamma))


def cast(x: Any, dtype: Any, *, out: Any = None, threads: Optional[int] = None,
         isa: Optional[str] = None) -> Any:
    """x converted to dtype (float32, float16, bfloat16 or float64: a name, a
    numpy or torch dtype, ml_dtypes.bfloat16), each element rounded once to
    nearest even; NaN stays NaN, a value beyond dtype's range becomes an
    infinity of its sign. out: an array of dtype and x's shape (any
    strides); may be x itself only when dtype is x's. Other arguments as
    log_softmax. Returns out."""
    to = dtype_name(dtype)
    if out is not None:
        held = operand(out, "out").dtype
        if held != to:  # the library would cast to out's dtype: not what was asked
            raise TypeError(f"out: holds {held}, the cast is to {to}")
    return _run("cast", x, out, threads, isa, (), out_dtype=to)


def activation_defaults(name: str) -> Tuple[float, float, float]:
    """(alpha, beta, gamma) as DirectML documents them for the activation."""
    return tuple(_simdax.activation_defaults(name))  # type: ignore[return-value]


def clear_cache() -> None:
    """Drops the cached operators of the functions (they are re-created on use)."""
    from . import _transformer
    _operator.cache_clear()
    _transformer.clear_cache()
