"""Benchmarks of the Coins toolkit, run from the repository root (see benchmarks/README.md)."""
