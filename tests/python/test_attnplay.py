# test_attnplay.py — the Python package: compute() against the CLI and first principles, from_torch()
# against PyTorch's own weights, and view()/show() outputs that carry the whole page and fetch nothing.
# Run: ATTNPLAY_CLI=build/native/attnplay ATTNPLAY_WEB=build/web PYTHONPATH=python /usr/bin/python3 -m unittest tests/python/test_attnplay.py
import base64
import gzip
import hashlib
import html
import html.parser
import json
import os
import re
import subprocess
import tempfile
import unittest
import zlib
from pathlib import Path

import numpy as np

import attnplay

try:
    import torch
except ImportError:  # the from_torch tests then fail loudly below, never skip
    torch = None

WEB = Path(os.environ.get("ATTNPLAY_WEB", Path(__file__).resolve().parents[2] / "build" / "web"))


def softmax(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def reference_attention(Q, K, V):
    """softmax(QKᵀ/√d_k)·V in double precision from the float32 inputs the core sees."""
    Q, K, V = (np.asarray(m, np.float32).astype(np.float64) for m in (Q, K, V))
    w = softmax(Q @ K.T / np.sqrt(Q.shape[1]))
    return w, w @ V


def rng_matrices(seed, *shapes):
    r = np.random.default_rng(seed)
    return [r.standard_normal(s) for s in shapes]


class ComputeTests(unittest.TestCase):
    def test_weights_and_output_equal_first_principles(self):
        X, W_q, W_k, W_v = rng_matrices(1, (5, 6), (6, 4), (6, 4), (6, 3))
        r = attnplay.compute({"X": X, "W_q": W_q, "W_k": W_k, "W_v": W_v})
        f32 = lambda m: np.asarray(m, np.float32).astype(np.float64)
        Q, K, V = f32(X) @ f32(W_q), f32(X) @ f32(W_k), f32(X) @ f32(W_v)
        w, out = reference_attention(Q, K, V)
        self.assertEqual(r["weights"].shape, (5, 5))
        np.testing.assert_allclose(r["weights"], w, atol=1e-5)
        np.testing.assert_allclose(r["output"], out, atol=1e-4)
        np.testing.assert_allclose(r["weights"].sum(axis=1), 1, atol=1e-5)
        self.assertEqual(r["d_k"], 4)
        self.assertEqual(r["entropy"].shape, (5,))

    def test_same_numbers_as_the_cli_run_by_hand(self):
        Q, K, V = rng_matrices(2, (4, 8), (6, 8), (6, 2))
        scenario = {"Q": Q, "K": K, "V": V, "temperature": 0.7, "tokens": ["a", "b", "c", "d"]}
        mine = attnplay.compute(scenario)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in scenario.items()}, f)
        try:
            cli = json.loads(subprocess.run([attnplay.find_cli(), "compute", f.name], capture_output=True,
                                            check=True).stdout)
        finally:
            os.unlink(f.name)
        for key in ("Q", "K", "V", "scores", "logits", "weights", "output", "entropy", "max_weight", "jacobian_norm"):
            np.testing.assert_array_equal(mine[key], np.array(cli[key], dtype=np.float64), err_msg=key)
        self.assertEqual(mine["warnings"], cli["warnings"])

    def test_heads_and_masks(self):
        X, = rng_matrices(3, (4, 8))
        r = attnplay.compute({"X": X, "heads": 2, "mask": "causal", "key_padding": [False, False, True, False]})
        self.assertEqual(len(r["heads"]), 2)
        for h in range(2):
            w = r["heads"][h]["weights"]
            self.assertEqual(w.shape, (4, 4))
            self.assertTrue(np.all(w[np.triu_indices(4, 1)] == 0), "causal: no weight on later keys")
            self.assertTrue(np.all(w[:, 2] == 0), "padded key 2 gets no weight")
            self.assertTrue(np.all(np.isneginf(r["heads"][h]["logits"][np.triu_indices(4, 1)])))
            Xh = np.asarray(X, np.float32).astype(np.float64)[:, 4 * h:4 * h + 4]
            logits = Xh @ Xh.T / 2.0
            logits[np.triu_indices(4, 1)] = -np.inf
            logits[:, 2] = -np.inf
            np.testing.assert_allclose(w, softmax(logits), atol=1e-5)

    def test_core_errors_are_clear_exceptions(self):
        with self.assertRaises(attnplay.CLIError) as cm:
            attnplay.compute({"X": np.ones((3, 4)), "heads": 3})
        self.assertIn("heads", str(cm.exception))
        self.assertNotIn("error:", str(cm.exception))
        self.assertEqual(cm.exception.returncode, 1)
        with self.assertRaises(attnplay.CLIError) as cm:
            attnplay.compute({"Q": np.ones((2, 3)), "K": np.ones((2, 4)), "V": np.ones((2, 4))})
        self.assertRegex(str(cm.exception), r"\d")  # names the mismatched widths

    def test_bad_input_is_refused_before_the_core(self):
        X = np.ones((2, 3))
        X[1, 2] = np.nan
        with self.assertRaisesRegex(ValueError, r"X\[1, 2\].*finite"):
            attnplay.compute({"X": X})
        with self.assertRaisesRegex(ValueError, "2-D"):
            attnplay.compute({"X": np.ones(3)})
        with self.assertRaisesRegex(ValueError, "unknown scenario key 'W_x'"):
            attnplay.compute({"X": np.ones((2, 2)), "W_x": np.ones((2, 2))})
        with self.assertRaisesRegex(ValueError, "float32 range"):
            attnplay.compute({"X": np.array([[1.0, 1e39]])})
        with self.assertRaisesRegex(ValueError, "needs X"):
            attnplay.compute({"tokens": ["a"]})
        with self.assertRaisesRegex(ValueError, "tokens has 3 entries for 2 query rows"):
            attnplay.compute({"X": np.ones((2, 2)), "tokens": ["a", "b", "c"]})

    def test_missing_binary_is_reported(self):
        old = os.environ.get("ATTNPLAY_CLI")
        os.environ["ATTNPLAY_CLI"] = "/nonexistent/attnplay"
        try:
            with self.assertRaisesRegex(attnplay.AttnplayError, "ATTNPLAY_CLI=/nonexistent/attnplay"):
                attnplay.compute({"X": np.ones((2, 2))})
        finally:
            if old is None:
                del os.environ["ATTNPLAY_CLI"]
            else:
                os.environ["ATTNPLAY_CLI"] = old


