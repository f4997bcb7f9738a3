#!/bin/sh
# Starts or continues a training run in the background, niced, and returns at once.
#
#   ./train-background.sh NAME [bioner_mrc.train options, without --out]
#   ./train-background.sh --module budget NAME [bioner_mrc.budget options (--full too), without --out]
#   ./train-background.sh --wait ...   # queue behind the training that runs now
#
# The run folder is $BIONER_RUNS/NAME (default ~/.cache/bioner-stream/runs/NAME), outside the
# work tree so it outlives checkouts; its log is NAME/train.log. The run is always started with
# --resume: the same command continues it from where it stopped. Only one training runs on a
# machine at a time (a lock in $BIONER_RUNS), because two would halve each other: a second one is
# refused, or with --wait starts when the first ends, so the cores never idle between runs.
set -eu

MODULE=train
WAIT=-n
STATE=started
while [ $# -gt 0 ]; do
  case "$1" in
    --module) [ $# -ge 2 ] || { echo "--module needs train or budget" >&2; exit 2; }; MODULE=$2; shift 2 ;;
    --wait) WAIT=; STATE="queued behind the running training"; shift ;;
    *) break ;;
  esac
done
case "$MODULE" in
  train|budget) ;;
  full_budget) echo "--module full_budget is now --module budget NAME --full ..." >&2; exit 2 ;;
  *) echo "--module must be train or budget, not $MODULE" >&2; exit 2 ;;
esac
[ $# -ge 1 ] || { echo "usage: $0 [--module train|budget] NAME [options]" >&2; exit 2; }
NAME=$1; shift
RUNS=${BIONER_RUNS:-$HOME/.cache/bioner-stream/runs}
RUN="$RUNS/$NAME"
PYTHON=${PYTHON:-/usr/bin/python3}
mkdir -p "$RUN"
LOCK="$RUNS/.training.lock"
if [ -n "$WAIT" ] && ! flock -n "$LOCK" true; then
  echo "a training already runs on this machine (lock $LOCK held): wait for it or stop it first" >&2
  exit 1
fi
cd "$(dirname "$0")"
nohup flock $WAIT "$LOCK" nice -n 19 "$PYTHON" -u -m "bioner_mrc.$MODULE" "$@" --out "$RUN" --resume \
  >>"$RUN/train.log" 2>&1 </dev/null &
echo "$MODULE $NAME $STATE (pid $!): tail -f $RUN/train.log"
