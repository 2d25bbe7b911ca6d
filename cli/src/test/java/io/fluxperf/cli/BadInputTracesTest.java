package io.fluxperf.cli;

import io.fluxperf.testkit.CacheTraceFile;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad published traces and bad use of profile and --scale: a line that is not seven fields is
 * counted and named (file:line), and with --strict ends the command; a damaged or cut zstd file, a
 * file that is no log, a protocol that cannot send the operations, a bad flag: one sentence that
 * names the file and the place, exit 2, no stack trace.
 */
@ExtendWith(RealServers.class)
class BadInputTracesTest {
    private static final String LAYOUT = "(timestamp,key,key size,value size,client id,operation,TTL)";

    @RealServer
    static MemcachedProcess server;

    @TempDir
    Path dir;

    /** Exit 2 and one line on stderr: "fluxperf: " and a sentence without a Java class or stack frame. */
    private static String oneSentence(CliRun run) {
        assertEquals(2, run.exitCode(), run.out() + run.err());
        String[] lines = run.err().strip().split("\n");
        assertEquals(1, lines.length, run.err());
        assertTrue(lines[0].startsWith("fluxperf: "), run.err());
        assertTrue(!lines[0].contains("Exception") && !lines[0].contains("\tat ") && !lines[0].contains("java."),
                run.err());
        return lines[0];
    }

    private Path csv(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.US_ASCII);
    }

    @Test
    void aLineOfTheWrongFieldCountIsCountedAndNamedOrUnderStrictTheEnd() throws IOException {
        Path log = csv("trace.csv", "0,a,4,10,1,set,60\n0,a,4,10,1,get\n1,b,4,0,2,get,0\n");
        CliRun replay = CliRun.of("replay", "-s", server.address(), "-l", log.toString(), "--speed", "max", "--no-live");
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertEquals("Bad line: " + log + ":2: 6 fields, not 7 " + LAYOUT, replay.line("Bad line: "));
        assertTrue(replay.line("Lines: ").contains("replayed 2 ") && replay.line("Lines: ").contains("bad 1"),
                replay.line("Lines: "));

        CliRun profile = CliRun.of("profile", log.toString());
        assertEquals(0, profile.exitCode(), profile.err());
        assertEquals("Lines: read 3 bad 1", profile.line("Lines: "));
        assertEquals("Bad line: " + log + ":2: 6 fields, not 7 " + LAYOUT, profile.line("Bad line: "));

        String expected = "fluxperf: " + log + ":2: 6 fields, not 7 " + LAYOUT + " (--strict stops at the first bad line)";
        assertEquals(expected, oneSentence(CliRun.of("replay", "-s", server.address(), "-l", log.toString(),
                "--strict", "--no-live")));
        assertEquals(expected, oneSentence(CliRun.of("profile", log.toString(), "--strict")));
    }

    @Test
    void aZstdTraceCutShortIsReadToItsCutAndSaysWhere() throws IOException {
        Path whole = CacheTraceFile.builder().seconds(4, 2000).make().writeZstd(dir.resolve("whole.zst"));
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = Files.write(dir.resolve("cluster7.0.zst"), Arrays.copyOf(bytes, bytes.length * 2 / 3));
        CliRun profile = CliRun.of("profile", cut.toString());
        assertEquals(0, profile.exitCode(), profile.err());
        long requests = CliRun.field(profile.line("Requests: "), "Requests:");
        assertTrue(requests > 1000 && requests < 8000, profile.out());
        assertTrue(profile.out().contains("Bad line: " + cut + ": the zstd stream is cut short at byte " + Files.size(cut)
                + " (the file ends inside it); what came before was read"), profile.out());

        String strict = oneSentence(CliRun.of("profile", cut.toString(), "--strict"));
        assertTrue(strict.startsWith("fluxperf: " + cut + ":"), strict); // the cut line (file:line), or the stream's end
        assertTrue(strict.endsWith("(--strict stops at the first bad line)"), strict);
    }

    @Test
    void aDamagedZstdTraceIsOneSentenceNamingTheFileAndWhere() throws IOException {
        Path whole = CacheTraceFile.builder().seconds(6, 4000).make().writeZstd(dir.resolve("whole.zst"));
        byte[] bytes = Files.readAllBytes(whole);
        byte[] damaged = bytes.clone();
        Arrays.fill(damaged, bytes.length / 2, bytes.length / 2 + 64, (byte) 0xff);
        Path log = Files.write(dir.resolve("cluster8.0.zst"), damaged);
        String replay = oneSentence(CliRun.of("replay", "-s", server.address(), "-l", log.toString(), "--speed", "max",
                "--no-live"));
        assertTrue(replay.matches("fluxperf: " + java.util.regex.Pattern.quote(log.toString())
                + ": cannot read: damaged compressed data near byte \\d+ of the file \\(.+\\)"), replay);
        String profile = oneSentence(CliRun.of("profile", log.toString()));
        assertTrue(profile.contains(log + ": cannot read: damaged compressed data near byte "), profile);
    }

    @Test
    void aFileThatIsNoTraceAndOtherMistakes() throws IOException {
        byte[] noise = new byte[4096];
        new Random(1).nextBytes(noise);
        noise[0] = 0x11; // not a compression magic
        Path binary = Files.write(dir.resolve("cluster9.0.zst"), noise);
        assertTrue(oneSentence(CliRun.of("profile", binary.toString()))
                .matches("fluxperf: .*cluster9\\.0\\.zst: not a command log \\(binary content at byte \\d+\\)"));

        Path allBad = csv("bad.csv", "x,y\nz\n");
        assertEquals("fluxperf: " + allBad + ":1: 2 fields, not 7 " + LAYOUT + " (no line of " + allBad
                + " is a twitter-cache-trace command: 2 bad lines)",
                oneSentence(CliRun.of("profile", allBad.toString(), "--format", "twitter-cache-trace")));

        Path missing = dir.resolve("nothing.zst");
        assertEquals("fluxperf: " + missing + ": no such file or directory", oneSentence(CliRun.of("profile", missing.toString())));

        Path log = csv("t.csv", "0,a,4,10,1,set,60\n");
        assertEquals("fluxperf: --scale: must be between 1 and 1000 copies, not 0",
                oneSentence(CliRun.of("replay", "-l", log.toString(), "--scale", "0")));
        assertTrue(oneSentence(CliRun.of("replay", "-l", log.toString(), "--protocol", "http", "-s", server.address()))
                .startsWith("fluxperf: --protocol http: a cache trace's operations need get, set, delete, incr and decr,"
                        + " and http has no set, incr, decr"));
        Path nowhere = dir.resolve("no-such-dir").resolve("c.toml");
        assertTrue(oneSentence(CliRun.of("profile", log.toString(), "--config-out", nowhere.toString()))
                .startsWith("fluxperf: --config-out: cannot write " + nowhere + ": "));
        assertEquals("fluxperf: --format: unknown format 'twitter'; expected one of " + io.fluxperf.replay.LogFormats.labels(),
                oneSentence(CliRun.of("profile", log.toString(), "--format", "twitter")));
    }
}
