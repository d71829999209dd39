"""The transformer operators: attention softmax (scale, softcap, mask,
causal window, ALiBi, sinks, log-sum-exp) and LayerNormalization /
RMSNormalization with a fused residual add. One function each; operators
are cached by the operands' layouts and the parameters, as in _functions."""
from __future__ import annotations

import functools
from typing import Any, Dict, Optional, Tuple

from . import _simdax
from ._arrays import Operand, empty_like_operand, operand, with_rank
from ._isa import effective_isa
from ._run import thread_count

# simdax_operand indices (include/simdax/simdax_typed.h).
INPUT, OUTPUT, SCALE, BIAS, MASK, ALIBI_SLOPES, SINKS, LOG_SUM_EXP = range(8)
SKIP, SKIP_BIAS, MEAN, INV_STD_DEV, SKIP_SUM = range(8, 13)

_Layouts = Tuple[Tuple[int, Tuple[str, Tuple[int, ...], Tuple[int, ...]]], ...]


def _spec(layout) -> _simdax.TensorSpec:
    return _simdax.TensorSpec(layout[0], list(layout[1]), list(layout[2]))


@functools.lru_cache(maxsize=256)
def _operator(kind: str, layouts: _Layouts, params: tuple, isa: str) -> _simdax.Operator:
    specs = {o: _spec(layout) for o, layout in layouts}
    if kind == "attention_softmax":
        scale, softcap, causal, window, log = params
        return _simdax.make_attention_softmax_operator(specs, scale, softcap, causal, window, log, isa)
    axis, epsilon = params
    return _simdax.make_normalization_operator(kind == "rms_norm", specs, axis, epsilon, isa)


def _run(kind: str, operands: Dict[int, Operand], params: tuple, threads: Optional[int],
         isa: Optional[str]) -> None:
    layouts = tuple(sorted((o, a.layout) for o, a in operands.items()))
    op = _operator(kind, layouts, params, effective_isa(isa))
    for o, a in operands.items():
        if o in (OUTPUT, LOG_SUM_EXP, MEAN, INV_STD_DEV, SKIP_SUM) and not a.writable:
            raise ValueError("out: the array is read-only")
    # The operator was created for exactly these layouts: addresses suffice.
    op.execute_operand_addresses({o: a.address for o, a in operands.items()}, thread_count(threads))


def _optional(x: Any, what: str, rank: int, operands: Dict[int, Operand], index: int,
              full_rank: bool) -> None:
    if x is None:
        return
    o = operand(x, what)
    operands[index] = with_rank(o, rank, what) if full_rank else o


def _new_output(x: Operand, operands: Dict[int, Operand], index: int, shape=None,
                dtype: Optional[str] = None) -> Any:
    array = empty_like_operand(x, shape, dtype)
    operands[index] = operand(array, "out")
    return array


def attention_softmax(x: Any, mask: Any = None, *, scale: float = 1.0, softcap: float = 0.0,
                      causal: str = "none", window: int = 0, alibi_slopes: Any = None,
                      sinks: Any = None, log: bool = False, return_log_sum_exp: bool = False,
                      out: Any = None, threads: Optional[int] = None,
                      isa: Optional[str] = None) -> Any:
    """softmax(softcap(x * scale) + mask + slope * (j - i')) over the last axis
    (keys) of attention scores x (rank >= 2; second to last: queries).

    mask: additive float (float32/float16/bfloat16, -inf masks) or boolean
    (bool/uint8: False masks), broadcast to x (fewer dims get leading 1s).
    causal: "none", "top_left" or "bottom_right" (the last query sees the
    last key); window > 0 keeps the keys i' - window < j <= i'. Keys outside
    the window are not read and get 0. alibi_slopes, sinks: per-row arrays
    (key axis of size 1, e.g. [1, H, 1, 1]); a sink adds exp(sink) to the
    denominator only. A row with nothing visible gives zeros, never NaN.
    log: LogSoftmax instead. return_log_sum_exp: also returns the float32
    log of each row's denominator (shape x.shape[:-1] + (1,)). out may be x
    (in place). Returns out, or (out, log_sum_exp).
    """
    xo = operand(x, "input")
    rank = len(xo.shape)
    operands = {INPUT: xo}
    result = out
    if out is None:
        result = _new_output(xo, operands, OUTPUT)
    else:
        operands[OUTPUT] = operand(out, "out")
    _optional(mask, "mask", rank, operands, MASK, True)
    _optional(alibi_slopes, "alibi_slopes", rank, operands, ALIBI_SLOPES, True)
    _optional(sinks, "sinks", rank, operands, SINKS, True)
    lse = None
    if return_log_sum_exp:
        lse = _new_output(xo, operands, LOG_SUM_EXP, xo.shape[:-1] + (1,), "float32")
    params = (float(scale), float(softcap), str(causal), int(window), bool(log))
    _run("attention_softmax", operands, params, threads, isa)
    return (result, lse) if return_log_sum_exp else result


