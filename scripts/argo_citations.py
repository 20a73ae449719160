"""`scripts/argo-check citations`: every rule of the harness cites Argo's code (issue 28).

Each top-level function and method of scripts/argo_controller.py, the model of Argo's controller
and executor, names in its docstring or comments the Go file of Argo v4.1.2 it takes its rule
from, as a path in argoproj/argo-workflows (`workflow/controller/dag.go`, not a bare `dag.go`,
which several folders hold) beside the function's name. The few that are plumbing of the model
and decide nothing Argo decides are listed below, each with why. Prints each problem; exit 1 when
there is one."""
import ast
import os
import re

# Functions that model no rule of Argo's, and why.
PLUMBING = {
    "Node.__init__": "the node's fields (workflow_types.go NodeStatus is cited where each is decided)",
    "ArgoController.__init__": "the model's own state and options",
    "ArgoController.add_node": "records a node that a cited rule decided to create",
    "ArgoController.snapshot": "detects a pass that changed nothing (the requeue rule is cited in run)",
    "ArgoController.execute_kind": "dispatches to the cited DAG and container rules",
    "ArgoController.task_node": "looks a task's node up by name",
    "ArgoController.pod_path": "a path inside the pod's mounts (the kernel's mount tree, not Argo)",
    "ArgoController.terminate": "stops a local process",
    "ArgoController.stop_all": "stops the local processes when the model ends",
    "has_location": "whether an artifact names a storage (artifact_key cites the rule)",
    "go_json": "Go's encoding/json output, not Argo's",
    "container_mounts": "Kubernetes' volume mounts, not Argo's",
    "mount_volume": "a mount's volume name",
    "argosay": "the argoproj/argosay image's commands, run in place of its container",
}

CITATION = re.compile(r"(?<![A-Za-z0-9_.])((?:[A-Za-z0-9_.-]+/)*)([A-Za-z0-9_]+\.go)\b")


def problems(path):
    source = open(path).read()
    tree = ast.parse(source)
    found = []
    functions = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            functions.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            functions += [(f"{node.name}.{item.name}", item) for item in node.body if isinstance(item, ast.FunctionDef)]
    for name, function in functions:
        text = ast.get_source_segment(source, function)
        if name in PLUMBING:
            continue
        if not CITATION.search(text):
            found.append(f"{path}:{function.lineno}: {name} cites no Go file of Argo's")
    for number, line in enumerate(source.splitlines(), 1):
        for match in CITATION.finditer(line):
            if not match.group(1):
                found.append(f"{path}:{number}: {match.group(2)} without its folder (e.g. workflow/controller/)")
    return found


def main(out):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "argo_controller.py")
    found = problems(path)
    for problem in found:
        print(problem, file=out)
    if not found:
        print("every rule of the harness cites Argo's code", file=out)
    return 1 if found else 0
