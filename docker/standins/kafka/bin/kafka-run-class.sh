#!/usr/bin/env bash
# apache/kafka stand-in (docker/standins/README.md): kafka-run-class.sh CLASS [args], as Kafka's script
# of that name runs a class of libs/ in the foreground, with the same environment variables:
# KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_GC_LOG_OPTS, KAFKA_JMX_OPTS, KAFKA_LOG4J_OPTS,
# KAFKA_OPTS, LOG_DIR, JAVA_HOME. Written anew: Kafka's bin/ comes only with its binary tarball.
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "USAGE: $0 classname [opts]" >&2
  exit 1
fi
base_dir="$(cd "$(dirname "$0")/.." && pwd)"
LOG_DIR="${LOG_DIR:-$base_dir/logs}"
mkdir -p "$LOG_DIR" 2>/dev/null || true
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  java="$JAVA_HOME/bin/java"
else
  java=java
fi
heap="${KAFKA_HEAP_OPTS:--Xmx256M}"
performance="${KAFKA_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true}"
jmx="${KAFKA_JMX_OPTS:--Dcom.sun.management.jmxremote -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false}"
if [[ -n "${JMX_PORT:-}" ]]; then
  jmx="$jmx -Dcom.sun.management.jmxremote.port=$JMX_PORT"
fi
log4j="${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=$base_dir/config/tools-log4j2.yaml}"
# Each of these variables holds several JVM options: word splitting is wanted.
# shellcheck disable=SC2086
exec "$java" $heap $performance ${KAFKA_GC_LOG_OPTS:-} $jmx "-Dkafka.logs.dir=$LOG_DIR" $log4j \
  -cp "$base_dir/libs/*" ${KAFKA_OPTS:-} "$@"
