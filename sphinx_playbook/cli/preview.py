"""``sphinx-playbook preview``: the book served with live reload, as readers will get it.

Why it is shaped this way: sphinx-autobuild watches the sources, rebuilds and
reloads the open pages, and we use it only through its command line, the one
interface it documents (its modules are not a public API, and their signatures
changed between releases). Two things the command line cannot do are added in
front of it, without touching the pages the real build writes:

- **The site's sub-path.** sphinx-autobuild serves the output folder at ``/``; a
  small forwarding server of ours serves it under the path of ``html_baseurl``
  (``https://x.github.io/my-book/`` -> ``http://127.0.0.1:8000/my-book/``) and
  answers 404 elsewhere, so a link that would break on the published site breaks
  here too. The reload script sphinx-autobuild adds to each page still talks to
  sphinx-autobuild itself, on its own loopback port.
- **A failed build shows on the page.** sphinx-autobuild reloads the page after a
  failed build too, which would show the last good build as if it were current.
  Its ``--pre-build`` and ``--post-build`` hooks (the second runs only when Sphinx
  succeeded) record the state in a small file: "building", with the process that
  runs the build (the hook's parent), then "ok". A "building" whose process has
  ended is a failed build (sphinx-autobuild runs each rebuild in a worker process
  that ends with it; were that to change, a page would wait for the build up to
  BUILDING_WAIT_S and then come without the banner, never with a wrong one). The
  first build is ours, before sphinx-autobuild starts (``--no-initial``), so its
  result is known directly. While the last build failed, the forwarding server
  writes a banner with Sphinx's error (from its ``-w`` file) at the top of every
  page it serves; the next good build clears it.

The builds are incremental (never ``-E`` or ``-a``): an incremental build
writes the same pages as a fresh one. Sphinx prints each build's warnings, with
file and line, in the terminal. Scroll position and the open page survive a
reload: sphinx-autobuild reloads with ``location.reload()``, which browsers
answer by restoring the scroll position.
"""

from __future__ import annotations

import dataclasses
import html
import http.client
import http.server
import importlib.metadata
import importlib.util
import json
import os
import re
import runpy
import shlex
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import CliError

#: Where the preview writes, inside the book: its own output, never the real build's.
PREVIEW_DIR = Path("_build") / "preview"
#: The hooks' record of the last build: {"state": "building" | "ok" | "failed", "pid": N}.
STATUS_FILE = "status.json"
#: Sphinx's warnings and errors of the last build (``sphinx-build -w``).
WARNINGS_FILE = "warnings.txt"
#: The banner's id, for the tests and for an author's stylesheet.
BANNER_ID = "playbook-preview-build-failed"
#: How many of the warning file's last lines the banner shows.
BANNER_LINES = 40
#: How long a page asked for during a build waits for the build to end.
BUILDING_WAIT_S = 120.0

#: Run by sphinx-autobuild's hooks: records the state and the process that runs the build.
HOOK_SCRIPT = Path(__file__).with_name("preview_hook.py")

_INSTALL = 'pip install "sphinx-playbook[preview]"'
#: The first sphinx-autobuild with ``--post-build`` (run only after a good build).
OLDEST_AUTOBUILD = (2025, 8, 25)


@dataclass(frozen=True)
class Preview:
    """What ``sphinx-playbook preview`` runs, worked out from its arguments and conf.py."""

    book: Path
    host: str
    port: int
    #: sphinx-autobuild's own port, on the same host, behind the forwarding server.
    autobuild_port: int
    #: The path the site has, from ``html_baseurl``; always starts and ends with "/".
    sub_path: str
    jobs: str | None = None
    #: conf.py asks for ``playbook_csp``: turned off in the preview only, as the
    #: policy would refuse the reload script sphinx-autobuild adds to each page.
    csp_off: bool = False

    @property
    def folder(self) -> Path:
        return self.book / PREVIEW_DIR

    @property
    def outdir(self) -> Path:
        return self.folder / "html"

    @property
    def status_file(self) -> Path:
        return self.folder / STATUS_FILE

    @property
    def warnings_file(self) -> Path:
        return self.folder / WARNINGS_FILE

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("", "0.0.0.0") else self.host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}{self.sub_path}"

    def sphinx_arguments(self) -> list[str]:
        """``sphinx-build``'s arguments: html, incremental, into the preview's folder."""
        arguments = [
            "-b",
            "html",
            "-d",
            str(self.folder / "doctrees"),
            "-w",
            str(self.warnings_file),
        ]
        if self.jobs is not None:
            arguments += ["-j", self.jobs]
        if self.csp_off:
            arguments += ["-D", "playbook_csp=0"]
        return [*arguments, str(self.book), str(self.outdir)]

    def build_command(self) -> list[str]:
        """The first build, run before sphinx-autobuild starts watching."""
        return [sys.executable, "-m", "sphinx", "build", *self.sphinx_arguments()]

    def hook(self, state: str) -> str:
        return shlex.join([sys.executable, "-S", str(HOOK_SCRIPT), state, str(self.status_file)])

    def autobuild_command(self) -> list[str]:
        """sphinx-autobuild, watching the book and rebuilding on each change."""
        return [
            sys.executable,
            "-m",
            "sphinx_autobuild",
            *self.sphinx_arguments(),
            "--host",
            self.host,
            "--port",
            str(self.autobuild_port),
            "--no-initial",
            "--ignore",
            str(self.folder),
            "--pre-build",
            self.hook("building"),
            "--post-build",
            self.hook("ok"),
        ]


