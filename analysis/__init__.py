"""Analysis of Coins positions and games built on ``solver``: reports, reviews, hints, studies.

It depends on ``solver`` only and knows nothing of the command line, which
calls it. Nothing lives here yet.
"""
