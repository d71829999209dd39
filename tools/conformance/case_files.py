"""Writes simdax-case/1 folders (tests/data/conformance/README.md): raw
little-endian .bin files and case.json, in the JSON style of the set."""
import json
import os
import re

import ml_dtypes
import numpy as np

# dtype name of the format -> numpy storage type (little-endian).
STORAGE = {
    "float32": np.dtype("<f4"),
    "float16": np.dtype("<f2"),
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float64": np.dtype("<f8"),
    "uint8": np.dtype("u1"),
}


def dumps(doc):
    """JSON as the set writes it: indent 1, lists of numbers and strings on one line."""
    text = json.dumps(doc, indent=1, allow_nan=False)
    flat = lambda m: "[" + ", ".join(p.strip() for p in m.group(1).split(",\n")) + "]"
    return re.sub(r"\[\n\s*([^\[\]{}]*?)\n\s*\]", flat, text) + "\n"


def replace_in_index(root, stale, entries):
    """index.json under root with the entries stale(entry) picks replaced by entries."""
    path = os.path.join(root, "index.json")
    with open(path) as f:
        index = json.load(f)
    index["cases"] = [e for e in index["cases"] if not stale(e)] + list(entries)
    with open(path, "w") as f:
        f.write(dumps(index))
    return len(index["cases"])


def float32_number(value):
    """A float32 value as the decimal that reads back to it exactly."""
    return float(np.float32(value))


class Operand:
    """One input: the values in the file (`data`, stored as `dtype`) and the
    view the operator sees (`shape`, `strides` in elements, None = packed)."""

    def __init__(self, name, data, dtype, shape=None, strides=None):
        self.name = name
        self.dtype = dtype
        self.data = np.ascontiguousarray(np.asarray(data).astype(STORAGE[dtype]))
        self.shape = list(self.data.shape if shape is None else shape)
        self.strides = strides

    def view(self):
        """The operand as the operator sees it (a numpy view of the file)."""
        if self.strides is None:
            return self.data.reshape(self.shape)
        item = self.data.itemsize
        return np.lib.stride_tricks.as_strided(
            self.data, shape=self.shape, strides=[s * item for s in self.strides], writeable=False)

    def entry(self, file):
        return {"name": self.name, "file": file, "dtype": self.dtype, "file_dtype": self.dtype,
                "shape": self.shape, "strides": self.strides, "offset": 0,
                "buffer_elements": int(self.data.size)}


def write_case(root, set_dir, doc, inputs, outputs):
    """Writes root/set_dir/doc["name"]/: the .bin files of `inputs`
    (Operands) and `outputs` ((name, array, dtype) packed), then case.json
    with their entries appended to doc."""
    folder = os.path.join(root, set_dir, doc["name"])
    os.makedirs(folder, exist_ok=True)
    for stale in os.listdir(folder):
        os.remove(os.path.join(folder, stale))
    doc = dict(doc, inputs=[], outputs=[])
    for i, operand in enumerate(inputs):
        file = f"input_{i}.bin"
        operand.data.tofile(os.path.join(folder, file))
        doc["inputs"].append(operand.entry(file))
    for i, (name, array, dtype) in enumerate(outputs):
        file = f"output_{i}.bin"
        np.ascontiguousarray(array).astype(STORAGE[dtype]).tofile(os.path.join(folder, file))
        doc["outputs"].append({"name": name, "file": file, "dtype": dtype, "file_dtype": dtype,
                               "shape": list(array.shape)})
    with open(os.path.join(folder, "case.json"), "w") as f:
        f.write(dumps(doc))
