#!/usr/bin/env python3
"""Drives the real `anthropic` SDK, unchanged, through the proxy.

Usage: sdk_anthropic.py BASE_URL API_KEY
The SDK is pointed at the proxy (`base_url`) with a key of ours as its `api_key` (sent as
`x-api-key`). Runs the Messages calls `tests/it/sdk_anthropic.rs` checks, JSON and
streamed, with a history holding a signed thinking block, a tool call and its result, and
prints what the SDK made of each answer as one JSON object on stdout.
"""

from __future__ import annotations

import json
import sys

import anthropic

EMAIL = "grace.hopper@example.com"
PHONE = "+1 415-555-0132"
BONES = 'Dr. "Bones" McCoy'

# A thinking block as an earlier answer returned it: signed over its exact text, which
# holds a placeholder (the model only ever saw placeholders) and an address-like string
# that must not be touched either.
THINKING = {
    "type": "thinking",
    "thinking": "The user [EMAIL_ADDRESS_1] wants signed-ann@example.net mailed.",
    "signature": "EqQBCkYIBxgCKkD+sig/[PERSON_1]==",
}
REDACTED = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a-opaque"}

SYSTEM = [{"type": "text", "text": f"You assist {EMAIL}.", "cache_control": {"type": "ephemeral"}}]
MESSAGES = [
    {"role": "user", "content": f"Call me on {PHONE}."},
    {
        "role": "assistant",
        "content": [
            THINKING,
            REDACTED,
            {"type": "text", "text": "Looking it up."},
            {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {"who": BONES, "id": EMAIL}},
        ],
    },
    {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "toolu_1",
                "content": [{"type": "text", "text": f"{BONES} reads {EMAIL}"}],
            },
            {"type": "text", "text": "Now mail them."},
        ],
    },
]
TOOLS = [{"name": "send_mail", "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}}}]


def blocks(content) -> list[dict]:
    return [b.model_dump(exclude_none=True) for b in content]


def messages(client: anthropic.Anthropic) -> dict:
    r = client.messages.create(
        model="claude-test", max_tokens=100, system=SYSTEM, messages=MESSAGES, tools=TOOLS,
        thinking={"type": "enabled", "budget_tokens": 1024},
    )
    return {"content": blocks(r.content)}


def messages_stream(client: anthropic.Anthropic) -> dict:
    text, partial, thinking, signature = "", "", "", ""
    with client.messages.stream(
        model="claude-test", max_tokens=100, system=SYSTEM, messages=MESSAGES, tools=TOOLS,
        thinking={"type": "enabled", "budget_tokens": 1024},
    ) as stream:
        for event in stream:
            if event.type == "content_block_delta":
                d = event.delta
                if d.type == "text_delta":
                    text += d.text
                elif d.type == "input_json_delta":
                    partial += d.partial_json
                elif d.type == "thinking_delta":
                    thinking += d.thinking
                elif d.type == "signature_delta":
                    signature += d.signature
        final = stream.get_final_message()
    return {
        "text": text,
        "partial_json": partial,
        "thinking": thinking,
        "signature": signature,
        "final": blocks(final.content),
    }


def main() -> None:
    base_url, api_key = sys.argv[1], sys.argv[2]
    client = anthropic.Anthropic(base_url=base_url, api_key=api_key, max_retries=0, timeout=30)
    out = {
        "version": anthropic.__version__,
        "messages": messages(client),
        "messages_stream": messages_stream(client),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
