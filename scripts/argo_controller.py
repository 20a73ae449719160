"""A local model of Argo Workflows v4.1.2's controller and executor, for scripts/argo-check `run`.

Every rule below is taken from Argo's code at tag v4.1.2 (argoproj/argo-workflows, commit
16a52d67daf2f4a8a76fa8bec02a76a46aa46257); the comment beside each names the file and function.
Like Argo's operator, the model runs reconciliation passes over the workflow's node tree
(`workflow/controller/operator.go` `operate`): each pass walks the entry template, creates the nodes whose turn has
come, and the pods run as local processes. When a pass changes nothing and no pod is running,
Argo would requeue the workflow forever: the model stops and reports the workflow as hung
(phase Running, with the unresolved reference), never as a result.

Pods: the container's command runs here with `flow` replaced by --flow and `argoproj/argosay`
images by a built-in argosay (echo, exit, sleep, assert_eq, cat). Each pod has a private root
(whose /tmp exists, as in an image): in its arguments, the paths below become paths under it; a volumeMount of an emptyDir makes its folder, a raw input artifact its file and
folders; a configMap volume is the --mount folder of its name. Nothing else is created: Argo's
executor creates no parent folder for an output parameter's path. Only the paths the manifest
places (mounts, input artifacts, output parameters) are the pod's; other paths are this host's.
"""
import base64
import gzip
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request

# pkg/apis/workflow/v1alpha1/workflow_types.go NodePhase.Fulfilled / Completed / FailedOrError
FULFILLED = {"Succeeded", "Failed", "Error", "Skipped", "Omitted"}
COMPLETED = {"Succeeded", "Failed", "Error"}
FAILED_OR_ERROR = {"Failed", "Error"}


class Node:
    def __init__(self, name, kind, phase, boundary, template=None, display=None, message=""):
        self.name = name
        self.type = kind
        self.phase = phase
        self.boundary = boundary
        self.template = template
        self.display = display or name.rsplit(".", 1)[-1]
        self.message = message
        self.children = []
        self.outputs = None  # {"parameters": {name: value}} once reported
        self.daemoned = False
        self.outbound = []
        self.process = None

    def fulfilled(self):
        # pkg/apis/workflow/v1alpha1/workflow_types.go NodeStatus.Fulfilled: finished, skipped, or daemoned and not Pending.
        return self.phase in FULFILLED or (self.daemoned and self.phase != "Pending")

    def completed(self):
        # pkg/apis/workflow/v1alpha1/workflow_types.go NodeStatus.Completed: Succeeded, Failed or Error.
        return self.phase in COMPLETED


class InitError(Exception):
    """workflow/executor/executor.go loadArtifacts: the init container could not place an input artifact."""


class Requeue(Exception):
    """workflow/controller/dag.go resolveDependencyReferences: a `{{tasks.…}}` reference that cannot be resolved yet."""


