# Sourced by scripts/build, scripts/test and scripts/soak-cluster: Maven's output as plain lines.
# shellcheck shell=bash
shopt -s extglob

# mvn ARGS..., in batch mode, stdout and stderr together, each line passed on as Maven writes it and
# without escape codes: Debian's Maven 3.8 writes ESC[0m even with -B -Dstyle.color=never, into
# files and pipes too. A shell loop, not awk or sed: Debian's awk (mawk) reads a pipe in blocks,
# which would hold the lines back. Its status is Maven's where the caller sets -o pipefail.
plain_mvn() {
  mvn -B -Dstyle.color=never "$@" 2>&1 | {
    local line
    while IFS= read -r line || [[ -n $line ]]; do
      printf '%s\n' "${line//$'\e['*([0-9;])[A-Za-z]/}"
    done
  }
}
