package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damaged files and impossible outputs (issue 46, items 2, 5, 6, 7, 9, 10): a corrupt run
 * directory, one run merged with itself, a config k8s would ship although run refuses it, a trace
 * cut short, random or empty, an output that is a directory or cannot be written, a heatmap too
 * large to draw. Each is one sentence that names the file and the field (or the flag), exit code 2,
 * no stack trace and no Java class name, in every command that reads it.
 */
class BadInputFilesTest {
    @TempDir
    static Path dir;

    private static Path run;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One real run directory with its trace, the original of every damaged copy below. */
    @BeforeAll
    static void aRunDirectory() {
        run = dir.resolve("run");
        CliRun r = CliRun.of("run", "--rate", "1000", "-c", "2", "-d", "1", "-w", "2", "--out", run.toString(),
                "--trace", "", "--stats-interval", "1s", "--no-live");
        assertEquals(0, r.exitCode(), r.out() + r.err());
    }

    private static Path copy(String name) throws IOException {
        Path to = dir.resolve(name);
        try (Stream<Path> files = Files.walk(run)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(run.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }

    /** A copy of the run whose result.json {@code change} edited. */
    private static Path result(String name, Consumer<ObjectNode> change) throws IOException {
        Path d = copy(name);
        ObjectNode root = (ObjectNode) JSON.readTree(d.resolve("result.json").toFile());
        change.accept(root);
        JSON.writerWithDefaultPrettyPrinter().writeValue(d.resolve("result.json").toFile(), root);
        return d;
    }

    /** A copy of the run's trace with its record file cut to {@code bytes}, or replaced by {@code content}. */
    private static Path trace(String name, long bytes, byte[] content) throws IOException {
        Path d = copy(name).resolve("trace");
        Path cq4;
        try (Stream<Path> s = Files.list(d)) {
            cq4 = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        if (content != null) {
            Files.write(cq4, content);
        } else {
            try (FileChannel ch = FileChannel.open(cq4, StandardOpenOption.WRITE)) {
                ch.truncate(bytes);
            }
        }
        return d;
    }

    static Stream<Arguments> damagedFiles() throws IOException {
        Path nullTotal = result("null-total", r -> r.putNull("total"));
        Path okMany = result("ok-many", r -> ((ObjectNode) r.get("total")).put("ok", "many"));
        Path negative = result("negative", r -> ((ObjectNode) r.get("total")).put("requests", -5));
        Path badBlock = result("bad-block", r -> ((ObjectNode) r.get("intervals").get(0)).put("sent", "lots"));
        Path garbageLog = copy("garbage-log");
        byte[] noise = new byte[4000];
        new Random(46).nextBytes(noise);
        Files.write(garbageLog.resolve("windows.hlog"), noise);
        Path cutLog = copy("cut-log");
        String log = Files.readString(cutLog.resolve("windows.hlog"));
        Files.writeString(cutLog.resolve("windows.hlog"), log.substring(0, log.length() * 2 / 3));

        Path badSeconds = copy("bad-seconds");
        String seconds = Files.readString(badSeconds.resolve("seconds.hlog"));
        Files.writeString(badSeconds.resolve("seconds.hlog"), seconds.substring(0, seconds.length() / 2) + "\nno interval\n");

        Path cutSeconds = copy("cut-seconds"); // truncate -s N seconds.hlog, N inside the first interval's histogram
        List<String> lines = Files.readAllLines(cutSeconds.resolve("seconds.hlog"));
        int header = lines.subList(0, 5).stream().mapToInt(l -> l.length() + 1).sum();
        try (FileChannel ch = FileChannel.open(cutSeconds.resolve("seconds.hlog"), StandardOpenOption.WRITE)) {
            ch.truncate(header + lines.get(5).length() / 2);
        }
        Path emptySeconds = copy("empty-seconds");
        Files.write(emptySeconds.resolve("seconds.hlog"), new byte[0]);

        Path badEnvironment = result("bad-environment", r -> r.put("note", "another agent's, so no copy"));
        Files.writeString(badEnvironment.resolve("environment.json"), "{\"os\": ");
        Path badToml = copy("bad-toml");
        Files.writeString(badToml.resolve("config.toml"), "[general\n");

        Path cut = trace("cut-trace", 4096, null); // truncate -s 4096 t/*.cq4
        byte[] random = new byte[100_000];
        new Random(7).nextBytes(random);
        random[0] = 0x21;
        Path noise2 = trace("random-trace", 0, random);
        Path empty = trace("empty-trace", 0, new byte[0]);

        Path syntax = Files.writeString(dir.resolve("syntax.toml"), "[general\nthreads = 1\n");
        Path unknown = Files.writeString(dir.resolve("unknown.toml"), "[general]\nthreads = 1\nbogus-key = 3\n");
        byte[] binary = new byte[2048];
        new Random(3).nextBytes(binary);
        binary[0] = (byte) 0xc3;
        binary[1] = (byte) 0x28; // not UTF-8
        Path binaryConfig = Files.write(dir.resolve("binary.toml"), binary);
        Path good = Files.writeString(dir.resolve("good.toml"), "[[workload]]\nmethod = \"get\"\nrate = 100\n");

        String out = dir.resolve("out").toString();
        String png = dir.resolve("h.png").toString();
        Stream.Builder<Arguments> b = Stream.builder();
        // item 6: a corrupt run directory, in every command that reads one
        for (Object[] bad : List.of(new Object[] {nullTotal, "result.json: total is null"},
                new Object[] {okMany, "result.json: total.ok is \"many\", not a count"},
                new Object[] {negative, "result.json: total.requests is -5, not a count"},
                new Object[] {garbageLog, "windows.hlog:1: not text"},
                new Object[] {cutLog, "windows.hlog"})) {
            String d = bad[0].toString();
            String place = d + "/" + bad[1];
            b.add(Arguments.of(new String[] {"report", d}, place));
            b.add(Arguments.of(new String[] {"report", d, "--html", dir.resolve("r.html").toString()}, place));
            b.add(Arguments.of(new String[] {"report", d, "--slo", "p99<1s"}, place));
            b.add(Arguments.of(new String[] {"compare", run.toString(), d}, place));
            b.add(Arguments.of(new String[] {"merge", run.toString(), d, "--out", out}, place));
        }
        b.add(Arguments.of(new String[] {"report", badBlock.toString()}, badBlock + "/result.json: intervals[0].sent is not"));
        // the per-second log, which compare and the HTML page read
        b.add(Arguments.of(new String[] {"compare", run.toString(), badSeconds.toString()}, badSeconds + "/seconds.hlog:"));
        b.add(Arguments.of(new String[] {"report", badSeconds.toString(), "--html", dir.resolve("s.html").toString()},
                badSeconds + "/seconds.hlog:"));
        // the text report and --json read no second, and refuse a damaged per-second log all the same
        b.add(Arguments.of(new String[] {"report", badSeconds.toString()}, badSeconds + "/seconds.hlog:"));
        for (Object[] bad : List.of(new Object[] {cutSeconds, "seconds.hlog:6: the histogram of this interval cannot be decoded"},
                new Object[] {emptySeconds, "seconds.hlog is empty; the file is damaged"})) {
            String d = bad[0].toString();
            String place = d + "/" + bad[1];
            b.add(Arguments.of(new String[] {"report", d}, place));
            b.add(Arguments.of(new String[] {"report", d, "--json"}, place));
            b.add(Arguments.of(new String[] {"report", d, "--html", dir.resolve("c.html").toString()}, place));
            b.add(Arguments.of(new String[] {"compare", run.toString(), d}, place));
        }
        // JSON and TOML syntax errors in words, not the parser's own (which names its stream features)
        b.add(Arguments.of(new String[] {"merge", run.toString(), badEnvironment.toString(), "--out", out},
                badEnvironment + "/environment.json is not valid JSON (line 1, column 8: unexpected end of input)"));
        b.add(Arguments.of(new String[] {"compare", run.toString(), badToml.toString()},
                badToml + "/config.toml is not TOML fluxperf can read (line 1, column 9: newline not permitted here)"));
        // item 2: one run given twice
        b.add(Arguments.of(new String[] {"merge", run.toString(), run.toString(), "--out", out}, "twice"));
        b.add(Arguments.of(new String[] {"merge", run.toString(), run.resolve("..").resolve("run").toString(), "--out", out},
                "the same directory as"));
        Path copied = copy("copied");
        b.add(Arguments.of(new String[] {"merge", run.toString(), copied.toString(), "--out", out}, "a copy of " + run));
        // item 7: a trace cut short, random or empty, in every command that reads one
        for (Object[] bad : List.of(new Object[] {cut, "is cut short at 4096 bytes, before its first record"},
                new Object[] {noise2, "is not a Chronicle Queue file"},
                new Object[] {empty, "is empty (0 bytes)"})) {
            String t = bad[0].toString();
            b.add(Arguments.of(new String[] {"trace", "stats", t}, bad[1]));
            b.add(Arguments.of(new String[] {"trace", "dump", t}, bad[1]));
            b.add(Arguments.of(new String[] {"heatmap", t, "--out", png}, bad[1]));
            b.add(Arguments.of(new String[] {"heatmap", t, "--out", dir.resolve("h.html").toString()}, bad[1]));
            b.add(Arguments.of(new String[] {"replay", "-l", t, "-s", "127.0.0.1:1"}, bad[1]));
        }
        // items 5 and 10: k8s checks the config as run does, before printing anything
        b.add(Arguments.of(new String[] {"k8s", "--shards", "2", "--config", syntax.toString(), "--server", "c.svc:11211"},
                "syntax.toml:1:"));
        b.add(Arguments.of(new String[] {"k8s", "--shards", "2", "--config", unknown.toString(), "--server", "c.svc:11211"},
                "bogus-key"));
        b.add(Arguments.of(new String[] {"k8s", "--shards", "2", "--config", binaryConfig.toString(), "--server",
                "c.svc:11211"}, "binary.toml:1: byte 0 (0xc3) is not UTF-8 text"));
        b.add(Arguments.of(new String[] {"run", "--config", binaryConfig.toString()}, "binary.toml:1: byte 0 (0xc3)"));
        // item 9: outputs that cannot be written, an image too large to draw
        b.add(Arguments.of(new String[] {"convert", good.toString(), "--out", dir.toString()}, "--out: " + dir + " is a directory"));
        b.add(Arguments.of(new String[] {"convert", good.toString(), "--out", "/proc/fluxperf/x.toml"},
                "--out: cannot write /proc/fluxperf/x.toml"));
        b.add(Arguments.of(new String[] {"convert", good.toString(), "--out", "/proc/version"},
                "--out: cannot write /proc/version"));
        b.add(Arguments.of(new String[] {"heatmap", run.resolve("trace").toString(), "--out", png, "--width", "100000",
                "--height", "100000"}, "--width/--height"));
        b.add(Arguments.of(new String[] {"heatmap", run.resolve("trace").toString(), "--out", "/proc/fluxperf/h.png"},
                "--out: cannot write /proc/fluxperf/h.png"));
        b.add(Arguments.of(new String[] {"heatmap", run.resolve("trace").toString(), "--out", dir.resolve("adir.png").toString()},
                "adir.png is a directory"));
        Files.createDirectories(dir.resolve("adir.png"));
        // item 10: compare with one directory
        b.add(Arguments.of(new String[] {"compare", run.toString()}, "give two run directories or more"));
        return b.build();
    }

    @ParameterizedTest
    @MethodSource("damagedFiles")
    void oneSentenceNamingTheFileAndExitTwo(String[] args, String place) {
        CliRun r = CliRun.of(args);
        assertEquals(2, r.exitCode(), "exit code; stderr: " + r.err() + "\nstdout: " + r.out());
        String err = r.err().trim();
        assertEquals(1, err.lines().count(), "one sentence: " + err);
        assertTrue(err.startsWith("fluxperf: "), err);
        assertTrue(err.contains(place), "names '" + place + "': " + err);
        assertFalse(err.contains("Exception") || err.contains("java.") || err.contains("\tat "), "no Java: " + err);
        assertFalse(err.contains("Source:") || err.contains("Feature"), "no parser's words: " + err);
        assertFalse(r.out().contains("apiVersion") || r.out().startsWith("Wrote"), "nothing written: " + r.out());
    }
}
