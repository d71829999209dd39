"""torch.ops.simdax.*: every simdax operator as a PyTorch custom operator on
CPU tensors, with a fake kernel each so torch.compile traces through them,
and an autograd rule that says plainly there is no gradient.

Imported by simdax.register_torch_ops(), never by `import simdax`: torch
stays optional. Each op returns a new packed tensor of the input's dtype (cast:
of the dtype asked for).
"""
from __future__ import annotations

from typing import List, Optional

import torch

from . import _functions, _transformer


def _no_gradient(name: str):
    def backward(ctx, *grads):
        raise RuntimeError(
            f"torch.ops.simdax.{name} has no gradient: simdax kernels are for inference. "
            "Run it under torch.no_grad() / torch.inference_mode(), or use the torch "
            "operator when training.")
    return backward


def _setup_nothing(ctx, inputs, output) -> None:
    pass


def _finish(op, name: str) -> None:
    op.register_fake(lambda x, *args, **kwargs: x.new_empty(x.shape))
    op.register_autograd(_no_gradient(name), setup_context=_setup_nothing)


@torch.library.custom_op("simdax::log_softmax", mutates_args=(), device_types="cpu")
def log_softmax(x: torch.Tensor, axes: List[int], threads: int = 1) -> torch.Tensor:
    """simdax.log_softmax over axes."""
    return _functions.log_softmax(x, axes, threads=threads)


@torch.library.custom_op("simdax::softmax", mutates_args=(), device_types="cpu")
def softmax(x: torch.Tensor, axes: List[int], threads: int = 1) -> torch.Tensor:
    """simdax.softmax over axes."""
    return _functions.softmax(x, axes, threads=threads)


@torch.library.custom_op("simdax::hardmax", mutates_args=(), device_types="cpu")
def hardmax(x: torch.Tensor, axes: List[int], threads: int = 1) -> torch.Tensor:
    """simdax.hardmax over axes."""
    return _functions.hardmax(x, axes, threads=threads)


@torch.library.custom_op("simdax::mvn", mutates_args=(), device_types="cpu")
def mvn(x: torch.Tensor, axes: List[int], scale: Optional[torch.Tensor] = None,
        bias: Optional[torch.Tensor] = None, normalize_variance: bool = True,
        epsilon: float = 1e-5, epsilon_placement: str = "directml",
        activation: Optional[str] = None, alpha: Optional[float] = None,
        beta: Optional[float] = None, gamma: Optional[float] = None,
        threads: int = 1) -> torch.Tensor:
    """simdax.mvn; LayerNorm(x) is mvn(x, [-1], weight, bias, epsilon=eps)."""
    return _functions.mvn(x, axes, scale, bias, normalize_variance=normalize_variance,
                          epsilon=epsilon, epsilon_placement=epsilon_placement,
                          activation=activation, alpha=alpha, beta=beta, gamma=gamma,
                          threads=threads)


@torch.library.custom_op("simdax::hard_sigmoid", mutates_args=(), device_types="cpu")
def hard_sigmoid(x: torch.Tensor, alpha: float = 0.2, beta: float = 0.5,
                 threads: int = 1) -> torch.Tensor:
    """simdax.hard_sigmoid."""
    return _functions.hard_sigmoid(x, alpha, beta, threads=threads)


@torch.library.custom_op("simdax::activation", mutates_args=(), device_types="cpu")
def activation(x: torch.Tensor, name: str, alpha: Optional[float] = None,
               beta: Optional[float] = None, gamma: Optional[float] = None,
               threads: int = 1) -> torch.Tensor:
    """simdax.activation: the element-wise activation `name` (simdax.ACTIVATIONS)."""
    return _functions.activation(x, name, alpha, beta, gamma, threads=threads)


@torch.library.custom_op("simdax::attention_softmax", mutates_args=(), device_types="cpu")
def attention_softmax(x: torch.Tensor, mask: Optional[torch.Tensor] = None, scale: float = 1.0,
                      softcap: float = 0.0, causal: str = "none", window: int = 0,
                      log: bool = False, threads: int = 1) -> torch.Tensor:
    """simdax.attention_softmax: softmax(softcap(x * scale) + mask) over the last axis."""
    return _transformer.attention_softmax(x, mask, scale=scale, softcap=softcap, causal=causal,
                                          window=window, log=log, threads=threads)


@torch.library.custom_op("simdax::layer_norm", mutates_args=(), device_types="cpu")
def layer_norm(x: torch.Tensor, scale: torch.Tensor, bias: Optional[torch.Tensor] = None,
               axis: int = -1, epsilon: float = 1e-5, skip: Optional[torch.Tensor] = None,
               skip_bias: Optional[torch.Tensor] = None, threads: int = 1) -> torch.Tensor:
    """simdax.layer_norm (ONNX LayerNormalization, optional fused residual add)."""
    return _transformer.layer_norm(x, scale, bias, axis=axis, epsilon=epsilon, skip=skip,
                                   skip_bias=skip_bias, threads=threads)


@torch.library.custom_op("simdax::rms_norm", mutates_args=(), device_types="cpu")
def rms_norm(x: torch.Tensor, scale: torch.Tensor, axis: int = -1, epsilon: float = 1e-5,
             skip: Optional[torch.Tensor] = None, skip_bias: Optional[torch.Tensor] = None,
             threads: int = 1) -> torch.Tensor:
    """simdax.rms_norm (ONNX RMSNormalization, optional fused residual add)."""
    return _transformer.rms_norm(x, scale, axis=axis, epsilon=epsilon, skip=skip,
                                 skip_bias=skip_bias, threads=threads)


@torch.library.custom_op("simdax::cast", mutates_args=(), device_types="cpu")
def cast(x: torch.Tensor, dtype: torch.dtype, threads: int = 1) -> torch.Tensor:
    """simdax.cast: x converted to dtype (float32, float16, bfloat16, float64),
    rounded to nearest even."""
    return _functions.cast(x, dtype, threads=threads)


for _op, _name in ((log_softmax, "log_softmax"), (softmax, "softmax"), (hardmax, "hardmax"),
                   (mvn, "mvn"), (hard_sigmoid, "hard_sigmoid"), (activation, "activation"),
                   (attention_softmax, "attention_softmax"), (layer_norm, "layer_norm"),
                   (rms_norm, "rms_norm")):
    _finish(_op, _name)
# The output has the dtype asked for, not x's.
cast.register_fake(lambda x, dtype, threads=1: x.new_empty(x.shape, dtype=dtype))
cast.register_autograd(_no_gradient("cast"), setup_context=_setup_nothing)


def register() -> None:
    """The decorators above registered everything when this module was imported."""
