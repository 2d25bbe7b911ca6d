package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** What the report says of errors that are no request's outcome. */
class RunErrorsTest {
    /** A connect that found no descriptor left names the limit, and stops a run while it connects (issue 46). */
    @Test
    void aConnectOutOfFilesNamesTheLimit() {
        RunErrors errors = new RunErrors();
        errors.connectFailed(new ConnectException("Connection refused"));
        assertNull(errors.fatal(), "a server that refuses is the server's");
        errors.connectFailed(new IOException("newSocketStream(..) failed: Too many open files"));
        errors.connectFailed(new IOException("newSocketStream(..) failed: Too many open files"));
        assertTrue(errors.fatal().startsWith("--connections: a connect failed with Too many open files (this process may open "),
                errors.fatal());
        assertTrue(errors.fatal().endsWith(": ulimit -n); raise the limit or use fewer connections"), errors.fatal());
        assertTrue(errors.any());
        String summary = errors.summary();
        assertTrue(summary.startsWith("Errors: 0 protocol, 0 connection, 2 connect: connect: Too many open files"), summary);
        assertTrue(summary.endsWith(": ulimit -n) (x2)"), summary);
        assertEquals(3, errors.connectFailures());
    }

    /** A refused datagram before any reply means nothing listens (the run ends, once); after a reply, a restart: counted. */
    @Test
    void aRefusalIsFatalOnlyBeforeTheFirstReply() {
        RunErrors errors = new RunErrors();
        int[] stops = new int[1];
        errors.whenUnreachable(() -> stops[0]++);
        assertTrue(errors.refused(new java.net.PortUnreachableException("recvAddress(..) failed with error(-111): Connection refused")));
        assertTrue(errors.refused(new java.net.PortUnreachableException("Connection refused")));
        assertTrue(errors.unreachable());
        assertEquals("Connection refused", errors.firstConnectFailure());
        assertEquals(1, stops[0], "the run is stopped once");
        assertEquals(0, errors.connectionErrors());

        RunErrors restarted = new RunErrors();
        restarted.whenUnreachable(() -> stops[0]++);
        restarted.answered();
        assertFalse(restarted.refused(new java.net.PortUnreachableException("Connection refused")));
        assertFalse(restarted.unreachable());
        assertEquals(1, restarted.connectionErrors());
        assertEquals("Errors: 0 protocol, 1 connection: connection: Connection refused", restarted.summary());
        assertEquals(1, stops[0]);
    }

    /** The hint of a server of another kind holds only while no reply of the run could be read. */
    @Test
    void theWrongServerHintNeedsEveryReplyUnexpected() {
        RunErrors errors = new RunErrors();
        assertTrue(errors.replyHintPending());
        errors.unexpectedReply("unexpected memcache reply '$-1'", "does the server speak memcache? That is how redis answers:"
                + " try --protocol redis");
        assertFalse(errors.replyHintPending());
        errors.unexpectedReply("unexpected memcache reply '-ERR'", "ignored: the first one's hint is kept");
        assertEquals(2, errors.protocolErrors());
        assertTrue(errors.summary().endsWith(System.lineSeparator() + "Hint: no reply could be read, each was unexpected:"
                + " does the server speak memcache? That is how redis answers: try --protocol redis"), errors.summary());
        assertEquals(errors.summary(), RunErrors.restored(2, 0, 0, errors.messages(), errors.wrongServerHint()).summary(),
                "read back from a run directory");
        errors.answered();
        assertNull(errors.wrongServerHint(), "one reply could be read: the right kind of server");
        assertFalse(errors.summary().contains("Hint:"), errors.summary());

        RunErrors ownError = new RunErrors();
        ownError.unexpectedReply("a reply of its own protocol, broken", null);
        assertNull(ownError.wrongServerHint());
    }

    /** A message quoting a server's bytes keeps no control character; the same message counts once, escaped. */
    @Test
    void keptMessagesAreEscaped() {
        RunErrors errors = new RunErrors();
        for (int i = 0; i < 7; i++) {
            errors.protocolError("unexpected reply '\u001b[2J" + (i < 5 ? i : 0) + "'");
        }
        assertEquals(5, errors.messages().size());
        assertEquals(3L, errors.messages().get("protocol: unexpected reply '\\x1b[2J0'"));
    }
}
