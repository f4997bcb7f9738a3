#!/usr/bin/env bash
# apache/kafka stand-in (docker/standins/README.md): kafka-broker-api-versions.sh, asks a broker for its API versions
# (Kafka's script of that name runs the same class).
set -euo pipefail
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
