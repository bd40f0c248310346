"""An imported article's own scripts run in Chromium, served under a sub-path (the
fixture project of tests/test_import_distill_published.py, built as html and dirhtml)."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest
from test_import_distill_published import project, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_the_scripts_run_in_chromium(browser, server, builder):  # noqa: F811
    """Served under a sub-path: the modules load, the head script fills #MC, the data
    and the frame arrive, the bundle after the bibliography runs, nothing errs."""
    page = browser.new_page()
    try:
        errors: list[str] = []
        failed: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "response",
            lambda response: failed.append(response.url) if response.status >= 400 else None,
        )
        page.goto(urljoin(server, f"{builder}/"), wait_until="networkidle")
        page.wait_for_function("document.getElementById('MC').dataset.points === '3'")
        assert page.locator("#chart_mount svg.drawn").get_attribute("width") == "200"
        assert page.evaluate("document.querySelector('#MC img.preloaded').naturalWidth") == 4
        assert page.evaluate("document.body.dataset.after") == "ran"
        assert page.locator("#valueRadius").inner_text() == "12"
        assert 'class="katex"' in page.evaluate("document.getElementById('MC').dataset.star")
        assert page.evaluate(
            "getComputedStyle(document.getElementById('MC')).backgroundImage"
        ).endswith('images/panel.png")')
    finally:
        page.close()
    assert errors == []
    assert [urlsplit(url).path.rsplit("/", 1)[-1] for url in failed] == ["lazy.js"]
