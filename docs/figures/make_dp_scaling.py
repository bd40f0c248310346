"""Write dp_scaling.html, the Plotly figure of docs/interactive-figures.md.

Run it after editing the figure: ``python docs/figures/make_dp_scaling.py``. The
export leaves plotly.js out (``include_plotlyjs=False``): the site's shared copy
is loaded for it, and the repository keeps a 10 KB file instead of a 4.8 MB one.
"""

from pathlib import Path

import plotly.graph_objects as go

GPUS = [8, 16, 32, 64, 128, 256]
TOKENS_PER_SECOND = [40.0, 38.2, 35.1, 29.8, 22.4, 15.7]  # thousands, per GPU

figure = go.Figure(
    go.Scatter(
        x=GPUS,
        y=TOKENS_PER_SECOND,
        mode="lines+markers",
        line={"color": "#3b6fb6", "width": 3},
        hovertemplate="%{x} GPUs: %{y}k tokens/s per GPU<extra></extra>",
    )
)
figure.update_layout(
    width=720,
    height=400,
    margin={"l": 60, "r": 20, "t": 20, "b": 50},
    xaxis={"title": "GPUs (data parallel)", "type": "log", "tickvals": GPUS},
    yaxis={"title": "k tokens/s per GPU", "rangemode": "tozero"},
    template="plotly_white",
)
html = figure.to_html(include_plotlyjs=False, full_html=False, div_id="dp-scaling")
Path(__file__).with_name("dp_scaling.html").write_text(html, encoding="utf-8")
