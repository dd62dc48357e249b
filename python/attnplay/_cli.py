# _cli.py — attnplay.compute(): the scenario goes to the `attnplay compute` binary (the same C++ core as
# the page) on stdin, and its result JSON comes back as NumPy arrays.
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np

from ._scenario import scenario_json

# Where a source checkout builds the binary (cmake --preset native), relative to python/attnplay/.
_REPO_CLI = Path(__file__).resolve().parent.parent.parent / "build" / "native" / "attnplay"


class AttnplayError(Exception):
    """The playground's core refused the input, or could not be run."""


class CLIError(AttnplayError):
    """`attnplay compute` exited with an error; `message` is its one-line reason."""

    def __init__(self, message, returncode):
        super().__init__(message)
        self.message = message
        self.returncode = returncode


def find_cli():
    """The `attnplay` binary: $ATTNPLAY_CLI, else `attnplay` on PATH, else build/native/attnplay of the
    source checkout this package was imported from."""
    env = os.environ.get("ATTNPLAY_CLI")
    if env:
        p = Path(env)
        if not (p.is_file() and os.access(p, os.X_OK)):
            raise AttnplayError(f"ATTNPLAY_CLI={env} is not an executable file")
        return str(p)
    on_path = shutil.which("attnplay")
    if on_path:
        return on_path
    if _REPO_CLI.is_file() and os.access(_REPO_CLI, os.X_OK):
        return str(_REPO_CLI)
    raise AttnplayError("the attnplay command-line tool was not found: set ATTNPLAY_CLI to its path, put it on "
                        "PATH (cmake --install build/native), or build it with "
                        "`cmake --preset native && cmake --build --preset native --target attnplay`")


_MATRIX_RESULTS = ("X", "Q", "K", "V", "scores", "logits", "weights", "output", "concat")
_VECTOR_RESULTS = ("entropy", "max_weight", "jacobian_norm")


def _matrix(rows, missing):
    """A float64 array; null entries (masked logits, or non-finite values the CLI warns about) become `missing`."""
    return np.array([[missing if v is None else v for v in row] for row in rows], dtype=np.float64).reshape(
        len(rows), len(rows[0]) if rows else 0)


def _arrays(part):
    out = {}
    for key, value in part.items():
        if key in _MATRIX_RESULTS and isinstance(value, list):
            out[key] = _matrix(value, -np.inf if key == "logits" else np.nan)
        elif key in _VECTOR_RESULTS and isinstance(value, list):
            out[key] = np.array([np.nan if v is None else v for v in value], dtype=np.float64)
        elif key == "fully_masked_rows":
            out[key] = np.array(value, dtype=np.int64)
        elif key == "heads" and isinstance(value, list):
            out[key] = [_arrays(h) for h in value]
        else:
            out[key] = value
    return out


def compute(scenario, cli=None, timeout=600):
    """Runs the playground's core on a scenario (the CLI's schema: X with optional W_q, W_k, W_v, W_o, or
    Q, K, V; score, scale, temperature, mask, key_padding, heads, tokens, …; NumPy arrays allowed) and
    returns its result: a dict with the CLI's keys (`Q`, `K`, `V`, `scores`, `logits` (masked = -inf),
    `weights`, `output`, `entropy`, `max_weight`, `jacobian_norm`, `heads` (a list of such dicts when
    heads > 1), `warnings`, …) as float64 NumPy arrays of the core's float32 numbers.

    Raises ValueError for malformed input found before the core runs, CLIError for what the core
    refuses (with its message), AttnplayError when the binary cannot be found or run."""
    text = scenario_json(scenario)
    binary = cli or find_cli()
    try:
        proc = subprocess.run([binary, "compute", "--compact", "-"], input=text.encode("utf-8"),
                              capture_output=True, timeout=timeout, check=False)
    except OSError as e:
        raise AttnplayError(f"could not run {binary}: {e}") from None
    except subprocess.TimeoutExpired:
        raise AttnplayError(f"{binary} compute did not finish within {timeout} s") from None
    if proc.returncode != 0:
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = lines[0] if lines else f"exited with status {proc.returncode}"
        raise CLIError(reason[len("error: "):] if reason.startswith("error: ") else reason, proc.returncode)
    try:
        result = json.loads(proc.stdout)
    except ValueError as e:
        raise AttnplayError(f"{binary} compute printed something that is not JSON: {e}") from None
    if not isinstance(result, dict):
        raise AttnplayError(f"{binary} compute printed a {type(result).__name__}, not a result object")
    return _arrays(result)
