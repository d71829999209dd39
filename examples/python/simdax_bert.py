"""Serve a transformers BERT-style model's LayerNorms and attention softmax
with simdax, for inference on CPU.

    model = SentenceTransformer(path, device="cpu", model_kwargs={"attn_implementation": "eager"})
    use_simdax(model)        # LayerNorm -> simdax layer_norm, attention -> simdax attention_softmax

LayerNorm is simdax's LayerNormalization over the last axis (epsilon on the
variance: exactly torch's formula). The attention's scale and additive mask
are fused into simdax's attention softmax: no separate pass over the scores.

In eager inference (grad off, plain CPU tensors, nothing tracing) both call
the simdax functions directly: the same operators and bits as through
torch.ops.simdax, without the custom-op dispatch (about 6 us a call,
examples/python/minilm_call_cost.py); simdax reuses each operator for
tensors of the same dtypes, shapes and strides. Everywhere else
(torch.compile, torch.export, jit tracing, fake tensors, grad on: the op's
"no gradient" error) they call torch.ops.simdax, whose fake kernels
torch.compile traces.
"""
from __future__ import annotations

import torch
from torch import nn
from transformers import AttentionInterface
from transformers.masking_utils import AttentionMaskInterface, eager_mask

import simdax

simdax.register_torch_ops()



def simdax_threads(module: nn.Module) -> int:
    """The threads use_simdax gave the model; None follows torch.get_num_threads()."""
    threads = getattr(module, "simdax_threads", None)
    return torch.get_num_threads() if threads is None else threads


def eager_inference(x: torch.Tensor) -> bool:
    """Whether to call simdax directly rather than through torch.ops.simdax."""
    return (type(x) is torch.Tensor and not torch.is_grad_enabled()
            and not torch.compiler.is_compiling() and not torch.jit.is_tracing())


def direct(name: str, function, *args, **kwargs) -> torch.Tensor:
    """function(*args, **kwargs), seen by the torch profiler as the op
    `name` when it records (as the torch.ops.simdax call would be)."""
    if not torch.autograd._profiler_enabled():
        return function(*args, **kwargs)
    with torch.profiler.record_function(name):
        return function(*args, **kwargs)


class SimdaxLayerNorm(nn.Module):
    """torch.nn.LayerNorm over the last axis, computed by simdax layer_norm."""

    def __init__(self, layer_norm: nn.LayerNorm):
        super().__init__()
        if len(layer_norm.normalized_shape) != 1:
            raise ValueError("SimdaxLayerNorm normalises the last axis only")
        self.weight = layer_norm.weight
        self.bias = layer_norm.bias
        self.eps = layer_norm.eps
        self.simdax_threads: int | None = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if eager_inference(x):
            return direct("simdax::layer_norm", simdax.layer_norm, x, self.weight, self.bias,
                          epsilon=self.eps, threads=simdax_threads(self))
        return torch.ops.simdax.layer_norm(x, self.weight, self.bias, epsilon=self.eps,
                                           threads=simdax_threads(self))


def simdax_attention(module, query, key, value, attention_mask, scaling=None, dropout=0.0,
                     **kwargs):
    """transformers' eager attention with softmax(scores * scale + mask) by
    simdax's attention softmax (scale and mask fused, in one pass)."""
    if scaling is None:
        scaling = query.size(-1) ** -0.5
    scores = torch.matmul(query, key.transpose(2, 3))
    if eager_inference(scores):
        # In place: the scores are a temporary, and a fresh 25 MB output (at
        # batch 32) would fault its pages in inside the call.
        weights = direct("simdax::attention_softmax", simdax.attention_softmax, scores,
                         attention_mask, scale=float(scaling), out=scores,
                         threads=simdax_threads(module))
    else:
        weights = torch.ops.simdax.attention_softmax(scores, attention_mask,
                                                     scale=float(scaling),
                                                     threads=simdax_threads(module))
    return torch.matmul(weights, value).transpose(1, 2).contiguous(), weights


# "simdax" gets the same additive float mask as "eager".
AttentionInterface.register("simdax", simdax_attention)
AttentionMaskInterface.register("simdax", eager_mask)


def use_simdax(model: nn.Module, threads: int | None = 1) -> nn.Module:
    """Swaps every LayerNorm for SimdaxLayerNorm and sets the transformers
    models inside to simdax attention. threads: for the simdax operators
    (None: torch.get_num_threads() at each call, on simdax's own pool). The
    default, 1, runs them on the calling thread: torch's OpenMP threads keep
    the other cores (they spin between operators), and a second pool beside
    them waits for a core (batch 1 at 2 threads: 33.5 against 24.4 ms).
    Returns the model."""
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, nn.LayerNorm):
                setattr(parent, name, SimdaxLayerNorm(child))
    for module in model.modules():
        if hasattr(module, "set_attn_implementation") and hasattr(module, "config"):
            module.set_attn_implementation("simdax")
    for module in model.modules():  # read by SimdaxLayerNorm and simdax_attention
        module.simdax_threads = threads
    return model