class ArgoController:
    def __init__(self, doc, flow, mounts, daemons, secrets, log, lose=(), deadline=None, repository=None,
                 delete=False):
        self.name = doc.get("metadata", {}).get("name") or doc.get("metadata", {}).get("generateName", "wf-")
        self.name = self.name.rstrip("-") or "wf"
        self.spec = doc["spec"]
        self.templates = {t["name"]: t for t in self.spec["templates"]}
        self.volumes = {v["name"]: v for v in self.spec.get("volumes", [])}
        self.flow = flow
        self.mounts = mounts
        self.daemons = daemons
        self.secrets = secrets
        self.log = log
        self.lose = set(lose)
        self.deadline = deadline
        self.params = {p["name"]: p.get("value") for p in self.spec.get("arguments", {}).get("parameters", [])}
        self.nodes = {}
        self.order = []
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.peaks = {}
        # Bytes each pod was handed (its input parameters and raw input artifacts, by node display
        # name): what its template carries into the pod (issue 28, defect 5).
        self.pod_inputs = {}
        self.requeued = []
        self.work = tempfile.mkdtemp(prefix="argo-harness-")
        # The artifact repository: a local folder whose paths are the artifacts' keys, as an S3
        # bucket's object names are (workflow/artifacts/s3/s3.go; --artifact-repository DIR keeps it).
        self.repository = repository or os.path.join(self.work, "repository")
        os.makedirs(self.repository, exist_ok=True)
        # The largest template a pod received (workflow/controller/workflowpod.go: the template is the pod's
        # ARGO_TEMPLATE variable, offloaded to a ConfigMap over workflow/common/common.go MaxEnvVarLen), and the
        # largest parameter value or raw artifact text a pod received, and the largest output
        # parameter a pod saved (reported in a WorkflowTaskResult object of its own:
        # workflow/executor/executor.go ReportOutputs → workflow/executor/taskresult.go upsertTaskResult).
        self.sizes = {"template": 0, "template_name": "", "parameter": 0, "output": 0}
        self.pod_count = 0
        self.started = []
        # --delete-workflow: the Workflow is deleted once it ended (its artifact GC runs then).
        self.delete = delete
        self.collected = None

    # ------------------------------------------------------------ nodes

    def add_node(self, name, kind, phase, boundary, template=None, message=""):
        node = Node(name, kind, phase, boundary, template, message=message)
        self.nodes[name] = node
        self.order.append(name)
        return node

    def add_child(self, parent, child):
        # workflow/controller/operator.go addChildNode
        node = self.nodes.get(parent)
        if node is not None and child not in node.children:
            node.children.append(child)

    def outbound_nodes(self, name):
        # workflow/controller/operator.go getOutboundNodes: a pod or skipped node is its own; a TaskGroup its children's;
        # a Retry node its last attempt; a DAG the outbound nodes set from its target tasks.
        node = self.nodes[name]
        if node.type in ("Pod", "Skipped"):
            return [name]
        if node.type == "TaskGroup":
            if not node.children:
                return [name]
            return [o for child in node.children if child in self.nodes for o in self.outbound_nodes(child)]
        if node.type == "Retry" and node.children:
            return [node.children[-1]]
        return [o for out in node.outbound for o in self.outbound_nodes(out)]

    def active_children(self, boundary):
        # workflow/controller/node_counters.go getActiveChildrenCounter: Pods, Steps and DAGs of the boundary that are
        # Pending or Running. A daemoned pod stays Running, so it holds a `parallelism` slot.
        return sum(1 for n in self.nodes.values() if n.boundary == boundary
                   and n.type in ("Pod", "DAG", "Steps") and n.phase in ("Pending", "Running"))

    def active_pods(self, boundary):
        # workflow/controller/node_counters.go getActivePodsCounter
        return sum(1 for n in self.nodes.values() if n.boundary == boundary
                   and n.type == "Pod" and n.phase in ("Pending", "Running"))

    def unsuccessful_children(self, boundary):
        # workflow/controller/node_counters.go getUnsuccessfulChildrenCounter: Failed or Error Pods, Steps and DAGs.
        return sum(1 for n in self.nodes.values() if n.boundary == boundary
                   and n.type in ("Pod", "DAG", "Steps") and n.phase in FAILED_OR_ERROR)

    # ------------------------------------------------------------ substitution

    @staticmethod
    def replace(text, values, strict_prefixes=("tasks.", "steps."), raw=None):
        """pkg/.../template ReplaceStrict as workflow/controller/dag.go resolveDependencyReferences calls it: a
        `{{tasks.…}}`/`{{steps.…}}` tag missing from `values` raises Requeue; other unknown tags stay.
        With `raw` (the unescaped values, for a JSON text such as a task), `{{=…}}` expression tags
        are evaluated too (see `expression_tag`)."""
        if raw is not None:
            # util/template/template.go impl.replace: a tag is the text from `{{` to the next `}}`
            # (fasttemplate); one starting with `=` is an expression (util/template/kind.go parseTag).
            text = re.sub(r"\{\{=(.*?)\}\}", lambda m: expression_tag(m.group(1), raw, strict_prefixes), text,
                          flags=re.S)

        def value(match):
            key = match.group(1).strip()
            if key in values:
                found = values[key]
                if found is None:
                    raise ValueError(f"'{key}' is an absent optional (skipped/omitted node output with no default)")
                return found if isinstance(found, str) else json.dumps(found)
            # util/template/simple_template.go simpleReplaceStrict (ReplaceStrict passes
            # allowUnresolvedArtifacts): a `….outputs.artifacts.…` tag may stay, for the artifact
            # resolution after it (workflow/controller/dag.go resolveDependencyReferences → workflow/controller/scope.go resolveArtifact).
            if key.startswith(strict_prefixes) and ".outputs.artifacts." not in key:
                raise Requeue(key)
            return match.group(0)
        return re.sub(r"\{\{([^{}]+)\}\}", value, text)

    def global_values(self):
        # workflow/controller/operator.go setGlobalParameters: `workflow.parameters.NAME` and
        # `workflow.name` in every template.
        return {f"workflow.parameters.{k}": v for k, v in self.params.items()} | {"workflow.name": self.name}

    # ------------------------------------------------------------ the loop

    def run(self):
        entry = self.spec["entrypoint"]
        start = time.time()
        hung = None
        try:
            while True:
                self.wake.clear()
                with self.lock:
                    before = self.snapshot()
                    self.requeued = []
                    self.operate(entry)
                    changed = self.snapshot() != before
                    done = self.workflow_done()
                    running = any(n.process is not None and n.phase in ("Pending", "Running") and not n.daemoned
                                  for n in self.nodes.values())
                if done:
                    break
                limit = self.spec.get("activeDeadlineSeconds")
                if limit is not None and time.time() - start > int(limit):
                    self.exceed_deadline()
                    break
                if self.deadline is not None and time.time() - start > self.deadline:
                    hung = f"hung: still running after {self.deadline} s" + (
                        " (unresolvable reference " + ", ".join(sorted(set(self.requeued))) + ")"
                        if self.requeued else "")
                    break
                if not changed and not running and limit is not None:
                    # A requeue that never ends is ended by the workflow's activeDeadlineSeconds
                    # (workflow/controller/operator.go operate → checkDeadline on the next requeue after it passed).
                    self.wake.wait(min(0.5, max(0.0, start + int(limit) - time.time()) + 0.05))
                    continue
                if not changed and not running:
                    # workflow/controller/operator.go: a requeue with nothing left to change never ends; Argo leaves the
                    # workflow Running (upstream issue #14337).
                    hung = "hung: " + ("unresolvable reference " + ", ".join(sorted(set(self.requeued)))
                                       if self.requeued else "no node can progress")
                    break
                if not changed:
                    self.wake.wait(0.5)
            if not hung:
                self.collect_artifacts()
        finally:
            self.stop_all()
            shutil.rmtree(self.work, ignore_errors=True)
        return self.report(hung)

    def collect_artifacts(self):
        """Artifact garbage collection once the workflow completed (workflow/controller/artifact_gc.go
        garbageCollectArtifacts): the strategies ready (artifactGCStrategiesReady:
        OnWorkflowCompletion once the workflow completed, OnWorkflowDeletion once it is deleted,
        here with --delete-workflow) delete the output artifacts saved by pod nodes whose strategy
        is one of them (findArtifactsToGC); an artifact's strategy is its own
        `artifactGC.strategy`, else the workflow's `spec.artifactGC.strategy`, else Never
        (pkg/apis/workflow/v1alpha1/workflow_types.go Workflow.GetArtifactGCStrategy)."""
        ready = {"OnWorkflowCompletion"} | ({"OnWorkflowDeletion"} if self.delete else set())
        default = (self.spec.get("artifactGC") or {}).get("strategy") or "Never"
        deleted, kept = [], []
        for name in self.order:
            node = self.nodes[name]
            if node.type != "Pod" or not node.outputs:
                continue
            declared = {a["name"]: a for a in
                        (self.templates.get(node.template) or {}).get("outputs", {}).get("artifacts", [])}
            for artifact in node.outputs.get("artifacts") or []:
                own = (declared.get(artifact["name"], {}).get("artifactGC") or {}).get("strategy")
                if (own or default) in ready:
                    target = os.path.join(self.repository, artifact["key"])
                    if os.path.isdir(target):
                        shutil.rmtree(target, ignore_errors=True)
                    elif os.path.lexists(target):
                        os.remove(target)
                    deleted.append(artifact["key"])
                else:
                    kept.append(artifact["key"])
        self.collected = {"deleted": sorted(deleted), "kept": sorted(kept)}

    def exceed_deadline(self):
        # workflow/controller/operator.go operate → checkDeadline (workflow activeDeadlineSeconds): the running pods are
        # stopped, unfinished nodes fail with "Step exceeded its deadline", the workflow Failed.
        with self.lock:
            for node in self.nodes.values():
                if not node.fulfilled() or (node.daemoned and node.phase == "Running"):
                    if getattr(node, "os_process", None) is not None:
                        self.terminate(node.os_process)
                    node.phase, node.message = "Failed", "Step exceeded its deadline"
            entry = self.nodes.get(self.name)
            if entry is not None:
                entry.phase, entry.message = "Failed", "Step exceeded its deadline"

    def snapshot(self):
        return tuple((n.name, n.phase, n.daemoned, len(n.children)) for n in self.nodes.values())

    def operate(self, entry):
        # workflow/controller/operator.go operate: the entry template's node, then the workflow's onExit handler.
        node = self.execute_template(self.name, entry, {"parameters": self.params}, None)
        if node is None or not node.fulfilled():
            return
        on_exit = self.spec.get("onExit")
        if on_exit:
            self.execute_template(self.name + ".onExit", on_exit, {}, None)

    def workflow_done(self):
        # workflow/controller/operator.go operate: the workflow is done once its entry node is fulfilled and, when it
        # has one, its onExit node too (runOnExitNode in workflow/controller/exit_handler.go starts that node).
        node = self.nodes.get(self.name)
        if node is None or not node.fulfilled():
            return False
        if self.spec.get("onExit"):
            exit_node = self.nodes.get(self.name + ".onExit")
            return exit_node is not None and exit_node.fulfilled()
        return True

    def workflow_phase(self):
        # workflow/controller/operator.go operate: the workflow's phase is the entry node's (Skipped and Omitted count as
        # Succeeded); an onExit node that failed or errored turns a Succeeded workflow Failed/Error.
        node = self.nodes.get(self.name)
        phase = {"Skipped": "Succeeded", "Omitted": "Succeeded"}.get(node.phase, node.phase) if node else "Running"
        exit_node = self.nodes.get(self.name + ".onExit")
        if phase == "Succeeded" and exit_node is not None and exit_node.phase in FAILED_OR_ERROR:
            phase = exit_node.phase
        return phase

    def report(self, hung):
        entry = self.nodes.get(self.name)
        phases = {}
        outputs = {}
        artifacts = {}
        nodes = {}
        for name in self.order:
            node = self.nodes[name]
            nodes.setdefault(node.display, node.phase)
        if entry is not None:
            prefix = self.name + "."
            for name in self.order:
                node = self.nodes[name]
                if node.boundary == self.name and name.startswith(prefix) and "(" not in name[len(prefix):]:
                    task = name[len(prefix):]
                    phases[task] = node.phase
                    if node.outputs:
                        outputs[task] = node.outputs.get("parameters", {})
                        if node.outputs.get("artifacts"):
                            artifacts[task] = {a["name"]: a["key"] for a in node.outputs["artifacts"]}
        phase = "Running" if hung else self.workflow_phase()
        result = {"phase": phase, "phases": phases, "nodes": nodes, "outputs": outputs, "peaks": self.peaks,
                  "artifacts": artifacts, "sizes": dict(self.sizes, status=self.status_size()),
                  "inputs": self.pod_inputs}
        if self.collected is not None:
            result["artifact-gc"] = self.collected
        if hung:
            result["hung"] = hung
        if self.requeued:
            # What the last pass could not resolve (workflow/controller/dag.go resolveDependencyReferences → ErrRequeue).
            result["requeued"] = sorted(set(self.requeued))
        if entry is not None and entry.message:
            result["message"] = entry.message
        return result

    def status_size(self):
        """The node status's share of the Workflow object: each node's name, phase and outputs
        (pkg/apis/workflow/v1alpha1/workflow_types.go NodeStatus), as JSON and as workflow/packer/packer.go
        compressWorkflow stores it past its 1 MiB limit (gzip, base64: file.CompressEncodeString)."""
        nodes = {}
        for name, n in self.nodes.items():
            # The fields a finished node's status carries (pkg/apis/workflow/v1alpha1/workflow_types.go NodeStatus), with
            # values of their usual length: ids are the workflow's name and a 10-digit hash.
            node_id = f"{self.name}-{abs(hash(name)) % 10**10:010d}"
            status = {"id": node_id, "name": name, "displayName": n.display, "type": n.type,
                      "templateName": n.template or "", "templateScope": "local/", "phase": n.phase,
                      "boundaryID": f"{self.name}-{abs(hash(n.boundary)) % 10**10:010d}" if n.boundary else "",
                      "startedAt": "2026-01-01T00:00:00Z", "finishedAt": "2026-01-01T00:00:10Z",
                      "progress": "1/1", "resourcesDuration": {"cpu": 0, "memory": 1},
                      "children": [f"{self.name}-{abs(hash(c)) % 10**10:010d}" for c in n.children]}
            if n.message:
                status["message"] = n.message
            if n.type == "Pod":
                status["hostNodeName"] = "worker-node-1"
            if n.outputs:
                outputs = {"exitCode": "0"}
                if n.outputs.get("parameters"):
                    outputs["parameters"] = [{"name": k, "value": v} for k, v in n.outputs["parameters"].items()]
                if n.outputs.get("artifacts"):
                    outputs["artifacts"] = [{"name": a["name"], "s3": {"key": a["key"]}} for a in n.outputs["artifacts"]]
                if n.outputs.get("result"):
                    outputs["result"] = n.outputs["result"]
                status["outputs"] = outputs
            nodes[node_id] = status
        text = json.dumps(nodes, separators=(",", ":")).encode()
        return {"json": len(text), "compressed": len(base64.b64encode(gzip.compress(text)))}

    # ------------------------------------------------------------ templates

    def execute_template(self, node_name, template_name, args, boundary, task=None):
        """workflow/controller/operator.go executeTemplate."""
        node = self.nodes.get(node_name)
        if node is not None and node.fulfilled():
            return node
        template = self.templates[template_name]
        inputs = {}
        for parameter in template.get("inputs", {}).get("parameters", []):
            given = args.get("parameters", {}).get(parameter["name"])
            if given is None:
                given = parameter.get("value", parameter.get("default"))
            if given is None:
                message = f"inputs.parameters.{parameter['name']} was not supplied"
                if node is None:
                    return self.add_node(node_name, "Skipped", "Error", boundary, template_name, message)
                node.phase, node.message = "Error", message
                return node
            inputs[parameter["name"]] = given
        # workflow/common/util.go ProcessArgs: an input artifact that is not optional, has no
        # location or key of its own and is not given: "inputs.artifacts.%s was not supplied".
        for artifact in template.get("inputs", {}).get("artifacts", []):
            if (not artifact.get("optional") and not has_location(artifact)
                    and artifact["name"] not in args.get("artifacts", {})):
                message = f"inputs.artifacts.{artifact['name']} was not supplied"
                if node is None:
                    return self.add_node(node_name, "Skipped", "Error", boundary, template_name, message)
                node.phase, node.message = "Error", message
                return node
        # workflow/controller/operator.go executeTemplate → checkParallelism, before any new node or pod.
        if not self.check_parallelism(template, node, boundary):
            return node
        # workflow/controller/operator.go executeTemplate: a retryStrategy makes a Retry node whose children are attempts.
        # workflow/controller/operator.go retryStrategy: the template's, else the workflow's spec.retryStrategy.
        strategy = template.get("retryStrategy") or self.spec.get("retryStrategy")
        if strategy is not None:
            return self.execute_retry(node_name, template_name, template, inputs, args, boundary, strategy)
        return self.execute_kind(node_name, template_name, template, inputs, args, boundary)

    def execute_kind(self, node_name, template_name, template, inputs, args, boundary):
        if "dag" in template:
            return self.execute_dag(node_name, template_name, template, inputs, boundary, args.get("artifacts", {}))
        return self.execute_container(node_name, template_name, template, inputs, args, boundary)

    def execute_retry(self, node_name, template_name, template, inputs, args, boundary, strategy):
        """workflow/controller/operator.go processNodeRetries: the Retry node takes its last attempt's phase and outputs
        once that attempt is not to be retried; `retryPolicy` defaults to OnFailure
        (pkg/apis/workflow/v1alpha1/workflow_types.go RetryStrategy.RetryPolicyActual); `limit` more attempts at most.
        The backoff's waits are not modelled (they delay, they do not change phases)."""
        node = self.nodes.get(node_name)
        if node is None:
            node = self.add_node(node_name, "Retry", "Running", boundary, template_name)
        if node.children:
            last = self.nodes[node.children[-1]]
            if not last.fulfilled() or last.daemoned:
                if last.daemoned:
                    node.daemoned = True
                self.execute_kind(last.name, template_name, template, inputs, args, boundary)
                return node
            policy = strategy.get("retryPolicy") or ("Always" if strategy.get("expression") else "OnFailure")
            retry_failed = policy in ("Always", "OnFailure")
            retry_error = policy in ("Always", "OnError")
            limit = int(strategy.get("limit", 0)) if str(strategy.get("limit", "0")).isdigit() else 0
            if (last.phase == "Succeeded" or (last.phase == "Failed" and not retry_failed)
                    or (last.phase == "Error" and not retry_error) or len(node.children) > limit):
                node.phase, node.message, node.outputs = last.phase, last.message, last.outputs
                return node
        attempt = f"{node_name}({len(node.children)})"
        node.children.append(attempt)
        child = self.execute_kind(attempt, template_name, template, inputs, args, boundary)
        if child is not None:
            child.display = f"{node.display}({len(node.children) - 1})"
        return node

    def check_parallelism(self, template, node, boundary):
        """workflow/controller/operator.go checkParallelism."""
        parallelism = self.spec.get("parallelism")
        if parallelism and self.active_pods(None) >= parallelism:
            return False
        if node is not None and "dag" in template:
            # Template-level `failFast` (pkg/apis/workflow/v1alpha1/workflow_types.go Template.IsFailFast: only when set true;
            # `dag.failFast` is another field, read by assessDAGPhase).
            if template.get("failFast") is True and self.unsuccessful_children(node.name) > 0:
                if self.active_pods(node.name) == 0:
                    node.phase = "Failed"
                    node.message = "template has failed or errored children and failFast enabled"
                return False
            if template.get("parallelism") and self.active_pods(node.name) >= template["parallelism"]:
                return False
        if boundary is not None and (node is None or node.phase not in ("Pending", "Running")):
            boundary_node = self.nodes[boundary]
            boundary_template = self.templates[boundary_node.template]
            if boundary_template.get("failFast") is True and self.unsuccessful_children(boundary) > 0:
                if self.active_pods(boundary) == 0:
                    boundary_node.phase = "Failed"
                    boundary_node.message = "template has failed or errored children and failFast enabled"
                return False
            limit = boundary_template.get("parallelism")
            if limit and self.active_children(boundary) >= limit:
                return False
        return True

    # ------------------------------------------------------------ DAG

    def task_dependencies(self, dag, task):
        """workflow/common/ancestry.go GetTaskDependencies / getTaskDependsLogic / expandDependency:
        `dependencies: [A]` and a bare `A` in `depends` mean (A.Succeeded || A.Skipped || A.Daemoned),
        plus A.Errored / A.Failed when A's continueOn allows them."""
        by_name = {t["name"]: t for t in dag["tasks"]}

        def expand(name):
            results = ["Succeeded", "Skipped", "Daemoned"]
            continue_on = by_name.get(name, {}).get("continueOn") or {}
            if continue_on.get("error"):
                results.append("Errored")
            if continue_on.get("failed"):
                results.append("Failed")
            return "(" + " || ".join(f"{name}.{r}" for r in results) + ")"

        depends = task.get("depends") or " && ".join(expand(d) for d in task.get("dependencies", []))
        names = []
        pattern = re.compile(r"([a-zA-Z0-9][-a-zA-Z0-9]*?\.[A-Z][a-zA-Z]+)|([a-zA-Z0-9][-a-zA-Z0-9]*)")
        pieces = []
        last = 0
        for match in pattern.finditer(depends):
            if match.group(1):
                name = match.group(1).split(".")[0]
                if name not in names:
                    names.append(name)
            else:
                name = match.group(2)
                if name not in names:
                    names.append(name)
                pieces.append(depends[last:match.start()] + expand(name))
                last = match.end()
        logic = "".join(pieces) + depends[last:]
        return names, logic

    def execute_dag(self, node_name, template_name, template, inputs, boundary, input_artifacts=None):
        """workflow/controller/dag.go executeDAG."""
        node = self.nodes.get(node_name)
        if node is None:
            node = self.add_node(node_name, "DAG", "Running", boundary, template_name)
        dag = template["dag"]
        context = {"boundary": node_name, "template": template, "inputs": inputs, "visited": set(),
                   "tasks": {t["name"]: t for t in dag["tasks"]},
                   "input_artifacts": {a["name"]: (input_artifacts or {}).get(a["name"], a)
                                       for a in template.get("inputs", {}).get("artifacts", [])}}
        # workflow/controller/dag.go executeDAG: without dag.target, the target tasks are the leaves
        # (findLeafTaskNames: tasks no other task depends on), sorted.
        if dag.get("target"):
            targets = dag["target"].split(" ")
        else:
            depended = {d for t in dag["tasks"] for d in self.task_dependencies(dag, t)[0]}
            targets = sorted(t["name"] for t in dag["tasks"] if t["name"] not in depended)
        for target in targets:
            self.execute_dag_task(context, target)
        if node.phase != "Running":  # checkParallelism may have failed it (template failFast)
            self.kill_daemoned_children(node_name)
            return node
        with_peak = self.active_children(node_name)
        self.peaks[template_name] = max(self.peaks.get(template_name, 0), with_peak)
        phase = self.assess_dag_phase(context, targets, node)
        if phase == "Running":
            return node
        node.outbound = [o for t in targets if self.task_node(context, t) is not None
                         for o in self.outbound_nodes(self.task_node(context, t).name)]
        if phase in FAILED_OR_ERROR:
            # workflow/controller/dag.go executeDAG: a failed DAG returns before its outputs are set.
            node.phase = phase
            self.kill_daemoned_children(node_name)
            return node
        # workflow/controller/dag.go executeDAG: outputs from the tasks' scope (workflow/controller/operator.go getTemplateOutputsFromScope).
        scope = self.scope(context, list(context["tasks"]))
        parameters = {}
        for parameter in template.get("outputs", {}).get("parameters", []):
            value_from = parameter.get("valueFrom", {})
            reference = value_from.get("parameter", "")
            key = reference.strip()[2:-2].strip() if reference.strip().startswith("{{") else None
            if key is not None and key in scope and scope[key] is not None:
                parameters[parameter["name"]] = scope[key]
            elif "default" in value_from:
                parameters[parameter["name"]] = str(value_from["default"])
            elif "value" in parameter:
                parameters[parameter["name"]] = parameter["value"]
            else:
                # executeDAG returns the error: the DAG node is marked errored.
                node.phase = "Error"
                node.message = f"unable to resolve outputs from scope: {reference}"
                self.kill_daemoned_children(node_name)
                return node
        if parameters:
            node.outputs = {"parameters": parameters}
        node.phase = "Succeeded"
        self.kill_daemoned_children(node_name)
        return node

    def kill_daemoned_children(self, boundary):
        # workflow/controller/dag.go executeDAG (deferred) → workflow/controller/operator.go killDaemonedChildren once the DAG is fulfilled.
        for node in self.nodes.values():
            if node.boundary == boundary and node.daemoned and node.phase == "Running":
                if node.process is not None:
                    self.terminate(node.process)
                node.phase = "Succeeded"

    def task_node(self, context, task_name):
        return self.nodes.get(f"{context['boundary']}.{task_name}")

    def assess_dag_phase(self, context, targets, boundary_node):
        """workflow/controller/dag.go assessDAGPhase: a BFS from the DAG's children; an uncompleted (omitted or skipped)
        node inherits its branch's phase; each target's branch phase decides, Failed/Error winning;
        with dag.failFast (default true) the first target in sorted order that is undecided
        (Running) or failed decides at once; continueOn excuses a target's failure."""
        target_ids = {f"{context['boundary']}.{t}": t for t in targets}
        target_phases = {name: "" for name in target_ids}
        queue = [(child, "Succeeded") for child in boundary_node.children]
        seen = set(queue)
        while queue:
            name, branch = queue.pop(0)
            node = self.nodes.get(name)
            if node is None:
                return "Running"
            if not node.fulfilled():
                # workflow/controller/dag.go completableTaskGroupPhase
                if node.type != "TaskGroup" or not node.children:
                    return "Running"
                group = "Succeeded"
                for child in node.children:
                    # A child connected before its node exists (parallelism reached) is not fulfilled.
                    if child not in self.nodes or not self.nodes[child].fulfilled():
                        return "Running"
                    if self.nodes[child].phase in FAILED_OR_ERROR:
                        group = self.nodes[child].phase
                node.phase = group
                branch = group
            elif node.completed():
                branch = node.phase
            if name in target_phases and target_phases[name] not in FAILED_OR_ERROR:
                target_phases[name] = branch
            if node.type == "Retry":
                # workflow/controller/operator.go getRetryNodeChildrenIds: the last attempt's children.
                children = [c for attempt in reversed(node.children) if attempt in self.nodes
                            for c in self.nodes[attempt].children]
            else:
                children = node.children
            for child in children:
                if (child, branch) not in seen:
                    seen.add((child, branch))
                    queue.append((child, branch))
        fail_fast = context["template"]["dag"].get("failFast", True)
        result = "Succeeded"
        for target in targets:
            branch = target_phases[f"{context['boundary']}.{target}"]
            if branch == "":
                result = "Running"
                if not fail_fast:
                    break
            elif branch in FAILED_OR_ERROR:
                continue_on = context["tasks"][target].get("continueOn") or {}
                if (branch == "Error" and continue_on.get("error")) or (branch == "Failed" and continue_on.get("failed")):
                    continue
                result = branch
                if fail_fast:
                    break
        return result

    def scope(self, context, task_names):
        """workflow/controller/dag.go buildLocalScopeFromTask and workflow/controller/operator.go buildLocalScope / processAggregateNodeOutputs
        / workflow/controller/scope.go addSkippedNodeOutputsToScope: what `{{tasks.X.…}}` can read."""
        values = {f"inputs.parameters.{k}": v for k, v in context["inputs"].items()}
        # workflow/controller/scope.go resolveVar: a DAG template's input artifacts as `inputs.artifacts.N`.
        for key, artifact in context.get("input_artifacts", {}).items():
            values[f"inputs.artifacts.{key}"] = artifact
        for name in task_names:
            node = self.task_node(context, name)
            if node is None:
                continue
            task = context["tasks"][name]
            # workflow/controller/operator.go buildLocalScope: a Retry node's values are its last attempt's.
            last = self.nodes.get(node.children[-1]) if node.type == "Retry" and node.children else None
            values[f"tasks.{name}.status"] = (last or node).phase
            if node.type == "Pod" or node.type == "Retry":
                ip = getattr(node, "ip", None) or (self.nodes[node.children[-1]].__dict__.get("ip") if node.children else None)
                if ip:
                    values[f"tasks.{name}.ip"] = ip
            if node.type == "TaskGroup":
                # workflow/controller/operator.go processAggregateNodeOutputs: only Succeeded children with outputs count;
                # each output parameter's values as a JSON list, set only when some child had it.
                # `tasks.X.outputs.parameters` (varkeys TasksAggregate.Parameters): the JSON list of
                # the succeeded children's output-parameter maps, set whenever X has children
                # (`[]` when none succeeded), written by Go's json.Marshal (sorted keys, <>& escaped).
                lists = {}
                results = []
                maps = []
                for child in node.children:
                    child_node = self.nodes.get(child)
                    if child_node is None or child_node.phase != "Succeeded" or not child_node.outputs:
                        continue
                    if child_node.outputs.get("result") is not None:
                        results.append(self.aggregated(child_node.outputs["result"]))
                    if child_node.outputs.get("parameters"):
                        maps.append(dict(child_node.outputs["parameters"]))
                    for key, value in child_node.outputs.get("parameters", {}).items():
                        lists.setdefault(key, []).append(value)
                if not node.children:
                    continue
                values[f"tasks.{name}.outputs.parameters"] = go_json(maps)
                values[f"tasks.{name}.outputs.result"] = json.dumps(results, separators=(",", ":"))
                for key, items in lists.items():
                    values[f"tasks.{name}.outputs.parameters.{key}"] = json.dumps(
                        [self.aggregated(v) for v in items], separators=(",", ":"))
            elif node.outputs:
                if node.outputs.get("result") is not None:
                    values[f"tasks.{name}.outputs.result"] = node.outputs["result"]
                for key, value in node.outputs.get("parameters", {}).items():
                    values[f"tasks.{name}.outputs.parameters.{key}"] = value
                # workflow/controller/operator.go addNodeOutputsToLocalScope: each saved artifact by name (an expanded
                # task's children's artifacts are not aggregated: processAggregateNodeOutputs).
                for artifact in node.outputs.get("artifacts", []):
                    values[f"tasks.{name}.outputs.artifacts.{artifact['name']}"] = artifact
            elif node.phase in ("Skipped", "Omitted"):
                template = self.templates.get(task.get("template"), {})
                for parameter in template.get("outputs", {}).get("parameters", []):
                    default = (parameter.get("valueFrom") or {}).get("default")
                    values[f"tasks.{name}.outputs.parameters.{parameter['name']}"] = (
                        None if default is None else str(default))
        return values

    @staticmethod
    def aggregated(value):
        # workflow/controller/operator.go aggregatedJSONValueList: a value that is JSON stays JSON, else a string.
        try:
            parsed = json.loads(value)
            return parsed if isinstance(parsed, (dict, list)) else value
        except (ValueError, TypeError):
            return value

    def connect(self, context, task_name, node_name, dependencies, group):
        # workflow/controller/dag.go executeDAGTask connectDependencies
        if not dependencies or group is not None:
            self.add_child(group.name if group is not None else context["boundary"], node_name)
            return
        for dependency in dependencies:
            dep_node = self.task_node(context, dependency)
            for out in self.outbound_nodes(dep_node.name):
                self.add_child(out, node_name)

    def execute_dag_task(self, context, task_name):
        """workflow/controller/dag.go executeDAGTask."""
        if task_name in context["visited"]:
            return
        context["visited"].add(task_name)
        task = context["tasks"][task_name]
        boundary = context["boundary"]
        node = self.task_node(context, task_name)
        if node is not None and node.fulfilled():
            return
        dependencies, logic = self.task_dependencies(context["template"]["dag"], task)
        node_name = f"{boundary}.{task_name}"
        group = node if node is not None and node.type == "TaskGroup" else None
        if logic:
            for dependency in dependencies:
                self.execute_dag_task(context, dependency)
            decided = self.evaluate_depends(context, task_name, dependencies, logic)
            if decided is None:
                return
            if isinstance(decided, str):
                self.add_node(node_name, "Skipped", "Error", boundary, task.get("template"), decided)
                self.connect(context, task_name, node_name, dependencies, None)
                return
            if not decided and node is None:
                self.add_node(node_name, "Skipped", "Omitted", boundary, task.get("template"),
                              "omitted: depends condition not met")
                self.connect(context, task_name, node_name, dependencies, None)
                return
        # workflow/controller/dag.go resolveDependencyReferences: ReplaceStrict over the task; a missing
        # `{{tasks.X.…}}` requeues (returns, nothing created); an absent optional is an error.
        scope = self.scope(context, self.ancestors(context, task_name)) | self.global_values()
        # Artifacts are not parameters: they stay out of the text substitution (workflow/controller/scope.go
        # getParametersAny) and are resolved by `from` below.
        artifacts = {k: v for k, v in scope.items() if isinstance(v, dict)}
        scope = {k: v for k, v in scope.items() if not isinstance(v, dict)}
        try:
            when = task.get("when")
            resolved_when = self.replace(when, scope) if when else None
            if resolved_when is not None and not ("{{item" in when) and not self.should_execute(resolved_when):
                resolved = dict(task)
            else:
                resolved = json.loads(self.replace(json.dumps({k: v for k, v in task.items() if k != "hooks"}), {
                    k: (json.dumps(v)[1:-1] if isinstance(v, str) else v) for k, v in scope.items()}, raw=scope))
                # (values are escaped for the JSON text they are substituted into)
                resolved = self.resolve_artifacts(resolved, artifacts)
        except Requeue as missing:
            self.requeued.append(f"{{{{{missing.args[0]}}}}} in task {task_name}")
            return
        except ValueError as error:
            if node is None:
                self.add_node(node_name, "Skipped", "Error", boundary, task.get("template"), str(error))
                self.connect(context, task_name, node_name, dependencies, None)
            return
        # workflow/controller/dag.go expandTask
        expand = "withItems" in task or "withParam" in task or "withSequence" in task
        try:
            items = self.items(resolved)
        except ValueError as error:
            if node is None:
                self.add_node(node_name, "Skipped", "Error", boundary, task.get("template"), str(error))
                self.connect(context, task_name, node_name, dependencies, None)
            return
        if expand:
            if not items:
                if node is None:
                    self.add_node(node_name, "Skipped", "Skipped", boundary, task.get("template"),
                                  "Skipped, empty params")
                    self.connect(context, task_name, node_name, dependencies, None)
                return
            if group is None:
                self.connect(context, task_name, node_name, dependencies, None)
                group = self.add_node(node_name, "TaskGroup", "Running", boundary, task.get("template"))
            expanded = [(self.item_name(task_name, i, item), item) for i, item in enumerate(items)]
        else:
            expanded = [(task_name, None)]
        for name, item in expanded:
            item_node_name = f"{boundary}.{name}"
            item_node = self.nodes.get(item_node_name)
            substituted = resolved if item is None else self.with_item(resolved, item)
            if item_node is None:
                self.connect(context, task_name, item_node_name, dependencies, group)
                when = substituted.get("when")
                if when is not None and not self.should_execute(when):
                    self.add_node(item_node_name, "Skipped", "Skipped", boundary, task.get("template"),
                                  f"when '{when}' evaluated false")
                    continue
            args = {"parameters": {p["name"]: str(p.get("value", "")) if not isinstance(p.get("value"), str)
                                   else p["value"] for p in substituted.get("arguments", {}).get("parameters", [])},
                    "artifacts": {a["name"]: a for a in substituted.get("arguments", {}).get("artifacts", [])}}
            item_node = self.execute_template(item_node_name, task["template"], args, boundary, task)
            if item_node is None:
                return  # parallelism reached: the next items wait for a later pass
            item_node.display = name
        if group is not None:
            phase = "Succeeded"
            for name, _ in expanded:
                child = self.nodes.get(f"{boundary}.{name}")
                if child is None or not child.fulfilled():
                    return
                if child.phase in FAILED_OR_ERROR:
                    phase = child.phase
            group.phase = phase

    @staticmethod
    def resolve_artifacts(task, artifacts):
        """workflow/controller/dag.go resolveDependencyReferences → workflow/controller/scope.go resolveArtifact: each argument artifact
        with `from` becomes the artifact it names (`tasks.X.outputs.artifacts.N`, or a DAG
        template's `inputs.artifacts.N`: workflow/controller/scope.go resolveVar). One that cannot be resolved is
        left out when `optional` ("Optional artifact was not found; it won't be available as an
        input"), else the task's node errors ("Unable to resolve", util/template/resolve_var.go)."""
        given = task.get("arguments", {}).get("artifacts")
        if not given:
            return task
        kept = []
        for argument in given:
            reference = argument.get("from")
            if not reference:
                kept.append(argument)
                continue
            key = reference.strip()[2:-2].strip()
            found = artifacts.get(key)
            if found is None or not (found.get("key") or found.get("raw")):
                if argument.get("optional"):
                    continue
                raise ValueError(f'Unable to resolve: "{key}"')
            kept.append(dict(found, name=argument["name"]))
        task = dict(task)
        task["arguments"] = dict(task["arguments"], artifacts=kept)
        return task

    def ancestors(self, context, task_name):
        # workflow/common/ancestry.go GetTaskAncestry: every task upstream of this one.
        found = []
        pending = list(self.task_dependencies(context["template"]["dag"], context["tasks"][task_name])[0])
        while pending:
            name = pending.pop()
            if name in found or name not in context["tasks"]:
                continue
            found.append(name)
            pending += self.task_dependencies(context["template"]["dag"], context["tasks"][name])[0]
        return found

    def evaluate_depends(self, context, task_name, dependencies, logic):
        """workflow/controller/dag.go evaluateDependsLogic: None until every dependency is fulfilled; then whether the
        `depends` expression holds over Succeeded/Failed/Errored/Skipped/Omitted/Daemoned
        (`Errored` is the Error phase, not Failed), AnySucceeded/AllFailed over an expanded task's
        children; a string when the expression cannot be evaluated."""
        results = {}
        for dependency in dependencies:
            node = self.task_node(context, dependency)
            if node is None or not node.fulfilled():
                return None
            children = [self.nodes[c] for c in node.children if c in self.nodes] if node.type == "TaskGroup" else []
            results[dependency.replace("-", "_")] = {
                "Succeeded": node.phase == "Succeeded", "Failed": node.phase == "Failed",
                "Errored": node.phase == "Error", "Skipped": node.phase == "Skipped",
                "Omitted": node.phase == "Omitted", "Daemoned": node.daemoned and node.phase != "Pending",
                "AnySucceeded": any(c.phase == "Succeeded" for c in children),
                "AllFailed": bool(children) and all(c.phase == "Failed" for c in children),
            }
        expression = logic.replace("-", "_")

        def result(match):
            name, field = match.group(1), match.group(2)
            if name not in results or field not in results[name]:
                raise KeyError(match.group(0))
            return str(results[name][field])
        try:
            python = re.sub(r"([A-Za-z0-9_]+)\.([A-Za-z]+)", result, expression)
            python = python.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
            return bool(eval(python, {"__builtins__": {}}, {}))
        except Exception as error:  # noqa: BLE001 - reported on the node, as Argo does
            return f"unable to evaluate expression '{logic}': {error}"

    @staticmethod
    def should_execute(when):
        """workflow/controller/steps.go shouldExecute (govaluate): `true`/`false`, ==, !=, <, >, &&, ||, !, and bare
        words compared as strings."""
        tokens = re.findall(r"'[^']*'|\"[^\"]*\"|&&|\|\||==|!=|<=|>=|[<>!()]|[^\s()!<>=&|]+", when)
        out = []
        for token in tokens:
            if token == "&&":
                out.append(" and ")
            elif token == "||":
                out.append(" or ")
            elif token == "!":
                out.append(" not ")
            elif token in ("==", "!=", "<", ">", "<=", ">=", "(", ")"):
                out.append(token)
            elif token in ("true", "false"):
                out.append(token.capitalize())
            elif re.fullmatch(r"-?\d+(\.\d+)?", token):
                out.append(token)
            elif token[0] in "'\"":
                out.append(repr(token[1:-1]))
            else:
                out.append(repr(token))
        return bool(eval(" ".join(out), {"__builtins__": {}}, {}))

    @staticmethod
    def items(task):
        # workflow/controller/dag.go expandTask: withItems as written; withParam parsed as a JSON list (else the
        # task errors with this message); withSequence by workflow/controller/operator.go expandSequence: the
        # strings start..end, or start..start+count-1 (none for count 0).
        if "withItems" in task:
            return task["withItems"]
        if "withParam" in task:
            try:
                items = json.loads(task["withParam"])
            except ValueError as error:
                raise ValueError(f"withParam value could not be parsed as a JSON list: {task['withParam']}: {error}")
            if not isinstance(items, list):
                raise ValueError(f"withParam value could not be parsed as a JSON list: {task['withParam']}")
            return items
        if "withSequence" in task:
            sequence = task["withSequence"]
            start = int(sequence.get("start", 0))
            end = int(sequence["end"]) if "end" in sequence else start + int(sequence["count"]) - 1
            return [str(i) for i in range(start, end + 1)]
        return []

    @staticmethod
    def item_name(task_name, index, item):
        # workflow/controller/operator.go processItem / generateNodeName: NAME(INDEX:ITEM), a map's sorted key:value pairs.
        if isinstance(item, dict):
            text = ",".join(sorted(f"{k}:{v}" for k, v in item.items()))
        elif isinstance(item, bool):
            text = str(item).lower()
        elif isinstance(item, list):
            text = json.dumps(item)
        else:
            text = str(item)
        return f"{task_name}({index}:{text})"

    @staticmethod
    def with_item(task, item):
        # workflow/controller/operator.go processItem: {{item}} and {{item.KEY}}; a map or list item's {{item}} is its
        # json.Marshal (sorted keys, <>& escaped).
        values = {}
        if isinstance(item, dict):
            values["item"] = go_json(item)
            for key, value in item.items():
                values[f"item.{key}"] = value if isinstance(value, str) else json.dumps(value)
        elif isinstance(item, bool):
            values["item"] = str(item).lower()
        elif isinstance(item, list):
            values["item"] = go_json(item)
        else:
            values["item"] = item if isinstance(item, str) else json.dumps(item)
        body = {k: v for k, v in task.items() if k not in ("withItems", "withParam", "withSequence")}

        def value(match):
            key = match.group(1).strip()
            return json.dumps(values[key])[1:-1] if key in values else match.group(0)
        return json.loads(re.sub(r"\{\{([^{}]+)\}\}", value, json.dumps(body)))

    # ------------------------------------------------------------ pods

    def execute_container(self, node_name, template_name, template, inputs, args, boundary):
        """workflow/controller/operator.go executeContainer: a Pod node, Pending then Running while its process runs."""
        node = self.nodes.get(node_name)
        if node is not None:
            return node
        node = self.add_node(node_name, "Pod", "Pending", boundary, template_name)
        pod_dir = tempfile.mkdtemp(prefix=re.sub(r"[^A-Za-z0-9-]", "-", node.display)[:40] + "-", dir=self.work)
        os.makedirs(os.path.join(pod_dir, "tmp"), exist_ok=True)
        values = {f"inputs.parameters.{k}": v for k, v in inputs.items()} | self.global_values()
        self.measure(template, values, args)
        try:
            argv, env, container = self.container_command(template, values, pod_dir, args)
            self.pod_inputs[node.display] = self.input_bytes(template, values, args)
        except InitError as error:
            # workflow/controller/operator.go inferFailedReason: a failed init container is the node's Error.
            node.phase, node.message = "Error", f"init: Error (exit code 1): {error}"
            return node
        except Exception as error:  # noqa: BLE001 - a pod that cannot be made errors its node
            node.phase, node.message = "Error", str(error)
            return node
        node.phase = "Running"
        if template.get("daemon") and node.display in self.daemons:
            node.ip = self.daemons[node.display]  # --daemon TASK=IP: one already running
            node.daemoned = True
            return node
        self.pod_count += 1
        values = dict(values, **{"pod.name": f"{self.name}-{re.sub(r'[^a-z0-9-]', '-', node.display.lower())}-{self.pod_count}"})
        thread = threading.Thread(target=self.run_pod, args=(node, template, argv, env, container, pod_dir, values),
                                  daemon=True)
        node.process = thread
        thread.start()
        return node

    def pod_path(self, path, pod_dir, mounts):
        # The container's mount table: the longest mount path holding `path` is where it lives, as
        # in the kernel's mount tree (a subPath file mounted inside an emptyDir hides the
        # emptyDir there). Mount paths are whole path components: /tmp/flow does not hold
        # /tmp/flow-x.
        for mount_path in sorted(mounts, key=len, reverse=True):
            if path == mount_path or path.startswith(mount_path + "/"):
                return mounts[mount_path] + path[len(mount_path):]
        return pod_dir + path

    def input_bytes(self, template, values, args):
        """The size of what a pod's template carries in: its input parameters' values and its raw
        input artifacts' data, as resolved (workflow/controller/operator.go executeTemplate resolves the inputs into
        the template; workflow/controller/workflowpod.go createWorkflowPod then puts that template into the pod)."""
        size = sum(len(v.encode()) for k, v in values.items() if k.startswith("inputs.parameters.") and isinstance(v, str))
        for artifact in template.get("inputs", {}).get("artifacts", []):
            data = (args.get("artifacts", {}).get(artifact["name"], artifact).get("raw") or {}).get("data")
            if data is not None:
                size += len(self.replace(data, values, ()).encode())
        return size

    def container_command(self, template, values, pod_dir, args):
        container = template.get("container") or template.get("script")
        if container is None:
            raise RuntimeError(f"template {template['name']}: only container, script and dag templates run here")
        mounts = container_mounts(container, self, pod_dir)
        # The init container loads the input artifacts before main starts (workflow/executor/
        # workflow/executor/executor.go loadArtifacts → loadArtifact), each at its path, folders included.
        for artifact in template.get("inputs", {}).get("artifacts", []):
            # workflow/common/util.go ProcessArgs: the argument replaces the template's artifact,
            # keeping its path.
            given = args.get("artifacts", {}).get(artifact["name"], artifact)
            path = self.pod_path(artifact["path"], pod_dir, mounts)
            data = (given.get("raw") or {}).get("data")
            if data is not None:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(self.replace(data, values, ()))
                continue
            key = artifact_key(given)
            if key is None:
                # workflow/executor/executor.go loadArtifact: "Ignoring optional artifact which was not supplied".
                if artifact.get("optional"):
                    continue
                raise InitError(f"required artifact '{artifact['name']}' not supplied")
            # workflow/common/util.go SubstituteParams: the template's keys see its inputs and globals.
            key = self.replace(key, values, ())
            if not self.load_artifact(key, path):
                # workflow/executor/executor.go loadArtifact: a key holding neither a file nor a folder is NotFound
                # (workflow/artifacts/s3/s3.go loadS3Artifact), skipped when optional ("Skipping optional input
                # artifact that was not found"), else the init container fails.
                if artifact.get("optional"):
                    continue
                raise InitError(f"artifact {artifact['name']} failed to load: {key}: NoSuchKey")

        # The paths the manifest itself places in the pod (its mounts, input artifacts and output
        # parameters) are the pod's own; every other path is the workflow's, on this one host.
        placed = [m["mountPath"] for m in container.get("volumeMounts", [])]
        placed += [a["path"] for a in template.get("inputs", {}).get("artifacts", [])]
        placed += [(p.get("valueFrom") or {}).get("path") for p in template.get("outputs", {}).get("parameters", [])]
        placed += [a.get("path") for a in template.get("outputs", {}).get("artifacts", [])]
        placed = sorted({p for p in placed if p}, key=len, reverse=True)

        def local(part):
            part = self.replace(part, values, ())
            if part.startswith("/"):
                for mount_path in mounts:
                    if part == mount_path or part.startswith(mount_path + "/"):
                        return self.pod_path(part, pod_dir, mounts)
            # A placed path inside a longer argument (--outputs-to=/tmp/flow/x, a script's text):
            # whole path components only, so /tmp/flow inside /tmp/flow-https-example is not one.
            for path in placed:
                pattern = r"(?<![\w./-])" + re.escape(path) + r"(?=/|$|[^\w.-])"
                part = re.sub(pattern, lambda _m, path=path: self.pod_path(path, pod_dir, mounts), part)
            return part
        command = list(container.get("command", []))
        arguments = list(container.get("args", []))
        image = container.get("image", "")
        if "script" in template and template["script"].get("source"):
            script = os.path.join(pod_dir, "script")
            with open(script, "w") as f:
                f.write(local(template["script"].get("source", "")))
            argv = [local(p) for p in command or ["sh"]] + [script]
        elif not command and image.startswith("argoproj/argosay"):
            argv = [sys.executable, os.path.abspath(__file__), "argosay"] + [local(p) for p in arguments]
        else:
            argv = [local(p) for p in command + arguments]
        if argv and argv[0] == "flow":
            argv[0] = self.flow
        env = {k: v for k, v in os.environ.items() if not k.startswith("FLOW_SECRET_")}
        env.pop("FLOW_SANDBOX_HOST", None)
        for variable in container.get("env", []):
            if "value" in variable:
                env[variable["name"]] = self.replace(variable["value"], values, ())
            else:
                reference = variable["valueFrom"]["secretKeyRef"]
                if reference["key"] in self.secrets:
                    env[variable["name"]] = self.secrets[reference["key"]]
                elif not reference.get("optional"):
                    raise RuntimeError(f"no --secret {reference['key']}")
        return argv, env, container

    def run_pod(self, node, template, argv, env, container, pod_dir, values):
        print(f"argo-harness: {node.display}: {' '.join(argv)}", file=self.log, flush=True)
        lost = any(node.display == name or node.display.startswith(name + "(") for name in self.lose)
        # The container's workingDir is the process's cwd (core/v1 Container.workingDir: "the
        # container runtime's default" without it, the image's WORKDIR; the runtime makes a
        # missing one). A pod without one runs here, in the harness's own folder.
        cwd = None
        if container.get("workingDir"):
            cwd = self.pod_path(container["workingDir"], pod_dir, container_mounts(container, self, pod_dir))
            os.makedirs(cwd, exist_ok=True)
        try:
            process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=self.log,
                                       start_new_session=True, cwd=cwd)
        except OSError as error:
            self.finish(node, "Failed", None, f"{error}")
            return
        with self.lock:
            self.started.append(process)
            node.os_process = process
        if template.get("daemon"):
            self.await_ready(node, template, process)
        if lost:
            # Injected pod loss (--lose-pod): the pod is deleted under the controller; workflow/controller/operator.go
            # podReconciliation marks the node Error "pod deleted", with no outputs reported.
            time.sleep(0.2)
            self.terminate(process)
            self.finish(node, "Error", None, "pod deleted")
            return
        deadline = template.get("activeDeadlineSeconds")
        captured = []
        # The main container's standard output: the log, and `outputs.result` (workflow/executor/executor.go
        # CaptureScriptResult; the controller asks for it when a template's result is read).
        reader = threading.Thread(target=lambda: captured.append(process.stdout.read()), daemon=True)
        reader.start()
        try:
            code = process.wait(timeout=int(deadline) if deadline else None)
            message = "" if code == 0 else f"main: Error (exit code {code})"
        except subprocess.TimeoutExpired:
            self.terminate(process)
            code = -1
            message = "Pod was active on the node longer than the specified deadline"
        # workflow/executor/executor.go SaveParameters (run by workflow/executor/postmain.go PostMain also after a
        # failed main): each output parameter from its file, else its valueFrom.default; a missing
        # file without default is an error of the wait container (the node's phase is then Error
        # unless main failed), and the parameters after it are not saved. A deadline kills the pod:
        # nothing is saved.
        parameters = {}
        wait_error = None
        if code != -1:
            for parameter in template.get("outputs", {}).get("parameters", []):
                value_from = parameter.get("valueFrom") or {}
                if "path" not in value_from:
                    if "value" in parameter:
                        parameters[parameter["name"]] = self.replace(str(parameter["value"]), values, ())
                    continue
                path = self.pod_path(value_from["path"], pod_dir, container_mounts(container, self, pod_dir))
                try:
                    with open(path) as f:
                        text = f.read()
                except OSError as error:
                    if "default" not in value_from:
                        wait_error = f"wait: {error}"
                        break
                    text = str(value_from["default"])
                # workflow/executor/executor.go SaveParameters: "Trims off a single newline".
                parameters[parameter["name"]] = text[:-1] if text.endswith("\n") else text
        # workflow/executor/executor.go SaveArtifacts, after SaveParameters whatever it gave and also after a failed
        # main (workflow/executor/postmain.go PostMain): each output artifact from its path once the container
        # ended, every one tried (errors joined); a deadline kills the pod first.
        artifacts = []
        if code != -1:
            for artifact in template.get("outputs", {}).get("artifacts", []):
                path = self.pod_path(artifact["path"], pod_dir, container_mounts(container, self, pod_dir))
                saved, error = self.save_artifact(artifact, path, values)
                if error is not None:
                    wait_error = wait_error or f"wait: {error}"
                    continue
                if saved is not None:
                    artifacts.append(saved)
        reader.join(timeout=5)
        stdout = captured[0].decode(errors="replace") if captured else ""
        self.log.write(stdout)
        self.log.flush()
        if template.get("daemon"):
            # workflow/controller/operator.go assessNodeStatus: a daemon's pod that ends, even succeeded, fails its node.
            phase = "Failed"
            message = message or "daemon exited"
        elif code == 0 and wait_error is None:
            phase = "Succeeded"
        elif code == 0:
            phase, message = "Error", wait_error
        else:
            phase = "Failed"
        outputs = None
        if code != -1:
            outputs = {"parameters": parameters, "result": stdout[:-1] if stdout.endswith("\n") else stdout}
            if artifacts:
                outputs["artifacts"] = artifacts
            for value in parameters.values():
                self.sizes["output"] = max(self.sizes["output"], len(value))
        self.finish(node, phase, outputs, message)

    def save_artifact(self, artifact, path, values):
        """workflow/executor/executor.go saveArtifact → stageArchiveFile and saveArtifactFromFile: the file or folder
        at `path`, as a gzipped tar named NAME.tgz unless `archive: {none: {}}` (then as it is,
        named after the path); its key is its own (a key-only artifact, relocated to the
        repository: pkg/apis/workflow/v1alpha1/workflow_types.go ArtifactLocation.Relocate), else the repository's key
        format `{{workflow.name}}/{{pod.name}}` (pkg/apis/workflow/v1alpha1/artifact_repository_types.go
        DefaultArchivePattern) joined with that name. A missing path is NotFound: an optional
        artifact is not saved, another fails the wait container. Returns (saved, error)."""
        if not os.path.lexists(path):
            if artifact.get("optional"):
                return None, None
            return None, f"{artifact['path']} no such file or directory"
        none = "none" in (artifact.get("archive") or {})
        name = os.path.basename(artifact["path"]) if none else f"{artifact['name']}.tgz"
        key = artifact_key(artifact)
        key = self.replace(key, values, ()) if key else f"{self.name}/{values['pod.name']}/{name}"
        target = os.path.join(self.repository, key)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if none and os.path.isdir(path):
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(path, target)
        elif none:
            shutil.copyfile(path, target)
        else:
            with tarfile.open(target, "w:gz") as tar:
                tar.add(path, arcname=os.path.basename(path))
        # The node's output artifact: its name and location (the key), as the status keeps it.
        return {"name": artifact["name"], "key": key}, None

    def load_artifact(self, key, path):
        """An artifact driver's Load (workflow/artifacts/s3/s3.go loadS3Artifact): the object at
        `key`, else every object under `key/` as a folder (IsDirectory, GetDirectory); a gzipped
        tar is unpacked (workflow/executor/executor.go unarchiveArtifact → isTarball, untar). False when the key
        holds nothing (NoSuchKey)."""
        source = os.path.join(self.repository, key.strip("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.isfile(source):
            if tarfile.is_tarfile(source):
                with tarfile.open(source) as tar:
                    members = tar.getmembers()
                    single = len(members) == 1 and members[0].isfile()
                    if single:
                        with tar.extractfile(members[0]) as f, open(path, "wb") as out:
                            shutil.copyfileobj(f, out)
                    else:
                        unpack = tempfile.mkdtemp(dir=self.work)
                        tar.extractall(unpack, filter="data")
                        shutil.move(os.path.join(unpack, members[0].name.split("/")[0]), path)
            else:
                shutil.copyfile(source, path)
            return True
        if os.path.isdir(source) and os.listdir(source):
            shutil.copytree(source, path, dirs_exist_ok=True)
            return True
        return False

    def measure(self, template, values, args):
        """The template a pod receives, substituted (workflow/common/util.go ProcessArgs →
        SubstituteParams, given artifacts in place): its JSON is the pod's ARGO_TEMPLATE
        (workflow/controller/workflowpod.go), offloaded to a ConfigMap per pod over workflow/common/common.go MaxEnvVarLen."""
        given = dict(template)
        artifacts = [dict(a, **args.get("artifacts", {}).get(a["name"], {}))
                     for a in template.get("inputs", {}).get("artifacts", [])]
        if artifacts:
            given["inputs"] = dict(template.get("inputs", {}), artifacts=artifacts)
        text = self.replace(json.dumps(given, separators=(",", ":")), {
            k: (json.dumps(v)[1:-1] if isinstance(v, str) else v) for k, v in values.items()}, ())
        if len(text) > self.sizes["template"]:
            self.sizes["template"], self.sizes["template_name"] = len(text), template["name"]
        # A parameter value resolved into the task, or a raw artifact's text (the same values).
        for parameter in args.get("parameters", {}).values():
            self.sizes["parameter"] = max(self.sizes["parameter"], len(parameter))
        for artifact in args.get("artifacts", {}).values():
            data = self.replace((artifact.get("raw") or {}).get("data", ""), values, ())
            self.sizes["parameter"] = max(self.sizes["parameter"], len(data))

    def await_ready(self, node, template, process):
        name = node.display
        if name in self.daemons:
            node.ip = self.daemons[name]
            self.finish_daemon(node)
            return
        # workflow/controller/operator.go assessNodeStatus: a daemon's node is Daemoned only once its pod is Running
        # and ready. A container that exits first never is (its pod fails, below); one whose
        # startup probe fails failureThreshold × periodSeconds times is killed by the kubelet
        # (core/v1 Probe), and with restartPolicy Never its pod fails.
        container = template["container"]
        probe = container.get("readinessProbe", {})
        port = (probe.get("httpGet") or probe.get("tcpSocket") or {}).get("port")
        path = (probe.get("httpGet") or {}).get("path", "/")
        startup = container.get("startupProbe") or {}
        patience = int(startup.get("failureThreshold", 3)) * int(startup.get("periodSeconds", 10)) if startup else 30
        deadline = time.time() + patience
        ready = False
        while time.time() < deadline and process.poll() is None:
            try:
                if port is not None:
                    if "httpGet" in probe:
                        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2)
                    else:
                        socket.create_connection(("127.0.0.1", port), timeout=2).close()
                ready = True
                break
            except Exception:  # noqa: BLE001 - not ready yet
                time.sleep(0.1)
        if not ready:
            if process.poll() is None:
                self.terminate(process)
            return
        node.ip = "127.0.0.1"
        self.finish_daemon(node)

    def finish_daemon(self, node):
        # workflow/controller/operator.go assessNodeStatus: a daemon template's pod becomes Daemoned once it runs and
        # is ready (its readiness probe passed).
        with self.lock:
            node.daemoned = True
        self.wake.set()

    def finish(self, node, phase, outputs, message):
        with self.lock:
            if node.phase in ("Pending", "Running"):
                # workflow/controller/operator.go assessNodeStatus: a pod that ended is no longer Daemoned.
                node.daemoned = False
                node.phase = phase
                node.outputs = outputs
                node.message = message
        self.wake.set()

    def terminate(self, process):
        if isinstance(process, threading.Thread):
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            return
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)

    def stop_all(self):
        for process in list(self.started):
            if process.poll() is None:
                self.terminate(process)


