package io.fluxperf.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** Test helpers for a fluxperf child JVM run with {@code --admin}: waits for its endpoint and its measured windows. */
final class AdminChild {
    /** The line fluxperf prints when its endpoint listens: group 1 the URL, group 2 the port. */
    static final Pattern URL = Pattern.compile("admin endpoint on (http://127\\.0\\.0\\.1:([0-9]+)/)");

    private AdminChild() {
    }

    /** Waits until {@code out} (the child's output) names the endpoint; fails at once if the child ended first. */
    static Matcher awaitEndpoint(Process p, Path out) throws Exception {
        AtomicReference<Matcher> found = new AtomicReference<>();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
                Matcher m = URL.matcher(Files.exists(out) ? Files.readString(out) : "");
                if (m.find()) {
                    found.set(m);
                }
                return found.get() != null || !p.isAlive();
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no admin endpoint address within 60 s:\n" + Files.readString(out));
        }
        if (found.get() == null) {
            throw new AssertionError("fluxperf ended before its admin endpoint listened:\n" + Files.readString(out));
        }
        return found.get();
    }

    /** Waits until the endpoint's /metrics.json ({@code metricsJson}: its body, or null when not 200) says "measuring". */
    static void awaitMeasuring(Callable<String> metricsJson) {
        ObjectMapper json = new ObjectMapper();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
                String body = metricsJson.call();
                return body != null && json.readTree(body).get("phase").asText().equals("measuring");
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the run did not begin measuring within 60 s");
        }
    }
}
