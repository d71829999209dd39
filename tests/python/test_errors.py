"""Bad arguments raise ValueError / TypeError carrying the library's message."""
import numpy as np
import pytest

import simdax
from conftest import make


def test_bad_axis_is_the_library_s_message():
    with pytest.raises(ValueError, match=r"SIMDAX_ERROR_INVALID_AXES: axes\[0\]: 2 is outside"):
        simdax.softmax(make((3, 4), "float32"), axes=2)


def test_repeated_axes():
    with pytest.raises(ValueError, match="SIMDAX_ERROR_INVALID_AXES"):
        simdax.log_softmax(make((3, 4), "float32"), axes=(1, 1))


def test_too_negative_axis():
    with pytest.raises(ValueError, match="out of range for rank 2"):
        simdax.softmax(make((3, 4), "float32"), axes=-3)


def test_output_dtype_mismatch_is_type_error():
    with pytest.raises(TypeError, match="SIMDAX_ERROR_DTYPE_MISMATCH"):
        simdax.softmax(make((3, 4), "float32"), out=np.empty((3, 4), np.float64))


def test_scale_dtype_mismatch_is_type_error():
    x = make((3, 4), "float32")
    with pytest.raises(TypeError, match="SIMDAX_ERROR_DTYPE_MISMATCH"):
        simdax.mvn(x, 1, np.ones(4, np.float64))


def test_output_shape_mismatch():
    with pytest.raises(ValueError, match="SIMDAX_ERROR_SHAPE_MISMATCH"):
        simdax.softmax(make((3, 4), "float32"), out=np.empty((4, 3), np.float32))


def test_scale_shape_mismatch():
    with pytest.raises(ValueError, match="SIMDAX_ERROR_SHAPE_MISMATCH"):
        simdax.mvn(make((3, 4), "float32"), 1, np.ones(3, np.float32))


def test_overlapping_output():
    x = make((3, 4), "float32")
    with pytest.raises(ValueError, match="SIMDAX_ERROR_OVERLAP"):
        simdax.softmax(x[:, :2], out=x[:, 1:3])


def test_bad_epsilon_and_activation_parameter():
    x = make((3, 4), "float32")
    with pytest.raises(ValueError, match="epsilon"):
        simdax.mvn(x, 1, epsilon=-1.0)
    with pytest.raises(ValueError, match="no activation 'swish'"):
        simdax.activation(x, "swish")
    with pytest.raises(ValueError, match="epsilon_placement"):
        simdax.mvn(x, 1, epsilon_placement="sideways")


def test_unsupported_dtypes_and_objects():
    with pytest.raises(TypeError, match="float32, float16, bfloat16 and float64"):
        simdax.softmax(np.zeros((2, 3), np.int32))
    with pytest.raises(TypeError, match="expected a numpy array"):
        simdax.softmax([[1.0, 2.0]])
    with pytest.raises(TypeError, match="float32, float16, bfloat16 and float64"):
        simdax.Softmax((2, 3), "int8")


def test_rank_beyond_the_library_s_limit():
    with pytest.raises(ValueError, match="SIMDAX_ERROR_INVALID_ARGUMENT"):
        simdax.softmax(np.zeros((1,) * 9, np.float32))


def test_operator_object_refuses_other_layouts():
    op = simdax.Softmax((3, 4), np.float32)
    with pytest.raises(ValueError, match=r"created for shape \(3, 4\), got \(4, 3\)"):
        op(np.zeros((4, 3), np.float32))
    with pytest.raises(ValueError, match="created for element strides"):
        op(np.zeros((3, 8), np.float32)[:, ::2])
    with pytest.raises(TypeError, match="created for float32"):
        op(np.zeros((3, 4), np.float16))


def test_mvn_object_operands_must_match_creation():
    op = simdax.MVN((2, 8), "float32", scale_shape=(8,))
    x = make((2, 8), "float32")
    with pytest.raises(ValueError, match="bias: the operator was created without one"):
        op(x, np.ones(8, np.float32), np.ones(8, np.float32))
    with pytest.raises(ValueError, match="scale: the operator was created with one"):
        op(x)


def test_misaligned_buffer():
    raw = np.zeros(4 * 12 + 1, np.uint8)[1:].view(np.float32)  # 1 byte off
    with pytest.raises(ValueError, match="SIMDAX_ERROR_INVALID_ARGUMENT"):
        simdax.softmax(raw)


def test_bad_threads_argument():
    with pytest.raises(ValueError, match="threads"):
        simdax.softmax(make((3, 4), "float32"), threads=0)
