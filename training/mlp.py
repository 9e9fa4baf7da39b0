"""The small ReLU networks the training scripts fit, in numpy (float32): the
layers, their gradients by backpropagation, and Adam's steps. Each script
adds its own output and loss (a share of the Coins left, a card's value)."""

from __future__ import annotations

import numpy as np


class Network:
    """Fully connected layers of ``sizes``, ReLU between them, a linear output."""

    def __init__(self, sizes, rng):
        self.weights = [
            rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32)
            for a, b in zip(sizes, sizes[1:])
        ]
        self.biases = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]

    def layers(self, x) -> list[np.ndarray]:
        """The input and every layer's output, the last one linear."""
        out = [x]
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            z = out[-1] @ w + b
            out.append(np.maximum(z, 0) if i < len(self.weights) - 1 else z)
        return out

    def gradients(self, layers, delta) -> list[np.ndarray]:
        """The loss's gradients for the weights, then the biases, from the
        ``layers`` of a batch and ``delta``, the gradient at the output."""
        grads_w, grads_b = [], []
        for i in range(len(self.weights) - 1, -1, -1):
            grads_w.insert(0, layers[i].T @ delta)
            grads_b.insert(0, delta.sum(0))
            if i:
                delta = (delta @ self.weights[i].T) * (layers[i] > 0)
        return grads_w + grads_b


class Adam:
    """Adam over a network's weights and biases, updated in place; ``rate``
    may be changed between steps (a schedule)."""

    def __init__(self, net: Network, rate: float):
        self.params = net.weights + net.biases
        self.first = [np.zeros_like(p) for p in self.params]
        self.second = [np.zeros_like(p) for p in self.params]
        self.rate = rate
        self.steps = 0

    def step(self, grads) -> None:
        self.steps += 1
        for j, (param, grad) in enumerate(zip(self.params, grads)):
            self.first[j] = 0.9 * self.first[j] + 0.1 * grad
            self.second[j] = 0.999 * self.second[j] + 0.001 * grad * grad
            param -= (
                self.rate
                * (self.first[j] / (1 - 0.9**self.steps))
                / (np.sqrt(self.second[j] / (1 - 0.999**self.steps)) + 1e-8)
            )
