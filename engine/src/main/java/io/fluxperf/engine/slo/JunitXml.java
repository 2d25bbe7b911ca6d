package io.fluxperf.engine.slo;

import io.fluxperf.engine.UserError;
import io.fluxperf.trace.FileErrors;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The verdicts as JUnit XML ({@code --junit FILE}), the test-result format CI servers read: one
 * {@code <testsuite>} per objective, named by it, with one {@code <testcase>} per window
 * ({@code window 1}, …) and one for the whole run ({@code run}); a failed one carries a
 * {@code <failure>} with the measured value. Built as a DOM and serialized by the JDK, which
 * escapes the objectives' {@code <} and {@code >}. The file is opened before the load
 * ({@link #open}), so that a run never learns at its end that it cannot be written.
 */
public final class JunitXml implements AutoCloseable {
    private final Path path;
    private final boolean isNew;
    private OutputStream out;
    private boolean written;

    private JunitXml(Path path, boolean isNew, OutputStream out) {
        this.path = path;
        this.isNew = isNew;
        this.out = out;
    }

    /**
     * Opens {@code path} for writing, in a directory that exists: the commands refuse a missing one
     * before any load, so that a mistyped path makes no directories.
     *
     * @throws UserError naming --junit, the path and why it cannot be written
     */
    public static JunitXml open(Path path) {
        try {
            boolean isNew = !Files.exists(path);
            return new JunitXml(path, isNew, Files.newOutputStream(path, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UserError("--junit: cannot write " + path + ": " + FileErrors.describe(e), e);
        }
    }

    /**
     * Writes the verdicts and closes the file.
     *
     * @param suite what was run, e.g. "fluxperf run" (the root element's name)
     */
    public void write(SloVerdicts verdicts, String suite) {
        try (OutputStream o = out) {
            write(verdicts, suite, o);
            written = true;
        } catch (IOException e) {
            throw new UserError("--junit: cannot write " + path + ": " + FileErrors.describe(e), e);
        } finally {
            out = null;
        }
    }

    /** Writes the verdicts as JUnit XML to {@code o}, leaving it open. */
    public static void write(SloVerdicts verdicts, String suite, OutputStream o) throws IOException {
        Document doc;
        try {
            doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML builder is not available", e);
        }
        Element root = doc.createElement("testsuites");
        doc.appendChild(root);
        root.setAttribute("name", suite);
        int tests = 0;
        int failures = 0;
        for (Objective objective : verdicts.objectives()) {
            List<Verdict> vs = verdicts.of(objective);
            Element s = doc.createElement("testsuite");
            root.appendChild(s);
            long failed = vs.stream().filter(v -> !v.passed()).count();
            s.setAttribute("name", objective.text());
            s.setAttribute("tests", Integer.toString(vs.size()));
            s.setAttribute("failures", Long.toString(failed));
            s.setAttribute("errors", "0");
            s.setAttribute("skipped", "0");
            Verdict run = verdicts.runOf(objective);
            s.setAttribute("time", seconds(run != null ? run.seconds() : vs.stream().mapToDouble(Verdict::seconds).sum()));
            tests += vs.size();
            failures += (int) failed;
            // the schema Jenkins' xUnit plugin checks against allows properties on a testsuite, not on a testcase
            Element properties = doc.createElement("properties");
            s.appendChild(properties);
            property(doc, properties, "strict", Boolean.toString(objective.strict()));
            if (verdicts.trust() != null) {
                property(doc, properties, "trust", verdicts.trust().text());
            }
            for (Verdict v : vs) {
                Element c = doc.createElement("testcase");
                s.appendChild(c);
                c.setAttribute("classname", objective.text());
                c.setAttribute("name", v.where());
                c.setAttribute("time", seconds(v.seconds()));
                Element out = doc.createElement("system-out");
                if (!v.passed()) {
                    Element f = doc.createElement("failure");
                    f.setAttribute("type", "objective failed");
                    f.setAttribute("message", objective.text() + " failed " + (v.window() == 0 ? "over the run" : "in " + v.where())
                            + ": measured "
                            + v.measuredText());
                    f.setTextContent("objective: " + objective.text() + "\nmeasured: " + v.measuredText()
                            + (Double.isNaN(v.measured()) ? "" : " (" + raw(v) + " " + objective.measure().unit() + ")")
                            + "\nwhere: " + v.where() + "\n");
                    c.appendChild(f);
                }
                out.setTextContent("measured: " + v.measuredText() + (v.hasInterval() ? " " + v.intervalText() + ", "
                        + v.call().label() : "") + (verdicts.trust() != null && !verdicts.trust().good()
                        ? "\ntrust: " + verdicts.trust().text() + " (the run does not trust its own figures)" : ""));
                c.appendChild(out);
            }
        }
        root.setAttribute("tests", Integer.toString(tests));
        root.setAttribute("failures", Integer.toString(failures));
        try {
            Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.INDENT, "yes");
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            t.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
            t.transform(new DOMSource(doc), new StreamResult(o));
        } catch (TransformerException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getMessage(), e);
        }
    }

    private static void property(Document doc, Element properties, String name, String value) {
        Element p = doc.createElement("property");
        p.setAttribute("name", name);
        p.setAttribute("value", value);
        properties.appendChild(p);
    }

    private static String raw(Verdict v) {
        double m = v.measured();
        return m == Math.rint(m) && Math.abs(m) < 1e15 ? Long.toString((long) m) : String.format(Locale.ROOT, "%.3f", m);
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }

    /** Closes the file; one nothing was written to is removed again when the run made it. */
    @Override
    public void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // nothing was written to it
            }
            out = null;
        }
        if (!written && isNew) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // an empty file stays; the run's own error says what went wrong
            }
        }
    }
}
