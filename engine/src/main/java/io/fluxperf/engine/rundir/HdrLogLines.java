package io.fluxperf.engine.rundir;

import io.fluxperf.engine.UserError;
import io.fluxperf.trace.FileErrors;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * The lines of a run directory's HdrHistogram interval log, checked before HdrHistogram's reader
 * reads it: that reader stops without a word at a line it cannot read, so a damaged log would read
 * as a shorter one. Each line must be a comment ({@code #}), the legend or an interval
 * ({@code [Tag=TAG,]START,LENGTH,MAX,BASE64}); a damaged one is named by its line.
 */
final class HdrLogLines {
    private static final Pattern INTERVAL = Pattern.compile(
            "(Tag=[^,\\s]+,)?-?[0-9]+(\\.[0-9]+)?,-?[0-9]+(\\.[0-9]+)?,-?[0-9]+(\\.[0-9]+)?,[A-Za-z0-9+/]+={0,2}");
    private static final String LEGEND = "\"StartTimestamp\"";

    private HdrLogLines() {
    }

    /**
     * Checks every line of {@code file}.
     *
     * @return how many intervals it holds
     * @throws UserError naming the file and the first line that is none of the above, or the file
     *                   when it has no legend (fluxperf writes one before any interval, so a log
     *                   without it was cut short or emptied)
     */
    static int check(Path file, Path dir, String name) {
        int intervals = 0;
        int n = 0;
        boolean legend = false;
        try (BufferedReader in = reader(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                n++;
                if (line.startsWith(LEGEND)) {
                    legend = true;
                    continue;
                }
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                if (!INTERVAL.matcher(line).matches()) {
                    throw new UserError(file + ":" + n + ": not a line of an HdrHistogram interval log (" + shown(line)
                            + "); the file is damaged");
                }
                intervals++;
            }
        } catch (NoSuchFileException | FileNotFoundException e) {
            throw new UserError(dir + " is not a whole run directory: it has no " + name);
        } catch (CharacterCodingException e) {
            throw new UserError(file + ":" + (n + 1) + ": not text (an HdrHistogram interval log is ASCII); the file is damaged");
        } catch (IOException e) {
            throw new UserError(file + ": cannot read: " + FileErrors.describe(e), e);
        }
        if (!legend) {
            throw new UserError(file + (n == 0 ? " is empty" : " has no legend line (\"StartTimestamp\",...)")
                    + "; the file is damaged");
        }
        return intervals;
    }

    /**
     * The error for a log whose lines look right but one of whose histograms does not decode: each
     * interval line decoded in turn, to name the first that fails.
     *
     * @param cause what HdrHistogram's reader threw, or null when it stopped without a word
     */
    static UserError undecodable(Path file, RuntimeException cause) {
        int n = 0;
        try (BufferedReader in = reader(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                n++;
                if (line.isEmpty() || line.startsWith("#") || line.startsWith(LEGEND)) {
                    continue;
                }
                String base64 = line.substring(line.lastIndexOf(',') + 1);
                try {
                    Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
                } catch (Exception | AssertionError e) {
                    return new UserError(file + ":" + n + ": the histogram of this interval cannot be decoded ("
                            + reason(e) + "); the file is damaged", e);
                }
            }
        } catch (IOException e) {
            return new UserError(file + ": cannot read: " + FileErrors.describe(e), e);
        }
        return new UserError(file + " is not an HdrHistogram interval log fluxperf can read"
                + (cause == null ? "" : " (" + reason(cause) + ")"), cause);
    }

    private static BufferedReader reader(Path file) throws IOException {
        return new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(file),
                StandardCharsets.US_ASCII.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)));
    }

    private static String reason(Throwable e) {
        String m = e.getMessage();
        // a message that would name a Java class says nothing to a user
        return m == null || m.isBlank() || m.contains("java.") || m.contains("Exception")
                ? "its bytes are not a compressed histogram" : m.lines().findFirst().orElse(m);
    }

    private static String shown(String line) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < line.length() && b.length() < 40; i++) {
            char c = line.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return "'" + b + (line.length() > 40 ? "...'" : "'");
    }
}