def plan_preview(
    book: Path | None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    jobs: str | None = None,
    autobuild_port: int | None = None,
) -> Preview:
    """Check BOOK and read conf.py; raises CliError for what the author can fix.

    Without BOOK: the current folder, or its ``book/`` (the layout of
    ``sphinx-playbook new``) when only that one holds a conf.py."""
    if importlib.util.find_spec("sphinx_autobuild") is None:
        raise CliError(f"the preview needs sphinx-autobuild: {_INSTALL}")
    installed = _autobuild_version()
    if installed is not None and installed < OLDEST_AUTOBUILD:
        oldest, found = (".".join(map(str, v)) for v in (OLDEST_AUTOBUILD, installed))
        raise CliError(
            f"the preview needs sphinx-autobuild {oldest} or newer (for --post-build), and "
            f'{found} is installed: pip install -U "sphinx-autobuild>={oldest}"'
        )
    if book is None:  # the current folder, or the book/ of ``sphinx-playbook new``
        here = Path.cwd()
        book = (
            here / "book"
            if not (here / "conf.py").exists() and (here / "book" / "conf.py").is_file()
            else here
        )
    book = book.resolve()
    if not (book / "conf.py").is_file():
        where = "" if book.is_dir() else " (no such folder)"
        raise CliError(
            f"{book}: no conf.py here{where}; give the folder that holds the book's conf.py"
        )
    if jobs is not None and jobs != "auto" and not (jobs.isdigit() and int(jobs) > 0):
        raise CliError(f"-j {jobs}: give a number of processes, or auto")
    settings = _read_conf(book)
    return Preview(
        book=book,
        host=host,
        port=port,
        autobuild_port=autobuild_port or _free_port(host),
        sub_path=sub_path(str(settings.get("html_baseurl") or "")),
        jobs=jobs,
        csp_off=bool(settings.get("playbook_csp")),
    )


def _autobuild_version() -> tuple[int, ...] | None:
    """sphinx-autobuild's calendar version (2025.8.25 -> (2025, 8, 25)), if it says."""
    try:
        text = importlib.metadata.version("sphinx-autobuild")
    except importlib.metadata.PackageNotFoundError:
        return None
    numbers = re.match(r"(\d+)\.(\d+)\.(\d+)", text)
    return tuple(int(n) for n in numbers.groups()) if numbers else None


def sub_path(baseurl: str) -> str:
    """The path part of ``html_baseurl``, as "/" or "/a/b/"."""
    path = urllib.parse.urlsplit(baseurl).path.strip("/")
    return f"/{path}/" if path else "/"


def _read_conf(book: Path) -> dict[str, Any]:
    """conf.py's names, evaluated as Sphinx does (in its folder, with ``tags``); a
    conf.py that fails gives nothing here, and the build then says why."""
    from sphinx.util.tags import Tags

    cwd = os.getcwd()
    try:
        os.chdir(book)
        return runpy.run_path(str(book / "conf.py"), init_globals={"tags": Tags()})
    except (Exception, SystemExit):
        return {}
    finally:
        os.chdir(cwd)


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host if host else "127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- the build's state, as the hooks recorded it ----------------------------------------


def _write_status(preview: Preview, state: str) -> None:
    preview.folder.mkdir(parents=True, exist_ok=True)
    temporary = preview.status_file.with_suffix(".tmp")
    temporary.write_text(json.dumps({"state": state, "pid": os.getpid()}), encoding="utf-8")
    os.replace(temporary, preview.status_file)


