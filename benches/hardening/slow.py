"""Slow-header clients: N connections that each send a request line, then one header
byte per second, reconnecting whenever the server closes them. Runs for SECS seconds and
prints how many connections the server closed."""
import asyncio
import sys

HOST, PORT, N, SECS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
closed = 0


async def one():
    global closed
    while True:
        try:
            reader, writer = await asyncio.open_connection(HOST, PORT)
            writer.write(b"POST /v1/anonymize HTTP/1.1\r\nHost: x\r\n")
            await writer.drain()
            while True:
                await asyncio.sleep(1)
                writer.write(b"a")
                await writer.drain()
                if reader.at_eof():
                    raise ConnectionError
        except (OSError, ConnectionError):
            closed += 1
            await asyncio.sleep(0.1)


async def main():
    tasks = [asyncio.create_task(one()) for _ in range(N)]
    await asyncio.sleep(SECS)
    for t in tasks:
        t.cancel()
    print(closed)


asyncio.run(main())
