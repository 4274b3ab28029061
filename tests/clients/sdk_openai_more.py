"""openai, unchanged, on the endpoints beside chat:
    sdk_openai_more.py EMBEDDINGS_URL COMPLETIONS_URL AZURE_URL KEY
embeddings and legacy completions, and Azure OpenAI through openai.AzureOpenAI and on
the /openai/v1/ paths through openai.OpenAI. Each URL is a proxy, or the mock upstream
itself. Prints one JSON object: what the SDK made of each answer.
tests/it/sdk_openai_more.rs runs it.
"""

import json
import sys

import openai

USER = "ada.lovelace@example.com"
SYSTEM = "alan.turing@example.org"
EMBEDDINGS_URL, COMPLETIONS_URL, AZURE_URL, KEY = sys.argv[1:5]

prompt = f"Write to {USER} please."
messages = [
    {"role": "system", "content": f"The user is {SYSTEM}."},
    {"role": "user", "content": prompt},
]
tools = [
    {
        "type": "function",
        "function": {
            "name": "send_email",
            "parameters": {
                "type": "object",
                "properties": {"to": {"type": "string"}, "note": {"type": "string"}},
            },
        },
    }
]
out = {}


def stream_chat(client, model):
    texts, args = [], []
    for chunk in client.chat.completions.create(
        model=model, messages=messages, tools=tools, stream=True
    ):
        for choice in chunk.choices:
            texts.append(choice.delta.content or "")
            for call in choice.delta.tool_calls or []:
                args.append(call.function.arguments or "")
    return "".join(texts), json.loads("".join(args))


plain = openai.OpenAI(base_url=EMBEDDINGS_URL + "/v1", api_key=KEY, max_retries=0)
emb = plain.embeddings.create(model="text-embedding-3-small", input=[prompt, "no one"])
out["embeddings"] = [list(d.embedding) for d in emb.data]
out["embedding_single"] = list(
    plain.embeddings.create(model="text-embedding-3-small", input=prompt).data[0].embedding
)

comp = openai.OpenAI(base_url=COMPLETIONS_URL + "/v1", api_key=KEY, max_retries=0)
suffix = f" cc {SYSTEM}"
out["completion"] = (
    comp.completions.create(model="gpt-3.5-turbo-instruct", prompt=prompt, suffix=suffix)
    .choices[0]
    .text
)
out["completion_stream"] = "".join(
    c.choices[0].text
    for c in comp.completions.create(
        model="gpt-3.5-turbo-instruct", prompt=[prompt], suffix=suffix, stream=True
    )
    if c.choices
)

azure = openai.AzureOpenAI(
    azure_endpoint=AZURE_URL, api_key=KEY, api_version="2024-10-21", max_retries=0
)
answer = azure.chat.completions.create(model="gpt-4o-deployment", messages=messages, tools=tools)
out["azure_text"] = answer.choices[0].message.content
out["azure_args"] = json.loads(answer.choices[0].message.tool_calls[0].function.arguments)
out["azure_stream_text"], out["azure_stream_args"] = stream_chat(azure, "gpt-4o-deployment")
out["azure_embeddings"] = [
    list(d.embedding) for d in azure.embeddings.create(model="emb-deployment", input=[prompt]).data
]
out["azure_completion"] = (
    azure.completions.create(model="instruct-deployment", prompt=prompt, suffix=suffix)
    .choices[0]
    .text
)

v1 = openai.OpenAI(base_url=AZURE_URL + "/openai/v1/", api_key=KEY, max_retries=0)
out["azure_v1_text"] = (
    v1.chat.completions.create(model="gpt-4o", messages=messages).choices[0].message.content
)

json.dump(out, sys.stdout, sort_keys=True)