def _alive(pid: int) -> bool:
    if pid <= 0 or sys.platform == "win32":  # os.kill(pid, 0) would end the process there
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def build_failed(preview: Preview, wait: float = BUILDING_WAIT_S) -> bool:
    """Whether the last build failed. While a build runs (the hook said "building" and
    the process that runs it is alive), wait for it, up to ``wait`` seconds: a page
    asked for then is served from the build that is being made."""
    deadline = time.monotonic() + wait
    while True:
        try:
            status = json.loads(preview.status_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if status.get("state") == "ok":
            return False
        if status.get("state") == "failed" or not _alive(int(status.get("pid", 0))):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def banner(preview: Preview, page: bool = True) -> str:
    """The failed build's banner: what happened, and the end of Sphinx's messages;
    ``page``: above the last good build's page (else there is none)."""
    try:
        lines = preview.warnings_file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    tail = "\n".join(lines[-BANNER_LINES:]).strip() or "(Sphinx wrote no message: see the terminal)"
    return (
        f'<div id="{BANNER_ID}" role="alert" style="position:sticky;top:0;z-index:2147483647;'
        "margin:0;padding:.75rem 1rem;background:#9b1c1c;color:#fff;"
        'font:15px/1.4 system-ui,sans-serif;text-align:left">'
        "<strong>The last build failed.</strong> "
        + ("This page is from the last good build. " if page else "No good build wrote this page. ")
        + "Fix the error and save: the next good build removes this banner."
        '<pre style="white-space:pre-wrap;margin:.5rem 0 0;padding:0;background:none;'
        "color:inherit;max-height:40vh;overflow:auto;"
        f'font:13px/1.4 ui-monospace,monospace">{html.escape(tail)}</pre></div>'
    )


_BODY = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)


#: What is served, with the banner, where no good build wrote a page: it reloads itself
#: every three seconds (sphinx-autobuild's reload script is only in the pages it serves).
_NO_PAGE = (
    b'<!DOCTYPE html><html lang="en"><meta charset="utf-8"><meta http-equiv="refresh" '
    b'content="3"><title>The build failed</title><body>'
)


def _with_banner(page: bytes, preview: Preview) -> bytes:
    text = banner(preview, page=page != _NO_PAGE).encode("utf-8")
    body = _BODY.search(page)
    at = body.end() if body else 0
    return page[:at] + text + page[at:]


# -- the forwarding server ---------------------------------------------------------------

#: Headers that describe one connection, or that the forwarded answer replaces.
_DROPPED = {
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "date",
    "server",
    "cache-control",
}
#: What a page's answer also loses: it may carry a banner, so it is never kept.
_VALIDATORS = {"etag", "last-modified"}
#: The request headers passed on: the files' validators let a reload revalidate the
#: stylesheets, scripts and figures instead of downloading them again.
_FORWARDED = {
    "accept",
    "accept-language",
    "range",
    "user-agent",
    "if-none-match",
    "if-modified-since",
}


