#!/usr/bin/env bash
# apache/kafka stand-in (docker/standins/README.md): kafka-console-producer.sh, writes lines of standard input to a topic
# (Kafka's script of that name runs the same class).
set -euo pipefail
export KAFKA_HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xmx512M}
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.ConsoleProducer "$@"
