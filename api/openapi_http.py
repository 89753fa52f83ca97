"""The schema's HTTP details (issue 29): conditional GETs, response headers, OpenAPI 3.1 nullables.

``HttpSchemaMixin`` documents, per operation, what the server sends: the ``If-None-Match`` request header
and a 304 on the GETs a view answers conditionally (``conditional_actions``), ``ETag`` on their 200 and
304, ``Location`` on a 202, ``Idempotent-Replayed`` where an ``Idempotency-Key`` is read, ``Retry-After``
on a 429. ``postprocess`` (a drf-spectacular postprocessing hook) makes the few schemas spectacular leaves
in OpenAPI 3.0's words valid 3.1 (``nullable``; an empty ``oneOf`` branch) and checks that every
``operationId`` is unique.
"""

HEADERS = {
    "ETag": {"schema": {"type": "string"}, "description": "The answer's version: send it back in `If-None-Match` "
                                                          "to be answered 304 while nothing changed."},
    "Location": {"schema": {"type": "string", "format": "uri"}, "description": "Where to follow the task."},
    "Retry-After": {"schema": {"type": "integer", "minimum": 0}, "description": "Seconds to wait before trying "
                                                                                 "again."},
    "Idempotent-Replayed": {"schema": {"type": "string", "enum": ["true"]},
                            "description": "Sent (`true`) when the answer is the hand stored by an earlier request "
                                           "with the same `Idempotency-Key`: nothing new was stored."},
}
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
                 "description": "An `ETag` of an earlier answer: 304 while nothing changed."}
NOT_MODIFIED = "Not modified since the ETag given in `If-None-Match`: no body."


# OpenAPI links (for schemathesis' stateful runs and for readers): what a created object's id opens next.
_ID = "$response.body#/id"
_OBJECT = ("retrieve", "partial_update", "destroy")
LINKS = {
    ("v1_clubs_create", "201"): {f"v1_clubs_{a}": {"id": _ID} for a in (*_OBJECT, "update")},
    ("v1_players_create", "201"): {f"v1_players_{a}": {"id": _ID} for a in (*_OBJECT, "update")},
    ("v1_teams_create", "201"): {f"v1_teams_{a}": {"id": _ID} for a in (*_OBJECT, "update")},
    ("v1_tournaments_create", "201"): {
        **{f"v1_tournaments_{a}": {"id": _ID} for a in _OBJECT},
        **{f"v1_tournaments_{a}": {"tournament_id": _ID} for a in (
            "entries_list", "entries_create", "rounds_list", "rounds_create", "standings_retrieve")}},
    ("v1_tournaments_entries_create", "201"): {
        f"v1_tournaments_entries_{a}": {"tournament_id": "$request.path.tournament_id", "id": _ID} for a in _OBJECT},
    ("v1_tournaments_rounds_create", "202"): {"v1_tasks_retrieve": {"task_id": "$response.body#/task"}},
    ("v1_matches_hands_create", "201"): {
        **{f"v1_hands_{a}": {"id": _ID} for a in (*_OBJECT, "history_list")},
        "v1_matches_retrieve": {"id": "$request.path.id"}},
}


def _links(result: dict) -> None:
    operations = {op["operationId"]: op for item in result.get("paths", {}).values() for op in item.values()
                  if isinstance(op, dict) and "operationId" in op}
    for (source, status), targets in LINKS.items():
        response = operations.get(source, {}).get("responses", {}).get(status)
        if response is None:  # an operation renamed or gone: tests/api/test_schema_contract.py says which
            continue
        response["links"] = {target: {"operationId": target, "parameters": params}
                             for target, params in targets.items() if target in operations}


def _header(name: str) -> dict:
    return {"$ref": f"#/components/headers/{name}"}


