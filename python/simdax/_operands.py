"""The transformer operators' operands, by simdax_operand index: gathered
from arrays (outputs allocated when the caller gives none), the one place
their operators are created, and the run. The functions (_transformer) and
the operator objects (_transformer_operators) both go through here, so an
option means the same in both."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _simdax
from ._arrays import Operand, _torch, empty_like_operand, operand, with_rank
from ._run import thread_count

# simdax_operand indices (include/simdax/simdax_typed.h).
INPUT, OUTPUT, SCALE, BIAS, MASK, ALIBI_SLOPES, SINKS, LOG_SUM_EXP = range(8)
SKIP, SKIP_BIAS, MEAN, INV_STD_DEV, SKIP_SUM = range(8, 13)
OUTPUTS = (OUTPUT, LOG_SUM_EXP, MEAN, INV_STD_DEV, SKIP_SUM)

Layout = Tuple[str, Tuple[int, ...], Tuple[int, ...]]
Layouts = Tuple[Tuple[int, Layout], ...]  # sorted by index: hashable, a cache key
Operands = Dict[int, Operand]
Gathered = Tuple[Operands, List[Any]]  # the operands, and what the call returns


def create(kind: str, layouts: Layouts, params: tuple, isa: str) -> _simdax.Operator:
    """An operator for these layouts: kind "attention_softmax", "layer_norm"
    or "rms_norm", params from attention_params / norm_params."""
    specs = {o: _simdax.TensorSpec(dtype, list(shape), list(strides))
             for o, (dtype, shape, strides) in layouts}
    if kind == "attention_softmax":
        scale, softcap, causal, window, log = params
        return _simdax.make_attention_softmax_operator(specs, scale, softcap, causal, window, log,
                                                       isa)
    axis, epsilon = params
    return _simdax.make_normalization_operator(kind == "rms_norm", specs, axis, epsilon, isa)


def attention_params(scale: float, softcap: float, causal: str, window: int, log: bool) -> tuple:
    return (float(scale), float(softcap), str(causal), int(window), bool(log))


def norm_params(axis: int, epsilon: float) -> tuple:
    return (int(axis), float(epsilon))


def log_sum_exp_shape(shape: Sequence[int]) -> Tuple[int, ...]:
    """The input's shape with the key axis 1."""
    return tuple(shape[:-1]) + (1,)


def statistics_shape(shape: Sequence[int], axis: int) -> Tuple[int, ...]:
    """The input's shape with the normalized dims [axis, rank) 1."""
    first = axis + len(shape) if axis < 0 else axis
    return tuple(n if d < first else 1 for d, n in enumerate(shape))


def _output(x: Operand, out: Any, operands: Operands, index: int,
            shape: Optional[Sequence[int]] = None, dtype: Optional[str] = None) -> Any:
    array = empty_like_operand(x, shape, dtype) if out is None else out
    operands[index] = operand(array, "out")
    return array


def _optional(x: Any, what: str, operands: Operands, index: int,
              rank: Optional[int] = None) -> None:
    """rank: leading size-1 dims up to it (the attention operands must have
    the input's rank; the norms' parameters broadcast right-aligned)."""
    if x is not None:
        o = operand(x, what)
        operands[index] = o if rank is None else with_rank(o, rank, what)


def attention_operands(x: Any, mask: Any, alibi_slopes: Any, sinks: Any, out: Any,
                       return_log_sum_exp: bool) -> Gathered:
    """The operands, and what the call returns: out, then log_sum_exp."""
    xo = operand(x, "input")
    rank = len(xo.shape)
    operands = {INPUT: xo}
    results = [_output(xo, out, operands, OUTPUT)]
    _optional(mask, "mask", operands, MASK, rank)
    _optional(alibi_slopes, "alibi_slopes", operands, ALIBI_SLOPES, rank)
    _optional(sinks, "sinks", operands, SINKS, rank)
    if return_log_sum_exp:
        results.append(_output(xo, None, operands, LOG_SUM_EXP, log_sum_exp_shape(xo.shape),
                               "float32"))
    return operands, results


