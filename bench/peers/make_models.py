"""Builds the ONNX models that ort_peer.py runs with ONNX Runtime.

Usage: VENV_PYTHON make_models.py DATA_DIR MODEL_DIR
Writes MODEL_DIR/<id>.<n>.onnx for every candidate implementation of every
workload, MODEL_DIR/identity.onnx (4 floats: the binding's per-call
overhead) and MODEL_DIR/manifest.json, which lists for each workload its
candidates: file, impl, note, upcast (emulation that runs only when no native
candidate loads), io dtype (always the workload's). Default domain opset 17
(LayerNormalization's first; ReduceMean still takes axes as an attribute);
a model with RMSNormalization imports opset 23, one with a com.microsoft op
(SkipLayerNormalization) that domain too. Scale/Bias are initializers read from
DATA_DIR. MVN epsilon 1e-5, HardSigmoid alpha 0.2, beta 0.5.
Inputs: x, and for the transformer rows the extra inputs ort_peer.py binds
by name: "mask" (the additive f32 mask, causal rows too) and "skip" (x's
shape and dtype).
"""
import json
import os
import sys

import ml_dtypes
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from peers_common import ALPHA, BETA, EPSILON, load_workloads, read_tensor, to_float64

OPSET = 17
ELEM = {"f32": TensorProto.FLOAT, "f16": TensorProto.FLOAT16, "bf16": TensorProto.BFLOAT16}
NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


class Graph:
    def __init__(self, io="f32", cdt="f32"):
        self.nodes, self.inits, self.n = [], [], 0
        self.io, self.cdt = io, cdt  # the model's input/output and compute dtypes
        self.extra = []  # value infos of inputs beside x
        self.opset = OPSET
        self.domains = set()  # non-default domains used
        self.checkable = True  # False: an op onnx has no schema for

    def name(self, base):
        self.n += 1
        return "%s_%d" % (base, self.n)

    def op(self, op_type, inputs, domain="", **attrs):
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], domain=domain or None, **attrs))
        if domain:
            self.domains.add(domain)
            self.checkable = False
        return out

    def input(self, name, dtype, shape):
        """An extra graph input (dtype: f32/f16/bf16), cast to the compute
        dtype when that differs."""
        self.extra.append(helper.make_tensor_value_info(name, ELEM[dtype], shape))
        return name if dtype == self.cdt else self.op("Cast", [name], to=ELEM[self.cdt])

    def const(self, array, base="c"):
        name = self.name(base)
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def model(self, in_name, in_type, out_name, out_type, shape):
        self.nodes.append(helper.make_node("Identity", [out_name], ["y"]))
        g = helper.make_graph(self.nodes, "peer",
                              [helper.make_tensor_value_info(in_name, in_type, shape)] + self.extra,
                              [helper.make_tensor_value_info("y", out_type, shape)], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", self.opset)] + [
            helper.make_opsetid(d, 1) for d in sorted(self.domains)])
        m.ir_version = 8 if self.opset <= 17 else 11
        if self.checkable:
            onnx.checker.check_model(m)
        return m


def sb_array(data_dir, w, what, dtype):
    """Scale/Bias as a numpy array of the compute dtype."""
    raw = read_tensor(data_dir, w, what)
    v = to_float64(raw, w.dtype)
    return v.astype(NP[dtype])


