#!/usr/bin/env python3
"""Converts ONNX's own node tests for LayerNormalization (opset 17) and
RMSNormalization (opset 23) into simdax conformance cases
(tests/data/conformance/README.md): case.json plus raw little-endian .bin
files, and their entries in index.json.

The onnx wheel ships the node-test generators, not their protobuf data, so
the cases come from onnx.backend.test.case.node.collect_testcases(): the
same code (and ONNX's reference implementation) that writes
onnx/backend/test/data/node/test_{layer,rms}_normalization_*; numpy's seed
is fixed so a rerun writes the same files.

  /usr/bin/python3 -m venv build/venv
  build/venv/bin/pip install onnx==1.23.2 numpy
  build/venv/bin/python tools/conformance/onnx_norm_cases.py
"""
import os
import sys
import warnings

import numpy as np
import onnx
from onnx.backend.test.case.node import collect_testcases

from case_files import dumps, replace_in_index

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "conformance")
PREFIXES = ("test_layer_normalization", "test_rms_normalization")
SEMANTICS = {
    "LayerNormalization": "Over the dims [axis, rank): mean = E[x], var = E[(x-mean)^2] (population); "
    "y = (x - mean) / sqrt(var + epsilon) * Scale + Bias, Scale and Bias broadcast numpy-style "
    "(right-aligned); Mean and InvStdDev (float32, the input's shape with the normalized dims 1) "
    "hold mean and 1/sqrt(var + epsilon).",
    "RMSNormalization": "Over the dims [axis, rank): y = x / sqrt(E[x^2] + epsilon) * Scale, Scale "
    "broadcast numpy-style (right-aligned).",
}


def attribute(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def float64_reference(op, x, scale, bias, axis, eps):
    axes = tuple(range(axis % x.ndim, x.ndim))
    x = x.astype(np.float64)
    if op == "RMSNormalization":
        inv = 1.0 / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + np.float64(eps))
        return [x * inv * scale]
    mean = np.mean(x, axis=axes, keepdims=True)
    inv = 1.0 / np.sqrt(np.mean((x - mean) ** 2, axis=axes, keepdims=True) + np.float64(eps))
    return [(x - mean) * inv * scale + bias, mean, inv]


def tensor(name, file, array):
    entry = {"name": name, "file": file, "dtype": "float32", "file_dtype": "float32", "shape": list(array.shape)}
    return entry


def convert(case):
    model = case.model
    node = model.graph.node[0]
    op = node.op_type
    opset = model.opset_import[0].version
    inputs, outputs = case.data_sets[0]
    axis = int(attribute(node, "axis", -1))
    eps = float(np.float32(attribute(node, "epsilon", 1e-5)))
    stash = int(attribute(node, "stash_type", 1))
    folder = os.path.join(ROOT, "onnx", case.name)
    os.makedirs(folder, exist_ok=True)
    in_names = ["X", "Scale", "Bias"][: len(inputs)]
    out_names = ["Y", "Mean", "InvStdDev"][: len(outputs)]
    ins, outs = [], []
    for i, (name, a) in enumerate(zip(in_names, inputs)):
        a = np.ascontiguousarray(a, dtype="<f4")
        a.tofile(os.path.join(folder, f"input_{i}.bin"))
        e = tensor(name, f"input_{i}.bin", a)
        e.update({"strides": None, "offset": 0, "buffer_elements": int(a.size)})
        ins.append(e)
    for i, (name, a) in enumerate(zip(out_names, outputs)):
        a = np.ascontiguousarray(a, dtype="<f4")
        a.tofile(os.path.join(folder, f"output_{i}.bin"))
        outs.append(tensor(name, f"output_{i}.bin", a))
    bias = inputs[2] if len(inputs) > 2 else 0.0
    ref = float64_reference(op, inputs[0], inputs[1].astype(np.float64), bias, axis, eps)
    deviation = max(float(np.max(np.abs(r - o.astype(np.float64)))) for r, o in zip(ref, outputs))
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    doc = {
        "schema": "simdax-case/1",
        "name": case.name,
        "set": "conformance/onnx",
        "op": op,
        "params": {"axis": axis, "epsilon": eps, "stash_type": stash},
        "onnx": {
            "test": case.name,
            "op_type": op,
            "opset": opset,
            "op_version": opset,
            "attributes": {"axis": axis, "epsilon": eps, "stash_type": stash, **attrs},
            "onnx_version": onnx.__version__,
            "path": f"onnx/backend/test/data/node/{case.name}/test_data_set_0",
        },
        "tolerance": {"atol": 1e-05, "rtol": 1e-05, "ulps": 0},
        "semantics": SEMANTICS[op],
        "tags": ["onnx", f"opset{opset}"],
        "source": {
            "project": "ONNX (github.com/onnx/onnx)",
            "license": "Apache-2.0",
            "converted_from": f"onnx {onnx.__version__} wheel: onnx.backend.test.case.node "
            "(collect_testcases, numpy seed 0), by tools/conformance/onnx_norm_cases.py",
        },
        "reference_max_abs_deviation_from_float64": deviation,
        "inputs": ins,
        "outputs": outs,
    }
    with open(os.path.join(folder, "case.json"), "w") as f:
        f.write(dumps(doc))
    entry = {
        "name": case.name,
        "path": f"onnx/{case.name}",
        "op": op,
        "dtype": "float32",
        "shape": list(inputs[0].shape),
        "axis": axis,
        "tags": doc["tags"],
    }
    return entry, deviation


def main():
    np.random.seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = [c for c in collect_testcases(None) if c.name.startswith(PREFIXES) and "expanded" not in c.name]
    entries = []
    worst = 0.0
    for c in cases:
        entry, dev = convert(c)
        entries.append(entry)
        worst = max(worst, dev)
    replace_in_index(ROOT, lambda e: e["name"].startswith(PREFIXES), entries)
    print(f"{len(cases)} cases; largest deviation of ONNX's outputs from float64: {worst:.3g}", file=sys.stderr)


if __name__ == "__main__":
    main()
