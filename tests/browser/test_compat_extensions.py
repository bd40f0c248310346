"""Extensions of the compatibility matrix doing their job in the browser, beside ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from compat.matrix import MATRIX
from compat.test_extensions import build

pytestmark = pytest.mark.browser

ENTRIES = {entry.name: entry for entry in MATRIX}
#: tippy.js and Popper, fetched by scripts/dev.sh (need_tippy_js): sphinx-tippy loads
#: them from a CDN by default; here the book serves them, as a site of its own would.
TIPPY_JS = Path(__file__).parents[2] / ".cache" / "compat-js"


@pytest.fixture(scope="module")
def compat_sites(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The copy-button and toggle books, built with ours listed first, served with the
    other test sites: their paths under the sub-path."""
    scripts = (TIPPY_JS / "popper.min.js", TIPPY_JS / "tippy-bundle.umd.min.js")
    if not all(script.is_file() for script in scripts):
        pytest.fail(
            f"{TIPPY_JS} lacks tippy.js and Popper: bash scripts/dev.sh test fetches them",
            pytrace=False,
        )
    sites = {}
    for name in ("sphinx_copybutton", "sphinx_togglebutton", "sphinx_tippy"):
        local = name == "sphinx_tippy"
        out = build(
            ENTRIES[name],
            tmp_path_factory.mktemp(name),
            ours_first=True,
            static=scripts if local else (),
            settings={"tippy_js": tuple(s.name for s in scripts)} if local else None,
        )
        out.rename(site_dir / f"compat-{name}")
        sites[name] = f"compat-{name}/{name}.html"
    return sites


def test_one_copy_button_per_block_copies_without_prompts(page_at, compat_sites):
    page = page_at(1440, path=compat_sites["sphinx_copybutton"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.wait_for_selector("div.highlight .copybtn", state="attached")
    counts = page.eval_on_selector_all(
        ".pb-body div.highlight",
        "blocks => blocks.map(b => b.querySelectorAll('button.copybtn, button.pb-copy').length)",
    )
    assert counts and set(counts) == {1}, counts
    assert page.locator("button.pb-copy").count() == 0
    block = page.locator(".pb-body div.highlight").first
    block.hover()
    block.locator(".copybtn").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == "first = 1\nfirst + 1"


def test_toggles_open_on_click(page_at, compat_sites):
    page = page_at(1440, path=compat_sites["sphinx_togglebutton"])
    # The {toggle} directive: a <details> the extension draws, opened by its summary.
    answer = page.get_by_text("The hidden answer.")
    summary = page.locator("details.toggle-details summary")
    summary.wait_for()
    assert not answer.is_visible()
    summary.click()
    answer.wait_for(state="visible")
    # A dropdown admonition: the extension's button hides and shows it.
    shown = page.get_by_text("Shown on demand.")
    button = page.locator(".admonition.dropdown button.toggle-button")
    assert not shown.is_visible()
    box = button.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 16, box
    button.click()
    shown.wait_for(state="visible")


def test_tips_show_the_linked_page(page_at, compat_sites):
    """sphinx-tippy's tip on a link to another page shows that page's heading, which
    the body it read at html-page-context still held; ours steps aside."""
    page = page_at(1440, path=compat_sites["sphinx_tippy"])
    link = page.locator('[role="main"] a[href="index.html"]').first
    link.hover()
    tip = page.locator("[data-tippy-root]")
    tip.wait_for(state="visible")
    assert "A book moved from pydata-sphinx-theme" in tip.inner_text()
    assert page.locator(".pb-xref .pb-card").count() == 0