def artifact_key(artifact):
    """A location's key (pkg/apis/workflow/v1alpha1/workflow_types.go ArtifactLocation.GetKey): the resolved artifact's,
    else the key of whichever storage the artifact names (a key-only artifact)."""
    if artifact.get("key"):
        return artifact["key"]
    for kind in ("s3", "gcs", "oss", "azure", "artifactory", "hdfs"):
        location = artifact.get(kind) or {}
        key = location.get("key") or location.get("blob") or location.get("path")
        if key:
            return key
    return None


def has_location(artifact):
    return artifact_key(artifact) is not None or "raw" in artifact or "http" in artifact or "git" in artifact


def expand(flat):
    """util/expand/expand.go Expand (bellows.Expand after removeConflicts): dotted keys become
    nested maps; a key that is the prefix of another (`tasks.X.outputs.parameters` beside
    `tasks.X.outputs.parameters.flow`) is dropped."""
    keys = sorted(flat)
    kept = {k: flat[k] for i, k in enumerate(keys) if not (i + 1 < len(keys) and keys[i + 1].startswith(k + "."))}
    nested = {}
    for key, value in kept.items():
        *parents, last = key.split(".")
        place = nested
        for part in parents:
            child = place.get(part)
            if not isinstance(child, dict):
                child = place[part] = {}
            place = child
        place[last] = value
    return nested