def norm_operands(x: Any, scale: Any, bias: Any, skip: Any, skip_bias: Any, out: Any, axis: int,
                  return_skip_sum: bool,
                  return_mean_inv_std: bool) -> Gathered:
    """The operands, and what the call returns: out, then the skip sum, the
    mean and the inverse standard deviation when asked."""
    xo = operand(x, "input")
    operands = {INPUT: xo, SCALE: operand(scale, "scale")}
    results = [_output(xo, out, operands, OUTPUT)]
    _optional(bias, "bias", operands, BIAS)
    _optional(skip, "skip", operands, SKIP)
    _optional(skip_bias, "skip_bias", operands, SKIP_BIAS)
    if return_skip_sum:
        results.append(_output(xo, None, operands, SKIP_SUM))
    if return_mean_inv_std:
        shape = statistics_shape(xo.shape, axis)
        for index in (MEAN, INV_STD_DEV):
            results.append(_output(xo, None, operands, index, shape, "float32"))
    return operands, results


def layouts_of(operands: Operands) -> Layouts:
    return tuple(sorted((o, a.layout) for o, a in operands.items()))


def execute(op: _simdax.Operator, operands: Operands, threads: Optional[int],
            created_for: Optional[Layouts] = None) -> bool:
    """Runs op. created_for: the layouts op was created for when the
    operands may differ (an operator object's call); None when op was
    created from these very operands (the functions' cache key). True when
    the operands had op's layouts (False: the checked path ran)."""
    count = thread_count(threads)
    for o in OUTPUTS:
        if o in operands and not operands[o].writable:
            raise ValueError("out: the array is read-only")
    if created_for is not None and layouts_of(operands) != created_for:
        # The extension's checked path, which names the operand that differs.
        op.execute_operands({o: a.importable() for o, a in operands.items() if o not in OUTPUTS},
                            {o: a.importable() for o, a in operands.items() if o in OUTPUTS},
                            count)
        return False
    # The layouts are the operator's: addresses suffice (importing each
    # array costs more, torch's DLPack export most).
    op.execute_operand_addresses({o: a.address for o, a in operands.items()}, count)
    return True


# The torch path. Gathering the operands above (reading each array into an
# Operand, then its layout) costs about 3 us per operand in Python, more than
# a batch-1 LayerNorm's kernel. For CPU torch tensors, their dtypes, shapes and
# strides alone determine every layout the gathering would find, so a call
# whose tensors match an earlier successful call's can go straight to the
# addresses of that call's operator.


def torch_key(arrays: Sequence[Any]) -> Optional[tuple]:
    """(dtype, shape, strides) of each of arrays when every one is a CPU torch
    tensor or None (kept as None); None when one is anything else."""
    torch = _torch()
    if torch is None:
        return None
    tensor = torch.Tensor
    key = []
    for a in arrays:
        if a is None:
            key.append(None)
        elif isinstance(a, tensor) and a.is_cpu:
            key.append((a.dtype, a.shape, a.stride()))
        else:
            return None
    return tuple(key)


def execute_torch(op: _simdax.Operator, indices: Sequence[int], arrays: Sequence[Any], out: Any,
                  threads: Optional[int]) -> Any:
    """Runs op on torch tensors whose torch_key an earlier call ran op with
    (arrays[i] is operand indices[i], arrays[0] the input, None: not given);
    out, or a new packed tensor like the input. Returns it."""
    count = thread_count(threads)
    x = arrays[0]
    result = x.new_empty(x.shape) if out is None else out
    addresses = {OUTPUT: result.data_ptr()}
    for index, a in zip(indices, arrays):
        if a is not None:
            addresses[index] = a.data_ptr()
    op.execute_operand_addresses(addresses, count)
    return result


def returned(results: List[Any]) -> Any:
    """out alone, or the tuple of every output asked for."""
    return results[0] if len(results) == 1 else tuple(results)
