"""Each standalone activation as its own function (simdax.activation with
the name filled in). Parameter meanings follow simdax.h; None keeps
DirectML's default."""
from __future__ import annotations

from typing import Any, Optional

from ._functions import activation


def identity(x: Any, **kw: Any) -> Any:
    """x."""
    return activation(x, "identity", **kw)


def linear(x: Any, alpha: Optional[float] = None, beta: Optional[float] = None, **kw: Any) -> Any:
    """alpha * x + beta."""
    return activation(x, "linear", alpha, beta, **kw)


def relu(x: Any, **kw: Any) -> Any:
    """max(0, x)."""
    return activation(x, "relu", **kw)


def leaky_relu(x: Any, alpha: Optional[float] = None, **kw: Any) -> Any:
    """x >= 0 ? x : alpha * x (alpha 0.01)."""
    return activation(x, "leaky_relu", alpha, **kw)


def elu(x: Any, alpha: Optional[float] = None, **kw: Any) -> Any:
    """x >= 0 ? x : alpha * (exp(x) - 1) (alpha 1)."""
    return activation(x, "elu", alpha, **kw)


def celu(x: Any, alpha: Optional[float] = None, **kw: Any) -> Any:
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) (alpha 1)."""
    return activation(x, "celu", alpha, **kw)


def scaled_elu(x: Any, alpha: Optional[float] = None, gamma: Optional[float] = None,
               **kw: Any) -> Any:
    """x > 0 ? gamma * x : gamma * alpha * (exp(x) - 1) (SELU constants)."""
    return activation(x, "scaled_elu", alpha, None, gamma, **kw)


def sigmoid(x: Any, **kw: Any) -> Any:
    """1 / (1 + exp(-x))."""
    return activation(x, "sigmoid", **kw)


def tanh(x: Any, **kw: Any) -> Any:
    """tanh(x)."""
    return activation(x, "tanh", **kw)


def scaled_tanh(x: Any, alpha: Optional[float] = None, beta: Optional[float] = None,
                **kw: Any) -> Any:
    """alpha * tanh(beta * x) (1, 1)."""
    return activation(x, "scaled_tanh", alpha, beta, **kw)


def softplus(x: Any, alpha: Optional[float] = None, **kw: Any) -> Any:
    """ln(1 + exp(alpha * x)) / alpha (alpha = steepness, 1)."""
    return activation(x, "softplus", alpha, **kw)


def parametric_softplus(x: Any, alpha: Optional[float] = None, beta: Optional[float] = None,
                        **kw: Any) -> Any:
    """alpha * ln(1 + exp(beta * x)) (1, 1)."""
    return activation(x, "parametric_softplus", alpha, beta, **kw)


def softsign(x: Any, **kw: Any) -> Any:
    """x / (1 + |x|)."""
    return activation(x, "softsign", **kw)


def thresholded_relu(x: Any, alpha: Optional[float] = None, **kw: Any) -> Any:
    """x > alpha ? x : 0 (alpha 1)."""
    return activation(x, "thresholded_relu", alpha, **kw)


def shrink(x: Any, alpha: Optional[float] = None, beta: Optional[float] = None,
           **kw: Any) -> Any:
    """x > beta ? x - alpha : (x < -beta ? x + alpha : 0) (alpha = bias 0, beta = threshold 0.5)."""
    return activation(x, "shrink", alpha, beta, **kw)


def gelu(x: Any, **kw: Any) -> Any:
    """0.5 * x * (1 + erf(x / sqrt(2)))."""
    return activation(x, "gelu", **kw)
