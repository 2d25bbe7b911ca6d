package io.fluxperf.engine.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The JUnit XML, read back with the JDK's XML parser: suites, testcases, failures, and text that needs escaping. */
class JunitXmlTest {
    @TempDir
    Path dir;

    @Test
    void oneTestcasePerObjectiveAndWindowAndOneForTheRun() throws Exception {
        // a workload whose name needs escaping in XML, and objectives whose text does (<, >, &, ")
        List<WorkloadConfig> workloads = List.of(WorkloadConfig.of(Command.GET).withName("get&\"x\""),
                WorkloadConfig.of(Command.SET).withName("set"));
        List<Objective> objectives = Objectives.parse(List.of("get&\"x\".p50<2ms", "set.p99<10ms", "rate>=1000"));
        SloVerdicts v = new SloVerdicts(objectives);
        WindowResult w1 = SloWindows.window(1, 5, 0, workloads);
        WindowResult w2 = SloWindows.window(2, 20, 0, workloads);
        WindowResult w3 = SloWindows.window(3, 5, 0, workloads);
        for (WindowResult w : List.of(w1, w2, w3)) {
            v.window(new ResultFigures(w, workloads));
        }
        v.run(new ResultFigures(w1.merge(0, w2).merge(0, w3), workloads));

        Path file = Files.createDirectories(dir.resolve("reports")).resolve("slo.xml"); // it makes no directory
        try (JunitXml junit = JunitXml.open(file)) {
            junit.write(v, "fluxperf run");
        }
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        Element root = doc.getDocumentElement();
        assertEquals("testsuites", root.getTagName());
        assertEquals("12", root.getAttribute("tests"));
        assertEquals("2", root.getAttribute("failures"), "set.p99 failed in window 2 and over the run");
        NodeList suites = root.getElementsByTagName("testsuite");
        assertEquals(3, suites.getLength());
        assertEquals("get&\"x\".p50<2ms", ((Element) suites.item(0)).getAttribute("name"));
        Element set = (Element) suites.item(1);
        assertEquals("set.p99<10ms", set.getAttribute("name"));
        NodeList cases = set.getElementsByTagName("testcase");
        assertEquals(List.of("window 1", "window 2", "window 3", "run"),
                List.of(name(cases, 0), name(cases, 1), name(cases, 2), name(cases, 3)));
        assertEquals(0, ((Element) cases.item(0)).getElementsByTagName("failure").getLength());
        Element failure = (Element) ((Element) cases.item(1)).getElementsByTagName("failure").item(0);
        assertEquals("set.p99<10ms failed in window 2: measured 20.005 ms", failure.getAttribute("message"));
        assertTrue(failure.getTextContent().contains("measured: 20.005 ms (20004863 ns)"), failure.getTextContent());
        Element runFailure = (Element) ((Element) cases.item(3)).getElementsByTagName("failure").item(0);
        assertEquals("set.p99<10ms failed over the run: measured 20.005 ms", runFailure.getAttribute("message"));
        assertEquals("1.000", ((Element) cases.item(0)).getAttribute("time"));
        assertEquals("0", ((Element) suites.item(2)).getAttribute("failures"), "1100 requests/s in every window");
    }

    private static String name(NodeList cases, int i) {
        return ((Element) cases.item(i)).getAttribute("name");
    }

    @Test
    void aFileNothingWasWrittenToIsRemoved() throws Exception {
        Path file = dir.resolve("never.xml");
        JunitXml.open(file).close();
        assertFalse(Files.exists(file));
    }
}
