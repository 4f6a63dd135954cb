"""A tool for test_tool_server.py to serve: prints what its process sees, exits with $PROBE_STATUS."""

import os
import sys


def main() -> int:
    print(f"argv={sys.argv[1:]} cwd={os.getcwd()} probe={os.environ.get('PROBE')} stdin={sys.stdin.read()!r}")
    print("to stderr", file=sys.stderr)
    return int(os.environ.get("PROBE_STATUS", "0"))
