"""google-genai, unchanged: sdk_gemini.py BASE_URL KEY, the proxy (or the mock upstream
itself) and the key the SDK is given.

Prints one JSON object: what the SDK made of each answer. tests/it/sdk_gemini.rs runs it.
"""

import json
import sys

from google import genai
from google.genai import types

USER = "ada.lovelace@example.com"
SYSTEM = "alan.turing@example.org"

BASE_URL, KEY = sys.argv[1:3]
client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=BASE_URL))
tools = [
    types.Tool(
        function_declarations=[
            types.FunctionDeclaration(
                name="send_email",
                description="Sends an e-mail.",
                parameters=types.Schema(
                    type="OBJECT",
                    properties={
                        "to": types.Schema(type="STRING"),
                        "note": types.Schema(type="STRING"),
                    },
                ),
            )
        ]
    )
]
config = types.GenerateContentConfig(system_instruction=f"The user is {SYSTEM}.", tools=tools)
prompt = f"Write to {USER} please."
out = {}

answer = client.models.generate_content(model="gemini-2.5-flash", contents=prompt, config=config)
parts = answer.candidates[0].content.parts
out["text"] = "".join(p.text for p in parts if p.text and not p.thought)
out["thought"] = "".join(p.text for p in parts if p.text and p.thought)
out["args"] = answer.function_calls[0].args
out["signature"] = next(p.thought_signature for p in parts if p.thought_signature).decode()

texts, args = [], None
for chunk in client.models.generate_content_stream(
    model="gemini-2.5-flash", contents=prompt, config=config
):
    for part in chunk.candidates[0].content.parts or []:
        if part.text and not part.thought:
            texts.append(part.text)
        if part.function_call:
            args = part.function_call.args
out["stream_text"] = "".join(texts)
out["stream_args"] = args

# A second turn: the function call and its result in the history.
history = [
    types.Content(role="user", parts=[types.Part(text=prompt)]),
    types.Content(
        role="model",
        parts=[types.Part(function_call=types.FunctionCall(name="send_email", args={"to": USER}))],
    ),
    types.Content(
        role="user",
        parts=[
            types.Part(
                function_response=types.FunctionResponse(
                    name="send_email", response={"result": f"sent to {USER}"}
                )
            )
        ],
    ),
]
answer = client.models.generate_content(model="gemini-2.5-flash", contents=history, config=config)
out["turn2_text"] = answer.text

json.dump(out, sys.stdout, sort_keys=True)
