#!/usr/bin/env bash
# Sourced by the bin/ scripts of the flink:2.2.1 stand-in (docker/standins/README.md). Flink's own
# bin/ scripts come only with its binary tarball, which cannot be downloaded here; these are written
# anew and do what they do for the commands the official image's docker-entrypoint.sh runs, through
# the same Java entry points: org.apache.flink.runtime.util.bash.BashJavaUtils reads and updates
# conf/config.yaml and computes the JVM memory flags, then the JobManager or TaskManager main class
# runs in the foreground. Environment variables as Flink's scripts read them: FLINK_CONF_DIR,
# FLINK_LOG_DIR, JAVA_HOME, JVM_ARGS, FLINK_ENV_JAVA_OPTS, FLINK_ENV_JAVA_OPTS_JM, FLINK_ENV_JAVA_OPTS_TM.
# shellcheck shell=bash

FLINK_BIN_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
FLINK_HOME="${FLINK_HOME:-$(dirname "$FLINK_BIN_DIR")}"
FLINK_CONF_DIR="${FLINK_CONF_DIR:-$FLINK_HOME/conf}"
FLINK_LIB_DIR="${FLINK_LIB_DIR:-$FLINK_HOME/lib}"
FLINK_OPT_DIR="${FLINK_OPT_DIR:-$FLINK_HOME/opt}"
FLINK_PLUGINS_DIR="${FLINK_PLUGINS_DIR:-$FLINK_HOME/plugins}"
FLINK_LOG_DIR="${FLINK_LOG_DIR:-$FLINK_HOME/log}"
# Flink's Java code finds lib/ (and from it usrlib/, the application-mode job jars), opt/ and
# plugins/ through these variables.
export FLINK_HOME FLINK_BIN_DIR FLINK_CONF_DIR FLINK_LIB_DIR FLINK_OPT_DIR FLINK_PLUGINS_DIR FLINK_LOG_DIR

if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  JAVA_RUN="$JAVA_HOME/bin/java"
else
  JAVA_RUN=java
fi

# The jars of lib/ in name order (Flink's scripts put flink-dist last; the stand-in has none).
flink_classpath() {
  local lib="${1:-$FLINK_LIB_DIR}" jar classpath=""
  for jar in "$lib"/*.jar; do
    classpath="${classpath:+$classpath:}$jar"
  done
  printf '%s' "$classpath"
}

# BashJavaUtils COMMAND ARGS...: its result lines (those it marks with BASH_JAVA_UTILS_EXEC_RESULT:),
# without the mark; its whole output on stderr and status 1 when it fails.
bash_java_utils() {
  local command=$1 lib=$FLINK_LIB_DIR
  shift
  if [[ "${1:-}" == --lib ]]; then
    lib=$2
    shift 2
  fi
  local output status=0
  output="$("$JAVA_RUN" -classpath "$(flink_classpath "$lib")" \
    org.apache.flink.runtime.util.bash.BashJavaUtils "$command" "$@" 2>&1)" || status=$?
  local prefix="BASH_JAVA_UTILS_EXEC_RESULT:"
  if [[ $status -ne 0 ]] || ! grep -q "^$prefix" <<<"$output"; then
    echo "[ERROR] BashJavaUtils $command failed (status $status):" >&2
    echo "$output" >&2
    return 1
  fi
  grep "^$prefix" <<<"$output" | sed "s/^$prefix//"
}

# The configuration as flat "key: value" lines (conf/config.yaml, nested or not).
# load_flink_conf first (one JVM start), then flink_conf KEY [DEFAULT] as often as needed.
FLINK_FLAT_CONF=""
load_flink_conf() {
  FLINK_FLAT_CONF="$(bash_java_utils UPDATE_AND_GET_FLINK_CONFIGURATION --configDir "$FLINK_CONF_DIR" -flatten)"
}
flink_conf() {
  local key=$1 default=${2:-}
  local value
  value="$(grep -F "$key: " <<<"$FLINK_FLAT_CONF" | grep "^${key//./\\.}: " | tail -n 1 | cut -d' ' -f2-)"
  printf '%s' "${value:-$default}"
}

# The JVM options of the process of ROLE (jobmanager or taskmanager): env.java.default-opts.all and
# env.java.opts.all (FLINK_ENV_JAVA_OPTS replaces the latter), then the role's
# env.java.default-opts.<role> and env.java.opts.<role> (FLINK_ENV_JAVA_OPTS_JM / _TM replaces it).
flink_java_opts() {
  local role=$1 own
  local all="${FLINK_ENV_JAVA_OPTS:-$(flink_conf env.java.opts.all "$(flink_conf env.java.opts)")}"
  if [[ $role == jobmanager ]]; then
    own="${FLINK_ENV_JAVA_OPTS_JM:-$(flink_conf env.java.opts.jobmanager)}"
  else
    own="${FLINK_ENV_JAVA_OPTS_TM:-$(flink_conf env.java.opts.taskmanager)}"
  fi
  printf '%s %s %s %s' "$(flink_conf env.java.default-opts.all)" "$all" \
    "$(flink_conf "env.java.default-opts.$role")" "$own"
}

# run_in_foreground SERVICE ROLE MAIN_CLASS ARGS...: the process replaces this shell. ROLE picks the
# memory computation (GET_JM_RESOURCE_PARAMS or GET_TM_RESOURCE_PARAMS, with the arguments, as
# Flink's scripts pass them) and the role's JVM options.
run_in_foreground() {
  local service=$1 role=$2 main_class=$3
  shift 3
  local args=(--configDir "$FLINK_CONF_DIR" "$@")
  local command=GET_JM_RESOURCE_PARAMS
  [[ $role == taskmanager ]] && command=GET_TM_RESOURCE_PARAMS
  local params jvm_params dynamic
  params="$(bash_java_utils "$command" "${args[@]}")" || exit 1
  if [[ "$(wc -l <<<"$params")" -ne 2 ]]; then
    echo "[ERROR] BashJavaUtils $command gave no JVM parameters and dynamic configuration:" >&2
    echo "$params" >&2
    exit 1
  fi
  jvm_params="$(head -n 1 <<<"$params")"
  dynamic="$(tail -n 1 <<<"$params")"
  local java_opts
  load_flink_conf || exit 1
  java_opts="$(flink_java_opts "$role")"
  mkdir -p "$FLINK_LOG_DIR"
  local log="$FLINK_LOG_DIR/flink-${USER:-$(id -un)}-$service-0-${HOSTNAME:-$(hostname)}.log"
  local log_settings=(
    "-Dlog.file=$log"
    "-Dlog4j.configuration=file:$FLINK_CONF_DIR/log4j-console.properties"
    "-Dlog4j.configurationFile=file:$FLINK_CONF_DIR/log4j-console.properties"
    "-Dlogback.configurationFile=file:$FLINK_CONF_DIR/logback-console.xml"
  )
  echo "Starting $service as a console application on host ${HOSTNAME:-$(hostname)}."
  # Word splitting of the option strings is wanted: each holds several JVM options.
  # shellcheck disable=SC2086
  exec "$JAVA_RUN" ${JVM_ARGS:-} $jvm_params $java_opts "${log_settings[@]}" \
    -classpath "$(flink_classpath)" "$main_class" $dynamic "${args[@]}"
}

require_start_foreground() {
  if [[ "${1:-}" != start-foreground ]]; then
    echo "Usage: $(basename "$0") start-foreground [args]" >&2
    echo "(the flink stand-in runs its processes in the foreground only, as the image's entry point does)" >&2
    exit 1
  fi
}
