#!/usr/bin/env bash
# Sets up unveil with torch in a virtual environment (.venvs/demo, Python 3.11,
# torch 2.13.0 CPU) and runs the demo: a small model compiled under
# unveil.prepare_debug, then the cross-version bytecode reader.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-$(ls -d "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/3.11.*/bin/python 2>/dev/null | tail -n 1)}
PYTHON=${PYTHON:-python3}
if [ ! -x .venvs/demo/bin/python ]; then
  "$PYTHON" -m venv .venvs/demo
fi
.venvs/demo/bin/python -m pip install -q torch==2.13.0 numpy
.venvs/demo/bin/python -m pip install -q .
.venvs/demo/bin/python examples/torch_demo.py "${1:-.venvs/demo-dump}"
echo
.venvs/demo/bin/python examples/demo.py
