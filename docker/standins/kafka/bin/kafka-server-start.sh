#!/usr/bin/env bash
# apache/kafka stand-in (docker/standins/README.md): kafka-server-start.sh server.properties, the broker
# (kafka.Kafka) in the foreground with Kafka's defaults: 1 GB heap, config/log4j2.yaml.
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "USAGE: $0 server.properties [--override property=value]*" >&2
  exit 1
fi
base_dir="$(cd "$(dirname "$0")/.." && pwd)"
export KAFKA_LOG4J_OPTS="${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=$base_dir/config/log4j2.yaml}"
export KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xmx1G -Xms1G}"
exec "$base_dir/bin/kafka-run-class.sh" kafka.Kafka "$@"
