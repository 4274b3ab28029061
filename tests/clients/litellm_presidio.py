"""LiteLLM's Presidio guardrail (the real class from PyPI) pointed at our Presidio API.

Usage: litellm_presidio.py BASE_URL
Reads JSON cases from stdin, one per line: {"text", "entities"?, "parse_pii"?}.
Prints one JSON line per case: {"text": masked} plus the token map when parse_pii is
set, or {"error": class name} when the guardrail raised (a blocked entity).
"""

import asyncio
import json
import sys

from litellm.proxy.guardrails.guardrail_hooks.presidio import _OPTIONAL_PresidioPIIMasking


async def run(base, case):
    guardrail = _OPTIONAL_PresidioPIIMasking(
        presidio_analyzer_api_base=base,
        presidio_anonymizer_api_base=base,
        output_parse_pii=case.get("parse_pii", False),
        pii_entities_config=case.get("entities"),
        guardrail_name="anonymizer-presidio",
        event_hook="pre_call",
        default_on=True,
    )
    request_data = {}
    try:
        masked = await guardrail.check_pii(
            text=case["text"],
            output_parse_pii=case.get("parse_pii", False),
            presidio_config=None,
            request_data=request_data,
        )
    except Exception as e:  # the guardrail's own refusal, e.g. a blocked entity
        return {"error": type(e).__name__}
    finally:
        await guardrail._close_http_session()
    out = {"text": masked}
    if case.get("parse_pii"):
        out["tokens"] = request_data.get("metadata", {}).get("pii_tokens", {})
    return out


async def main():
    base = sys.argv[1]
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(await run(base, json.loads(line))), flush=True)


asyncio.run(main())
