#!/usr/bin/env bash
# Rebuild solver/value_net.npz from nothing: exact labels, then a network, then
# one size at a time beyond exact reach: each size labelled by a one-trick
# search with the network so far, which then trains on from where it was. The
# shipped file holds the first network for hands of up to 9 cards, the last
# one beyond.
# Run from anywhere with the project installed; DATA (default training/data)
# keeps the label files, and files already there are reused (the exact labels
# take hours: LABELS lists the make_labels.py runs as seed:rounds, one process each).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "${DATA:=$here/data}"
DATA=$(cd "$DATA" && pwd)
LABELS=${LABELS:-"1:300 2:300"}
COUNT=${COUNT:-10000}
EPOCHS=${EPOCHS:-8}  # each size's network starts from the last one
PYTHON=${PYTHON:-python}
cd "$here"
for run in $LABELS; do
    seed=${run%%:*}
    [ -f "$DATA/labels_$seed.npy" ] || "$PYTHON" make_labels.py --seed "$seed" --sizes 8,9 \
        --rounds "${run##*:}" --out "$DATA/labels_$seed.npy" &
done
wait
net="$DATA/net_8.npz"
[ -f "$net" ] || "$PYTHON" train_value_net.py "$DATA"/labels_*.npy --out "$net"
for cards in 9 10 11 12 13 14 15 16; do
    [ -f "$DATA/boot_$cards.npz" ] || "$PYTHON" bootstrap_labels.py --seed "$cards" \
        --sizes "$cards" --count "$COUNT" --net "$net" --out "$DATA/boot_$cards.npz"
    [ -f "$DATA/net_$cards.npz" ] || "$PYTHON" train_value_net.py "$DATA"/labels_*.npy \
        "$DATA"/boot_*.npz --init "$net" --epochs "$EPOCHS" --out "$DATA/net_$cards.npz"
    net="$DATA/net_$cards.npz"
done
"$PYTHON" combine_nets.py "$DATA/net_8.npz" "$net" --split 9 --out "$here/../solver/value_net.npz"
