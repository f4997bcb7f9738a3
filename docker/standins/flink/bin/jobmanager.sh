#!/usr/bin/env bash
# flink stand-in (docker/standins/README.md): jobmanager.sh start-foreground [args], the JobManager of
# a session cluster, as the image's `jobmanager` command runs it.
set -euo pipefail
# shellcheck source=config.sh
. "$(dirname "$0")/config.sh"
require_start_foreground "$@"
shift
run_in_foreground standalonesession jobmanager \
  org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint "$@"
