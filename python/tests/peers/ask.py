"""Peer: sends the requests of the script in `argv[1]` (`[{id, method, depth?}]`, params nested
`depth` levels deep when given, the frame counting as level 1), reads one answer per request, then
reports them all as an `answers` notification and exits."""

from __future__ import annotations

import json
import sys


def main() -> None:
    script = json.loads(sys.argv[1])
    out = sys.stdout.buffer
    for step in script:
        depth = step.get("depth")
        params = f',"params":{"[" * (depth - 1)}{"]" * (depth - 1)}' if depth else ""
        id_, method = json.dumps(step["id"]), step["method"]
        line = f'{{"jsonrpc":"2.0","id":{id_},"method":"{method}"{params}}}'
        out.write(line.encode() + b"\n")
    out.flush()
    answers = [json.loads(sys.stdin.buffer.readline()) for _ in script]
    out.write(json.dumps({"jsonrpc": "2.0", "method": "answers", "params": answers}).encode())
    out.write(b"\n")
    out.flush()


if __name__ == "__main__":
    main()
