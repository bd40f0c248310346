"""The figure in an export's ``Plotly.newPlot`` calls: its trace types and its size.

plotly.py writes the call's arguments as JSON; exports that went through a
minifier (the Ultra-Scale Playbook's, for one) write JavaScript object literals
instead: ``{type:"bar",x:[1,2],visible:!0}``. Both are read here, as values, so
that the page can load the smallest plotly.js that draws them and reserve the
figure's box. A call whose arguments are code (a variable, a function call)
cannot be read: the caller then falls back to what surely works.
"""

from __future__ import annotations

import json
import re

#: A call that draws a figure from its arguments.
_DRAW_CALL = re.compile(r"\bPlotly\.(?:newPlot|react|plot)\s*\(")
#: Any call into plotly.js, and those that cannot add a trace type the first
#: call's arguments do not show (``restyle``, ``addTraces``, ``animate``... can).
_ANY_CALL = re.compile(r"\bPlotly\.(\w+)")
_HARMLESS = frozenset(
    {"newPlot", "react", "plot", "relayout", "purge", "Plots", "toImage", "downloadImage"}
)

#: One token of a JavaScript literal: a string, a bracket or separator, or a word
#: (number, ``true``, ``!0``, an unquoted key...). Anything else ends the literal.
_TOKEN = re.compile(
    r"""\s*(?:("[^"\\]*(?:\\.[^"\\]*)*")|('[^'\\]*(?:\\.[^'\\]*)*')|([\[\]{}:,])"""
    r"""|([^\s"'\[\]{}:,()]+))""",
    re.DOTALL,
)
_BLANK = re.compile(r"\s*")
_COMMA = re.compile(r"\s*,\s*")
_COLON = re.compile(r"\s*:")
_VARIABLE_ARGUMENT = re.compile(r"\s*[A-Za-z_$][\w$.]*\s*,\s*")
_KEY = re.compile(r"[A-Za-z_$][\w$]*\Z")
_WORDS = {"true": "true", "false": "false", "null": "null", "!0": "true", "!1": "false"}
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")


def _word_as_json(word: str, is_key: bool) -> str:
    if is_key:
        if _KEY.match(word) or word.isdigit():
            return json.dumps(word)
        raise ValueError(word)
    if word in _WORDS:
        return _WORDS[word]
    if word in ("NaN", "Infinity", "-Infinity"):
        return word
    if _NUMBER.match(word):  # JSON wants a digit on each side of the point
        sign, digits = ("-", word[1:]) if word.startswith("-") else ("", word)
        digits = "0" + digits if digits.startswith(".") else digits
        return sign + re.sub(r"\.(?=$|[eE])", ".0", digits)
    raise ValueError(word)  # a variable or an expression: not a literal


def _single_quoted(token: str) -> str:
    """A JavaScript ``'...'`` string as JSON text."""
    body = token[1:-1].replace("\\'", "'").replace('"', '\\"')
    return f'"{body}"'


def read_js_literal(text: str, position: int) -> tuple[object, int]:
    """The JavaScript literal value (JSON or object-literal syntax) that starts at
    ``position``, and where it ends; ValueError when it is code, not a literal."""
    try:
        return json.JSONDecoder().raw_decode(text, position)
    except ValueError:
        pass
    pieces: list[str] = []
    depth = 0
    while True:
        token = _TOKEN.match(text, position)
        if token is None:
            raise ValueError("not a literal")
        double, single, punctuation, word = token.groups()
        position = token.end()
        if punctuation in ("[", "{"):
            depth += 1
            pieces.append(punctuation)
        elif punctuation in ("]", "}"):
            depth -= 1
            pieces.append(punctuation)
        elif punctuation is not None:
            pieces.append(punctuation)
        else:
            is_key = _COLON.match(text, position) is not None
            if double is not None:
                pieces.append(double)
            elif single is not None:
                pieces.append(_single_quoted(single))
            else:
                pieces.append(_word_as_json(word, is_key))
        if depth <= 0:
            break
    return json.loads("".join(pieces), strict=False), position  # JS allows tabs in strings


def draws(html: str) -> bool:
    """Whether the HTML draws a Plotly figure (a fragment written with
    ``include_plotlyjs=False`` calls plotly.js without loading it)."""
    return _DRAW_CALL.search(html) is not None


