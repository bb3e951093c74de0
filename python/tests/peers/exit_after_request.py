"""Peer: reads one line (a request), answers nothing and exits with code 3."""

from __future__ import annotations

import sys


def main() -> None:
    sys.stdin.buffer.readline()
    sys.exit(3)


if __name__ == "__main__":
    main()
