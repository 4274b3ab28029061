"""A streaming (SSE) upstream for the time-to-first-token benchmark: the first event
goes out at once, then nine more every 20 ms. `serve` is shared with scan_upstream.py."""
import asyncio
import json
import sys

EVENT = "data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": "token "}}]}) + "\n\n"


async def handle(reader, writer, events, pace):
    """Answers every request on the connection with `events` (bytes each), `pace`
    seconds apart, chunked; a request body is read and dropped."""
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if length:
                await reader.readexactly(length)
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
            for i, data in enumerate(events):
                if i and pace:
                    await asyncio.sleep(pace)
                writer.write(b"%x\r\n%s\r\n" % (len(data), data))
                await writer.drain()
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            if b"connection: close" in head.lower():
                break
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


def serve(port, events, pace):
    """Serves `events` on 127.0.0.1:`port` until killed."""

    async def main():
        server = await asyncio.start_server(lambda r, w: handle(r, w, events, pace), "127.0.0.1", port)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


if __name__ == "__main__":
    serve(int(sys.argv[1]), [EVENT.encode()] * 10 + [b"data: [DONE]\n\n"], 0.02)
