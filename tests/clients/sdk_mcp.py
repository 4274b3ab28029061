"""The official `mcp` SDK's Streamable HTTP client (1.x or 2.x, whichever is installed),
unchanged, calling tools and reading a resource through the proxy:
    sdk_mcp.py URL KEY [SESSION] [--sse]
Our key goes as a bearer token (what MCP clients send for a server's OAuth or API key);
SESSION, when given, as X-Session-Id. `--sse`: the older HTTP+SSE transport (URL is the
GET stream's; 1.x only). Prints one JSON object: what the SDK made of each
answer. tests/it/sdk_mcp.rs runs it.
"""

import asyncio
import json
import sys

SSE = "--sse" in sys.argv
ARGS = [a for a in sys.argv[1:] if a != "--sse"]
URL, KEY = ARGS[0], ARGS[1]
HEADERS = {"Authorization": f"Bearer {KEY}"}
if len(ARGS) > 2:
    HEADERS["X-Session-Id"] = ARGS[2]

EMAIL = "grace.hopper@example.com"
NAME = 'Dr. "Bones" McCoy'
NOTE = f"Call {NAME} at +1 415-555-0132 about the invoice."


def content(result):
    return {
        "text": [c.text for c in result.content if getattr(c, "type", "") == "text"],
        # 1.x spells the fields as the wire does, 2.x in snake_case.
        "structured": getattr(result, "structuredContent", getattr(result, "structured_content", None)),
        "error": getattr(result, "isError", getattr(result, "is_error", None)),
    }


async def calls(session, version):
    out = {"version": version}
    out["tools"] = sorted(t.name for t in (await session.list_tools()).tools)
    out["lookup"] = content(await session.call_tool("lookup_customer", {"email": EMAIL, "note": NOTE}))
    out["card"] = content(await session.call_tool("customer_card", {"email": EMAIL, "name": NAME}))
    out["owner"] = content(await session.call_tool("account_owner", {"account": "ACC-1"}))
    read = await session.read_resource("notes://last")
    out["resource"] = [c.text for c in read.contents]
    return out


async def main():
    try:  # mcp 2.x: the modern (2026) revision, negotiated by server/discover
        import httpx2
        from mcp.client import Client
        from mcp.client.streamable_http import streamable_http_client

        async with httpx2.AsyncClient(headers=HEADERS, timeout=30) as http:
            async with Client(streamable_http_client(URL, http_client=http)) as client:
                return await calls(client, f"2:{client.protocol_version}")
    except ImportError:  # mcp 1.x: initialize, Mcp-Session-Id, GET stream, DELETE
        from mcp import ClientSession
        from mcp.client.sse import sse_client
        from mcp.client.streamable_http import streamablehttp_client

        if SSE:  # answers come on the GET stream, not in the POSTs' answers
            async with sse_client(URL, headers=HEADERS) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    return await calls(session, f"1:{init.protocolVersion}")
        async with streamablehttp_client(URL, headers=HEADERS) as (read, write, _):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                return await calls(session, f"1:{init.protocolVersion}")


print(json.dumps(asyncio.run(main())))
