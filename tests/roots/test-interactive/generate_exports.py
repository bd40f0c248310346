"""Write the Plotly exports the interactive-figure tests embed (not committed: MBs).

Real plotly.py output, in each form an author may hand over: a full page with
plotly.js inlined (write_html), a page loading plotly.js from its CDN, a fragment
that calls Plotly without loading it; fixed-size and responsive figures.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import plotly.graph_objects as go

#: Throughput per GPU as data parallelism grows (tokens/s), as in the issue's example.
GPUS = [8, 16, 32, 64, 128, 256]
THROUGHPUT = [40.0, 38.2, 35.1, 29.8, 22.4, 15.7]


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain one-colour PNG: the LaTeX builder's fallback, where SVG cannot go."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def write_exports(figures: Path) -> None:
    figures.mkdir(parents=True, exist_ok=True)
    bar = go.Figure(go.Bar(x=[str(g) for g in GPUS], y=THROUGHPUT, marker_color="#3b82c4"))
    bar.update_layout(width=800, height=500, title="Throughput per GPU (k tokens/s)")
    bar.write_html(figures / "bar_inlined.html", include_plotlyjs=True, full_html=True)
    (figures / "bar_inlined.png").write_bytes(_png(80, 50, (59, 130, 196)))

    scatter = go.Figure(go.Scatter(x=GPUS, y=THROUGHPUT, mode="lines+markers"))
    scatter.update_layout(xaxis_type="log", title="Scaling curve")
    (figures / "scatter_cdn.html").write_text(
        scatter.to_html(include_plotlyjs="cdn", full_html=True), encoding="utf-8"
    )
    (figures / "scatter_fragment.html").write_text(
        scatter.to_html(include_plotlyjs=False, full_html=False), encoding="utf-8"
    )

    small = go.Figure(go.Bar(x=["a", "b", "c"], y=[3, 1, 2]))
    small.update_layout(width=640, height=400, margin={"t": 30})
    (figures / "bar_sandbox.html").write_text(
        small.to_html(include_plotlyjs="cdn", full_html=True), encoding="utf-8"
    )


if __name__ == "__main__":
    write_exports(Path(__file__).parent / "figures")
