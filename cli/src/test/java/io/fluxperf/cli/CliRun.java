package io.fluxperf.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs a fluxperf command line in this JVM and keeps what it printed. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.execute(args, new Streams(o, e));
        }
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The launcher's safepoint options (./fluxperf, docs/internals.md "Safepoints"), which a child JVM runs with too. */
    static final List<String> LAUNCHER_SAFEPOINT_OPTIONS = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0");

    /** fluxperf in a child JVM, as a user runs it (its own process: signals, priorities, /proc). */
    static Process inChildJvm(Path output, String... args) throws IOException {
        return inChildJvm(output, List.of(), args);
    }

    /** @param jvmOptions options for the child's java, such as a heap size */
    static Process inChildJvm(Path output, List<String> jvmOptions, String... args) throws IOException {
        return inChildJvm(output, List.of(), jvmOptions, args);
    }

    /** @param prefix a command the child's java runs under, such as {@code taskset -c 0} */
    static Process inChildJvm(Path output, List<String> prefix, List<String> jvmOptions, String... args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LAUNCHER_SAFEPOINT_OPTIONS);
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** The first line of the output that starts with {@code prefix}, or fails. */
    String line(String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with '" + prefix + "' in:\n" + out + "\nstderr:\n" + err));
    }

    /** The run exited 0 and its total ended exactly {@code requests} requests, every one Ok. */
    static void assertAllOk(CliRun run, long requests) {
        org.junit.jupiter.api.Assertions.assertEquals(0, run.exitCode(), run.out() + run.err());
        String total = run.line("Requests:");
        org.junit.jupiter.api.Assertions.assertEquals(requests, field(total, "Requests:"), total);
        org.junit.jupiter.api.Assertions.assertEquals(requests, field(total, "Ok:"), total);
    }

    /** The value after {@code name} in a report line such as "Requests: 10 Ok: 9". */
    static long field(String line, String name) {
        String[] words = line.split(" ");
        for (int i = 0; i < words.length - 1; i++) {
            if (words[i].equals(name)) {
                return Long.parseLong(words[i + 1]);
            }
        }
        throw new AssertionError("no field '" + name + "' in: " + line);
    }

    /** The value after {@code name} in a line, as a decimal (e.g. "Hitrate: 100.00 %"). */
    static double decimal(String line, String name) {
        String[] words = line.split(" ");
        for (int i = 0; i < words.length - 1; i++) {
            if (words[i].equals(name)) {
                return Double.parseDouble(words[i + 1]);
            }
        }
        throw new AssertionError("no field '" + name + "' in: " + line);
    }
}