def _handler(preview: Preview) -> type[http.server.BaseHTTPRequestHandler]:
    upstream = f"http://{preview.host}:{preview.autobuild_port}"

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self._forward(send_body=True)

        def do_HEAD(self) -> None:
            self._forward(send_body=False)

        upstream_connection: http.client.HTTPConnection | None = None

        def _answer(
            self,
            status: int,
            headers: dict[str, str],
            body: bytes,
            send_body: bool,
            page: bool = True,
        ) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            if status != 304:
                self.send_header("Content-Length", str(len(body)))
            # Pages are never kept (the banner comes and goes); every other file is
            # revalidated on each reload, so it is always the newest build's.
            self.send_header("Cache-Control", "no-store" if page else "no-cache")
            self.end_headers()
            if send_body and status != 304:
                self.wfile.write(body)

        def _ask(self, target: str, headers: dict[str, str]) -> http.client.HTTPResponse:
            """The request to sphinx-autobuild, on this connection's own keep-alive one
            (opened again once if sphinx-autobuild closed it)."""
            for attempt in (1, 2):
                if self.upstream_connection is None:
                    self.upstream_connection = http.client.HTTPConnection(
                        preview.host, preview.autobuild_port, timeout=60
                    )
                try:
                    self.upstream_connection.request(self.command, target, headers=headers)
                    return self.upstream_connection.getresponse()
                except (http.client.HTTPException, OSError):
                    self.upstream_connection.close()
                    self.upstream_connection = None
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

        def finish(self) -> None:
            super().finish()
            if self.upstream_connection is not None:
                self.upstream_connection.close()

        def _forward(self, send_body: bool) -> None:
            path, _, query = self.path.partition("?")
            if not path.startswith(preview.sub_path):
                if path in ("/", preview.sub_path.rstrip("/")):
                    location = preview.sub_path + (f"?{query}" if query else "")
                    self._answer(302, {"Location": location}, b"", send_body)
                    return
                where = html.escape(preview.sub_path)
                text = (
                    f'<p>Not found: this preview serves the book under <a href="{where}">{where}'
                    "</a>, the path of <code>html_baseurl</code>, as the published site will.</p>"
                )
                self._answer(
                    404, {"Content-Type": "text/html; charset=utf-8"}, text.encode(), send_body
                )
                return
            inner = "/" + path[len(preview.sub_path) :] + (f"?{query}" if query else "")
            asked = {k: v for k, v in self.headers.items() if k.lower() in _FORWARDED}
            try:
                response = self._ask(inner, asked)
                body = response.read()
            except (http.client.HTTPException, OSError):
                self._answer(
                    502,
                    {"Content-Type": "text/plain"},
                    b"sphinx-autobuild is not answering",
                    send_body,
                )
                return
            headers = {k: v for k, v in response.getheaders() if k.lower() not in _DROPPED}
            names = {k.lower(): k for k in headers}
            if "location" in names:
                location = headers[names["location"]].removeprefix(upstream)
                if location.startswith("/"):
                    headers[names["location"]] = preview.sub_path + location[1:]
            kind = headers.get(names.get("content-type", ""), "")
            status, page = response.status, kind.startswith("text/html")
            if page:
                headers = {k: v for k, v in headers.items() if k.lower() not in _VALIDATORS}
            if (page or status == 404) and self.command == "GET" and build_failed(preview):
                if not page:
                    body, headers, page = (
                        _NO_PAGE,
                        {"Content-Type": "text/html; charset=utf-8"},
                        True,
                    )
                body = _with_banner(body, preview)
            self._answer(status, headers, body, send_body, page=page)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the terminal is for the builds' messages."""

    return Handler


# -- running it -------------------------------------------------------------------------


def _wait_for_port(
    host: str, port: int, process: subprocess.Popen[Any], timeout: float = 60
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CliError(f"sphinx-autobuild stopped (exit code {process.returncode}); see above")
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise CliError(f"sphinx-autobuild did not start serving on port {port} in {timeout:.0f} s")


def _relay(stream: Any, preview: Preview) -> None:
    """sphinx-autobuild's messages, with its own address replaced by the preview's."""
    inner = f"http://{preview.host}:{preview.autobuild_port}"
    for line in iter(stream.readline, ""):
        sys.stdout.write(line.replace(inner, preview.url))
        sys.stdout.flush()


def run_preview(preview: Preview, open_browser: bool = False) -> int:
    """Build once, then serve until Ctrl+C; returns the exit code."""
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    try:
        server = http.server.ThreadingHTTPServer((preview.host, preview.port), _handler(preview))
    except OSError as error:
        raise CliError(
            f"cannot serve on {preview.host}:{preview.port}: {error.strerror}; try --port"
        ) from error
    server.daemon_threads = True
    preview = dataclasses.replace(preview, port=int(server.server_address[1]))
    preview.folder.mkdir(parents=True, exist_ok=True)
    print(f"sphinx-playbook preview: building {preview.book}", flush=True)
    _write_status(preview, "building")
    try:
        first = subprocess.run(preview.build_command(), env=environment, check=False)
    except KeyboardInterrupt:
        server.server_close()
        return 130
    _write_status(preview, "ok" if first.returncode == 0 else "failed")
    autobuild = subprocess.Popen(
        preview.autobuild_command(),
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )
    threading.Thread(target=_relay, args=(autobuild.stdout, preview), daemon=True).start()
    interrupted = False
    try:
        _wait_for_port(preview.host, preview.autobuild_port, autobuild)

        def stop_with_autobuild() -> None:  # sphinx-autobuild ended: so does the preview
            autobuild.wait()
            server.shutdown()

        threading.Thread(target=stop_with_autobuild, daemon=True).start()
        state = "" if first.returncode == 0 else " (the first build failed: the page says why)"
        print(f"sphinx-playbook preview: serving {preview.url}{state}; Ctrl+C stops", flush=True)
        if open_browser:
            webbrowser.open(preview.url)
        server.serve_forever()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        server.server_close()
        if autobuild.poll() is None:
            autobuild.terminate()
            try:
                autobuild.wait(10)
            except subprocess.TimeoutExpired:
                autobuild.kill()
    if not interrupted and autobuild.returncode not in (0, None):
        raise CliError(
            f"sphinx-autobuild stopped (exit code {autobuild.returncode}): its messages are above",
            exit_code=1,
        )
    return 0
