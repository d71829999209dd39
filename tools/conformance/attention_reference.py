"""The AttentionSoftmax formula of docs/attention_softmax.md in float64, from
a case's own inputs and params: the generator measures each outside
reference against it (and so checks that the case's params say what the
outside library did) before it writes a case."""
import numpy as np


def visible_keys(sq, skv, causal, window):
    """[Sq, Skv] booleans: key j is visible to query i (causal window only)."""
    i = np.arange(sq).reshape(sq, 1)
    j = np.arange(skv).reshape(1, skv)
    aligned = i + (skv - sq if causal == "bottom_right" else 0)
    if causal == "none":
        return np.ones((sq, skv), dtype=bool)
    visible = j <= aligned
    if window:
        visible &= j > aligned - window
    return visible


def attention_softmax(x, params, mask=None, slopes=None, sinks=None):
    """Returns (y, lse) in float64. x: scores [..., Sq, Skv]; mask, slopes,
    sinks: arrays broadcastable to x (mask bool = uint8 semantics)."""
    x = np.asarray(x, dtype=np.float64)
    sq, skv = x.shape[-2:]
    scale = params.get("scale", 1.0)
    softcap = params.get("softcap", 0.0)
    causal = params.get("causal", "none")
    aligned = np.arange(sq).reshape(sq, 1) + (skv - sq if causal == "bottom_right" else 0)
    visible = np.broadcast_to(visible_keys(sq, skv, causal, params.get("window", 0)), x.shape)
    with np.errstate(invalid="ignore", over="ignore"):
        z = x * scale
        if softcap:
            z = softcap * np.tanh(z / softcap)
        if mask is not None and mask.dtype == np.bool_:
            visible = visible & np.broadcast_to(mask, x.shape)
        elif mask is not None:
            z = z + np.asarray(mask, dtype=np.float64)
        if slopes is not None:
            z = z + np.asarray(slopes, dtype=np.float64) * (np.arange(skv) - aligned)
        z = np.where(visible, z, -np.inf)
        sink = np.full(x.shape[:-1] + (1,), -np.inf) if sinks is None else np.broadcast_to(
            np.asarray(sinks, dtype=np.float64), x.shape[:-1] + (1,))
        m = np.maximum(np.max(z, axis=-1, keepdims=True), sink)
        empty = np.isneginf(m)  # no visible finite logit and no sink
        shift = np.where(empty, 0.0, m)
        e = np.exp(z - shift)
        s = np.sum(e, axis=-1, keepdims=True) + np.exp(sink - shift)
        if params.get("log", False):
            y = np.where(empty, -np.inf, z - shift - np.log(s))
        else:
            y = np.where(empty, 0.0, e / np.where(empty, 1.0, s))
        lse = np.where(empty, -np.inf, shift + np.log(s))
    return y, lse
