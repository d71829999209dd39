"""Operator objects: created once for a shape, dtype and layout, called many
times. Creation validates and plans (the library's create); a call checks
the arrays' layout and runs with the GIL released."""
from __future__ import annotations

import functools
from typing import Any, Optional, Sequence, Tuple, Union

from . import _simdax
from ._arrays import dtype_name, layout, operand
from ._isa import effective_isa
from ._run import execute, mvn_operands, normalized_axes, output_for

Shape = Sequence[int]
Axes = Union[int, Sequence[int]]


def _with_rank(shape: Optional[Shape], rank: int) -> Optional[list]:
    if shape is None:
        return None
    shape = list(shape)
    return [1] * (rank - len(shape)) + shape


class _Operator:
    """What every operator object has: its tensors, ISA and plan."""

    _op: _simdax.Operator

    def __init__(self, shape: Shape, dtype: Any, strides: Optional[Shape],
                 out_strides: Optional[Shape], out_dtype: Any = None):
        self.shape: Tuple[int, ...] = tuple(int(s) for s in shape)
        self.dtype: str = dtype_name(dtype)
        self._input = _simdax.TensorSpec(self.dtype, list(self.shape),
                                         None if strides is None else list(strides))
        self._out_dtype = self.dtype if out_dtype is None else dtype_name(out_dtype)
        self._output = _simdax.TensorSpec(self._out_dtype, list(self.shape),
                                          None if out_strides is None else list(out_strides))

    @property
    def isa(self) -> str:
        """The ISA this operator was planned for."""
        return self._op.isa

    def describe(self) -> str:
        """The library's one-line description of the plan (as SIMDAX_VERBOSE prints)."""
        return self._op.describe()

    def __repr__(self) -> str:
        return f"<simdax.{type(self).__name__} {self.describe()}>"

    def _call(self, x: Any, out: Any, threads: Optional[int], scale: Any = None,
              bias: Any = None) -> Any:
        xo = operand(x, "input")
        result = output_for(xo, out, self._out_dtype)
        s, b = mvn_operands(xo, scale, bias)
        execute(self._op, xo, operand(result, "out"), threads, s, b, self._layouts)
        return result

    @functools.cached_property
    def _layouts(self):
        """(input, output, scale, bias) layouts as the operands report theirs."""
        def of(spec):
            return None if spec is None else layout(spec.dtype, spec.shape, spec.strides)
        return (of(self._input), of(self._output), of(getattr(self, "_scale", None)),
                of(getattr(self, "_bias", None)))


class _AxesOperator(_Operator):
    _kind = ""

    def __init__(self, shape: Shape, dtype: Any, axes: Axes = (-1,), *,
                 strides: Optional[Shape] = None, out_strides: Optional[Shape] = None,
                 isa: Optional[str] = None):
        super().__init__(shape, dtype, strides, out_strides)
        self.axes = normalized_axes(axes)
        self._op = _simdax.make_axes_operator(self._kind, self._input, self._output,
                                              list(self.axes), effective_isa(isa))

    def __call__(self, x: Any, out: Any = None, *, threads: Optional[int] = None) -> Any:
        """Runs on x (numpy array, torch tensor or DLPack object with the
        operator's dtype, shape and strides); writes out, or a new packed
        array of x's kind, and returns it."""
        return self._call(x, out, threads)


class LogSoftmax(_AxesOperator):
    """log(softmax(x)) over a set of axes: x - max - log(sum(exp(x - max))).

    strides/out_strides: element strides the arrays will have (None: packed).
    isa: cap the ISA of this operator ("scalar", "avx2", ...).
    """
    _kind = "log_softmax"


class Softmax(_AxesOperator):
    """exp(x - max) / sum(exp(x - max)) over a set of axes (DirectML Softmax1)."""
    _kind = "softmax"


class Hardmax(_AxesOperator):
    """1 at the first maximum of each group over the axes, 0 elsewhere."""
    _kind = "hardmax"


