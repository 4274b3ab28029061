"""A streaming (SSE) Chat Completions upstream for the answer-scanning benchmark: a
2 KB answer (support-desk prose with names, e-mails, phones and an address the prompt
never had) cut into one event per word, as models stream tokens; the first event
(role only) goes out at once, then one word every PACE_MS milliseconds.
Usage: scan_upstream.py PORT PACE_MS"""
import asyncio
import json
import sys

SENTENCES = [
    "Sure, I looked the account up for you.",
    "It belongs to Margaret Hamilton, who opened it in March 2019 at the Boston branch.",
    "Her e-mail on file is margaret.hamilton@example.org and her phone is +1 617-555-0199.",
    "The billing address is 221 Baker Street, Springfield, IL 62704.",
    "She asked that Robert Chen, her assistant, be copied on every notice; his address is robert.chen@example.com.",
    "The last payment of 120 dollars was received on the 3rd and the next one is due at the end of the month.",
    "I can also send the statement to the address above, or open a ticket with the billing team if anything looks wrong.",
    "Let me know how you would like to proceed and I will take care of it right away.",
]


def answer():
    text, i = "", 0
    while len(text.encode()) < 2048:
        text += SENTENCES[i % len(SENTENCES)] + " "
        i += 1
    return text


WORDS = [w + " " for w in answer().split(" ") if w]


def event(delta):
    return ("data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}) + "\n\n").encode()


async def handle(reader, writer, pace):
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
            events = [event({"role": "assistant", "content": ""})] + [event({"content": w}) for w in WORDS]
            events.append(b"data: [DONE]\n\n")
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


async def main(port, pace):
    server = await asyncio.start_server(lambda r, w: handle(r, w, pace), "127.0.0.1", port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2]) / 1000))
