#!/usr/bin/env bash
# apache/kafka stand-in (docker/standins/README.md): kafka-console-consumer.sh, prints a topic's records
# (Kafka's script of that name runs the same class).
set -euo pipefail
export KAFKA_HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xmx512M}
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.consumer.ConsoleConsumer "$@"
