#!/usr/bin/env bash
# flink stand-in (docker/standins/README.md): config-parser-utils.sh CONF_DIR BIN_DIR LIB_DIR ARGS...,
# as the image's docker-entrypoint.sh and Dockerfile call it: BashJavaUtils applies ARGS (-Dkey=value,
# -repKV key,old,new, -rmKV key=value, -rmKey key) to CONF_DIR/config.yaml and the result replaces it.
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "Usage: $0 <FLINK_CONF_DIR> <FLINK_BIN_DIR> <FLINK_LIB_DIR> [dynamic args...]" >&2
  exit 1
fi
# shellcheck source=config.sh
. "$2/config.sh"
conf_dir=$1
lib_dir=$3
shift 3
result="$(bash_java_utils UPDATE_AND_GET_FLINK_CONFIGURATION --lib "$lib_dir" --configDir "$conf_dir" "$@")" || exit 1
printf '%s\n' "$result" > "$conf_dir/config.yaml"
