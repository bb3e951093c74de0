"""Peer: sleeps `argv[1]` seconds before reading, then counts the lines and bytes it receives
until a `done` notification (or the end of input) and reports them in a `received`
notification."""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    time.sleep(float(sys.argv[1]))
    lines = 0
    size = 0
    for line in sys.stdin.buffer:
        if b'"method":"done"' in line:
            break
        lines += 1
        size += len(line)
    report = {"jsonrpc": "2.0", "method": "received", "params": {"lines": lines, "bytes": size}}
    sys.stdout.buffer.write(json.dumps(report).encode() + b"\n")
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