class MeanVarianceNormalization(_Operator):
    """(x - mean) / sqrt(var + epsilon) * scale + bias over axes, then an
    optional fused activation.

    epsilon_placement: "directml" adds epsilon to the variance (as torch
    LayerNorm), "onnx" to the standard deviation. normalize_variance=False
    only subtracts the mean. scale_shape/bias_shape: shapes of the scale and
    bias arrays each call will pass (sizes equal to the input's or 1; fewer
    dimensions get leading 1s); None: no scale / bias. activation: a name of
    simdax.ACTIVATIONS, with alpha/beta/gamma overriding its defaults.
    """

    def __init__(self, shape: Shape, dtype: Any, axes: Axes = (-1,), *,
                 scale_shape: Optional[Shape] = None, bias_shape: Optional[Shape] = None,
                 scale_strides: Optional[Shape] = None, bias_strides: Optional[Shape] = None,
                 normalize_variance: bool = True, epsilon: float = 1e-5,
                 epsilon_placement: str = "directml", activation: Optional[str] = None,
                 alpha: Optional[float] = None, beta: Optional[float] = None,
                 gamma: Optional[float] = None, strides: Optional[Shape] = None,
                 out_strides: Optional[Shape] = None, isa: Optional[str] = None):
        super().__init__(shape, dtype, strides, out_strides)
        self.axes = normalized_axes(axes)
        rank = len(self.shape)

        def side(shape_: Optional[Shape], strides_: Optional[Shape]):
            if shape_ is None:
                return None
            full = _with_rank(shape_, rank)
            st = None if strides_ is None else _with_rank(strides_, rank)
            return _simdax.TensorSpec(self.dtype, full, st)

        self._scale = side(scale_shape, scale_strides)
        self._bias = side(bias_shape, bias_strides)
        self._op = _simdax.make_mvn_operator(
            self._input, self._output, list(self.axes), self._scale, self._bias, bool(normalize_variance), float(epsilon),
            epsilon_placement, activation, alpha, beta, gamma, effective_isa(isa))

    def __call__(self, x: Any, scale: Any = None, bias: Any = None, out: Any = None, *,
                 threads: Optional[int] = None) -> Any:
        """Runs on x with the scale and bias the operator was created for."""
        return self._call(x, out, threads, scale, bias)


MVN = MeanVarianceNormalization


class HardSigmoid(_Operator):
    """max(0, min(alpha * x + beta, 1)) element-wise; out may be x (in place)."""

    def __init__(self, shape: Shape, dtype: Any, alpha: float = 0.2, beta: float = 0.5, *,
                 strides: Optional[Shape] = None, out_strides: Optional[Shape] = None,
                 isa: Optional[str] = None):
        super().__init__(shape, dtype, strides, out_strides)
        self._op = _simdax.make_hard_sigmoid_operator(self._input, self._output, float(alpha),
                                                      float(beta), effective_isa(isa))

    def __call__(self, x: Any, out: Any = None, *, threads: Optional[int] = None) -> Any:
        return self._call(x, out, threads)


class Activation(_Operator):
    """A standalone element-wise activation (simdax.ACTIVATIONS); out may be x.

    alpha/beta/gamma: None keeps DirectML's default for that activation
    (simdax.activation_defaults(name)).
    """

    def __init__(self, shape: Shape, dtype: Any, activation: str,
                 alpha: Optional[float] = None, beta: Optional[float] = None,
                 gamma: Optional[float] = None, *, strides: Optional[Shape] = None,
                 out_strides: Optional[Shape] = None, isa: Optional[str] = None):
        super().__init__(shape, dtype, strides, out_strides)
        self.activation = activation
        self._op = _simdax.make_activation_operator(self._input, self._output, activation,
                                                    alpha, beta, gamma, effective_isa(isa))

    def __call__(self, x: Any, out: Any = None, *, threads: Optional[int] = None) -> Any:
        return self._call(x, out, threads)


class Cast(_Operator):
    """x converted to the dtype `to` (float32, float16, bfloat16, float64),
    each element rounded once to nearest even (simdax.cast). out may be x
    only when `to` is x's dtype."""

    def __init__(self, shape: Shape, dtype: Any, to: Any, *, strides: Optional[Shape] = None,
                 out_strides: Optional[Shape] = None, isa: Optional[str] = None):
        super().__init__(shape, dtype, strides, out_strides, to)
        self.to: str = self._out_dtype
        self._op = _simdax.make_cast_operator(self._input, self._output, effective_isa(isa))

    def __call__(self, x: Any, out: Any = None, *, threads: Optional[int] = None) -> Any:
        return self._call(x, out, threads)
