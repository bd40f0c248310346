"""Vega-Lite outputs of a notebook (Altair) as ``interactive-figure`` figures.

Altair stores a chart either as its Vega-Lite spec
(``application/vnd.vegalite.v4+json``, ``v5+json``, altair 6's ``v6.json``: the
``mimetype``/``jupyterlab`` renderers, and altair 4's default) or, with altair 5's
and 6's default renderer, as a ``text/html`` snippet whose script loads Vega,
Vega-Lite and vega-embed from a CDN and calls ``vegaEmbed`` with the spec. Both
become the same figure: the spec drawn by vega-embed in a lazy same-origin frame,
its height reserved at build time, the colours following the reader's mode
(vega-embed's ``dark`` theme in our page's colours), nothing from another origin.

The libraries: Vega, Vega-Lite and vega-embed as one file (``vega-bundle``),
which ``"auto"`` builds once with vl-convert-python (``vl_convert.javascript_bundle``,
kept in the playbook cache by vl-convert's version), or, when
``playbook_interactive_libraries`` names ``vega``, ``vega-lite`` and
``vega-embed`` files (npm's ``build/*.min.js``), those three.

The static fallback is the output's own SVG or PNG when altair stored one;
otherwise vl-convert renders the spec to SVG at build time (cached by the spec's
hash); without vl-convert, the alt text stands, with a warning naming the cell.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import struct
from binascii import a2b_base64
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from ..config import read_config
from ..interactive.exports import PLACEHOLDER, Export
from ..interactive.libraries import BUILT, library_source
from ..machinery.cache import cache_folder, digest, write_atomically
from ..machinery.state import PageStore
from .plotly import (
    FALLBACK_MIMES,
    CellContext,
    _alt,
    _given_alt,
    _json_for_script,
    interactive_figure,
)

#: The MIME types Altair and the Vega-Lite renderers of Jupyter store a spec as.
_VEGALITE_MIME = re.compile(r"^application/vnd\.vegalite\.v\d+(?:\+json|\.json)$")
VEGALITE_MIMES = (
    "application/vnd.vegalite.v3+json",
    "application/vnd.vegalite.v4+json",
    "application/vnd.vegalite.v5+json",
    "application/vnd.vegalite.v6+json",
    "application/vnd.vegalite.v6.json",
)
#: Vega, Vega-Lite and vega-embed in one file ("auto": vl-convert's bundle).
BUNDLE = "vega-bundle"
#: The same as three files (npm's builds), when the site configures all three.
SEPARATE = ("vega", "vega-lite", "vega-embed")
#: Where the bundle and the rendered fallbacks are kept in the playbook cache.
CACHE = "vega"
#: The cached SVGs each page's charts use: the others are dropped after a build.
DRAWN: PageStore[set[str]] = PageStore("notebook_vega_drawn")
#: The height reserved when nothing says how tall the chart is.
DEFAULT_HEIGHT = 400
INSTALL = "pip install vl-convert-python"

_SUFFIX = {"image/svg+xml": ".svg", "image/png": ".png", "image/jpeg": ".jpeg", "image/gif": ".gif"}
_REMOTE = re.compile(r"^(?:https?:)?//", re.IGNORECASE)
_SVG_SIZE = re.compile(
    rb"<svg\b[^>]*?\bwidth=\"(\d+(?:\.\d+)?)\"[^>]*?\bheight=\"(\d+(?:\.\d+)?)\"", re.DOTALL
)


def is_vegalite(mime_type: str) -> bool:
    return bool(_VEGALITE_MIME.match(mime_type))


def spec_from_altair_html(html: str) -> dict[str, Any] | None:
    """The spec in altair's ``text/html`` output: its script ends with
    ``})(SPEC, EMBED_OPTIONS);`` after calling ``vegaEmbed``."""
    if "vegaEmbed" not in html or "<script" not in html:
        return None
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\}\)\(\s*(?=\{)", html):
        try:
            spec, _ = decoder.raw_decode(html, match.end())
        except ValueError:
            continue
        if isinstance(spec, dict) and ("$schema" in spec or "mark" in spec or "layer" in spec):
            return spec
    return None


def remote_urls(spec: Any) -> list[str]:
    """URLs of another origin the spec loads (``data.url``, an image mark's ``url``)."""
    found: list[str] = []
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "url" and isinstance(value, str) and _REMOTE.match(value):
                found.append(value)
            else:
                found += remote_urls(value)
    elif isinstance(spec, list):
        for value in spec:
            found += remote_urls(value)
    return found


def _vl_convert() -> Any:
    try:
        import vl_convert
    except ImportError:
        return None
    return vl_convert


def _vl_convert_version() -> str:
    try:
        return version("vl-convert-python")
    except PackageNotFoundError:
        return "unknown"


def bundle_file(folder: Path) -> Path | None:
    """vl-convert's bundle of Vega, Vega-Lite and vega-embed, made once per vl-convert
    release (a few seconds) and kept in the playbook cache. Wrapped in a function:
    the bundle's top-level names stay out of the frame page's scope; it sets
    ``window.vegaEmbed``, ``window.vega`` and ``window.vegaLite``."""
    module = _vl_convert()
    if module is None:
        return None
    path = folder / CACHE / f"vega-bundle-{_vl_convert_version()}.js"
    if not path.is_file():
        text = module.javascript_bundle()
        write_atomically(path, f'(function () {{\n"use strict";\n{text}\n}})();\n'.encode())
    return path


def drop_unused(app: Sphinx, exception: BaseException | None) -> None:
    """build-finished: the cache keeps the SVGs some page's charts use, and the
    bundle of the installed vl-convert."""
    if exception is not None:
        return
    folder = Path(app.doctreedir, "playbook-cache", CACHE)
    if not folder.is_dir():
        return
    used = set().union(*DRAWN.of(app.env).values())
    used.add(f"vega-bundle-{_vl_convert_version()}.js")
    for path in folder.iterdir():
        if path.suffix in (".svg", ".js") and path.name not in used:
            path.unlink(missing_ok=True)


def register_bundle(app: Sphinx) -> None:
    """builder-inited: ``"auto"`` for ``vega-bundle`` is vl-convert's bundle, kept
    in this build's cache folder."""
    BUILT[BUNDLE] = functools.partial(bundle_file, cache_folder(app.doctreedir))


def libraries(context: CellContext) -> tuple[str, ...]:
    env = context.env
    if all(library_source(env.config, env.srcdir, name) for name in SEPARATE):
        return SEPARATE
    return (BUNDLE,)


#: vega-embed's ``config`` in dark mode: its ``dark`` theme, in the page's colours.
_EMBED = """(function () {
  var el = document.getElementById("%(id)s"), spec = %(spec)s;
  var pending = Promise.resolve(), shown = null, result = null, themed = false;
  function options(t) {
    var o = { mode: "vega-lite", renderer: "svg", actions: false, defaultStyle: false%(ast)s };
    if (t && t.dark) {
      var line = { gridColor: t.grid, domainColor: t.grid, tickColor: t.grid,
                   labelColor: t.text, titleColor: t.text };
      o.theme = "dark";
      o.config = { background: "transparent", axis: line, legend: line,
                   title: { color: t.text, subtitleColor: t.text }, view: { stroke: t.grid },
                   header: { labelColor: t.text, titleColor: t.text } };
    }
    return o;
  }
  function draw(t) {
    var dark = !!(t && t.dark);
    pending = pending.then(function () {
      if (shown === dark) return;
      shown = dark;
      // The page's colour scheme: else the browser paints the frame opaque white.
      document.documentElement.style.colorScheme = dark ? "dark" : "";
      if (result) result.finalize();
      el.textContent = "";
      return vegaEmbed(el, spec, options(t)).then(function (r) { result = r; });
    }).catch(function (e) { console.error(e); });
  }
  addEventListener("message", function (e) {
    if (e.source === parent && e.data && typeof e.data.pbTheme === "object") {
      themed = true;
      draw(e.data.pbTheme);
    }
  });
  setTimeout(function () { if (!themed) draw(null); }, 400);
})();"""

#: The chart at its own size, centred; narrowed to the frame when wider.
_STYLE = (
    "<style>.pb-vega{display:flex;justify-content:center;width:100%}"
    ".pb-vega>svg{display:block;max-width:100%;height:auto}</style>\n"
)


def export_html(
    spec: dict[str, Any], key: str, names: tuple[str, ...], strict: bool = False
) -> str:
    """The frame's content: the libraries, the chart's box, and its embed call.
    ``strict``: under a Content-Security-Policy without ``'unsafe-eval'``, Vega's
    expressions are interpreted (vega-embed's ``ast``) rather than compiled."""
    scripts = "".join(
        f'<script src="{PLACEHOLDER.format(name=name)}"></script>\n' for name in names
    )
    div = f"pb-vega-{key}"
    ast = ", ast: true" if strict else ""
    embed = _EMBED % {"id": div, "spec": _json_for_script(spec), "ast": ast}
    return f'{scripts}{_STYLE}<div id="{div}" class="pb-vega"></div>\n<script>{embed}</script>\n'


def _title(spec: dict[str, Any]) -> str:
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, list):
        title = " ".join(str(part) for part in title)
    return title.strip() if isinstance(title, str) else ""


