"""Float costs as the integers the solver takes, never changed in silence.

The scale is the one XLA requests use (``_core.choose_cost_scale``): a power of two, the
least that keeps every nonzero cost within a relative rounding error of 1e-9, capped so the
largest stays within 10^17. Infinite costs and costs of 10^18 or more stay forbidden.
"""

import math

import numpy as np

from . import _core

FORBIDDEN = 10**18


def _values(a):
    return np.asarray(a, dtype=np.float64)


def is_fractional(arrays):
    """Whether any of the arrays holds floats: a numpy array of a float dtype, or a float
    (Python's or numpy's) anywhere in a list. (Lists of integers stay integers, even past
    int64, where numpy would make them floats.)"""
    def floats(a):
        if isinstance(a, np.ndarray):
            return a.dtype.kind == "f" or (a.dtype == object and any(floats(x) for x in a.ravel()))
        if isinstance(a, (float, np.floating)):
            return True
        if isinstance(a, (list, tuple)):
            return any(floats(x) for x in a)
        return False
    return any(floats(a) for a in arrays)


def choose_scale(arrays):
    least, most, integral = math.inf, 0.0, True
    for a in arrays:
        v = _values(a).ravel()
        v = v[np.isfinite(v) & (v < FORBIDDEN) & (v != 0)]
        if v.size == 0:
            continue
        m = np.abs(v)
        least = min(least, float(m.min()))
        most = max(most, float(m.max()))
        integral = integral and bool(np.all(v == np.trunc(v)))
    return _core.choose_cost_scale(least, most, integral)


def scaled(a, scale, where):
    """`a` times `scale`, rounded, as int64 (same shape), and the largest relative error."""
    v = _values(a)
    if np.any(np.isnan(v)):
        raise _core.InputError(f"{where}: NaN is not a cost")
    if np.any(v == -math.inf):
        raise _core.InputError(f"{where}: -inf is not a cost")
    forbidden = ~np.isfinite(v) | (v >= FORBIDDEN)
    y = np.where(forbidden, 0.0, v * scale)
    if np.any(np.abs(y) >= FORBIDDEN):
        worst = float(v.ravel()[np.argmax(np.abs(y).ravel())])
        raise _core.InputError(
            f"{where}: cost {worst!r} times the cost scale {scale!r} reaches 10^18, the forbidden mark")
    r = np.rint(y)
    moved = (y != 0) & ~forbidden
    error = float(np.max(np.abs(r[moved] - y[moved]) / np.abs(y[moved]))) if np.any(moved) else 0.0
    out = r.astype(np.int64)
    out[forbidden] = FORBIDDEN
    return out, error
