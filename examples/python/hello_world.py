"""Hello world in Python: the same chart as examples/hello-world.ts, so the same YAML byte for byte.

Four brokers; the lead runs `echo hello world` once all are up, then the Job completes.
Run it with the wheel installed (see docs/languages.md, "Hello world in Python, Go and Java"); it writes dist/hello-world.k8s.yaml
(or into $CDK8S_OUTDIR).
"""
from cdk8s import App, Chart
from cdk8s_minicluster import LoggingOptions, MiniCluster, MiniClusterContainer

app = App()
chart = Chart(app, "hello-world", namespace="default")
MiniCluster(
    chart,
    "flux-sample",
    size=4,
    logging=LoggingOptions(quiet=True),
    containers=[MiniClusterContainer(image="ubuntu:noble", command="echo hello world")],
)
app.synth()