class FromTorchTests(unittest.TestCase):
    def setUp(self):
        self.assertIsNotNone(torch, "PyTorch is not installed (Debian: python3-torch)")
        torch.manual_seed(0)

    def assert_weights_equal_pytorch(self, captured, expected):
        self.assertEqual(captured.shape, tuple(expected.shape))
        np.testing.assert_allclose(captured, expected.detach().double().numpy(), atol=1e-5, rtol=0)

    def test_multihead_attention_weights_equal_pytorch(self):
        mha = torch.nn.MultiheadAttention(16, 4).eval()
        x = torch.randn(6, 16)
        with torch.no_grad():
            out, expected = mha(x, x, x, need_weights=True, average_attn_weights=False)
        cap = attnplay.from_torch(mha, x, tokens=list("abcdef"))
        self.assertEqual(cap.heads, 4)
        self.assert_weights_equal_pytorch(cap.weights, expected)
        self.assert_weights_equal_pytorch(attnplay.from_torch(mha, x.numpy()).weights, expected)  # NumPy input
        self.assertEqual(cap.per_head[3]["Q"].shape, (6, 4))
        # The playground's core, given the captured Q, K, V, computes the same heads and output.
        r = attnplay.compute(cap.scenario)
        for h in range(4):
            np.testing.assert_allclose(r["heads"][h]["weights"], expected[h].double().numpy(), atol=1e-5, rtol=0)
        np.testing.assert_allclose(r["output"] + mha.out_proj.bias.detach().double().numpy(),
                                   out.double().numpy(), atol=1e-5)

    def test_batched_with_masks(self):
        mha = torch.nn.MultiheadAttention(12, 3, batch_first=True).eval()
        x = torch.randn(2, 5, 12)
        padding = torch.tensor([[False] * 5, [False, False, False, True, True]])
        causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)
        with torch.no_grad():
            _, expected = mha(x, x, x, key_padding_mask=padding, attn_mask=causal, need_weights=True,
                              average_attn_weights=False)
        cap = attnplay.from_torch(mha, x, batch=1, key_padding_mask=padding, attn_mask=causal)
        self.assert_weights_equal_pytorch(cap.weights, expected[1])
        self.assertEqual(cap.scenario["key_padding"].tolist(), [False, False, False, True, True])
        r = attnplay.compute(cap.scenario)
        for h in range(3):
            np.testing.assert_allclose(r["heads"][h]["weights"], expected[1, h].double().numpy(), atol=1e-5, rtol=0)

    def test_cross_attention_with_other_key_and_value_widths(self):
        mha = torch.nn.MultiheadAttention(8, 2, kdim=5, vdim=7).eval()
        q, k, v = torch.randn(3, 8), torch.randn(4, 5), torch.randn(4, 7)
        with torch.no_grad():
            _, expected = mha(q, k, v, need_weights=True, average_attn_weights=False)
        cap = attnplay.from_torch(mha, q, key=k, value=v, tokens=["x", "y", "z"], key_tokens=["k1", "k2", "k3", "k4"])
        self.assert_weights_equal_pytorch(cap.weights, expected)
        self.assertEqual(cap.scenario["memory_tokens"], ["k1", "k2", "k3", "k4"])

    def test_attention_inside_a_model(self):
        layer = torch.nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, batch_first=True).eval()
        x = torch.randn(1, 7, 16)
        with torch.no_grad():
            _, expected = layer.self_attn(x, x, x, need_weights=True, average_attn_weights=False)
        cap = attnplay.from_torch(layer, x, attention="self_attn")
        self.assert_weights_equal_pytorch(cap.weights, expected[0])
        with torch.no_grad():  # as in most notebooks: the fused fast path must still not hide the module
            cap = attnplay.from_torch(layer, x, attention=layer.self_attn)
        self.assert_weights_equal_pytorch(cap.weights, expected[0])
        for p in layer.parameters():
            p.requires_grad_(False)
        with self.assertRaisesRegex(ValueError, "fast path"):
            attnplay.from_torch(layer, x, attention="self_attn")
        self.assertFalse(hasattr(layer.self_attn, "__dict__") and "forward" in layer.self_attn.__dict__,
                         "the recording wrapper is removed again")

    def test_named_projections_through_hooks(self):
        class SelfAttention(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.query, self.key, self.value = (torch.nn.Linear(8, 8) for _ in range(3))
                self.num_heads = 2

            def forward(self, x):  # (batch, n, 8), two heads of 4, causal
                b, n, _ = x.shape
                split = lambda t: t.view(b, n, 2, 4).transpose(1, 2)
                q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
                logits = q @ k.transpose(-1, -2) / 2.0
                logits = logits.masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool), 1), float("-inf"))
                self.last_weights = logits.softmax(-1)
                return (self.last_weights @ v).transpose(1, 2).reshape(b, n, 8)

        module = SelfAttention()
        x = torch.randn(1, 5, 8)
        cap = attnplay.from_torch(module, x, q_proj="query", k_proj=module.key, v_proj="value", causal=True)
        self.assertEqual(cap.heads, 2)
        self.assert_weights_equal_pytorch(cap.weights, module.last_weights[0])
        with self.assertRaisesRegex(ValueError, "name all three"):
            attnplay.from_torch(module, x, q_proj="query")
        with self.assertRaisesRegex(ValueError, "not a torch.nn.MultiheadAttention"):
            attnplay.from_torch(module, x)


