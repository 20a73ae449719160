"""`argo-check conformance`: the harness against Argo's own expectations.

Each case is a DAG workflow of argoproj/argo-workflows v4.1.2's end-to-end tests (commit
16a52d67daf2f4a8a76fa8bec02a76a46aa46257), written out here with what the test needs (the file is
not copied), and the phases that Go test asserts: the workflow's, and named nodes'. The pods run
locally: `argoproj/argosay:v2` as the harness's built-in argosay (scripts/argo_controller.py).
Exit 0 when every case gives Argo's phases.
"""
import json
import sys
import tempfile

import yaml

ARGOSAY = "argoproj/argosay:v2"


def pod(name, *args, **extra):
    container = {"image": ARGOSAY}
    if args:
        container["args"] = list(args)
    return {"name": name, "container": container, **extra}


CASES = [
    {
        "name": "continueOn failed in a DAG",
        "source": "test/e2e/functional_test.go TestContinueOnFailDag (inline workflow)",
        "workflow": {"metadata": {"generateName": "continue-on-failed-dag-"}, "spec": {
            "entrypoint": "workflow-ignore", "templates": [
                {"name": "workflow-ignore", "dag": {"failFast": False, "tasks": [
                    {"name": "F", "template": "fail", "continueOn": {"failed": True}},
                    {"name": "P", "template": "pass", "dependencies": ["F"]}]}},
                pod("pass"), pod("fail", "exit", "1")]}},
        "expect": {"phase": "Succeeded", "nodes": {"F": "Failed", "P": "Succeeded"}},
    },
    {
        "name": "depends with Succeeded/Failed and bare names",
        "source": "test/e2e/functional/dag-depends.yaml, asserted by test/e2e/functional_test.go TestDAGDepends",
        "workflow": {"metadata": {"generateName": "dag-depends-"}, "spec": {
            "entrypoint": "main", "templates": [
                {"name": "main", "dag": {"tasks": [
                    {"name": "P", "template": "pass"},
                    {"name": "F", "template": "fail"},
                    {"name": "should-execute-1", "depends": "P && (F.Succeeded || F.Failed)", "template": "pass"},
                    {"name": "should-execute-2", "depends": "P || F", "template": "pass"},
                    {"name": "should-not-execute", "depends": "P && F", "template": "pass"},
                    {"name": "should-execute-3", "depends": "should-execute-2.Succeeded || should-not-execute",
                     "template": "pass"}]}},
                pod("pass"), pod("fail", "exit 1")]}},
        "expect": {"nodes": {"should-execute-1": "Succeeded", "should-execute-2": "Succeeded",
                             "should-not-execute": "Omitted"}},
    },
    {
        "name": "template failFast with parallelism",
        "source": "test/e2e/expectedfailures/parallelism-dag-fail-fast.yaml, asserted by test/e2e/functional_test.go "
                  "TestWorkflowParallelismDAGFailFast",
        "workflow": {"metadata": {"name": "parallelism-dag-fail-fast"}, "spec": {
            "entrypoint": "main", "templates": [
                {"name": "main", "parallelism": 2, "failFast": True, "dag": {"tasks": [
                    {"name": "task1", "template": "fail"}, {"name": "task2", "template": "sleep"}]}},
                pod("fail", "exit", "1"), pod("sleep", "sleep", "2")]}},
        "expect": {"phase": "Failed", "message": "template has failed or errored children and failFast enabled",
                   "nodes": {"task1": "Failed", "task2": "Succeeded"}},
    },
    {
        "name": "an omitted task's output without default",
        "source": "test/e2e/functional/dag-omitted-output-ref.yaml, asserted by test/e2e/functional_test.go "
                  "TestDAGOmittedOutputRef",
        "workflow": {"metadata": {"generateName": "dag-omitted-output-ref-"}, "spec": {
            "entrypoint": "main", "templates": [
                {"name": "main", "dag": {"tasks": [
                    {"name": "stage-a", "template": "stage-a"},
                    {"name": "stage-b", "template": "stage-b", "depends": "stage-a.Failed"},
                    {"name": "stage-c", "template": "stage-c", "depends": "stage-a && (stage-b || stage-b.Omitted)",
                     "arguments": {"parameters": [
                         {"name": "message-from-a", "value": "{{tasks.stage-a.outputs.parameters.output-message}}"},
                         {"name": "message-from-b",
                          "value": "{{tasks.stage-b.outputs.parameters.output-message}}"}]}}]}},
                pod("stage-a", "echo", "hello from stage A", "/tmp/output.txt",
                    outputs={"parameters": [{"name": "output-message", "valueFrom": {"path": "/tmp/output.txt"}}]}),
                pod("stage-b", "echo", "hello from stage B", "/tmp/output.txt",
                    outputs={"parameters": [{"name": "output-message", "valueFrom": {"path": "/tmp/output.txt"}}]}),
                pod("stage-c", "echo", "stage-c received: [{{inputs.parameters.message-from-a}}] and "
                    "[{{inputs.parameters.message-from-b}}]",
                    inputs={"parameters": [{"name": "message-from-a"}, {"name": "message-from-b"}]})]}},
        "expect": {"phase": "Error", "nodes": {"stage-a": "Succeeded", "stage-b": "Omitted", "stage-c": "Error"},
                   "node_message": {"stage-c": "absent optional"}},
    },
    {
        "name": "a skipped task's output without default",
        "source": "test/e2e/functional/dag-skipped-output-ref.yaml, asserted by test/e2e/functional_test.go "
                  "TestDAGSkippedOutputRef",
        "workflow": {"metadata": {"generateName": "dag-skipped-output-ref-"}, "spec": {
            "entrypoint": "main", "arguments": {"parameters": [{"name": "run-stage-b", "value": "false"}]},
            "templates": [
                {"name": "main", "inputs": {"parameters": [{"name": "run-stage-b"}]}, "dag": {"tasks": [
                    {"name": "stage-a", "template": "stage-a"},
                    {"name": "stage-b", "template": "stage-b",
                     "when": "\"{{inputs.parameters.run-stage-b}}\" == \"true\""},
                    {"name": "stage-c", "template": "stage-c", "depends": "stage-a && (stage-b || stage-b.Skipped)",
                     "arguments": {"parameters": [
                         {"name": "message-from-a", "value": "{{tasks.stage-a.outputs.parameters.output-message}}"},
                         {"name": "message-from-b",
                          "value": "{{tasks.stage-b.outputs.parameters.output-message}}"}]}}]}},
                pod("stage-a", "echo", "hello from stage A", "/tmp/output.txt",
                    outputs={"parameters": [{"name": "output-message", "valueFrom": {"path": "/tmp/output.txt"}}]}),
                pod("stage-b", "echo", "hello from stage B", "/tmp/output.txt",
                    outputs={"parameters": [{"name": "output-message", "valueFrom": {"path": "/tmp/output.txt"}}]}),
                pod("stage-c", "echo", "[{{inputs.parameters.message-from-a}}] [{{inputs.parameters.message-from-b}}]",
                    inputs={"parameters": [{"name": "message-from-a"}, {"name": "message-from-b"}]})]}},
        "expect": {"phase": "Error", "nodes": {"stage-a": "Succeeded", "stage-b": "Skipped", "stage-c": "Error"},
                   "node_message": {"stage-c": "absent optional"}},
    },
    {
        "name": "withParam from a skipped producer's valueFrom.default",
        "source": "test/e2e/functional/dag-skipped-withparam-default.yaml, asserted by test/e2e/functional_test.go "
                  "TestDAGSkippedWithParamProducerDefault",
        "workflow": {"metadata": {"generateName": "dag-skipped-withparam-default-"}, "spec": {
            "entrypoint": "main", "templates": [
                {"name": "main", "dag": {"tasks": [
                    {"name": "producer", "template": "produce", "when": "false"},
                    {"name": "consumer", "template": "consume", "depends": "producer.Succeeded || producer.Skipped",
                     "withParam": "{{tasks.producer.outputs.parameters.items}}",
                     "arguments": {"parameters": [{"name": "in", "value": "{{item}}"}]}}]}},
                pod("produce", "echo", '["real"]', "/tmp/out.txt", outputs={"parameters": [
                    {"name": "items", "valueFrom": {"path": "/tmp/out.txt", "default": '["a","b"]'}}]}),
                pod("consume", "echo", "consumer got: [{{inputs.parameters.in}}]",
                    inputs={"parameters": [{"name": "in"}]})]}},
        "expect": {"phase": "Succeeded", "nodes": {"producer": "Skipped", "consumer(0:a)": "Succeeded",
                                                    "consumer(1:b)": "Succeeded"}},
    },
    {
        "name": "withParam over an empty list",
        "source": "test/e2e/functional/dag-empty-param.yaml, asserted by test/e2e/functional_test.go TestDAGEmptyParam",
        "workflow": {"metadata": {"generateName": "dag-param-result-"}, "spec": {
            "entrypoint": "dag-param-result-example", "templates": [
                {"name": "dag-param-result-example", "dag": {"tasks": [
                    {"name": "generate", "template": "gen-number-list"},
                    {"name": "sleep", "template": "sleep-n-sec", "dependencies": ["generate"],
                     "withParam": "{{tasks.generate.outputs.result}}",
                     "arguments": {"parameters": [{"name": "seconds", "value": "{{item}}"}]}}]}},
                {"name": "gen-number-list", "script": {"image": ARGOSAY, "args": ["echo", "[]"]}},
                {"name": "sleep-n-sec", "inputs": {"parameters": [{"name": "seconds"}]},
                 "container": {"image": "argoproj/argosay:v1", "command": ["sh", "-c"],
                               "args": ["sleep {{inputs.parameters.seconds}}"]}}]}},
        "expect": {"phase": "Succeeded", "nodes": {"sleep": "Skipped"},
                   "node_message": {"sleep": "Skipped, empty params"}},
    },
    {
        "name": "withItems aggregation into a DAG output, under a workflow retryStrategy",
        "source": "test/e2e/functional/parameter-aggregation-dag-with-retry.yaml, asserted by test/e2e/functional_test.go "
                  "TestParameterAggregationDAGWithRetry",
        "workflow": {"metadata": {"name": "parameter-aggregation-dag-with-retry"}, "spec": {
            "retryStrategy": {"limit": 1}, "entrypoint": "fanout-dag-with-output", "templates": [
                pod("echo-value", inputs={"parameters": [{"name": "message"}]},
                    outputs={"parameters": [{"name": "dummy-output", "value": "{{inputs.parameters.message}}"}]}),
                {"name": "fanout-dag-with-output", "dag": {"tasks": [
                    {"name": "echo-list", "template": "echo-value", "withItems": [1, 2, 3],
                     "arguments": {"parameters": [{"name": "message", "value": "{{item}}"}]}}]},
                 "outputs": {"parameters": [{"name": "dummy-dag-output", "valueFrom": {
                     "parameter": "{{tasks.echo-list.outputs.parameters.dummy-output}}"}}]}}]}},
        "expect": {"phase": "Succeeded", "nodes": {"parameter-aggregation-dag-with-retry(0)": "Succeeded"},
                   "node_output": {"parameter-aggregation-dag-with-retry(0)": '["1","2","3"]'}},
    },
    {
        "name": "retry limit 0",
        "source": "test/e2e/retry_test.go TestRetryLimit (inline workflow)",
        "workflow": {"metadata": {"name": "test-retry-limit"}, "spec": {
            "entrypoint": "main", "templates": [
                {"name": "main", "retryStrategy": {"limit": 0, "backoff": {"duration": "2s", "factor": 2}},
                 "container": {"name": "main", "image": ARGOSAY, "args": ["exit", "1"]}}]}},
        "expect": {"phase": "Failed", "nodes": {"test-retry-limit": "Failed", "test-retry-limit(0)": "Failed"}},
    },
    {
        "name": "a daemon task does not keep the workflow running",
        "source": "test/e2e/daemon_pod_test.go TestWorkflowCompletesIfContainsDaemonPod (inline workflow)",
        "workflow": {"metadata": {"generateName": "whalesay-"}, "spec": {
            "entrypoint": "whalesay", "templates": [
                {"name": "whalesay", "dag": {"tasks": [
                    {"name": "redis", "template": "redis-tmpl"},
                    {"name": "whale", "dependencies": ["redis"], "template": "whale-tmpl"}]}},
                {"name": "redis-tmpl", "daemon": True, "container": {"image": ARGOSAY, "args": ["sleep", "100s"]}},
                pod("whale-tmpl")]}},
        "expect": {"completed": True},
    },
    {
        "name": "a failed exit handler fails a succeeded workflow",
        "source": "test/e2e/testdata/retry-workflow-with-failed-exit-handler.yaml, asserted by test/e2e/cli_test.go "
                  "TestRetryWorkflowWithFailedExitHandler (before its retry)",
        "workflow": {"metadata": {"name": "retry-workflow-with-failed-exit-handler"}, "spec": {
            "entrypoint": "hello", "onExit": "exit-handler", "templates": [
                pod("hello", "echo", "hello"), pod("exit-handler", "exit", "1")]}},
        "expect": {"phase": "Failed",
                   "nodes": {"retry-workflow-with-failed-exit-handler": "Succeeded", "onExit": "Failed"},
                   "node_message": {"onExit": "exit code 1"}, "node_count": 2},
    },
]


