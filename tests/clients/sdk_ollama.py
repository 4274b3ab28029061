"""ollama, unchanged: sdk_ollama.py BASE_URL KEY, the proxy (or the mock upstream
itself) and the key, given to the SDK as its users do (OLLAMA_API_KEY). Prints one JSON
object: what the SDK made of each answer. tests/it/sdk_ollama.rs runs it.
"""

import json
import os
import sys

import ollama

USER = "ada.lovelace@example.com"
SYSTEM = "alan.turing@example.org"

BASE_URL, KEY = sys.argv[1:3]
# The SDK reads its key from the environment when the client is made.
os.environ["OLLAMA_API_KEY"] = KEY
client = ollama.Client(host=BASE_URL)


def send_email(to: str, note: str) -> str:
    """Sends an e-mail.

    Args:
      to: The address
      note: A note

    Returns:
      str: What happened
    """
    return "sent"


messages = [
    {"role": "system", "content": f"The user is {SYSTEM}."},
    {"role": "user", "content": f"Write to {USER} please."},
]
out = {}

answer = client.chat(model="llama3.2", messages=messages, tools=[send_email])
out["chat_text"] = answer.message.content
out["chat_args"] = dict(answer.message.tool_calls[0].function.arguments)

texts, args = [], None
for part in client.chat(model="llama3.2", messages=messages, tools=[send_email], stream=True):
    texts.append(part.message.content or "")
    if part.message.tool_calls:
        args = dict(part.message.tool_calls[0].function.arguments)
out["stream_text"] = "".join(texts)
out["stream_args"] = args

# A second turn: the tool call and its result in the history.
history = messages + [
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"function": {"name": "send_email", "arguments": {"to": USER}}}],
    },
    {"role": "tool", "content": f"sent to {USER}", "tool_name": "send_email"},
]
out["turn2_text"] = client.chat(model="llama3.2", messages=history).message.content

prompt = f"Write to {USER} please."
system = f"The user is {SYSTEM}."
out["generate_text"] = client.generate(model="llama3.2", prompt=prompt, system=system).response
out["generate_stream_text"] = "".join(
    p.response for p in client.generate(model="llama3.2", prompt=prompt, system=system, stream=True)
)
out["embed_count"] = len(client.embed(model="all-minilm", input=[prompt, "no one"]).embeddings)
out["embedding_len"] = len(client.embeddings(model="all-minilm", prompt=prompt).embedding)

json.dump(out, sys.stdout, sort_keys=True)
