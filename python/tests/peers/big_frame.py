"""Peer: writes one `session.event`-like notification carrying an inline image of `argv[1]` raw
bytes (base64, so a third larger), then a small `after` notification giving the size of the big
line, then exits."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import sys


def main() -> None:
    raw = random.Random(7).randbytes(int(sys.argv[1]))
    block = {
        "type": "image",
        "mimeType": "image/png",
        "data": base64.b64encode(raw).decode("ascii"),
        "sha256": hashlib.sha256(raw).hexdigest(),
    }
    message = {"jsonrpc": "2.0", "method": "image", "params": block}
    line = json.dumps(message, separators=(",", ":")).encode()
    out = sys.stdout.buffer
    out.write(line + b"\n")
    after = {"jsonrpc": "2.0", "method": "after", "params": {"previousLineBytes": len(line)}}
    out.write(json.dumps(after, separators=(",", ":")).encode() + b"\n")
    out.flush()


if __name__ == "__main__":
    main()
