"""What one call of the replaced operators costs at all-MiniLM-L6-v2's
shapes, by route: torch's own op, torch.ops.simdax, the simdax function, a
prebuilt simdax operator object, and, against torch's module, the model's
swapped module (simdax_bert.py). LayerNorm [B, 128, 384] (epsilon 1e-12)
and attention softmax [B, 12, 128, 128] (scale 32^-0.5, no mask: the model
at batch 1 has no padding), B = --batch, float32, under
torch.inference_mode, a fresh output each call; plus a one-token LayerNorm
[1, 1, 384], where the kernel is almost nothing and the call is the cost.
Best of --repeat timings of --number calls each, in us per call.

    build/pyenv/bin/python examples/python/minilm_call_cost.py [--threads 1] [--batch 1]
        [--number 1000] [--repeat 20]
"""
from __future__ import annotations

import argparse
import os
import timeit

import torch
import torch.nn.functional as F
from transformers.models.bert.modeling_bert import eager_attention_forward

import simdax
import simdax_bert

SCALE = 32 ** -0.5  # 1 / sqrt(head size)
EPS = 1e-12


def cases(threads: int, batch: int) -> dict:
    g = torch.Generator().manual_seed(0)
    hidden = torch.randn(batch, 128, 384, generator=g)
    token = torch.randn(1, 1, 384, generator=g)
    scores = torch.randn(batch, 12, 128, 128, generator=g) * 4
    stock_ln = torch.nn.LayerNorm(384, eps=EPS)
    with torch.no_grad():
        stock_ln.weight.uniform_(0.5, 1.5)
        stock_ln.bias.uniform_(-0.5, 0.5)
    w, b = stock_ln.weight.detach(), stock_ln.bias.detach()
    module = simdax_bert.SimdaxLayerNorm(stock_ln)
    module.simdax_threads = threads
    attention_owner = torch.nn.Module().eval()  # the attention functions read it
    attention_owner.simdax_threads = threads
    q, k, v = (torch.randn(batch, 12, 128, 32, generator=g) for _ in range(3))
    objects = {shape: simdax.LayerNorm(shape, torch.float32, bias_shape=(384,), epsilon=EPS)
               for shape in (hidden.shape, token.shape)}
    softmax_object = simdax.AttentionSoftmax(scores.shape, torch.float32, scale=SCALE)
    out = {}
    for label, x in ((f"LayerNorm {batch}x128x384", hidden), ("LayerNorm 1x1x384", token)):
        out[label] = {
            "torch": lambda x=x: F.layer_norm(x, (384,), w, b, EPS),
            "torch.ops.simdax": lambda x=x: torch.ops.simdax.layer_norm(
                x, w, b, epsilon=EPS, threads=threads),
            "simdax function": lambda x=x: simdax.layer_norm(x, w, b, epsilon=EPS,
                                                             threads=threads),
            "operator object": lambda x=x, op=objects[x.shape]: op(x, w, b, threads=threads),
        }
    # As the model calls them: torch.nn.LayerNorm against simdax_bert.SimdaxLayerNorm.
    out[f"LayerNorm module {batch}x128x384"] = {
        "torch": lambda: stock_ln(hidden),
        "simdax_bert module": lambda: module(hidden),
    }
    out[f"attention softmax {batch}x12x128x128"] = {
        # What stock eager attention runs: scale the scores, then softmax.
        "torch": lambda: torch.softmax(scores * SCALE, -1),
        "torch.ops.simdax": lambda: torch.ops.simdax.attention_softmax(
            scores, None, scale=SCALE, threads=threads),
        "simdax function": lambda: simdax.attention_softmax(scores, None, scale=SCALE,
                                                            threads=threads),
        "operator object": lambda: softmax_object(scores, threads=threads),
    }
    # The whole attention function the model calls: two matmuls around the softmax.
    out[f"attention {batch}x12x128x32 (2 matmuls + softmax)"] = {
        "torch": lambda: eager_attention_forward(attention_owner, q, k, v, None,
                                                 scaling=SCALE),
        "simdax_bert module": lambda: simdax_bert.simdax_attention(attention_owner, q, k, v,
                                                                   None, scaling=SCALE),
    }
    return out


def best_us(f, number: int, repeat: int) -> float:
    for _ in range(max(50, number // 10)):
        f()
    return min(timeit.Timer(f).repeat(repeat=repeat, number=number)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1,
                        help="torch.set_num_threads and the simdax calls' threads")
    parser.add_argument("--batch", type=int, default=1, help="sequences of 128 tokens")
    parser.add_argument("--number", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    load_before = os.getloadavg()[0]
    routes = ("torch", "torch.ops.simdax", "simdax function", "operator object",
              "simdax_bert module")
    rows = []
    with torch.inference_mode():
        for label, fs in cases(args.threads, args.batch).items():
            rows.append((label, {r: best_us(f, args.number, args.repeat)
                                 for r, f in fs.items()}))
    print(f"load average before/after: {load_before:.2f} / {os.getloadavg()[0]:.2f}; "
          f"threads {args.threads}; torch {torch.__version__}, simdax isa "
          f"{simdax.info()['isa']}; best of {args.repeat} x {args.number} calls, us per call\n")
    print("| call | " + " | ".join(routes) + " |")
    print("| --- |" + " --- |" * len(routes))
    for label, t in rows:
        cells = [f"{t[r]:.1f}" if r in t else "" for r in routes]
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
