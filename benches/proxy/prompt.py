"""Writes the benches' 2 KB chat prompt (e-mails, phones, cards, IPs) to argv[1]."""
import json
import sys

text = ("Hi, I'm writing about the account of maria.gonzalez@example.com; call +1 415-555-0132 "
        "or use card 4111 1111 1111 1111. The server 203.0.113.42 logged it. ")
body = {"model": "gpt-x", "messages": [{"role": "system", "content": "You are helpful."}]}
while len(json.dumps(body)) < 2048:
    body["messages"].append({"role": "user", "content": text})
open(sys.argv[1], "w").write(json.dumps(body))
