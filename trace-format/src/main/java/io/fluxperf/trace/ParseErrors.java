package io.fluxperf.trace;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A parse error of a JSON (or TOML) file read through Jackson, in words for a user: where, and
 * what was wrong, e.g. "line 2, column 1: unexpected end of input". Jackson's own message names
 * its stream features, the source's redaction and token lists meant for a programmer; they are
 * cut away here, so that every file fluxperf reads reports a syntax error alike.
 */
public final class ParseErrors {
    private static final Pattern CODE = Pattern.compile("\\s*\\(code -?\\d+\\)");
    private static final Pattern CTRL = Pattern.compile("\\(\\(CTRL-CHAR, code (\\d+)\\)\\)");
    private static final Pattern QUOTED = Pattern.compile("\\(('[^']*')\\)");
    private static final String ANY_VALUE = "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')";

    private ParseErrors() {
    }

    /** "line L, column C: REASON", or the reason alone when the error has no place. */
    public static String describe(JacksonException e) {
        JsonLocation at = e.getLocation();
        String reason = reason(e);
        return at == null || at.getLineNr() <= 0 ? reason
                : "line " + at.getLineNr() + ", column " + Math.max(1, at.getColumnNr()) + ": " + reason;
    }

    /** What was wrong, without the place: one clause, lower case, no full stop. */
    public static String reason(JacksonException e) {
        return reason(e.getOriginalMessage());
    }

    /** The same for a parser's message as text (a parser that throws another exception than Jackson's). */
    public static String reason(String message) {
        String m = message == null ? "" : message.strip();
        int newline = m.indexOf('\n');
        if (newline >= 0) {
            m = m.substring(0, newline).strip();
        }
        int marker = m.indexOf(" (start marker at");
        if (marker >= 0) {
            m = m.substring(0, marker);
        }
        int source = m.indexOf("[Source:");
        if (source >= 0) {
            m = m.substring(0, source).strip();
        }
        if (m.startsWith("Unexpected end-of-input")) {
            // "expected close marker for Object" says what the lexer wanted, not what the file lacks
            m = "unexpected end of input" + (m.contains(" in field name") ? " in a field name"
                    : m.contains("closing quote") || m.contains("in VALUE_STRING") ? " in a string" : "");
        }
        m = m.replace("end-of-input", "end of input")
                .replace("expected a valid value " + ANY_VALUE, "expected a value")
                .replace("was expecting " + ANY_VALUE, "expected a value")
                .replace(" " + ANY_VALUE, "");
        m = CTRL.matcher(m).replaceAll("(control character $1)");
        m = CODE.matcher(m).replaceAll("");
        m = QUOTED.matcher(m).replaceAll("$1");
        int stop = m.indexOf(". ");
        if (stop > 0) {
            m = m.substring(0, stop);
        }
        if (m.endsWith(".")) {
            m = m.substring(0, m.length() - 1);
        }
        if (m.isBlank() || m.contains("java.") || m.contains("Exception") || m.contains("com.fasterxml")
                || m.contains("Feature.")) {
            return "not valid syntax"; // a message that would name a Java class or a parser switch says nothing to a user
        }
        return m.substring(0, 1).toLowerCase(Locale.ROOT) + m.substring(1);
    }
}