def plotly_calls(html: str) -> list[list[object] | None]:
    """The literal arguments of each drawing call (id, data, layout: up to three),
    or None for a call whose data or layout is code. An id that is a variable
    (``Plotly.newPlot(gd, ...)``) is read as None."""
    calls: list[list[object] | None] = []
    for call in _DRAW_CALL.finditer(html):
        arguments: list[object] = []
        position = call.end()
        variable = _VARIABLE_ARGUMENT.match(html, position)
        if variable is not None:
            arguments.append(None)
            position = variable.end()
        try:
            while len(arguments) < 3:
                start = _BLANK.match(html, position).end()  # type: ignore[union-attr]
                value, position = read_js_literal(html, start)
                arguments.append(value)
                comma = _COMMA.match(html, position)
                if comma is None:  # the last argument (the layout may be the last)
                    break
                position = comma.end()
        except ValueError:
            calls.append(None)
            continue
        calls.append(arguments)
    return calls


def _figure(arguments: list[object]) -> tuple[object, object, object]:
    """(data, layout, frames) of a call, in either of its forms."""
    second = arguments[1] if len(arguments) > 1 else None
    if isinstance(second, dict) and "data" in second:  # newPlot(id, {data, layout, frames})
        return second.get("data"), second.get("layout"), second.get("frames")
    return second, arguments[2] if len(arguments) > 2 else None, None


def _button_types(layout: object) -> list[object]:
    """Trace types that the layout's menus and sliders can switch to (``restyle``
    and ``update`` arguments)."""
    found: list[object] = []
    if not isinstance(layout, dict):
        return found
    for control, items in (("updatemenus", "buttons"), ("sliders", "steps")):
        for menu in layout.get(control) or []:
            for item in (menu.get(items) or []) if isinstance(menu, dict) else []:
                for argument in (item.get("args") or []) if isinstance(item, dict) else []:
                    if isinstance(argument, dict) and "type" in argument:
                        value = argument["type"]
                        found += value if isinstance(value, list) else [value]
    return found


def trace_types(html: str) -> frozenset[str] | None:
    """Every trace type the export's Plotly calls draw or can switch to (a trace
    without ``type`` is a scatter, as plotly.js reads it); None when any call cannot
    be read or another plotly.js call could add traces."""
    if any(name not in _HARMLESS for name in _ANY_CALL.findall(html)):
        return None
    types: set[str] = set()
    calls = plotly_calls(html)
    for arguments in calls:
        if arguments is None:
            return None
        data, layout, frames = _figure(arguments)
        traces = list(data) if isinstance(data, list) else None
        if traces is None:
            return None
        for frame in frames if isinstance(frames, list) else []:
            traces += frame.get("data") or [] if isinstance(frame, dict) else []
        kinds = [t.get("type", "scatter") if isinstance(t, dict) else None for t in traces]
        kinds += _button_types(layout)
        if not all(isinstance(kind, str) for kind in kinds):
            return None
        types.update(kinds)  # type: ignore[arg-type]
    return frozenset(types) if calls else None


def layout_size(html: str) -> tuple[float, float] | None:
    """``layout.width``/``height`` of the first call that sets both."""
    for arguments in plotly_calls(html):
        _data, layout, _frames = _figure(arguments or [])
        if (
            isinstance(layout, dict)
            and _positive(layout.get("width"))
            and _positive(layout.get("height"))
        ):
            return float(layout["width"]), float(layout["height"])
    return None


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def data_arguments(script: str) -> list[tuple[int, int, list[object]]]:
    """Where each drawing call's traces are written: ``(start, end, traces)`` of its
    second argument when that is a literal list (``newPlot(id, [...], layout)``)."""
    found: list[tuple[int, int, list[object]]] = []
    for call in _DRAW_CALL.finditer(script):
        position = call.end()
        variable = _VARIABLE_ARGUMENT.match(script, position)
        try:
            if variable is not None:
                position = variable.end()
            else:
                start = _BLANK.match(script, position).end()  # type: ignore[union-attr]
                _id, position = read_js_literal(script, start)
                comma = _COMMA.match(script, position)
                if comma is None:
                    continue
                position = comma.end()
            start = _BLANK.match(script, position).end()  # type: ignore[union-attr]
            traces, end = read_js_literal(script, start)
        except ValueError:
            continue
        if isinstance(traces, list):
            found.append((start, end, traces))
    return found
