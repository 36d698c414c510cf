// Hello world in Go: the same chart as examples/hello-world.ts, so the same YAML byte for byte.
//
// Four brokers; the lead runs `echo hello world` once all are up, then the Job completes.
// `go run .` writes dist/hello-world.k8s.yaml (or into $CDK8S_OUTDIR); see docs/languages.md, "Hello world in Python, Go and Java".
package main

import (
	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-minicluster/cdk8s-minicluster-go/cdk8sminicluster"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

func main() {
	app := cdk8s.NewApp(nil)
	chart := cdk8s.NewChart(app, jsii.String("hello-world"), &cdk8s.ChartProps{Namespace: jsii.String("default")})
	cdk8sminicluster.NewMiniCluster(chart, jsii.String("flux-sample"), &cdk8sminicluster.MiniClusterProps{
		Size:    jsii.Number(4),
		Logging: &cdk8sminicluster.LoggingOptions{Quiet: jsii.Bool(true)},
		Containers: &[]*cdk8sminicluster.MiniClusterContainer{
			{Image: jsii.String("ubuntu:noble"), Command: jsii.String("echo hello world")},
		},
	})
	app.Synth()
}
