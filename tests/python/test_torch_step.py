"""One training step of Learn mode's model A, recomputed in PyTorch.

`attnplay train --dump-step FILE` writes the settings, model A's initial weights, the first batch, the
loss of the first forward pass and the weights after one optimiser step. This test rebuilds the same
model from its definition (src/core/train/train_model.h's header comment) in PyTorch, takes the gradient
with autograd and the update with torch.optim, and asserts the loss and every updated parameter agree.

PyTorch runs in float64 from the dumped float32 weights, so its numbers are the exact answer to rounding
far below the tolerance; the core runs in float32. Tolerance: 1e-5 absolute on the loss (≈ 2, i.e. a few
parts in a million) and on every parameter (entries of order 0.01–1; the core stores each in float32,
whose spacing near 1 is 1.2e-7). Measured differences are printed per configuration: at most 1.3e-7.

The binary: $ATTNPLAY_BIN, else build/native/attnplay under the repository root. Skipped only when torch
cannot be imported. Run: /usr/bin/python3 -m unittest -v test_torch_step (from tests/python).
"""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

try:
    import torch
    import torch.nn.functional as F

    TORCH_ERROR = None
except ImportError as exc:  # pragma: no cover - depends on the machine
    torch = None
    TORCH_ERROR = str(exc)

REPO = Path(__file__).resolve().parents[2]
TOLERANCE = 1e-5
RMS_EPSILON = 1e-6  # inside the square root: x / sqrt(mean(x^2) + eps), no gain

# name -> (attnplay train flags, whether the first step's gradient is clipped)
SMALL = ["--seq-len", "8", "--vocab", "8", "--batch", "4"]
CONFIGS = {
    "adam_scaled_1layer_2heads": (
        SMALL + ["--layers", "1", "--heads", "2", "--d-model", "16", "--d-k", "8", "--d-v", "8", "--scale", "on"],
        True,
    ),
    "adam_unscaled_1layer_2heads": (
        SMALL + ["--layers", "1", "--heads", "2", "--d-model", "16", "--d-k", "8", "--d-v", "8", "--scale", "off"],
        True,
    ),
    "adam_unscaled_2layers_mlp_sinusoidal_T0.5": (
        SMALL
        + ["--layers", "2", "--heads", "2", "--d-model", "16", "--d-k", "8", "--d-v", "4", "--mlp", "--d-mlp", "32"]
        + ["--scale", "off", "--positional", "sinusoidal", "--temperature", "0.5", "--lr", "0.01", "--seed", "7"],
        True,
    ),
    "adam_scaled_2layers_mlp_noclip_T2": (
        SMALL
        + ["--layers", "2", "--heads", "1", "--d-model", "12", "--d-k", "6", "--d-v", "6", "--mlp", "--d-mlp", "24"]
        + ["--scale", "on", "--temperature", "2", "--clip", "0", "--lr", "0.003", "--seed", "3"],
        False,
    ),
    "adam_unscaled_dk32_peaky": (
        SMALL + ["--layers", "1", "--heads", "1", "--d-model", "32", "--d-k", "32", "--d-v", "8", "--scale", "off"]
        + ["--seed", "11"],
        True,
    ),
    "sgd_scaled_lookup_nomask_nonorm_clip": (
        ["--task", "lookup", "--seq-len", "8", "--vocab", "9", "--batch", "6", "--mask", "none", "--norm", "none"]
        + ["--layers", "1", "--heads", "1", "--d-model", "12", "--d-k", "6", "--d-v", "6", "--scale", "on"]
        + ["--optimizer", "sgd", "--lr", "0.1", "--clip", "0.5", "--seed", "5"],
        True,
    ),
    "sgd_unscaled_copy_2layers_mlp_noclip": (
        ["--task", "copy", "--seq-len", "8", "--vocab", "6", "--batch", "4"]
        + ["--layers", "2", "--heads", "2", "--d-model", "16", "--d-k", "4", "--d-v", "4", "--mlp", "--d-mlp", "16"]
        + ["--scale", "off", "--optimizer", "sgd", "--lr", "0.5", "--clip", "0", "--seed", "9"],
        False,
    ),
    "sgd_scaled_induction_small_init": (
        SMALL + ["--layers", "2", "--heads", "2", "--d-model", "16", "--d-k", "8", "--d-v", "8", "--scale", "on"]
        + ["--init", "small", "--optimizer", "sgd", "--lr", "1", "--clip", "0.05", "--seed", "2"],
        True,
    ),
}


