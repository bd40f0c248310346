"""Extensions of the compatibility matrix doing their job in the browser, beside ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from compat.matrix import MATRIX
from compat.test_extensions import build

pytestmark = pytest.mark.browser

ENTRIES = {entry.name: entry for entry in MATRIX}


@pytest.fixture(scope="module")
def compat_sites(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The copy-button and toggle books, built with ours listed first, served with the
    other test sites: their paths under the sub-path."""
    sites = {}
    for name in ("sphinx_copybutton", "sphinx_togglebutton"):
        out = build(ENTRIES[name], tmp_path_factory.mktemp(name), ours_first=True)
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