def builders(w, data_dir):
    """[(impl, note, fn(g, x, cdt) -> out)] for workload w."""
    rank = len(w.shape)
    axes = sorted(w.axes)
    out = []
    if w.op in ("log_softmax", "softmax"):
        op = "LogSoftmax" if w.op == "log_softmax" else "Softmax"
        if len(axes) == 1:
            out.append((op, "", lambda g, x, cdt: g.op(op, [x], axis=axes[0])))
        else:
            kept = [a for a in range(rank) if a not in axes]
            perm = kept + axes
            inv = [perm.index(a) for a in range(rank)]
            groups = int(np.prod([w.shape[a] for a in kept])) if kept else 1
            pshape = [w.shape[a] for a in perm]

            def transposed(g, x, cdt):
                t = g.op("Transpose", [x], perm=perm)
                r = g.op("Reshape", [t, g.const(np.array([groups, -1], np.int64))])
                s = g.op(op, [r], axis=1)
                b = g.op("Reshape", [s, g.const(np.array(pshape, np.int64))])
                return g.op("Transpose", [b], perm=inv)

            def lse(g, x, cdt):
                m = g.op("ReduceLogSumExp", [x], axes=axes, keepdims=1)
                d = g.op("Sub", [x, m])
                return d if op == "LogSoftmax" else g.op("Exp", [d])

            out.append(("Transpose+%s+Transpose" % op,
                        "emulated: Transpose, %s over the flattened axes, Transpose back" % op,
                        transposed))
            out.append(("x-ReduceLogSumExp", "composite: x - ReduceLogSumExp(x, axes)", lse))
    elif w.op == "hardmax":
        if len(axes) == 1:
            out.append(("Hardmax", "", lambda g, x, cdt: g.op("Hardmax", [x], axis=axes[0])))
    elif w.op == "mvn":
        sb = bool(w.sb_shape)
        trailing = axes == list(range(rank - len(axes), rank))
        per_channel = sb and w.sb_shape == [1, w.shape[1]] + [1] * (rank - 2)

        def affine(g, y, cdt):
            if not sb:
                return y
            s = g.const(sb_array(data_dir, w, "scale", cdt), "scale")
            b = g.const(sb_array(data_dir, w, "bias", cdt), "bias")
            return g.op("Add", [g.op("Mul", [y, s]), b])

        def composite(g, x, cdt):
            m = g.op("ReduceMean", [x], axes=axes, keepdims=1)
            d = g.op("Sub", [x, m])
            v = g.op("ReduceMean", [g.op("Mul", [d, d])], axes=axes, keepdims=1)
            e = g.const(np.array(EPSILON, NP[cdt]), "eps")
            return affine(g, g.op("Div", [d, g.op("Sqrt", [g.op("Add", [v, e])])]), cdt)

        if trailing and (not sb or w.sb_shape[:rank - len(axes)] == [1] * (rank - len(axes))):
            nshape = w.shape[rank - len(axes):]

            def layer_norm(g, x, cdt):
                if sb:
                    s = sb_array(data_dir, w, "scale", cdt).reshape(nshape)
                    b = sb_array(data_dir, w, "bias", cdt).reshape(nshape)
                else:
                    s = np.ones(nshape, NP[cdt])
                    b = np.zeros(nshape, NP[cdt])
                return g.op("LayerNormalization", [x, g.const(s, "scale"), g.const(b, "bias")],
                            axis=axes[0], epsilon=EPSILON)

            out.append(("LayerNormalization", "", layer_norm))
        if rank >= 3 and axes == list(range(2, rank)) and (not sb or per_channel):
            c = w.shape[1]

            def instance_norm(g, x, cdt):
                if sb:
                    s = sb_array(data_dir, w, "scale", cdt).reshape(c)
                    b = sb_array(data_dir, w, "bias", cdt).reshape(c)
                else:
                    s, b = np.ones(c, NP[cdt]), np.zeros(c, NP[cdt])
                return g.op("InstanceNormalization", [x, g.const(s, "scale"), g.const(b, "bias")],
                            epsilon=EPSILON)

            out.append(("InstanceNormalization", "", instance_norm))
        out.append(("MeanVarianceNormalization" + ("+Mul+Add" if sb else ""),
                    "ONNX MVN adds its fixed 1e-9 to the std, not 1e-5 to the variance",
                    lambda g, x, cdt: affine(g, g.op("MeanVarianceNormalization", [x], axes=axes),
                                             cdt)))
        out.append(("ReduceMean composite",
                    "composite: ReduceMean, Sub, Mul, ReduceMean, Add eps, Sqrt, Div"
                    + (", Mul, Add" if sb else ""), composite))
    elif w.op == "attn_softmax":
        def attn(g, x, cdt):
            z = g.op("Mul", [x, g.const(np.array(w.scale, NP[cdt]), "scale")])
            if w.mask_shape is not None:
                z = g.op("Add", [z, g.input("mask", "f32", w.mask_shape)])
            return g.op("Softmax", [z], axis=rank - 1)

        out.append(("Mul+Add+Softmax", "x*scale + mask input (f32%s), Softmax(axis=-1)" % (
            "; causal: the additive mask" if w.causal else ""), attn))
    elif w.op in ("layer_norm", "rms_norm", "skip_layer_norm"):
        c = w.sb_shape
        eps = w.eps

        def gamma(g, cdt):
            return g.const(sb_array(data_dir, w, "scale", cdt).reshape(c), "gamma")

        def beta(g, cdt):
            return g.const(sb_array(data_dir, w, "bias", cdt).reshape(c), "beta")

        def src(g, x):
            if w.op != "skip_layer_norm":
                return x
            return g.op("Add", [x, g.input("skip", g.io, w.shape)])

        def ln_composite(g, x, cdt):
            m = g.op("ReduceMean", [x], axes=axes, keepdims=1)
            d = g.op("Sub", [x, m])
            v = g.op("ReduceMean", [g.op("Mul", [d, d])], axes=axes, keepdims=1)
            e = g.const(np.array(eps, NP[cdt]), "eps")
            y = g.op("Div", [d, g.op("Sqrt", [g.op("Add", [v, e])])])
            return g.op("Add", [g.op("Mul", [y, gamma(g, cdt)]), beta(g, cdt)])

        if w.op == "skip_layer_norm":
            def skip_ln(g, x, cdt):
                s = g.input("skip", g.io, w.shape)
                return g.op("SkipLayerNormalization", [x, s, gamma(g, cdt), beta(g, cdt)],
                            domain="com.microsoft", epsilon=eps)

            out.append(("com.microsoft.SkipLayerNormalization", "", skip_ln))
        if w.op in ("layer_norm", "skip_layer_norm"):
            out.append(("LayerNormalization" if w.op == "layer_norm" else "Add+LayerNormalization",
                        "" if w.op == "layer_norm" else "x + skip, then LayerNormalization-17",
                        lambda g, x, cdt: g.op("LayerNormalization", [
                            src(g, x), gamma(g, cdt), beta(g, cdt)], axis=rank - 1, epsilon=eps)))
            out.append(("ReduceMean composite" if w.op == "layer_norm" else "Add+ReduceMean composite",
                        "composite: %sReduceMean, Sub, Mul, ReduceMean, Add eps, Sqrt, Div, Mul, Add"
                        % ("Add skip, " if w.op == "skip_layer_norm" else ""),
                        lambda g, x, cdt: ln_composite(g, src(g, x), cdt)))
        if w.op == "rms_norm":
            def rms23(g, x, cdt):
                g.opset = 23
                return g.op("RMSNormalization", [x, gamma(g, cdt)], axis=rank - 1, epsilon=eps)

            def simplified(g, x, cdt):
                g.checkable = False  # ORT's contrib op in the default domain: no onnx schema
                return g.op("SimplifiedLayerNormalization", [x, gamma(g, cdt)], axis=rank - 1,
                            epsilon=eps)

            def rms_composite(g, x, cdt):
                ms = g.op("ReduceMean", [g.op("Mul", [x, x])], axes=axes, keepdims=1)
                e = g.const(np.array(eps, NP[cdt]), "eps")
                y = g.op("Div", [x, g.op("Sqrt", [g.op("Add", [ms, e])])])
                return g.op("Mul", [y, gamma(g, cdt)])

            out.append(("RMSNormalization-23", "", rms23))
            out.append(("SimplifiedLayerNormalization", "ORT's contrib op (its RMSNorm kernel)",
                        simplified))
            out.append(("ReduceMean composite",
                        "composite: Mul, ReduceMean, Add eps, Sqrt, Div, Mul gamma", rms_composite))
    elif w.op == "hard_sigmoid":
        out.append(("HardSigmoid", "", lambda g, x, cdt: g.op("HardSigmoid", [x], alpha=ALPHA,
                                                                beta=BETA)))
    return out


