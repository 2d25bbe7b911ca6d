package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import java.util.List;

/**
 * What a redis connection sends before any load: {@code HELLO 3}, {@code AUTH} and
 * {@code SELECT}, from the options {@code --resp}, {@code --user}, {@code --password} and
 * {@code --db}.
 *
 * @param user        ACL user for AUTH; null: the default user
 * @param password    AUTH password; null: no AUTH
 * @param database    SELECT index; -1: leave the server's default
 * @param respVersion 2, or 3 to switch with HELLO 3
 */
public record RespOptions(String user, String password, int database, int respVersion) {
    /** redis' default number of databases is 16; servers may have more. */
    public static final int MAX_DB = 1_000_000;

    static final List<ProtocolOption> DECLARED = List.of(ProtocolOption.text("user"), ProtocolOption.text("password"),
            ProtocolOption.integer("db", 0, MAX_DB), ProtocolOption.integer("resp", 2, 3));

    public RespOptions {
        if (respVersion != 2 && respVersion != 3) {
            throw new IllegalArgumentException("RESP version must be 2 or 3, not " + respVersion);
        }
        if (database < -1) {
            throw new IllegalArgumentException("database must be -1 (none) or at least 0, not " + database);
        }
    }

    /** RESP2, no AUTH, no SELECT. */
    public static RespOptions defaults() {
        return new RespOptions(null, null, -1, 2);
    }

    /** Reads and checks the options a user gave. */
    static RespOptions of(ProtocolOptions given) {
        ProtocolOptions.Value user = given.last("user");
        ProtocolOptions.Value password = given.last("password");
        if (user != null && password == null) {
            throw new UserError(user.place() + ": a user needs a --password (redis AUTH user password)");
        }
        ProtocolOptions.Value db = given.last("db");
        ProtocolOptions.Value resp = given.last("resp");
        return new RespOptions(user == null ? null : user.text(), password == null ? null : password.text(),
                db == null ? -1 : (int) db.integer(0, MAX_DB), resp == null ? 2 : (int) resp.integer(2, 3));
    }

    /** Whether a new connection sends anything before its load. */
    boolean hasHandshake() {
        return respVersion == 3 || password != null || database >= 0;
    }
}
