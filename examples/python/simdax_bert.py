"""Serve a transformers BERT-style model's LayerNorms and attention softmax
with simdax (torch.ops.simdax), for inference on CPU.

    model = SentenceTransformer(path, device="cpu", model_kwargs={"attn_implementation": "eager"})
    use_simdax(model)        # LayerNorm -> simdax layer_norm, attention -> simdax attention_softmax

LayerNorm is simdax's LayerNormalization over the last axis (epsilon on the
variance: exactly torch's formula). The attention's scale and additive mask
are fused into simdax's attention softmax: no separate pass over the scores.
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
        return torch.ops.simdax.layer_norm(x, self.weight, self.bias, epsilon=self.eps,
                                           threads=simdax_threads(self))


def simdax_attention(module, query, key, value, attention_mask, scaling=None, dropout=0.0,
                     **kwargs):
    """transformers' eager attention with softmax(scores * scale + mask) by
    simdax's attention softmax (scale and mask fused, in one pass)."""
    if scaling is None:
        scaling = query.size(-1) ** -0.5
    scores = torch.matmul(query, key.transpose(2, 3))
    weights = torch.ops.simdax.attention_softmax(scores, attention_mask, scale=float(scaling),
                                                 threads=simdax_threads(module))
    return torch.matmul(weights, value).transpose(1, 2).contiguous(), weights


# "simdax" gets the same additive float mask as "eager".
AttentionInterface.register("simdax", simdax_attention)
AttentionMaskInterface.register("simdax", eager_mask)


def use_simdax(model: nn.Module, threads: int | None = None) -> nn.Module:
    """Swaps every LayerNorm for SimdaxLayerNorm and sets the transformers
    models inside to simdax attention. threads: for the simdax operators
    (None: torch.get_num_threads() at each call). Returns the model."""
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
