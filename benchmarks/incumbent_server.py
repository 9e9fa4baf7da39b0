"""The incumbent's side of the gauntlet's protocol: a hint answering views, one a line.

Run by ``benchmarks.incumbent`` with the Python of the incumbent's own virtual
environment (``python -I``, so that only the code installed there is
imported, never the working tree). It writes ``ready`` once the kernels are
loaded; then for each line on stdin, a seat's view in RULES.md notation (a
record with the hidden hands written ``?``), it writes the hint's best card
for the seat to move, or ``error: ...`` when the view cannot be read. It
uses only what every version of the hint offers: ``hint(view, samples,
time_limit, rng=...)``.
"""

import argparse
import random
import sys

from analysis.hint import hint
from solver.compiled import ensure_compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--samples", type=int, required=True)
    parser.add_argument("--time-limit", type=float, required=True)
    parser.add_argument("--seed", type=int, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ensure_compiled()
    print("ready", flush=True)
    for line in sys.stdin:
        try:
            card = hint(line.strip(), args.samples, args.time_limit, rng=rng)[0].card
            print(card, flush=True)
        except Exception as error:  # the client shows it; the server goes on
            print(f"error: {' '.join(str(error).split())}", flush=True)


if __name__ == "__main__":
    main()
