"""A trace's long lists of numbers as base64 typed arrays, the values unchanged.

An export written by plotly.py before 6 (or from lists, not numpy arrays) writes
``"y": [11.288639068603516, ...]``: 18 characters a number, which gzip brings to
about 8 bytes. plotly.js (2.28 and later, so every release the site serves) reads
``{"dtype": "f4", "bdata": "..."}`` too: the same numbers as a typed array, in
base64. Each list of at least :data:`MINIMUM` numbers, in the ``x`` or ``y`` of a
trace type whose ``x``/``y`` are data arrays, becomes the smallest typed array that
holds every value exactly (integers in the narrowest integer type, floats as
``f4`` when each value survives the round trip, else ``f8``): plotly.js gets the
same numbers, so the figure draws and hovers as before (a training loss logged as
float32: 0.1 MB less in the Ultra-Scale Playbook's loss curves).
"""

from __future__ import annotations

import base64
import gzip
import json
import struct

from .plotly_calls import data_arguments

#: Lists shorter than this stay lists (a typed array would not pay).
MINIMUM = 256
#: Trace types whose ``x`` and ``y`` are plotly.js data arrays.
TRACE_TYPES = frozenset({"scatter", "scattergl", "bar"})
ATTRIBUTES = ("x", "y")
#: Integer types plotly.js decodes, narrowest first: (dtype, struct code, min, max).
_INTEGERS = (
    ("i1", "b", -(2**7), 2**7 - 1),
    ("u1", "B", 0, 2**8 - 1),
    ("i2", "h", -(2**15), 2**15 - 1),
    ("u2", "H", 0, 2**16 - 1),
    ("i4", "i", -(2**31), 2**31 - 1),
    ("u4", "I", 0, 2**32 - 1),
)


def _packed(values: list[object]) -> tuple[str, bytes] | None:
    """(dtype, little-endian bytes) that hold ``values`` exactly, or None."""
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    numbers: list[int | float] = values  # type: ignore[assignment]
    if all(isinstance(v, int) for v in numbers):
        low, high = min(numbers), max(numbers)
        for dtype, code, smallest, largest in _INTEGERS:
            if smallest <= low and high <= largest:
                return dtype, struct.pack(f"<{len(numbers)}{code}", *numbers)
        return None  # beyond 32 bits: a double may not hold them
    floats = [float(v) for v in numbers]
    if any(abs(v) > 2**53 for v in numbers if isinstance(v, int)):
        return None
    try:
        single = struct.pack(f"<{len(floats)}f", *floats)
    except OverflowError:
        single = b""
    if single and list(struct.unpack(f"<{len(floats)}f", single)) == floats:
        return "f4", single
    return "f8", struct.pack(f"<{len(floats)}d", *floats)


def _convert(trace: object) -> bool:
    """Replace the long numeric lists of ``trace`` in place; whether any was."""
    if not isinstance(trace, dict) or trace.get("type", "scatter") not in TRACE_TYPES:
        return False
    changed = False
    for attribute in ATTRIBUTES:
        values = trace.get(attribute)
        if not isinstance(values, list) or len(values) < MINIMUM:
            continue
        packed = _packed(values)
        if packed is not None:
            dtype, data = packed
            trace[attribute] = {"dtype": dtype, "bdata": base64.b64encode(data).decode("ascii")}
            changed = True
    return changed


def _as_script_json(value: object) -> str:
    """JSON that is safe inside ``<script>`` (as plotly.py writes it)."""
    text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def encode_in_script(script: str) -> str:
    """``script`` with each drawing call's long numeric trace lists as typed arrays,
    when that makes it smaller as a host sends it (gzip)."""
    encoded = script
    for start, end, traces in reversed(data_arguments(script)):
        if any([_convert(trace) for trace in traces]):
            encoded = encoded[:start] + _as_script_json(traces) + encoded[end:]
    if encoded is script or _sent(encoded) >= _sent(script):
        return script
    return encoded


def _sent(text: str) -> int:
    return len(gzip.compress(text.encode("utf-8"), compresslevel=6))
