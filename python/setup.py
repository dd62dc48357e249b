# setup.py — copies the built page (index.html, attnplay.js, attnplay.wasm, …) into attnplay/web of the
# package being built, from $ATTNPLAY_WEB or ../build/web, so an installed package shows it offline.
import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PAGE_FILES = ("index.html", "attnplay.js", "attnplay.wasm", "attnplay-api.js", "attnplay-embed.js", "attnplay-lms.js", "attnplay-a11y.js", "style.css")
# The module's second half (a split build: scripts/split_wasm.mjs) and the catalog files the page fetches
# (scripts/split_catalog.mjs).
OPTIONAL_FILES = ("attnplay.deferred.wasm", "strings/hi-Latn.json", "strings/en.lessons.json", "strings/en.panels.json",
                  "strings/hi-Latn.lessons.json", "strings/hi-Latn.panels.json")


class BuildWithPage(build_py):
    def run(self):
        super().run()
        source = Path(os.environ.get("ATTNPLAY_WEB") or HERE.parent / "build" / "web")
        target = Path(self.build_lib) / "attnplay" / "web"
        if not all((source / f).is_file() for f in PAGE_FILES):
            self.announce(f"attnplay: no built page in {source}; attnplay.show() will need ATTNPLAY_WEB at run time "
                          "(build it with `cmake --preset web && cmake --build --preset web`)", level=3)
            return
        target.mkdir(parents=True, exist_ok=True)
        for f in PAGE_FILES + OPTIONAL_FILES:
            if (source / f).is_file():
                (target / f).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source / f, target / f)


setup(cmdclass={"build_py": BuildWithPage})
