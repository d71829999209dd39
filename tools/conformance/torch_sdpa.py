"""AttentionSoftmax cases from PyTorch's scaled_dot_product_attention (CPU).

SDPA returns softmax(q k^T * scale + mask) @ v, never the probabilities; with
v = the identity (Dv = Skv) the output is the probability matrix itself. The
cases take X = q k^T (exact: q and k sit on a dyadic grid) and Y = that
output. What each case puts in torch's hands:
  - bottom-right causal: torch.nn.attention.bias.causal_lower_right(Sq, Skv),
    top-left: is_causal=True;
  - a sliding window: a boolean attn_mask (causal_lower_right's own matrix,
    and'ed with j > i' - window), as torch has no window argument;
  - sinks: one more key column whose logit is the sink (a float attn_mask
    value over a zero key) and whose v row is zero: it joins the
    denominator and adds nothing to any output, which is what a sink is;
  - ALiBi: a float attn_mask slope * j (BLOOM's form; softmax does not see
    the per-row constant that simdax's slope * (j - i') differs by);
  - LogSumExp: the second output of aten::_scaled_dot_product_flash_attention_for_cpu
    (the kernel behind SDPA on CPU), natural log, in the scaled domain.
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right

from case_files import Operand, float32_number

TORCH = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}

# Each case: B, H, Sq, Skv; head: q/k head size (default Skv); causal: how
# torch is told (top_left = is_causal, bottom_right = causal_lower_right).
CASES = [
    dict(name="sdpa_causal_lower_right", b=2, h=2, sq=3, skv=7, head=8, causal="bottom_right"),
    dict(name="sdpa_causal_lower_right_sq_gt_skv", b=1, h=2, sq=6, skv=4, causal="bottom_right"),
    dict(name="sdpa_is_causal_top_left", b=1, h=2, sq=4, skv=7, causal="top_left", scale=0.3),
    dict(name="sdpa_sliding_window_lower_right", b=1, h=2, sq=5, skv=9, causal="bottom_right", window=3),
    dict(name="sdpa_sinks", b=2, h=2, sq=4, skv=6, sinks=True, lse=True),
    dict(name="sdpa_sinks_causal_lower_right_window", b=1, h=2, sq=5, skv=8, causal="bottom_right", window=4,
         sinks=True, lse=True),
    dict(name="sdpa_alibi_causal_lower_right", b=1, h=4, sq=4, skv=8, causal="bottom_right", alibi=True),
    dict(name="sdpa_float_mask_lse", b=2, h=2, sq=4, skv=6, float_mask=True, lse=True, scale=0.5),
    dict(name="sdpa_bfloat16_causal_lower_right", b=1, h=2, sq=4, skv=6, causal="bottom_right",
         dtype="bfloat16"),
    dict(name="sdpa_float16_sinks", b=1, h=2, sq=4, skv=6, sinks=True, dtype="float16"),
]


def dyadic(rng, shape, step, limit):
    return np.clip(np.round(rng.standard_normal(shape) / step) * step, -limit, limit)


def alibi_slopes(h):
    """ALiBi's slopes for h heads (a power of two): 2^(-8 (i+1) / h)."""
    return np.array([2.0 ** (-8.0 * (i + 1) / h) for i in range(h)])