def _stored_image(context: CellContext) -> tuple[str, bytes] | None:
    bundle = context.bundle()
    for mime in FALLBACK_MIMES:
        content = bundle.get(mime)
        if not content:
            continue
        if isinstance(content, list):
            content = "".join(content)
        data = content.encode("utf-8") if mime == "image/svg+xml" else a2b_base64(content)
        return mime, data
    return None


def render_svg(spec: dict[str, Any], folder: Path, env: Any = None) -> bytes | str | None:
    """The spec as SVG by vl-convert, from the cache when drawn before; None without
    vl-convert, the error's text when it cannot draw the spec. ``env``: the page
    that uses it is noted, so that the cache keeps it."""
    module = _vl_convert()
    if module is None:
        return None
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    path = folder / CACHE / f"{digest(_vl_convert_version(), text)[:32]}.svg"
    if env is not None:
        DRAWN.of(env).setdefault(env.docname, set()).add(path.name)
    try:
        return path.read_bytes()
    except OSError:
        pass
    try:
        data = str(module.vegalite_to_svg(spec)).encode("utf-8")
    except Exception as error:  # vl-convert raises ValueError and its own errors
        return f"{type(error).__name__}: {error}".splitlines()[0]
    with contextlib.suppress(OSError):  # a read-only doctree directory: render again
        write_atomically(path, data)
    return data


