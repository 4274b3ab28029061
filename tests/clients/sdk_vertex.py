"""google-genai (vertexai=True) and anthropic's AnthropicVertex, unchanged, on Vertex AI's
paths through the proxy: sdk_vertex.py BASE_URL TOKEN [OUR_KEY]
TOKEN is the SDKs' Google access token (the caller's own, or our key when the operator's
token goes upstream); OUR_KEY, when given, is sent in X-API-Key. Prints one JSON object:
what each SDK made of each answer. tests/it/sdk_vertex.rs runs it.
"""

import json
import sys
import warnings

import google.oauth2.credentials
from anthropic import AnthropicVertex
from google import genai
from google.genai import types

USER = "ada.lovelace@example.com"
SYSTEM = "alan.turing@example.org"
BASE_URL, TOKEN = sys.argv[1:3]
HEADERS = {"X-API-Key": sys.argv[3]} if len(sys.argv) > 3 else {}
warnings.simplefilter("ignore")  # response.text beside function calls

gemini = genai.Client(
    vertexai=True,
    project="proj-1",
    location="us-central1",
    credentials=google.oauth2.credentials.Credentials(token=TOKEN),
    http_options=types.HttpOptions(base_url=BASE_URL, headers=HEADERS),
)
config = types.GenerateContentConfig(system_instruction=f"The user is {SYSTEM}.")
prompt = f"Write to {USER} please."
out = {}
out["gemini"] = gemini.models.generate_content(model="gemini-2.5-flash", contents=prompt, config=config).text
out["gemini_stream"] = "".join(
    c.text or ""
    for c in gemini.models.generate_content_stream(model="gemini-2.5-flash", contents=prompt, config=config)
)

claude = AnthropicVertex(
    region="us-east5", project_id="proj-1", access_token=TOKEN, base_url=BASE_URL + "/v1",
    default_headers=HEADERS, max_retries=0,
)
args = dict(model="claude-sonnet-4@20250514", max_tokens=100, system=f"The user is {SYSTEM}.",
            messages=[{"role": "user", "content": prompt}])
out["claude"] = claude.messages.create(**args).content[0].text
with claude.messages.stream(**args) as stream:
    out["claude_stream"] = "".join(stream.text_stream)
print(json.dumps(out))
