"""lit configuration for loopopt's FileCheck tests (mirrors xDSL's tests/filecheck)."""

import atexit
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time

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

# loop-opt and filecheck through a fork server (tools/tool_server.py): each RUN line's tool is
# forked from one process that imported xDSL and loopopt once, instead of paying ~0.4 s of
# start-up at each of 500 RUN lines (the whole suite: 6:19 -> 3:00 on 2 cores). The server ends
# when lit does (its stdin closes). LOOPOPT_LIT_SERVER=0 runs the tools as plain processes; so
# does the client by itself when the server is not there.
# The shims' `#!` line must fit the kernel's limit (127 bytes before Linux 5.1).
if os.environ.get("LOOPOPT_LIT_SERVER", "1") != "0" and len(sys.executable) < 120:
    server_dir = tempfile.mkdtemp(prefix="loopopt-lit-")
    atexit.register(lambda: shutil.rmtree(server_dir, ignore_errors=True))
    socket_path = os.path.join(server_dir, "tools.sock")
    shim_dir = os.path.join(server_dir, "bin")
    os.mkdir(shim_dir)
    with open(importlib.util.find_spec("loopopt.tools.tool_client").origin) as f:
        client_text = f.read()
    for tool in ("loop-opt", "filecheck"):
        shim = os.path.join(shim_dir, tool)
        with open(shim, "w") as f:
            f.write(f"#!{sys.executable} -S\n" + client_text)
        os.chmod(shim, 0o755)
    server = subprocess.Popen(
        [sys.executable, "-m", "loopopt.tools.tool_server", socket_path],
        stdin=subprocess.PIPE,
        env=dict(config.environment),  # as the tests run: the children compare their PYTHON* with it
    )
    deadline = time.monotonic() + 60  # the server imports xDSL before it listens
    while not os.path.exists(socket_path) and server.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    if os.path.exists(socket_path):
        config.environment["PATH"] = shim_dir + os.pathsep + config.environment["PATH"]
        config.environment["LOOPOPT_TOOL_SERVER"] = socket_path
