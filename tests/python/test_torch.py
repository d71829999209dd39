"""torch tensors through the functions (no copy), and torch.ops.simdax.*:
eager, under torch.compile (fake kernels), and autograd's error."""
import numpy as np
import pytest
import torch

import simdax
import reference as ref
from conftest import assert_close

simdax.register_torch_ops()

TORCH_DTYPES = {"float32": torch.float32, "float16": torch.float16,
                "bfloat16": torch.bfloat16, "float64": torch.float64}


def t(shape, dtype, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g, dtype=torch.float64) * 3).to(TORCH_DTYPES[dtype])


def f64(x):
    return x.detach().to(torch.float64).numpy()


def test_functions_on_tensors(dtype):
    x = t((6, 50), dtype)
    y = simdax.softmax(x)
    assert isinstance(y, torch.Tensor) and y.dtype == x.dtype
    assert_close(y, ref.softmax(f64(x), (1,)), dtype, 4)
    assert_close(simdax.log_softmax(x, 0), ref.log_softmax(f64(x), (0,)), dtype, 4)
    w, b = t((50,), dtype, 1), t((50,), dtype, 2)
    assert_close(simdax.mvn(x, -1, w, b), ref.mvn(f64(x), (1,), f64(w), f64(b)), dtype, 8)
    assert_close(simdax.gelu(x), ref.activation("gelu", f64(x)), dtype, 8)


def test_torch_views_and_out_written_in_place():
    base = t((8, 40), "float32")
    x = base.t()[::2]                   # transposed, strided
    out = torch.empty(20, 8).t().t()    # a fresh tensor, written where it is
    got = simdax.log_softmax(x, 1, out=out)
    assert got is out
    assert_close(out, ref.log_softmax(f64(x), (1,)), "float32", 4)
    flipped = base.flip(0)  # torch has no negative strides: flip copies
    assert_close(simdax.softmax(flipped), ref.softmax(f64(flipped), (1,)), "float32", 4)


def test_no_copy_of_torch_input():
    x = torch.zeros(4, 8)
    simdax.relu(x, out=x)  # in place through DLPack: same memory
    x.fill_(-1.0)
    simdax.relu(x, out=x)
    assert torch.all(x == 0)


def test_requires_grad_input_works_without_grad():
    x = t((3, 9), "float32").requires_grad_()
    assert_close(simdax.softmax(x), ref.softmax(f64(x), (1,)), "float32", 4)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_torch_ops_eager(dtype):
    x = t((4, 3, 16), dtype)
    ops = torch.ops.simdax
    assert_close(ops.log_softmax(x, [-1]), ref.log_softmax(f64(x), (2,)), dtype, 4)
    assert_close(ops.softmax(x, [1, 2]), ref.softmax(f64(x), (1, 2)), dtype, 4)
    np.testing.assert_array_equal(f64(ops.hardmax(x, [2])), ref.hardmax(f64(x), (2,)))
    w, b = t((16,), dtype, 1), t((16,), dtype, 2)
    assert_close(ops.mvn(x, [-1], w, b, epsilon=1e-5),
                 ref.mvn(f64(x), (2,), f64(w), f64(b)), dtype, 8)
    assert_close(ops.mvn(x, [1, 2], epsilon_placement="onnx", epsilon=1e-3),
                 ref.mvn(f64(x), (1, 2), epsilon=1e-3, placement="onnx"), dtype, 8)
    assert_close(ops.hard_sigmoid(x, 0.3, 0.4),
                 ref.activation("hard_sigmoid", f64(x), 0.3, 0.4), dtype)
    assert_close(ops.activation(x, "celu", 1.3),
                 ref.activation("celu", f64(x), 1.3), dtype, 8)


def test_layer_norm_matches_torch():
    x = t((2, 7, 384), "float32")
    ln = torch.nn.LayerNorm(384)
    with torch.no_grad():
        ln.weight.uniform_(0.5, 1.5)
        ln.bias.uniform_(-0.5, 0.5)
        want = ln(x)
    got = torch.ops.simdax.mvn(x, [-1], ln.weight.detach(), ln.bias.detach(), epsilon=ln.eps)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


def test_torch_compile_traces_through():
    def model(x, w, b):
        y = torch.ops.simdax.mvn(x * 2, [-1], w, b)
        return torch.ops.simdax.softmax(y + 1, [-1]) + torch.ops.simdax.activation(y, "relu")

    x, w, b = t((4, 32), "float32"), t((32,), "float32", 1), t((32,), "float32", 2)
    compiled = torch.compile(model, fullgraph=True, backend="aot_eager")
    torch.testing.assert_close(compiled(x, w, b), model(x, w, b))


def test_fake_kernels_give_shape_and_dtype():
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        x = torch.empty(3, 5, dtype=torch.bfloat16)
        for y in (torch.ops.simdax.softmax(x, [1]), torch.ops.simdax.mvn(x, [1]),
                  torch.ops.simdax.hard_sigmoid(x), torch.ops.simdax.activation(x, "tanh")):
            assert y.shape == (3, 5) and y.dtype == torch.bfloat16


def test_autograd_asks_for_a_gradient():
    x = t((2, 6), "float32").requires_grad_()
    y = torch.ops.simdax.softmax(x, [1])
    with pytest.raises(RuntimeError, match="torch.ops.simdax.softmax has no gradient"):
        y.sum().backward()


def test_threads_in_torch_ops():
    x = t((64, 4096), "float32")
    torch.testing.assert_close(torch.ops.simdax.softmax(x, [1], threads=2),
                               torch.ops.simdax.softmax(x, [1]), rtol=0, atol=0)


def test_torch_error_messages():
    with pytest.raises(ValueError, match="SIMDAX_ERROR_INVALID_AXES"):
        torch.ops.simdax.softmax(t((2, 3), "float32"), [5])
    with pytest.raises(TypeError, match="SIMDAX_ERROR_DTYPE_MISMATCH"):
        torch.ops.simdax.mvn(t((2, 3), "float32"), [1], torch.ones(3, dtype=torch.float64))
