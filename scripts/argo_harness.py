"""The Python side of scripts/argo-check: `validate` and `run` (see that script)."""
import argparse
import json
import os
import re
import sys

import yaml


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


# ---------------------------------------------------------------- validate

def unkept(original, kept, where):
    """Paths of keys in `original` that the model did not keep in `kept`."""
    problems = []
    if isinstance(original, dict):
        if not isinstance(kept, dict):
            return [f"{where}: expected a mapping"]
        for key, value in original.items():
            if key not in kept:
                problems.append(f"{where}.{key}: not a field of the Argo model here")
            else:
                problems += unkept(value, kept[key], f"{where}.{key}")
    elif isinstance(original, list):
        if not isinstance(kept, list) or len(kept) != len(original):
            return [f"{where}: expected a list"]
        for i, (a, b) in enumerate(zip(original, kept)):
            problems += unkept(a, b, f"{where}[{i}]")
    return problems


def references(doc):
    """What Argo resolves when it runs the workflow: names that must exist. Each check is one Argo
    makes at submission, in argoproj/argo-workflows v4.1.2 workflow/validate/validate.go (cited
    beside it); the run-time rules the harness models live in scripts/argo_controller.py."""
    problems = []
    spec = doc.get("spec", {})
    if doc.get("kind") == "CronWorkflow":
        spec = spec.get("workflowSpec", {})
    templates = {t["name"]: t for t in spec.get("templates", [])}
    # argo-workflows v4.1.2 workflow/validate/validate.go Workflow() ("spec.entrypoint is required") and validateTemplateHolder(): the
    # spec's entrypoint must name a template.
    if spec.get("entrypoint") not in templates:
        problems.append(f"spec.entrypoint: no template '{spec.get('entrypoint')}'")
    params = {p["name"] for p in spec.get("arguments", {}).get("parameters", [])}
    for template in templates.values():
        tasks = template.get("dag", {}).get("tasks", [])
        names = {t["name"] for t in tasks}
        for task in tasks:
            where = f"task {task['name']}"
            target = templates.get(task.get("template"))
            # argo-workflows v4.1.2 workflow/validate/validate.go validateTemplateHolder(): a task's template must exist.
            if target is None:
                problems.append(f"{where}: no template '{task.get('template')}'")
                continue
            # argo-workflows v4.1.2 workflow/validate/validate.go validateDAG(): "templates.%s.tasks.%s dependency '%s' not defined".
            for name in re.findall(r"([A-Za-z0-9-]+)\.[A-Z][A-Za-z]+", task.get("depends", "")):
                if name not in names:
                    problems.append(f"{where}: depends on unknown task '{name}'")
            given_params = {p["name"] for p in task.get("arguments", {}).get("parameters", [])}
            given_artifacts = {a["name"] for a in task.get("arguments", {}).get("artifacts", [])}
            # argo-workflows v4.1.2 workflow/validate/validate.go validateTemplate() -> validateInputs() and validateArguments():
            # every input without a value or default must be given by the caller.
            for p in target.get("inputs", {}).get("parameters", []):
                if p["name"] not in given_params and "value" not in p and "default" not in p:
                    problems.append(f"{where}: input parameter '{p['name']}' is not given")
            # (workflow/common/util.go ProcessArgs: an optional one, or one with a key of its own, may be left out.)
            for a in target.get("inputs", {}).get("artifacts", []):
                keyed = any((a.get(kind) or {}).get("key") for kind in ("s3", "gcs", "oss", "azure"))
                if a["name"] not in given_artifacts and not a.get("optional") and not keyed and "raw" not in a:
                    problems.append(f"{where}: input artifact '{a['name']}' is not given")
            # argo-workflows v4.1.2 workflow/validate/validate.go resolveAllVariables() and validateDAGTaskArgumentDependency():
            # "failed to resolve {{%s}}".
            text = json.dumps(task)
            for ref in re.findall(r"\{\{tasks\.([A-Za-z0-9-]+)\.", text):
                if ref not in names:
                    problems.append(f"{where}: reads unknown task '{ref}'")
        # argo-workflows v4.1.2 workflow/validate/validate.go resolveAllVariables() (scope from validateInputs()) and validateOutputs():
        # a template reads only its declared inputs, its tasks and the workflow's parameters.
        declared = {p["name"] for p in template.get("inputs", {}).get("parameters", [])}
        for ref in re.findall(r"\{\{inputs\.parameters\.([A-Za-z0-9_-]+)\}\}", json.dumps(template)):
            if ref not in declared:
                problems.append(f"template {template['name']}: reads undeclared input parameter '{ref}'")
        for parameter in template.get("outputs", {}).get("parameters", []):
            for ref in re.findall(r"\{\{tasks\.([A-Za-z0-9-]+)\.", parameter.get("valueFrom", {}).get("parameter", "")):
                if ref not in names:
                    problems.append(f"template {template['name']}: output reads unknown task '{ref}'")
        for ref in re.findall(r"\{\{workflow\.parameters\.([A-Za-z0-9_-]+)\}\}", json.dumps(template)):
            if ref not in params:
                problems.append(f"template {template['name']}: reads unknown parameter '{ref}'")
    return problems


