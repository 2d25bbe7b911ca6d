package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code fluxperf k8s}'s manifests read back into the Kubernetes model (fabric8), checked field by
 * field, and created on fabric8's mock API server, which keeps what it is given (CRUD mode).
 */
@EnableKubernetesMockClient(crud = true)
class K8sCommandTest {
    static KubernetesClient client;
    static KubernetesMockServer server;

    private static List<HasMetadata> manifests(String... args) {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.out() + run.err());
        return client.load(new ByteArrayInputStream(run.out().getBytes(StandardCharsets.UTF_8))).items();
    }

    private static <T> T only(List<HasMetadata> objects, Class<T> type) {
        List<T> of = objects.stream().filter(type::isInstance).map(type::cast).toList();
        assertEquals(1, of.size(), type.getSimpleName() + " in " + objects);
        return of.get(0);
    }

    @Test
    void anIndexedJobOfFourAgentsWithResultsOnASharedClaim() throws Exception {
        Instant before = Instant.now();
        List<HasMetadata> objects = manifests("k8s", "--shards", "4", "--config", "../samples/default.toml",
                "--server", "cache.perf.svc:11211", "--image", "registry.example/fluxperf:0.1", "--namespace", "perf",
                "--results", "pvc:fluxperf-results", "--start-in", "45s");
        assertEquals(List.of("ConfigMap", "PersistentVolumeClaim", "Job"), objects.stream().map(HasMetadata::getKind).toList());
        objects.forEach(o -> assertEquals("perf", o.getMetadata().getNamespace(), o.getKind()));

        ConfigMap config = only(objects, ConfigMap.class);
        assertEquals(Files.readString(Path.of("../samples/default.toml")), config.getData().get("config.toml"),
                "the config file as it is");

        PersistentVolumeClaim claim = only(objects, PersistentVolumeClaim.class);
        assertEquals("fluxperf-results", claim.getMetadata().getName());
        assertEquals(List.of("ReadWriteMany"), claim.getSpec().getAccessModes());

        Job job = only(objects, Job.class);
        assertEquals("Indexed", job.getSpec().getCompletionMode());
        assertEquals(4, job.getSpec().getCompletions());
        assertEquals(4, job.getSpec().getParallelism());
        assertEquals(0, job.getSpec().getBackoffLimit());
        PodFailurePolicyRule rule = job.getSpec().getPodFailurePolicy().getRules().get(0);
        assertEquals("FailJob", rule.getAction());
        assertEquals("fluxperf", rule.getOnExitCodes().getContainerName());
        assertEquals("NotIn", rule.getOnExitCodes().getOperator());
        assertEquals(List.of(0), rule.getOnExitCodes().getValues());

        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertEquals("Never", pod.getRestartPolicy());
        assertTrue(pod.getSecurityContext().getRunAsNonRoot());
        assertEquals(10001L, pod.getSecurityContext().getRunAsUser());
        assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
        var spread = pod.getAffinity().getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution().get(0);
        assertEquals("kubernetes.io/hostname", spread.getPodAffinityTerm().getTopologyKey());
        assertEquals(job.getSpec().getTemplate().getMetadata().getLabels().get("fluxperf.io/run-id"),
                spread.getPodAffinityTerm().getLabelSelector().getMatchLabels().get("fluxperf.io/run-id"));

        Container c = pod.getContainers().get(0);
        assertEquals("fluxperf", c.getName());
        assertEquals("registry.example/fluxperf:0.1", c.getImage());
        List<String> args = c.getArgs();
        assertEquals(List.of("run", "--config", "/etc/fluxperf/config.toml", "--server", "cache.perf.svc:11211"), args.subList(0, 5));
        Instant startAt = Instant.parse(args.get(args.indexOf("--start-at") + 1));
        assertTrue(!startAt.isBefore(before.plusSeconds(45)) && startAt.isBefore(Instant.now().plusSeconds(47)), startAt.toString());
        String runId = args.get(args.indexOf("--run-id") + 1);
        assertTrue(runId.startsWith("run-") && job.getMetadata().getName().equals("fluxperf-" + runId.toLowerCase()), runId);
        assertEquals("/results", args.get(args.indexOf("--out") + 1));
        Map<String, EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
        assertEquals("4", env.get("FLUXPERF_SHARDS").getValue());
        assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']",
                env.get("JOB_COMPLETION_INDEX").getValueFrom().getFieldRef().getFieldPath());
        assertEquals("0", env.get("FLUXPERF_HOLD_SECONDS").getValue(), "results on the claim: nothing to wait for");
        assertEquals(new Quantity("2"), c.getResources().getRequests().get("cpu"));
        assertEquals(c.getResources().getRequests(), c.getResources().getLimits(), "Guaranteed: requests equal limits");
        assertTrue(c.getSecurityContext().getReadOnlyRootFilesystem());
        assertFalse(c.getSecurityContext().getAllowPrivilegeEscalation());
        assertEquals(List.of("ALL"), c.getSecurityContext().getCapabilities().getDrop());
        Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
        assertEquals(config.getMetadata().getName(), volumes.get("config").getConfigMap().getName());
        assertEquals("fluxperf-results", volumes.get("results").getPersistentVolumeClaim().getClaimName());
        assertNotNull(volumes.get("tmp").getEmptyDir(), "a writable /tmp on a read-only root");
        Map<String, String> mounts = c.getVolumeMounts().stream()
                .collect(Collectors.toMap(m -> m.getName(), m -> m.getMountPath()));
        assertEquals(Map.of("config", "/etc/fluxperf", "results", "/results", "tmp", "/tmp"), mounts);

        // the API server takes them as they are, and gives them back
        for (HasMetadata o : objects) {
            client.resource(o).inNamespace("perf").create();
        }
        Job stored = client.batch().v1().jobs().inNamespace("perf").withName(job.getMetadata().getName()).get();
        assertEquals("Indexed", stored.getSpec().getCompletionMode());
        assertEquals(4, stored.getSpec().getParallelism());
        assertEquals(args, stored.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs());
        assertNotNull(client.configMaps().inNamespace("perf").withName(config.getMetadata().getName()).get());
        assertNotNull(client.persistentVolumeClaims().inNamespace("perf").withName("fluxperf-results").get());
    }

    @Test
    void resultsLeftInThePodsComeWithTheirCopyCommands() {
        CliRun run = CliRun.of("k8s", "--shards", "2", "--config", "../samples/default.toml", "--server", "10.0.0.5:11211");
        assertEquals(0, run.exitCode(), run.err());
        List<HasMetadata> objects = client.load(new ByteArrayInputStream(run.out().getBytes(StandardCharsets.UTF_8))).items();
        assertEquals(List.of("ConfigMap", "Job"), objects.stream().map(HasMetadata::getKind).toList());
        assertNull(objects.get(0).getMetadata().getNamespace(), "kubectl's namespace");
        Job job = (Job) objects.get(1);
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertNotNull(pod.getVolumes().stream().filter(v -> v.getName().equals("results")).findFirst().orElseThrow().getEmptyDir());
        assertEquals("3600", pod.getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("FLUXPERF_HOLD_SECONDS")).findFirst().orElseThrow().getValue());
        String runId = pod.getContainers().get(0).getArgs().get(pod.getContainers().get(0).getArgs().indexOf("--run-id") + 1);
        for (int i = 0; i < 2; i++) {
            String copy = "#   kubectl cp \"$(kubectl get pods -l job-name=" + job.getMetadata().getName()
                    + ",batch.kubernetes.io/job-completion-index=" + i + " -o jsonpath='{.items[0].metadata.name}')\":/results/"
                    + runId + "/shard-" + i + " results/" + runId + "/shard-" + i;
            assertTrue(run.out().lines().anyMatch(copy::equals), copy + "\nin:\n" + run.out());
        }
        assertTrue(run.out().contains("# merge:   fluxperf merge results/" + runId), run.out());
        client.resource(job).inNamespace("default").create();
        assertEquals(2, client.batch().v1().jobs().inNamespace("default").withName(job.getMetadata().getName()).get()
                .getSpec().getCompletions());
    }

    @Test
    void badValuesAreOneSentenceAndExitTwo() {
        String[] base = {"k8s", "--shards", "2", "--config", "../samples/default.toml", "--server", "10.0.0.5:11211"};
        assertBad("fluxperf: --results: expected pvc:NAME or none, not 'disk'", base, "--results", "disk");
        assertBad("fluxperf: --results: 'Big_Claim' is not a claim name (lower-case letters, digits, '-' and '.')",
                base, "--results", "pvc:Big_Claim");
        assertBad("fluxperf: --namespace: 'Perf' is not a namespace name (lower-case letters, digits and '-')",
                base, "--namespace", "Perf");
        assertBad("fluxperf: --shards: the shard count must be between 1 and 10000, not 0",
                new String[] {"k8s", "--shards", "0", "--config", "../samples/default.toml", "--server", "h:1"});
        assertBad("fluxperf: --server: the pods reach the target over the network; give HOST:PORT, not unix:/tmp/m.sock",
                new String[] {"k8s", "--shards", "2", "--config", "../samples/default.toml", "--server", "unix:/tmp/m.sock"});
        assertBad("fluxperf: --server: expected HOST:PORT as the pods reach the target, such as cache.perf.svc:11211,"
                + " not 'cache:99999'", new String[] {"k8s", "--shards", "2", "--config", "../samples/default.toml",
                "--server", "cache:99999"});
        CliRun missing = CliRun.of("k8s", "--shards", "2", "--config", "no-such.toml", "--server", "h:1");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().startsWith("fluxperf: --config: no-such.toml"), missing.err()); // as run says it
    }

    private static void assertBad(String message, String[] base, String... more) {
        String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(more))
                .toArray(String[]::new);
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals(message, run.err().strip());
    }
}
