"""What a page loads, and whether it moves while it does.

The theme inherits pydata-sphinx-theme's templates but none of its assets:
no Bootstrap, no FontAwesome, no pydata CSS, and nothing fetched from another
origin (fonts, CDNs), so an article works offline and privately. And Distill
pages are read top to bottom: content must not jump (cumulative layout shift)
while scripts, styles or the table of contents settle.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser

#: File names of pydata-sphinx-theme's own assets, which Sphinx still copies to _static.
PYDATA_ASSETS = (
    "bootstrap.js",
    "fontawesome.js",
    "pydata-sphinx-theme.js",
    "pydata-sphinx-theme.css",
    "theme.css",
)
#: Cumulative layout shift allowed (Google's "good" is 0.1; an article should not move).
MAX_CLS = 0.01

#: Sum of layout shifts without recent input, from navigation on (buffered), while
#: the page is scrolled to the bottom half a viewport at a time.
LAYOUT_SHIFT = """async () => {
  const shifts = [];
  new PerformanceObserver((list) => shifts.push(...list.getEntries()))
    .observe({type: "layout-shift", buffered: true});
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const bottom = document.documentElement.scrollHeight;
  for (let y = 0; y <= bottom; y += innerHeight / 2) {
    scrollTo(0, y);
    await frame();
    await frame();
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  const counted = shifts.filter((shift) => !shift.hadRecentInput);
  return {
    total: counted.reduce((sum, shift) => sum + shift.value, 0),
    shifts: counted.map((shift) => ({
      value: shift.value,
      at: Math.round(shift.startTime),
      nodes: shift.sources.map((s) => s.node ? s.node.nodeName + "." + s.node.className : "?"),
    })),
  };
}"""


@pytest.mark.parametrize(
    "path", ["article-myst/index.html", "article-myst/search.html?q=GPU"], ids=["index", "search"]
)
def test_page_loads_only_local_files_and_none_of_pydatas(page_at, site_url, path):
    """Every request goes to the loopback server, succeeds there under the
    sub-path, and none fetches a pydata-sphinx-theme asset."""
    page = page_at(1440, path=None)
    requests, failures = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("requestfailed", lambda request: failures.append(request.url))

    def on_response(response):
        if response.status >= 400:
            failures.append(f"{response.status} {response.url}")

    page.on("response", on_response)
    page.goto(site_url + path, wait_until="networkidle")

    origin = urlsplit(site_url).netloc
    network = [url for url in requests if not url.startswith("data:")]  # data: is no request
    elsewhere = [url for url in network if urlsplit(url).netloc != origin]
    assert not elsewhere, f"requests to another origin than {origin}: {elsewhere}"
    assert not failures, f"failed requests (a link not relative to the sub-path?): {failures}"
    pydata = [
        url
        for url in network
        if urlsplit(url).path.rsplit("/", 1)[-1] in PYDATA_ASSETS or "/vendor/fontawesome/" in url
    ]
    assert not pydata, f"pydata-sphinx-theme assets loaded: {pydata}"


@pytest.mark.parametrize("width", [1440, 390])
def test_no_layout_shift(page_at, width):
    """Loading and scrolling to the bottom shift the layout by at most MAX_CLS."""
    page = page_at(width)
    result = page.evaluate(LAYOUT_SHIFT)
    assert result["total"] <= MAX_CLS, (
        f"cumulative layout shift {result['total']:.4f} at {width}px: {result['shifts']}"
    )
