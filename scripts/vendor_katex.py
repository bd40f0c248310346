"""Refresh the KaTeX release files shipped in sphinx_playbook/math/vendor/katex/.

Takes the pinned version's package with ``npm pack`` (the npm client's own
registry), checks its sha512 integrity against the pin below, and copies the
minified JS, the font-display: swap stylesheet, the woff2 fonts and the licence.
Nothing is fetched when a site is built or read.

    python scripts/vendor_katex.py
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

VERSION = "0.19.1"
INTEGRITY = (
    "sha512-jG8uKntjSEcm2EpQOh0XturpPuuC9r3Sq5HLHdsFdWZT27E672SF19QEi"
    "+of0/YeOy15lDgRhKvr5614uRrEfA=="
)
TARGET = Path(__file__).resolve().parent.parent / "sphinx_playbook" / "math" / "vendor" / "katex"
WANTED = ("dist/katex.min.js", "dist/katex-swap.min.css", "LICENSE")


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["npm", "pack", f"katex@{VERSION}", "--silent"], cwd=work, check=True)
        tarball = Path(work, f"katex-{VERSION}.tgz")
        sha512 = hashlib.sha512(tarball.read_bytes()).digest()
        digest = "sha512-" + base64.b64encode(sha512).decode()
        if digest != INTEGRITY:
            raise SystemExit(f"integrity mismatch for katex {VERSION}: {digest}")
        with tarfile.open(tarball) as archive:
            archive.extractall(work, filter="data")
        package = Path(work, "package")
        if TARGET.exists():
            shutil.rmtree(TARGET)
        (TARGET / "fonts").mkdir(parents=True)
        for name in WANTED:
            shutil.copy(package / name, TARGET / Path(name).name)
        for font in sorted((package / "dist" / "fonts").glob("*.woff2")):
            shutil.copy(font, TARGET / "fonts" / font.name)
        (TARGET / "VERSION").write_text(f"{VERSION}\n{INTEGRITY}\n", encoding="utf-8")
    print(f"KaTeX {VERSION} copied to {TARGET}")


if __name__ == "__main__":
    main()
