import numpy as np
import pytest

import ml_dtypes

# (dtype, relative tolerance against float64, absolute tolerance)
DTYPES = {
    "float64": (np.float64, 1e-11, 1e-11),
    "float32": (np.float32, 2e-6, 2e-6),
    "float16": (np.float16, 2e-3, 2e-3),
    "bfloat16": (ml_dtypes.bfloat16, 1.6e-2, 1.6e-2),
}


@pytest.fixture(params=list(DTYPES))
def dtype(request):
    return request.param


def make(shape, dtype, seed=0, scale=3.0):
    """Random data, rounded to the dtype (so the reference sees the same input)."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale).astype(DTYPES[dtype][0])


def assert_close(got, want, dtype, factor=1.0):
    _, rtol, atol = DTYPES[dtype]
    if hasattr(got, "detach"):  # a torch tensor (numpy() refuses bfloat16)
        got = got.detach().double().numpy()
    got = np.asarray(got).astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=rtol * factor, atol=atol * factor)
