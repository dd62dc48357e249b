# _view.py — attnplay.view()/show(): one playground as an <iframe srcdoc> whose document carries the
# whole page, so a notebook output (and the notebook saved as HTML) works with no server or network.
import html
import re
import uuid
from urllib.parse import urlencode

from . import _page
from ._scenario import MATRIX_KEYS, SCENARIO_KEYS, STATE_KEYS, state_json

# Keys both a scenario and the page's state have: with matrices of one's own they belong to the scenario.
_SHARED_KEYS = tuple(k for k in SCENARIO_KEYS if k in STATE_KEYS)
DEFAULT_PANELS = ("controls", "heatmap", "pipeline")
_LANG = re.compile(r"^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$")


def _ids(value, name):
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    ids = [s.strip() for item in items for s in str(item).split(",") if s.strip()]
    for i in ids:
        if not re.fullmatch(r"[a-z][a-z0-9_-]*", i):
            raise ValueError(f"{name}: {i!r} is not a panel or control id (see the embed table in docs/embedding.md)")
    return ",".join(ids)


def build_state(scenario=None, state=None, **keys):
    """The page state for view(): scenario keys (X, W_q, …, Q, K, V, tokens, …) become a scenario of
    one's own when matrices are given, everything else is a state key (preset, d_k, selected_row, …)."""
    out = dict(state or {})
    own = dict(scenario or {})
    explicit = bool(own) or any(k in keys for k in MATRIX_KEYS)
    for key, value in keys.items():
        if key == "lesson" and isinstance(value, str):
            value = {"id": value}  # lesson="why-sqrt-dk" opens its first step
        if key in STATE_KEYS and not (explicit and key in _SHARED_KEYS):
            out[key] = value
        elif key in SCENARIO_KEYS:
            if explicit:
                own[key] = value
            elif key == "tokens":
                out["sentence"] = " ".join(str(t) for t in value)
            else:
                raise TypeError(f"{key}= belongs to a scenario: give X=… (or Q=, K=, V=) too")
        else:
            raise TypeError(f"unexpected keyword argument {key!r}; scenario keys: {', '.join(SCENARIO_KEYS)}; "
                            f"state keys: {', '.join(STATE_KEYS)}")
    if explicit:
        out["scenario"] = own
    return out


# Jupyter strips the frame from the outputs of a notebook it does not trust, and the <style> that hides
# this note with it, so the note shows exactly then, instead of an empty box.
_UNTRUSTED_NOTE = ('<style>.attnplay-untrusted{display:none}</style><p class="attnplay-untrusted">Attention Playground: '
                   'Jupyter removed this view because it does not trust the notebook. Run the cell again, or trust '
                   'the notebook (File → Trust Notebook).</p>')


class View:
    """One playground, ready to display: `html()` is the notebook output (an iframe carrying the whole
    page), `document()` the stand-alone page, `save(path)` writes that page to a file that opens offline."""

    def __init__(self, state, search, height, width, title, lang, web=None):
        self.state = state
        self.search = search
        self.height, self.width, self.title, self.lang = height, width, title, lang
        self.id = uuid.uuid4().hex
        self._page = _page.page(web)
        self.state_text = state_json(state) if state else "{}"
        fragment = _page.share_fragment(self.state_text)
        if _page.fits_fragment(self.state_text, fragment):
            self.fragment, self._inline_state = "#" + fragment, None
        elif len(self.state_text.encode("utf-8")) <= _page.MAX_STATE_BYTES:
            # Too large for a share link: the page applies it through setState before it is ready.
            self.fragment, self._inline_state = "", self.state_text
        else:
            raise ValueError("the state is larger than the playground's 64 MiB limit")

    def document(self):
        return self._page.document(search=self.search, hash_=self.fragment, state_text=self._inline_state,
                                   lang=self.lang)

    def html(self):
        height = f"{self.height}px" if isinstance(self.height, (int, float)) else str(self.height)
        width = f"{self.width}px" if isinstance(self.width, (int, float)) else str(self.width)
        style = f"display:block;width:{width};height:{height};border:1px solid #555;border-radius:4px;background:#141419"
        return (f'<div class="attnplay-view" data-attnplay-view="{self.id}">'
                f'<iframe title="{html.escape(self.title, quote=True)}" data-attnplay-view="{self.id}" '
                f'sandbox="allow-scripts allow-downloads" allow="clipboard-write" '
                f'style="{html.escape(style, quote=True)}" srcdoc="{html.escape(self.document(), quote=True)}">'
                f"</iframe>{_UNTRUSTED_NOTE}</div>")

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.document())
        return path

    def _repr_html_(self):
        return self.html()

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self.html(), "text/plain": repr(self)}

    def __repr__(self):
        return f"<attnplay.View {self.title!r}: run in a notebook to see the playground, or .save('page.html')>"


def view(scenario=None, *, state=None, panels=None, lock=None, hide=None, origins=None, lang=None, embed=True,
         height=560, width="100%", title="Attention Playground", web=None, **keys):
    """A playground with the given scenario or state, not yet displayed (see show() for the arguments)."""
    if isinstance(panels, dict):  # the state's panel switches, not the embed list
        state = dict(state or {}, panels=panels)
        panels = None
    s = build_state(scenario, state, **keys)
    query = {}
    if embed:
        query["embed"] = "1"
        query["panels"] = _ids(panels, "panels") or ",".join(DEFAULT_PANELS)
    elif panels is not None:
        raise ValueError("panels= lays out the embedded view: leave embed=True")
    for name, value in (("lock", lock), ("hide", hide)):
        ids = _ids(value, name)
        if ids:
            query[name] = ids
    if origins:
        query["origins"] = ",".join([origins] if isinstance(origins, str) else list(origins))
    if lang is not None:
        if not _LANG.match(lang):
            raise ValueError(f"lang={lang!r} is not a language tag such as 'en' or 'hi-Latn'")
        s["lang"] = lang  # the page's language (a state key); also the document's lang attribute
    search = "?" + urlencode(query, safe=",:/") if query else ""
    return View(s, search, height, width, title, lang, web)


def show(scenario=None, **options):
    """Displays the playground in the notebook cell's output.

    show(X=…, W_q=…, W_k=…, W_v=…, tokens=[…]) or show(Q=…, K=…, V=…, tokens=[…]) or show(scenario_dict),
    plus any scenario key (heads, mask, key_padding, scale, temperature, …) and any state key
    (preset, d_k, selected_row, heatmap_scale, theme, …); show(preset="why-sqrt-dk") alone opens a preset.
    Layout: panels="heatmap,saturation" (embed panels, default controls,heatmap,pipeline), lock=…, hide=…,
    height=560 (pixels), width="100%", embed=False for the full page with its menu bar; lang="hi-Latn";
    lesson="why-sqrt-dk" (or {"id": …, "step": 3}) opens a lesson.
    Every call is an independent page; NumPy arrays and PyTorch tensors are accepted."""
    v = view(scenario, **options)
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        get_ipython = None
    if get_ipython is None or get_ipython() is None:
        raise RuntimeError("show() displays in a notebook; elsewhere use attnplay.view(...).save('page.html')")
    display(v)
