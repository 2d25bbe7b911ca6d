package io.fluxperf.engine.protocol.resp.target;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_INTEGER;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.SYNTAX;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.WRONGPASS;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.bytes;

/**
 * The connection's and the server's commands, as redis' {@code server.c}, {@code networking.c}
 * and {@code acl.c} have them: PING, ECHO, AUTH (the default user only), SELECT, HELLO (which
 * switches to RESP3 and may authenticate), INFO, COMMAND (an empty list: enough for tools to
 * connect) and CONFIG GET and RESETSTAT. One per connection.
 */
final class RespServerCommands {
    private static final byte[] GET_WORD = bytes("GET");
    private static final byte[] AUTH_WORD = bytes("AUTH");
    private static final byte[] SETNAME = bytes("SETNAME");
    private static final byte[] RESETSTAT = bytes("RESETSTAT");
    private static final byte[] DEFAULT_USER = bytes("default");

    private final RespClient c;
    private final RespServerStats stats;
    /** The default user's password; null: none (every client is authenticated). */
    private final byte[] requirePass;

    RespServerCommands(RespClient client, RespServerStats stats, String requirePass) {
        this.c = client;
        this.stats = stats;
        this.requirePass = requirePass != null ? requirePass.getBytes(StandardCharsets.UTF_8) : null;
    }

    void ping(RespArgs a) {
        if (a.count() > 2) {
            c.error("ERR wrong number of arguments for 'ping' command");
        } else if (a.count() == 2) {
            RespReplies.bulk(c.out(), a.bytes, a.start(1), a.length(1));
        } else {
            c.out().writeBytes(RespReplies.PONG);
        }
    }

    void echo(RespArgs a) {
        RespReplies.bulk(c.out(), a.bytes, a.start(1), a.length(1));
    }

    /** Whether the user (word {@code userWord}, or -1 for the default user) may log in with password word {@code passwordWord}. */
    private boolean credentialsOk(RespArgs a, int userWord, int passwordWord) {
        boolean defaultUser = userWord < 0 || Arrays.equals(a.bytes, a.start(userWord), a.end(userWord),
                DEFAULT_USER, 0, DEFAULT_USER.length);
        if (!defaultUser) {
            return false; // ACL users other than default are not implemented
        }
        if (requirePass == null) {
            return true; // the default user has nopass
        }
        return Arrays.equals(a.bytes, a.start(passwordWord), a.end(passwordWord), requirePass, 0, requirePass.length);
    }

    void auth(RespArgs a) {
        if (a.count() > 3) {
            c.error(SYNTAX);
            return;
        }
        if (a.count() == 2 && requirePass == null) {
            c.error("ERR AUTH <password> called without any password configured for the default user. "
                    + "Are you sure your configuration is correct?");
            return;
        }
        boolean ok = a.count() == 3 ? credentialsOk(a, 1, 2) : credentialsOk(a, -1, 1);
        if (!ok) {
            c.error(WRONGPASS);
            return;
        }
        c.authenticated = true;
        c.out().writeBytes(RespReplies.OK);
    }

    void select(RespArgs a) {
        if (!a.parseLong(1)) {
            c.error(NOT_INTEGER);
            return;
        }
        if (a.longValue < 0 || a.longValue >= RespStore.DATABASES) {
            c.error("ERR DB index is out of range");
            return;
        }
        c.db = (int) a.longValue;
        c.out().writeBytes(RespReplies.OK);
    }

