package io.fluxperf.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real server process (memcached, redis-server, nginx) started by a test on a free loopback
 * port and stopped by {@link #close()}. Its output goes to a log file that failures can show.
 */
public class ExternalServer implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path log;
    private final int port;

    protected ExternalServer(String name, List<String> command, int port) {
        this.name = name;
        this.port = port;
        try {
            this.log = Files.createTempFile("fluxperf-" + name + "-", ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            this.process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command + " (is it installed? run scripts/install-deps.sh)", e);
        }
    }

    /** Looks a program up on PATH and in the sbin directories Debian uses for daemons. */
    public static String executable(String program) {
        for (String dir : (System.getenv("PATH") + ":/usr/sbin:/usr/local/sbin:/sbin").split(File.pathSeparator)) {
            File candidate = new File(dir, program);
            if (candidate.canExecute()) {
                return candidate.getAbsolutePath();
            }
        }
        throw new IllegalStateException(program + " is not installed; run scripts/install-deps.sh");
    }

    protected void awaitTcp(long timeoutMillis) {
        try {
            FreePorts.awaitListening(port, timeoutMillis);
        } catch (IllegalStateException e) {
            close();
            throw new IllegalStateException(name + " did not start: " + logText(), e);
        }
    }

    public int port() {
        return port;
    }

    public String address() {
        return "127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Kills the process at once (SIGKILL), as a crash would. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a leftover temp file is harmless
        }
    }
}
