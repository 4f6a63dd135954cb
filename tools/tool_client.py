"""The client of tool_server.py: run the tool this file is named after in the server's fork.

Installed (copied) under a tool's name with `#!<python> -S` as its first line, so it starts
in ~20 ms with the standard library only. It sends its arguments, working directory,
environment and file descriptors 0-2 to the server at `$LOOPOPT_TOOL_SERVER` and exits with
the status the server's child sends back. Without a server to talk to, it runs the real tool
(the next one of that name on PATH) itself.
"""

import json
import os
import socket
import struct
import sys


def _real_tool(name: str) -> str:
    here = os.path.dirname(os.path.realpath(__file__))
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(directory, name)
        if os.path.realpath(directory or ".") != here and os.access(candidate, os.X_OK):
            return candidate
    sys.exit(f"{name}: not found on PATH")


RUN_YOURSELF = 1 << 16
"""tool_server.RUN_YOURSELF (this file imports nothing of loopopt)."""


def _run_yourself(name: str) -> None:
    real = _real_tool(name)
    os.execv(real, [real, *sys.argv[1:]])


def main() -> None:
    name = os.path.basename(sys.argv[0])
    path = os.environ.get("LOOPOPT_TOOL_SERVER", "")
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        _run_yourself(name)
    body = json.dumps({"tool": name, "argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    message = struct.pack("<I", len(body)) + body
    sent = socket.send_fds(conn, [message], [0, 1, 2])
    conn.sendall(message[sent:])
    reply = b""
    while len(reply) < 4:
        chunk = conn.recv(4 - len(reply))
        if not chunk:
            sys.stderr.write(f"{name}: the tool server's child ended without a status\n")
            sys.exit(1)
        reply += chunk
    (status,) = struct.unpack("<i", reply)
    if status == RUN_YOURSELF:  # the server cannot serve this environment (or tool)
        conn.close()
        _run_yourself(name)
    sys.exit(status & 0xFF)


if __name__ == "__main__":
    main()
