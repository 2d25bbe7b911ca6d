package io.fluxperf.engine.admin;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.AdminAddress;
import io.fluxperf.engine.workload.RateControl;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.resources.LoopResources;

/**
 * The admin endpoint ({@code --admin}, {@code [general] admin}): an HTTP server on a loop of its
 * own, never a load loop (invariant 10), that shows the running run's figures and steers it.
 * <ul>
 *   <li>{@code GET /}: the live dashboard ({@code dashboard.html}, self-contained);</li>
 *   <li>{@code GET /metrics}: Prometheus' text exposition ({@link AdminMetrics});</li>
 *   <li>{@code GET /metrics.json}, {@code GET /vars}: the same figures as JSON and as lines;</li>
 *   <li>{@code PUT /ratelimit/RATE}: the run's total rate, shared by the workloads' weights;
 *       {@code PUT /ratelimit/WORKLOAD/RATE}: one workload's rate;</li>
 *   <li>{@code POST /quitquitquit}: ends the run as Ctrl-C does, as a wanted end (exit 0).</li>
 * </ul>
 * A bad request gets a 4xx status and a one-sentence body, and touches nothing of the run.
 *
 * <p>The endpoint outlives a run: it starts before the load (so that a scraper finds it early) and
 * whoever started it closes it, after the run's report; until a run is {@link #attach attached}
 * it answers 503.
 */
public final class AdminEndpoint implements AutoCloseable {
    private final LoopResources loops;
    private final DisposableServer server;
    private final byte[] dashboard;
    private volatile Attached run;

    /** What the endpoint shows and steers: the run's figures, its rates (null: not steerable) and its quit. */
    private record Attached(LiveFigures figures, AdminMetrics metrics, RateControl rates, Runnable quit) {
    }

    private AdminEndpoint(AdminAddress address) {
        this.dashboard = resource("dashboard.html");
        this.loops = LoopResources.create("fluxperf-admin", 1, true);
        try {
            this.server = HttpServer.create().host(address.host()).port(address.port()).runOn(loops)
                    .handle(this::handle).bindNow();
        } catch (RuntimeException e) {
            loops.disposeLater().block();
            throw new UserError("--admin: cannot listen on " + address.host() + ":" + address.port() + " ("
                    + reason(e) + ")", e);
        }
    }

    /**
     * Starts listening on {@code spec} ({@code [ADDR:]PORT}).
     *
     * @param place how the user gave it ("--admin", "[general] admin"), for the message of a bad one
     * @throws UserError for a bad address or one it cannot bind
     */
    public static AdminEndpoint start(String spec, String place) {
        AdminAddress address;
        try {
            address = AdminAddress.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new UserError(place + ": " + e.getMessage());
        }
        return new AdminEndpoint(address);
    }

