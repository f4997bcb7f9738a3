#!/bin/sh
# Starts or continues a training run in the background, niced, and returns at once.
#
#   ./train-background.sh NAME [bioner_mrc.train options, without --out]
#
# The run folder is $BIONER_RUNS/NAME (default ~/.cache/bioner-stream/runs/NAME), outside the
# work tree so it outlives checkouts; its log is NAME/train.log. The run is always started with
# --resume: the same command continues it from NAME/last.pt after a stop. Only one training
# runs on a machine at a time (a lock in $BIONER_RUNS), because two would halve each other.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 NAME [train options]" >&2; exit 2; }
NAME=$1; shift
RUNS=${BIONER_RUNS:-$HOME/.cache/bioner-stream/runs}
RUN="$RUNS/$NAME"
PYTHON=${PYTHON:-/usr/bin/python3}
mkdir -p "$RUN"
LOCK="$RUNS/.training.lock"
if ! flock -n "$LOCK" true; then
  echo "a training already runs on this machine (lock $LOCK held): wait for it or stop it first" >&2
  exit 1
fi
cd "$(dirname "$0")"
nohup flock -n "$LOCK" nice -n 19 "$PYTHON" -u -m bioner_mrc.train "$@" --out "$RUN" --resume \
  >>"$RUN/train.log" 2>&1 </dev/null &
echo "training $NAME started (pid $!): tail -f $RUN/train.log"