def check(case, result):
    problems = []
    expect = case["expect"]
    if "hung" in result:
        problems.append(result["hung"])
    if "phase" in expect and result["phase"] != expect["phase"]:
        problems.append(f"workflow phase {result['phase']}, Argo's test asserts {expect['phase']}")
    if expect.get("completed") and result["phase"] not in ("Succeeded", "Failed", "Error"):
        problems.append(f"workflow phase {result['phase']}: Argo's test waits for it to complete")
    if "message" in expect and expect["message"] not in result.get("message", ""):
        problems.append(f"workflow message {result.get('message')!r}, expected {expect['message']!r}")
    for name, phase in expect.get("nodes", {}).items():
        found = result["nodes"].get(name)
        if found != phase:
            problems.append(f"node {name}: {found}, Argo's test asserts {phase}")
    if "node_count" in expect and len(result["nodes"]) != expect["node_count"]:
        problems.append(f"{len(result['nodes'])} nodes, Argo's test asserts {expect['node_count']}")
    for name, text in expect.get("node_message", {}).items():
        if text not in result["messages"].get(name, ""):
            problems.append(f"node {name}: message {result['messages'].get(name)!r}, expected {text!r}")
    for name, value in expect.get("node_output", {}).items():
        found = list((result["node_outputs"].get(name) or {}).values())
        if found != [value]:
            problems.append(f"node {name}: outputs {found}, Argo's test asserts [{value!r}]")
    return problems


def main(log):
    from argo_controller import ArgoController

    failed = 0
    for case in CASES:
        doc = {"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow"} | case["workflow"]
        controller = ArgoController(yaml.safe_load(yaml.safe_dump(doc)), "flow", {}, {}, {}, log, deadline=60)
        result = controller.run()
        result["messages"] = {}
        result["node_outputs"] = {}
        for node in controller.nodes.values():
            result["messages"].setdefault(node.display, node.message)
            if node.outputs:
                result["node_outputs"].setdefault(node.display, node.outputs.get("parameters"))
        problems = check(case, result)
        status = "ok" if not problems else "FAILED"
        print(f"{status}: {case['name']} ({case['source']})")
        for problem in problems:
            print(f"    {problem}")
        if problems:
            print("    " + json.dumps({k: result[k] for k in ("phase", "nodes")}, sort_keys=True))
        failed += bool(problems)
    print(f"{len(CASES) - failed} of {len(CASES)} cases give Argo's phases")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.stderr))
