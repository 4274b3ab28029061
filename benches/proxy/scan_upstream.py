"""A streaming (SSE) Chat Completions upstream for the answer-scanning benchmark: a
2 KB answer (support-desk prose with names, e-mails, phones and an address the prompt
never had) cut into one event per word, as models stream tokens; the first event
(role only) goes out at once, then one word every PACE_MS milliseconds.
Usage: scan_upstream.py PORT PACE_MS"""
import json
import sys

from sse_upstream import serve

SENTENCES = [
    "Sure, I looked the account up for you.",
    "It belongs to Margaret Hamilton, who opened it in March 2019 at the Boston branch.",
    "Her e-mail on file is margaret.hamilton@example.org and her phone is +1 617-555-0199.",
    "The billing address is 221 Baker Street, Springfield, IL 62704.",
    "She asked that Robert Chen, her assistant, be copied on every notice; his address is robert.chen@example.com.",
    "The last payment of 120 dollars was received on the 3rd and the next one is due at the end of the month.",
    "I can also send the statement to the address above, or open a ticket with the billing team if anything looks wrong.",
    "Let me know how you would like to proceed and I will take care of it right away.",
]


def answer():
    text, i = "", 0
    while len(text.encode()) < 2048:
        text += SENTENCES[i % len(SENTENCES)] + " "
        i += 1
    return text


WORDS = [w + " " for w in answer().split(" ") if w]


def event(delta):
    return ("data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}) + "\n\n").encode()


EVENTS = ([event({"role": "assistant", "content": ""})] + [event({"content": w}) for w in WORDS]
          + [b"data: [DONE]\n\n"])

if __name__ == "__main__":
    serve(int(sys.argv[1]), EVENTS, float(sys.argv[2]) / 1000)
