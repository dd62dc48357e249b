# install_check.py — `pip install --no-build-isolation ./python` works offline (--no-index) in a fresh venv
# with Debian's python3-venv/pip/setuptools, puts the built page inside the package, and the installed
# package then builds views without ATTNPLAY_WEB and without the source tree; registered as a Jupyter kernel (the
# README's command), a notebook executed by nbconvert imports it.
# Usage: /usr/bin/python3 tests/python/install_check.py WORK_DIR SITE_DIR
import gzip
import base64
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run(cmd, **kw):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return p.stdout


def main():
    work, site = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    if not (site / "attnplay.wasm").is_file():
        sys.exit(f"the web build is missing: {site}/attnplay.wasm (cmake --preset web && cmake --build --preset web)")
    shutil.rmtree(work, ignore_errors=True)
    # A checkout's layout (python/ beside build/web) without touching the real one's python/ folder.
    tree = work / "checkout"
    shutil.copytree(REPO / "python", tree / "python",
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "web", "__pycache__"))
    (tree / "build").mkdir(parents=True)
    (tree / "build" / "web").symlink_to(site)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATTNPLAY_", "PYTHON", "PIP_"))}
    env["PIP_NO_INDEX"] = "1"  # nothing from the network, whatever pip's configuration says
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    venv = work / "venv"
    run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv], env=env)
    py = venv / "bin" / "python"
    run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", "./python"], cwd=tree, env=env)
    shutil.rmtree(tree)  # the installed package must not need the checkout any more

    probe = r"""
import attnplay, json, sys
web = attnplay.find_web()
v = attnplay.view(Q=[[1.0, 0.0], [0.0, 1.0]], K=[[1.0, 0.0], [0.0, 1.0]], V=[[1.0, 2.0], [3.0, 4.0]])
print(json.dumps({"file": attnplay.__file__, "web": str(web), "doc": v.document()}))
"""
    out = run([py, "-c", probe], cwd=work, env=env)
    import json
    got = json.loads(out.strip().splitlines()[-1])
    site_packages = str(venv)
    if not got["file"].startswith(site_packages):
        sys.exit(f"attnplay was imported from {got['file']}, not from the venv")
    if not got["web"].startswith(site_packages) or not got["web"].endswith("attnplay/web"):
        sys.exit(f"the page was found at {got['web']}, not inside the installed package")
    m = re.search(r'id="attnplay-inline-wasm"[^>]*>([^<]+)<', got["doc"])
    if not m or gzip.decompress(base64.b64decode(m.group(1))) != (site / "attnplay.wasm").read_bytes():
        sys.exit("the installed package's view does not carry the built attnplay.wasm")
    print(f"installed offline into {venv}; the page is at {got['web']}")
    check_kernel(work, venv, py, env)


# Jupyter runs notebooks with its default kernel, the system Python, which cannot import a package installed into
# a venv: the README's one command registers the venv as a kernel, and a notebook run with it imports attnplay.
def check_kernel(work, venv, py, env):
    import json
    prefix = work / "jupyter"
    run([py, "-m", "ipykernel", "install", "--prefix", prefix, "--name", "attnplay", "--display-name",
         "Python (attnplay)"], cwd=work, env=env)
    notebook = work / "uses-attnplay.ipynb"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None,
        "outputs": [], "source": ["import attnplay\n", "print('attnplay from', attnplay.__file__)"]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    kernel_env = dict(env, JUPYTER_PATH=str(prefix / "share" / "jupyter"))
    run(["/usr/bin/jupyter", "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.kernel_name=attnplay",
         "--output", "ran.ipynb", notebook], cwd=work, env=kernel_env)
    ran = json.loads((work / "ran.ipynb").read_text())
    said = "".join("".join(o.get("text", "")) for o in ran["cells"][0]["outputs"])
    if "attnplay from " + str(venv) not in said:
        sys.exit(f"the notebook run with the attnplay kernel did not import the venv's package: {said!r}")
    print("a notebook run with the registered kernel imports attnplay from the venv")


if __name__ == "__main__":
    main()
