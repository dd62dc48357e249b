# _torch.py — attnplay.from_torch(): the queries, keys, values and attention weights of a real PyTorch
# attention module on an input, per head, ready to open in the playground. PyTorch is imported only here.
import math

import numpy as np


def _torch():
    try:
        import torch
    except ImportError:
        raise ImportError("from_torch() needs PyTorch (Debian: apt-get install python3-torch)") from None
    return torch


class Capture:
    """What one attention module computed on one input.

    Q, K, V: (n × E), (m × E), (m × E_v) NumPy arrays, all heads side by side as the module projects them;
    heads: the number of heads; weights: (heads × n × m) softmax weights; per_head: a list of dicts
    with each head's Q, K, V and weights; scenario: the playground's scenario (Q, K, V, heads, W_o,
    tokens, masks). Displayed as the playground in a notebook; show()/view() take view()'s options."""

    def __init__(self, Q, K, V, heads, weights, scenario):
        self.Q, self.K, self.V, self.heads, self.weights, self.scenario = Q, K, V, heads, weights, scenario
        dh, dvh = Q.shape[1] // heads, V.shape[1] // heads
        self.per_head = [{"Q": Q[:, h * dh:(h + 1) * dh], "K": K[:, h * dh:(h + 1) * dh],
                          "V": V[:, h * dvh:(h + 1) * dvh], "weights": weights[h]} for h in range(heads)]

    def view(self, **options):
        from ._view import view
        return view(self.scenario, **options)

    def show(self, **options):
        from ._view import show
        show(self.scenario, **options)

    def _repr_html_(self):
        return self.view()._repr_html_()

    def __repr__(self):
        n, m = self.weights.shape[1:]
        return f"<attnplay.Capture: {self.heads} head(s), {n} queries × {m} keys, d_head = {self.Q.shape[1] // self.heads}>"


def _numpy(t):
    return t.detach().cpu().double().numpy()


def _sequence(t, batch, batch_first, name, torch):
    """One sequence (n × E) as a tensor, from an unbatched input or a batched one in the module's layout."""
    if not isinstance(t, torch.Tensor):
        t = torch.as_tensor(np.asarray(t), dtype=torch.float32)
    if t.dim() == 3:
        t = t[batch] if batch_first else t[:, batch]
    if t.dim() != 2:
        raise ValueError(f"{name} must be (n × E), or batched in the module's layout; got shape {tuple(t.shape)}")
    return t


def _masks(attn_mask, key_padding_mask, n, m, heads, batch):
    """The PyTorch masks as the playground's mask_cells (n × m, 1 = blocked) and key_padding (m booleans)."""
    out = {}
    if key_padding_mask is not None:
        kp = key_padding_mask.detach().cpu()
        if kp.dim() == 2:
            kp = kp[batch]
        if kp.dtype.is_floating_point:
            raise ValueError("key_padding_mask must be boolean (True = ignore the key); float masks are not supported")
        out["key_padding"] = kp.numpy().astype(bool)
    if attn_mask is not None:
        am = attn_mask.detach().cpu()
        if am.dim() == 3:  # (batch·heads) × n × m: the playground's mask is shared by the heads
            one = am[batch * heads:(batch + 1) * heads]
            if not bool((one == one[0]).all()):
                raise ValueError("attn_mask differs between heads; the playground has one mask for all heads")
            am = one[0]
        if am.dtype.is_floating_point:
            a = am.numpy()
            if not np.isin(a, (0.0, -np.inf)).all():
                raise ValueError("a float attn_mask must hold only 0 and -inf; additive biases are not supported")
            am = a == -np.inf
        else:
            am = am.numpy().astype(bool)
        if am.shape != (n, m):
            raise ValueError(f"attn_mask has shape {am.shape}, expected ({n}, {m})")
        out["mask_cells"] = am.astype(np.uint8)
    return out


def _softmax_weights(Q, K, heads, blocked):
    """softmax(Q_h K_hᵀ / √d_h) per head, as torch.nn.functional.multi_head_attention_forward does."""
    torch = _torch()
    n, E = Q.shape
    dh = E // heads
    q = Q.reshape(n, heads, dh).transpose(0, 1) / math.sqrt(dh)
    k = K.reshape(K.shape[0], heads, dh).transpose(0, 1)
    logits = torch.bmm(q, k.transpose(1, 2))
    if blocked is not None:
        logits = logits.masked_fill(blocked.unsqueeze(0), float("-inf"))
    return torch.softmax(logits, dim=-1)


