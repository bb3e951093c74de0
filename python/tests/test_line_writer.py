"""LineWriter: whole lines, in the order asked for, with back-pressure."""

from __future__ import annotations

import asyncio

import pytest

from dsh_sdk.errors import TransportClosedError
from dsh_sdk.line_writer import LineWriter
from time_budget import budget
from transport_support import MemoryOutput, settle

# Every test fails on an error the event loop would only log.
pytestmark = pytest.mark.usefixtures("no_loop_errors")


class UnknownOutput:
    """An output that cannot tell whether drain() would wait."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        await asyncio.sleep(0)

    def is_closing(self) -> bool:
        return False


async def test_lines_go_out_in_the_order_asked_for_while_the_output_is_congested() -> None:
    output = MemoryOutput()
    writer = LineWriter(output, lambda error: None)
    output.writable.clear()
    first = asyncio.ensure_future(writer.write_line(b"1\n"))
    await settle()
    writer.write_line_soon(b"2\n")
    third = asyncio.ensure_future(writer.write_line(b"3\n"))
    await settle()  # the task asks for its turn when it starts
    writer.write_line_soon(b"4\n")
    await settle()
    assert bytes(output.data) == b"1\n"
    output.writable.set()
    await asyncio.gather(first, third)
    await settle()
    assert bytes(output.data) == b"1\n2\n3\n4\n"


async def test_a_line_asked_for_at_once_is_written_at_once() -> None:
    output = MemoryOutput()
    writer = LineWriter(output, lambda error: None)
    writer.write_line_soon(b"now\n")
    assert bytes(output.data) == b"now\n"


async def test_a_write_cancelled_while_waiting_for_its_turn_does_not_stall_the_next() -> None:
    output = MemoryOutput()
    writer = LineWriter(output, lambda error: None)
    output.writable.clear()
    first = asyncio.ensure_future(writer.write_line(b"1\n"))
    await settle()
    second = asyncio.ensure_future(writer.write_line(b"2\n"))
    third = asyncio.ensure_future(writer.write_line(b"3\n"))
    await settle()
    second.cancel()
    output.writable.set()
    await asyncio.gather(first, third)
    assert bytes(output.data) == b"1\n3\n"


async def test_a_write_handed_its_turn_and_then_cancelled_passes_the_turn_on() -> None:
    tasks: list[asyncio.Future[None]] = []

    class CancelOnHandover(LineWriter):
        """Cancels the second write right after it was handed the turn, before it can run."""

        def _end_turn(self) -> None:
            super()._end_turn()
            if len(tasks) == 3 and not tasks[1].done():
                tasks[1].cancel()

    output = MemoryOutput()
    writer = CancelOnHandover(output, lambda error: None)
    output.writable.clear()
    for line in (b"1\n", b"2\n", b"3\n"):
        tasks.append(asyncio.ensure_future(writer.write_line(line)))
        await settle()
    output.writable.set()
    await asyncio.wait_for(tasks[2], budget(2))
    assert tasks[1].cancelled()
    assert bytes(output.data) == b"1\n3\n"


async def test_a_failed_drain_fails_the_writer_once_and_every_later_write() -> None:
    output = MemoryOutput()
    failures: list[TransportClosedError] = []
    writer = LineWriter(output, failures.append)
    output.drain_error = ConnectionResetError("Connection lost")
    with pytest.raises(TransportClosedError) as caught:
        await writer.write_line(b"1\n")
    assert caught.value.reason == "output-error"
    assert "Connection lost" in str(caught.value)
    writer.write_line_soon(b"2\n")
    with pytest.raises(TransportClosedError):
        await writer.write_line(b"3\n")
    assert len(failures) == 1
    assert bytes(output.data) == b"1\n"


async def test_dispose_releases_every_write_waiting_and_refuses_later_ones() -> None:
    output = MemoryOutput()
    writer = LineWriter(output, lambda error: None)
    output.writable.clear()
    waiting = [asyncio.ensure_future(writer.write_line(b"%d\n" % i)) for i in range(3)]
    await settle()
    writer.dispose(TransportClosedError("closed", "bye"))
    for write in waiting:
        with pytest.raises(TransportClosedError) as caught:
            await write
        assert caught.value.reason == "closed"
    assert bytes(output.data) == b"0\n"


async def test_an_output_that_cannot_tell_its_buffer_size_is_drained_after_every_line() -> None:
    output = UnknownOutput()
    writer = LineWriter(output, lambda error: None)
    await asyncio.gather(*(writer.write_line(b"%d\n" % i) for i in range(5)))
    writer.write_line_soon(b"5\n")
    await writer.write_line(b"6\n")
    assert bytes(output.data) == b"0\n1\n2\n3\n4\n5\n6\n"


async def test_write_serializes_compactly_and_refuses_what_json_cannot_hold() -> None:
    output = MemoryOutput()
    writer = LineWriter(output, lambda error: None)
    await writer.write({"jsonrpc": "2.0", "method": "m", "params": ["é"]})
    with pytest.raises(TypeError):
        await writer.write({"x": object()})
    assert bytes(output.data) == '{"jsonrpc":"2.0","method":"m","params":["é"]}\n'.encode()
    assert writer.failure is None
