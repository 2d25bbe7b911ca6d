/**
 * {@code fluxperf k8s}: the Kubernetes manifests of a sharded run (a ConfigMap, an Indexed Job and
 * optionally a ReadWriteMany claim for the results), written as YAML trees without a Kubernetes
 * client library; the tests read them back into fabric8's typed model.
 */
package io.fluxperf.cli.k8s;
