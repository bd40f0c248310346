"""A progress bar on a terminal, plain lines elsewhere (logs, CI, pipes).

A few lines of code instead of a dependency: the command only needs one bar.
"""

from __future__ import annotations

from typing import TextIO


class Progress:
    """Reports ``step(done)`` out of ``total`` on ``stream``."""

    WIDTH = 30

    def __init__(self, stream: TextIO, total: int, label: str) -> None:
        self.stream = stream
        self.total = max(total, 1)
        self.label = label
        self.on_terminal = hasattr(stream, "isatty") and stream.isatty()
        if not self.on_terminal:
            print(f"{label}: {total} blocks", file=stream)

    def step(self, done: int) -> None:
        if not self.on_terminal:
            return
        filled = self.WIDTH * done // self.total
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total}")
        self.stream.flush()

    def finish(self) -> None:
        if self.on_terminal:
            self.step(self.total)
            self.stream.write("\n")
            self.stream.flush()
