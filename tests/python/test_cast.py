"""simdax.cast, simdax.Cast and torch.ops.simdax.cast: every pair of dtypes
against numpy / ml_dtypes rounding (reference.cast), any strides, torch
tensors, the errors."""
import numpy as np
import pytest

import simdax
import reference as ref
from conftest import DTYPES, make

SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5, 65504.0, 65519.0, 65520.0, 1e5, -1e5,
           1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, 6e-8, 1e-40, -1e-40, 3e38]


def data(dtype, seed=0):
    """Random values and the special ones (those the dtype holds), as an (8, 24) array."""
    x = make((8, 24), "float32", seed=seed, scale=100.0).astype(np.float64)
    x.flat[:len(SPECIAL)] = SPECIAL
    # Through float32 first: float64 data then stays exact in float32 (reference.cast).
    return ref.cast(ref.cast(x, "float32"), dtype)


def assert_same_values(got, want):
    """Equal values, NaN where NaN, the sign of zeros included."""
    got, want = np.asarray(got).astype(np.float64), np.asarray(want).astype(np.float64)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("to", list(DTYPES))
def test_every_pair_of_dtypes(dtype, to):
    x = data(dtype)
    y = simdax.cast(x, to)
    assert y.dtype == ref.NUMPY_DTYPES[to] and y.shape == x.shape
    assert_same_values(y, ref.cast(x, to))


def test_strided_and_negative_strides_in_and_out():
    x = data("float32")[::-1, ::-3]
    out_base = np.zeros((8, 16), np.float16)
    out = out_base[::-1, 1::2]
    assert simdax.cast(x, np.float16, out=out) is out
    assert_same_values(out, ref.cast(x, "float16"))
    assert np.all(out_base[:, ::2] == 0)  # the other columns are not written
    import ml_dtypes
    b = data("bfloat16").T[::2]
    assert_same_values(simdax.cast(b, "float32"), ref.cast(b, "float32"))
    assert_same_values(simdax.cast(x, ml_dtypes.bfloat16), ref.cast(x, "bfloat16"))


def test_float64_rounds_once():
    # Just above a tie of the narrow type, but a tie in float32: rounding
    # through float32 would go down to 1.
    x = np.array([1 + 2.0**-8 + 2.0**-30, 1 + 2.0**-11 + 2.0**-40])
    assert simdax.cast(x[:1], "bfloat16").astype(np.float64)[0] == 1 + 2.0**-7
    assert simdax.cast(x[1:], "float16").astype(np.float64)[0] == 1 + 2.0**-10


def test_same_dtype_in_place():
    x = data("float16")
    want = x.copy()
    assert simdax.cast(x, "float16", out=x) is x
    assert_same_values(x, want)


def test_errors():
    x = data("float32")
    with pytest.raises(ValueError, match="SIMDAX_ERROR_OVERLAP"):
        simdax.cast(x, "float16", out=x.view(np.float16)[:, :24])  # widths differ: no in place
    with pytest.raises(ValueError, match="SIMDAX_ERROR_SHAPE_MISMATCH"):
        simdax.cast(x, "float16", out=np.empty((8, 25), np.float16))
    with pytest.raises(TypeError, match="out: holds float32, the cast is to float16"):
        simdax.cast(x, "float16", out=np.empty_like(x))
    with pytest.raises(TypeError, match="float32, float16, bfloat16 and float64"):
        simdax.cast(x, np.int32)
    with pytest.raises(ValueError, match="SIMDAX_ERROR_INVALID_ARGUMENT: output.dtype: uint8"):
        simdax.cast(x, np.uint8)


def test_object_twice_threads_and_refusals():
    op = simdax.Cast((512, 512), "float32", "bfloat16")  # beyond the parallel threshold
    assert op.to == "bfloat16" and op.describe().startswith("op=Cast")
    for seed in (1, 2):
        x = make((512, 512), "float32", seed=seed)
        y = op(x)
        assert_same_values(y, ref.cast(x, "bfloat16"))
        np.testing.assert_array_equal(op(x, threads=2).view(np.uint16), y.view(np.uint16))
    with pytest.raises(ValueError, match=r"created for shape \(512, 512\), got \(512, 511\)"):
        op(x[:, :511])
    with pytest.raises(TypeError, match="input: the operator was created for float32"):
        op(x.astype(np.float16))
    with pytest.raises(TypeError, match="output: the operator was created for bfloat16"):
        op(x, np.empty_like(x))


def test_object_with_strides():
    base = data("float16")
    x = base[::-1, ::2]
    op = simdax.Cast(x.shape, "float16", "float32", strides=[s // 2 for s in x.strides],
                     out_strides=(1, 8))
    out = np.empty((12, 8), np.float32).T
    for _ in range(2):
        op(x, out)
        assert_same_values(out, ref.cast(x, "float32"))


def test_torch_tensors_and_op():
    torch = pytest.importorskip("torch")
    simdax.register_torch_ops()
    t = torch.from_numpy(data("float32")).t()[::2]  # transposed and strided
    for to in (torch.float16, torch.bfloat16, torch.float64):
        y = simdax.cast(t, to)
        assert isinstance(y, torch.Tensor) and y.dtype == to
        torch.testing.assert_close(y, t.to(to), rtol=0, atol=0, equal_nan=True)
        torch.testing.assert_close(torch.ops.simdax.cast(t, to), t.to(to), rtol=0, atol=0,
                                   equal_nan=True)
    b = t.to(torch.bfloat16)
    torch.testing.assert_close(simdax.cast(b, "float32"), b.float(), rtol=0, atol=0,
                               equal_nan=True)


def test_torch_op_fake_kernel_and_autograd_error():
    torch = pytest.importorskip("torch")
    simdax.register_torch_ops()
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        y = torch.ops.simdax.cast(torch.empty(3, 5), torch.bfloat16)
        assert y.shape == (3, 5) and y.dtype == torch.bfloat16
    x = torch.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match="torch.ops.simdax.cast has no gradient"):
        torch.ops.simdax.cast(x, torch.float16).float().sum().backward()
