"""Reads a vCard with Python's vobject (an independent parser) and prints what it found as JSON."""
import base64
import json
import sys

import vobject

with open(sys.argv[1], encoding="utf-8", newline="") as f:
    text = f.read()
cards = list(vobject.readComponents(text))
card = cards[0]


def params(prop):
    return {k: list(v) for k, v in prop.params.items()}


def photo_bytes(p):
    value = p.value
    if isinstance(value, str):
        value = base64.b64decode(value)
    return base64.b64encode(value).decode("ascii")


out = {
    "cards": len(cards),
    "version": card.version.value,
    "fn": card.fn.value,
    "n": {"family": card.n.value.family, "given": card.n.value.given, "additional": card.n.value.additional},
    "org": card.org.value,
    "title": card.title.value if hasattr(card, "title") else None,
    "email": [{"value": e.value, "params": params(e)} for e in card.contents.get("email", [])],
    "tel": [{"value": t.value, "params": params(t)} for t in card.contents.get("tel", [])],
    "adr": [
        {
            "street": a.value.street,
            "city": a.value.city,
            "region": a.value.region,
            "code": a.value.code,
            "country": a.value.country,
            "params": params(a),
        }
        for a in card.contents.get("adr", [])
    ],
    "url": card.url.value if hasattr(card, "url") else None,
    "photo": [{"params": params(p), "base64": photo_bytes(p)} for p in card.contents.get("photo", [])],
}
print(json.dumps(out))