def limits(path):
    """The sizes Argo and Kubernetes limit, for a manifest as submitted: the object's JSON
    (workflow/packer/packer.go getMaxWorkflowSize: 1 MiB, the Workflow with its status), each
    template's JSON (the pod's ARGO_TEMPLATE, offloaded to a ConfigMap per pod over
    workflow/common/common.go MaxEnvVarLen, 128 KiB: workflow/controller/workflowpod.go), and the
    largest parameter value or raw artifact text written in it."""
    doc = load(path)
    spec = doc.get("spec", {})
    if doc.get("kind") == "CronWorkflow":
        spec = spec.get("workflowSpec", {})
    compact = lambda value: len(json.dumps(value, separators=(",", ":")))
    largest = 0

    def visit(node):
        nonlocal largest
        if isinstance(node, dict):
            for key in ("value", "data", "default"):
                if isinstance(node.get(key), str):
                    largest = max(largest, len(node[key]))
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)
    visit(spec)
    return {"object": compact(doc), "templates": {t["name"]: compact(t) for t in spec.get("templates", [])},
            "parameter": largest}


def validate(paths):
    from hera.workflows.models import CronWorkflow, Workflow, WorkflowTemplate

    kinds = {"Workflow": Workflow, "WorkflowTemplate": WorkflowTemplate, "CronWorkflow": CronWorkflow}
    failed = 0
    for path in paths:
        doc = load(path)
        try:
            model = kinds.get(doc.get("kind"), Workflow).model_validate(doc)
        except Exception as error:  # pydantic.ValidationError
            print(f"{path}: not an Argo Workflow: {error}")
            failed += 1
            continue
        kept = model.model_dump(by_alias=True, exclude_none=True, mode="json")
        problems = unkept(doc, kept, "") + references(doc)
        if doc.get("apiVersion") != "argoproj.io/v1alpha1" or doc.get("kind") not in kinds:
            problems.append("not apiVersion argoproj.io/v1alpha1, kind Workflow, WorkflowTemplate or CronWorkflow")
        for problem in problems:
            print(f"{path}: {problem}")
        failed += bool(problems)
    return 1 if failed else 0


# ---------------------------------------------------------------- run
# The controller model lives in scripts/argo_controller.py; each of its rules cites Argo's code.


def pairs(values, option):
    result = {}
    for value in values or []:
        if "=" not in value:
            sys.exit(f"argo-check: {option} takes NAME=VALUE, not {value}")
        key, _, rest = value.partition("=")
        result[key] = rest
    return result


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "conformance":
        from argo_conformance import main as conformance

        sys.exit(conformance(open(os.devnull, "w") if "--quiet" in sys.argv else sys.stderr))
    if len(sys.argv) > 1 and sys.argv[1] == "citations":
        from argo_citations import main as citations

        sys.exit(citations(sys.stdout))
    if len(sys.argv) > 1 and sys.argv[1] == "schema":
        from argo_schema import check

        sys.exit(check(sys.argv[2:], sys.stdout))
    if len(sys.argv) > 2 and sys.argv[1] == "limits":
        print(json.dumps(limits(sys.argv[2]), sort_keys=True))
        sys.exit(0)
    if len(sys.argv) < 2 or sys.argv[1] not in ("validate", "run"):
        sys.exit("usage: argo-check validate MANIFEST... | argo-check schema MANIFEST... | argo-check limits MANIFEST | "
                 "argo-check run MANIFEST --flow PATH --mount NAME=DIR")
    if sys.argv[1] == "validate":
        sys.exit(validate(sys.argv[2:]))
    parser = argparse.ArgumentParser(prog="argo-check run")
    parser.add_argument("manifest")
    parser.add_argument("--flow", required=True)
    parser.add_argument("--mount", action="append")
    parser.add_argument("--daemon", action="append")
    parser.add_argument("--secret", action="append")
    parser.add_argument("--parameter", action="append")
    parser.add_argument("--lose-pod", action="append", default=[],
                        help="delete the pod of this task (or of each of its items) once it started")
    parser.add_argument("--artifact-repository",
                        help="the artifact repository's folder (default: a temporary one, removed after the run)")
    parser.add_argument("--delete-workflow", action="store_true",
                        help="delete the Workflow once it ended: its OnWorkflowDeletion artifacts are collected")
    parser.add_argument("--deadline", type=float, default=600,
                        help="report the workflow as hung when it still runs after this many seconds")
    arguments = parser.parse_args(sys.argv[2:])
    from argo_controller import ArgoController

    controller = ArgoController(
        load(arguments.manifest), arguments.flow, pairs(arguments.mount, "--mount"),
        pairs(arguments.daemon, "--daemon"), pairs(arguments.secret, "--secret"), sys.stderr,
        lose=arguments.lose_pod, deadline=arguments.deadline, repository=arguments.artifact_repository,
        delete=arguments.delete_workflow)
    controller.params.update(pairs(arguments.parameter, "--parameter"))
    result = controller.run()
    print(json.dumps(result, sort_keys=True))
    # 0: Succeeded; 1: Failed or Error; 3: hung (Argo would leave it Running forever).
    sys.exit(0 if result["phase"] == "Succeeded" else 3 if "hung" in result else 1)


if __name__ == "__main__":
    main()
