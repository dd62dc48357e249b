# _scenario.py — scenarios and states as the playground's JSON: NumPy arrays (or anything array-like)
# become nested lists of float32-exact numbers, and bad input is refused here with a message naming it.
import json
import math

import numpy as np

from ._manifest import MANIFEST

# The CLI's scenario keys (src/core/json_codec.cpp, the manifest's "scenario_keys"): the matrices make a
# scenario of one's own, the rest qualify one.
MATRIX_KEYS = tuple(k["name"] for k in MANIFEST["scenario_keys"] if k["matrix"])
SCENARIO_KEYS = tuple(k["name"] for k in MANIFEST["scenario_keys"])
# The page's state keys: the app's own schema (`attnplay schema`, the manifest's "keys", checked against the binary
# by tests/cli/manifest.sh); "scenario" carries a scenario of one's own.
STATE_SCHEMA = MANIFEST["keys"]
STATE_KEYS = tuple(k for k, v in STATE_SCHEMA.items() if not v.get("read_only"))

_FLOAT32_MAX = float(np.finfo(np.float32).max)


def as_array(value, name):
    """A NumPy array of the value; PyTorch tensors are detached and moved to the CPU first."""
    if hasattr(value, "detach") and hasattr(value, "cpu"):
        value = value.detach().cpu().numpy()
    try:
        return np.asarray(value)
    except Exception as e:  # ragged lists and the like
        raise ValueError(f"{name} is not a rectangular array: {e}") from None


def _float32_texts(values, name):
    """Text of each value, exact for the float32 the core computes in: 7 digits where they read back
    to the same float32, 9 (always enough) otherwise."""
    if values.dtype == bool or not np.issubdtype(values.dtype, np.number) or np.iscomplexobj(values):
        raise ValueError(f"{name} must hold real numbers, not {values.dtype}")
    wide = values.astype(np.float64)
    bad = ~np.isfinite(wide)
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name}{list(at)} is {wide[at]}: every entry must be a finite number")
    big = np.abs(wide) > _FLOAT32_MAX
    if big.any():
        at = tuple(int(i) for i in np.argwhere(big)[0])
        raise ValueError(f"{name}{list(at)} = {wide[at]:g} is outside the float32 range the playground computes in")
    narrow = wide.astype(np.float32)
    values = narrow.ravel().tolist()  # Python floats holding the float32 values exactly
    short = ["%.7g" % v for v in values]
    exact = (np.array(short, dtype=np.float32) == narrow.ravel()).tolist()
    texts = [s if ok else "%.9g" % v for s, ok, v in zip(short, exact, values)]
    return np.array(texts, dtype=object).reshape(narrow.shape)


def matrix_json(value, name):
    """JSON text of a 2-D matrix (rows of numbers)."""
    a = as_array(value, name)
    if a.ndim != 2:
        raise ValueError(f"{name} must be a 2-D matrix, got shape {a.shape}")
    if a.shape[0] == 0 or a.shape[1] == 0:
        raise ValueError(f"{name} must not be empty, got shape {a.shape}")
    texts = _float32_texts(a, name)
    return "[" + ",".join("[" + ",".join(row) + "]" for row in texts.tolist()) + "]"


def vector_json(value, name):
    a = as_array(value, name)
    if a.ndim != 1 or a.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 1-D vector, got shape {a.shape}")
    return "[" + ",".join(_float32_texts(a, name).tolist()) + "]"


def _flags_json(value, name, ndim):
    a = as_array(value, name)
    if a.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got shape {a.shape}")
    if a.dtype != bool:
        if not np.issubdtype(a.dtype, np.number) or not np.isin(a, (0, 1)).all():
            raise ValueError(f"{name} must hold booleans or 0/1")
    flags = a.astype(bool)
    if ndim == 1:
        return json.dumps([bool(x) for x in flags])
    return json.dumps([[int(x) for x in row] for row in flags])


def _strings_json(value, name):
    if isinstance(value, str) or not all(isinstance(t, str) for t in value):
        raise ValueError(f"{name} must be a list of strings")
    return json.dumps(list(value), ensure_ascii=False)


def _scalar_json(value, name):
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value}")
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name} cannot be written as JSON: {e}") from None


def _rows(scenario, *keys):
    for k in keys:
        if scenario.get(k) is not None:
            shape = as_array(scenario[k], k).shape
            return shape[0] if shape else None
    return None


def _check_labels(scenario):
    """Labels that do not fit would silently name the wrong rows: one token per query row, one
    memory token per key row."""
    for key, rows, what in (("tokens", _rows(scenario, "Q", "X"), "query rows"),
                            ("memory_tokens", _rows(scenario, "K", "memory", "X"), "key rows")):
        labels = scenario.get(key)
        if labels is not None and rows is not None and not isinstance(labels, str) and len(labels) != rows:
            raise ValueError(f"{key} has {len(labels)} entries for {rows} {what}")


def scenario_json(scenario):
    """JSON text of a CLI scenario; unknown keys and malformed entries raise ValueError."""
    if not isinstance(scenario, dict):
        raise ValueError(f"a scenario must be a dict, got {type(scenario).__name__}")
    unknown = [k for k in scenario if k not in SCENARIO_KEYS]
    if unknown:
        raise ValueError(f"unknown scenario key {unknown[0]!r}; the keys are: {', '.join(SCENARIO_KEYS)}")
    if "X" not in scenario and "Q" not in scenario:
        raise ValueError("a scenario needs X (n × d_model, with optional W_q, W_k, W_v) or Q, K and V")
    _check_labels(scenario)
    parts = []
    for key, value in scenario.items():
        if value is None:
            continue
        if key in MATRIX_KEYS:
            text = matrix_json(value, key)
        elif key == "v_a":
            text = vector_json(value, key)
        elif key == "key_padding":
            text = _flags_json(value, key, 1)
        elif key == "mask_cells":
            text = _flags_json(value, key, 2)
        elif key in ("tokens", "memory_tokens"):
            text = _strings_json(value, key)
        else:
            text = _scalar_json(value, key)
        parts.append(json.dumps(key) + ":" + text)
    return "{" + ",".join(parts) + "}"


def state_json(state):
    """JSON text of a (partial) page state; its "scenario", if any, is written as by scenario_json."""
    unknown = [k for k in state if k not in STATE_KEYS]
    if unknown:
        raise ValueError(f"unknown state key {unknown[0]!r}; the keys are: {', '.join(STATE_KEYS)}")
    parts = []
    for key, value in state.items():
        if key == "scenario":
            text = scenario_json(value)
        elif key == "embeddings":
            text = matrix_json(value, key)
        elif key == "key_padding":
            text = _flags_json(value, key, 1)
        elif key == "mask_cells":
            text = _flags_json(value, key, 2)
        else:  # numbers, strings and the small objects "panels", "cross" and "lesson"
            text = _scalar_json(value, key)
        parts.append(json.dumps(key) + ":" + text)
    return "{" + ",".join(parts) + "}"
