package io.fluxperf.cli.k8s;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fluxperf.engine.shard.RunId;
import io.fluxperf.engine.shard.Shard;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifests of a sharded run on Kubernetes: a ConfigMap with the config file, an Indexed Job of
 * N pods (pod i is shard i: Kubernetes sets {@code JOB_COMPLETION_INDEX}), and, for results on a
 * shared volume, its ReadWriteMany claim.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>A failed shard fails the Job and is not run again ({@code backoffLimit: 0} and a pod failure
 *       policy that fails the Job on a non-zero exit): a rerun would start after {@code --start-at}
 *       and send its share late, so the merge would refuse or misstate it.</li>
 *   <li>The pods run as a non-root user on a read-only root file system; what they write goes to
 *       {@code /results} and {@code /tmp}, volumes of their own.</li>
 *   <li>Requests equal limits (Guaranteed QoS): a load generator that is throttled reports the
 *       throttling as the server's latency.</li>
 * </ul>
 */
public final class JobManifests {
    /** Where the config file is mounted in the pods. */
    public static final String CONFIG_DIR = "/etc/fluxperf";
    public static final String CONFIG_FILE = "config.toml";
    /** Where the pods write their run directories. */
    public static final String RESULTS_DIR = "/results";
    /** The container's name, which the pod failure policy names. */
    public static final String CONTAINER = "fluxperf";
    /** The user the image runs as (docker/ and the Dockerfile make it). */
    public static final long USER_ID = 10001;
    /** How long a pod that keeps its results waits for {@code kubectl cp} before it ends. */
    public static final long HOLD_SECONDS = 3600;

    /** Every string quoted: unquoted, YAML would read "3" as a number and a time as a timestamp, which Kubernetes refuses. */
    private final ObjectMapper yaml = new ObjectMapper(YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build());
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;
    private final JobSpec spec;

    /**
     * What the manifests are made of.
     *
     * @param namespace  null: the namespace kubectl's context names
     * @param resultsPvc the ReadWriteMany claim the results go to, or null: they stay in the pods
     * @param startAt    when the agents' schedule starts
     */
    public record JobSpec(int shards, String config, String server, String image, String namespace, String resultsPvc,
                          Instant startAt, String runId, String cpu, String memory) {
    }

    public JobManifests(JobSpec spec) {
        this.spec = spec;
    }

    /** The Job's name: fluxperf- and the run id, as a DNS label. */
    public String jobName() {
        String name = ("fluxperf-" + spec.runId()).toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        name = name.length() > 52 ? name.substring(0, 52) : name; // room for the pods' "-INDEX-xxxxx"
        return name.replaceAll("-+$", "");
    }

    /** The manifests in apply order. */
    public List<ObjectNode> objects() {
        List<ObjectNode> out = new ArrayList<>();
        out.add(configMap());
        if (spec.resultsPvc() != null) {
            out.add(claim());
        }
        out.add(job());
        return out;
    }