def _normalization(kind: str, x: Any, scale: Any, bias: Any, axis: int, epsilon: float, skip: Any,
                   skip_bias: Any, return_skip_sum: bool, return_statistics: bool, out: Any,
                   threads: Optional[int], isa: Optional[str]):
    xo = operand(x, "input")
    operands = {INPUT: xo, SCALE: operand(scale, "scale")}
    result = _new_output(xo, operands, OUTPUT) if out is None else out
    if out is not None:
        operands[OUTPUT] = operand(out, "out")
    if bias is not None:
        operands[BIAS] = operand(bias, "bias")
    if skip is not None:
        operands[SKIP] = operand(skip, "skip")
    if skip_bias is not None:
        operands[SKIP_BIAS] = operand(skip_bias, "skip_bias")
    extra = []
    if return_skip_sum:
        extra.append(_new_output(xo, operands, SKIP_SUM))
    if return_statistics:
        rank = len(xo.shape)
        first = axis + rank if axis < 0 else axis
        stats_shape = tuple(n if d < first else 1 for d, n in enumerate(xo.shape))
        extra.append(_new_output(xo, operands, MEAN, stats_shape, "float32"))
        extra.append(_new_output(xo, operands, INV_STD_DEV, stats_shape, "float32"))
    _run(kind, operands, (int(axis), float(epsilon)), threads, isa)
    return (result, *extra) if extra else result


def layer_norm(x: Any, scale: Any, bias: Any = None, *, axis: int = -1, epsilon: float = 1e-5,
               skip: Any = None, skip_bias: Any = None, return_skip_sum: bool = False,
               return_mean_inv_std: bool = False, out: Any = None,
               threads: Optional[int] = None, isa: Optional[str] = None) -> Any:
    """ONNX LayerNormalization (opset 17) over dims [axis, rank):
    (x' - mean) / sqrt(var + epsilon) * scale + bias, x' = x + skip + skip_bias
    when skip is given (ONNX Runtime's SkipLayerNormalization), else x.

    scale, bias, skip_bias broadcast numpy-style (right-aligned: a [384]
    weight for a [4, 128, 384] input); float32 scale/bias may go with
    float16/bfloat16 data. Returns out, followed by the skip sum x'
    (return_skip_sum) and the float32 mean and inverse standard deviation
    (return_mean_inv_std, dims [axis, rank) of size 1).
    """
    return _normalization("layer_norm", x, scale, bias, axis, epsilon, skip, skip_bias,
                          return_skip_sum, return_mean_inv_std, out, threads, isa)


def rms_norm(x: Any, scale: Any, *, axis: int = -1, epsilon: float = 1e-5, skip: Any = None,
             skip_bias: Any = None, return_skip_sum: bool = False, out: Any = None,
             threads: Optional[int] = None, isa: Optional[str] = None) -> Any:
    """ONNX RMSNormalization (opset 23): x' / sqrt(mean(x'^2) + epsilon) * scale
    over dims [axis, rank), with the optional residual add of layer_norm
    (ONNX Runtime's SkipSimplifiedLayerNormalization). Returns out, or
    (out, skip sum) with return_skip_sum."""
    return _normalization("rms_norm", x, scale, None, axis, epsilon, skip, skip_bias,
                          return_skip_sum, False, out, threads, isa)


def clear_cache() -> None:
    _operator.cache_clear()
