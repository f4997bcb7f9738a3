#!/usr/bin/env bash
# flink stand-in (docker/standins/README.md): standalone-job.sh start-foreground [args], a JobManager in
# application mode running the job of /opt/flink/usrlib (--job-classname ...), as the image's
# `standalone-job` command runs it.
set -euo pipefail
# shellcheck source=config.sh
. "$(dirname "$0")/config.sh"
require_start_foreground "$@"
shift
run_in_foreground standalonejob jobmanager \
  org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint "$@"
