"""Run a command; print its stderr, then `exit status N` (lit's shell has no `$?`)."""

import subprocess
import sys

done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
sys.stdout.write(done.stderr)
print(f"exit status {done.returncode}")
