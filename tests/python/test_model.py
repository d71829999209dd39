"""all-MiniLM-L6-v2 (examples/python) gives the same embeddings and the same
nearest neighbours with its LayerNorms and attention softmax on simdax."""
import os
import sys

import pytest
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))

from minilm import embed, load  # noqa: E402
from minilm_accuracy import F32_MIN_COSINE, rankings  # noqa: E402
from sentences import SENTENCES  # noqa: E402
from simdax_bert import SimdaxLayerNorm  # noqa: E402

# Three topics: cooking, astronomy, football.
FEW = SENTENCES[0:4] + SENTENCES[4:8] + SENTENCES[12:16]


@pytest.fixture(scope="module")
def stock():
    return embed(load("eager"), FEW)


def test_the_swap_reaches_every_layer_norm_and_attention():
    model = load("simdax")
    assert not any(isinstance(m, torch.nn.LayerNorm) for m in model.modules())
    assert sum(isinstance(m, SimdaxLayerNorm) for m in model.modules()) == 13  # 1 + 2 x 6 layers
    assert model[0].auto_model.config._attn_implementation == "simdax"


def test_float32_embeddings_and_ranking_match(stock):
    ours = embed(load("simdax"), FEW)
    cos = torch.nn.functional.cosine_similarity(ours, stock, dim=1)
    assert cos.min().item() >= F32_MIN_COSINE
    assert torch.equal(rankings(ours), rankings(stock))


def test_bfloat16_runs_close(stock):
    ours = embed(load("simdax", torch.bfloat16), FEW)
    cos = torch.nn.functional.cosine_similarity(ours, stock, dim=1)
    assert cos.min().item() >= 0.999  # bfloat16 weights and activations throughout
