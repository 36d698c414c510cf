module example.com/minicluster-hello-world

go 1.25

// The module that `npm run package` writes (build/packages/go/cdk8sminicluster), until it is
// published. `go mod tidy` then adds the requirements: cdk8s-core-go, constructs-go, jsii-runtime-go.
replace github.com/cdk8s-minicluster/cdk8s-minicluster-go/cdk8sminicluster => ../../build/packages/go/cdk8sminicluster
