"""Long local runs: ``python -m differential --rounds 300`` from tests/ (or
``python -m tests.differential --rounds 300`` from the repository root).

The suite runs a bounded number of rounds (tests/test_differential.py); this is
for the hundreds of rounds a change to the machinery deserves. Each round prints
one line; a round that differs prints its report. ``--keep-going`` (the default)
rebuilds the working copy from nothing after a divergence and goes on, and the
summary at the end groups the
divergences by the edit kinds of their round and the files that differed
(``--max-edits 1`` attributes each to one edit kind). ``--baseline`` runs the same
book and edits with plain Sphinx + pydata-sphinx-theme, to tell Sphinx's own
staleness from ours. ``--jobs 2`` compares a ``-j 2`` build with a ``-j 1`` build
instead.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))  # tests/, as pytest puts it

from .book import EDITS
from .harness import Session, compare_jobs, scratch_root


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.differential", description=__doc__)
    parser.add_argument("--rounds", type=int, default=20, help="edit rounds per seed")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--seeds", type=int, default=1, help="how many seeds, from --seed on")
    parser.add_argument("--builder", choices=("html", "dirhtml"), default="html")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="plain Sphinx + pydata-sphinx-theme, without sphinx_playbook",
    )
    parser.add_argument(
        "--max-edits",
        type=int,
        default=3,
        help="each round makes 1..N edits (0: rounds without edits)",
    )
    parser.add_argument(
        "--kinds", default="", help=f"comma-separated edit kinds to draw from: {', '.join(EDITS)}"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=0,
        help="compare a -j N fresh build with a -j 1 build (no rounds)",
    )
    parser.add_argument("--stop", action="store_true", help="stop at the first divergence")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="count Sphinx's own leftovers (removed pages) as differences",
    )
    parser.add_argument("--workdir", type=Path, help="where to build (default: a temp folder)")
    parser.add_argument("--keep", action="store_true", help="keep the build folders")
    return parser.parse_args(argv)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    kinds = [k for k in args.kinds.split(",") if k] or None
    unknown = [k for k in kinds or () if k not in EDITS]
    if unknown:
        print(f"unknown edit kinds: {', '.join(unknown)}", file=sys.stderr)
        return 2
    root = args.workdir or scratch_root()
    root.mkdir(parents=True, exist_ok=True)
    print(f"building in {root}")
    failures = 0
    #: (edit kinds, differing files) -> first (seed, round)
    divergences: dict[tuple[str, str], list[str]] = defaultdict(list)
    tolerated: Counter[str] = Counter()
    try:
        for seed in range(args.seed, args.seed + args.seeds):
            if args.jobs:
                report, _done = compare_jobs(
                    root / f"jobs-{seed}", seed, builder=args.builder,
                    ours=not args.baseline, jobs=args.jobs,
                )  # fmt: skip
                print(f"seed {seed}: -j {args.jobs} vs -j 1: {'DIFFERS' if report else 'equal'}")
                if report:
                    failures += 1
                    print(report)
                continue
            session = Session(
                root / f"seed-{seed}", seed, builder=args.builder, ours=not args.baseline,
                max_edits=args.max_edits, kinds=kinds, strict=args.strict, keep_fresh=args.keep,
            )  # fmt: skip
            print(f"seed {seed}: {session.book.log[0]}")
            for index in range(args.rounds + 1):
                result = session.run_round(edit=index > 0)
                timing = (
                    f"{result.incremental.seconds:.1f}s + {result.fresh.seconds:.1f}s"
                    if result.incremental and result.fresh
                    else ""
                )
                status = "equal" if result.equal else "DIFFERS"
                if result.tolerated:
                    status += f" (tolerated as Sphinx's own: {len(result.tolerated)} files)"
                for item in result.tolerated:
                    tolerated[item.split(": ", 1)[1]] += 1
                print(f"  round {index} [{timing}] {status}: {'; '.join(result.edits) or '-'}")
                if result.equal:
                    continue
                failures += 1
                print("\n".join("    | " + line for line in result.report.splitlines()))
                # grouped by what differs: the topics of the pages, the other files
                what = sorted({t for d in result.differences for t in d.topics})
                what += sorted(d.name for d in result.differences if not d.topics)
                key = (
                    " + ".join(sorted(result.kinds)) or "(no edit)",
                    ", ".join(what) or "build failed",
                )
                pages = ", ".join(d.name for d in result.differences[:3])
                divergences[key].append(f"seed {seed} round {index} ({pages})")
                if args.stop:
                    return 1
                if session.restart().crashed:
                    print("    (building the working copy from nothing fails as well)")
    finally:
        if not args.keep and not args.workdir:
            shutil.rmtree(root, ignore_errors=True)
    for reason, count in tolerated.items():
        print(f"tolerated as Sphinx's own, {count} times: {reason}")
    if divergences:
        print(f"\n{len(divergences)} distinct divergences (edit kinds -> what differs):")
        for (kinds_text, what), where in sorted(divergences.items()):
            print(f"- {kinds_text} -> {what}  [{len(where)}x, first: {where[0]}]")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
