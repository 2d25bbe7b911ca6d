package io.fluxperf.engine.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.fluxperf.engine.UserError;
import io.fluxperf.trace.FileErrors;
import io.fluxperf.trace.ParseErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A TOML config file read into a tree, with what it takes to name places in it: syntax errors as
 * {@code FILE:LINE:COL: …} (Jackson's location), problems with a value as
 * {@code FILE: workload[1].rate (line 14): …} (the key path; the line where a simple scan of the
 * text finds the key, left out when it finds none).
 */
final class TomlConfigFile {
    private static final TomlMapper MAPPER = new TomlMapper();

    private final String name;
    private final ObjectNode root;
    private final Map<String, Integer> keyLines;
    /** For a tree translated from another format: the source file, and each key path's origin in it. */
    private final TomlConfigFile source;
    private final Map<String, String> origins;
    private final String text;

    private TomlConfigFile(String name, ObjectNode root, Map<String, Integer> keyLines, String text) {
        this.name = name;
        this.root = root;
        this.keyLines = keyLines;
        this.source = null;
        this.origins = null;
        this.text = text;
    }

    private TomlConfigFile(TomlConfigFile source, ObjectNode root, Map<String, String> origins) {
        this.name = source.name;
        this.root = root;
        this.keyLines = Map.of();
        this.source = source;
        this.origins = origins;
        this.text = null;
    }

    /**
     * A tree translated from {@code source} (an rpc-perf file): a problem with one of its keys is
     * placed at the key of the source it came from ({@code origins}: translated path to source path).
     */
    static TomlConfigFile translated(TomlConfigFile source, ObjectNode root, Map<String, String> origins) {
        return new TomlConfigFile(source, root, origins);
    }

    /** Whether this is an rpc-perf file's translation, not a file as read. */
    boolean isTranslated() {
        return source != null;
    }

    /** The file's text as read; null for a translated tree. */
    String text() {
        return text;
    }

    /**
     * Reads and parses {@code path}; every problem becomes a {@link UserError}. A named pipe (a
     * FIFO, or the shell's {@code <(...)}) is read to its end, once, as a file is.
     */
    static TomlConfigFile read(Path path) {
        return read(path, "--config");
    }

    /**
     * The same for a file given as {@code flag}'s value; null for a file given as a command's own
     * argument ({@code convert FILE}), which the errors then name alone.
     */
    static TomlConfigFile read(Path path, String flag) {
        String name = path.toString();
        String place = flag == null ? "" : flag + ": ";
        if (!Files.exists(path)) {
            throw new UserError(place + name + ": no such file");
        }
        if (Files.isDirectory(path)) {
            throw new UserError(place + name + " is a directory, not a TOML file");
        }
        if (!Files.isRegularFile(path) && !isPipe(path)) {
            throw new UserError(place + name + " is a device or a socket, not a TOML file");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UserError(place + name + " cannot be read (" + FileErrors.describe(e) + ")");
        }
        return parse(name, bytes);
    }

    /** The file's text; a byte that is not UTF-8 (a binary file) is named by its line and offset. */
    private static String utf8(String name, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
        java.nio.charset.CoderResult r = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(in, out, true);
        if (r.isError()) {
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at; i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new UserError(name + ":" + line + ": byte " + at + " (0x" + String.format("%02x", bytes[at] & 0xff)
                    + ") is not UTF-8 text; a TOML file must be UTF-8 (is this a binary file?)");
        }
        return out.flip().toString();
    }

    /** Whether {@code path} is a named pipe (its file type, from the Unix mode; false where that is unknown). */
    private static boolean isPipe(Path path) {
        try {
            return ((Integer) Files.getAttribute(path, "unix:mode") & 0170000) == 0010000; // S_IFMT, S_IFIFO
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Parses {@code bytes} as the content of a file called {@code name}. */
    static TomlConfigFile parse(String name, byte[] bytes) {
        String text = utf8(name, bytes);
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            text = text.substring(1);
        }
        Keys keys = locateKeys(text);
        JsonNode tree;
        try {
            tree = MAPPER.readTree(text);
        } catch (JacksonException e) {
            JsonLocation at = e.getLocation();
            int line = at != null ? at.getLineNr() : 0;
            String message = ParseErrors.reason(e);
            if (message.equals("duplicate key")) {
                // Jackson's location is past the value (often the next line); the scan knows the key's own line
                for (Duplicate d : keys.duplicates()) {
                    if (line <= 0 || d.line() <= line) {
                        throw new UserError(name + ":" + d.line() + ":" + d.column() + ": TOML syntax error: duplicate key "
                                + d.path() + " (first set on line " + d.firstLine() + ")");
                    }
                }
            }
            String where = line > 0 ? name + ":" + tokenBefore(text, line, Math.max(1, at.getColumnNr())) : name;
            throw new UserError(where + ": TOML syntax error: " + message);
        } catch (RuntimeException e) {
            throw new UserError(name + ": cannot be read as TOML (" + ParseErrors.reason(e.getMessage()) + ")");
        }
        ObjectNode root = tree instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
        return new TomlConfigFile(name, root, keys.lines(), text);
    }

    /**
     * Jackson reports a syntax error where its lexer stands, after the offending token: at the
     * start of the next line when the token ended a line. Point at the token's own line instead.
     */
    static String tokenBefore(String text, int line, int column) {
        if (column != 1 || line <= 1) {
            return line + ":" + column;
        }
        int offset = 0;
        for (int l = 1; l < line && offset >= 0; l++) {
            offset = text.indexOf('\n', offset) + 1;
            if (offset == 0) {
                return line + ":" + column;
            }
        }
        int i = offset - 1;
        while (i >= 0 && Character.isWhitespace(text.charAt(i))) {
            i--;
        }
        if (i < 0) {
            return line + ":" + column;
        }
        int tokenLine = 1;
        int lineStart = 0;
        for (int k = 0; k < i; k++) {
            if (text.charAt(k) == '\n') {
                tokenLine++;
                lineStart = k + 1;
            }
        }
        return tokenLine + ":" + (i - lineStart + 1);
    }

    String name() {
        return name;
    }

    /** Whether the file sets nothing: empty, or only comments and blank lines. */
    boolean isEmpty() {
        return root.isEmpty();
    }

    /** The top-level table. */
    TomlTable root() {
        return new TomlTable(this, "", root);
    }

    /** A problem with the value at {@code keyPath} (as in {@code workload[1].rate}). */
    UserError error(String keyPath, String problem) {
        return new UserError(place(keyPath) + ": " + problem);
    }

    /** Where the key at {@code keyPath} is, to start a message with: {@code run.toml: general.db (line 3)}. */
    String place(String keyPath) {
        if (source != null) {
            for (String p = keyPath; !p.isEmpty(); p = parent(p)) {
                String from = origins.get(p);
                if (from != null) {
                    return from.isEmpty() ? name : source.place(from);
                }
            }
            return name;
        }
        int line = lineOf(keyPath);
        return name + ": " + keyPath + (line > 0 ? " (line " + line + ")" : "");
    }

    /** A problem with the file as a whole. */
    UserError error(String problem) {
        return new UserError(name + ": " + problem);
    }

    private static String parent(String keyPath) {
        int cut = Math.max(keyPath.lastIndexOf('.'), keyPath.lastIndexOf('['));
        return cut < 0 ? "" : keyPath.substring(0, cut);
    }

    /** The line of the key at {@code keyPath} or of the nearest enclosing key or table; 0 if not found. */
    int lineOf(String keyPath) {
        if (source != null) {
            return 0;
        }
        String p = keyPath;
        while (!p.isEmpty()) {
            Integer line = keyLines.get(p);
            if (line != null) {
                return line;
            }
            int cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
            p = cut < 0 ? "" : p.substring(0, cut);
        }
        return 0;
    }

    /** A key set twice, found by the scan. */
    record Duplicate(String path, int line, int column, int firstLine) {
    }

    /** What the scan found: the line of each key path, and keys set twice in the order met. */
    record Keys(Map<String, Integer> lines, List<Duplicate> duplicates) {
    }

    /**
     * Maps key paths ({@code general.threads}, {@code workload[1]}, {@code workload[1].rate}) to
     * the line they are on. A best-effort scan of table headers and {@code key = value} lines with
     * bare keys; anything it does not understand is left out rather than guessed.
     */
    static Keys locateKeys(String text) {
        Map<String, Integer> lines = new HashMap<>();
        List<Duplicate> duplicates = new ArrayList<>();
        Map<String, Integer> arrayIndex = new HashMap<>();
        String table = "";
        String multiline = null;
        int depth = 0;
        String[] all = text.split("\r?\n", -1);
        for (int i = 0; i < all.length; i++) {
            int lineNr = i + 1;
            String l = all[i].strip();
            if (multiline != null) {
                if (l.contains(multiline)) {
                    multiline = null;
                }
                continue;
            }
            if (depth > 0) {
                depth = Math.max(0, depth + bracketDelta(l));
                continue;
            }
            if (l.startsWith("[[")) {
                int close = l.indexOf("]]");
                String header = close < 0 ? null : l.substring(2, close).strip();
                if (header == null || !header.matches("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*")) {
                    table = "\u0000";
                    continue;
                }
                int index = arrayIndex.merge(header, 1, Integer::sum) - 1;
                String array = resolve(header, arrayIndex);
                lines.putIfAbsent(array, lineNr);
                table = array + "[" + index + "]";
                lines.putIfAbsent(table, lineNr);
                continue;
            }
            if (l.startsWith("[")) {
                int close = l.indexOf(']');
                String header = close < 0 ? null : l.substring(1, close).strip();
                if (header == null || !header.matches("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*")) {
                    table = "\u0000";
                    continue;
                }
                table = resolve(header, arrayIndex);
                lines.putIfAbsent(table, lineNr);
                continue;
            }
            int eq = l.indexOf('=');
            if (eq <= 0 || table.equals("\u0000")) {
                continue;
            }
            String key = l.substring(0, eq).strip();
            if (!key.matches("[A-Za-z0-9_-]+")) {
                continue;
            }
            String keyPath = table.isEmpty() ? key : table + "." + key;
            Integer first = lines.putIfAbsent(keyPath, lineNr);
            if (first != null) {
                duplicates.add(new Duplicate(keyPath, lineNr, all[i].indexOf(key) + 1, first));
            }
            String value = l.substring(eq + 1);
            for (String quotes : new String[] {"\"\"\"", "'''"}) {
                if (count(value, quotes) % 2 == 1) {
                    multiline = quotes;
                }
            }
            if (multiline == null) {
                depth = Math.max(0, bracketDelta(value));
            }
        }
        return new Keys(lines, duplicates);
    }

    /** {@code a.b} where {@code a} is an array of tables becomes {@code a[last].b}. */
    private static String resolve(String header, Map<String, Integer> arrayIndex) {
        String[] parts = header.split("\\.");
        StringBuilder raw = new StringBuilder();
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                raw.append('.');
                path.append('.');
            }
            raw.append(parts[i]);
            path.append(parts[i]);
            Integer count = arrayIndex.get(raw.toString());
            if (count != null && i < parts.length - 1) {
                path.append('[').append(count - 1).append(']');
            }
        }
        return path.toString();
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int at = s.indexOf(part); at >= 0; at = s.indexOf(part, at + part.length())) {
            n++;
        }
        return n;
    }

    /** Opening minus closing brackets and braces outside strings and comments. */
    private static int bracketDelta(String s) {
        int delta = 0;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == '\\' && quote == '"') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '#') {
                break;
            } else if (c == '[' || c == '{') {
                delta++;
            } else if (c == ']' || c == '}') {
                delta--;
            }
        }
        return delta;
    }
}
