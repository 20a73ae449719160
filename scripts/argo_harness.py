"""The Python side of scripts/argo-check: `validate` and `run` (see that script)."""
import argparse
import collections
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

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
    """What Argo resolves when it runs the workflow: names that must exist."""
    problems = []
    spec = doc.get("spec", {})
    if doc.get("kind") == "CronWorkflow":
        spec = spec.get("workflowSpec", {})
    templates = {t["name"]: t for t in spec.get("templates", [])}
    if spec.get("entrypoint") not in templates:
        problems.append(f"spec.entrypoint: no template '{spec.get('entrypoint')}'")
    params = {p["name"] for p in spec.get("arguments", {}).get("parameters", [])}
    for template in templates.values():
        tasks = template.get("dag", {}).get("tasks", [])
        names = {t["name"] for t in tasks}
        for task in tasks:
            where = f"task {task['name']}"
            target = templates.get(task.get("template"))
            if target is None:
                problems.append(f"{where}: no template '{task.get('template')}'")
                continue
            for name in re.findall(r"([A-Za-z0-9-]+)\.[A-Z][A-Za-z]+", task.get("depends", "")):
                if name not in names:
                    problems.append(f"{where}: depends on unknown task '{name}'")
            given_params = {p["name"] for p in task.get("arguments", {}).get("parameters", [])}
            given_artifacts = {a["name"] for a in task.get("arguments", {}).get("artifacts", [])}
            for p in target.get("inputs", {}).get("parameters", []):
                if p["name"] not in given_params and "value" not in p and "default" not in p:
                    problems.append(f"{where}: input parameter '{p['name']}' is not given")
            for a in target.get("inputs", {}).get("artifacts", []):
                if a["name"] not in given_artifacts:
                    problems.append(f"{where}: input artifact '{a['name']}' is not given")
            text = json.dumps(task)
            for ref in re.findall(r"\{\{tasks\.([A-Za-z0-9-]+)\.", text):
                if ref not in names:
                    problems.append(f"{where}: reads unknown task '{ref}'")
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

class Scope:
    """One DAG template's run: its tasks' phases and output parameters, and its own inputs."""

    def __init__(self, inputs):
        self.inputs = inputs
        self.phase = {}
        self.outputs = {}


