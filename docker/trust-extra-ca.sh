#!/bin/sh
# Makes a build stage trust the certificate authorities in the build argument EXTRA_CA_CERTS (PEM, one
# or more certificates), for the stages that download over HTTPS (Maven Central, NVIDIA's apt
# repository). Behind a TLS-inspecting proxy (a corporate network, a sandbox's egress) every HTTPS
# answer is signed by the site's own CA, which no image trusts: give that CA, e.g.
#
#   EXTRA_CA_CERTS="$(cat /usr/local/share/ca-certificates/*.crt)" docker-compose build
#   docker build --build-arg EXTRA_CA_CERTS="$(cat my-proxy-ca.pem)" .
#
# Empty (the default), it does nothing. It adds the certificates to the system store where Debian's or
# Ubuntu's update-ca-certificates exists (curl, wget, apt), and to the Java runtime's own trust store
# with keytool (Maven): Temurin's JDK (the official maven and flink images) keeps its own cacerts
# beside the system's. Certificates are public: this is no secret, but it stays in build stages
# where it can (the CPU image's final stage never runs this).
set -eu

if [ -z "${EXTRA_CA_CERTS:-}" ]; then
  exit 0
fi
dir="$(mktemp -d)"
printf '%s\n' "$EXTRA_CA_CERTS" | awk -v dir="$dir" '
  /-----BEGIN CERTIFICATE-----/ { n++; file = sprintf("%s/bioner-extra-ca-%02d.crt", dir, n) }
  n && file != "" { print > file }
  /-----END CERTIFICATE-----/ { close(file); file = "" }'
count="$(find "$dir" -name '*.crt' | wc -l)"
if [ "$count" -eq 0 ]; then
  echo "EXTRA_CA_CERTS is set but holds no PEM certificate (-----BEGIN CERTIFICATE-----)" >&2
  exit 1
fi

if [ -d /usr/local/share/ca-certificates ] && command -v update-ca-certificates >/dev/null 2>&1; then
  cp "$dir"/*.crt /usr/local/share/ca-certificates/
  update-ca-certificates >/dev/null 2>&1
fi

keytool="$(command -v keytool || true)"
if [ -z "$keytool" ] && [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/keytool" ]; then
  keytool="$JAVA_HOME/bin/keytool"
fi
if [ -n "$keytool" ]; then
  for cert in "$dir"/*.crt; do
    alias="$(basename "$cert" .crt)"
    # Debian's update-ca-certificates may have put it into Java's store already (ca-certificates-java).
    "$keytool" -delete -cacerts -storepass changeit -alias "$alias" >/dev/null 2>&1 || true
    "$keytool" -importcert -noprompt -cacerts -storepass changeit -alias "$alias" -file "$cert" >/dev/null
  done
fi
rm -rf "$dir"
echo "trusting $count extra CA certificate(s) from EXTRA_CA_CERTS" >&2
