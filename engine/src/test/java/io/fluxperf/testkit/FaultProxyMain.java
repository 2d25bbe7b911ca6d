package io.fluxperf.testkit;

import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FaultProxy} as a process, for scripts (scripts/soak.sh): relays 127.0.0.1:PORT to a
 * target and applies a list of faults in turn, one every period. Prints "listening HOST:PORT"
 * first, then a line per fault with the proxy's counters, and the counters again at exit (SIGTERM).
 *
 * <pre>
 * java -cp … io.fluxperf.testkit.FaultProxyMain --target 127.0.0.1:11211 --every 60s \
 *     --faults stall:2s,reset,drop,truncate:40,corrupt:0.0001:5s,stop-reading:3s,delay:50ms:5s,swap
 * </pre>
 */
public final class FaultProxyMain {
    static final String DEFAULT_FAULTS = "stall:2s,reset,truncate:40,corrupt:0.0001:5s,drop,stop-reading:3s,delay:50ms:5s,swap";

    private FaultProxyMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        String target = null;
        Duration every = Duration.ofSeconds(60);
        String faultList = DEFAULT_FAULTS;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--target" -> target = value;
                case "--every" -> every = duration(value);
                case "--faults" -> faultList = value;
                case "--seed" -> seed = Long.parseLong(value);
                default -> usage("unknown argument '" + args[i] + "'");
            }
            i++;
        }
        if (target == null || target.lastIndexOf(':') < 0) {
            usage("--target HOST:PORT is required");
            return;
        }
        List<Fault> faults = new ArrayList<>();
        for (String spec : faultList.split(",")) {
            faults.add(parse(spec.trim(), seed + faults.size()));
        }
        int colon = target.lastIndexOf(':');
        FaultProxy proxy = FaultProxy.start(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)));
        System.out.println("listening " + proxy.hostPort() + " -> " + target);
        System.out.flush();

        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fault-schedule");
            t.setDaemon(true);
            return t;
        });
        int[] next = {0};
        scheduler.scheduleAtFixedRate(() -> {
            Fault f = faults.get(next[0]++ % faults.size());
            try {
                proxy.apply(f);
                log("fault " + f + "; " + proxy.counters());
            } catch (RuntimeException e) {
                log("fault " + f + " failed: " + e);
            }
        }, every.toNanos(), every.toNanos(), TimeUnit.NANOSECONDS);

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            scheduler.shutdownNow();
            log("stopping; " + proxy.counters());
            proxy.close();
            stopped.countDown();
        }));
        stopped.await();
    }

    /** stall:2s, reset, drop, truncate:N, corrupt:RATE:FOR, stop-reading:FOR, delay:D:FOR (replies), swap. */
    static Fault parse(String spec, long seed) {
        String[] p = spec.split(":");
        return switch (p[0]) {
            case "stall" -> Fault.stall(duration(p[1]));
            case "reset" -> Fault.reset();
            case "drop" -> Fault.drop();
            case "swap" -> Fault.swap();
            case "truncate" -> Fault.truncate(Integer.parseInt(p[1]));
            case "corrupt" -> Fault.corrupt(Double.parseDouble(p[1]), seed, duration(p[2]));
            case "stop-reading" -> Fault.stopReading(duration(p[1]));
            case "delay" -> Fault.delay(FaultProxy.Direction.TO_CLIENT, duration(p[1]), duration(p[2]));
            default -> throw new IllegalArgumentException("unknown fault '" + spec + "'");
        };
    }

    /** "250ms", "2s", "1m" or seconds as a bare number. */
    static Duration duration(String s) {
        if (s.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
        }
        if (s.endsWith("s")) {
            return Duration.ofMillis((long) (Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
        }
        if (s.endsWith("m")) {
            return Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)) * 60);
        }
        return Duration.ofMillis((long) (Double.parseDouble(s) * 1000));
    }

    private static void log(String line) {
        System.out.println(LocalTime.now().truncatedTo(ChronoUnit.MILLIS) + " " + line);
        System.out.flush();
    }

    private static void usage(String problem) {
        System.err.println("FaultProxyMain: " + problem + "\nusage: --target HOST:PORT [--every 60s] [--faults "
                + DEFAULT_FAULTS + "] [--seed N]");
        System.exit(2);
    }
}