class Harness:
    def __init__(self, doc, flow, mounts, daemons, secrets, log):
        self.spec = doc["spec"]
        self.templates = {t["name"]: t for t in self.spec["templates"]}
        self.flow = flow
        self.mounts = mounts
        self.daemons = daemons
        self.secrets = secrets
        self.log = log
        self.params = {p["name"]: p.get("value") for p in self.spec.get("arguments", {}).get("parameters", [])}
        self.ips = {}
        self.started = []
        self.lock = threading.Lock()
        # The most tasks (pods or nested DAGs) each DAG template had running at once.
        self.peaks = {}
        self.work = tempfile.mkdtemp(prefix="argo-harness-")

    def substitute(self, text, scope=None, inputs=None, item=None):
        def value(match):
            name = match.group(1).strip()
            parts = name.split(".")
            if parts[0] == "workflow" and parts[1] == "parameters":
                found = self.params.get(parts[2])
            elif parts[0] == "inputs" and parts[1] == "parameters":
                found = (inputs or {}).get(parts[2])
            elif parts[0] == "tasks" and parts[2] == "ip":
                found = self.ips.get(parts[1])
            elif parts[0] == "tasks" and parts[2:4] == ["outputs", "parameters"] and scope is not None:
                found = scope.outputs.get(parts[1], {}).get(parts[4])
            elif name == "item":
                found = item if isinstance(item, str) else json.dumps(item)
            else:
                found = None
            if found is None:
                raise RuntimeError(f"cannot resolve {{{{{name}}}}}")
            return found
        return re.sub(r"\{\{([^}]+)\}\}", value, text)

    def local_path(self, path, task_dir):
        # The files the manifest itself places in a pod (records, needs, items) live under
        # /tmp/flow/: each pod gets its own. Other paths are the workflow's, on this one host.
        if path.startswith("/tmp/flow/"):
            return os.path.join(task_dir, path[len("/tmp/"):])
        return path

    @staticmethod
    def depends_hold(depends, phases):
        expression = depends.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
        def result(match):
            return str(phases[match.group(1)] == match.group(2))
        expression = re.sub(r"([A-Za-z0-9-]+)\.([A-Z][A-Za-z]+)", result, expression)
        return eval(expression, {"__builtins__": {}}, {})

    @staticmethod
    def needs_of(task):
        return re.findall(r"([A-Za-z0-9-]+)\.[A-Z][A-Za-z]+", task.get("depends", ""))

    def container_command(self, template, inputs, item, task_dir):
        container = template["container"]
        # Volumes given with --mount (a ConfigMap's folder here): a whole volume, or one file of
        # it by `subPath`. Others (an emptyDir) are the pod's own and are not placed here.
        mounts = {}
        for m in container.get("volumeMounts", []):
            if m["name"] in self.mounts:
                local = self.mounts[m["name"]]
                mounts[m["mountPath"]] = os.path.join(local, m["subPath"]) if "subPath" in m else local
        argv = []
        for part in container.get("command", []) + container.get("args", []):
            part = self.substitute(part, inputs=inputs, item=item)
            mounted = next((m for m in sorted(mounts, key=len, reverse=True)
                            if part == m or part.startswith(m + "/")), None)
            if mounted is not None:
                # A mounted file's local folder may itself be under /tmp: it is not the pod's /tmp.
                argv.append(mounts[mounted] + part[len(mounted):])
            else:
                argv.append(self.local_path(part, task_dir))
        if argv and argv[0] == "flow":
            argv[0] = self.flow
        env = dict(os.environ)
        env = {k: v for k, v in env.items() if not k.startswith("FLOW_SECRET_")}
        for variable in container.get("env", []):
            if "value" in variable:
                env[variable["name"]] = self.substitute(variable["value"], inputs=inputs, item=item)
            else:
                reference = variable["valueFrom"]["secretKeyRef"]
                key = reference["key"]
                if key not in self.secrets:
                    if reference.get("optional"):
                        continue  # Kubernetes leaves an optional key's variable unset
                    raise RuntimeError(f"no --secret {key}")
                env[variable["name"]] = self.secrets[key]
        return argv, env

    def start_daemon(self, name, template, inputs):
        if name in self.daemons:
            self.ips[name] = self.daemons[name]
            return "Daemoned", {}
        task_dir = os.path.join(self.work, name)
        os.makedirs(task_dir, exist_ok=True)
        argv, env = self.container_command(template, inputs, None, task_dir)
        env.pop("FLOW_SANDBOX_HOST", None)  # here every task runs on 127.0.0.1
        process = subprocess.Popen(argv, env=env, stdout=self.log, stderr=self.log)
        with self.lock:
            self.started.append(process)
        probe = template["container"].get("readinessProbe", {})
        port = (probe.get("httpGet") or probe.get("tcpSocket") or {}).get("port")
        path = (probe.get("httpGet") or {}).get("path", "/")
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if "httpGet" in probe:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2)
                else:
                    socket.create_connection(("127.0.0.1", port), timeout=2).close()
                self.ips[name] = "127.0.0.1"
                return "Daemoned", {}
            except Exception:
                time.sleep(0.1)
        return "Failed", {}

    def run_pod(self, name, template, inputs, artifacts, item):
        task_dir = tempfile.mkdtemp(prefix=name + "-", dir=self.work)
        for artifact in template.get("inputs", {}).get("artifacts", []):
            path = self.local_path(artifact["path"], task_dir)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(artifacts[artifact["name"]])
        os.makedirs(os.path.join(task_dir, "flow"), exist_ok=True)
        argv, env = self.container_command(template, inputs, item, task_dir)
        deadline = template.get("activeDeadlineSeconds")
        print(f"argo-harness: {name}: {' '.join(argv)}", file=self.log, flush=True)
        try:
            code = subprocess.run(argv, env=env, stdout=self.log, stderr=self.log, timeout=deadline).returncode
        except subprocess.TimeoutExpired:
            code = -1
        outputs = {}
        # Argo keeps a failed pod's output parameters too.
        for parameter in template.get("outputs", {}).get("parameters", []):
            path = self.local_path(parameter["valueFrom"]["path"], task_dir)
            if os.path.exists(path):
                with open(path) as f:
                    outputs[parameter["name"]] = f.read()
        return ("Succeeded" if code == 0 else "Failed"), outputs

    def execute(self, task, scope, item):
        """Runs one node of a task (the task, or one of its items): a pod, a daemon or a nested DAG."""
        name = task["name"]
        template = self.templates[task["template"]]
        arguments = task.get("arguments", {})
        inputs = {
            p["name"]: self.substitute(p["value"], scope, scope.inputs, item) for p in arguments.get("parameters", [])
        }
        artifacts = {
            a["name"]: self.substitute(a["raw"]["data"], scope, scope.inputs, item)
            for a in arguments.get("artifacts", [])
        }
        if template.get("daemon"):
            return self.start_daemon(name, template, inputs)
        if "dag" in template:
            return self.run_dag(template, inputs)
        return self.run_pod(name, template, inputs, artifacts, item)

    def run_dag(self, template, inputs, scopes=None):
        """Runs a DAG template as Argo's controller would: each task once its `depends` are decided,
        an expanded task's items as nodes of their own, at most `parallelism` nodes at once, and,
        with `failFast` (Argo's default), no new node after one failed."""
        tasks = template["dag"]["tasks"]
        limit = template.get("parallelism") or len(tasks) + 10**6
        fail_fast = template["dag"].get("failFast", True)
        scope = Scope(inputs)
        condition = threading.Condition()
        queued = collections.deque()  # (task, index, item) ready to start
        expanded = {}  # task name -> {"results": [...], "left": n}
        state = {"running": 0, "failed": False}
        peak = 0

        def work(task, index, item):
            try:
                result = self.execute(task, scope, item)
            except Exception as error:  # a substitution that cannot resolve fails the node
                print(f"argo-harness: {task['name']}: {error}", file=self.log, flush=True)
                result = ("Failed", {})
            with condition:
                expanded[task["name"]]["results"][index] = result
                expanded[task["name"]]["left"] -= 1
                state["running"] -= 1
                if result[0] == "Failed":
                    state["failed"] = True
                condition.notify_all()

        threads = []
        with condition:
            while True:
                # Decide every task whose dependencies are decided.
                for task in tasks:
                    name = task["name"]
                    if name in scope.phase or name in expanded:
                        continue
                    if not all(n in scope.phase for n in self.needs_of(task)):
                        continue
                    if fail_fast and state["failed"]:
                        continue  # Argo schedules nothing new after a failure
                    if "depends" in task and not self.depends_hold(task["depends"], scope.phase):
                        scope.phase[name] = "Omitted"
                        continue
                    if "withItems" in task or "withParam" in task:
                        items = (task["withItems"] if "withItems" in task
                                 else json.loads(self.substitute(task["withParam"], scope, scope.inputs)))
                        if not items:
                            scope.phase[name] = "Skipped"
                            continue
                    else:
                        items = [None]
                    expanded[name] = {"results": [None] * len(items), "left": len(items),
                                      "loop": "withItems" in task or "withParam" in task}
                    for index, item in enumerate(items):
                        queued.append((task, index, item))
                # After a failure under failFast, queued nodes never start.
                if fail_fast and state["failed"]:
                    while queued:
                        task, _, _ = queued.popleft()
                        expanded[task["name"]]["left"] -= 1
                while queued and state["running"] < limit:
                    task, index, item = queued.popleft()
                    state["running"] += 1
                    peak = max(peak, state["running"])
                    thread = threading.Thread(target=work, args=(task, index, item), daemon=True)
                    threads.append(thread)
                    thread.start()
                # Decide the tasks whose nodes have all finished (or will never start).
                finished = False
                for name, record in list(expanded.items()):
                    if record["left"] > 0:
                        continue
                    finished = True
                    del expanded[name]
                    results = [r for r in record["results"] if r is not None]
                    phases = [phase for phase, _ in results]
                    if not record["loop"]:
                        if results:  # else it never started (failFast)
                            scope.phase[name], scope.outputs[name] = results[0]
                        continue
                    collected = {}
                    for _, outputs in results:
                        for key, value in outputs.items():
                            collected.setdefault(key, []).append(value)
                    # Argo gives an expanded task's output parameter as a JSON list of the items' values.
                    scope.outputs[name] = {k: json.dumps(v) for k, v in collected.items()}
                    complete = len(results) == len(record["results"])
                    scope.phase[name] = "Succeeded" if complete and all(p == "Succeeded" for p in phases) else "Failed"
                if finished:
                    continue
                if not expanded and not queued and state["running"] == 0:
                    break
                condition.wait()
        for thread in threads:
            thread.join()
        undecided = [t["name"] for t in tasks if t["name"] not in scope.phase]
        if undecided and not (fail_fast and state["failed"]):
            raise RuntimeError(f"the DAG has a cycle or depends on unknown tasks: {undecided}")
        with self.lock:
            self.peaks[template["name"]] = max(self.peaks.get(template["name"], 0), peak)
        failed = any(p == "Failed" for p in scope.phase.values()) or bool(undecided)
        outputs = {}
        for parameter in template.get("outputs", {}).get("parameters", []):
            try:
                outputs[parameter["name"]] = self.substitute(
                    parameter["valueFrom"]["parameter"], scope, scope.inputs)
            except RuntimeError:
                pass
        if scopes is not None:
            scopes.append(scope)
        return ("Failed" if failed else "Succeeded"), outputs

    def run(self):
        entry = self.templates[self.spec["entrypoint"]]
        scopes = []
        try:
            self.run_dag(entry, {}, scopes)
        finally:
            for process in self.started:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
            shutil.rmtree(self.work, ignore_errors=True)
        scope = scopes[0]
        print(json.dumps({"phases": scope.phase, "outputs": scope.outputs, "peaks": self.peaks}, sort_keys=True))
        return 1 if "Failed" in scope.phase.values() else 0


def pairs(values, option):
    result = {}
    for value in values or []:
        if "=" not in value:
            sys.exit(f"argo-check: {option} takes NAME=VALUE, not {value}")
        key, _, rest = value.partition("=")
        result[key] = rest
    return result


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("validate", "run"):
        sys.exit("usage: argo-check validate MANIFEST... | argo-check run MANIFEST --flow PATH --mount NAME=DIR")
    if sys.argv[1] == "validate":
        sys.exit(validate(sys.argv[2:]))
    parser = argparse.ArgumentParser(prog="argo-check run")
    parser.add_argument("manifest")
    parser.add_argument("--flow", required=True)
    parser.add_argument("--mount", action="append")
    parser.add_argument("--daemon", action="append")
    parser.add_argument("--secret", action="append")
    parser.add_argument("--parameter", action="append")
    arguments = parser.parse_args(sys.argv[2:])
    harness = Harness(
        load(arguments.manifest), arguments.flow, pairs(arguments.mount, "--mount"),
        pairs(arguments.daemon, "--daemon"), pairs(arguments.secret, "--secret"), sys.stderr)
    harness.params.update(pairs(arguments.parameter, "--parameter"))
    sys.exit(harness.run())


if __name__ == "__main__":
    main()
