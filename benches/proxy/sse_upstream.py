"""A streaming (SSE) upstream for the time-to-first-token benchmark: the first event
goes out at once, then nine more every 20 ms."""
import asyncio
import json
import sys

EVENT = "data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": "token "}}]}) + "\n\n"


async def handle(reader, writer):
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
            for i in range(10):
                data = EVENT.encode()
                writer.write(b"%x\r\n%s\r\n" % (len(data), data))
                await writer.drain()
                await asyncio.sleep(0.02)
            done = b"data: [DONE]\n\n"
            writer.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(done), done))
            await writer.drain()
            if b"connection: close" in head.lower():
                break
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main(port):
    server = await asyncio.start_server(handle, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


asyncio.run(main(int(sys.argv[1])))
