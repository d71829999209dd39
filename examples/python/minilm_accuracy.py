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


def same_count(a: torch.Tensor, b: torch.Tensor, k: int) -> int:
    """How many sentences have the same k nearest neighbours, in order."""
    return int((a[:, :k] == b[:, :k]).all(dim=1).sum())


def compare(sentences=SENTENCES) -> dict:
    result = {}
    stock32 = embed(load("eager"), sentences)
    r32 = rankings(stock32)
    cosine = torch.nn.functional.cosine_similarity
    for dtype, name in ((torch.float32, "float32"), (torch.bfloat16, "bfloat16")):
        stock = stock32 if dtype == torch.float32 else embed(load("eager", dtype), sentences)
        ours = embed(load("simdax", dtype), sentences)
        r_stock, r_ours = rankings(stock), rankings(ours)
        result[name] = {
            "min_cosine_vs_stock_same_dtype": cosine(ours, stock, dim=1).min().item(),
            "min_cosine_vs_stock_float32": cosine(ours, stock32, dim=1).min().item(),
            "nn_same_vs_stock_same_dtype": same_count(r_ours, r_stock, 1),
            "top5_same_vs_stock_same_dtype": same_count(r_ours, r_stock, 5),
            "full_ranking_same": bool((r_stock == r_ours).all()),
            "nn_same_vs_float32": same_count(r_ours, r32, 1),
            # How far the dtype alone moves stock torch, for scale.
            "stock_min_cosine_vs_stock_float32": cosine(stock, stock32, dim=1).min().item(),
            "stock_nn_same_vs_float32": same_count(r_stock, r32, 1),
        }
    return result


def main() -> int:
    torch.set_num_threads(2)
    result = compare()
    n = len(SENTENCES)
    for dtype, r in result.items():
        print(f"{dtype}: min cosine simdax vs stock {dtype} "
              f"{r['min_cosine_vs_stock_same_dtype']:.9f}, vs stock float32 "
              f"{r['min_cosine_vs_stock_float32']:.9f}; same nearest neighbour as stock {dtype} "
              f"{r['nn_same_vs_stock_same_dtype']}/{n}, same top-5 "
              f"{r['top5_same_vs_stock_same_dtype']}/{n}, full ranking same: "
              f"{r['full_ranking_same']}")
        if dtype != "float32":
            print(f"  for scale: stock {dtype} vs stock float32 min cosine "
                  f"{r['stock_min_cosine_vs_stock_float32']:.9f}; same nearest neighbour as "
                  f"float32: stock {dtype} {r['stock_nn_same_vs_float32']}/{n}, simdax {dtype} "
                  f"{r['nn_same_vs_float32']}/{n}")
    f32 = result["float32"]
    ok = f32["min_cosine_vs_stock_same_dtype"] >= F32_MIN_COSINE and f32["full_ranking_same"]
    print("float32 check:", "pass" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