    /** HELLO [protover [AUTH user password] [SETNAME name]]: the server's description, in the protocol chosen. */
    void hello(RespArgs a) {
        int proto = c.resp3 ? 3 : 2;
        int authUser = -1;
        if (a.count() >= 2) {
            if (!a.parseLong(1)) {
                c.error("ERR Protocol version is not an integer or out of range");
                return;
            }
            if (a.longValue != 2 && a.longValue != 3) {
                c.error("NOPROTO unsupported protocol version");
                return;
            }
            proto = (int) a.longValue;
            for (int i = 2; i < a.count(); i++) {
                boolean more = a.count() - i - 1 > 0;
                if (a.is(i, AUTH_WORD) && a.count() - i - 1 >= 2) {
                    authUser = i + 1;
                    i += 2;
                } else if (a.is(i, SETNAME) && more) {
                    i++;
                } else {
                    c.error("ERR Syntax error in HELLO option '" + a.text(i) + "'");
                    return;
                }
            }
        }
        if (authUser >= 0) {
            if (!credentialsOk(a, authUser, authUser + 1)) {
                c.error(WRONGPASS);
                return;
            }
            c.authenticated = true;
        }
        if (!c.authenticated) {
            c.error("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH "
                    + "<user> <pass> option can be used to authenticate the client and select the RESP protocol version "
                    + "at the same time");
            return;
        }
        c.resp3 = proto == 3;
        ByteBuf o = c.out();
        RespReplies.map(o, 7, c.resp3);
        RespReplies.bulk(o, "server");
        RespReplies.bulk(o, "redis");
        RespReplies.bulk(o, "version");
        RespReplies.bulk(o, RespServerStats.REDIS_VERSION);
        RespReplies.bulk(o, "proto");
        RespReplies.integer(o, proto);
        RespReplies.bulk(o, "id");
        RespReplies.integer(o, c.id);
        RespReplies.bulk(o, "mode");
        RespReplies.bulk(o, "standalone");
        RespReplies.bulk(o, "role");
        RespReplies.bulk(o, "master");
        RespReplies.bulk(o, "modules");
        RespReplies.array(o, 0);
    }

    void info(RespArgs a) {
        String[] sections = new String[a.count() - 1];
        for (int i = 1; i < a.count(); i++) {
            sections[i - 1] = a.text(i);
        }
        RespReplies.verbatim(c.out(), stats.info(sections), c.resp3);
    }

    /** COMMAND: an empty list, enough for redis-cli and benchmark tools to connect. */
    void command() {
        RespReplies.array(c.out(), 0);
    }

    void config(RespArgs a) {
        if (a.is(1, GET_WORD)) {
            if (a.count() < 3) {
                c.error("ERR wrong number of arguments for 'config|get' command");
            } else {
                configGet(a);
            }
        } else if (a.is(1, RESETSTAT) && a.count() == 2) {
            stats.reset();
            c.out().writeBytes(RespReplies.OK);
        } else {
            c.error("ERR unknown subcommand '" + a.text(1, 128) + "'. Try CONFIG HELP.");
        }
    }

    /** CONFIG GET pattern…: the few settings that describe this server (benchmark tools read save and appendonly). */
    private void configGet(RespArgs a) {
        String[][] settings = {
            {"appendonly", "no"},
            {"databases", Integer.toString(RespStore.DATABASES)},
            {"maxmemory", Long.toString(c.store.limitBytes())},
            {"maxmemory-policy", "allkeys-lru"},
            {"save", ""},
        };
        List<String[]> matched = new ArrayList<>();
        for (String[] setting : settings) {
            for (int i = 2; i < a.count(); i++) {
                if (glob(a.text(i).toLowerCase(Locale.ROOT), setting[0])) {
                    matched.add(setting);
                    break;
                }
            }
        }
        ByteBuf o = c.out();
        RespReplies.map(o, matched.size(), c.resp3);
        for (String[] setting : matched) {
            RespReplies.bulk(o, setting[0]);
            RespReplies.bulk(o, setting[1]);
        }
    }

    /** redis' glob match with {@code *} and {@code ?} (enough for CONFIG GET). */
    static boolean glob(String pattern, String s) {
        int p = 0;
        int i = 0;
        int star = -1;
        int mark = 0;
        while (i < s.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == s.charAt(i))) {
                p++;
                i++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                mark = i;
            } else if (star >= 0) {
                p = star + 1;
                i = ++mark;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
