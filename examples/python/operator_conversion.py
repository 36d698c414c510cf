"""A Flux Operator MiniCluster (flux-framework.org/v1alpha2) from a dict, converted in Python.

`OperatorConverter.convert` returns the problems and warnings instead of raising: here one
warning (spec.flux.minimalService changes nothing: the headless Service always publishes every
broker). A resource with problems lists each one with its field path. The cluster itself is the
hello world one, so the YAML is byte-identical to dist/hello-world.k8s.yaml.
"""
import sys

from cdk8s import App, Chart
from cdk8s_minicluster import OperatorConverter

resource = {
    "apiVersion": "flux-framework.org/v1alpha2",
    "kind": "MiniCluster",
    "metadata": {"name": "flux-sample"},
    "spec": {
        "size": 4,
        "logging": {"quiet": True},
        "flux": {"minimalService": True},
        "containers": [{"image": "ubuntu:noble", "command": "echo hello world"}],
    },
}

conversion = OperatorConverter.convert(resource)
for line in OperatorConverter.problem_lines(conversion.warnings):
    print("warning:", line)
if conversion.problems:
    sys.exit(OperatorConverter.format_problems("flux-sample", conversion.problems))
print("converted:", conversion.converted.name, "size", conversion.converted.props.size)

# The same conversion on a broken resource: every problem, each with its path, and no exception.
broken = {**resource, "spec": {**resource["spec"], "size": 0, "tasks": "many"}}
for problem in OperatorConverter.convert(broken).problems:
    print("problem:", ".".join(str(s) for s in problem.segments), "-", problem.rule)

app = App()
chart = Chart(app, "hello-world", namespace="default")
OperatorConverter.to_mini_cluster(chart, "flux-sample", resource)
app.synth()
