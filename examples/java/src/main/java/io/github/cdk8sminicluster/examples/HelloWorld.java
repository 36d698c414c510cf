package io.github.cdk8sminicluster.examples;

import io.github.cdk8sminicluster.LoggingOptions;
import io.github.cdk8sminicluster.MiniCluster;
import io.github.cdk8sminicluster.MiniClusterContainer;
import java.util.List;
import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;

/**
 * Hello world in Java: the same chart as examples/hello-world.ts, so the same YAML byte for byte.
 *
 * <p>Four brokers; the lead runs {@code echo hello world} once all are up, then the Job completes.
 * Writes dist/hello-world.k8s.yaml (or into $CDK8S_OUTDIR); see docs/languages.md, "Hello world in Python, Go and Java".
 */
public final class HelloWorld {
    public static void main(final String[] args) {
        App app = new App();
        Chart chart = new Chart(app, "hello-world", ChartProps.builder().namespace("default").build());
        MiniCluster.Builder.create(chart, "flux-sample")
                .size(4)
                .logging(LoggingOptions.builder().quiet(true).build())
                .containers(List.of(MiniClusterContainer.builder()
                        .image("ubuntu:noble")
                        .command("echo hello world")
                        .build()))
                .build();
        app.synth();
    }
}
