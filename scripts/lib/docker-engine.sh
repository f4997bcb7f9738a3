# Sourced by scripts/compose-check and scripts/tm-heap-after-cancel: a Docker engine to talk to, and
# the CLI and docker-compose that build with BuildKit on it.
# shellcheck shell=bash
#
# use_docker_engine STATE_DIR: DOCKER_HOST's engine, else the host's (/var/run/docker.sock), else one
# of its own, started as root: dockerd with its data root, exec root, pid file and socket under
# STATE_DIR, so that it touches nothing else on the host. Sets ENGINE_PID (empty unless it started
# one) and ENGINE_DESCRIPTION; stop_docker_engine stops that dockerd by its pid (its data root stays:
# images and build caches for the next run). Returns 1 with a message on stderr when no engine can
# be had.
#
# Docker 20.10 builds RUN --mount (BuildKit) through its own CLI only: a newer docker CLI without the
# buildx plugin earlier on the PATH cannot, so Debian's /usr/bin/docker goes first on the PATH, and
# docker-compose 1.29 builds through it with COMPOSE_DOCKER_CLI_BUILD=1 DOCKER_BUILDKIT=1.

ENGINE_PID=""
ENGINE_DESCRIPTION=""

# The docker CLI and docker-compose (1.29's docker-compose, or Compose v2's docker compose): sets
# DOCKER_CLI and the array COMPOSE_CLI, puts the CLI's folder first on the PATH.
use_docker_cli() {
  if [[ -x /usr/bin/docker ]]; then
    DOCKER_CLI=/usr/bin/docker
  else
    DOCKER_CLI="$(command -v docker || true)"
  fi
  if [[ -z "$DOCKER_CLI" ]]; then
    echo "no docker CLI: install Debian's docker.io (scripts/test does, as root)" >&2
    return 1
  fi
  PATH="$(dirname "$DOCKER_CLI"):$PATH"
  export PATH COMPOSE_DOCKER_CLI_BUILD=1 DOCKER_BUILDKIT=1
  if command -v docker-compose >/dev/null; then
    COMPOSE_CLI=(docker-compose)
  elif docker compose version >/dev/null 2>&1; then
    COMPOSE_CLI=(docker compose)
  else
    echo "no docker-compose: install Debian's docker-compose (scripts/test does, as root)" >&2
    return 1
  fi
}

docker_engine_answers() {
  docker info >/dev/null 2>&1
}

use_docker_engine() {
  local state=$1
  if [[ -n "${DOCKER_HOST:-}" ]]; then
    if ! docker_engine_answers; then
      echo "DOCKER_HOST=$DOCKER_HOST does not answer" >&2
      return 1
    fi
    ENGINE_DESCRIPTION="DOCKER_HOST=$DOCKER_HOST"
  elif [[ -S /var/run/docker.sock ]] && docker_engine_answers; then
    ENGINE_DESCRIPTION="this host's, /var/run/docker.sock"
  else
    if [[ $EUID -ne 0 ]]; then
      echo "no Docker engine answers, and starting one needs root" >&2
      return 1
    fi
    if ! command -v dockerd >/dev/null; then
      echo "no dockerd: install Debian's docker.io (scripts/test does, as root)" >&2
      return 1
    fi
    if pgrep -x dockerd >/dev/null; then
      echo "note: another dockerd runs here (pid $(pgrep -x dockerd | xargs)) without answering on" \
        "/var/run/docker.sock; both use the bridge docker0 (DOCKER_HOST=its socket would use it instead)" >&2
    fi
    mkdir -p "$state/data" "$state/exec"
    dockerd --data-root "$state/data" --exec-root "$state/exec" --pidfile "$state/dockerd.pid" \
      --host "unix://$state/docker.sock" >>"$state/dockerd.log" 2>&1 &
    ENGINE_PID=$!
    export DOCKER_HOST="unix://$state/docker.sock"
    local _
    for _ in $(seq 60); do
      docker_engine_answers && break
      kill -0 "$ENGINE_PID" 2>/dev/null || break
      sleep 1
    done
    if ! docker_engine_answers; then
      tail -n 20 "$state/dockerd.log" >&2
      echo "own dockerd did not answer (log: $state/dockerd.log)" >&2
      stop_docker_engine
      return 1
    fi
    ENGINE_DESCRIPTION="own dockerd, pid $ENGINE_PID, data root $state/data"
  fi
  ENGINE_DESCRIPTION="$ENGINE_DESCRIPTION (Docker $(docker version --format '{{.Server.Version}}'))"
}

# Stops the dockerd use_docker_engine started (SIGTERM, SIGKILL after 60 s); nothing otherwise.
stop_docker_engine() {
  [[ -n "$ENGINE_PID" ]] || return 0
  kill "$ENGINE_PID" 2>/dev/null || true
  local waited=0
  while kill -0 "$ENGINE_PID" 2>/dev/null && ((waited < 60)); do
    sleep 1
    waited=$((waited + 1))
  done
  if kill -0 "$ENGINE_PID" 2>/dev/null; then
    kill -9 "$ENGINE_PID" 2>/dev/null || true
    echo "dockerd $ENGINE_PID did not stop in 60 s: killed" >&2
  fi
  ENGINE_PID=""
}

# The extra CA certificates the builds trust (EXTRA_CA_CERTS, exported): as given, else this host's
# locally added ones (/usr/local/share/ca-certificates, where Debian and Ubuntu keep a site's own
# CAs). Sets EXTRA_CA_MESSAGE to a line saying which.
use_extra_ca_certs() {
  EXTRA_CA_MESSAGE="builds trust no extra CA certificate (EXTRA_CA_CERTS is empty)"
  if [[ -z "${EXTRA_CA_CERTS:-}" ]]; then
    local cas=()
    mapfile -t cas < <(find /usr/local/share/ca-certificates -name '*.crt' 2>/dev/null | sort)
    if [[ ${#cas[@]} -gt 0 ]]; then
      EXTRA_CA_CERTS="$(cat "${cas[@]}")"
      EXTRA_CA_MESSAGE="builds trust this host's ${#cas[@]} locally added CA certificate(s) (/usr/local/share/ca-certificates, as EXTRA_CA_CERTS)"
    fi
  else
    EXTRA_CA_MESSAGE="builds trust the CA certificate(s) of EXTRA_CA_CERTS"
  fi
  export EXTRA_CA_CERTS="${EXTRA_CA_CERTS:-}"
}

# The default state folder of a script's own engine: per checkout, so two clones do not share it.
default_engine_state() {
  echo "/var/tmp/bioner-compose-check-$(printf '%s' "$PWD" | sha256sum | cut -c1-8)"
}
