"""An MCP server of the official `mcp` SDK (1.x FastMCP or 2.x MCPServer, whichever is
installed), served over Streamable HTTP at /mcp:
    mcp_server.py PORT LOG [--json] [--stateless] [--sse]
`--json` answers POSTs with application/json instead of an SSE stream; `--sse` serves
the older HTTP+SSE transport instead (GET /sse, POST /messages/; 1.x only). Every tool call
appends to LOG one JSON line: the tool, the arguments as the server received them, and
the request's Mcp-* headers. tests/it/sdk_mcp.rs starts it behind the proxy.
"""

import json
import sys
from typing import Annotated

from pydantic import BaseModel, Field

PORT, LOG = int(sys.argv[1]), sys.argv[2]
JSON, STATELESS, SSE = "--json" in sys.argv, "--stateless" in sys.argv, "--sse" in sys.argv

try:  # mcp 2.x: the transport's options go to the app
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("crm")
    OPTIONS = {"json_response": JSON, "stateless_http": STATELESS}
except ImportError:  # mcp 1.x: to the server
    from mcp.server.fastmcp import Context
    from mcp.server.fastmcp import FastMCP

    server = FastMCP("crm", json_response=JSON, stateless_http=STATELESS)
    OPTIONS = {}
notes = []


def headers_of(ctx):
    request = getattr(ctx.request_context, "request", None)
    if request is None:
        return {}
    return {k: v for k, v in request.headers.items() if k.lower().startswith("mcp-")}


def record(tool, arguments, ctx):
    with open(LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps({"tool": tool, "arguments": arguments, "headers": headers_of(ctx)}) + "\n")


@server.tool()
def lookup_customer(
    email: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Customer"})],
    note: str,
    ctx: Context,
) -> str:
    """Looks a customer up by e-mail and files a note."""
    record("lookup_customer", {"email": email, "note": note}, ctx)
    notes.append(note)
    return f"Customer {email} found; note filed: {note}"


class Card(BaseModel):
    email: str
    greeting: str


@server.tool()
def customer_card(email: str, name: str, ctx: Context) -> Card:
    """The customer's card, as structured content."""
    record("customer_card", {"email": email, "name": name}, ctx)
    return Card(email=email, greeting=f"Dear {name},")


@server.tool()
def account_owner(account: str, ctx: Context) -> str:
    """Who owns an account: a value the caller never sent."""
    record("account_owner", {"account": account}, ctx)
    return "The owner is Margaret Hamilton (margaret.hamilton@example.org)."


@server.resource("notes://last")
def last_note() -> str:
    """The last note filed."""
    return notes[-1] if notes else ""


if __name__ == "__main__":
    import uvicorn

    app = server.sse_app() if SSE else server.streamable_http_app(**OPTIONS)
    uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning")
