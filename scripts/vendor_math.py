"""Refresh the math libraries shipped in sphinx_playbook/math/vendor/ (KaTeX and Temml).

For each pinned package this takes the release with ``npm pack`` (the npm client's
own registry), checks its sha512 integrity against the pin below, and copies the
files a build needs: the minified JS (run at build time in a pip-installed engine),
the stylesheet, the fonts and the licence. Nothing is fetched when a site is built or
read. KaTeX's fonts are taken as TrueType: they are only the sources of the woff2
subsets each build writes, and fontTools reads a TrueType font twice as fast as a
woff2 one, whose glyph table it must rebuild whole. Temml's one font is served as
it is, so it stays woff2.

    python scripts/vendor_math.py
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

VENDOR = Path(__file__).resolve().parent.parent / "sphinx_playbook" / "math" / "vendor"


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    integrity: str
    files: tuple[str, ...]  # copied to vendor/<name>/
    fonts: str  # glob, inside the package, of the fonts
    fonts_dir: str  # where the stylesheet expects them, relative to vendor/<name>/


PINS = (
    Pin(
        "katex",
        "0.19.1",
        "sha512-jG8uKntjSEcm2EpQOh0XturpPuuC9r3Sq5HLHdsFdWZT27E672SF19QEi"
        "+of0/YeOy15lDgRhKvr5614uRrEfA==",
        ("dist/katex.min.js", "dist/katex-swap.min.css", "LICENSE"),
        "dist/fonts/*.ttf",
        "fonts",
    ),
    Pin(
        "temml",
        "0.13.5",
        "sha512-aPkDDgunanpLNL0ql32HbolqLep+w8DRcVXRql7rWrMt/PhczdLgL4UBYYVU3BYjCNjkGq4EqwIicu"
        "/zWr1iOg==",
        ("dist/temml.min.js", "dist/Temml-Local.css", "LICENSE"),
        "dist/Temml.woff2",
        ".",
    ),
)


def vendor(pin: Pin, work: Path) -> None:
    subprocess.run(["npm", "pack", f"{pin.name}@{pin.version}", "--silent"], cwd=work, check=True)
    tarball = work / f"{pin.name}-{pin.version}.tgz"
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if digest != pin.integrity:
        raise SystemExit(f"integrity mismatch for {pin.name} {pin.version}: {digest}")
    unpacked = work / pin.name
    with tarfile.open(tarball) as archive:
        archive.extractall(unpacked, filter="data")
    package = unpacked / "package"
    target = VENDOR / pin.name
    if target.exists():
        shutil.rmtree(target)
    (target / pin.fonts_dir).mkdir(parents=True)
    for name in pin.files:
        shutil.copy(package / name, target / Path(name).name)
    for font in sorted(package.glob(pin.fonts)):
        shutil.copy(font, target / pin.fonts_dir / font.name)
    (target / "VERSION").write_text(f"{pin.version}\n{pin.integrity}\n", encoding="utf-8")
    print(f"{pin.name} {pin.version} copied to {target}")


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        for pin in PINS:
            vendor(pin, Path(work))


if __name__ == "__main__":
    main()