    /** The manifests as one YAML stream, after comment lines that say how to collect the results. */
    public String yaml(List<String> comments) {
        StringWriter w = new StringWriter();
        for (String c : comments) {
            w.append("# ").append(c).append('\n');
        }
        try (SequenceWriter seq = yaml.writer().writeValues(w)) {
            for (ObjectNode o : objects()) {
                seq.write(o);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private ObjectNode object(String apiVersion, String kind, String name) {
        ObjectNode o = nodes.objectNode();
        o.put("apiVersion", apiVersion);
        o.put("kind", kind);
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name);
        if (spec.namespace() != null) {
            meta.put("namespace", spec.namespace());
        }
        ObjectNode labels = meta.putObject("labels");
        labels.put("app.kubernetes.io/name", "fluxperf");
        labels.put("fluxperf.io/run-id", spec.runId());
        return o;
    }

    ObjectNode configMap() {
        ObjectNode cm = object("v1", "ConfigMap", jobName() + "-config");
        cm.putObject("data").put(CONFIG_FILE, spec.config());
        return cm;
    }

    ObjectNode claim() {
        ObjectNode pvc = object("v1", "PersistentVolumeClaim", spec.resultsPvc());
        ObjectNode s = pvc.putObject("spec");
        s.putArray("accessModes").add("ReadWriteMany");
        s.putObject("resources").putObject("requests").put("storage", "10Gi");
        return pvc;
    }

    ObjectNode job() {
        ObjectNode job = object("batch/v1", "Job", jobName());
        ObjectNode s = job.putObject("spec");
        s.put("completionMode", "Indexed");
        s.put("completions", spec.shards());
        s.put("parallelism", spec.shards());
        s.put("backoffLimit", 0);
        // a shard that fails fails the run: a second try would start late, after --start-at
        ObjectNode rule = s.putObject("podFailurePolicy").putArray("rules").addObject();
        rule.put("action", "FailJob");
        ObjectNode exit = rule.putObject("onExitCodes");
        exit.put("containerName", CONTAINER);
        exit.put("operator", "NotIn");
        exit.putArray("values").add(0);
        ObjectNode template = s.putObject("template");
        ObjectNode labels = template.putObject("metadata").putObject("labels");
        labels.put("app.kubernetes.io/name", "fluxperf");
        labels.put("fluxperf.io/run-id", spec.runId());
        ObjectNode pod = template.putObject("spec");
        pod.put("restartPolicy", "Never");
        ObjectNode podSecurity = pod.putObject("securityContext");
        podSecurity.put("runAsNonRoot", true);
        podSecurity.put("runAsUser", USER_ID);
        podSecurity.put("runAsGroup", USER_ID);
        podSecurity.put("fsGroup", USER_ID);
        podSecurity.putObject("seccompProfile").put("type", "RuntimeDefault");
        pod.set("affinity", spread());
        pod.putArray("containers").add(container());
        ArrayNode volumes = pod.putArray("volumes");
        ObjectNode config = volumes.addObject();
        config.put("name", "config");
        config.putObject("configMap").put("name", jobName() + "-config");
        ObjectNode results = volumes.addObject();
        results.put("name", "results");
        if (spec.resultsPvc() != null) {
            results.putObject("persistentVolumeClaim").put("claimName", spec.resultsPvc());
        } else {
            results.putObject("emptyDir");
        }
        ObjectNode tmp = volumes.addObject();
        tmp.put("name", "tmp");
        tmp.putObject("emptyDir");
        return job;
    }

    /** Agents on different nodes where there are enough: two agents on one node share its NIC and cores. */
    private ObjectNode spread() {
        ObjectNode affinity = nodes.objectNode();
        ObjectNode term = affinity.putObject("podAntiAffinity")
                .putArray("preferredDuringSchedulingIgnoredDuringExecution").addObject();
        term.put("weight", 100);
        ObjectNode podTerm = term.putObject("podAffinityTerm");
        podTerm.put("topologyKey", "kubernetes.io/hostname");
        podTerm.putObject("labelSelector").putObject("matchLabels").put("fluxperf.io/run-id", spec.runId());
        return affinity;
    }

    private ObjectNode container() {
        ObjectNode c = nodes.objectNode();
        c.put("name", CONTAINER);
        c.put("image", spec.image());
        c.put("imagePullPolicy", "IfNotPresent");
        ArrayNode args = c.putArray("args");
        agentArguments(spec, CONFIG_DIR + "/" + CONFIG_FILE).forEach(args::add);
        ArrayNode env = c.putArray("env");
        env(env, Shard.COUNT_ENV, Integer.toString(spec.shards()));
        // Kubernetes sets it in an Indexed Job's pods; named here too, from the pod's own annotation
        ObjectNode index = env.addObject();
        index.put("name", Shard.INDEX_ENV);
        index.putObject("valueFrom").putObject("fieldRef")
                .put("fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']");
        env(env, "FLUXPERF_RESULTS", RESULTS_DIR);
        env(env, "FLUXPERF_HOLD_SECONDS", spec.resultsPvc() == null ? Long.toString(HOLD_SECONDS) : "0");
        ObjectNode resources = c.putObject("resources");
        for (String kind : List.of("requests", "limits")) {
            ObjectNode r = resources.putObject(kind);
            r.put("cpu", spec.cpu());
            r.put("memory", spec.memory());
        }
        ObjectNode security = c.putObject("securityContext");
        security.put("readOnlyRootFilesystem", true);
        security.put("allowPrivilegeEscalation", false);
        security.put("runAsNonRoot", true);
        security.putObject("capabilities").putArray("drop").add("ALL");
        ArrayNode mounts = c.putArray("volumeMounts");
        mount(mounts, "config", CONFIG_DIR, true);
        mount(mounts, "results", RESULTS_DIR, false);
        mount(mounts, "tmp", "/tmp", false);
        return c;
    }

    /**
     * The command line of every agent: {@code run} with the config at {@code config} (in the pod,
     * the ConfigMap's file), the server, the shared start time and run id. Its shard comes from the
     * pod's environment.
     */
    public static List<String> agentArguments(JobSpec spec, String config) {
        return List.of("run", "--config", config, "--server", spec.server(), "--start-at", spec.startAt().toString(),
                "--run-id", spec.runId(), "--out", RESULTS_DIR, "--no-live");
    }

    private static void env(ArrayNode env, String name, String value) {
        ObjectNode e = env.addObject();
        e.put("name", name);
        e.put("value", value);
    }

    private static void mount(ArrayNode mounts, String name, String path, boolean readOnly) {
        ObjectNode m = mounts.addObject();
        m.put("name", name);
        m.put("mountPath", path);
        if (readOnly) {
            m.put("readOnly", true);
        }
    }

    /** The shard directory of agent {@code index} under /results. */
    public String shardPath(int index) {
        return RESULTS_DIR + "/" + spec.runId() + "/" + RunId.shardDirectory(index);
    }
}
