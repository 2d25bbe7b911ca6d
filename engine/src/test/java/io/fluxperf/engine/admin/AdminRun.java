package io.fluxperf.engine.admin;

import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.RunSettings;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.RunReport;
import io.fluxperf.engine.workload.RateControl;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A run with an admin endpoint that the test owns (so it can still be read after the run), going
 * on a thread of its own, with what its report was told kept for the test.
 */
final class AdminRun implements AutoCloseable {
    final AdminEndpoint endpoint;
    final RunOrchestrator orchestrator;
    final CompletableFuture<RunResult> result = new CompletableFuture<>();
    /** The statistics blocks (--stats-interval), each with the System.nanoTime() it was told at. */
    final List<Timed<IntervalSample>> stats = new CopyOnWriteArrayList<>();
    final List<WindowResult> windows = new CopyOnWriteArrayList<>();
    final List<RateControl.Change> rateChanges = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    record Timed<T>(long nanos, T value) {
    }

    record Reply(int status, String body) {
    }

    /** Starts the run of {@code settings} (an admin address is set on a free loopback port). */
    static AdminRun start(Consumer<RunSettings> settings) {
        RunSettings s = new RunSettings();
        s.admin = "0";
        settings.accept(s);
        RunConfig config = ConfigResolver.resolve(s.toFlags());
        return new AdminRun(config);
    }

    private AdminRun(RunConfig config) {
        endpoint = AdminEndpoint.start(config.admin(), "--admin");
        orchestrator = new RunOrchestrator(config, new RunReport() {
            @Override
            public void stats(IntervalSample sample) {
                stats.add(new Timed<>(System.nanoTime(), sample));
            }

            @Override
            public void window(WindowResult window) {
                windows.add(window);
            }

            @Override
            public void rateChanged(RateControl.Change change, String workloadName) {
                rateChanges.add(change);
            }
        }).admin(endpoint);
        Thread t = new Thread(() -> {
            try {
                result.complete(orchestrator.execute());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "admin-test-run");
        t.setDaemon(true);
        t.start();
    }

    RunResult awaitResult(long seconds) throws Exception {
        return result.get(seconds, TimeUnit.SECONDS);
    }

    /** Waits until the measured windows run (the endpoint says so). */
    void awaitMeasuring(long seconds) throws Exception {
        try {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(20))
                    .until(() -> result.isDone() || measuring());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the run did not begin measuring within " + seconds + " s");
        }
        if (!measuring()) {
            result.get();
            throw new AssertionError("the run ended before measuring");
        }
    }

    private boolean measuring() {
        LiveFigures f = endpoint.figures();
        return f != null && f.snapshot().phase().equals("measuring");
    }

    Reply call(String method, String path) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(endpoint.url() + path.substring(1)))
                .timeout(Duration.ofSeconds(5)).method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body());
    }

    String get(String path) throws IOException, InterruptedException {
        Reply r = call("GET", path);
        if (r.status() != 200) {
            throw new AssertionError("GET " + path + ": " + r);
        }
        return r.body();
    }

    @Override
    public void close() throws Exception {
        orchestrator.requestStop();
        try {
            result.get(30, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // the test has failed already, or the run did; the endpoint closes either way
        }
        endpoint.close();
    }
}
