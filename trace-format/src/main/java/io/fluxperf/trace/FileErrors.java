package io.fluxperf.trace;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** A file operation's failure in words for a user: what went wrong and on which path, never an exception's class name. */
public final class FileErrors {
    private FileErrors() {
    }

    /** E.g. "no such file or directory: /proc/x", "permission denied: /root/out.json", "No space left on device". */
    public static String describe(Throwable t) {
        if (t instanceof IOException e) {
            return describe(e);
        }
        if (t instanceof java.io.UncheckedIOException u) {
            return describe(u.getCause());
        }
        Throwable cause = t.getCause();
        if (cause instanceof IOException e && (t.getMessage() == null || t.getMessage().isBlank())) {
            return describe(e);
        }
        return t.getMessage() != null && !t.getMessage().isBlank() ? t.getMessage() : "an unexpected failure";
    }

    /** The same for an I/O failure. */
    public static String describe(IOException e) {
        String reason;
        if (e instanceof NoSuchFileException) {
            reason = "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            reason = "it exists already";
        } else if (e instanceof NotDirectoryException) {
            reason = "not a directory";
        } else if (e instanceof DirectoryNotEmptyException) {
            reason = "the directory is not empty";
        } else if (e instanceof FileSystemException f) {
            reason = f.getReason() != null ? f.getReason() : "the file system refused";
        } else {
            reason = e.getMessage() != null && !e.getMessage().isBlank() ? e.getMessage() : "an input/output error";
        }
        if (e instanceof FileSystemException f && f.getFile() != null) {
            return reason + ": " + f.getFile() + (f.getOtherFile() != null ? " and " + f.getOtherFile() : "");
        }
        return reason;
    }
}
