"""The operator objects AttentionSoftmax, LayerNorm and RMSNorm: created
once, called with different arrays, against the float64 formulas of
reference.py; strides, bfloat16, torch, threads, and the arrays they refuse."""
import numpy as np
import pytest

import simdax
import reference as ref
from conftest import assert_close, make


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_attention_softmax_twice_with_different_arrays(dtype):
    op = simdax.AttentionSoftmax((2, 3, 5, 9), dtype, mask_shape=(2, 1, 1, 9),
                                 mask_dtype="float32", scale=0.3, causal="bottom_right",
                                 return_log_sum_exp=True)
    assert op.describe().startswith("op=AttentionSoftmax")
    for seed in (0, 1):
        x = make((2, 3, 5, 9), dtype, seed=seed)
        mask = make((2, 1, 1, 9), "float32", seed=seed + 2)
        mask[seed, 0, 0, 4:] = -np.inf
        got, lse = op(x, mask)
        want, want_lse = ref.attention_softmax(x, mask, 0.3, "bottom_right")
        assert_close(got, want, dtype, factor=8)
        np.testing.assert_allclose(lse, want_lse, rtol=1e-5, atol=1e-5)
        # The function with the same options goes through the same operator
        # code: the same bits. (Without the lse output, float16/bfloat16
        # Softmax rows take a cheaper exponential: docs/attention_softmax.md.)
        fn_got, fn_lse = simdax.attention_softmax(x, mask, scale=0.3, causal="bottom_right",
                                                  return_log_sum_exp=True)
        np.testing.assert_array_equal(fn_got, got)
        np.testing.assert_array_equal(fn_lse, lse)


