"""An imported article's own scripts run in Chromium, served under a sub-path (the
fixture project of tests/test_import_distill_published.py, built as html and dirhtml)."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

import pytest
from helpers import build, png
from test_import_distill_published import (  # noqa: F401 (fixtures)
    FIXTURES,
    SUB_PATH,
    _SubPath,
    project,
    server,
)

from sphinx_playbook.cli import main

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


@pytest.fixture(scope="module")
def behaviour_site(tmp_path_factory) -> Iterator[str]:
    """tests/data/distill/behaviour imported, built and served under a sub-path."""
    base = tmp_path_factory.mktemp("behaviour")
    out = base / "project"
    assert main(["import-distill", str(FIXTURES / "behaviour"), str(out)]) == 0
    build(out, base / "site" / "html")
    handler = functools.partial(_SubPath, directory=str(base / "site"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}{SUB_PATH}html/"
    httpd.shutdown()


def test_a_figure_waiting_for_distills_events_draws_when_scrolled_to(browser, behaviour_site):
    """Distill's d-figure events come from distill-events.js: 'ready' once, 'onscreen'
    only once the figure is on screen (it is 3000 px below the first screen)."""
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    try:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(behaviour_site, wait_until="load")
        page.wait_for_function("document.readyState === 'complete'")
        teaser = page.locator("d-figure#teaser")
        assert teaser.locator("svg.drawn").count() == 0
        teaser.scroll_into_view_if_needed()
        teaser.locator("svg.drawn").wait_for(state="attached")
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_function("document.getElementById('teaser').dataset.offscreen === 'seen'")
        teaser.scroll_into_view_if_needed()
        page.wait_for_function("document.querySelectorAll('#teaser svg.drawn').length === 2")
        assert teaser.get_attribute("data-ready") == "1"
        # <body onload> ran, from body-handlers.js.
        assert page.evaluate("document.body.dataset.loaded") == "yes"
        # A d-figure a script adds after the page loaded gets its events too.
        page.locator("d-figure#late").scroll_into_view_if_needed()
        page.wait_for_function("document.getElementById('late').dataset.seen === 'yes'")
    finally:
        page.close()
    assert errors == []


def test_links_with_handlers_drive_the_figure_and_buttons_open_sections(browser, behaviour_site):
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    try:
        page.goto(behaviour_site, wait_until="load")
        view = page.locator("#epoch-view")
        assert view.inner_text() == "epoch 0"
        page.get_by_text("epoch 14", exact=True).click()
        assert view.inner_text() == "epoch 14"
        page.get_by_text("epoch 3", exact=True).click()
        assert view.inner_text() == "epoch 3"
        # Scrolled to, the teaser above draws (its "onscreen") and moves the link
        # down: click once it has drawn, as a reader would.
        page.locator("a#jump-a").scroll_into_view_if_needed()
        page.wait_for_function("document.querySelector('#teaser svg.drawn') !== null")
        page.locator("a#jump-a").click()
        assert view.inner_text() == "epoch 7"
        # Collapsed as published; the article's button opens it.
        details = page.locator("#details-1")
        assert not details.is_visible()
        page.locator("button.toggle").click()
        assert details.is_visible()
        # A heading whose onclick opens a collapsed part holding headings.
        more = page.locator("#more")
        assert not more.is_visible()
        page.locator("h2 > span.clickable").click()
        assert more.is_visible()
        # The debate's speakers, drawn by the article's CSS from li.red / li.blue.
        speaker = page.evaluate(
            "getComputedStyle(document.querySelector('ol.debate li.red > span'),"
            " '::before').content"
        )
        assert speaker == '"Red: "'
    finally:
        page.close()


def test_tabs_selected_by_sibling_combinators_switch_when_clicked(browser, tmp_path):
    """tests/data/distill/tabs: radio buttons hidden by the article's CSS, labels styled
    by ``input:checked + label``, sections shown by ``#tab:checked ~ #section``."""
    out = tmp_path / "project"
    assert main(["import-distill", str(FIXTURES / "tabs"), str(out)]) == 0
    build(out, tmp_path / "site")
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    try:
        page.goto((tmp_path / "site" / "index.html").as_uri(), wait_until="load")
        short, long = page.locator("section#short"), page.locator("section#long")
        border = "el => getComputedStyle(el).borderTopColor"
        labels = {name: page.locator(f"label[for=tab-{name}]") for name in ("short", "long")}
        assert short.is_visible() and not long.is_visible()
        assert labels["short"].evaluate(border) == "rgb(255, 0, 0)"
        assert labels["long"].evaluate(border) != "rgb(255, 0, 0)"
        labels["long"].click()
        assert long.is_visible() and not short.is_visible()
        assert labels["long"].evaluate(border) == "rgb(255, 0, 0)"
        assert labels["short"].evaluate(border) != "rgb(255, 0, 0)"
    finally:
        page.close()


