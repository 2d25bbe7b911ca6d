package io.fluxperf.engine.request;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A command given as words with placeholders, e.g. {@code SET __key__ __data__} or the path
 * {@code /items/__key__}: parsed once, shared read-only by every request of its workload, and
 * expanded by the codec while it encodes (nothing is built per request).
 *
 * <p>Placeholders: {@code __key__} (the request's key), {@code __data__} (its value),
 * {@code __counter__} (the request's {@link Request#numeric()}, a per-workload sequence number).
 * A word may mix text and placeholders ({@code user:__key__}).
 */
public final class CommandTemplate {
    public static final String KEY = "__key__";
    public static final String DATA = "__data__";
    public static final String COUNTER = "__counter__";

    /** One piece of a word: literal bytes, or a placeholder. */
    public sealed interface Part permits Literal, Key, Data, Counter {
    }

    public record Literal(byte[] bytes) implements Part {
    }

    public record Key() implements Part {
    }

    public record Data() implements Part {
    }

    public record Counter() implements Part {
    }

    private final String text;
    private final List<List<Part>> words;
    private final boolean usesKey;
    private final boolean usesData;

    private CommandTemplate(String text, List<List<Part>> words) {
        this.text = text;
        this.words = words;
        this.usesKey = words.stream().flatMap(List::stream).anyMatch(p -> p instanceof Key);
        this.usesData = words.stream().flatMap(List::stream).anyMatch(p -> p instanceof Data);
    }

    /**
     * Splits {@code text} into words at spaces ({@code "…"} quotes a word with spaces) and each word
     * into literal text and placeholders.
     *
     * @throws IllegalArgumentException when it has no words or an unclosed quote
     */
    public static CommandTemplate parse(String text) {
        List<List<Part>> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                inWord = true;
            } else if (c == ' ' && !quoted) {
                if (inWord) {
                    words.add(parts(word.toString()));
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unclosed quote in '" + text + "'");
        }
        if (inWord) {
            words.add(parts(word.toString()));
        }
        if (words.isEmpty()) {
            throw new IllegalArgumentException("a command template needs at least one word");
        }
        return new CommandTemplate(text, List.copyOf(words));
    }

    /** A single word (e.g. an HTTP path) with placeholders, spaces kept. */
    public static CommandTemplate word(String text) {
        return new CommandTemplate(text, List.of(parts(text)));
    }

    private static List<Part> parts(String word) {
        List<Part> parts = new ArrayList<>();
        int i = 0;
        while (i < word.length()) {
            int next = nextPlaceholder(word, i);
            if (next < 0) {
                parts.add(new Literal(word.substring(i).getBytes(StandardCharsets.UTF_8)));
                break;
            }
            if (next > i) {
                parts.add(new Literal(word.substring(i, next).getBytes(StandardCharsets.UTF_8)));
            }
            if (word.startsWith(KEY, next)) {
                parts.add(new Key());
                i = next + KEY.length();
            } else if (word.startsWith(DATA, next)) {
                parts.add(new Data());
                i = next + DATA.length();
            } else {
                parts.add(new Counter());
                i = next + COUNTER.length();
            }
        }
        return List.copyOf(parts);
    }

    private static int nextPlaceholder(String word, int from) {
        int best = -1;
        for (String p : new String[] {KEY, DATA, COUNTER}) {
            int at = word.indexOf(p, from);
            if (at >= 0 && (best < 0 || at < best)) {
                best = at;
            }
        }
        return best;
    }

    /** The words; each a list of parts. */
    public List<List<Part>> words() {
        return words;
    }

    /** The first word as text when it is literal (e.g. "SET"), upper-cased; null otherwise. */
    public String verb() {
        List<Part> first = words.get(0);
        if (first.size() == 1 && first.get(0) instanceof Literal l) {
            return new String(l.bytes(), StandardCharsets.UTF_8).toUpperCase(java.util.Locale.ROOT);
        }
        return null;
    }

    public boolean usesKey() {
        return usesKey;
    }

    public boolean usesData() {
        return usesData;
    }

    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
