# The bioner-stream job image: the shaded job jar (with its default model bundle) on the official
# Flink image, the repository's other bundles (bundles/, e.g. the Spanish pharmaconer-es) under
# /opt/bioner/bundles, ready for application mode (docker-compose `standalone-job`, or the Flink
# Kubernetes Operator with jarURI local:///opt/flink/usrlib/bioner-stream-job.jar).
#
#   docker build -t bioner-stream:0.1.0-SNAPSHOT .                        # CPU image (last stage)
#   docker build --target gpu -t bioner-stream:0.1.0-SNAPSHOT-gpu .       # CUDA 12 + onnxruntime_gpu
#
# BuildKit builds it (the cache mounts of the Maven stages): Docker 23+ by default, Docker 20.10 with
# DOCKER_BUILDKIT=1. No `# syntax=` line: that would make every build fetch a Dockerfile frontend
# image from Docker Hub, which an air-gapped or proxied site cannot reach; the frontend built into
# Docker 20.10 and later builds this file. Behind a TLS-inspecting proxy, the stages that download
# (Maven Central; NVIDIA's apt repository for the GPU image) must trust the proxy's certificate
# authority: pass it as PEM in the build argument EXTRA_CA_CERTS (docker/trust-extra-ca.sh), e.g.
#   docker build --build-arg EXTRA_CA_CERTS="$(cat /usr/local/share/ca-certificates/*.crt)" .
#
# Native code goes to /opt/flink/lib, never into the job jar: ONNX Runtime (onnxruntime, or with -Pgpu
# the 642 MB onnxruntime_gpu) and the DJL tokenizers, with what they need, as flink-lib/pom.xml lists
# them (the build copies them to flink-lib/target/lib). There they load once per TaskManager JVM, in
# the parent class loader, and stay loaded through any number of job restarts, resubmissions and
# savepoint resumes; from a job jar, each new user class loader (a resubmission, or a restart after
# slot.idle.timeout released the job's slots) would load them again: DJL's tokenizer then fails with
# "already loaded in another classloader" and ONNX Runtime leaks a copy of its library each time. One
# CUDA session per JVM, shared by all slots. ClusterITCase runs a cluster on this same list.

ARG FLINK_IMAGE=flink:2.2.1-java17
ARG MAVEN_IMAGE=maven:3.9-eclipse-temurin-17

# ---- Stage 1: build the job jar ---------------------------------------------------------------
FROM ${MAVEN_IMAGE} AS source
ARG EXTRA_CA_CERTS=""
COPY docker/trust-extra-ca.sh /usr/local/bin/trust-extra-ca.sh
RUN sh /usr/local/bin/trust-extra-ca.sh
WORKDIR /src
COPY . .

FROM source AS build-cpu
RUN --mount=type=cache,target=/m2 \
    mvn -B -Dmaven.repo.local=/m2 -DskipTests package \
    && mkdir -p /out/lib \
    && cp job/target/bioner-stream-job-*.jar /out/ \
    && rm -f /out/*-sources.jar \
    && mv /out/bioner-stream-job-*.jar /out/bioner-stream-job.jar \
    && cp flink-lib/target/lib/*.jar /out/lib/

FROM source AS build-gpu
RUN --mount=type=cache,target=/m2 \
    mvn -B -Dmaven.repo.local=/m2 -DskipTests -Pgpu package \
    && mkdir -p /out/lib \
    && cp job/target/bioner-stream-job-*.jar /out/ \
    && rm -f /out/*-sources.jar \
    && mv /out/bioner-stream-job-*.jar /out/bioner-stream-job.jar \
    && cp flink-lib/target/lib/*.jar /out/lib/

# ---- Stage 2 (GPU): Flink + CUDA 12 runtime + cuDNN 9 + onnxruntime_gpu and DJL tokenizers in lib/ ---
# Base: the official flink:2.2.1-java17 image (Ubuntu 24.04 "noble"), so the entrypoint, the flink
# user and the /opt/flink layout stay what docker-compose and the Flink Kubernetes Operator expect.
# The CUDA 12.8 runtime libraries and cuDNN 9 that the ONNX Runtime CUDA provider loads
# (libcudart, libcublas/libcublasLt, libcufft, libcurand, libcudnn) come from NVIDIA's apt
# repository for Ubuntu 24.04, the same packages the nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04
# image is made of; starting from that image instead would mean re-creating Flink's image on it.
# The driver (libcuda.so) is not in the image: the NVIDIA Container Toolkit mounts the host's at run
# time (compose device reservation, or the Kubernetes device plugin for nvidia.com/gpu).
FROM ${FLINK_IMAGE} AS gpu
ARG CUDA_APT_REPO=https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64
ARG EXTRA_CA_CERTS=""
USER root
COPY docker/trust-extra-ca.sh /usr/local/bin/trust-extra-ca.sh
RUN set -eux; \
    apt-get update; \
    apt-get install -y --no-install-recommends ca-certificates wget; \
    sh /usr/local/bin/trust-extra-ca.sh; \
    wget -q -O cuda-keyring.deb "${CUDA_APT_REPO}/cuda-keyring_1.1-1_all.deb"; \
    dpkg -i cuda-keyring.deb; \
    rm cuda-keyring.deb; \
    apt-get update; \
    apt-get install -y --no-install-recommends \
        cuda-cudart-12-8 libcublas-12-8 libcufft-12-8 libcurand-12-8 libcudnn9-cuda-12; \
    rm -rf /var/lib/apt/lists/*
ENV NVIDIA_VISIBLE_DEVICES=all \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility \
    LD_LIBRARY_PATH=/usr/local/cuda-12.8/targets/x86_64-linux/lib
USER flink
RUN mkdir -p /opt/flink/usrlib /opt/flink/checkpoints
COPY --chmod=755 docker/resume-from-latest-checkpoint.sh /opt/flink/bin/
COPY docker/log4j-quiet.properties /tmp/log4j-quiet.properties
RUN cat /tmp/log4j-quiet.properties >> /opt/flink/conf/log4j-console.properties
COPY --from=build-gpu --chown=flink:flink /out/lib/ /opt/flink/lib/
COPY --from=build-gpu --chown=flink:flink /out/bioner-stream-job.jar /opt/flink/usrlib/bioner-stream-job.jar
COPY --chown=flink:flink bundles/ /opt/bioner/bundles/

# ---- Stage 2 (CPU, default): Flink + onnxruntime (CPU) and DJL tokenizers in lib/ + the job jar ----
FROM ${FLINK_IMAGE} AS cpu
RUN mkdir -p /opt/flink/usrlib /opt/flink/checkpoints
COPY --chmod=755 docker/resume-from-latest-checkpoint.sh /opt/flink/bin/
COPY docker/log4j-quiet.properties /tmp/log4j-quiet.properties
RUN cat /tmp/log4j-quiet.properties >> /opt/flink/conf/log4j-console.properties
COPY --from=build-cpu --chown=flink:flink /out/lib/ /opt/flink/lib/
COPY --from=build-cpu --chown=flink:flink /out/bioner-stream-job.jar /opt/flink/usrlib/bioner-stream-job.jar
COPY --chown=flink:flink bundles/ /opt/bioner/bundles/
