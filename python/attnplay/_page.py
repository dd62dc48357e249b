# _page.py — a self-contained copy of the built page (index.html with its scripts, style and wasm
# inline) that needs no server and no network, for notebook outputs and saved HTML files.
import base64
import gzip
import hashlib
import html
import json
import os
import re
import zlib
from pathlib import Path

from ._cli import AttnplayError
from ._manifest import LIMITS

_PACKAGE_WEB = Path(__file__).resolve().parent / "web"
_REPO_WEB = Path(__file__).resolve().parent.parent.parent / "build" / "web"
REQUIRED_FILES = ("index.html", "attnplay.js", "attnplay.wasm", "attnplay-api.js", "style.css")

# The page's own limits on a share fragment (src/core/share_codec.h) and on a state (json_codec.h), as the manifest
# states them.
MAX_FRAGMENT_BYTES = LIMITS["share_fragment_bytes"]
MAX_INFLATED_BYTES = LIMITS["share_inflated_bytes"]
MAX_STATE_BYTES = LIMITS["json_bytes"]


def _complete(directory):
    return all((directory / f).is_file() for f in REQUIRED_FILES)


def find_web():
    """The built page: $ATTNPLAY_WEB, else the copy installed inside the package (attnplay/web, filled
    when the package is built next to a web build), else build/web of the source checkout."""
    env = os.environ.get("ATTNPLAY_WEB")
    if env:
        p = Path(env)
        if not _complete(p):
            missing = [f for f in REQUIRED_FILES if not (p / f).is_file()]
            raise AttnplayError(f"ATTNPLAY_WEB={env} is not a built page: {', '.join(missing)} missing")
        return p
    for p in (_PACKAGE_WEB, _REPO_WEB):
        if _complete(p):
            return p
    raise AttnplayError("the built page (index.html, attnplay.js, attnplay.wasm, …) was not found: set ATTNPLAY_WEB "
                        "to build/web, or build the page (`cmake --preset web && cmake --build --preset web`) "
                        "before installing this package")


def _inline_script_text(text):
    # The HTML parser ends a script at "</script" and treats "<!--" specially; both can only occur in
    # strings, regular expressions or comments of the page's scripts, where the escaped forms mean the same.
    text = re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)
    return text.replace("<!--", "<\\!--")


