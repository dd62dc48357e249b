# attnplay — the Attention Playground in notebooks: show() the page inline (offline), compute() with the
# same C++ core through its command-line tool, from_torch() to capture a real PyTorch attention module.
"""Attention Playground for notebooks.

    import attnplay
    attnplay.show(Q=Q, K=K, V=V, tokens=["the", "cat", "sat"])   # the playground in the cell's output
    attnplay.compute({"X": X, "W_q": W_q})["weights"]              # the core's numbers as NumPy arrays
    attnplay.from_torch(torch.nn.MultiheadAttention(16, 4), x)      # a real module's heads
"""
from ._cli import AttnplayError, CLIError, compute, find_cli
from ._page import find_web
from ._torch import Capture, from_torch
from ._view import View, show, view

__version__ = "0.1.0"
__all__ = ["show", "view", "View", "compute", "from_torch", "Capture", "AttnplayError", "CLIError", "find_cli",
           "find_web"]
