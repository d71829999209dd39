#!/usr/bin/env python3
"""Writes the AttentionSoftmax conformance cases (tests/data/conformance/README.md)
from two outside references, and lists them in index.json:
  onnx_attention/<case>/  ONNX's reference evaluator, Attention-23 (and -25
                          for its sliding window): onnx_attention.py;
  torch_sdpa/<case>/      PyTorch's scaled_dot_product_attention on CPU:
                          torch_sdpa.py.
Each reference is first measured against the formula of
docs/attention_softmax.md in float64 (attention_reference.py) with the case's
own params; a case whose reference strays from it by more than a quarter of
the pass rule's bound is not written (its params would not say what the
outside library did). Run by hand, never in CI; the data is committed.

  /usr/bin/python3 -m venv build/confenv
  build/confenv/bin/pip install onnx==1.23.2 numpy torch ml_dtypes
  build/confenv/bin/python tools/conformance/attention_cases.py
"""
import os
import sys

import numpy as np

import onnx_attention
import torch_sdpa
from attention_reference import attention_softmax
from case_files import STORAGE, replace_in_index, write_case

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "conformance")
SETS = ("onnx_attention", "torch_sdpa")
SEED = 23

SEMANTICS = (
    "Over the last axis (keys) of X [..., Sq, Skv], query i, key j, i' = i (causal none, top_left) or "
    "i + Skv - Sq (bottom_right): key j is visible when j <= i' (causal) and j > i' - window (window > 0) "
    "and a uint8 Mask does not hold 0 there. For the visible keys z_j = softcap(x_j * scale) + Mask_j "
    "(float Mask) + slope * (j - i'), softcap(v) = softcap * tanh(v / softcap) (v when softcap is 0); "
    "y_j = exp(z_j - m) / S with m = max(max_j z_j, sink), S = sum_j exp(z_j - m) + exp(sink - m) (no "
    "sink: -inf); other keys give 0. A row with no visible key (or only -inf logits) and no sink gives 0 "
    "everywhere (fully_masked_rows: zeros). LogSumExp (float32, key axis 1) is m + log(S). Mask, "
    "AlibiSlopes and Sinks broadcast to X by size-1 or zero-stride axes."
)
TOLERANCE = {  # README "Pass rule and tolerances": Softmax
    "float32": {"atol": 1e-06, "rtol": 1e-05, "ulps": 0},
    "float16": {"atol": 1e-06, "rtol": 1e-05, "ulps": 1},
    "bfloat16": {"atol": 1e-06, "rtol": 1e-05, "ulps": 1},
}


def operand_view(inputs, name):
    for operand in inputs:
        if operand.name == name:
            view = operand.view()
            return view.astype(bool) if operand.dtype == "uint8" else view.astype(np.float64)
    return None


def ulps_from(ref, exact, dtype):
    """Largest distance in units of dtype between ref and exact (finite, >= 0:
    probabilities), counted on the bit patterns of dtype."""
    if dtype == "float32" or not np.any(np.isfinite(exact)):
        return 0
    store = STORAGE[dtype]
    bits = lambda a: np.asarray(a).astype(store).view(np.uint16).astype(np.int64)
    finite = np.isfinite(exact)
    return int(np.max(np.abs(bits(ref[finite]) - bits(exact[finite]))))


def deviation(ref, exact):
    """Largest |ref - exact| where exact is finite; NaN and infinities must
    sit at the same places (else inf)."""
    ref = np.asarray(ref, dtype=np.float64)
    if not np.array_equal(np.isnan(ref), np.isnan(exact)):
        return np.inf
    finite = np.isfinite(exact)
    if not np.array_equal(ref[~finite & ~np.isnan(exact)], exact[~finite & ~np.isnan(exact)]):
        return np.inf
    return float(np.max(np.abs(ref[finite] - exact[finite]), initial=0.0))