def _blocked(masks, n, m, torch):
    if not masks:
        return None
    b = torch.zeros(n, m, dtype=torch.bool)
    if "key_padding" in masks:
        b |= torch.as_tensor(masks["key_padding"]).unsqueeze(0)
    if "mask_cells" in masks:
        b |= torch.as_tensor(masks["mask_cells"].astype(bool))
    return b


def _multihead(mha, query, key, value, attn_mask, key_padding_mask, batch, tokens, key_tokens):
    torch = _torch()
    if mha.bias_k is not None or mha.add_zero_attn:
        raise ValueError("MultiheadAttention with add_bias_kv or add_zero_attn is not supported")
    batch_first = getattr(mha, "batch_first", False)
    query = _sequence(query, batch, batch_first, "x", torch)
    key = query if key is None else _sequence(key, batch, batch_first, "key", torch)
    value = key if value is None else _sequence(value, batch, batch_first, "value", torch)
    E, h = mha.embed_dim, mha.num_heads
    with torch.no_grad():
        if mha._qkv_same_embed_dim:
            W_q, W_k, W_v = mha.in_proj_weight.split(E, dim=0)
        else:
            W_q, W_k, W_v = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
        b_q = b_k = b_v = None
        if mha.in_proj_bias is not None:
            b_q, b_k, b_v = mha.in_proj_bias.split(E, dim=0)
        lin = torch.nn.functional.linear
        Q, K, V = lin(query, W_q, b_q), lin(key, W_k, b_k), lin(value, W_v, b_v)
        n, m = Q.shape[0], K.shape[0]
        masks = _masks(attn_mask, key_padding_mask, n, m, h, batch)
        weights = _softmax_weights(Q, K, h, _blocked(masks, n, m, torch))
        W_o = mha.out_proj.weight.t()
    return _capture(Q, K, V, h, weights, masks, tokens, key_tokens, W_o)


def _capture(Q, K, V, heads, weights, masks, tokens, key_tokens, W_o=None):
    scenario = {"Q": _numpy(Q), "K": _numpy(K), "V": _numpy(V), "heads": int(heads)}
    if W_o is not None:
        scenario["W_o"] = _numpy(W_o)  # the output projection; its bias is not part of a scenario
    scenario.update(masks)
    if tokens is not None:
        scenario["tokens"] = [str(t) for t in tokens]
    if key_tokens is not None:  # keys of another sequence (cross-attention); else they are the tokens
        scenario["memory_tokens"] = [str(t) for t in key_tokens]
    return Capture(scenario["Q"], scenario["K"], scenario["V"], int(heads), _numpy(weights), scenario)


def _resolve(module, name_or_module):
    if isinstance(name_or_module, str):
        try:
            return module.get_submodule(name_or_module)
        except AttributeError:
            raise ValueError(f"the module has no submodule {name_or_module!r}") from None
    return name_or_module


def _named_projections(module, x, q_proj, k_proj, v_proj, heads, call, attn_mask, key_padding_mask, batch,
                       tokens, key_tokens, causal):
    torch = _torch()
    if heads is None:
        for attr in ("num_heads", "n_heads", "num_attention_heads", "n_head"):
            if isinstance(getattr(module, attr, None), int):
                heads = getattr(module, attr)
                break
        else:
            raise ValueError("pass heads=…: the module does not say how many heads it has")
    outputs = {}
    hooks = []
    for label, name in (("Q", q_proj), ("K", k_proj), ("V", v_proj)):
        sub = _resolve(module, name)
        if not isinstance(sub, torch.nn.Module):
            raise ValueError(f"{label.lower()}_proj must name a submodule or be one, got {type(sub).__name__}")
        hooks.append(sub.register_forward_hook(lambda _m, _i, out, label=label: outputs.__setitem__(label, out)))
    try:
        with torch.no_grad():
            call(module, x) if call else module(x)
    finally:
        for hk in hooks:
            hk.remove()
    missing = [k for k in ("Q", "K", "V") if k not in outputs]
    if missing:
        raise ValueError(f"the projection(s) for {', '.join(missing)} did not run during the module's forward pass")
    got = {}
    for label, out in outputs.items():
        out = out[0] if isinstance(out, tuple) else out
        if out.dim() == 3:
            out = out[batch]
        if out.dim() != 2:
            raise ValueError(f"the {label} projection returned shape {tuple(out.shape)}, expected (batch ×) n × E")
        got[label] = out
    Q, K, V = got["Q"], got["K"], got["V"]
    if Q.shape[1] % heads or V.shape[1] % heads:
        raise ValueError(f"heads = {heads} does not divide the projections' widths {Q.shape[1]} and {V.shape[1]}")
    n, m = Q.shape[0], K.shape[0]
    masks = _masks(attn_mask, key_padding_mask, n, m, heads, batch)
    if causal:
        masks["mask_cells"] = np.maximum(masks.get("mask_cells", np.zeros((n, m), np.uint8)),
                                         np.triu(np.ones((n, m), np.uint8), 1))
    with torch.no_grad():
        weights = _softmax_weights(Q, K, heads, _blocked(masks, n, m, torch))
    return _capture(Q, K, V, heads, weights, masks, tokens, key_tokens)