def image_size(mime: str, data: bytes, metadata: dict[str, Any]) -> tuple[float, float] | None:
    """The chart's size in CSS pixels: the output's metadata, the SVG's, the PNG's."""
    shown = metadata.get(mime) if isinstance(metadata, dict) else None
    if isinstance(shown, dict):
        width, height = shown.get("width"), shown.get("height")
        if isinstance(width, int | float) and isinstance(height, int | float):
            return float(width), float(height)
    if mime == "image/svg+xml":
        match = _SVG_SIZE.search(data[:2000])
        if match:
            return float(match.group(1)), float(match.group(2))
    if mime == "image/png" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return float(width), float(height)
    return None


def _spec_height(spec: dict[str, Any]) -> float | None:
    height = spec.get("height")
    if isinstance(height, int | float) and height > 0:
        return float(height) + 60  # axes and title, roughly
    return None


def _size(
    spec: dict[str, Any], stored: tuple[str, bytes] | None, metadata: Any, context: CellContext
) -> tuple[float, float] | None:
    """The chart's size: its SVG's, else the size the output's metadata gives its
    image, else the SVG vl-convert draws (a PNG's pixels may be at any scale)."""
    metadata = metadata if isinstance(metadata, dict) else {}
    if stored is not None and (stored[0] == "image/svg+xml" or metadata.get(stored[0])):
        return image_size(stored[0], stored[1], metadata)
    rendered = render_svg(spec, cache_folder(context.env.doctreedir), context.env)
    if isinstance(rendered, bytes):
        return image_size("image/svg+xml", rendered, {})
    return image_size(*stored, metadata) if stored is not None else None