    private static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return m == null ? "cannot bind" : m;
    }

    /** The address it listens on (with the port the system chose for port 0). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.address();
    }

    /** {@code http://HOST:PORT/}. */
    public String url() {
        InetSocketAddress a = address();
        String host = a.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/";
    }

    /**
     * Shows {@code figures} and steers the run with {@code rates} (null: its rate cannot be set) and
     * {@code quit} (ends the run as a wanted stop).
     */
    public void attach(LiveFigures figures, RateControl rates, Runnable quit) {
        run = new Attached(figures, new AdminMetrics(figures::snapshot), rates, quit);
    }

    /** The figures shown, or null before a run is attached. */
    public LiveFigures figures() {
        Attached a = run;
        return a == null ? null : a.figures();
    }

    @Override
    public void close() {
        server.disposeNow();
        loops.disposeLater().block();
    }

    // ---- requests, on the endpoint's own loop ----

    private Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        String path = req.fullPath();
        HttpMethod method = req.method();
        Attached a = run;
        try {
            if (path.equals("/") || path.isEmpty()) {
                return only(method, HttpMethod.GET, res) ? send(res, 200, "text/html; charset=utf-8", dashboard) : allowed(res, "GET");
            }
            if (path.equals("/metrics") || path.equals("/metrics.json") || path.equals("/vars")) {
                if (!only(method, HttpMethod.GET, res)) {
                    return allowed(res, "GET");
                }
                if (a == null) {
                    return text(res, 503, "The run has not started yet; try again in a moment.");
                }
                return switch (path) {
                    case "/metrics" -> send(res, 200, a.metrics().contentType(), a.metrics().text());
                    case "/metrics.json" -> send(res, 200, "application/json",
                            AdminViews.json(a.figures().snapshot(), a.rates() == null ? List.of() : a.rates().changes()));
                    default -> text(res, 200, AdminViews.vars(a.figures().snapshot()));
                };
            }
            if (path.equals("/quitquitquit")) {
                if (!HttpMethod.POST.equals(method)) {
                    return allowed(res, "POST");
                }
                if (a == null) {
                    return text(res, 503, "The run has not started yet; try again in a moment.");
                }
                a.quit().run();
                return text(res, 200, "Quitting: the run stops sending and writes its report.");
            }
            if (path.equals("/ratelimit") || path.startsWith("/ratelimit/")) {
                if (!HttpMethod.PUT.equals(method)) {
                    return allowed(res, "PUT");
                }
                return rateLimit(a, path.substring("/ratelimit".length()), res);
            }
            return text(res, 404, "No such path: " + path + " (try /, /metrics, /metrics.json, /vars, PUT /ratelimit/RATE,"
                    + " POST /quitquitquit).");
        } catch (RuntimeException e) {
            return text(res, 500, "The admin endpoint failed: " + e.getMessage());
        }
    }

    private Publisher<Void> rateLimit(Attached a, String rest, HttpServerResponse res) {
        String[] parts = rest.isEmpty() ? new String[0] : rest.substring(1).split("/", -1);
        if (parts.length < 1 || parts.length > 2 || parts[parts.length - 1].isEmpty()) {
            return text(res, 404, "Expected PUT /ratelimit/RATE or PUT /ratelimit/WORKLOAD/RATE.");
        }
        if (a == null) {
            return text(res, 503, "The run has not started yet; try again in a moment.");
        }
        String rateText = java.net.URLDecoder.decode(parts[parts.length - 1], StandardCharsets.UTF_8);
        double rate;
        try {
            rate = Double.parseDouble(rateText);
        } catch (NumberFormatException e) {
            return text(res, 400, "The rate must be a number of requests per second above 0, not '" + rateText + "'.");
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            return text(res, 400, "The rate must be a number of requests per second above 0, not '" + rateText + "'.");
        }
        if (a.rates() == null) {
            return text(res, 409, a.figures().snapshot().kind().equals("replay")
                    ? "A replay is paced by its log, so it has no rate to set."
                    : "This run is closed-loop (no --rate), so it has no rate to set.");
        }
        long now = System.nanoTime();
        if (parts.length == 1) {
            a.rates().setTotal(rate, now, "PUT /ratelimit");
            return text(res, 200, "The run's rate is now " + number(rate) + " requests/s.");
        }
        String name = java.net.URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
        List<String> names = a.figures().workloads();
        int w = names.indexOf(name);
        if (w < 0) {
            return text(res, 404, "No workload named '" + name + "'; this run's workloads are " + String.join(", ", names) + ".");
        }
        a.rates().set(w, rate, now, "PUT /ratelimit/" + name);
        return text(res, 200, "Workload " + name + " now sends " + number(rate) + " requests/s.");
    }

    private static boolean only(HttpMethod method, HttpMethod wanted, HttpServerResponse res) {
        return wanted.equals(method) || HttpMethod.HEAD.equals(method) && wanted.equals(HttpMethod.GET);
    }

    private static Publisher<Void> allowed(HttpServerResponse res, String allow) {
        res.header("Allow", allow);
        return text(res, 405, "This path takes " + allow + " only.");
    }

    private static Publisher<Void> text(HttpServerResponse res, int status, String body) {
        return send(res, status, "text/plain; charset=utf-8", (body + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static Publisher<Void> send(HttpServerResponse res, int status, String type, byte[] body) {
        return res.status(HttpResponseStatus.valueOf(status)).header("Content-Type", type)
                .header("Cache-Control", "no-store")
                .sendByteArray(Mono.just(body)).then();
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%,.2f", v);
    }

    private static byte[] resource(String name) {
        try (InputStream in = AdminEndpoint.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the admin endpoint's " + name + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the admin endpoint's " + name, e);
        }
    }
}
