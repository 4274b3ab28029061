"""boto3's bedrock-runtime client, unchanged, through the proxy: it signs with SigV4 as
it would for AWS, a tenant of ours as its access key id and one of its keys as its
secret. sdk_bedrock.py URL TENANT KEY
Prints one JSON object: what boto3 made of each answer, and what a client with a wrong
secret got. tests/it/sdk_bedrock.rs runs it.
"""

import json
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

URL, TENANT, KEY = sys.argv[1:4]
USER = "ada.lovelace@example.com"
SYSTEM = "alan.turing@example.org"
MODEL = "anthropic.claude-3-5-sonnet-20240620-v1:0"


def client(secret):
    return boto3.client("bedrock-runtime", endpoint_url=URL, region_name="us-east-1",
                        aws_access_key_id=TENANT, aws_secret_access_key=secret,
                        config=Config(retries={"max_attempts": 1}))


bedrock = client(KEY)
system = [{"text": f"The user is {SYSTEM}."}]
messages = [{"role": "user", "content": [{"text": f"Write to {USER} please."}]}]
out = {}
answer = bedrock.converse(modelId=MODEL, system=system, messages=messages)
out["converse"] = answer["output"]["message"]["content"][0]["text"]
stream = bedrock.converse_stream(modelId=MODEL, system=system, messages=messages)["stream"]
out["converse_stream"] = "".join(
    e["contentBlockDelta"]["delta"].get("text", "") for e in stream if "contentBlockDelta" in e
)
anthropic = json.dumps({"anthropic_version": "bedrock-2023-05-31", "max_tokens": 100,
                        "system": f"The user is {SYSTEM}.",
                        "messages": [{"role": "user", "content": f"Write to {USER} please."}]})
answer = json.loads(bedrock.invoke_model(modelId=MODEL, body=anthropic)["body"].read())
out["invoke"] = answer["content"][0]["text"]
text = ""
for event in bedrock.invoke_model_with_response_stream(modelId=MODEL, body=anthropic)["body"]:
    inner = json.loads(event["chunk"]["bytes"])
    if inner["type"] == "content_block_delta":
        text += inner["delta"]["text"]
out["invoke_stream"] = text
try:
    client("not-our-key-0123456789").converse(modelId=MODEL, system=system, messages=messages)
    out["wrong_secret"] = "accepted"
except ClientError as e:
    out["wrong_secret"] = e.response["ResponseMetadata"]["HTTPStatusCode"]
print(json.dumps(out))
