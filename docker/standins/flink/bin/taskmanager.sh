#!/usr/bin/env bash
# flink stand-in (docker/standins/README.md): taskmanager.sh start-foreground [args], a TaskManager, as
# the image's `taskmanager` command runs it.
set -euo pipefail
# shellcheck source=config.sh
. "$(dirname "$0")/config.sh"
require_start_foreground "$@"
shift
run_in_foreground taskexecutor taskmanager \
  org.apache.flink.runtime.taskexecutor.TaskManagerRunner "$@"
