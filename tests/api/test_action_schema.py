"""Typed actions in the OpenAPI schema: an action body is a `oneOf` of one member per kind
of action, told apart by `type` (the engine's `Action.kind`), so that a generated client
has one type per action; every documented default validates against its own schema."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from games.engine import parse_action
from games.engine.actions import ACTION_KINDS

pytestmark = pytest.mark.django_db

# One action of each kind, as a client types it.
EXAMPLES = {
    "draw": "draw",
    "take": "take",
    "undo": "undo",
    "lay": "lay 7H 8H 9H | QS QD QC",
    "off": "off JK 2 low",
    "swap": "swap 7S 7C 1",
    "discard": "discard 10D",
}
# The engine's name of each kind: the member's name in the schema.
MEMBERS = {
    "draw": "DrawStockAction",
    "take": "TakeDiscardAction",
    "undo": "UndoTakeAction",
    "lay": "LayDownAction",
    "off": "LayOffAction",
    "swap": "SwapJokerAction",
    "discard": "DiscardAction",
}


@pytest.fixture
def schema(api_client) -> dict[str, Any]:
    return api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def strict(node: Any) -> Any:
    """OpenAPI 3.0 -> JSON Schema: ``nullable`` as a null alternative, and objects that
    list their properties allow no others."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: strict(value) for key, value in node.items()}
    if out.get("type") == "object" and "properties" in out:
        out.setdefault("additionalProperties", False)
    if out.pop("nullable", False):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def valid(value: Any, node: dict[str, Any], schema: dict[str, Any]) -> bool:
    resolvable = {**strict(node), "components": strict(schema["components"])}
    return jsonschema.Draft7Validator(resolvable).is_valid(value)


def ref_name(node: dict[str, Any]) -> str:
    return node["$ref"].rsplit("/", 1)[-1]


def test_the_act_body_is_a_oneof_with_one_member_per_action_kind(schema):
    act = schema["components"]["schemas"]["ActRequest"]
    # The move's text form beside the objects (tests/api/test_openapi_contract.py).
    text, objects = act["properties"]["action"]["oneOf"]
    union = schema["components"]["schemas"][ref_name(objects)]

    assert [ref_name(member) for member in union["oneOf"]] == [
        f"{MEMBERS[kind]}Request" for kind in ACTION_KINDS
    ]
    assert text["type"] == "string"
    assert union["discriminator"]["propertyName"] == "type"
    mapping = {
        kind: ref.rsplit("/", 1)[-1] for kind, ref in union["discriminator"]["mapping"].items()
    }
    assert mapping == {kind: f"{MEMBERS[kind]}Request" for kind in ACTION_KINDS}


@pytest.mark.parametrize("kind", ACTION_KINDS)
def test_each_member_requires_its_own_kind_as_type(schema, kind):
    member = schema["components"]["schemas"][f"{MEMBERS[kind]}Request"]
    kind_schema = schema["components"]["schemas"][ref_name(member["properties"]["type"])]

    assert "type" in member["required"]
    assert kind_schema["type"] == "string" and kind_schema["enum"] == [kind]


@pytest.mark.parametrize("kind", ACTION_KINDS)
def test_an_engine_action_is_exactly_the_member_of_its_kind(schema, kind):
    body = parse_action(EXAMPLES[kind]).to_dict()
    union = schema["components"]["schemas"]["ActionRequest"]

    fits = [ref_name(member) for member in union["oneOf"] if valid(body, member, schema)]

    assert fits == [f"{MEMBERS[kind]}Request"]
    assert valid(body, {"$ref": "#/components/schemas/ActionRequest"}, schema)


def test_a_body_of_no_kind_fits_no_member(schema):
    union = {"$ref": "#/components/schemas/ActionRequest"}

    assert not valid({"type": "fold"}, union, schema)
    assert not valid({"type": "discard"}, union, schema)  # a discard names its card


def test_answers_reuse_the_action_members(schema):
    components = schema["components"]["schemas"]
    legal = components["LegalMoves"]["properties"]
    hint = components["Hint"]["properties"]

    assert ref_name(legal["lay_offs"]["items"]) == "LayOffAction"
    assert ref_name(legal["swaps"]["items"]) == "SwapJokerAction"
    assert ref_name(hint["actions"]["items"]) == "Action"
    assert [ref_name(member) for member in components["Action"]["oneOf"]] == [
        MEMBERS[kind] for kind in ACTION_KINDS
    ]


def test_every_documented_default_validates_against_its_own_schema(schema):
    checked = []
    for name, component in schema["components"]["schemas"].items():
        for field, node in (component.get("properties") or {}).items():
            if "default" in node:
                checked.append((name, field))
                assert valid(node["default"], node, schema), (name, field, node["default"])
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            for parameter in operation.get("parameters", []):
                node = parameter.get("schema", {})
                if "default" in node:
                    checked.append((f"{method} {path}", parameter["name"]))
                    assert valid(node["default"], node, schema), (path, parameter["name"])
    assert ("SignupRequest", "email") in checked and ("SignupRequest", "display_name") in checked


def test_signup_with_its_documented_defaults_creates_the_account(api_client, schema):
    signup = schema["components"]["schemas"]["SignupRequest"]
    body = {
        field: node["default"] for field, node in signup["properties"].items() if "default" in node
    }
    body |= {"username": "vesna", "password": "a-long-secret-42"}
    assert valid(body, signup, schema)

    response = api_client.post("/api/v1/auth/signup", body, format="json")

    assert response.status_code == 201, response.json()
