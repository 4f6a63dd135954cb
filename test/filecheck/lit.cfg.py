"""lit configuration for loopopt's FileCheck tests (mirrors xDSL's tests/filecheck)."""

import os
import sys

import lit.formats

config.name = "loopopt"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "Inputs", "Output"]
config.test_source_root = os.path.dirname(__file__)

# The venv's bin first on PATH, so loop-opt, xdsl-opt and filecheck are the project's.
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
for var in ("HOME", "LOOPOPT_CACHE_DIR", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Round-trip macros (xDSL's XDSL_ROUNDTRIP / XDSL_GENERIC_ROUNDTRIP); listed before any
# substitution that rewrites a tool name, since lit applies them in order.
config.substitutions.append(
    ("LOOPOPT_ROUNDTRIP", "loop-opt %s | loop-opt | filecheck %s")
)
config.substitutions.append(
    (
        "LOOPOPT_GENERIC_ROUNDTRIP",
        "loop-opt %s --print-op-generic | loop-opt | filecheck %s",
    )
)
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
