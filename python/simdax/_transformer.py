"""The transformer operators: attention softmax (scale, softcap, mask,
causal window, ALiBi, sinks, log-sum-exp) and LayerNormalization /
RMSNormalization with a fused residual add. One function each; operators
are cached by the operands' layouts and the parameters, as in _functions,
and for CPU torch tensors also by the tensors' own dtypes, shapes and
strides (no operand gathering on a repeated call). Gathering the operands
and creating the operator: _operands, shared with the operator objects."""
from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Optional, Sequence

from . import _simdax
from ._isa import effective_isa
from ._operands import (ALIBI_SLOPES, BIAS, INPUT, MASK, SCALE, SINKS, SKIP, SKIP_BIAS, Gathered,
                        attention_operands, attention_params, create, execute, execute_torch,
                        layouts_of, norm_operands, norm_params, returned, torch_key)

_operator = functools.lru_cache(maxsize=256)(create)
# (kind, options as given, isa, torch_key of the call's tensors) -> the
# operator that call ran with; emptied when full (as many as _operator's).
_by_torch_key: Dict[tuple, _simdax.Operator] = {}
_ATTENTION = (INPUT, MASK, ALIBI_SLOPES, SINKS)
_NORM = (INPUT, SCALE, BIAS, SKIP, SKIP_BIAS)


def _run(kind: str, indices: Sequence[int], arrays: tuple, out: Any, one_output: bool,
         gather: Callable[[], Gathered], options: tuple, params: Callable[..., tuple],
         threads: Optional[int], isa: Optional[str]) -> Any:
    """arrays: the operands of indices as given; options: the parameters as
    given, params converts them (after the gathering, so that a bad operand
    is reported first, as ever). one_output: the call returns out alone
    (the torch path allocates nothing else)."""
    key = None
    tensors = torch_key(arrays + (out,)) if one_output else None
    if tensors is not None:
        key = (kind, options, effective_isa(isa), tensors)
        try:
            op = _by_torch_key.get(key)
        except TypeError:  # an unhashable option: the path below says what is wrong
            key = op = None
        if op is not None:
            return execute_torch(op, indices, arrays, out, threads)
    operands, results = gather()
    op = _operator(kind, layouts_of(operands), params(*options), effective_isa(isa))
    execute(op, operands, threads)
    if key is not None:
        if len(_by_torch_key) >= 256:
            _by_torch_key.clear()
        _by_torch_key[key] = op
    return returned(results)


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
    return _run("attention_softmax", _ATTENTION, (x, mask, alibi_slopes, sinks), out,
                not return_log_sum_exp,
                lambda: attention_operands(x, mask, alibi_slopes, sinks, out,
                                           return_log_sum_exp),
                (scale, softcap, causal, window, log), attention_params, threads, isa)


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
    return _run("layer_norm", _NORM, (x, scale, bias, skip, skip_bias), out,
                not (return_skip_sum or return_mean_inv_std),
                lambda: norm_operands(x, scale, bias, skip, skip_bias, out, axis,
                                      return_skip_sum, return_mean_inv_std),
                (axis, epsilon), norm_params, threads, isa)


def rms_norm(x: Any, scale: Any, *, axis: int = -1, epsilon: float = 1e-5, skip: Any = None,
             skip_bias: Any = None, return_skip_sum: bool = False, out: Any = None,
             threads: Optional[int] = None, isa: Optional[str] = None) -> Any:
    """ONNX RMSNormalization (opset 23): x' / sqrt(mean(x'^2) + epsilon) * scale
    over dims [axis, rank), with the optional residual add of layer_norm
    (ONNX Runtime's SkipSimplifiedLayerNormalization). Returns out, or
    (out, skip sum) with return_skip_sum."""
    return _run("rms_norm", _NORM, (x, scale, None, skip, skip_bias), out, not return_skip_sum,
                lambda: norm_operands(x, scale, None, skip, skip_bias, out, axis,
                                      return_skip_sum, False),
                (axis, epsilon), norm_params, threads, isa)


def clear_cache() -> None:
    _operator.cache_clear()
    _by_torch_key.clear()