def expression_tag(escaped, raw, strict_prefixes):
    """An expression tag `{{=…}}` inside a JSON text, as Argo v4.1.2 resolves one in a DAG task
    (util/template/expression_template.go expressionReplaceStrict and expressionReplaceCore), for
    the forms the exporter writes: a member path (`tasks['a']?.outputs?.parameters?.flow`) with an
    optional `?? 'literal'` fallback (expr-lang v1.17: `?.` on nil gives nil, a missing map key
    reads nil, `??` takes the right side when the left is nil). Any other form is refused here.
    - The expression is JSON-unmarshalled first (the task is JSON text).
    - Identifiers required are those not guarded by `??` or `?.` (getIdentifiers, guardVisitor:
      members left of `??` are guarded, the base identifier is not); one that is missing from the
      environment (expr/env GetFuncMap → expand.Expand of the scope) and matches a strict prefix
      (`tasks`, `steps`) is "is missing": a requeue (util/template/replace.go IsMissingVariableErr, workflow/controller/dag.go).
    - A nil result with nothing missing is an error ("failed to evaluate expression"): the task's
      node errors (workflow/controller/dag.go executeDAGTask).
    - The result is json.Marshal'ed and, for a string, its quotes trimmed: it lands escaped in the
      JSON text."""
    expression = json.loads('"' + escaped + '"')
    token = r"\s*(\?\.\s*\[\s*'([^']*)'\s*\]|\?\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*'([^']*)'\s*\]|\.([A-Za-z_][A-Za-z0-9_]*))"
    match = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)((?:" + token + r")*)\s*(?:\?\?\s*'([^']*)')?\s*$", expression)
    if match is None:
        raise ValueError(f"argo-harness: expression form not modelled: {expression}")
    base, path, fallback = match.group(1), match.group(2), match.group(8)
    segments = [(m.group(1).startswith("?"), next(g for g in m.groups()[1:] if g is not None))
                for m in re.finditer(token, path)]
    env = expand({k: v for k, v in raw.items()})
    if base not in env:
        if any(base == p.rstrip(".") for p in strict_prefixes):
            raise Requeue(base)
        raise ValueError(f"failed to evaluate expression: unknown name {base}")
    value = env[base]
    guarded = fallback is not None
    for optional, name in segments:
        if value is None:
            if optional or guarded:
                break
            raise ValueError(f"failed to evaluate expression: cannot fetch {name} from <nil>")
        if not isinstance(value, dict):
            raise ValueError(f"failed to evaluate expression: cannot fetch {name} from {type(value).__name__}")
        value = value.get(name)
    if value is None and fallback is not None:
        value = fallback
    if value is None:
        raise ValueError(f'failed to evaluate expression "{expression}"')
    marshalled = go_json(value)
    return marshalled[1:-1] if isinstance(value, str) else json.dumps(marshalled)[1:-1]


