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


def _layer_norm(width=32, eps=1e-6):
    ln = torch.nn.LayerNorm(width, eps=eps)
    with torch.no_grad():
        ln.weight.uniform_(0.5, 1.5)
        ln.bias.uniform_(-0.5, 0.5)
    return ln


def test_swapped_layer_norm_on_several_shapes():
    ln = _layer_norm()
    ours = SimdaxLayerNorm(ln)
    g = torch.Generator().manual_seed(0)
    with torch.inference_mode():
        for shape in ((1, 5, 32), (3, 7, 32), (1, 5, 32), (2, 32)):
            x = torch.randn(shape, generator=g)
            torch.testing.assert_close(ours(x), ln(x), rtol=1e-5, atol=1e-5)


def test_swapped_modules_keep_the_torch_ops_semantics_outside_inference():
    import simdax_bert
    ln = _layer_norm()
    ours = SimdaxLayerNorm(ln)
    x = torch.randn(2, 4, 32)
    y = ours(x)  # grad on, weight requires grad: through torch.ops.simdax
    with pytest.raises(RuntimeError, match="torch.ops.simdax.layer_norm has no gradient"):
        y.sum().backward()
    # Set threads: torch.get_num_threads() (threads=None) does not trace in a full graph.
    ours.simdax_threads = 1
    owner = torch.nn.Module().eval()
    owner.simdax_threads = 1
    q, k, v = (torch.randn(1, 2, 6, 8) for _ in range(3))
    mask = torch.zeros(1, 1, 6, 6)
    mask[..., 4:] = float("-inf")

    def block(x, q, k, v, mask):
        return simdax_bert.simdax_attention(owner, q, k, v, mask)[0].sum() + ours(x)

    compiled = torch.compile(block, fullgraph=True, backend="aot_eager")
    with torch.no_grad():
        torch.testing.assert_close(compiled(x, q, k, v, mask), block(x, q, k, v, mask))


def test_profiler_still_names_the_simdax_ops():
    ours = SimdaxLayerNorm(_layer_norm())
    x = torch.randn(2, 4, 32)
    with torch.inference_mode(), torch.profiler.profile() as prof:
        ours(x)
    assert "simdax::layer_norm" in {e.key for e in prof.key_averages()}
