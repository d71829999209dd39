"""The transformer operators as objects: AttentionSoftmax, LayerNorm and
RMSNorm, created once for the layouts of all their operands, called many
times with the GIL released. Their options are those of attention_softmax,
layer_norm and rms_norm; the arrays are gathered and the operator created
by the same code as the functions' (_operands)."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Set

from . import _simdax
from ._arrays import dtype_name, layout
from ._isa import effective_isa
from ._operands import (ALIBI_SLOPES, BIAS, INPUT, INV_STD_DEV, LOG_SUM_EXP, MASK, MEAN, OUTPUT,
                        SCALE, SINKS, SKIP, SKIP_BIAS, SKIP_SUM, Gathered, Layout,
                        attention_operands, attention_params, create, execute, execute_torch,
                        log_sum_exp_shape, norm_operands, norm_params, returned,
                        statistics_shape, torch_key)
from ._operators import Shape, _Operator


def _declared(dtype: str, shape: Shape, strides: Optional[Shape]) -> Layout:
    """The layout of an operand as an array of it will report it."""
    spec = _simdax.TensorSpec(dtype, [int(n) for n in shape],
                              None if strides is None else [int(s) for s in strides])
    return layout(spec.dtype, spec.shape, spec.strides)


class _IndexedOperator(_Operator):
    """An operator object whose operands go by simdax_operand index."""

    _kind = ""

    def __init__(self, shape: Shape, dtype: Any, strides: Optional[Shape],
                 out_strides: Optional[Shape]):
        super().__init__(shape, dtype, strides, out_strides)
        self._declared: Dict[int, Layout] = {
            INPUT: layout(self.dtype, self._input.shape, self._input.strides),
            OUTPUT: layout(self.dtype, self._output.shape, self._output.strides)}
        # torch_keys of calls whose tensors had the operator's layouts.
        self._torch_keys: Set[tuple] = set()

    def _declare(self, index: int, what: str, shape: Optional[Shape], dtype: Any,
                 strides: Optional[Shape], full_rank: bool = False) -> None:
        """An optional operand; full_rank: leading 1s up to the input's rank,
        as the call adds them to the array."""
        if shape is None:
            if dtype is not None or strides is not None:
                raise ValueError(f"{what}_dtype / {what}_strides: given without {what}_shape")
            return
        shape = list(shape)
        if full_rank:
            missing = len(self.shape) - len(shape)
            shape = [1] * missing + shape
            strides = None if strides is None else [0] * missing + list(strides)
        self._declared[index] = _declared(self.dtype if dtype is None else dtype_name(dtype),
                                          shape, strides)

    def _create(self, params: tuple, isa: Optional[str]) -> None:
        self._created_for = tuple(sorted(self._declared.items()))
        self._op = create(self._kind, self._created_for, params, effective_isa(isa))

    def _run(self, indices: Sequence[int], arrays: tuple, out: Any, one_output: bool,
             gather: Callable[[], Gathered], threads: Optional[int]) -> Any:
        """arrays: the operands of indices as given. one_output: the call
        returns out alone. CPU torch tensors with the dtypes, shapes and
        strides of an earlier call that had the operator's layouts skip the
        gathering (_operands.torch_key)."""
        key = torch_key(arrays + (out,)) if one_output else None
        if key is not None and key in self._torch_keys:
            return execute_torch(self._op, indices, arrays, out, threads)
        operands, results = gather()
        if execute(self._op, operands, threads, self._created_for) and key is not None \
                and len(self._torch_keys) < 64:
            self._torch_keys.add(key)
        return returned(results)


class AttentionSoftmax(_IndexedOperator):
    """simdax.attention_softmax for one layout: softmax(softcap(x * scale) +
    mask + slope * (j - i')) over the last axis (keys) of scores of `shape`.

    mask_shape, alibi_slopes_shape, sinks_shape: the shapes of the arrays
    each call will pass (fewer dims get leading 1s); None: not used.
    *_dtype: theirs (None: the input's; bool or uint8 for a boolean mask).
    *_strides, strides, out_strides: element strides (None: packed).
    scale, softcap, causal, window, log, return_log_sum_exp: as in
    attention_softmax. isa: cap the ISA of this operator.
    """

    _kind = "attention_softmax"

    def __init__(self, shape: Shape, dtype: Any, *, mask_shape: Optional[Shape] = None,
                 mask_dtype: Any = None, alibi_slopes_shape: Optional[Shape] = None,
                 alibi_slopes_dtype: Any = None, sinks_shape: Optional[Shape] = None,
                 sinks_dtype: Any = None, scale: float = 1.0, softcap: float = 0.0,
                 causal: str = "none", window: int = 0, log: bool = False,
                 return_log_sum_exp: bool = False, strides: Optional[Shape] = None,
                 out_strides: Optional[Shape] = None, mask_strides: Optional[Shape] = None,
                 alibi_slopes_strides: Optional[Shape] = None,
                 sinks_strides: Optional[Shape] = None, isa: Optional[str] = None):
        super().__init__(shape, dtype, strides, out_strides)
        self._declare(MASK, "mask", mask_shape, mask_dtype, mask_strides, True)
        self._declare(ALIBI_SLOPES, "alibi_slopes", alibi_slopes_shape, alibi_slopes_dtype,
                      alibi_slopes_strides, True)
        self._declare(SINKS, "sinks", sinks_shape, sinks_dtype, sinks_strides, True)
        self.return_log_sum_exp = bool(return_log_sum_exp)
        if self.return_log_sum_exp:
            self._declare(LOG_SUM_EXP, "log_sum_exp", log_sum_exp_shape(self.shape), "float32",
                          None)
        self._create(attention_params(scale, softcap, causal, window, log), isa)

    def __call__(self, x: Any, mask: Any = None, *, alibi_slopes: Any = None, sinks: Any = None,
                 out: Any = None, threads: Optional[int] = None) -> Any:
        """Runs on x with the mask, slopes and sinks the operator was created
        for. Returns out (a new packed array of x's kind when None), or
        (out, log_sum_exp)."""
        return self._run((INPUT, MASK, ALIBI_SLOPES, SINKS), (x, mask, alibi_slopes, sinks), out,
                         not self.return_log_sum_exp,
                         lambda: attention_operands(x, mask, alibi_slopes, sinks, out,
                                                    self.return_log_sum_exp), threads)


class _Normalization(_IndexedOperator):
    """LayerNorm and RMSNorm: the same operands but bias and the statistics."""

    def __init__(self, shape: Shape, dtype: Any, *, scale_shape: Optional[Shape],
                 bias_shape: Optional[Shape] = None, axis: int, epsilon: float, skip: bool,
                 skip_bias_shape: Optional[Shape], return_skip_sum: bool,
                 return_mean_inv_std: bool = False, scale_dtype: Any, bias_dtype: Any = None,
                 skip_bias_dtype: Any, strides: Optional[Shape], out_strides: Optional[Shape],
                 scale_strides: Optional[Shape], bias_strides: Optional[Shape] = None,
                 skip_strides: Optional[Shape], skip_bias_strides: Optional[Shape],
                 isa: Optional[str]):
        super().__init__(shape, dtype, strides, out_strides)
        self.axis = int(axis)
        if scale_shape is None:  # the normalized dims, as torch's LayerNorm weight
            scale_shape = self.shape[self.axis:]
        self._declare(SCALE, "scale", scale_shape, scale_dtype, scale_strides)
        self._declare(BIAS, "bias", bias_shape, bias_dtype, bias_strides)
        self.skip = bool(skip)
        if self.skip:
            self._declare(SKIP, "skip", self.shape, None, skip_strides)
        elif skip_strides is not None:
            raise ValueError("skip_strides: given without skip=True")
        self._declare(SKIP_BIAS, "skip_bias", skip_bias_shape, skip_bias_dtype, skip_bias_strides)
        self.return_skip_sum = bool(return_skip_sum)
        if self.return_skip_sum:
            self._declare(SKIP_SUM, "skip_sum", self.shape, None, None)
        self.return_mean_inv_std = bool(return_mean_inv_std)
        if self.return_mean_inv_std:
            for index, what in ((MEAN, "mean"), (INV_STD_DEV, "inv_std_dev")):
                self._declare(index, what, statistics_shape(self.shape, self.axis), "float32",
                              None)
        self._create(norm_params(self.axis, epsilon), isa)

    def _normalize(self, x: Any, scale: Any, bias: Any, skip: Any, skip_bias: Any, out: Any,
                   threads: Optional[int]) -> Any:
        return self._run((INPUT, SCALE, BIAS, SKIP, SKIP_BIAS), (x, scale, bias, skip, skip_bias),
                         out, not (self.return_skip_sum or self.return_mean_inv_std),
                         lambda: norm_operands(x, scale, bias, skip, skip_bias, out, self.axis,
                                               self.return_skip_sum,
                                               self.return_mean_inv_std), threads)


class LayerNorm(_Normalization):
    """simdax.layer_norm for one layout: ONNX LayerNormalization-17 over dims
    [axis, rank), with the optional fused residual add x + skip + skip_bias.

    scale_shape: the shape of the scale each call passes (None: the
    normalized dims, shape[axis:]); bias_shape, skip_bias_shape: None when
    not used; skip: whether calls pass a skip array (the input's shape and
    dtype). *_dtype: the input's when None, or float32 for float16/bfloat16
    data. return_skip_sum, return_mean_inv_std, axis, epsilon: as in
    layer_norm. *_strides, strides, out_strides: element strides (None:
    packed). isa: cap the ISA of this operator.
    """

    _kind = "layer_norm"

    def __init__(self, shape: Shape, dtype: Any, *, scale_shape: Optional[Shape] = None,
                 bias_shape: Optional[Shape] = None, axis: int = -1, epsilon: float = 1e-5,
                 skip: bool = False, skip_bias_shape: Optional[Shape] = None,
                 return_skip_sum: bool = False, return_mean_inv_std: bool = False,
                 scale_dtype: Any = None, bias_dtype: Any = None, skip_bias_dtype: Any = None,
                 strides: Optional[Shape] = None, out_strides: Optional[Shape] = None,
                 scale_strides: Optional[Shape] = None, bias_strides: Optional[Shape] = None,
                 skip_strides: Optional[Shape] = None,
                 skip_bias_strides: Optional[Shape] = None, isa: Optional[str] = None):
        super().__init__(shape, dtype, scale_shape=scale_shape, bias_shape=bias_shape, axis=axis,
                         epsilon=epsilon, skip=skip, skip_bias_shape=skip_bias_shape,
                         return_skip_sum=return_skip_sum,
                         return_mean_inv_std=return_mean_inv_std, scale_dtype=scale_dtype,
                         bias_dtype=bias_dtype, skip_bias_dtype=skip_bias_dtype, strides=strides,
                         out_strides=out_strides, scale_strides=scale_strides,
                         bias_strides=bias_strides, skip_strides=skip_strides,
                         skip_bias_strides=skip_bias_strides, isa=isa)

    def __call__(self, x: Any, scale: Any, bias: Any = None, *, skip: Any = None,
                 skip_bias: Any = None, out: Any = None, threads: Optional[int] = None) -> Any:
        """Runs on x with the operands the operator was created for. Returns
        out, followed by the skip sum, mean and inv_std_dev when asked."""
        return self._normalize(x, scale, bias, skip, skip_bias, out, threads)


class RMSNorm(_Normalization):
    """simdax.rms_norm for one layout: ONNX RMSNormalization-23 over dims
    [axis, rank), x' / sqrt(mean(x'^2) + epsilon) * scale, x' = x + skip +
    skip_bias when skip. Arguments as LayerNorm's (no bias, no statistics).
    """

    _kind = "rms_norm"

    def __init__(self, shape: Shape, dtype: Any, *, scale_shape: Optional[Shape] = None,
                 axis: int = -1, epsilon: float = 1e-5, skip: bool = False,
                 skip_bias_shape: Optional[Shape] = None, return_skip_sum: bool = False,
                 scale_dtype: Any = None, skip_bias_dtype: Any = None,
                 strides: Optional[Shape] = None, out_strides: Optional[Shape] = None,
                 scale_strides: Optional[Shape] = None, skip_strides: Optional[Shape] = None,
                 skip_bias_strides: Optional[Shape] = None, isa: Optional[str] = None):
        super().__init__(shape, dtype, scale_shape=scale_shape, axis=axis, epsilon=epsilon,
                         skip=skip, skip_bias_shape=skip_bias_shape,
                         return_skip_sum=return_skip_sum, scale_dtype=scale_dtype,
                         skip_bias_dtype=skip_bias_dtype, strides=strides,
                         out_strides=out_strides, scale_strides=scale_strides,
                         skip_strides=skip_strides, skip_bias_strides=skip_bias_strides, isa=isa)

    def __call__(self, x: Any, scale: Any, *, skip: Any = None, skip_bias: Any = None,
                 out: Any = None, threads: Optional[int] = None) -> Any:
        """Runs on x with the operands the operator was created for. Returns
        out, or (out, skip sum) with return_skip_sum."""
        return self._normalize(x, scale, None, skip, skip_bias, out, threads)
