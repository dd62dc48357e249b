# setup.py — copies the built page (index.html, attnplay.js, attnplay.wasm, …) into attnplay/web of the
# package being built, from $ATTNPLAY_WEB or ../build/web, so an installed package shows it offline.
import json
import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# The page's files are listed once, by the web build, in site-manifest.json (scripts/site_manifest.mjs).
MANIFEST = "site-manifest.json"


def page_files(source):
    """The files site-manifest.json lists (and the list itself), or None when there is no built page."""
    try:
        listed = json.loads((source / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    files = [f["path"] for f in listed] + [MANIFEST]
    return files if all((source / f).is_file() for f in files) else None


def copy_manifest(source, target):
    """The app's description (data/manifest.json of the checkout, else the built page's copy) into the package:
    the package reads its state keys, limits and ids from it (attnplay/_manifest.py)."""
    for manifest in (HERE.parent / "data" / "manifest.json", source / "manifest.json"):
        if manifest.is_file():
            shutil.copy2(manifest, target / "manifest.json")
            return True
    return False


class BuildWithPage(build_py):
    def run(self):
        super().run()
        source = Path(os.environ.get("ATTNPLAY_WEB") or HERE.parent / "build" / "web")
        if not copy_manifest(source, Path(self.build_lib) / "attnplay"):
            raise RuntimeError(f"attnplay: no manifest.json in {HERE.parent / 'data'} or {source}: build from a checkout")
        target = Path(self.build_lib) / "attnplay" / "web"
        files = page_files(source)
        if files is None:
            self.announce(f"attnplay: no built page in {source}; attnplay.show() will need ATTNPLAY_WEB at run time "
                          "(build it with `cmake --preset web && cmake --build --preset web`)", level=3)
            return
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            (target / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / f, target / f)


setup(cmdclass={"build_py": BuildWithPage})
