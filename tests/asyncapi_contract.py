"""The websocket's contract, docs/asyncapi.yaml, as the test suite checks it.

``contract()`` reads the document once. ``check_client_frame`` and ``check_server_frame``
find the messages of that direction named by the frame's ``type`` (the server's
``receive`` operation lists what clients send, its ``send`` operation what it sends)
and validate the frame against their payload schemas with ``jsonschema``: a frame of a
type the document does not list fails as surely as one of the wrong shape.

``watch_communicators`` makes every ``WebsocketCommunicator`` of ``/ws/v1/`` in a test
check each text frame it receives and each frame it sends with ``send_json_to``
(hostile frames are sent raw, with ``send_input``, and are not checked).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from channels.testing import WebsocketCommunicator
from jsonschema import Draft7Validator

DOCUMENT = Path(__file__).resolve().parent.parent / "docs" / "asyncapi.yaml"
LIVE_PATH = "/ws/v1/"


class Contract:
    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        # Direction -> frame type -> validator of the payloads of that name.
        self.client = self._validators("receive")
        self.server = self._validators("send")

    def resolve(self, node: Any) -> Any:
        """``node`` with its ``$ref`` (a JSON pointer into the document) followed."""
        while isinstance(node, Mapping) and "$ref" in node:
            node = self.pointer(node["$ref"])
        return node

    def pointer(self, ref: str) -> Any:
        assert ref.startswith("#/"), f"only local references: {ref}"
        node: Any = self.document
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def messages(self, action: str) -> Iterator[Mapping[str, Any]]:
        """The messages of the operations with ``action`` (``send`` or ``receive``)."""
        for operation in self.document["operations"].values():
            if operation["action"] == action:
                for message in operation["messages"]:
                    yield self.resolve(message)

    def _validators(self, action: str) -> dict[str, Draft7Validator]:
        by_name: dict[str, list[Any]] = {}
        for message in self.messages(action):
            by_name.setdefault(message["name"], []).append(message["payload"])
        components = self.document["components"]
        return {
            name: Draft7Validator(
                {"components": components, "anyOf": payloads},
                format_checker=Draft7Validator.FORMAT_CHECKER,
            )
            for name, payloads in by_name.items()
        }

    def server_payloads(self) -> dict[str, Any]:
        """The payload schema of each message the server sends, by message key."""
        live = self.document["channels"]["live"]["messages"]
        sent = self.document["operations"]["sendServerFrames"]["messages"]
        keys = [ref["$ref"].rsplit("/", 1)[-1] for ref in sent]
        return {key: self.resolve(self.resolve(live[key])["payload"]) for key in keys}

    def is_closed(self, schema: Mapping[str, Any]) -> bool:
        """Whether ``schema`` refuses every property it does not name: closed itself, or
        an ``allOf`` whose own part is closed and names every property of the parts it
        refers to (draft 7 has no ``unevaluatedProperties``)."""
        if "allOf" not in schema:
            return schema.get("additionalProperties") is False
        parts = [self.resolve(part) for part in schema["allOf"]]
        own = [part for part in parts if part.get("additionalProperties") is False]
        named = {name for part in own for name in part.get("properties", {})}
        inherited = {name for part in parts for name in part.get("properties", {})}
        return bool(own) and inherited <= named

    def check_client_frame(self, frame: Any) -> None:
        self._check(frame, self.client, "a client")

    def check_server_frame(self, frame: Any) -> None:
        self._check(frame, self.server, "the server")

    def _check(self, frame: Any, validators: Mapping[str, Draft7Validator], who: str) -> None:
        assert isinstance(frame, dict), f"a frame from {who} is not a JSON object: {frame!r}"
        kind = frame.get("type")
        validator = validators.get(kind) if isinstance(kind, str) else None
        assert validator is not None, (
            f"{who} sent a frame of type {kind!r}, which docs/asyncapi.yaml does not list: "
            f"{frame!r}"
        )
        errors = sorted(validator.iter_errors(frame), key=lambda error: error.path)
        assert not errors, (
            f"a {kind!r} frame from {who} does not match docs/asyncapi.yaml: {frame!r}\n"
            + "\n".join(_explain(error) for error in errors)
        )


def _explain(error: Any) -> str:
    # An anyOf failure holds the reason of each candidate in its context.
    reasons = [error.message, *(f"  - {sub.message}" for sub in error.context or ())]
    return "\n".join(reasons)


@cache
def contract() -> Contract:
    return Contract(yaml.safe_load(DOCUMENT.read_text()))


def watch_communicators(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check every frame of the ``/ws/v1/`` communicators made from now on."""
    receive_from = WebsocketCommunicator.receive_from
    send_json_to = WebsocketCommunicator.send_json_to

    async def receive_checked(self: WebsocketCommunicator, timeout: float = 1) -> Any:
        text = await receive_from(self, timeout)
        if _is_live(self) and isinstance(text, str):
            contract().check_server_frame(json.loads(text))
        return text

    async def send_checked(self: WebsocketCommunicator, data: Any) -> None:
        if _is_live(self):
            contract().check_client_frame(data)
        await send_json_to(self, data)

    monkeypatch.setattr(WebsocketCommunicator, "receive_from", receive_checked)
    monkeypatch.setattr(WebsocketCommunicator, "send_json_to", send_checked)


def _is_live(communicator: WebsocketCommunicator) -> bool:
    return bool(communicator.scope.get("path") == LIVE_PATH)
