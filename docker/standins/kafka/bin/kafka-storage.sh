#!/usr/bin/env bash
# apache/kafka stand-in (docker/standins/README.md): kafka-storage.sh, formats a KRaft log directory
# (Kafka's script of that name runs the same class).
set -euo pipefail
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.StorageTool "$@"
