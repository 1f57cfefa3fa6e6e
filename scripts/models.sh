#!/usr/bin/env bash
# The model corpus of issue 5: builds its own venv (.venvs/models311, Python 3.11),
# installs the pinned torch/torchvision/transformers/timm set and unveil from this
# tree, then runs the harness. Reports land in reports/models/.
#
#   bash scripts/models.sh --sample   # the fixed CI sample (default)
#   bash scripts/models.sh --all      # the whole corpus
#   bash scripts/models.sh --only hf/bert timm/resnet18
#   bash scripts/models.sh --deps-only # only the venv and its pinned packages
#   UNVEIL_WHEEL=build/wheels/unveil-...-cp311-...whl bash scripts/models.sh   # install that wheel, not a build
#   extra harness flags after the mode: --jobs 2, --no-inductor, --timeout S, --tag NAME,
#   --out DIR, --strict (exit 1 unless every model is verified: CI uses it)
#
# Why these versions: see models/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
TORCH=2.14.1 TORCHVISION=0.29.1 TRANSFORMERS=5.23.0 TIMM=1.0.31
VENV=.venvs/models311
MODE=(--sample)
if [ $# -gt 0 ]; then MODE=("$@"); fi

BASE=$(ls -d "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/3.11.*/bin/python 2>/dev/null | tail -n 1)
[ -n "$BASE" ] || BASE=$(command -v python3.11)
[ -x "$VENV/bin/python" ] || "$BASE" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip install -q --disable-pip-version-check)
want() { "$VENV/bin/python" - "$@" <<'PY'
import importlib.metadata as md, sys
pins = dict(a.split("==") for a in sys.argv[1:])
try:
    sys.exit(0 if all(md.version(k) == v for k, v in pins.items()) else 1)
except md.PackageNotFoundError:
    sys.exit(1)
PY
}
if ! want "torch==$TORCH" "torchvision==$TORCHVISION" "transformers==$TRANSFORMERS" "timm==$TIMM" \
    || ! "$VENV/bin/python" -c 'import pytest' 2>/dev/null; then
  "${PIP[@]}" "torch==$TORCH" "torchvision==$TORCHVISION"
  "${PIP[@]}" "transformers==$TRANSFORMERS" "timm==$TIMM" pytest
fi
[ "${MODE[0]}" = --deps-only ] && exit 0
export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_DIR=${CCACHE_DIR:-$PWD/build/ccache} CMAKE_BUILD_PARALLEL_LEVEL=2
command -v ccache >/dev/null || unset CMAKE_CXX_COMPILER_LAUNCHER
if [ -n "${UNVEIL_WHEEL:-}" ]; then
  # A wheel built already (scripts/test.sh passes the Python tests' 3.11 one).
  "${PIP[@]}" --force-reinstall --no-deps "$UNVEIL_WHEEL"
else
  # UNVEIL_PGO=OFF: one plain build instead of the profile-guided one.
  "${PIP[@]}" . --config-settings=build-dir='build/models-{wheel_tag}' \
    --config-settings=cmake.define.UNVEIL_PGO="${UNVEIL_PGO:-ON}"
fi
echo "models: $("$VENV/bin/python" -c 'import torch, torchvision, transformers, timm; print("torch", torch.__version__, "torchvision", torchvision.__version__, "transformers", transformers.__version__, "timm", timm.__version__)')"
exec env OMP_NUM_THREADS=2 "$VENV/bin/python" -m models.harness "${MODE[@]}"