def check_against_formula(name, built):
    """The outside reference against the float64 formula with the case's
    params; returns the figures recorded in case.json."""
    inputs, params, dtype = built["inputs"], built["params"], built["dtype"]
    y64, lse64 = attention_softmax(operand_view(inputs, "X"), params, operand_view(inputs, "Mask"),
                                   operand_view(inputs, "AlibiSlopes"), operand_view(inputs, "Sinks"))
    y = np.asarray(built["y"], dtype=np.float64)
    tol = TOLERANCE[dtype]
    bound = tol["atol"] + tol["rtol"] * np.abs(np.nan_to_num(y64))
    finite = np.isfinite(y64)
    worst = deviation(y, y64)
    ulps = ulps_from(y, y64, dtype)
    narrow_ok = dtype != "float32" and ulps <= 1
    if worst == np.inf or not (np.all(np.abs(y - y64)[finite] <= bound[finite] / 4) or narrow_ok):
        raise SystemExit(f"{name}: the reference is off the formula (max |ref - float64| {worst:.3g}, "
                         f"{ulps} ulp): the params do not describe it")
    figures = {"reference_max_abs_deviation_from_float64": worst}
    if dtype != "float32":
        figures["reference_max_ulps_from_float64"] = ulps
    if built.get("lse") is not None:
        figures["log_sum_exp_max_abs_deviation_from_float64"] = deviation(built["lse"], lse64)
        if not figures["log_sum_exp_max_abs_deviation_from_float64"] <= 1e-6 * max(1.0, np.max(np.abs(lse64))):
            raise SystemExit(f"{name}: the LogSumExp reference is off the formula")
    return figures, y64


def alignment_note(built, y64):
    """For a causal case with Sq != Skv: how far the other alignment is from
    the reference (what makes the causal param a measured fact)."""
    params = built["params"]
    if params["causal"] == "none":
        return None
    x = operand_view(built["inputs"], "X")
    if x.shape[-2] == x.shape[-1]:
        return None
    other = "top_left" if params["causal"] == "bottom_right" else "bottom_right"
    y_other, _ = attention_softmax(x, dict(params, causal=other), operand_view(built["inputs"], "Mask"),
                                   operand_view(built["inputs"], "AlibiSlopes"), operand_view(built["inputs"], "Sinks"))
    off = float(np.max(np.abs(np.nan_to_num(y_other) - np.nan_to_num(y64))))
    return (f"The reference aligns causal {params['causal']}: the {other} alignment would be off by up to "
            f"{off:.3g} here.")


def tags_of(set_dir, built):
    params, names = built["params"], {o.name for o in built["inputs"]}
    tags = ["onnx", f"opset{built['opset']}"] if set_dir == "onnx_attention" else ["torch", "sdpa"]
    tags.append(built["dtype"])
    if params["causal"] != "none":
        tags.append("causal_" + params["causal"])
    tags += [t for t, on in (("window", params["window"] > 0), ("softcap", params["softcap"] > 0),
                             ("mask", "Mask" in names), ("alibi", "AlibiSlopes" in names),
                             ("sinks", "Sinks" in names), ("log_sum_exp", built.get("lse") is not None)) if on]
    return tags