def main():
    data_dir, model_dir = sys.argv[1], sys.argv[2]
    os.makedirs(model_dir, exist_ok=True)
    manifest = {}
    for w in load_workloads():
        entries = []
        for k, (impl, note, fn) in enumerate(builders(w, data_dir)):
            variants = [("native", w.dtype, w.dtype)]
            if w.dtype != "f32":
                variants.append(("upcast", w.dtype, "f32"))
            for kind, io, cdt in variants:
                g = Graph(io, cdt)
                x = "x"
                if io != cdt:
                    x = g.op("Cast", [x], to=ELEM[cdt])
                y = fn(g, x, cdt)
                if w.dtype != cdt:
                    y = g.op("Cast", [y], to=ELEM[w.dtype])  # round once, to the output type
                if io != w.dtype:
                    y = g.op("Cast", [y], to=ELEM[io])
                fname = "%s.%d.%s.onnx" % (w.id, k, kind)
                onnx.save(g.model("x", ELEM[io], y, ELEM[io], w.shape),
                          os.path.join(model_dir, fname))
                if kind == "native":
                    entries.append({"file": fname, "impl": impl, "note": note, "upcast": False,
                                    "io": io})
                else:
                    how = "emulated: Cast to f32, %s, Cast back" % impl
                    entries.append({"file": fname, "impl": impl + " f32 upcast",
                                    "note": how + ("; " + note if note else ""),
                                    "upcast": True, "io": io})
        manifest[w.id] = entries
    g = Graph()
    onnx.save(g.model("x", TensorProto.FLOAT, "x", TensorProto.FLOAT, [4]),
              os.path.join(model_dir, "identity.onnx"))
    with open(os.path.join(model_dir, "manifest.json"), "w") as f:
        json.dump({"onnx": onnx.__version__, "opset": OPSET, "workloads": manifest}, f, indent=1)


if __name__ == "__main__":
    main()
