package io.fluxperf.cli;

import io.fluxperf.cli.k8s.JobManifests;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.engine.shard.RunId;
import io.fluxperf.engine.shard.Shard;
import io.fluxperf.trace.FileErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fluxperf k8s}: the manifests that run N agents as a Kubernetes Indexed Job. */
@Command(name = "k8s",
        header = "Prints the Kubernetes manifests of a sharded run.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Prints the Kubernetes manifests of a sharded run: a ConfigMap with the config, an Indexed Job",
                "of N agents (pod I runs 'fluxperf run --shard I/N' with 1/N of every rate, all starting at one",
                "wall-clock time), and for --results pvc:NAME a ReadWriteMany claim that collects their run",
                "directories. Apply them, wait, collect, then 'fluxperf merge' the run (docs/scale-out.md)."},
        footer = {"",
                "Examples:",
                "  fluxperf k8s --shards 8 --config load.toml --server cache.prod:11211 --image registry/fluxperf:0.1 \\",
                "      --results pvc:fluxperf-results | kubectl apply -f -",
                "  fluxperf k8s --shards 4 --config samples/default.toml --server 10.0.0.5:11211 --namespace perf \\",
                "      --start-in 2m > job.yaml        # results stay in the pods: job.yaml's head says how to copy them",
                "",
                "The Job fails as a whole when one agent fails (exit code not 0); it is not retried, since a",
                "retried agent would start after --start-at."})
public final class K8sCommand implements Callable<Integer>, Streams.Aware {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

    private Streams streams = Streams.system();

    @Option(names = "--shards", paramLabel = "N", required = true, description = "Agents (pods) of the run.")
    private int shards;

    @Option(names = "--config", paramLabel = "FILE", required = true, description = "The run's config (fluxperf's or rpc-perf's TOML).")
    private Path config;

    @Option(names = "--server", paramLabel = "HOST:PORT", required = true, description = "The target, as the pods reach it.")
    private String server;

    @Option(names = "--image", paramLabel = "IMAGE", description = "The fluxperf image (the repository's Dockerfile; default fluxperf:latest).")
    private String image = "fluxperf:latest";

    @Option(names = "--namespace", paramLabel = "NS", description = "The namespace (default: kubectl's current one).")
    private String namespace;

    @Option(names = "--results", paramLabel = "pvc:NAME|none",
            description = "pvc:NAME: every agent writes to the ReadWriteMany claim NAME (its manifest is printed too);"
                    + " none (default): the results stay in the pods, which wait an hour for 'kubectl cp'.")
    private String results = "none";

    @Option(names = "--start-in", paramLabel = "TIME", converter = DurationConverter.class,
            description = "How long after now the agents start their schedule (--start-at), time for the pods to be"
                    + " scheduled, pull the image and connect (default 30s).")
    private Duration startIn = Duration.ofSeconds(30);

    @Option(names = "--run-id", paramLabel = "ID", description = "The run's name (default: run-START-HASH from the start time and the config).")
    private String runId;

    @Option(names = "--cpu", paramLabel = "CORES", description = "Each agent's CPU request and limit (default 2).")
    private String cpu = "2";

