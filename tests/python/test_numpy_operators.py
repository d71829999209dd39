"""Every operator on numpy arrays of every dtype, against float64 formulas."""
import numpy as np
import pytest

import simdax
import reference as ref
from conftest import assert_close, make

AXES_CASES = [((6, 37), (1,)), ((6, 37), (0,)), ((3, 4, 5), (0, 2)), ((2, 3, 4, 5), (1, 2, 3)),
              ((5,), (0,))]


@pytest.mark.parametrize("shape,axes", AXES_CASES)
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_family(name, shape, axes, dtype):
    x = make(shape, dtype)
    got = getattr(simdax, name)(x, axes)
    assert got.dtype == x.dtype and got.shape == x.shape
    assert_close(got, getattr(ref, name)(x, axes), dtype, factor=4)


@pytest.mark.parametrize("shape,axes", AXES_CASES)
def test_hardmax(shape, axes, dtype):
    x = make(shape, dtype)
    np.testing.assert_array_equal(np.asarray(simdax.hardmax(x, axes), np.float64),
                                  ref.hardmax(x, axes))


def test_hardmax_picks_first_maximum():
    x = np.array([[1, 3, 3, 0]], np.float32)
    np.testing.assert_array_equal(simdax.hardmax(x), [[0, 1, 0, 0]])


@pytest.mark.parametrize("placement", ["directml", "onnx"])
@pytest.mark.parametrize("shape,axes", [((4, 64), (1,)), ((2, 3, 8, 8), (2, 3)),
                                        ((5, 16), (0,))])
def test_mvn_scale_bias(shape, axes, placement, dtype):
    x = make(shape, dtype)
    pshape = [s if i in axes else 1 for i, s in enumerate(shape)]
    scale = make(pshape, dtype, seed=1, scale=1.0)
    bias = make(pshape, dtype, seed=2, scale=1.0)
    got = simdax.mvn(x, axes, scale, bias, epsilon=1e-3, epsilon_placement=placement)
    assert_close(got, ref.mvn(x, axes, scale, bias, epsilon=1e-3, placement=placement), dtype,
                 factor=8)


def test_mvn_layer_norm_shapes_broadcast():
    """scale/bias of the last axis only, as a LayerNorm's weight: leading 1s added."""
    x = make((3, 5, 32), "float32")
    w, b = make((32,), "float32", seed=1), make((32,), "float32", seed=2)
    assert_close(simdax.mvn(x, -1, w, b), ref.mvn(x, (2,), w, b), "float32", factor=8)


def test_mvn_mean_only_and_fused_activation():
    x = make((4, 50), "float32")
    assert_close(simdax.mvn(x, 1, normalize_variance=False),
                 ref.mvn(x, (1,), normalize_variance=False), "float32", factor=4)
    got = simdax.mvn(x, 1, activation="leaky_relu", alpha=0.2)
    assert_close(got, ref.activation("leaky_relu", ref.mvn(x, (1,)), alpha=0.2), "float32",
                 factor=8)


def test_hard_sigmoid(dtype):
    x = make((7, 33), dtype)
    assert_close(simdax.hard_sigmoid(x, 0.3, 0.4), ref.activation("hard_sigmoid", x, 0.3, 0.4),
                 dtype)


@pytest.mark.parametrize("name", list(ref.ACTIVATION_PARAMS))
def test_activations(name, dtype):
    assert name in simdax.ACTIVATIONS
    x = make((5, 41), dtype, scale=2.0)
    params = ref.ACTIVATION_PARAMS[name]
    want = ref.activation(name, x, **params)
    assert_close(simdax.activation(x, name, **params), want, dtype, factor=8)
    if name != "hard_sigmoid":  # simdax.hard_sigmoid is the operator (tested above)
        assert_close(getattr(simdax, name)(x, **params), want, dtype, factor=8)


def test_every_activation_has_a_function():
    assert set(simdax.ACTIVATIONS) == set(ref.ACTIVATION_PARAMS)


def test_activation_defaults_are_directml_s():
    assert simdax.activation_defaults("leaky_relu")[0] == pytest.approx(0.01)
    assert simdax.activation_defaults("hard_sigmoid")[:2] == pytest.approx((0.2, 0.5))
    assert simdax.activation_defaults("scaled_elu")[0] == pytest.approx(1.67326319)
    assert simdax.activation_defaults("scaled_elu")[2] == pytest.approx(1.05070102)
    x = make((9,), "float64")
    assert_close(simdax.leaky_relu(x), ref.activation("leaky_relu", x, alpha=0.01), "float64")


@pytest.mark.parametrize("name", ["hard_sigmoid", "relu"])
def test_elementwise_in_place(name):
    x = make((6, 10), "float32")
    want = ref.activation(name, x, 0.2, 0.5)
    out = (simdax.hard_sigmoid(x, out=x) if name == "hard_sigmoid"
           else simdax.relu(x, out=x))
    assert out is x
    assert_close(x, want, "float32")


def test_out_argument_is_written_and_returned():
    x = make((4, 9), "float32")
    out = np.full((4, 9), np.nan, np.float32)
    assert simdax.softmax(x, out=out) is out
    assert_close(out, ref.softmax(x, (1,)), "float32", factor=4)


def test_float16_and_bfloat16_outputs_keep_the_dtype():
    import ml_dtypes
    for dt in (np.float16, ml_dtypes.bfloat16):
        x = make((3, 8), "float32").astype(dt)
        assert simdax.softmax(x).dtype == dt
        assert simdax.mvn(x).dtype == dt
