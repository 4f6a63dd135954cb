"""A fork server for command-line tools written in Python: start-up paid once, not per run.

`loop-opt` spends ~0.4 s of a typical FileCheck test importing xDSL and loopopt, and lit runs it
over 500 times (`filecheck` adds ~0.1 s each). This server imports the tools once; for each
request it forks a child, which takes over the client's argument vector, environment, working
directory and standard streams (the client passes file descriptors 0-2 over a Unix socket,
SCM_RIGHTS), runs the tool's entry point, and sends back its exit status. Every child is a
copy of a process that has only imported modules and run nothing, so no request can see
another's state; what differs from a fresh process is that modules are already imported.

    python -m loopopt.tools.tool_server SOCKET [NAME=module:function ...]
                                                  # serves until its standard input closes

The client is `tool_client.py` (standard library only, run with `python -S`) installed under a
tool's name; it runs the real tool itself when no server answers. test/filecheck/lit.cfg.py
starts a server for the lit run (the README's "make test" paragraph).
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import select
import signal
import socket
import struct
import sys
from collections.abc import Callable

TOOLS: dict[str, str] = {
    "loop-opt": "loopopt.tools.loop_opt:main",
    "filecheck": "filecheck.main:main",
}
"""Tool name (the client's basename) -> entry point, as in a console_scripts table."""

IMPORT_TIME_VARIABLES = ("LOOPOPT_NO_FASTPATHS",)
"""Variables read when a module is imported (xdsl_fastpaths): a client whose value differs from
the server's is told to run the tool itself, as are clients that differ in a PYTHON* variable."""

RUN_YOURSELF = 1 << 16
"""The reply telling a client to run the tool as a process (not an exit status: those are 0-255)."""

HEADER = struct.Struct("<I")
"""A request: its JSON length, then the JSON ({"tool", "argv", "cwd", "env"}); the reply: the
exit status, one signed 32-bit integer."""

MAX_REQUEST = 1 << 24


def entry_point(spec: str) -> Callable[[], object]:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def _read_request(conn: socket.socket) -> tuple[dict, list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 65536, 3)
    if len(data) < HEADER.size:
        raise ValueError("short request")
    (length,) = HEADER.unpack_from(data)
    if length > MAX_REQUEST:
        raise ValueError("request too long")
    body = bytearray(data[HEADER.size:])
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            raise ValueError("truncated request")
        body += chunk
    return json.loads(body), fds


def _run_tool(entry: Callable[[], object]) -> int:
    """The tool's exit status as its console script would give it (`sys.exit(main())`)."""
    try:
        result = entry()
    except SystemExit as e:
        result = e.code
    except BaseException:  # noqa: BLE001 - an uncaught exception, as the interpreter reports it
        sys.excepthook(*sys.exc_info())
        return 1
    if result is None:
        return 0
    if isinstance(result, int):
        return result
    print(result, file=sys.stderr)
    return 1


def _reopen_standard_streams() -> None:
    """New sys.stdin/stdout/stderr on the client's descriptors, as the interpreter makes them at
    start-up: the server's objects carry state of its own descriptors (seekability, buffers)."""
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        old = getattr(sys, name)
        line_buffered = fd == 2 or (fd == 1 and os.isatty(1))
        stream = open(fd, "r" if fd == 0 else "w", buffering=1 if line_buffered else -1, encoding=old.encoding,
                      errors=old.errors, closefd=False)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _served_alike(env: dict[str, str]) -> bool:
    """Whether a client with environment `env` would have imported the tools as the server did."""
    names = {n for n in (*env, *os.environ) if n.startswith("PYTHON") or n in IMPORT_TIME_VARIABLES}
    return all(env.get(n) == os.environ.get(n) for n in names)


def _child(conn: socket.socket, entries: dict[str, Callable[[], object]]) -> None:
    """In the forked child: become the client's process and run its tool. Never returns."""
    status = 1
    try:
        request, fds = _read_request(conn)
        if len(fds) != 3:
            raise ValueError("a request passes three file descriptors")
        if request["tool"] not in entries or not _served_alike(request["env"]):
            status = RUN_YOURSELF
            return
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        _reopen_standard_streams()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        tool = request["tool"]
        sys.argv = [tool, *request["argv"]]
        signal.signal(signal.SIGINT, signal.default_int_handler)
        status = _run_tool(entries[tool])
    except BaseException as e:  # noqa: BLE001 - the client must always hear back
        print(f"tool server: {type(e).__name__}: {e}", file=sys.stderr)
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001 - a closed pipe: the status still goes back
            status = status or 1
        try:
            conn.sendall(struct.pack("<i", status))
        finally:
            os._exit(0 if status == RUN_YOURSELF else status & 0xFF)


def serve(path: str, tools: dict[str, str] = TOOLS, stop_fd: int = 0) -> None:
    """Serve `tools` (name -> entry point) on the Unix socket `path` until `stop_fd` reaches end of file."""
    entries = {name: entry_point(spec) for name, spec in tools.items()}
    gc.collect()
    gc.freeze()  # the imported modules: children share these pages instead of copying them
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(64)
    try:
        while True:
            ready, _, _ = select.select([server, stop_fd], [], [])
            if stop_fd in ready and not os.read(stop_fd, 4096):
                return
            if server in ready:
                conn, _ = server.accept()
                if os.fork() == 0:
                    server.close()
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    _child(conn, entries)
                conn.close()
    finally:
        server.close()
        try:
            os.unlink(path)
        except OSError:
            pass


def main() -> None:
    args = sys.argv[1:]
    extra = [a.partition("=") for a in args[1:]]
    if not args or any(not name or not spec for name, _, spec in extra):
        sys.exit("usage: python -m loopopt.tools.tool_server SOCKET [NAME=module:function ...]")
    serve(args[0], {**TOOLS, **{name: spec for name, _, spec in extra}})


if __name__ == "__main__":
    main()
