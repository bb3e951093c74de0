"""Peer: reads one line (a request), writes the start of its response and exits."""

from __future__ import annotations

import sys


def main() -> None:
    sys.stdin.buffer.readline()
    sys.stdout.buffer.write(b'{"jsonrpc":"2.0","id":1,"res')
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
