"""AttentionSoftmax cases from ONNX's reference evaluator (onnx.reference)
for the Attention operator: opset 23, and opset 25 for its sliding window.

Each case runs one Attention node twice on the same Q, K, V, mask and past:
  1. scale 1.0, no softcap, qk_matmul_output_mode 0: qk_matmul_output is the
     raw Q K^T (onnx/reference/ops/op_attention.py; with scale 1 the
     sqrt(scale) factors on Q and K are exact), which becomes the case's X;
  2. the case's own attributes, qk_matmul_output_mode 3: qk_matmul_output is
     the softmax after scale, softcap, mask and causal, the expected Y.
So the case holds exactly the stage between the two matrix products, which
is what simdax computes. The attributes map onto simdax's params as
simdax_onnx_attention_softmax_attrs does (docs/attention_softmax.md "From
ONNX"): is_causal without past_key is top_left, with past_key bottom_right.
"""
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from case_files import Operand, float32_number

ELEMENT_TYPE = {"float32": TensorProto.FLOAT, "float16": TensorProto.FLOAT16}
NUMPY = {"float32": np.float32, "float16": np.float16}

# Every case: B=2, H=2, head_size 8 unless it says otherwise; Sq queries,
# kv new keys, past cached keys (Skv = past + kv). mask: (kind, shape) with
# the shape in ONNX's terms (right-aligned to [B, H, Sq, Skv]).
# Two corners of the reference are left out, as they disagree with the
# Attention spec (README "AttentionSoftmax cases"): is_causal with a mask
# whose query axis is 1 (the reference then gives every query the causal
# frontier of query 0), and past_key with kv != Sq (ONNX's frontier
# j <= i + past is then no simdax causal mode).
B, H = 2, 2
CASES = [
    dict(name="attention23_scale_default", sq=4, kv=6),
    dict(name="attention23_scale", sq=4, kv=6, attrs={"scale": 0.3}),
    dict(name="attention23_softcap", sq=4, kv=6, attrs={"scale": 0.5, "softcap": 2.0}, spread=3.0),
    dict(name="attention23_float_mask_b11k", sq=4, kv=6, mask=("float", (B, 1, 1, 6))),
    dict(name="attention23_float_mask_11qk", sq=4, kv=6, mask=("float", (1, 1, 4, 6))),
    dict(name="attention23_float_mask_bhqk", sq=4, kv=6, mask=("float", (B, H, 4, 6))),
    dict(name="attention23_float_mask_2d", sq=4, kv=6, mask=("float", (4, 6))),
    dict(name="attention23_bool_mask_b11k", sq=4, kv=6, mask=("bool", (B, 1, 1, 6))),
    dict(name="attention23_bool_mask_11qk", sq=4, kv=6, mask=("bool", (1, 1, 4, 6))),
    dict(name="attention23_bool_mask_bhqk", sq=4, kv=6, mask=("bool", (B, H, 4, 6))),
    dict(name="attention23_bool_mask_2d", sq=4, kv=6, mask=("bool", (4, 6))),
    dict(name="attention23_causal_square", sq=5, kv=5, attrs={"is_causal": 1}),
    dict(name="attention23_causal_sq_lt_skv", sq=3, kv=6, attrs={"is_causal": 1}),
    dict(name="attention23_causal_sq_gt_skv", sq=6, kv=4, attrs={"is_causal": 1}),
    dict(name="attention23_causal_past_key", sq=3, kv=3, past=4, attrs={"is_causal": 1}),
    dict(name="attention23_causal_past_key_bool_mask", sq=3, kv=3, past=2, attrs={"is_causal": 1},
         mask=("bool", (B, 1, 3, 5))),
    dict(name="attention23_causal_float_mask", sq=4, kv=6, attrs={"is_causal": 1, "scale": 0.25},
         mask=("float", (1, H, 4, 6))),
    dict(name="attention23_softcap_causal_float_mask", sq=4, kv=4,
         attrs={"is_causal": 1, "scale": 0.7, "softcap": 1.5}, mask=("float", (B, 1, 4, 4)), spread=3.0),
    dict(name="attention23_fully_masked_rows_bool", sq=4, kv=5, mask=("bool", (B, 1, 4, 5)), empty_rows=True),
    dict(name="attention23_fully_masked_rows_float", sq=4, kv=5, mask=("float", (1, H, 4, 5)), empty_rows=True),
    dict(name="attention23_nan_scores_bool_mask", special=True),
    dict(name="attention23_float16", dtype="float16", head=16, sq=4, kv=6, attrs={"is_causal": 1},
         mask=("bool", (B, 1, 4, 6))),
    dict(name="attention23_float16_softmax_float32", dtype="float16", head=16, sq=4, kv=6,
         attrs={"softmax_precision": TensorProto.FLOAT}, mask=("float", (1, 1, 4, 6))),
    dict(name="attention25_causal_window", opset=25, sq=6, kv=6, attrs={"is_causal": 1, "left_window_size": 2}),
    dict(name="attention25_causal_window_past_key", opset=25, sq=3, kv=3, past=4,
         attrs={"is_causal": 1, "left_window_size": 3}),
]


