"""Research scripts: experiments that each answered one question about the search.

Not installed with the packages and not run by CI; run them from the
repository root (``python -m research.proof_shape``). research/README.md
says what each one measures, and docs/ what it found.
"""