def test_attention_softmax_strides_boolean_mask_and_sinks():
    base = make((4, 6, 16), "float32")
    x = base[::-1, ::-2, ::2]                     # (4, 3, 8), negative strides
    keep = np.ones((3, 8), np.bool_)
    keep[2, :2] = False
    sinks = np.array([0.5, -1.0, 2.0], np.float32).reshape(3, 1)
    out = np.empty((8, 3, 4), np.float32).T       # (4, 3, 8), transposed
    op = simdax.AttentionSoftmax(x.shape, "float32", mask_shape=keep.shape, mask_dtype=bool,
                                 sinks_shape=sinks.shape, causal="top_left",
                                 strides=[s // 4 for s in x.strides],
                                 out_strides=[s // 4 for s in out.strides])
    assert op(x, keep, sinks=sinks, out=out) is out
    want, _ = ref.attention_softmax(x, keep, causal="top_left", sinks=sinks)
    assert_close(out, want, "float32", factor=8)


def test_layer_norm_skip_statistics_and_strides():
    x = make((6, 4, 48), "float32")[::-1, :, ::-2]   # (6, 4, 24), negative strides
    skip = make((6, 4, 24), "float32", seed=3)
    w, b = make((4, 24), "float32", 1, 1.0), make((24,), "float32", 2, 1.0)
    op = simdax.LayerNorm(x.shape, "float32", scale_shape=(4, 24), bias_shape=(24,), axis=1,
                          epsilon=1e-3, skip=True, skip_bias_shape=(24,), return_skip_sum=True,
                          return_mean_inv_std=True, strides=[s // 4 for s in x.strides])
    y, total, mean, inv = op(x, w, b, skip=skip, skip_bias=b)
    want, s, want_mean, want_inv = ref.layer_norm(x + b, w, b, axis=1, eps=1e-3, skip=skip)
    assert mean.shape == (6, 1, 1) and inv.dtype == np.float32
    assert_close(total, s, "float32", factor=2)
    assert_close(y, want, "float32", factor=8)
    np.testing.assert_allclose(mean, want_mean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(inv, want_inv, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype16", ["float16", "bfloat16"])
def test_norms_on_16_bit_data_with_float32_scale(dtype16):
    x = make((3, 40), dtype16)
    gamma, beta = make((40,), "float32", 1, 1.0), make((40,), "float32", 2, 1.0)
    ln = simdax.LayerNorm(x.shape, dtype16, bias_shape=(40,), scale_dtype="float32",
                          bias_dtype=np.float32)
    assert_close(ln(x, gamma, beta), ref.layer_norm(x, gamma, beta)[0], dtype16, factor=8)
    rms = simdax.RMSNorm(x.shape, dtype16, scale_dtype="float32")
    for seed in (4, 5):
        x = make((3, 40), dtype16, seed=seed)
        assert_close(rms(x, gamma), ref.layer_norm(x, gamma, rms=True)[0], dtype16, factor=8)


def test_rms_norm_skip_on_torch():
    torch = pytest.importorskip("torch")
    g = torch.Generator().manual_seed(0)
    x = torch.randn(8, 64, generator=g).t()[::2]       # (32, 8), transposed and strided
    skip = torch.randn(32, 8, generator=g)
    w = torch.randn(8, generator=g)
    op = simdax.RMSNorm(x.shape, torch.float32, skip=True, return_skip_sum=True,
                        strides=x.stride())
    y, total = op(x, w, skip=skip)
    assert isinstance(y, torch.Tensor) and isinstance(total, torch.Tensor)
    want, s, _, _ = ref.layer_norm(x.numpy(), w.numpy(), skip=skip.numpy(), rms=True)
    assert_close(total, s, "float32", factor=2)
    assert_close(y, want, "float32", factor=8)


def test_threads_give_the_same_bits():
    x = make((1024, 64), "float32")                    # beyond the parallel threshold
    w = make((64,), "float32", 1)
    ln = simdax.LayerNorm(x.shape, "float32")
    np.testing.assert_array_equal(ln(x, w, threads=2), ln(x, w))
    op = simdax.AttentionSoftmax((16, 64, 64), "float32", causal="top_left")
    s = make((16, 64, 64), "float32")
    np.testing.assert_array_equal(op(s, threads=2), op(s))


def test_isa_argument():
    assert simdax.RMSNorm((4, 8), "float32", isa="scalar").isa == "scalar"


def test_objects_refuse_other_arrays():
    x = make((3, 8), "float32")
    w = make((8,), "float32", 1)
    ln = simdax.LayerNorm(x.shape, "float32", bias_shape=(8,))
    with pytest.raises(ValueError, match=r"input: the operator was created for shape \(3, 8\)"):
        ln(make((4, 8), "float32"), w, w)
    with pytest.raises(TypeError, match="scale: the operator was created for float32"):
        ln(x, w.astype(np.float16), w)
    with pytest.raises(ValueError, match="bias: the operator was created with one, pass it"):
        ln(x, w)
    with pytest.raises(ValueError, match="created for element strides"):
        ln(make((3, 16), "float32")[:, ::2], w, w)
    op = simdax.AttentionSoftmax(x.shape, "float32")
    with pytest.raises(ValueError, match="mask: the operator was created without one"):
        op(x, np.zeros((1, 8), np.float32))
    x.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        op(x, out=x)


def test_creation_errors_are_the_library_s():
    with pytest.raises(ValueError, match="SIMDAX_ERROR_SHAPE_MISMATCH: scale"):
        simdax.LayerNorm((3, 8), "float32", scale_shape=(5,))
    with pytest.raises(ValueError, match="SIMDAX_ERROR_INVALID_ARGUMENT: epsilon"):
        simdax.RMSNorm((3, 8), "float32", epsilon=-1.0)
    with pytest.raises(TypeError, match="SIMDAX_ERROR_DTYPE_MISMATCH: input.dtype: float64"):
        simdax.LayerNorm((3, 8), "float64")
    with pytest.raises(ValueError, match="causal 'diagonal'"):
        simdax.AttentionSoftmax((3, 8), "float32", causal="diagonal")
    with pytest.raises(ValueError, match="mask_dtype / mask_strides: given without mask_shape"):
        simdax.AttentionSoftmax((3, 8), "float32", mask_dtype=bool)
