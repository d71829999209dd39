"""Strided, negative-stride, broadcast and transposed arrays: passed as they
are (simdax takes element strides of any sign), never copied."""
import numpy as np
import pytest

import simdax
import reference as ref
from conftest import assert_close, make


def views(base):
    yield "reversed", base[::-1]
    yield "reversed_both", base[::-1, ::-1]
    yield "step2_negative", base[::2, ::-3]
    yield "transposed", base.T
    yield "column_slice", base[:, 3:17]


@pytest.mark.parametrize("view", [v for v, _ in views(np.zeros((8, 24)))])
def test_softmax_on_views(view, dtype):
    base = make((8, 24), dtype)
    x = dict(views(base))[view]
    for axes in [(0,), (1,), (0, 1)]:
        assert_close(simdax.softmax(x, axes), ref.softmax(x, axes), dtype, factor=4)
        assert_close(simdax.log_softmax(x, axes), ref.log_softmax(x, axes), dtype, factor=4)


def test_strided_output_and_inputs_not_copied():
    base = make((6, 40), "float32")
    x = base[::-1, ::2]
    out_base = np.zeros((6, 40), np.float32)
    out = out_base[:, 1::2]          # interleaved with ...
    simdax.softmax(x, 1, out=out)
    assert_close(out, ref.softmax(x, (1,)), "float32", factor=4)
    assert np.all(out_base[:, ::2] == 0)  # ... columns left untouched


def test_negative_stride_output():
    x = make((5, 12), "float64")
    out = np.empty((5, 12))[::-1, ::-1]
    simdax.mvn(x, 1, out=out)
    assert_close(out, ref.mvn(x, (1,)), "float64")


def test_mvn_scale_bias_views_and_broadcast():
    x = make((4, 3, 16), "float32")[:, ::-1]
    scale_base = make((32,), "float32", seed=3)
    scale = scale_base[::-2]                       # negative stride
    bias = np.broadcast_to(np.float32(0.5), (16,))  # stride 0
    assert_close(simdax.mvn(x, -1, scale, bias), ref.mvn(x, (2,), scale, bias), "float32",
                 factor=8)


def test_bfloat16_negative_strides():
    import ml_dtypes
    x = make((6, 20), "float32").astype(ml_dtypes.bfloat16)[::-1, ::-2]
    assert_close(simdax.softmax(x), ref.softmax(x, (1,)), "bfloat16")
    assert_close(simdax.gelu(x), ref.activation("gelu", x), "bfloat16", factor=2)


def test_operator_object_with_strides():
    base = make((8, 30), "float32")
    x = base[::-1, ::3]
    op = simdax.LogSoftmax(x.shape, np.float32, axes=1, strides=[s // 4 for s in x.strides])
    for _ in range(3):
        assert_close(op(x), ref.log_softmax(x, (1,)), "float32", factor=4)


def test_read_only_input():
    x = make((3, 7), "float32")
    x.setflags(write=False)
    assert_close(simdax.softmax(x), ref.softmax(x, (1,)), "float32", factor=4)


def test_empty_tensor():
    x = np.zeros((0, 5), np.float32)
    assert simdax.softmax(x).shape == (0, 5)
