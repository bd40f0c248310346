"""What the import found, converted and kept raw, and where: the closing table."""

from __future__ import annotations

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
        places = sorted(self.places, key=lambda place: (place.line or 0, place.construct))
        if places:
            lines += ["", "To check:"]
            for place in places:
                where = f"{self.source_name}:{place.line}" if place.line else self.source_name
                kind = "kept raw" if place.raw else "check"
                lines.append(f"  {where}: {place.construct} ({kind}): {place.message}")
        return "\n".join(lines)
