package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.resp.target.RespTargetServer;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.testkit.RedisProcess.Client;

/**
 * The redis servers one test body runs against: a real redis-server, and fluxperf's embedded
 * redis target (HdrHistogram's way: one suite over every implementation).
 */
enum RedisTargets {
    REDIS_SERVER, EMBEDDED;

    /** A started server of this kind; {@code password} null for none. */
    Target start(String password) {
        if (this == REDIS_SERVER) {
            RedisProcess p = RedisProcess.startWithPassword(password);
            return new Target("redis-server on " + p.address(), p.port(), password, p);
        }
        RespTargetServer s = RespTargetServer.start(TargetOptions.defaults(), password);
        return new Target(s.describe(), s.address().getPort(), password, s);
    }

    /** A running server and how to talk to it. */
    record Target(String name, int port, String password, AutoCloseable server) implements AutoCloseable {
        /** A new connection, authenticated when the server has a password; the caller closes it. */
        Client client() {
            Client c = Client.connect(port);
            if (password != null) {
                c.command("AUTH", password);
            }
            return c;
        }

        Object command(String... words) {
            try (Client c = client()) {
                return c.command(words);
            }
        }

        long stat(String name) {
            try (Client c = client()) {
                return Long.parseLong(RedisProcess.Client.fields(c.info("stats")).get(name));
            }
        }

        long calls(String command) {
            try (Client c = client()) {
                return c.commandstats().getOrDefault(command, 0L);
            }
        }

        /** FLUSHALL and CONFIG RESETSTAT: an empty server with zeroed counters. */
        void reset() {
            try (Client c = client()) {
                c.command("FLUSHALL");
                c.command("CONFIG", "RESETSTAT");
            }
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }
}