def _image_node(context: CellContext, mime: str, data: bytes, alt: str) -> nodes.image:
    name = digest(data)[:64] + _SUFFIX[mime]
    uri = context.renderer.write_file([name], data, overwrite=False, exists_ok=True)
    return nodes.image("", uri=uri, alt=alt, classes=["pb-interactive__image"])


def _static(image: nodes.image | None, alt: str) -> nodes.Element:
    return image if image is not None else nodes.paragraph("", alt, classes=["pb-interactive__alt"])


def from_vegalite(renderer: Any, data: Any, spec: Any) -> list[nodes.Element]:
    """A Vega-Lite spec (from its MIME type, or altair's HTML) as an interactive figure."""
    context = CellContext(renderer, data)
    if isinstance(spec, str):
        try:
            spec = json.loads(spec)
        except ValueError as error:
            context.warn(f"the Vega-Lite output is not valid JSON ({error}); it is left out")
            return []
    if not isinstance(spec, dict):
        context.warn("the Vega-Lite output is not a spec (a JSON object); it is left out")
        return []
    alt = _alt(context, _title(spec))
    stored = _stored_image(context)
    folder = cache_folder(context.env.doctreedir)
    remote = remote_urls(spec)
    if stored is None and not remote:
        rendered = render_svg(spec, folder, context.env)
        if isinstance(rendered, bytes):
            stored = ("image/svg+xml", rendered)
        elif rendered is None and _given_alt(context) is None:
            context.warn(
                "a Vega-Lite chart without a static image: readers without JavaScript, "
                f"print and PDF get its alt text only. {INSTALL} (the image is then drawn "
                "when the site is built), or store one with the chart "
                "(alt.renderers.enable('mimetype') stores its SVG/PNG when vl-convert is "
                "installed), or give the cell a text alternative (playbook: {alt: ...})"
            )
        else:
            context.warn(
                f"vl-convert cannot draw the Vega-Lite chart ({rendered}); its alt text stands"
            )
    image = _image_node(context, *stored, alt) if stored else None
    if remote:
        context.warn(
            f"the Vega-Lite chart loads {remote[0]} from another origin: it is shown as its "
            f"{'static image' if image is not None else 'alt text'} only. Give the chart its "
            "data (a DataFrame, alt.Data(values=...)) or a URL relative to the site"
        )
        return [_static(image, alt)]
    names = libraries(context)
    if library_source(context.env.config, context.env.srcdir, BUNDLE) is None and (
        names == (BUNDLE,)
    ):
        context.warn(
            "the site has no copy of Vega, Vega-Lite and vega-embed: the Vega-Lite chart is "
            f"shown as its static image only. {INSTALL}, or set playbook_interactive_libraries"
            ' = {"vega": ..., "vega-lite": ..., "vega-embed": ...} to their build/*.min.js'
        )
        return [_static(image, alt)]
    size = _size(spec, stored, data.output_metadata, context)
    key = digest(_json_for_script(spec))[:12]
    export = Export(
        html=export_html(spec, key, names, strict=read_config(context.env.config).csp),
        libraries=names,
        unplaced=(),
        remote=(),
        size=size,
        full_document=False,
    )
    height = size[1] if size else _spec_height(spec) or DEFAULT_HEIGHT
    return [interactive_figure(context, export, alt, image, (None, height))]