def _sha256(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


class Page:
    """The files of one built page, read once; `document()` makes inline copies of it."""

    def __init__(self, directory):
        self.directory = Path(directory)
        read = lambda name: (self.directory / name).read_text(encoding="utf-8")
        self.index = read("index.html")
        self.module_script = _inline_script_text(read("attnplay.js"))
        wasm = (self.directory / "attnplay.wasm").read_bytes()
        self.wasm_base64 = base64.b64encode(gzip.compress(wasm, compresslevel=9, mtime=0)).decode("ascii")
        # A split build's second half (scripts/split_wasm.mjs) travels in its own block.
        second = self.directory / "attnplay.deferred.wasm"
        self.deferred_base64 = (base64.b64encode(gzip.compress(second.read_bytes(), compresslevel=9, mtime=0))
                                .decode("ascii") if second.is_file() else None)
        # The catalog files a served page fetches (strings/<name>.json: a language, a part of one); "<" is
        # written \u003c, which keeps them JSON and cannot end the data block.
        self.catalogs = {f.stem: f.read_text(encoding="utf-8").replace("<", "\\u003c")
                         for f in sorted((self.directory / "strings").glob("*.json"))}
        self.scripts = {}
        for name in re.findall(r'<script\s+src="([^"]+)"\s*>\s*</script>', self.index):
            self.scripts[name] = _inline_script_text(self._read_local(name))
        self.styles = {}
        for name in re.findall(r'<link\s+rel="stylesheet"\s+href="([^"]+)"\s*>', self.index):
            self.styles[name] = self._read_local(name).replace("</style", "<\\/style")

    def _read_local(self, name):
        if "/" in name or ":" in name or name.startswith("."):
            raise AttnplayError(f"index.html refers to {name!r}, which an inline copy cannot carry")
        return (self.directory / name).read_text(encoding="utf-8")

    def document(self, search="", hash_="", state_text=None, href="", lang=None):
        """The whole page as one HTML document: its scripts and style inline under a CSP that allows
        exactly them (by hash) and nothing from any address, the wasm gzip-compressed in base64."""
        config = {"search": search, "hash": hash_, "href": href}
        config_text = json.dumps(config, ensure_ascii=False)
        if state_text is not None:
            config_text = config_text[:-1] + ',"state":' + state_text + "}"
        config_text = config_text.replace("<", "\\u003c")  # stays valid JSON; cannot end the data block
        blocks = ('<script type="application/json" id="attnplay-inline">' + config_text + "</script>\n"
                  '<script type="application/octet-stream" id="attnplay-inline-wasm" data-encoding="gzip">' +
                  self.wasm_base64 + "</script>\n")
        for name, text in self.catalogs.items():  # "hi-Latn", "en.lessons": the files strings/<name>.json
            blocks += ('<script type="application/json" id="attnplay-inline-strings-' + html.escape(name, quote=True) +
                       '">' + text + "</script>\n")
        if self.deferred_base64:
            blocks += ('<script type="application/octet-stream" id="attnplay-inline-deferred" data-encoding="gzip">' +
                       self.deferred_base64 + "</script>\n")
        hashes = []
        doc = self.index

        def script(match):
            text = self.scripts[match.group(1)]
            hashes.append(_sha256(text))
            return "<script>" + text + "</script>"

        doc = re.sub(r'<script\s+src="([^"]+)"\s*>\s*</script>', script, doc)
        # attnplay-api.js loads the module's script itself on a served page; here it follows inline.
        hashes.append(_sha256(self.module_script))
        last_script = doc.rfind("</script>") + len("</script>")
        doc = doc[:last_script] + "\n  <script>" + self.module_script + "</script>" + doc[last_script:]
        style_hashes = []

        def style(match):
            text = self.styles[match.group(1)]
            style_hashes.append(_sha256(text))
            return "<style>" + text + "</style>"

        doc = re.sub(r'<link\s+rel="stylesheet"\s+href="([^"]+)"\s*>', style, doc)
        doc = re.sub(r'\s*<link\s+rel="icon"[^>]*>', "", doc)
        # An inline view is no installable app: the page's web app manifest stays out (it would be fetched).
        doc = re.sub(r'\s*<link\s+rel="manifest"[^>]*>', "", doc)
        # The served page's early fetches of its module: an inline copy carries the module in a data block.
        doc = re.sub(r'\s*<link\s+rel="preload"[^>]*>', "", doc)
        csp = ("default-src 'none'; script-src " + " ".join(hashes) + " 'wasm-unsafe-eval'; style-src " +
               " ".join(style_hashes) + "; img-src data: blob:; object-src 'none'; base-uri 'none'; form-action 'none'")
        csp_meta = '<meta http-equiv="Content-Security-Policy" content="' + csp + '">'
        doc, n = re.subn(r'<meta\s+http-equiv="Content-Security-Policy"\s+content="[^"]*"\s*>', csp_meta, doc)
        if n != 1:
            raise AttnplayError("index.html has no single Content-Security-Policy meta element to replace")
        head = doc.find("</head>")
        doc = doc[:head] + blocks + doc[head:]
        if lang:
            doc = re.sub(r'<html lang="[^"]*">', '<html lang="' + html.escape(lang, quote=True) + '">', doc, count=1)
        return doc


_pages = {}


def page(directory=None):
    """The Page of a build directory, re-read when its wasm changes."""
    d = Path(directory) if directory else find_web()
    stamp = (d / "attnplay.wasm").stat().st_mtime_ns
    cached = _pages.get(d)
    if cached is None or cached[0] != stamp:
        cached = (stamp, Page(d))
        _pages[d] = cached
    return cached[1]


def share_fragment(state_text):
    """The page's share fragment "s=1.<base64url>" of a state's JSON: raw-deflated ('z') when that is
    shorter, plain ('j') otherwise, as the page's own share links (src/core/share_codec.cpp); "" when
    the JSON is beyond what the page inflates."""
    raw = state_text.encode("utf-8")
    if len(raw) > MAX_INFLATED_BYTES:
        return ""  # the page would refuse it; don't spend seconds compressing it
    packer = zlib.compressobj(6, zlib.DEFLATED, -15, 9)
    packed = packer.compress(raw) + packer.flush()
    payload = b"z" + packed if len(packed) < len(raw) else b"j" + raw
    return "s=1." + base64.urlsafe_b64encode(payload).decode("ascii").rstrip("=")


def fits_fragment(state_text, fragment):
    return bool(fragment) and len(fragment) <= MAX_FRAGMENT_BYTES and len(state_text.encode("utf-8")) <= MAX_INFLATED_BYTES
