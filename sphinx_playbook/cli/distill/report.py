"""What the import found, converted and kept raw, and where: the closing table."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Place:
    """One kept-raw or doubtful spot, at its line in the source HTML."""

    line: int | None
    construct: str
    message: str
    raw: bool


@dataclass
class Report:
    """Counts per construct and the places an author should look at."""

    source_name: str = "index.html"
    found: Counter[str] = field(default_factory=Counter)
    converted: Counter[str] = field(default_factory=Counter)
    kept_raw: Counter[str] = field(default_factory=Counter)
    places: list[Place] = field(default_factory=list)

    def done(self, construct: str) -> None:
        self.found[construct] += 1
        self.converted[construct] += 1

    def raw(self, construct: str, line: int | None, why: str) -> None:
        """Kept as raw HTML: shown in the page as it was, but not converted."""
        self.found[construct] += 1
        self.kept_raw[construct] += 1
        self.places.append(Place(line, construct, why, raw=True))

    def doubt(self, construct: str, line: int | None, why: str) -> None:
        """Converted, but an author should check the result."""
        self.places.append(Place(line, construct, why, raw=False))

    @property
    def raw_count(self) -> int:
        return sum(self.kept_raw.values())

    def table(self) -> str:
        """The report as plain text: a table, then one line per place."""
        rows = [("construct", "found", "converted", "kept raw")]
        for construct in sorted(self.found):
            rows.append(
                (
                    construct,
                    str(self.found[construct]),
                    str(self.converted[construct]),
                    str(self.kept_raw[construct]),
                )
            )
        widths = [max(len(row[column]) for row in rows) for column in range(4)]

        def line(row: tuple[str, ...]) -> str:
            cells = [row[0].ljust(widths[0])] + [
                cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
            ]
            return "  ".join(cells).rstrip()

        lines = [line(rows[0]), "  ".join("-" * width for width in widths)]
        lines += [line(row) for row in rows[1:]]
        groups = self.groups()
        if groups:
            lines += ["", "To check:"]
            for places in groups:
                first = places[0]
                kind = "kept raw" if first.raw else "check"
                if len(places) == 1:
                    where = self._where(first)
                    lines.append(f"  {where}: {first.construct} ({kind}): {first.message}")
                    continue
                numbers = [str(place.line) for place in places if place.line]
                shown = ", ".join(numbers[:8]) + (", …" if len(numbers) > 8 else "")
                lines.append(
                    f"  {len(places)} x {first.construct} ({kind}): {_template(first.message)}"
                    + (f" (lines {shown})" if numbers else "")
                )
        return "\n".join(lines)

    def _where(self, place: Place) -> str:
        return f"{self.source_name}:{place.line}" if place.line else self.source_name

    def groups(self) -> list[list[Place]]:
        """Places of the same kind said once: same construct, same message up to names."""
        grouped: dict[tuple[str, bool, str], list[Place]] = {}
        for place in sorted(self.places, key=lambda p: (p.line or 0, p.construct)):
            key = (place.construct, place.raw, _template(place.message))
            grouped.setdefault(key, []).append(place)
        return sorted(grouped.values(), key=lambda places: places[0].line or 0)

    def full_text(self) -> str:
        """Every place on its own line, for the file written beside the project."""
        lines = [self.table().split("\n\nTo check:")[0], "", "Every place:"]
        for place in sorted(self.places, key=lambda p: (p.line or 0, p.construct)):
            kind = "kept raw" if place.raw else "check"
            lines.append(f"  {self._where(place)}: {place.construct} ({kind}): {place.message}")
        return "\n".join(lines) + "\n"


_NAMES = re.compile(
    r"""'[^']*'|"[^"]*"|#[\w:.-]+|\b[\w./-]+\.(?:png|jpe?g|svg|gif|webp|js|mjs|css|json|csv|mp4|webm|html?)\b"""
)


def _template(message: str) -> str:
    """A message with its names (quoted text, #ids, file names) left out, for grouping."""
    return _NAMES.sub("…", message)