def dyadic(rng, shape, step, limit, dtype):
    """Normal values on a grid of `step` within +-limit: the products and sums
    of Q K^T stay exact in the dtype, whatever the order of the sum."""
    return np.clip(np.round(rng.standard_normal(shape) / step) * step, -limit, limit).astype(dtype)


def make_mask(rng, kind, shape, dtype, empty_rows):
    if kind == "bool":
        mask = rng.random(shape) < 0.7
        mask[..., 0] |= not empty_rows  # every row keeps a key, unless it is to lose them all
    else:
        mask = dyadic(rng, shape, 0.125, 2.0, dtype)
        mask[rng.random(shape) < 0.2] = -np.inf
        if not empty_rows:
            mask[..., 0] = 0
    if empty_rows:  # query 1 sees no key at all
        mask[..., 1, :] = False if kind == "bool" else -np.inf
    return mask


def run_node(opset, dtype, attrs, feeds, mode):
    """Y and qk_matmul_output of one Attention node on `feeds`."""
    names = ["Q", "K", "V", "attn_mask", "past_key", "past_value"]
    inputs = [n if n in feeds else "" for n in names]
    while inputs[-1] == "":
        inputs.pop()
    node = helper.make_node("Attention", inputs, ["Y", "", "", "QK"], qk_matmul_output_mode=mode, **attrs)
    element = lambda n: TensorProto.BOOL if feeds[n].dtype == np.bool_ else ELEMENT_TYPE[dtype]
    infos = [helper.make_tensor_value_info(n, element(n), None) for n in inputs if n]
    outs = [helper.make_tensor_value_info(n, ELEMENT_TYPE[dtype], None) for n in ("Y", "QK")]
    model = helper.make_model(helper.make_graph([node], "attention", infos, outs),
                              opset_imports=[helper.make_opsetid("", opset)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ReferenceEvaluator(model).run(None, {n: feeds[n] for n in inputs if n})


def simdax_params(attrs, head, has_past):
    """docs/attention_softmax.md "From ONNX" (left_window_size: Attention-25's
    window, p - left <= j <= p: left + 1 keys)."""
    scale = attrs.get("scale", 1.0 / np.sqrt(head))
    causal = "none" if not attrs.get("is_causal", 0) else "bottom_right" if has_past else "top_left"
    params = {"scale": float32_number(scale), "softcap": float32_number(attrs.get("softcap", 0.0)),
              "causal": causal, "window": attrs.get("left_window_size", -1) + 1, "log": False,
              "fully_masked_rows": "zeros"}
    return params


def special_case(rng):
    """NaN and +inf scores (Q rows of inf and NaN): query 1 sees them all
    (a NaN row in both ONNX and simdax); query 2's scores are NaN and its
    boolean mask row is all False (zeros in both: ONNX decides on the mask,
    simdax does not read a score under a uint8 0)."""
    q = dyadic(rng, (1, 1, 3, 2), 0.125, 2.0, np.float32)
    k = np.abs(dyadic(rng, (1, 1, 4, 2), 0.125, 2.0, np.float32)) + 0.25
    q[0, 0, 1] = [np.inf, 1.0]
    q[0, 0, 2] = [np.nan, 0.0]
    mask = np.ones((1, 1, 3, 4), dtype=bool)
    mask[0, 0, 0, 3] = False
    mask[0, 0, 2, :] = False
    return q, k, mask


def build(spec, rng):
    """One case: (doc fields, inputs, Y, params) from the ONNX reference."""
    dtype = spec.get("dtype", "float32")
    opset = spec.get("opset", 23)
    head = spec.get("head", 8)
    np_type = NUMPY[dtype]
    # float16: a coarser grid, so that Q K^T stays exact in binary16 too.
    step, limit = (0.25, 1.0) if dtype == "float16" else (0.125, 2.0)
    spread = spec.get("spread", 1.0)
    mask = None
    past = spec.get("past", 0)
    if spec.get("special"):
        q, k, mask = special_case(rng)
        head = q.shape[-1]
    else:
        sq, kv = spec["sq"], spec["kv"]
        q = dyadic(rng, (B, H, sq, head), step, limit * spread, np_type)
        k = dyadic(rng, (B, H, kv, head), step, limit, np_type)
        if "mask" in spec:
            kind, shape = spec["mask"]
            mask = make_mask(rng, kind, shape, np_type, spec.get("empty_rows", False))
    feeds = {"Q": q, "K": k, "V": np.zeros(k.shape, dtype=np_type)}
    if mask is not None:
        feeds["attn_mask"] = mask
    if past:
        feeds["past_key"] = dyadic(rng, (B, H, past, head), step, limit, np_type)
        feeds["past_value"] = np.zeros((B, H, past, head), dtype=np_type)
    attrs = spec.get("attrs", {})
    score_attrs = {k: v for k, v in attrs.items() if k not in ("scale", "softcap", "softmax_precision")}
    scores = run_node(opset, dtype, dict(score_attrs, scale=1.0), feeds, 0)[1]
    probabilities = run_node(opset, dtype, attrs, feeds, 3)[1]
    if not spec.get("special"):  # mode 0 at scale 1 is Q K^T, exactly (dyadic data)
        full_k = np.concatenate([feeds["past_key"], k], axis=2) if past else k
        exact = np.matmul(q.astype(np.float64), np.swapaxes(full_k.astype(np.float64), -1, -2))
        assert np.array_equal(scores.astype(np.float64), exact), spec["name"]

    x_shape = list(scores.shape)
    inputs = [Operand("X", scores, dtype)]
    mask_operand = None
    if mask is not None:
        mask_dtype = "uint8" if mask.dtype == np.bool_ else dtype
        if mask.ndim == 4:
            mask_operand = Operand("Mask", mask, mask_dtype)
        else:  # ONNX right-aligns a lower-rank mask: the same bytes, zero strides in front
            strides = [0] * (4 - mask.ndim) + [int(s // mask.itemsize) for s in mask.strides]
            mask_operand = Operand("Mask", mask, mask_dtype, shape=x_shape, strides=strides)
        inputs.append(mask_operand)
    params = simdax_params(attrs, head, past > 0)
    source = {
        "test": spec["name"],
        "op_type": "Attention",
        "opset": opset,
        "op_version": opset,
        "attributes": dict({"is_causal": 0, "softcap": 0.0, "qk_matmul_output_mode": 3}, **{
            k: (float32_number(v) if isinstance(v, float) else v) for k, v in attrs.items()}),
        "shapes": {"Q": list(q.shape), "K": list(k.shape),
                   "past_key": list(feeds["past_key"].shape) if past else None,
                   "attn_mask": None if mask is None else
                   [list(mask.shape), "bool" if mask.dtype == np.bool_ else dtype]},
        "onnx_version": onnx.__version__,
        "evaluator": "onnx.reference.ReferenceEvaluator, onnx/reference/ops/op_attention.py",
        "X_from": "qk_matmul_output of the node with scale 1.0, no softcap, qk_matmul_output_mode 0 (raw Q K^T)",
        "Y_from": "qk_matmul_output of the node as listed, qk_matmul_output_mode 3 (after softmax)",
    }
    if "scale" not in attrs:
        source["attributes"]["scale"] = None  # absent: 1/sqrt(head_size)
    return dict(opset=opset, dtype=dtype, params=params, source=source, inputs=inputs,
                y=probabilities, mask=mask_operand)
