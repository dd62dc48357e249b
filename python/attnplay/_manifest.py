# _manifest.py — the app's own description (`attnplay manifest`): state keys, panels, lessons, limits, page events.
# An installed package carries a copy (setup.py puts it beside this module); a source checkout reads data/manifest.json.
import json
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_PLACES = (_HERE / "manifest.json", _HERE.parent.parent / "data" / "manifest.json")


def _load():
    for place in _PLACES:
        if place.is_file():
            with open(place, encoding="utf-8") as f:
                return json.load(f)
    raise ImportError("attnplay: manifest.json is missing (looked in " + ", ".join(str(p) for p in _PLACES) +
                      "); reinstall the package from a checkout (pip install ./python)")


MANIFEST = _load()
LIMITS = MANIFEST["limits"]
PANEL_IDS = tuple(p["id"] for p in MANIFEST["panels"])
LESSON_IDS = tuple(lesson["id"] for lesson in MANIFEST["lessons"])
