#!/usr/bin/env python3
"""Drives the real `openai` SDK, unchanged, through the proxy.

Usage: sdk_openai.py CHAT_BASE_URL RESPONSES_BASE_URL API_KEY
The SDK is pointed at the proxy (`base_url`) with a key of ours as its `api_key`. Runs the
Chat Completions and Responses calls `tests/it/sdk_openai.rs` checks, JSON and streamed,
and prints what the SDK made of each answer as one JSON object on stdout.
"""

from __future__ import annotations

import json
import sys

import openai

EMAIL = "grace.hopper@example.com"
PHONE = "+1 415-555-0132"
BONES = 'Dr. "Bones" McCoy'

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "send_mail",
            "parameters": {"type": "object", "properties": {"to": {"type": "string"}}},
        },
    }
]

CHAT = [
    {"role": "system", "content": f"You assist {EMAIL}."},
    {"role": "user", "name": "grace", "content": [{"type": "text", "text": f"Call me on {PHONE}."}]},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "lookup", "arguments": json.dumps({"who": BONES, "email": EMAIL})},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": f"{BONES} reads {EMAIL}"},
]

REASONING = {
    "type": "reasoning",
    "id": "rs_1",
    "summary": [{"type": "summary_text", "text": "Think about [EMAIL_ADDRESS_1] and signed-ann@example.net"}],
    "encrypted_content": "gAAAAB-signed-ann@example.net-opaque==",
}

RESPONSES_INPUT = [
    {"role": "user", "content": [{"type": "input_text", "text": f"Mail {EMAIL} or call {PHONE}."}]},
    REASONING,
    {"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": json.dumps({"who": BONES})},
    {"type": "function_call_output", "call_id": "call_1", "output": f"{BONES} reads {EMAIL}"},
]


def chat(client: openai.OpenAI) -> dict:
    r = client.chat.completions.create(model="gpt-test", messages=CHAT, tools=TOOLS)
    message = r.choices[0].message
    return {"content": message.content, "arguments": message.tool_calls[0].function.arguments}


def chat_stream(client: openai.OpenAI) -> dict:
    content, arguments, events = "", "", 0
    stream = client.chat.completions.create(model="gpt-test", messages=CHAT, tools=TOOLS, stream=True)
    for chunk in stream:
        events += 1
        for choice in chunk.choices:
            content += choice.delta.content or ""
            for call in choice.delta.tool_calls or []:
                arguments += call.function.arguments or ""
    return {"content": content, "arguments": arguments, "events": events}


def responses(client: openai.OpenAI) -> dict:
    r = client.responses.create(
        model="gpt-test", instructions=f"Answer {EMAIL} briefly.", input=RESPONSES_INPUT, tools=TOOLS_RESPONSES
    )
    return {
        "output_text": r.output_text,
        "arguments": [o.arguments for o in r.output if o.type == "function_call"],
        "reasoning": [o.model_dump(exclude_none=True) for o in r.output if o.type == "reasoning"],
    }


def responses_stream(client: openai.OpenAI) -> dict:
    deltas, done_text, arg_deltas, done_args = "", [], "", []
    with client.responses.stream(
        model="gpt-test", instructions=f"Answer {EMAIL} briefly.", input=RESPONSES_INPUT, tools=TOOLS_RESPONSES
    ) as stream:
        for event in stream:
            if event.type == "response.output_text.delta":
                deltas += event.delta
            elif event.type == "response.output_text.done":
                done_text.append(event.text)
            elif event.type == "response.function_call_arguments.delta":
                arg_deltas += event.delta
            elif event.type == "response.function_call_arguments.done":
                done_args.append(event.arguments)
        final = stream.get_final_response()
    return {
        "deltas": deltas,
        "done_text": done_text,
        "arg_deltas": arg_deltas,
        "done_args": done_args,
        "output_text": final.output_text,
        "arguments": [o.arguments for o in final.output if o.type == "function_call"],
        "reasoning": [o.model_dump(exclude_none=True) for o in final.output if o.type == "reasoning"],
    }


TOOLS_RESPONSES = [
    {"type": "function", "name": "send_mail", "parameters": {"type": "object", "properties": {"to": {"type": "string"}}}}
]


def main() -> None:
    chat_url, responses_url, api_key = sys.argv[1:4]
    client = openai.OpenAI(base_url=f"{chat_url}/v1", api_key=api_key, max_retries=0, timeout=30)
    responses_client = openai.OpenAI(base_url=f"{responses_url}/v1", api_key=api_key, max_retries=0, timeout=30)
    out = {
        "version": openai.__version__,
        "chat": chat(client),
        "chat_stream": chat_stream(client),
        "responses": responses(responses_client),
        "responses_stream": responses_stream(responses_client),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
