"""The built site on a local port for the browser benchmarks, with a few extra pages (the bare
Pyodide pages) served from memory at the site's root, so they load the very same files.

``bandwidth`` (bytes per second) makes it a slow link: every response body, on every connection,
draws from one shared budget, as a phone's one radio link does (the browser's own throttling
slows the page, not its workers or service worker).

``gzip`` serves as a static host does (GitHub Pages, Netlify): text types, JSON, JavaScript and
WebAssembly sent with ``Content-Encoding: gzip`` to a browser that accepts it (made once per file,
level 6, kept in memory), the rest (the standard library's zip, the snapshot's own gzip, images)
as they are. Localhost bandwidth is free, so what it changes is what the browser does: decode the
bodies, and see small transfer sizes (the worker's measure of the link reads them)."""

from __future__ import annotations

import functools
import gzip as gzip_module
import shutil
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from kit.served import QuietServer  # noqa: E402  (the one server of tests/ and benchmarks/)

Extra = dict[str, tuple[str, str]]  # path -> (content type, body)


class Link:
    """One shared budget of bytes per second for every response."""

    CHUNK = 16 * 1024

    def __init__(self, bandwidth: float) -> None:
        self.bandwidth = bandwidth
        self.lock = threading.Lock()
        self.free_at = time.monotonic()  # when the link has sent everything asked of it so far

    def send(self, out: Any, data: bytes) -> None:
        for start in range(0, len(data), self.CHUNK):
            chunk = data[start:start + self.CHUNK]
            with self.lock:
                self.free_at = max(self.free_at, time.monotonic()) + len(chunk) / self.bandwidth
                due = self.free_at
            time.sleep(max(0.0, due - time.monotonic()))
            out.write(chunk)


# What a static host compresses on the fly (GitHub Pages compresses .wasm too).
COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "application/wasm",
                    "application/manifest+json", "image/svg+xml", "application/xml")


def make_handler(extra: Extra, link: Link | None = None, gzip: bool = False) -> type[SimpleHTTPRequestHandler]:
    packed: dict[Path, bytes] = {}  # file -> its gzip body (made once)
    packing = threading.Lock()

    class Handler(SimpleHTTPRequestHandler):
        extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                          ".wasm": "application/wasm", ".json": "application/json", ".gz": "application/gzip",
                          ".webmanifest": "application/manifest+json"}

        def do_GET(self) -> None:
            page = extra.get(self.path.split("?")[0])
            if page is None:
                if gzip and self.gzipped():
                    return None
                return super().do_GET()
            body = page[1].encode()
            self.send_response(200)
            self.send_header("Content-Type", page[0])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.write(body)

        def gzipped(self) -> bool:
            """Send the file gzip-encoded, as a static host would, if it is of a compressed type and
            the browser accepts gzip; False: served as it is."""
            if "gzip" not in self.headers.get("Accept-Encoding", ""):
                return False
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            kind = self.guess_type(str(path))
            if not path.is_file() or not kind.startswith(COMPRESSED_TYPES):
                return False
            with packing:
                if path not in packed:
                    packed[path] = gzip_module.compress(path.read_bytes(), compresslevel=6, mtime=0)
            body = packed[path]
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Last-Modified", self.date_time_string(int(path.stat().st_mtime)))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            self.write(body)
            return True

        def write(self, body: bytes) -> None:
            if link is None:
                self.wfile.write(body)
            else:
                link.send(self.wfile, body)

        def copyfile(self, source: Any, outputfile: Any) -> None:
            if link is None:
                shutil.copyfileobj(source, outputfile)
            else:
                link.send(outputfile, source.read())

        def log_message(self, format: str, *args: object) -> None:
            pass

        def handle_one_request(self) -> None:
            try:
                super().handle_one_request()
            except (ConnectionResetError, BrokenPipeError):
                pass  # a page left mid-load: not the benchmark's concern

    return Handler


def serve(site: Path, extra: Extra, bandwidth: float | None = None,
          gzip: bool = False) -> tuple[ThreadingHTTPServer, str]:
    """site/ on 127.0.0.1 at a free port, in a thread; returns the server and its root URL."""
    handler = make_handler(extra, Link(bandwidth) if bandwidth else None, gzip)
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"
