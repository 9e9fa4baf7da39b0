"""Networks' cards put to a vote: for each position, the card most of the
``full_search_picks.py`` outputs name (among tied ones, the first file's card
if it is one of them), judged as each file judged it.

    python training/candidates/vote.py data/picks_shipped.json data/picks_*.json
"""

import argparse
import json
from collections import Counter
from pathlib import Path


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("picks", nargs="+", type=Path, help="full_search_picks.py outputs")
    args = parser.parse_args(argv)
    files = [{(r["set"], r["index"]): r for r in json.loads(p.read_text())} for p in args.picks]
    right = won = lost = 0
    for key, first in files[0].items():
        rows = [picks[key] for picks in files]
        votes = Counter(row["card"] for row in rows)
        most = max(votes.values())
        tied = sorted(card for card, count in votes.items() if count == most)
        card = first["card"] if first["card"] in tied else tied[0]
        chosen = next(row for row in rows if row["card"] == card)
        right += chosen["right"]
        won += chosen["right"] and not first["right"]
        lost += first["right"] and not chosen["right"]
    print(
        f"vote of {len(files)}: {right}/{len(files[0])} right; against the first file's "
        f"cards {won} won, {lost} lost"
    )


if __name__ == "__main__":
    main()
