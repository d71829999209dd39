"""Writes the input data of every workload (fixed seed) for all drivers.

Usage: /usr/bin/python3 make_data.py DATA_DIR
Files: DATA_DIR/<id>.in, <id>.scale, <id>.bias, <id>.skip, raw
little-endian in the workload's dtype (float32, IEEE binary16, bfloat16
bits), and <id>.mask (attn_softmax rows), always float32. Inputs and skip
are uniform in [-4, 4), Scale uniform in [0.5, 1.5), Bias in [-0.5, 0.5);
float16 and bfloat16 data are the float32 values rounded to nearest even.
The mask is 0 / -inf as the row's parameters say (peers_common.make_mask).
"""
import os
import sys
import zlib

import numpy as np

from peers_common import data_path, load_workloads, make_mask, to_storage


def main():
    data_dir = sys.argv[1]
    os.makedirs(data_dir, exist_ok=True)
    for w in load_workloads():
        rng = np.random.default_rng(zlib.crc32(w.id.encode()))
        parts = {"in": rng.uniform(-4.0, 4.0, size=w.count).astype(np.float32)}
        if w.sb_shape:
            n = int(np.prod(w.sb_shape))
            parts["scale"] = rng.uniform(0.5, 1.5, size=n).astype(np.float32)
            parts["bias"] = rng.uniform(-0.5, 0.5, size=n).astype(np.float32)
        if w.has_skip:
            parts["skip"] = rng.uniform(-4.0, 4.0, size=w.count).astype(np.float32)
        mask = make_mask(w)
        if mask is not None:
            parts["mask"] = mask
        for what, x in parts.items():
            path = data_path(data_dir, w, what)
            data = x.reshape(-1) if what == "mask" else to_storage(x, w.dtype)
            if os.path.exists(path) and os.path.getsize(path) == data.nbytes:
                old = np.fromfile(path, dtype=data.dtype)
                if np.array_equal(old.view(np.uint8), data.view(np.uint8)):
                    continue
            data.tofile(path)


if __name__ == "__main__":
    main()