    @Option(names = "--memory", paramLabel = "SIZE", description = "Each agent's memory request and limit (default 1Gi).")
    private String memory = "1Gi";

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        if (shards < 1 || shards > Shard.MAX_SHARDS) {
            throw new UserError("--shards: the shard count must be between 1 and " + Shard.MAX_SHARDS + ", not " + shards);
        }
        if (server.startsWith("unix:")) {
            throw new UserError("--server: the pods reach the target over the network; give HOST:PORT, not " + server);
        }
        // checked for its form only: the name is the cluster's (a Service), which this machine need not resolve
        java.util.regex.Matcher hostPort = Pattern.compile("(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9.-]+):([0-9]{1,5})").matcher(server);
        if (!hostPort.matches() || Integer.parseInt(hostPort.group(2)) < 1 || Integer.parseInt(hostPort.group(2)) > 65535) {
            throw new UserError("--server: expected HOST:PORT as the pods reach the target, such as cache.perf.svc:11211, not '"
                    + server + "'");
        }
        String pvc = null;
        if (results.startsWith("pvc:")) {
            pvc = results.substring("pvc:".length());
            if (!DNS_NAME.matcher(pvc).matches()) {
                throw new UserError("--results: '" + pvc + "' is not a claim name (lower-case letters, digits, '-' and '.')");
            }
        } else if (!results.equals("none")) {
            throw new UserError("--results: expected pvc:NAME or none, not '" + results + "'");
        }
        if (namespace != null && !DNS_LABEL.matcher(namespace).matches()) {
            throw new UserError("--namespace: '" + namespace + "' is not a namespace name (lower-case letters, digits and '-')");
        }
        if (startIn.isNegative() || startIn.isZero()) {
            throw new UserError("--start-in: must be above 0, not " + startIn.toMillis() + " ms");
        }
        if (!cpu.matches("[0-9]+(\\.[0-9]+)?m?")) {
            throw new UserError("--cpu: expected cores such as 2, 1.5 or 500m, not '" + cpu + "'");
        }
        if (!memory.matches("[0-9]+(Ki|Mi|Gi|Ti|k|M|G|T)?")) {
            throw new UserError("--memory: expected a size such as 1Gi or 512Mi, not '" + memory + "'");
        }
        Instant startAt = Instant.now().plus(startIn).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        // the pods' own check of the config, made here: a config that run refuses fails every pod
        checkAsTheAgentsRunIt(new JobManifests.JobSpec(shards, "", server, image, namespace, pvc, startAt,
                runId != null ? runId : "check", cpu, memory));
        String toml;
        try {
            toml = Files.readString(config, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("--config: cannot read " + config + ": " + FileErrors.describe(e), e);
        }
        String id = RunId.of(runId, startAt, RunDirectory.hash(toml));
        JobManifests manifests = new JobManifests(new JobManifests.JobSpec(shards, toml, server, image, namespace, pvc,
                startAt, id, cpu, memory));
        streams.out().print(manifests.yaml(comments(manifests, id, pvc, startAt)));
        streams.out().flush();
        return 0;
    }

    /**
     * The config checked exactly as each agent's {@code run} checks it: the agents' command line
     * (with this machine's path of the config file, and shard 0 of N for the pod's index) parsed by
     * {@code run}'s own flags and resolved by its own code, so that a syntax error, an unknown key
     * or a value run refuses is one sentence here, before any manifest is printed.
     */
    private void checkAsTheAgentsRunIt(JobManifests.JobSpec spec) {
        List<String> args = new ArrayList<>(JobManifests.agentArguments(spec, config.toString()));
        args.remove(0); // "run"
        args.addAll(List.of("--shard", "0/" + shards));
        RunCommand agent = new RunCommand();
        try {
            new picocli.CommandLine(agent).parseArgs(args.toArray(String[]::new));
        } catch (picocli.CommandLine.ParameterException e) {
            throw new UserError("the agents' command line would be refused: " + e.getMessage(), e);
        }
        agent.config(note -> streams.err().println("fluxperf: note: " + note));
    }

    /** How to apply, watch and collect this run, as comment lines at the head of the YAML. */
    private List<String> comments(JobManifests m, String id, String pvc, Instant startAt) {
        String ns = namespace == null ? "" : " -n " + namespace;
        String job = m.jobName();
        List<String> c = new ArrayList<>();
        c.add("fluxperf run " + id + ": " + shards + " agents start at " + startAt + " against " + server);
        c.add("apply:   kubectl apply" + ns + " -f THIS_FILE");
        c.add("watch:   kubectl" + ns + " get pods -l job-name=" + job + " -w");
        if (pvc != null) {
            c.add("wait:    kubectl" + ns + " wait --for=condition=complete --timeout=1h job/" + job);
            c.add("collect: the run directories are on claim " + pvc + " under " + id + "/shard-0 .. shard-" + (shards - 1)
                    + "; mount it, or copy them out with a pod that mounts it");
        } else {
            c.add("collect: each pod keeps its run directory for an hour after its run; once its log says 'results ready':");
            for (int i = 0; i < shards; i++) {
                c.add("  kubectl" + ns + " cp \"$(kubectl" + ns + " get pods -l job-name=" + job
                        + ",batch.kubernetes.io/job-completion-index=" + i + " -o jsonpath='{.items[0].metadata.name}')\":"
                        + m.shardPath(i) + " results/" + id + "/shard-" + i);
            }
        }
        c.add("merge:   fluxperf merge results/" + id + " && fluxperf report results/" + id + "/merged");
        return c;
    }
}