class DocumentParts(html.parser.HTMLParser):
    """Elements of the inline document: attributes, and the text of every <script> and <style>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements, self.blocks, self._open = [], [], None

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self._open = (tag, dict(attrs), [])

    def handle_data(self, data):
        if self._open:
            self._open[2].append(data)

    def handle_endtag(self, tag):
        if self._open and tag == self._open[0]:
            self.blocks.append((tag, self._open[1], "".join(self._open[2])))
            self._open = None


def srcdoc_of(outer):
    m = re.search(r'srcdoc="([^"]*)"', outer)
    assert m, "no srcdoc attribute"
    return html.unescape(m.group(1))


class ViewTests(unittest.TestCase):
    def setUp(self):
        self.X, self.W_q = rng_matrices(4, (3, 4), (4, 4))
        self.v = attnplay.view(X=self.X, W_q=self.W_q, tokens=["je", "suis", "là"], panels=["heatmap", "controls"],
                               lock="scale", selected_row=1)
        self.doc = srcdoc_of(self.v.html())
        self.parts = DocumentParts()
        self.parts.feed(self.doc)

    def test_nothing_is_fetched_from_anywhere(self):
        for tag, attrs in self.parts.elements:
            for name in ("src", "href", "data", "action", "poster", "srcset"):
                self.assertNotIn(name, attrs, f"<{tag} {name}=…> would fetch {attrs.get(name)}")
        csp = [a["content"] for t, a in self.parts.elements if t == "meta" and a.get("http-equiv") ==
               "Content-Security-Policy"]
        self.assertEqual(len(csp), 1)
        self.assertIn("default-src 'none'", csp[0])
        self.assertNotRegex(csp[0], r"https?:|\*|'self'|'unsafe-inline'|'unsafe-eval'")
        # Every executable script is inline and allowed by its hash; nothing else may run.
        allowed = set(re.findall(r"'sha256-([^']+)'", csp[0].split("style-src")[0]))
        scripts = [text for tag, attrs, text in self.parts.blocks if tag == "script" and "type" not in attrs]
        self.assertEqual(len(scripts), 3, "attnplay-a11y.js, attnplay-api.js, attnplay.js")
        for text in scripts:
            digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
            self.assertIn(digest, allowed)
        self.assertEqual(len(allowed), len(scripts))
        outer = self.v.html()
        self.assertEqual(outer.count("<script"), 0, "the notebook page itself gets no script")

    def test_the_page_travels_whole(self):
        blocks = {attrs.get("id"): text for tag, attrs, text in self.parts.blocks if tag == "script"}
        wasm = gzip.decompress(base64.b64decode(blocks["attnplay-inline-wasm"]))
        self.assertEqual(wasm, (WEB / "attnplay.wasm").read_bytes())
        if (WEB / "attnplay.deferred.wasm").is_file():  # a split build's second half travels too
            second = gzip.decompress(base64.b64decode(blocks["attnplay-inline-deferred"]))
            self.assertEqual(second, (WEB / "attnplay.deferred.wasm").read_bytes())
        scripts = [text for tag, attrs, text in self.parts.blocks if tag == "script" and "type" not in attrs]
        module = (WEB / "attnplay.js").read_text()
        self.assertIn(module.replace("</script", "<\\/script").replace("<!--", "<\\!--"), scripts)
        self.assertIn((WEB / "attnplay-api.js").read_text(), scripts)
        styles = [text for tag, attrs, text in self.parts.blocks if tag == "style"]
        self.assertEqual(styles, [(WEB / "style.css").read_text()])

    def test_state_and_layout_reach_the_page(self):
        config = json.loads(next(text for tag, attrs, text in self.parts.blocks if attrs.get("id") == "attnplay-inline"))
        self.assertEqual(config["search"], "?embed=1&panels=heatmap,controls&lock=scale")
        self.assertTrue(config["hash"].startswith("#s=1."))
        payload = base64.urlsafe_b64decode(config["hash"][5:] + "=" * (-len(config["hash"][5:]) % 4))
        text = zlib.decompress(payload[1:], -15).decode() if payload[:1] == b"z" else payload[1:].decode()
        state = json.loads(text)
        self.assertEqual(state["selected_row"], 1)
        self.assertEqual(state["scenario"]["tokens"], ["je", "suis", "là"])
        np.testing.assert_array_equal(np.array(state["scenario"]["X"], np.float32), self.X.astype(np.float32))
        np.testing.assert_array_equal(np.array(state["scenario"]["W_q"], np.float32), self.W_q.astype(np.float32))

    def test_a_state_too_large_for_a_link_goes_in_the_document(self):
        Q, K, V = rng_matrices(5, (128, 128), (128, 128), (128, 128))
        v = attnplay.view(Q=Q, K=K, V=V)
        self.assertEqual(v.fragment, "")
        parts = DocumentParts()
        parts.feed(v.document())
        config = json.loads(next(text for tag, attrs, text in parts.blocks if attrs.get("id") == "attnplay-inline"))
        self.assertEqual(config["hash"], "")
        np.testing.assert_array_equal(np.array(config["state"]["scenario"]["V"], np.float32), V.astype(np.float32))

    def test_views_are_independent_documents(self):
        other = attnplay.view(preset="saturation", d_k=64)
        self.assertNotEqual(other.id, self.v.id)
        self.assertIn(f'data-attnplay-view="{other.id}"', other.html())
        self.assertEqual(other.state, {"preset": "saturation", "d_k": 64})
        self.assertNotIn("scenario", other.state)

    def test_arguments_are_checked(self):
        with self.assertRaisesRegex(TypeError, "unexpected keyword argument 'wq'"):
            attnplay.view(X=self.X, wq=self.W_q)
        with self.assertRaisesRegex(TypeError, "belongs to a scenario"):
            attnplay.view(score="general")
        with self.assertRaisesRegex(ValueError, "panel or control id"):
            attnplay.view(preset="saturation", panels="heatmap;alert(1)")
        with self.assertRaisesRegex(ValueError, "language tag"):
            attnplay.view(preset="saturation", lang='en"><script>')
        self.assertEqual(attnplay.view(tokens=["a", "b"]).state, {"sentence": "a b"})

    def test_language_and_lesson_are_state(self):
        v = attnplay.view(lesson="why-sqrt-dk", lang="hi-Latn")
        self.assertEqual(v.state, {"lesson": {"id": "why-sqrt-dk"}, "lang": "hi-Latn"})
        self.assertIn('<html lang="hi-Latn">', v.document())

    def test_every_key_of_the_apps_schema_is_accepted(self):
        # The keys come from the app's own schema (attnplay schema), not from a list of this package's.
        self.assertIn("projections", attnplay._scenario.STATE_KEYS)
        self.assertIn("learn", attnplay._scenario.STATE_KEYS)
        self.assertNotIn("tokens", attnplay._scenario.STATE_KEYS, "read-only echoes are not settings")
        v = attnplay.view(projections="identity", learn={"speed": 2, "playing": False}, exercise="exercise-17")
        self.assertEqual(v.state, {"projections": "identity", "learn": {"speed": 2, "playing": False},
                                   "exercise": "exercise-17"})
        for key in attnplay._scenario.STATE_KEYS:  # every schema key is a key this package passes on
            try:  # None is not a valid value of every key (a matrix needs rows); the key must still be known
                attnplay._scenario.state_json({key: None})
            except ValueError as error:
                self.assertNotIn("unknown state key", str(error), key)
        with self.assertRaisesRegex(ValueError, "unknown state key 'tokens'"):
            attnplay._scenario.state_json({"tokens": ["a"]})

    def test_show_outside_a_notebook_says_what_to_do(self):
        with self.assertRaisesRegex(RuntimeError, r"view\(\.\.\.\)\.save"):
            attnplay.show(preset="saturation")

    def test_save_writes_the_standalone_page(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.v.save(os.path.join(d, "view.html"))
            self.assertEqual(Path(path).read_text(encoding="utf-8"), self.doc)


if __name__ == "__main__":
    unittest.main()