def test_floated_figures_stand_beside_their_text_in_the_margin(browser, tmp_path):
    """tests/data/distill/floats: a float:right figure (ctc) and a v1 ``side`` figure
    (augmented-rnns) stand right of the paragraph they floated beside, level with it;
    on a phone they stay in the text column, below it."""
    out = tmp_path / "project"
    assert main(["import-distill", str(FIXTURES / "floats"), str(out)]) == 0
    build(out, tmp_path / "site")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto((tmp_path / "site" / "index.html").as_uri(), wait_until="load")
        for alt in ("A small diagram", "A second diagram", "A side figure"):
            figure = page.locator(f"figure:has(img[alt='{alt}'])")
            text = figure.locator("xpath=preceding-sibling::p[1]")
            box, beside = figure.bounding_box(), text.bounding_box()
            assert box["x"] >= beside["x"] + beside["width"]
            assert beside["y"] <= box["y"] < beside["y"] + beside["height"]
        # At most the width the article gave it (the margin may be narrower).
        assert 100 < page.locator("img[alt='A small diagram']").bounding_box()["width"] <= 165
        page.set_viewport_size({"width": 390, "height": 800})
        for alt in ("A small diagram", "A second diagram", "A side figure"):
            figure = page.locator(f"figure:has(img[alt='{alt}'])")
            text = figure.locator("xpath=preceding-sibling::p[1]")
            box, beside = figure.bounding_box(), text.bounding_box()
            assert box["y"] >= beside["y"] + beside["height"]
            assert box["x"] + box["width"] <= 390
    finally:
        page.close()


def test_a_row_of_captions_under_an_image_starts_level(browser, tmp_path):
    """building-blocks: captions of unequal length in a grid under the image start at
    the same height, as in the article's grid (not centred on the longest)."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "a.png").write_bytes(png(400, 100))
    long = "A caption that runs over several lines of the column it stands in. " * 4
    (source / "index.html").write_text(
        "<!doctype html><html><head></head><body><d-title><h1>C</h1></d-title><d-article>"
        '<figure class="l-page"><img src="a.png" alt="Steps">'
        '<div style="display: grid; grid-template-columns: 1fr 1fr 1fr;">'
        f"<figcaption><b>1. One</b><div>{long}</div></figcaption>"
        "<figcaption><b>2. Two</b><div>Short.</div></figcaption>"
        "<figcaption><b>3. Three</b><div>Short.</div></figcaption>"
        "</div></figure><p>After.</p></d-article></body></html>",
        encoding="utf-8",
    )
    assert main(["import-distill", str(source), str(tmp_path / "project")]) == 0
    build(tmp_path / "project", tmp_path / "site")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto((tmp_path / "site" / "index.html").as_uri(), wait_until="load")
        tops = [page.locator("strong", has_text=title).bounding_box()["y"]
                for title in ("1. One", "2. Two", "3. Three")]  # fmt: skip
        assert max(tops) - min(tops) < 1
    finally:
        page.close()


def test_the_articles_section_rule_leaves_the_heading_sections_on_the_grid(browser, tmp_path):
    """tests/data/distill/sections (activation-atlas): the article's ``d-article section
    { contain: layout paint }`` does not reach the sections Sphinx writes per heading,
    which stay subgrids: a paragraph one and two headings deep stands in the text column
    as wide as the first, and the page-wide figure is wider than the text."""
    out = tmp_path / "project"
    assert main(["import-distill", str(FIXTURES / "sections"), str(out)]) == 0
    build(out, tmp_path / "site")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto((tmp_path / "site" / "index.html").as_uri(), wait_until="load")
        boxes = [
            page.locator(f"section#{name} > p").first.bounding_box()
            for name in ("first", "nested", "second")
        ]
        assert all(box is not None for box in boxes)
        for box in boxes[1:]:
            assert (box["x"], box["width"]) == (boxes[0]["x"], boxes[0]["width"])
        # The text column of the body's own grid, measured by a probe placed in it.
        text = page.evaluate(
            """() => { const probe = document.createElement('div');
            probe.style.gridColumn = 'text';
            document.querySelector('.pb-body').prepend(probe);
            const box = probe.getBoundingClientRect(); probe.remove();
            return {x: box.x, width: box.width}; }"""
        )
        assert (boxes[0]["x"], boxes[0]["width"]) == (text["x"], text["width"])
        wide = page.locator("svg[width='100']").locator("xpath=..").bounding_box()
        assert wide is not None and wide["width"] > boxes[0]["width"] + 100
        # The article's own section, kept for its script, is contained as it was.
        assert page.evaluate("getComputedStyle(document.getElementById('chart')).contain") == (
            "layout paint"
        )
    finally:
        page.close()
