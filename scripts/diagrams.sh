#!/usr/bin/env bash
# The timing diagrams of docs/timing/ (and their page, README.md): WaveJSON from lockstep runs of the golden model and
# the Verilated RTL (`spe diagrams`), rendered to SVG by WaveDrom (the yowasp-wavedrom
# package from PyPI, pinned, installed into .deps/wavedrom).
#   scripts/diagrams.sh          regenerate docs/timing/*.json and *.svg
#   scripts/diagrams.sh --check  fail if a JSON or SVG differs from a fresh generation
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
need python3 python3

MODE=${1:-write}
SPE=${SPE:-target/release/spe}
DIR=docs/timing
VERSION=3.5.0.7
DEPS=.deps/wavedrom
pip_dep yowasp-wavedrom "$VERSION" "$DEPS"
[ -x "$SPE" ] || step cargo build --release --quiet --bin spe

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
step "$SPE" diagrams --out "$WORK"
# Render every JSON to SVG (deterministic: yowasp-wavedrom drops the random element ids).
PYTHONPATH="$DEPS" python3 - "$WORK" <<'PY'
import json, pathlib, sys
from yowasp_wavedrom import render
for src in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    src.with_suffix(".svg").write_text(render(json.loads(src.read_text())))
    print(f"rendered {src.stem}.svg")
PY
if [ "$MODE" = --check ]; then
    if diff -r "$WORK" "$DIR" >/dev/null; then
        echo "diagrams: $DIR is current ($(ls "$WORK"/*.json | wc -l) diagrams)"
    else
        diff -rq "$WORK" "$DIR" >&2 || true
        echo "error: $DIR is stale: run scripts/diagrams.sh" >&2
        exit 1
    fi
else
    mkdir -p "$DIR"
    rm -f "$DIR"/*.json "$DIR"/*.svg "$DIR"/README.md
    cp "$WORK"/*.json "$WORK"/*.svg "$WORK"/README.md "$WORK"/.spe-generated "$DIR"/
    echo "diagrams: wrote $DIR"
fi
