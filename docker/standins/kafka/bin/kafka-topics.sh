#!/usr/bin/env bash
# apache/kafka stand-in (docker/standins/README.md): kafka-topics.sh, creates, lists and describes topics
# (Kafka's script of that name runs the same class).
set -euo pipefail
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.TopicCommand "$@"