def write(set_dir, name, built, notes):
    figures, y64 = check_against_formula(name, built)
    note = alignment_note(built, y64)
    notes = [n for n in notes + [note] if n]
    doc = {"schema": "simdax-case/1", "name": name, "set": f"conformance/{set_dir}", "op": "AttentionSoftmax",
           "params": built["params"]}
    if set_dir == "onnx_attention":
        doc["onnx"] = built["source"]
        doc["source"] = {"project": "ONNX (github.com/onnx/onnx)", "license": "Apache-2.0",
                         "converted_from": f"onnx {built['source']['onnx_version']} wheel: the reference "
                         f"evaluator on a one-node Attention-{built['opset']} model, numpy seed {SEED}, "
                         "by tools/conformance/attention_cases.py"}
    else:
        doc["torch"] = built["source"]
        doc["source"] = {"project": "PyTorch (github.com/pytorch/pytorch)", "license": "BSD-3-Clause",
                         "converted_from": f"torch {built['source']['torch_version']}: "
                         f"scaled_dot_product_attention on CPU, numpy seed {SEED}, "
                         "by tools/conformance/attention_cases.py"}
    doc.update({"tolerance": TOLERANCE[built["dtype"]], "semantics": SEMANTICS,
                "tags": tags_of(set_dir, built)})
    if notes:
        doc["notes"] = " ".join(notes)
    doc.update(figures)
    outputs = [("Y", np.asarray(built["y"]), built["dtype"])]
    if built.get("lse") is not None:
        outputs.append(("LogSumExp", np.asarray(built["lse"], dtype=np.float32), "float32"))
    write_case(ROOT, set_dir, doc, built["inputs"], outputs)
    shape = built["inputs"][0].shape
    entry = {"name": name, "path": f"{set_dir}/{name}", "op": "AttentionSoftmax", "dtype": built["dtype"],
             "shape": shape, "tags": doc["tags"]}
    return entry, figures


def onnx_notes(spec, built):
    notes = []
    mask = spec.get("mask")
    if mask and len(mask[1]) == 2:
        notes.append("ONNX right-aligns the 2-D attn_mask [Sq, Skv] to [B, H, Sq, Skv]: the Mask holds the "
                     "same bytes, viewed with strides [0, 0, Skv, 1].")
    if mask and mask[0] == "bool":
        notes.append("ONNX's boolean attn_mask (True keeps a key) is the uint8 Mask (nonzero keeps).")
    if spec.get("empty_rows"):
        notes.append("Query 1 sees no key. ONNX gives a zero row (the Attention-23 errata, the reference's "
                     "fully-masked-row guard on the additive bias), as simdax does.")
    if spec.get("special"):
        notes.append("Query 1's scores are +inf (a NaN row in both ONNX and simdax); query 2's are NaN under "
                     "an all-False boolean mask row (zeros in both: ONNX decides on the mask alone, simdax "
                     "reads no score under a uint8 0). Under an all -inf float mask ONNX still gives zeros "
                     "where simdax gives NaN (-inf + NaN is NaN): no such data is kept.")
    if spec.get("dtype") == "float16":
        precision = "float32 (softmax_precision 1)" if "softmax_precision" in spec.get("attrs", {}) else \
            "float16 (softmax_precision absent: Q's type)"
        notes.append(f"float16 scores; ONNX computes the softmax in {precision}. The grid of Q and K keeps "
                     "Q K^T and the scaled logits exact in binary16 (head_size 16: scale 1/4).")
    if spec.get("opset") == 25:
        notes.append("Attention-25's left_window_size L (with is_causal) keeps keys p - L <= j <= p: "
                     "simdax's window L + 1.")
    return notes


def main():
    rng = np.random.default_rng(SEED)
    kept = []
    written = {s: 0 for s in SETS}
    for spec in onnx_attention.CASES:
        built = onnx_attention.build(spec, rng)
        entry, figures = write("onnx_attention", spec["name"], built, onnx_notes(spec, built))
        kept.append(entry)
        written["onnx_attention"] += 1
        print(spec["name"], figures, file=sys.stderr)
    for spec in torch_sdpa.CASES:
        built = torch_sdpa.build(spec, rng)
        notes = []
        if spec.get("sq", 0) > spec.get("skv", 0) and spec.get("causal") == "bottom_right":
            notes.append("Queries i < Sq - Skv see no key: torch gives zero rows there, as simdax does.")
        entry, figures = write("torch_sdpa", spec["name"], built, notes)
        kept.append(entry)
        written["torch_sdpa"] += 1
        print(spec["name"], figures, file=sys.stderr)
    total = replace_in_index(ROOT, lambda e: e["path"].startswith(tuple(s + "/" for s in SETS)), kept)
    print(f"{written}; {total} cases in index.json", file=sys.stderr)


if __name__ == "__main__":
    main()
