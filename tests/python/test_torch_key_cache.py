"""The transformer functions and objects on CPU torch tensors reuse the
operator of an earlier call with the same tensor dtypes, shapes and strides
(_operands.torch_key): every call still gets its own answer, whatever came
before it, and the errors are those of the full path."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import simdax  # noqa: E402
import reference as ref  # noqa: E402
from conftest import assert_close  # noqa: E402
from simdax import _transformer  # noqa: E402

simdax.register_torch_ops()


def t(shape, seed=0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g, dtype=torch.float64) * 3).to(dtype)


def f64(x):
    return x.detach().double().numpy()


@pytest.fixture(autouse=True)
def empty_cache():
    simdax.clear_cache()
    yield
    simdax.clear_cache()


def test_layer_norm_per_layout_and_back():
    w, b = t((64,), 1), t((64,), 2)
    base = t((6, 9, 64), 3)
    calls = [base[:2], t((3, 5, 64), 4), base[:2], base.transpose(0, 1)[:, :4],
             t((3, 5, 64), 5, torch.bfloat16), t((3, 5, 64), 6)]
    for x in calls:
        ww, bb = (w, b) if x.dtype == torch.float32 else (w.to(x.dtype), b.to(x.dtype))
        got = simdax.layer_norm(x, ww, bb, epsilon=1e-3)
        assert got.shape == x.shape and got.dtype == x.dtype and got.is_contiguous()
        want = ref.layer_norm(f64(x), f64(ww), f64(bb), eps=1e-3)[0]
        assert_close(got, want, "float32" if x.dtype == torch.float32 else "bfloat16", 8)
        # The same bits as the full path (numpy arrays, gathered as ever).
        if x.dtype == torch.float32:
            np.testing.assert_array_equal(
                got.numpy(), simdax.layer_norm(x.numpy(), w.numpy(), b.numpy(), epsilon=1e-3))
    # One entry per distinct layout (base[:2] came twice, so did (3, 5, 64) float32).
    assert len(_transformer._by_torch_key) == 4


def test_torch_ops_second_call_with_another_shape():
    w = t((32,), 1)
    for shape in ((4, 32), (7, 3, 32), (4, 32)):
        x = t(shape, len(shape))
        got = torch.ops.simdax.layer_norm(x, w, None, epsilon=1e-5)
        assert_close(got, ref.layer_norm(f64(x), f64(w))[0], "float32", 8)
        got = torch.ops.simdax.rms_norm(x, w)
        assert_close(got, ref.layer_norm(f64(x), f64(w), rms=True)[0], "float32", 8)


def test_attention_softmax_masks_options_and_shapes():
    s = t((2, 3, 5, 9))
    mask = torch.zeros(2, 1, 1, 9)
    mask[1, ..., 6:] = float("-inf")
    keep = torch.ones(1, 1, 5, 9, dtype=torch.bool)
    keep[0, 0, 4, :3] = False
    for x, m, scale, causal in ((s, mask, 0.3, "none"), (s, None, 0.3, "none"),
                                (s, keep, 0.3, "none"), (s, mask, 0.5, "none"),
                                (s, mask, 0.3, "top_left"), (t((1, 2, 4, 9), 7), mask[:1], 0.3,
                                                             "none"),
                                (s, mask, 0.3, "none")):
        got = torch.ops.simdax.attention_softmax(x, m, scale=scale, causal=causal)
        want, _ = ref.attention_softmax(f64(x), None if m is None else m.numpy(), scale,
                                        causal)
        assert_close(got, want, "float32", 8)


def test_out_and_in_place():
    x = t((4, 16))
    out = torch.empty(16, 4).t()                      # transposed
    for _ in range(2):
        assert simdax.attention_softmax(x, scale=0.5, out=out) is out
        assert_close(out, ref.attention_softmax(f64(x), scale=0.5)[0], "float32", 8)
    y = x.clone()
    for _ in range(2):  # in place: out is x
        want = ref.attention_softmax(f64(y), scale=0.5)[0]
        assert simdax.attention_softmax(y, scale=0.5, out=y) is y
        assert_close(y, want, "float32", 8)


def test_isa_cap_is_part_of_the_key():
    x, w = t((8, 64)), t((64,), 1)
    simdax.layer_norm(x, w)
    with simdax.max_isa("scalar"):
        got = simdax.layer_norm(x, w)
    assert len(_transformer._by_torch_key) == 2
    assert_close(got, ref.layer_norm(f64(x), f64(w))[0], "float32", 8)
    scalar_ops = [op for key, op in _transformer._by_torch_key.items() if key[2] == "scalar"]
    assert len(scalar_ops) == 1 and scalar_ops[0].isa == "scalar"


def test_errors_after_a_cached_call_are_unchanged():
    x, w = t((3, 8)), t((8,), 1)
    simdax.layer_norm(x, w)
    simdax.layer_norm(x, w)
    with pytest.raises(ValueError, match="threads must be an int >= 1"):
        simdax.layer_norm(x, w, threads=0)
    with pytest.raises(ValueError, match="scale"):
        simdax.layer_norm(x, t((5,), 1))
    with pytest.raises(TypeError, match="float64"):
        simdax.layer_norm(x.double(), w.double())
    with pytest.raises(TypeError, match="int32"):
        simdax.layer_norm(x.int(), w)
    with pytest.raises(TypeError, match="expected a numpy array"):
        simdax.layer_norm([1.0] * 8, w)
    with pytest.raises(ValueError, match="could not convert string to float"):
        simdax.layer_norm(x, w, epsilon="tiny")
    with pytest.raises(TypeError):  # unhashable: the full path says what is wrong
        simdax.layer_norm(x, w, epsilon=[1e-5])
    out = torch.empty(3, 8)
    simdax.layer_norm(x, w, out=out)  # then x itself as out, with the same layout
    with pytest.raises(ValueError, match="SIMDAX_ERROR_OVERLAP"):
        simdax.layer_norm(x, w, out=x)
    x.requires_grad_()  # no gradient through the functions, as before
    assert_close(simdax.layer_norm(x, w), ref.layer_norm(f64(x), f64(w))[0], "float32", 8)


def test_objects_on_torch_repeat_and_refuse_other_layouts():
    w, b = t((16,), 1), t((16,), 2)
    ln = simdax.LayerNorm((5, 16), torch.float32, bias_shape=(16,))
    for seed in (3, 4, 3):
        x = t((5, 16), seed)
        assert_close(ln(x, w, b), ref.layer_norm(f64(x), f64(w), f64(b))[0], "float32", 8)
    assert len(ln._torch_keys) == 1
    with pytest.raises(ValueError, match=r"input: the operator was created for shape \(5, 16\)"):
        ln(t((6, 16)), w, b)
    with pytest.raises(ValueError, match="bias: the operator was created with one, pass it"):
        ln(t((5, 16)), w)
    with pytest.raises(ValueError, match="created for element strides"):
        ln(t((5, 32))[:, ::2], w, b)
    assert len(ln._torch_keys) == 1
    x = t((5, 16), 5)
    out = torch.empty(5, 16)
    assert ln(x, w, b, out=out) is out
    assert_close(out, ref.layer_norm(f64(x), f64(w), f64(b))[0], "float32", 8)
    op = simdax.AttentionSoftmax((2, 4, 8), torch.float32, mask_shape=(1, 8), scale=0.25)
    mask = torch.zeros(1, 8)
    mask[0, 5:] = float("-inf")
    for seed in (1, 2):
        x = t((2, 4, 8), seed)
        assert_close(op(x, mask), ref.attention_softmax(f64(x), mask.numpy(), 0.25)[0],
                     "float32", 8)
    with pytest.raises(ValueError, match="mask: the operator was created with one"):
        op(x)