def build(spec, rng):
    dtype = spec.get("dtype", "float32")
    b, h, sq, skv = spec["b"], spec["h"], spec["sq"], spec["skv"]
    head = spec.get("head", skv)
    # Narrow types: a grid on which q k^T is exact in 8 significant bits.
    step, limit = (0.25, 1.0) if dtype != "float32" else (0.125, 2.0)
    q = dyadic(rng, (b, h, sq, head), step, limit)
    k = dyadic(rng, (b, h, skv, head), step, limit)
    scores = q @ np.swapaxes(k, -1, -2)  # exact in float64, and in dtype
    scale = spec.get("scale")
    torch_scale = scale  # None: torch's default 1/sqrt(head)
    simdax_scale = float32_number(1.0 / np.sqrt(head) if scale is None else scale)
    causal = spec.get("causal", "none")
    window = spec.get("window", 0)
    params = {"scale": simdax_scale, "softcap": 0.0, "causal": causal, "window": window, "log": False,
              "fully_masked_rows": "zeros"}

    # attn_mask: causal_lower_right's bias, a boolean keep-matrix [Sq, Skv], or
    # a float bias; `made` says how, for case.json.
    tt = TORCH[dtype]
    attn_mask, is_causal, made = None, False, []
    inputs = [Operand("X", scores, dtype)]
    keep = None
    if causal == "bottom_right":
        bias = causal_lower_right(sq, skv)
        keep = bias._materialize()
        made.append(f"causal_lower_right({sq}, {skv})")
        if window:
            i_aligned = torch.arange(sq).reshape(sq, 1) + skv - sq
            keep = keep & (torch.arange(skv).reshape(1, skv) > i_aligned - window)
            made[-1] = f"causal_lower_right({sq}, {skv})._materialize() & (j > i + {skv - sq} - {window})"
        attn_mask = bias if not window else keep
    elif causal == "top_left":
        is_causal = True
    float_bias = None
    if spec.get("float_mask"):
        mask = dyadic(rng, (b, 1, sq, skv), 0.125, 2.0)
        mask[rng.random(mask.shape) < 0.2] = -np.inf
        mask[..., 0] = 0.0  # no row loses every key (torch's LogSumExp there is 0, simdax's -inf)
        float_bias = torch.tensor(mask)
        inputs.append(Operand("Mask", mask, dtype))
        made.append("the case's Mask (float, [B, 1, Sq, Skv])")
    if spec.get("alibi"):
        slopes = alibi_slopes(h)
        float_bias = torch.tensor(slopes.reshape(1, h, 1, 1) * np.arange(skv))
        inputs.append(Operand("AlibiSlopes", slopes.reshape(1, h, 1, 1), dtype))
        made.append("slope[h] * j, -inf where causal_lower_right masks")
    if float_bias is not None and keep is not None:
        float_bias = float_bias.masked_fill(~keep, -np.inf)
    sinks = None
    if spec.get("sinks"):
        sinks = dyadic(rng, (1, h, 1, 1), 0.25, 3.0)
        inputs.append(Operand("Sinks", sinks, dtype))
        made.append("one more key column: k row 0, v row 0, attn_mask value the head's sink")

    # q, k, v as torch sees them (with the sink column when there is one).
    tq = torch.tensor(q, dtype=tt)
    tk = torch.tensor(k, dtype=tt)
    tv = torch.eye(skv, dtype=tt).expand(b, h, skv, skv)
    if sinks is not None:
        base = torch.zeros(b, h, sq, skv, dtype=torch.float64) if float_bias is None else float_bias
        if keep is not None and float_bias is None:
            base = base.masked_fill(~keep, -np.inf)
        sink_column = torch.tensor(sinks).expand(b, h, sq, 1)
        float_bias = torch.cat([base.expand(b, h, sq, skv), sink_column], dim=-1)
        tk = torch.cat([tk, torch.zeros(b, h, 1, head, dtype=tt)], dim=2)
        tv = torch.cat([tv, torch.zeros(b, h, 1, skv, dtype=tt)], dim=2)
    if float_bias is not None:
        attn_mask = float_bias.to(tt)
    tv = tv.contiguous()
    with torch.no_grad():
        y = F.scaled_dot_product_attention(tq, tk, tv, attn_mask=attn_mask, is_causal=is_causal,
                                           scale=torch_scale)
        lse = None
        if spec.get("lse"):
            flash_mask = attn_mask if not hasattr(attn_mask, "_materialize") else None
            out, lse = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(
                tq, tk, tv, 0.0, is_causal, attn_mask=flash_mask, scale=torch_scale)
            assert torch.equal(out, y), spec["name"]  # the same kernel as SDPA's
            lse = lse.float().numpy().reshape(b, h, sq, 1)
    mask_arg = "None" if attn_mask is None else "attn_mask" if made else "?"
    source = {
        "torch_version": torch.__version__,
        "call": f"torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask={mask_arg}, "
        f"is_causal={is_causal}, scale={scale}) on CPU",
        "attn_mask": "; ".join(made) if made else None,
        "v": "the identity [Skv, Skv]" + (" with a zero row for the sink column" if sinks is not None else ""),
        "shapes": {"q": list(tq.shape), "k": list(tk.shape), "v": list(tv.shape)},
    }
    if lse is not None:
        source["log_sum_exp_from"] = "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu (output 1)"
    return dict(dtype=dtype, params=params, source=source, inputs=inputs,
                y=y.to(torch.float32).numpy().astype(np.float64), lse=lse)