def _called_inputs(model, x, attention, call):
    """Runs the model once and returns the (query, key, value, attn_mask, key_padding_mask) its
    MultiheadAttention submodule was called with."""
    torch = _torch()
    seen = {}
    original = attention.forward

    def recording(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None, *args, **kwargs):
        seen.update(query=query, key=key, value=value, key_padding_mask=key_padding_mask, attn_mask=attn_mask)
        return original(query, key, value, key_padding_mask, need_weights, attn_mask, *args, **kwargs)

    attention.forward = recording  # an instance attribute shadows the method for this one call
    try:
        # With gradients on, PyTorch's fused fast path (which skips the module) is not taken.
        with torch.enable_grad():
            call(model, x) if call else model(x)
    finally:
        del attention.forward
    if not seen:
        raise ValueError("the attention module was not called during the model's forward pass (PyTorch's fused "
                         "fast path replaces it when no parameter requires a gradient): pass the attention module "
                         "itself with its input")
    return seen


def from_torch(module, x, *, key=None, value=None, attn_mask=None, key_padding_mask=None, batch=0, tokens=None,
               key_tokens=None, attention=None, q_proj=None, k_proj=None, v_proj=None, heads=None, call=None,
               causal=False):
    """Captures the queries, keys, values and per-head weights of a real attention module on input x.

    - module is a torch.nn.MultiheadAttention: x is its query input ((n × E), or batched in the module's
      layout with `batch` picking the sequence), key/value default to x; Q, K, V are computed from
      in_proj_weight/bias as PyTorch does, the weights as softmax(Q_h K_hᵀ/√d_h) with attn_mask and
      key_padding_mask applied (bool, True = blocked; or a float mask of 0/-inf).
    - attention=submodule or its name: a MultiheadAttention inside module; module(x) (or call(module, x))
      is run once and the inputs that submodule received are captured.
    - q_proj=, k_proj=, v_proj= (names or submodules) of any module: forward hooks record what the three
      projections return while module(x) runs; heads=… (or the module's num_heads), causal=True for a
      decoder's mask.

    Returns a Capture; in a notebook it displays as the playground (or capture.show(panels=…))."""
    torch = _torch()
    if q_proj is not None or k_proj is not None or v_proj is not None:
        if q_proj is None or k_proj is None or v_proj is None:
            raise ValueError("name all three projections: q_proj=…, k_proj=…, v_proj=…")
        return _named_projections(module, x, q_proj, k_proj, v_proj, heads, call, attn_mask, key_padding_mask,
                                  batch, tokens, key_tokens, causal)
    if attention is not None:
        mha = _resolve(module, attention)
        if not isinstance(mha, torch.nn.MultiheadAttention):
            raise ValueError(f"attention= must be a torch.nn.MultiheadAttention, got {type(mha).__name__}")
        seen = _called_inputs(module, x, mha, call)
        return _multihead(mha, seen["query"], seen["key"], seen["value"], seen["attn_mask"],
                          seen["key_padding_mask"], batch, tokens, key_tokens)
    if isinstance(module, torch.nn.MultiheadAttention):
        return _multihead(module, x, key, value, attn_mask, key_padding_mask, batch, tokens, key_tokens)
    raise ValueError(f"{type(module).__name__} is not a torch.nn.MultiheadAttention: pass attention=… (a "
                     "MultiheadAttention inside it) or q_proj=, k_proj=, v_proj= (its projection submodules)")
