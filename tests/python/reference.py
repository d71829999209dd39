"""Float64 references written from the formulas in include/simdax/simdax.h,
independently of the library: the tests compare simdax against these."""
import math

import ml_dtypes
import numpy as np


def _f64(x):
    return np.asarray(x, dtype=np.float64)


def softmax(x, axes):
    x = _f64(x)
    e = np.exp(x - x.max(axis=axes, keepdims=True))
    return e / e.sum(axis=axes, keepdims=True)


def log_softmax(x, axes):
    x = _f64(x)
    shifted = x - x.max(axis=axes, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axes, keepdims=True))


def hardmax(x, axes):
    """1 at the first maximum (row-major order over the reduced axes)."""
    x = _f64(x)
    axes = tuple(a % x.ndim for a in axes)
    kept = [a for a in range(x.ndim) if a not in axes]
    moved = np.moveaxis(x, kept + list(axes), list(range(x.ndim)))
    flat = moved.reshape(moved.shape[:len(kept)] + (-1,))
    first = flat.argmax(axis=-1)
    onehot = np.zeros_like(flat)
    np.put_along_axis(onehot, first[..., None], 1.0, axis=-1)
    onehot = onehot.reshape(moved.shape)
    return np.moveaxis(onehot, list(range(x.ndim)), kept + list(axes))


def mvn(x, axes, scale=None, bias=None, normalize_variance=True, epsilon=1e-5,
        placement="directml"):
    x = _f64(x)
    epsilon = float(np.float32(epsilon))  # the C API takes epsilon as a float
    centred = x - x.mean(axis=axes, keepdims=True)
    if normalize_variance:
        var = (centred ** 2).mean(axis=axes, keepdims=True)
        if placement == "directml":
            centred = centred / np.sqrt(var + epsilon)
        else:
            centred = centred / (np.sqrt(var) + epsilon)
    if scale is not None:
        centred = centred * _f64(scale)
    if bias is not None:
        centred = centred + _f64(bias)
    return centred


_erf = np.vectorize(math.erf)


def activation(name, x, alpha=None, beta=None, gamma=None):
    x = _f64(x)
    # The C API takes the parameters as floats.
    a, b, g = (None if v is None else float(np.float32(v)) for v in (alpha, beta, gamma))
    if name == "identity":
        return x
    if name == "linear":
        return a * x + b
    if name == "relu":
        return np.maximum(0, x)
    if name == "leaky_relu":
        return np.where(x >= 0, x, a * x)
    if name == "elu":
        return np.where(x >= 0, x, a * np.expm1(x))
    if name == "celu":
        return np.maximum(0, x) + np.minimum(0, a * np.expm1(x / a))
    if name == "scaled_elu":
        return np.where(x > 0, g * x, g * a * np.expm1(x))
    if name == "sigmoid":
        return 1 / (1 + np.exp(-x))
    if name == "hard_sigmoid":
        return np.maximum(0, np.minimum(a * x + b, 1))
    if name == "tanh":
        return np.tanh(x)
    if name == "scaled_tanh":
        return a * np.tanh(b * x)
    if name == "softplus":
        return np.log1p(np.exp(a * x)) / a
    if name == "parametric_softplus":
        return a * np.log1p(np.exp(b * x))
    if name == "softsign":
        return x / (1 + np.abs(x))
    if name == "thresholded_relu":
        return np.where(x > a, x, 0.0)
    if name == "shrink":
        return np.where(x > b, x - a, np.where(x < -b, x + a, 0.0))
    if name == "gelu":
        return 0.5 * x * (1 + _erf(x / math.sqrt(2)))
    raise KeyError(name)


# Parameters the tests pass explicitly (not the library's defaults).
ACTIVATION_PARAMS = {
    "identity": {}, "linear": {"alpha": 1.5, "beta": -0.25}, "relu": {},
    "leaky_relu": {"alpha": 0.1}, "elu": {"alpha": 0.7}, "celu": {"alpha": 1.3},
    "scaled_elu": {"alpha": 1.6, "gamma": 1.05}, "sigmoid": {},
    "hard_sigmoid": {"alpha": 0.3, "beta": 0.4}, "tanh": {},
    "scaled_tanh": {"alpha": 1.7, "beta": 0.6}, "softplus": {"alpha": 2.0},
    "parametric_softplus": {"alpha": 0.8, "beta": 1.2}, "softsign": {},
    "thresholded_relu": {"alpha": 0.3}, "shrink": {"alpha": 0.1, "beta": 0.6}, "gelu": {},
}


def attention_softmax(x, mask=None, scale=1.0, causal="none", sinks=None):
    """(softmax over the last axis, log of each row's denominator)."""
    z = np.asarray(x, np.float64) * scale
    if mask is not None:
        m = np.asarray(mask)
        z = z + (np.where(m != 0, 0.0, -np.inf) if m.dtype in (np.bool_, np.uint8)
                 else m.astype(np.float64))
    sq, skv = z.shape[-2], z.shape[-1]
    if causal != "none":
        shift = skv - sq if causal == "bottom_right" else 0
        i = np.arange(sq)[:, None] + shift
        z = np.where(np.arange(skv)[None, :] <= i, z, -np.inf)
    m = z.max(axis=-1, keepdims=True)
    if sinks is not None:
        m = np.maximum(m, np.asarray(sinks, np.float64))
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(z - m)
    total = e.sum(axis=-1, keepdims=True)
    if sinks is not None:
        total = total + np.exp(np.asarray(sinks, np.float64) - m)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, e / total, 0.0), m + np.log(total)


def layer_norm(x, scale, bias=None, axis=-1, eps=1e-5, skip=None, rms=False):
    """(y, x + skip, mean, 1 / standard deviation) over dims [axis, rank)."""
    s = np.asarray(x, np.float64)
    if skip is not None:
        s = s + np.asarray(skip, np.float64)
    axes = tuple(range(axis % s.ndim, s.ndim))
    mean = 0.0 if rms else s.mean(axis=axes, keepdims=True)
    var = ((s - mean) ** 2).mean(axis=axes, keepdims=True)
    inv = 1.0 / np.sqrt(var + float(np.float32(eps)))
    y = (s - mean) * inv * np.asarray(scale, np.float64)
    if bias is not None:
        y = y + np.asarray(bias, np.float64)
    return y, s, mean, inv


NUMPY_DTYPES = {"float32": np.float32, "float16": np.float16,
                "bfloat16": ml_dtypes.bfloat16, "float64": np.float64}


def cast(x, dtype):
    """x rounded once to nearest even in dtype, by numpy / ml_dtypes. ml_dtypes
    takes float64 to bfloat16 through float32 (two roundings): float64 data
    cast to bfloat16 must be exact in float32 for this reference to hold."""
    with np.errstate(over="ignore"):  # beyond the range: an infinity, as wanted
        return np.asarray(x).astype(NUMPY_DTYPES[dtype])
