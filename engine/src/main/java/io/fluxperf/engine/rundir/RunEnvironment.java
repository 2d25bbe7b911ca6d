package io.fluxperf.engine.rundir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.Version;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * What a run ran on ({@code environment.json}): fluxperf's version and commit, the JVM, the OS and
 * kernel, the CPU, the host, the clock source the kernel reads time from (tsc, or a slower
 * hypervisor clock that shows in every latency), and the exact command line.
 */
final class RunEnvironment {
    private static final Path CLOCKSOURCE = Path.of("/sys/devices/system/clocksource/clocksource0");

    private RunEnvironment() {
    }

    static ObjectNode describe(ObjectMapper mapper, List<String> commandLine, long startEpochMillis) {
        ObjectNode o = mapper.createObjectNode();
        o.put("fluxperf", Version.get());
        o.put("commit", Version.commit());
        o.put("started", Instant.ofEpochMilli(startEpochMillis).toString());
        ObjectNode java = o.putObject("java");
        java.put("version", System.getProperty("java.version"));
        java.put("vendor", System.getProperty("java.vendor"));
        java.put("vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        ObjectNode os = o.putObject("os");
        os.put("name", System.getProperty("os.name"));
        os.put("arch", System.getProperty("os.arch"));
        os.put("version", System.getProperty("os.version"));
        os.put("kernel", firstLine(Path.of("/proc/sys/kernel/osrelease"), System.getProperty("os.version")));
        os.put("kernelBuild", firstLine(Path.of("/proc/sys/kernel/version"), null));
        ObjectNode cpu = o.putObject("cpu");
        cpu.put("model", cpuModel());
        cpu.put("count", Runtime.getRuntime().availableProcessors());
        o.put("hostname", hostname());
        ObjectNode clock = o.putObject("clocksource");
        clock.put("current", firstLine(CLOCKSOURCE.resolve("current_clocksource"), null));
        String available = firstLine(CLOCKSOURCE.resolve("available_clocksource"), null);
        ArrayNode list = clock.putArray("available");
        if (available != null) {
            for (String s : available.trim().split("\\s+")) {
                list.add(s);
            }
        }
        ArrayNode args = o.putArray("commandLine");
        commandLine.forEach(args::add);
        return o;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    int colon = line.indexOf(':');
                    return colon < 0 ? line : line.substring(colon + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: the model stays unknown
        }
        return null;
    }

    private static String hostname() {
        String fromKernel = firstLine(Path.of("/proc/sys/kernel/hostname"), null);
        if (fromKernel != null) {
            return fromKernel;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return null;
        }
    }

    private static String firstLine(Path file, String otherwise) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return lines.isEmpty() ? otherwise : lines.get(0).trim();
        } catch (IOException | RuntimeException e) {
            return otherwise;
        }
    }
}
