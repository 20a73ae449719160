"""`argo-check schema MANIFEST...`: each manifest against the openAPIV3Schema of Argo Workflows'
own CRD (v4.1.2, vendored in Tests/Peers/argo-crds with its origin and licence), strictly.

Kubernetes prunes the fields a structural schema does not declare, so a misspelt key is dropped
silently on `kubectl apply`; here an object schema with `properties` and without
`additionalProperties` or `x-kubernetes-preserve-unknown-fields` takes no other key, so such a key
is an error. `x-kubernetes-int-or-string` fields take an integer or a string. A Workflow and a
WorkflowTemplate are checked against the Workflow CRD (their `spec` schemas are the same
WorkflowSpec at v4.1.2), a CronWorkflow against its own. Exit 1 when a manifest breaks its schema.
"""
import gzip
import os

import yaml
from jsonschema import Draft7Validator

CRDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Peers", "argo-crds")
FILES = {"Workflow": "argoproj.io_workflows.yaml.gz", "WorkflowTemplate": "argoproj.io_workflows.yaml.gz",
         "CronWorkflow": "argoproj.io_cronworkflows.yaml.gz"}


def strict(schema):
    """The schema with every object that lists its properties closed to others."""
    if isinstance(schema, list):
        return [strict(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    result = {k: strict(v) for k, v in schema.items()}
    if (result.get("type") == "object" and "properties" in result and "additionalProperties" not in result
            and not result.get("x-kubernetes-preserve-unknown-fields")):
        result["additionalProperties"] = False
    if result.get("x-kubernetes-int-or-string"):
        # Structural schemas state int-or-string with this extension and no `type`.
        result.pop("type", None)
        result.setdefault("anyOf", [{"type": "integer"}, {"type": "string"}])
    return result


def schema(kind):
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with gzip.open(os.path.join(CRDS, FILES[kind]), "rt") as f:
        crd = yaml.load(f, Loader=loader)
    version = next(v for v in crd["spec"]["versions"] if v.get("storage", True))
    return strict(version["schema"]["openAPIV3Schema"])


def check(paths, out):
    validators = {}
    failed = 0
    for path in paths:
        with open(path) as f:
            doc = yaml.safe_load(f)
        kind = doc.get("kind") if isinstance(doc, dict) else None
        if kind not in FILES:
            print(f"{path}: kind {kind!r} is not Workflow, WorkflowTemplate or CronWorkflow", file=out)
            failed += 1
            continue
        if kind not in validators:
            validators[kind] = Draft7Validator(schema(kind))
        errors = sorted(validators[kind].iter_errors(doc), key=lambda e: list(e.absolute_path))
        for error in errors[:20]:
            where = ".".join(str(p) for p in error.absolute_path) or "(root)"
            print(f"{path}: {where}: {error.message[:300]}", file=out)
        failed += bool(errors)
    return 1 if failed else 0
