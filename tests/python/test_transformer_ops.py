"""The transformer operators (attention softmax, LayerNorm, RMSNorm) on numpy
arrays and torch tensors, against the float64 formulas of reference.py."""
import numpy as np
import pytest

import simdax
import reference as ref
from conftest import assert_close, make

NEG_INF = -np.inf
ref_attention, ref_layer_norm = ref.attention_softmax, ref.layer_norm

HALF_AND_SINGLE = ["float32", "float16", "bfloat16"]  # float64 is refused (test_norm_errors...)


@pytest.mark.parametrize("dtype", HALF_AND_SINGLE)
@pytest.mark.parametrize("causal", ["none", "top_left", "bottom_right"])
def test_attention_softmax_scale_mask_causal(causal, dtype):
    x = make((2, 3, 5, 9), dtype)
    mask = make((2, 1, 1, 9), "float32", seed=1)
    mask[1, 0, 0, 5:] = NEG_INF
    got, lse = simdax.attention_softmax(x, mask, scale=0.3, causal=causal, return_log_sum_exp=True)
    want, want_lse = ref_attention(x, mask, 0.3, causal)
    assert got.dtype == x.dtype and lse.dtype == np.float32 and lse.shape == (2, 3, 5, 1)
    assert_close(got, want, dtype, factor=8)
    np.testing.assert_allclose(lse, want_lse, rtol=1e-5, atol=1e-5)


def test_attention_softmax_boolean_mask_sinks_and_masked_rows():
    x = make((1, 2, 3, 16), "float32")
    keep = np.ones((1, 1, 3, 16), np.bool_)
    keep[0, 0, 2, :] = False  # a fully masked row: zeros, never NaN
    got = simdax.attention_softmax(x, keep)
    want, _ = ref_attention(x, keep)
    assert not np.isnan(got).any()
    assert_close(got, want, "float32", factor=8)
    sinks = np.array([0.5, -1.0], np.float32).reshape(1, 2, 1, 1)
    got = simdax.attention_softmax(x, sinks=sinks)
    assert_close(got, ref_attention(x, sinks=sinks)[0], "float32", factor=8)


def test_attention_softmax_in_place_and_torch():
    torch = pytest.importorskip("torch")
    x = make((2, 4, 8, 8), "float32")
    want, _ = ref_attention(x, scale=0.125, causal="top_left")
    simdax.attention_softmax(x, scale=0.125, causal="top_left", out=x)
    assert_close(x, want, "float32", factor=8)
    t = torch.from_numpy(make((2, 4, 8, 8), "float32"))
    mask = torch.zeros(2, 1, 1, 8)
    mask[0, ..., 6:] = float("-inf")
    got = simdax.attention_softmax(t, mask, scale=0.125)
    assert isinstance(got, torch.Tensor)
    assert_close(got, ref_attention(t.numpy(), mask.numpy(), 0.125)[0], "float32", factor=8)
    simdax.register_torch_ops()
    got = torch.ops.simdax.attention_softmax(t, mask, scale=0.125)
    assert_close(got, ref_attention(t.numpy(), mask.numpy(), 0.125)[0], "float32", factor=8)


@pytest.mark.parametrize("dtype", HALF_AND_SINGLE)
@pytest.mark.parametrize("shape,axis", [((4, 7, 64), -1), ((2, 3, 5, 8), 2), ((6, 33), 0)])
def test_layer_norm_rank_one_gamma_and_statistics(shape, axis, dtype):
    x = make(shape, dtype)
    nshape = shape[axis % len(shape):]
    scale = make(nshape, dtype, seed=1, scale=1.0)
    bias = make(nshape, dtype, seed=2, scale=1.0)
    y, mean, inv = simdax.layer_norm(x, scale, bias, axis=axis, return_mean_inv_std=True)
    want, _, want_mean, want_inv = ref_layer_norm(x, scale, bias, axis)
    assert_close(y, want, dtype, factor=8)
    np.testing.assert_allclose(mean, np.broadcast_to(want_mean, mean.shape), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(inv, np.broadcast_to(want_inv, inv.shape), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype16", ["float16", "bfloat16"])
def test_norms_float32_gamma_on_16_bit_data_with_skip(dtype16):
    x = make((3, 40), dtype16)
    skip = make((3, 40), dtype16, seed=3)
    gamma = make((40,), "float32", seed=1, scale=1.0)
    beta = make((40,), "float32", seed=2, scale=1.0)
    y, total = simdax.layer_norm(x, gamma, beta, skip=skip, return_skip_sum=True)
    want, s, _, _ = ref_layer_norm(x, gamma, beta, skip=skip)
    assert_close(total, s, dtype16, factor=2)
    # x' is rounded to the data's dtype before it is normalized.
    want, _, _, _ = ref_layer_norm(np.asarray(total, np.float64), gamma, beta)
    assert_close(y, want, dtype16, factor=8)
    got = simdax.rms_norm(x, gamma, skip=skip)
    want, _, _, _ = ref_layer_norm(np.asarray(total, np.float64), gamma, rms=True)
    assert_close(got, want, dtype16, factor=8)


def test_norm_errors_name_the_argument():
    x = make((3, 8), "float32")
    with pytest.raises(ValueError, match="scale"):
        simdax.layer_norm(x, make((5,), "float32"))
    with pytest.raises(ValueError, match="epsilon"):
        simdax.rms_norm(x, make((8,), "float32"), epsilon=-1.0)
    with pytest.raises(ValueError, match="causal"):
        simdax.attention_softmax(x, causal="diagonal")
    x64 = make((3, 8), "float64")
    with pytest.raises((TypeError, ValueError), match="float64"):
        simdax.attention_softmax(x64)
    with pytest.raises((TypeError, ValueError), match="float64"):
        simdax.layer_norm(x64, make((8,), "float64"))
