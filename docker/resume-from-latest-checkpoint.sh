#!/bin/sh
# Entry point of the jobs' JobManager containers (docker-compose): Flink's own entry point, told to
# restore the job from its newest completed checkpoint when there is one.
#
# A standalone-job container has no high availability: when it restarts (a crash, `docker compose
# restart`, a reboot) Flink submits the job afresh, and the feed adapter would send every PubMed
# file of the directory again, the annotation job would restart from its committed offsets with an
# empty state. The job retains its checkpoints (RETAIN_ON_CANCELLATION), laid out as
# <dir>/<job-id>/chk-<n>/_metadata; a chk-<n> without _metadata was still being written and cannot be
# restored. The newest completed one goes to Flink as execution.state-recovery.path.
#
# BIONER_CHECKPOINTS (default /opt/flink/checkpoints) is the job's checkpoint directory;
# FLINK_ENTRYPOINT (default /docker-entrypoint.sh) the entry point to hand over to.
set -eu

dir=${BIONER_CHECKPOINTS:-/opt/flink/checkpoints}
latest=$(ls -1t "$dir"/*/chk-*/_metadata 2>/dev/null | head -n 1 || true)
if [ -n "$latest" ]; then
  checkpoint=$(dirname "$latest")
  echo "bioner-stream: resuming the job from its newest completed checkpoint $checkpoint" >&2
  FLINK_PROPERTIES="${FLINK_PROPERTIES:-}
execution.state-recovery.path: file://$checkpoint"
  export FLINK_PROPERTIES
else
  echo "bioner-stream: no completed checkpoint in $dir: the job starts afresh" >&2
fi
exec "${FLINK_ENTRYPOINT:-/docker-entrypoint.sh}" "$@"