def go_json(value):
    """encoding/json Marshal: compact, map keys sorted, UTF-8 kept, and <, >, & escaped (HTML-safe)."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def container_mounts(container, controller, pod_dir):
    """The container's mounts: mount path -> the local path holding it. An emptyDir is a folder of
    the pod's own (pod_dir + its path). A --mount volume is that local folder, or with `subPath`
    the file or folder at that path in it (Kubernetes `pkg/volume/util/subpath`: the volume's
    subPath is bind-mounted at mountPath). A subPath mount inside an emptyDir (the exporter's
    files under /flow) is made as a link at its place in the emptyDir, so the container sees it
    among the emptyDir's other entries and a relative path from the working folder finds it."""
    mounts = {}
    entries = container.get("volumeMounts", [])
    for mount in sorted(entries, key=lambda m: len(m["mountPath"])):
        volume = controller.volumes.get(mount["name"], {})
        if "emptyDir" in volume:
            local = pod_dir + mount["mountPath"]
            os.makedirs(local, exist_ok=True)
        elif mount["name"] in controller.mounts:
            local = controller.mounts[mount["name"]]
            if "subPath" in mount:
                local = os.path.join(local, mount["subPath"])
            inside = [p for p in mounts if mount["mountPath"].startswith(p + "/")
                      and "emptyDir" in controller.volumes.get(mount_volume(entries, p), {})]
            if inside:
                place = pod_dir + mount["mountPath"]
                os.makedirs(os.path.dirname(place), exist_ok=True)
                if not os.path.lexists(place):
                    os.symlink(os.path.abspath(local), place)
                local = place
        else:
            raise RuntimeError(f"volume {mount['name']}: give --mount {mount['name']}=DIR")
        mounts[mount["mountPath"]] = local
    return mounts


def mount_volume(entries, mount_path):
    return next((m["name"] for m in entries if m["mountPath"] == mount_path), None)


def argosay(args):
    """argoproj/argosay:v2's commands, as the e2e workflows use them (an argument with spaces, such as
    "exit 1", is split as the image's entrypoint splits it)."""
    if len(args) == 1 and " " in args[0]:
        args = args[0].split()
    if not args:
        print("hello argo")
        return 0
    command, rest = args[0], args[1:]
    if command == "echo":
        text = rest[0] if rest else "hello argo"
        if len(rest) > 1:
            with open(rest[1], "w") as f:
                f.write(text)
        else:
            print(text)
        return 0
    if command == "exit":
        return int(rest[0]) if rest else 0
    if command == "sleep":
        time.sleep(float(rest[0].rstrip("s")) if rest else 1)
        return 0
    if command == "assert_eq":
        return 0 if rest[0] == rest[1] else 1
    if command == "cat":
        with open(rest[0]) as f:
            print(f.read())
        return 0
    print(f"argosay: unknown command {command}", file=sys.stderr)
    return 1


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "argosay":
    sys.exit(argosay(sys.argv[2:]))
