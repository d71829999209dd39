"""simdax: hand-vectorized CPU kernels for numpy arrays and torch tensors.

Functions (one call each): log_softmax, softmax, hardmax, mvn, hard_sigmoid,
activation and one function per activation (relu, gelu, ...); cast; the
transformer operators attention_softmax, layer_norm and rms_norm. Operator
objects (created once, called many times): LogSoftmax, Softmax, Hardmax,
MeanVarianceNormalization (MVN), HardSigmoid, Activation, Cast,
AttentionSoftmax, LayerNorm, RMSNorm. Arrays: numpy
(float16, ml_dtypes.bfloat16, float32, float64), CPU torch tensors and CPU
DLPack objects, any strides, never copied. torch.ops.simdax.*: call
simdax.register_torch_ops(). Details: docs/python.md.
"""
from . import _simdax
from ._activations import (celu, elu, gelu, identity, leaky_relu, linear, parametric_softplus,
                           relu, scaled_elu, scaled_tanh, shrink, sigmoid, softplus, softsign,
                           tanh, thresholded_relu)
from ._functions import (activation, activation_defaults, cast, clear_cache, hard_sigmoid,
                         hardmax, log_softmax, mean_variance_normalization, mvn, softmax)
from ._isa import info, max_isa, set_max_isa
from ._transformer import attention_softmax, layer_norm, rms_norm
from ._operators import (MVN, Activation, Cast, HardSigmoid, Hardmax, LogSoftmax,
                         MeanVarianceNormalization, Softmax)
from ._transformer_operators import AttentionSoftmax, LayerNorm, RMSNorm

__version__: str = _simdax.version()

#: Every activation name the library has, in the C API's order.
ACTIVATIONS = tuple(_simdax.activation_names())


def register_torch_ops() -> None:
    """Registers torch.ops.simdax.* (imports torch; safe to call twice)."""
    from . import _torch_ops
    _torch_ops.register()


__all__ = [
    "ACTIVATIONS", "MVN", "Activation", "AttentionSoftmax", "Cast", "HardSigmoid", "Hardmax",
    "LayerNorm", "LogSoftmax", "MeanVarianceNormalization", "RMSNorm", "Softmax", "activation",
    "activation_defaults", "attention_softmax", "cast", "celu", "layer_norm", "rms_norm",
    "clear_cache", "elu", "gelu", "hard_sigmoid", "hardmax", "identity", "info",
    "leaky_relu", "linear", "log_softmax", "max_isa", "mean_variance_normalization", "mvn",
    "parametric_softplus", "register_torch_ops", "relu", "scaled_elu", "scaled_tanh",
    "set_max_isa", "shrink", "sigmoid", "softmax", "softplus", "softsign", "tanh",
    "thresholded_relu",
]
