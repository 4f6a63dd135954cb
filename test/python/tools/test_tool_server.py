"""The fork server lit runs loop-opt and filecheck through (tools/tool_server.py): a tool run by
the client behaves as the tool run as a process, byte for byte, status included."""

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
HERE = Path(__file__).resolve().parent
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sum_of_squares.mlir"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(directory of client shims named loop-opt and filecheck, environment that reaches the server)."""
    root = tmp_path_factory.mktemp("server")
    socket_path = root / "tools.sock"
    shims = root / "bin"
    shims.mkdir()
    client = Path(importlib.util.find_spec("loopopt.tools.tool_client").origin).read_text()
    for tool in ("loop-opt", "filecheck", "served-probe"):
        (shims / tool).write_text(f"#!{sys.executable} -S\n" + client)
        (shims / tool).chmod(0o755)
    server_env = {**os.environ, "PYTHONPATH": str(HERE)}
    proc = subprocess.Popen([sys.executable, "-m", "loopopt.tools.tool_server", str(socket_path), "served-probe=served_probe:main"],
                            stdin=subprocess.PIPE, env=server_env)
    deadline = time.monotonic() + 120
    while not socket_path.exists():
        assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    env = {**server_env, "PATH": f"{shims}{os.pathsep}{BIN}{os.pathsep}{os.environ['PATH']}", "LOOPOPT_TOOL_SERVER": str(socket_path)}
    yield shims, env
    proc.stdin.close()  # end of file: the server stops and removes its socket
    assert proc.wait(timeout=60) == 0
    assert not socket_path.exists()


def both(server, tool: str, args: list[str], **kwargs) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    shims, env = server
    served = subprocess.run([str(shims / tool), *args], env=env, capture_output=True, **kwargs)
    plain_env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    plain = subprocess.run([str(BIN / tool), *args], env=plain_env, capture_output=True, **kwargs)
    return served, plain


def same(served: subprocess.CompletedProcess, plain: subprocess.CompletedProcess) -> None:
    assert (served.returncode, served.stdout, served.stderr) == (plain.returncode, plain.stdout, plain.stderr)


def test_a_pipeline_to_c(server):
    served, plain = both(server, "loop-opt", [str(EXAMPLE), "-p", "loop-pipeline{target=avx2}", "-t", "c"])
    same(served, plain)
    assert served.returncode == 0 and b"_mm256" in served.stdout


def test_input_on_stdin_and_a_relative_path_from_the_working_directory(server, tmp_path):
    (tmp_path / "in.mlir").write_text(EXAMPLE.read_text())
    same(*both(server, "loop-opt", ["-p", "df-fuse"], input=EXAMPLE.read_bytes()))
    same(*both(server, "loop-opt", ["in.mlir", "-o", "out.mlir"], cwd=tmp_path))
    assert (tmp_path / "out.mlir").read_text().startswith("builtin.module")


def test_errors_keep_their_status_and_diagnostic(server, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text('"df.nonsense"() : () -> ()\n')
    served, plain = both(server, "loop-opt", [str(bad)])
    same(served, plain)
    assert served.returncode == 1 and b"bad.mlir" in served.stderr
    served, plain = both(server, "loop-opt", [str(EXAMPLE), "-p", "loop-unroll{factor=0}"])
    same(served, plain)
    assert served.returncode == 2


def test_the_child_is_the_clients_process(server, tmp_path):
    shims, env = server
    served = subprocess.run([str(shims / "served-probe"), "a b", "--c"], env={**env, "PROBE": "x y", "PROBE_STATUS": "7"},
                            cwd=tmp_path, input=b"in put", capture_output=True)
    assert served.returncode == 7
    assert served.stdout.decode() == f"argv=['a b', '--c'] cwd={tmp_path} probe=x y stdin='in put'\n"
    assert served.stderr == b"to stderr\n"


def test_a_client_unlike_the_server_runs_the_tool_itself(server, tmp_path):
    # A variable read when modules are imported (the fast paths' opt-out, PYTHON*) cannot reach a
    # fork of a process that imported them already: the client then runs the tool on PATH.
    shims, env = server
    real = tmp_path / "bin"
    real.mkdir()
    (real / "served-probe").write_text("#!/bin/sh\necho run as a process \"$@\"\n")
    (real / "served-probe").chmod(0o755)
    env = {**env, "PATH": f"{shims}{os.pathsep}{real}{os.pathsep}{env['PATH']}"}
    for extra in ({"LOOPOPT_NO_FASTPATHS": "1"}, {"PYTHONWARNINGS": "error"}):
        served = subprocess.run([str(shims / "served-probe"), "arg"], env={**env, **extra}, capture_output=True)
        assert (served.returncode, served.stdout) == (0, b"run as a process arg\n")
    served = subprocess.run([str(shims / "served-probe"), "arg"], env=env, capture_output=True)
    assert served.stdout.startswith(b"argv=['arg']")


def test_filecheck_mismatch_fails_as_it_does_alone(server, tmp_path):
    check = tmp_path / "check.mlir"
    check.write_text("// CHECK: expected text\n")
    served, plain = both(server, "filecheck", [str(check)], input=b"other text\n")
    same(served, plain)
    assert served.returncode == 1


def test_without_a_server_the_client_runs_the_tool(server, tmp_path):
    shims, env = server
    served = subprocess.run([str(shims / "loop-opt"), "--version"], env={**env, "LOOPOPT_TOOL_SERVER": str(tmp_path / "none")},
                            capture_output=True)
    plain = subprocess.run([str(BIN / "loop-opt"), "--version"], capture_output=True)
    same(served, plain)