def attnplay_binary():
    return os.environ.get("ATTNPLAY_BIN") or str(REPO / "build" / "native" / "attnplay")


def dump_step(flags):
    """Runs one step of the CLI and returns the parsed --dump-step JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "step.json")
        cmd = [attnplay_binary(), "train", *flags, "--steps", "1", "--quiet", "--dump-step", path]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)} exited {run.returncode}: {run.stderr.strip()}")
        with open(path, encoding="utf-8") as f:
            return json.load(f)


def as_tensor(entry):
    rows, cols = entry["shape"]
    return torch.tensor(entry["values"], dtype=torch.float64).reshape(rows, cols)


def expected_names(s):
    names = ["embed"] + (["pos"] if s["positional"] == "learned" else [])
    for layer in range(s["layers"]):
        names += [f"L{layer}.{w}" for w in ("W_q", "W_k", "W_v", "W_o")]
        if s["mlp"]:
            names += [f"L{layer}.{w}" for w in ("W_1", "b_1", "W_2", "b_2")]
    return sorted(names + ["unembed", "unembed.b"])


def sinusoidal(n, d):
    """Vaswani et al.: PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(the same angle)."""
    pos = torch.arange(n, dtype=torch.float64)[:, None]
    col = torch.arange(d)
    angle = pos / torch.pow(10000.0, (col - col % 2).to(torch.float64) / d)
    return torch.where(col % 2 == 0, torch.sin(angle), torch.cos(angle))


def rms(x, on):
    return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + RMS_EPSILON) if on else x


def logit_factor(s):
    return (1.0 / math.sqrt(s["d_k"]) if s["scale"] else 1.0) / s["temperature"]


def forward_loss(p, s, tokens, targets, alpha):
    """Mean cross-entropy over the scored positions (target >= 0) of the attention-only transformer."""
    batch, n = tokens.shape
    heads, dk, dv, norm = s["heads"], s["d_k"], s["d_v"], s["norm"] == "rms"
    x = p["embed"][tokens] + (p["pos"] if s["positional"] == "learned" else sinusoidal(n, s["d_model"]))
    future = torch.ones(n, n, dtype=torch.bool).triu(1)
    for layer in range(s["layers"]):
        w = lambda name: p[f"L{layer}.{name}"]  # noqa: E731
        u = rms(x, norm)
        q = (u @ w("W_q")).view(batch, n, heads, dk).transpose(1, 2)
        k = (u @ w("W_k")).view(batch, n, heads, dk).transpose(1, 2)
        v = (u @ w("W_v")).view(batch, n, heads, dv).transpose(1, 2)
        scores = alpha * (q @ k.transpose(-1, -2))
        if s["mask"] == "causal":
            scores = scores.masked_fill(future, float("-inf"))
        z = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(batch, n, heads * dv)
        x = x + z @ w("W_o")
        if s["mlp"]:
            hidden = F.gelu(rms(x, norm) @ w("W_1") + w("b_1"), approximate="tanh")
            x = x + hidden @ w("W_2") + w("b_2")
    logits = rms(x, norm) @ p["unembed"] + p["unembed.b"]
    return F.cross_entropy(logits.reshape(batch * n, -1), targets.reshape(-1), ignore_index=-1)


def torch_step(dump, alpha=None, lr=None):
    """The loss, the gradient's global norm and the parameters after one torch.optim step."""
    s = dump["settings"]
    params = {name: as_tensor(e).requires_grad_(True) for name, e in dump["initial"].items()}
    tokens = torch.tensor(dump["batch"]["tokens"], dtype=torch.long)
    targets = torch.tensor(dump["batch"]["targets"], dtype=torch.long)
    loss = forward_loss(params, s, tokens, targets, logit_factor(s) if alpha is None else alpha)
    loss.backward()
    grads = [t.grad for t in params.values()]
    norm = math.sqrt(sum(float(g.pow(2).sum()) for g in grads))
    # The core's clipping: above the clip, the gradient is scaled to exactly the clip norm (torch's
    # clip_grad_norm_ divides by norm + 1e-6 instead, a 1e-6 relative difference; we follow the core).
    if s["clip"] > 0 and norm > s["clip"]:
        for g in grads:
            g.mul_(s["clip"] / norm)
    lr = s["lr"] if lr is None else lr
    if s["optimizer"] == "adam":
        opt = torch.optim.Adam(params.values(), lr=lr, betas=(s["beta1"], s["beta2"]), eps=s["epsilon"])
    else:
        opt = torch.optim.SGD(params.values(), lr=lr)
    opt.step()
    return float(loss), norm, {name: t.detach() for name, t in params.items()}


