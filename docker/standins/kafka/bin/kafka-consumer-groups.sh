#!/usr/bin/env bash
# apache/kafka stand-in (docker/standins/README.md): kafka-consumer-groups.sh, lists and describes consumer groups
# (Kafka's script of that name runs the same class).
set -euo pipefail
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "$@"
