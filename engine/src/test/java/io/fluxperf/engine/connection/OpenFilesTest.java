package io.fluxperf.engine.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** The open-file limit against the sockets a run needs (issue 46). */
class OpenFilesTest {
    @Test
    void aRunThatDoesNotFitIsRefusedNamingTheLimit() {
        UserError e = assertThrows(UserError.class, () -> OpenFiles.requireRoomFor(1000, "--connections 1000", 512, 40));
        assertEquals("--connections 1000 needs 1000 sockets, but this process may open only 512 files (ulimit -n) and has"
                + " 40 open: raise the limit (ulimit -n 2048) or use fewer connections", e.getMessage());
        OpenFiles.requireRoomFor(400, "--connections 400", 512, 40); // fits, with room to spare
        OpenFiles.requireRoomFor(1_000_000, "--connections 1000000", -1, -1); // a JVM that does not tell
    }

    @Test
    void thisJvmTellsItsLimit() {
        assertTrue(OpenFiles.limit() > 0 && OpenFiles.open() > 0 && OpenFiles.open() < OpenFiles.limit());
    }

    @Test
    void emfileIsToldApartFromOtherFailures() {
        assertTrue(OpenFiles.exhausted(new IOException("connect failed", new IOException("newSocketStream(..) failed: Too many open files"))));
        assertTrue(OpenFiles.exhausted(new IOException("Too many open files in system")));
        assertFalse(OpenFiles.exhausted(new ConnectException("Connection refused")));
        assertTrue(OpenFiles.describeExhausted().startsWith("Too many open files (this process may open "));
    }
}
