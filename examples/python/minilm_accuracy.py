"""Same answers with and without simdax: all-MiniLM-L6-v2 embeddings of the
retrieval set (examples/python/sentences.py), stock eager vs simdax, in
float32 and bfloat16, and the nearest-neighbour ranking of every sentence.

    build/pyenv/bin/python examples/python/minilm_accuracy.py

Exits 1 when a float32 cosine is below 0.999999 or a ranking differs.
"""
from __future__ import annotations

import sys

import torch

from minilm import embed, load
from sentences import SENTENCES

F32_MIN_COSINE = 0.999999


def rankings(embeddings: torch.Tensor) -> torch.Tensor:
    """For each sentence, the others ordered by cosine similarity, nearest first."""
    sim = embeddings @ embeddings.T
    sim.fill_diagonal_(-2.0)
    return sim.argsort(dim=1, descending=True)[:, :-1]


def compare(sentences=SENTENCES) -> dict:
    result = {}
    stock32 = embed(load("eager"), sentences)
    for dtype, name in ((torch.float32, "float32"), (torch.bfloat16, "bfloat16")):
        stock = stock32 if dtype == torch.float32 else embed(load("eager", dtype), sentences)
        ours = embed(load("simdax", dtype), sentences)
        cos = torch.nn.functional.cosine_similarity(ours, stock, dim=1)
        r_stock, r_ours = rankings(stock), rankings(ours)
        result[name] = {
            "min_cosine_vs_stock_same_dtype": cos.min().item(),
            "min_cosine_vs_stock_float32":
                torch.nn.functional.cosine_similarity(ours, stock32, dim=1).min().item(),
            "nearest_neighbour_same": bool((r_stock[:, 0] == r_ours[:, 0]).all()),
            "top5_same": bool((r_stock[:, :5] == r_ours[:, :5]).all()),
            "full_ranking_same": bool((r_stock == r_ours).all()),
            # How far the dtype alone moves stock torch, for scale.
            "stock_min_cosine_vs_stock_float32":
                torch.nn.functional.cosine_similarity(stock, stock32, dim=1).min().item(),
            "stock_top5_same_as_float32": bool((r_stock[:, :5] == rankings(stock32)[:, :5]).all()),
        }
    return result


def main() -> int:
    torch.set_num_threads(2)
    result = compare()
    for dtype, r in result.items():
        print(f"{dtype}: min cosine simdax vs stock {dtype} {r['min_cosine_vs_stock_same_dtype']:.9f}, "
              f"vs stock float32 {r['min_cosine_vs_stock_float32']:.9f}; nearest neighbour same: "
              f"{r['nearest_neighbour_same']}, top-5 same: {r['top5_same']}, full ranking same: "
              f"{r['full_ranking_same']}  ({len(SENTENCES)} sentences)")
        if dtype != "float32":
            print(f"  for scale, stock {dtype} vs stock float32: min cosine "
                  f"{r['stock_min_cosine_vs_stock_float32']:.9f}, top-5 same: "
                  f"{r['stock_top5_same_as_float32']}")
    f32 = result["float32"]
    ok = f32["min_cosine_vs_stock_same_dtype"] >= F32_MIN_COSINE and f32["full_ranking_same"]
    print("float32 check:", "pass" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
