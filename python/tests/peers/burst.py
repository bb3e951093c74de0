"""Peer: writes `argv[1]` notifications `tick` with `params.seq` 0, 1, … as fast as it can."""

from __future__ import annotations

import sys


def main() -> None:
    count = int(sys.argv[1])
    out = sys.stdout.buffer
    batch: list[bytes] = []
    for seq in range(count):
        batch.append(b'{"jsonrpc":"2.0","method":"tick","params":{"seq":%d}}\n' % seq)
        if len(batch) == 1000:
            out.write(b"".join(batch))
            batch.clear()
    out.write(b"".join(batch))
    out.flush()


if __name__ == "__main__":
    main()
