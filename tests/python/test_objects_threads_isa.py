"""Operator objects, the threads argument, the ISA cap and info()."""
import threading

import numpy as np
import pytest

import simdax
import reference as ref
from conftest import assert_close, make


def test_info():
    info = simdax.info()
    assert info["version"] == simdax.__version__
    assert info["isa"] in info["isas_available"]
    assert "scalar" in info["isas_available"]
    assert set(info["isas_available"]) <= set(info["isas_compiled"])


def test_objects_match_functions():
    x = make((16, 200), "float32")
    w, b = make((200,), "float32", 1), make((200,), "float32", 2)
    assert_close(simdax.LogSoftmax(x.shape, x.dtype, 1)(x), ref.log_softmax(x, (1,)),
                 "float32", 4)
    assert_close(simdax.Softmax(x.shape, "float32", (0, 1))(x), ref.softmax(x, (0, 1)),
                 "float32", 4)
    np.testing.assert_array_equal(simdax.Hardmax(x.shape, "float32")(x), ref.hardmax(x, (1,)))
    op = simdax.MeanVarianceNormalization(x.shape, "float32", -1, scale_shape=(200,),
                                          bias_shape=(200,), epsilon=1e-5)
    assert_close(op(x, w, b), ref.mvn(x, (1,), w, b), "float32", 8)
    assert_close(simdax.HardSigmoid(x.shape, "float32", 0.25, 0.5)(x),
                 ref.activation("hard_sigmoid", x, 0.25, 0.5), "float32")
    assert_close(simdax.Activation(x.shape, "float32", "elu", alpha=0.5)(x),
                 ref.activation("elu", x, 0.5), "float32", 8)
    assert op.describe().startswith("op=MeanVarianceNormalization")


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_threads_give_the_same_bits(threads):
    x = make((64, 4096), "float32")  # large enough to be split
    one = simdax.softmax(x)
    np.testing.assert_array_equal(simdax.softmax(x, threads=threads), one)
    op = simdax.MVN(x.shape, "float32")
    np.testing.assert_array_equal(op(x, threads=threads), op(x))


def test_python_threads_share_an_operator():
    x = make((32, 1000), "float32")
    op = simdax.LogSoftmax(x.shape, "float32")
    want = op(x)
    results = [None] * 4

    def work(i):
        results[i] = op(x, threads=2)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for r in results:
        np.testing.assert_array_equal(r, want)


def test_isa_argument_and_block():
    x = make((8, 100), "float32")
    assert simdax.Softmax(x.shape, "float32", isa="scalar").isa == "scalar"
    with simdax.max_isa("scalar"):
        assert simdax.Softmax(x.shape, "float32").isa == "scalar"
        assert simdax.info()["isa"] == "scalar"
        assert_close(simdax.softmax(x), ref.softmax(x, (1,)), "float32", 4)
    assert simdax.Softmax(x.shape, "float32").isa == simdax.info()["isa"]


@pytest.mark.parametrize("isa", ["scalar", "avx2", "avx512", "avx512fp16"])
def test_every_available_isa_agrees(isa):
    if isa not in simdax.info()["isas_available"]:
        pytest.skip(f"{isa} not on this machine")
    x = make((5, 77), "float32")
    assert_close(simdax.log_softmax(x, isa=isa), ref.log_softmax(x, (1,)), "float32", 4)
    assert_close(simdax.mvn(x, isa=isa), ref.mvn(x, (1,)), "float32", 8)


def test_unsupported_isa_is_the_library_s_message():
    missing = [i for i in ("avx512fp16", "neon") if i not in simdax.info()["isas_available"]]
    with pytest.raises(ValueError, match="SIMDAX_ERROR_UNSUPPORTED"):
        simdax.Softmax((2, 2), "float32", isa=missing[0])
    with pytest.raises(ValueError, match="unknown ISA"):
        with simdax.max_isa("sse9"):
            pass
