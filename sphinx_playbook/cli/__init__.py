"""The ``sphinx-playbook`` command: ``new`` starts a playbook, ``import-distill`` moves one,
``preview`` serves one with live reload.

Every problem the user can fix ends as one line on stderr and exit code 2;
``--strict`` makes kept-raw HTML exit code 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import __version__
from .errors import CliError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sphinx-playbook",
        description="Start a playbook, or import a Distill article into one.",
    )
    parser.add_argument("--version", action="version", version=f"sphinx-playbook {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    new = commands.add_parser(
        "new",
        help="create a project that builds at once",
        description="Create a playbook project in DIR: the book in DIR/book (conf.py, an "
        "article, a second chapter, a bibliography) and, beside it, a README, "
        "requirements.txt, CITATION.cff, the CI workflow that publishes on GitHub "
        "Pages, and the Read the Docs settings.",
    )
    new.add_argument("directory", metavar="DIR", type=Path)
    new.add_argument("--title", default=None, help="the article's title")
    new.add_argument(
        "--author", action="append", default=None, help="an author (repeat for several)"
    )
    new.add_argument("--affiliation", default=None, help="the authors' affiliation")
    new.add_argument("--format", choices=("md", "rst"), default="md", help="MyST (md) or reST")
    new.add_argument(
        "--notebooks",
        action="store_true",
        help="add a chapter written in a Jupyter notebook (myst-nb, the notebooks extra)",
    )
    new.add_argument("--force", action="store_true", help="write into a non-empty DIR")

    distill = commands.add_parser(
        "import-distill",
        help="convert a Distill article into a MyST project",
        description="Convert a Distill article (a folder with index.html, or an .html file) "
        "into a Sphinx project in MyST, and report what could not be converted.",
    )
    distill.add_argument("source", metavar="SOURCE", type=Path)
    distill.add_argument("out", metavar="OUT", type=Path)
    distill.add_argument(
        "--strict", action="store_true", help="exit with code 1 when anything is kept raw"
    )

    preview = commands.add_parser(
        "preview",
        help="serve the book with live reload while you write",
        description="Build BOOK (the folder of conf.py) into BOOK/_build/preview, serve it under "
        "the path of html_baseurl, and rebuild and reload the page on every save "
        "(through sphinx-autobuild). A failed build shows as a banner on the page.",
    )
    preview.add_argument(
        "book",
        metavar="BOOK",
        type=Path,
        nargs="?",
        help="the folder of conf.py (default: ., or ./book)",
    )
    preview.add_argument("--host", default="127.0.0.1", help="the address to serve on")
    preview.add_argument("--port", type=int, default=8000, help="the port (0: any free port)")
    preview.add_argument("--open-browser", action="store_true", help="open the page")
    preview.add_argument("-j", dest="jobs", default=None, help="Sphinx's processes (N or auto)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command; the return value is the exit code."""
    arguments = _parser().parse_args(argv)
    try:
        if arguments.command == "new":
            from .new import create_project

            return create_project(
                arguments.directory,
                title=arguments.title,
                authors=arguments.author,
                affiliation=arguments.affiliation,
                source_format=arguments.format,
                notebooks=arguments.notebooks,
                force=arguments.force,
            )
        if arguments.command == "preview":
            from .preview import plan_preview, run_preview

            plan = plan_preview(
                arguments.book, host=arguments.host, port=arguments.port, jobs=arguments.jobs
            )
            return run_preview(plan, open_browser=arguments.open_browser)
        from .distill import import_distill

        return import_distill(arguments.source, arguments.out, strict=arguments.strict)
    except CliError as error:
        print(f"sphinx-playbook: error: {error}", file=sys.stderr)
        return error.exit_code
    except OSError as error:
        print(f"sphinx-playbook: error: {error.filename or ''}: {error.strerror}", file=sys.stderr)
        return 2
    except Exception as error:  # a bug of ours: still one line, and a way to report it
        print(
            f"sphinx-playbook: internal error: {type(error).__name__}: {error}; please report "
            "it with the input that caused it",
            file=sys.stderr,
        )
        return 3
