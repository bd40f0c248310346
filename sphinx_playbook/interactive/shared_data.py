"""One copy of each binary array a figure's script repeats.

plotly.py (6 and later) writes a figure's numeric arrays as base64 typed arrays,
``{"dtype": "f8", "bdata": "AAAA..."}``, once per trace: a stacked area chart of
six series writes the same time axis six times. gzip, as a host serves the frame's
script, finds repeats only within 32 KB, so each copy of a long array costs its
full compressed size again (the Ultra-Scale Playbook's memory profile: 0.8 MB of
which 0.62 MB are five copies of its x axis). Each base64 string that a script
repeats is written once, as a variable the script declares first, and each
``bdata`` takes it: plotly.js decodes the same string into the same values, so the
figure draws and hovers exactly as before.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter

from .typed_arrays import encode_in_script

#: ``bdata: "…"`` (JSON or object-literal key) and its base64 string, as written
#: (plotly.py's JSON escapes ``/`` as ``\u002f``; the literal is copied as it is).
_BDATA = re.compile(
    r"""(?P<key>(?:"bdata"|'bdata'|\bbdata)\s*:\s*)"(?P<data>(?:[A-Za-z0-9+/=]|\\u002[fF])*)\""""
)
#: An inline script (no ``src``) and its text.
_INLINE_SCRIPT = re.compile(
    r"(<script\b(?![^>]*\bsrc\s*=)[^>]*>)(.*?)(</script\s*>)", re.IGNORECASE | re.DOTALL
)
#: A directive prologue (``"use strict";``) that must stay the script's first statement.
_PROLOGUE = re.compile(r"""\A\s*(?:(["'])use strict\1\s*;?[ \t]*\n?)?""")
#: Strings shorter than this are left where they are (a variable would not pay).
MINIMUM = 1024


def _name(data: str) -> str:
    """A name from the content: the same array in two figures the inline loader runs
    in one page is the same variable with the same value."""
    return "__pbData_" + hashlib.sha256(data.encode("ascii")).hexdigest()[:16]


def share_in_script(script: str) -> str:
    """``script`` with each long base64 string it repeats declared once first."""
    counts = Counter(
        match.group("data")
        for match in _BDATA.finditer(script)
        if len(match.group("data")) >= MINIMUM
    )
    repeated = [data for data, count in counts.items() if count > 1]
    if not repeated:
        return script
    names = {data: _name(data) for data in repeated}

    def replace(match: re.Match[str]) -> str:
        name = names.get(match.group("data"))
        return match.group(0) if name is None else match.group("key") + name

    body = _BDATA.sub(replace, script)
    declaration = "var " + ",".join(f'{names[data]}="{data}"' for data in repeated) + ";\n"
    prologue = _PROLOGUE.match(body)
    end = prologue.end() if prologue else 0
    return body[:end] + declaration + body[end:]


def share_repeated_data(html: str) -> str:
    """The export ``html`` with each inline script's long numeric lists as typed
    arrays (:mod:`.typed_arrays`), then its repeated arrays written once."""
    return _INLINE_SCRIPT.sub(
        lambda m: m.group(1) + share_in_script(encode_in_script(m.group(2))) + m.group(3), html
    )