def largest_difference(dump, updated):
    worst, where = 0.0, ""
    for name, t in updated.items():
        diff = float((t - as_tensor(dump["updated"][name])).abs().max())
        if diff > worst:
            worst, where = diff, name
    return worst, where


@unittest.skipIf(torch is None, f"PyTorch cannot be imported ({TORCH_ERROR}); the torch step check needs it")
class TorchStepTest(unittest.TestCase):
    dumps = {}

    @classmethod
    def setUpClass(cls):
        binary = attnplay_binary()
        if not os.access(binary, os.X_OK):
            raise AssertionError(f"no attnplay binary at {binary}: build it or set ATTNPLAY_BIN")
        torch.set_num_threads(1)
        cls.dumps = {name: dump_step(flags) for name, (flags, _) in CONFIGS.items()}

    def test_step_matches(self):
        print(file=sys.stderr)
        for name, (_, clipped) in CONFIGS.items():
            with self.subTest(config=name):
                dump = self.dumps[name]
                s = dump["settings"]
                self.assertEqual(sorted(dump["initial"]), expected_names(s))
                self.assertEqual(sorted(dump["updated"]), expected_names(s))
                loss, norm, updated = torch_step(dump)
                self.assertEqual(norm > s["clip"] > 0, clipped, "clipping is not as this configuration means it")
                loss_diff = abs(loss - dump["loss"])
                param_diff, where = largest_difference(dump, updated)
                moved = max(float((updated[n] - as_tensor(dump["initial"][n])).abs().max()) for n in updated)
                print(f"  {name}: loss {dump['loss']:.7f} |diff| {loss_diff:.2e}; grad norm {norm:.5f} "
                      f"rel diff {abs(norm - dump['grad_norm']) / norm:.1e}; largest update {moved:.2e}, "
                      f"largest parameter |diff| {param_diff:.2e} ({where})", file=sys.stderr)
                self.assertLess(loss_diff, TOLERANCE)
                self.assertLess(abs(norm - dump["grad_norm"]), TOLERANCE * norm)
                self.assertLess(param_diff, TOLERANCE, f"largest difference in {where}")
                self.assertGreater(moved, 50 * TOLERANCE, "the step must move the weights well beyond the tolerance")

    def test_detects_a_wrong_scale_or_rate(self):
        # The comparison is not vacuous: the other scaling, or a learning rate 1 % off, is caught.
        dump = self.dumps["adam_scaled_1layer_2heads"]
        s = dump["settings"]
        loss, _, _ = torch_step(dump, alpha=1.0 / s["temperature"])
        self.assertGreater(abs(loss - dump["loss"]), 100 * TOLERANCE)
        _, _, updated = torch_step(dump, lr=s["lr"] * 1.01)
        self.assertGreater(largest_difference(dump, updated)[0], TOLERANCE)
        dump = self.dumps["adam_unscaled_1layer_2heads"]
        s = dump["settings"]
        loss, _, _ = torch_step(dump, alpha=1.0 / math.sqrt(s["d_k"]) / s["temperature"])
        self.assertGreater(abs(loss - dump["loss"]), 100 * TOLERANCE)


if __name__ == "__main__":
    unittest.main()
