"""The ``sphinx-playbook`` command (placeholder until #9 lands)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("sphinx-playbook: no commands yet", file=sys.stderr)
    return 2