class HttpSchemaMixin:
    """Declare the conditional GETs and the response headers of an operation (module docstring), and the
    filters' bounds (``min_value``, ``max_value``) and empty values (django-filter ignores ``?club=``), so
    that what the schema calls valid the filters accept, and what they accept the schema calls valid."""

    def _get_filter_parameters(self):
        parameters = super()._get_filter_parameters()
        filterset = getattr(self.view, "filterset_class", None)
        for parameter in parameters:
            found = filterset.base_filters.get(parameter["name"]) if filterset else None
            if found is not None:
                parameter["allowEmptyValue"] = True
            for bound, word in (("min_value", "minimum"), ("max_value", "maximum")):
                if found is not None and found.extra.get(bound) is not None:
                    parameter["schema"][word] = found.extra[bound]
        return parameters

    def _get_pagination_parameters(self):
        # DRF reads an empty ?page= as the first page (``or 1``): the schema says an empty value is allowed.
        parameters = super()._get_pagination_parameters()
        for parameter in parameters:
            if parameter.get("name") == "page":
                parameter["allowEmptyValue"] = True
        return parameters

    def _is_conditional(self) -> bool:
        action = getattr(self.view, "action", None) or self.method.lower()
        return self.method == "GET" and action in getattr(self.view, "conditional_actions", ())

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation["responses"]
        if self._is_conditional():
            params = operation.setdefault("parameters", [])
            if not any(p.get("name") == "If-None-Match" for p in params):
                params.append(dict(IF_NONE_MATCH))
            responses["304"] = {"description": NOT_MODIFIED}
            for code in ("200", "304"):
                responses[code].setdefault("headers", {})["ETag"] = _header("ETag")
        if "202" in responses:
            responses["202"].setdefault("headers", {})["Location"] = _header("Location")
        if any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", ())):
            for code in ("200", "201"):
                if code in responses:
                    responses[code].setdefault("headers", {})["Idempotent-Replayed"] = _header(
                        "Idempotent-Replayed")
        if "429" in responses:
            responses["429"].setdefault("headers", {})["Retry-After"] = _header("Retry-After")
        return operation


def _nullable_31(node):
    """Rewrite OpenAPI 3.0's ``nullable: true`` (left by DRF's paginators) as 3.1's ``null`` type, everywhere."""
    if isinstance(node, list):
        for item in node:
            _nullable_31(item)
        return
    if not isinstance(node, dict):
        return
    if node.get("nullable") is True:
        del node["nullable"]
        kind = node.get("type")
        if isinstance(kind, str):
            node["type"] = [kind, "null"]
        elif isinstance(kind, list) and "null" not in kind:
            kind.append("null")
    # A branch that accepts anything already accepts null: `oneOf: [{}, {type: null}]` is just "any value".
    branches = node.get("oneOf")
    if isinstance(branches, list) and {} in branches:
        del node["oneOf"]
    for value in node.values():
        _nullable_31(value)


def _webhook_tidy(name: str, operation: dict) -> None:
    """A webhook is a request we send: no tag of the API's, no error examples of a view, no authentication."""
    operation.pop("tags", None)
    operation["operationId"] = "webhook_" + name.replace(".", "_")
    operation["security"] = []  # the receiver checks X-Manille-Signature instead
    for content in operation.get("requestBody", {}).get("content", {}).values():
        content.pop("examples", None)


#: No text the API stores may hold a NUL character (PostgreSQL cannot keep one; DRF refuses it with
#: ``null_characters_not_allowed``): the request bodies' free text says so, and so do the lists' free-text filters
#: (``?name=``, ``?search=``: a 400 with the same code, from Django's form fields).
NO_NUL = "^[^\\u0000]*$"


def _plain_text(schema: dict) -> bool:
    types = schema.get("type")
    return (types == "string" or isinstance(types, list) and "string" in types) and not (
        {"pattern", "format", "enum"} & set(schema))


def _no_nul(result: dict) -> None:
    """Give every free-text field of a request body, and every free-text query parameter of a list (its filters), the
    pattern that keeps NUL characters out."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if not name.endswith("Request"):
            continue
        for field in component.get("properties", {}).values():
            if _plain_text(field):
                field["pattern"] = NO_NUL
    for item in result.get("paths", {}).values():
        operation = item.get("get")
        if not isinstance(operation, dict) or not operation.get("operationId", "").endswith("_list"):
            continue
        for parameter in operation.get("parameters", []):
            if parameter.get("in") == "query" and _plain_text(parameter.get("schema", {})):
                parameter["schema"]["pattern"] = NO_NUL


def postprocess(result, generator, request, public):
    """drf-spectacular's last hook: valid OpenAPI 3.1 nullables, the shared headers, unique operation ids."""
    _nullable_31(result)
    _no_nul(result)
    result.setdefault("components", {})["headers"] = {name: dict(h) for name, h in HEADERS.items()}
    _links(result)
    for name, item in result.get("webhooks", {}).items():
        _webhook_tidy(name, item["post"])
    seen = set()
    for item in result.get("paths", {}).values():
        for operation in item.values():
            op_id = operation.get("operationId") if isinstance(operation, dict) else None
            if op_id is not None:
                assert op_id not in seen, f"two operations are called {op_id}"
                seen.add(op_id)
    return result
