package io.fluxperf.engine.slo;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.Test;
import org.xml.sax.SAXException;

/**
 * The JUnit XML ({@code --junit}) against the structure the Jenkins xUnit plugin's junit-10.xsd
 * requires (test resource junit-10-structure.xsd): suites with their name and counts, named test
 * cases, failures with a message, times in its form. CI systems that read it by that schema
 * accept it (issue 46).
 */
class JunitXmlSchemaTest {
    private static Validator validator() throws SAXException {
        SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        Schema schema = f.newSchema(JunitXmlSchemaTest.class.getResource("junit-10-structure.xsd"));
        return schema.newValidator();
    }

    private static String xml(SloVerdicts v) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JunitXml.write(v, "fluxperf report runs/a", out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void passesFailuresAndTextThatNeedsEscapingValidate() throws Exception {
        List<WorkloadConfig> workloads = List.of(WorkloadConfig.of(Command.GET).withName("get&\"x\""),
                WorkloadConfig.of(Command.SET).withName("set"));
        SloVerdicts v = new SloVerdicts(Objectives.parse(List.of("get&\"x\".p50<2ms", "set.p99<10ms", "rate>=1000",
                "success>=99.9%")));
        WindowResult w1 = SloWindows.window(1, 5, 0, workloads);
        WindowResult w2 = SloWindows.window(2, 20, 0, workloads);
        for (WindowResult w : List.of(w1, w2)) {
            v.window(new ResultFigures(w, workloads));
        }
        v.run(new ResultFigures(w1.merge(0, w2), workloads));
        String xml = xml(v);
        assertTrue(xml.contains("<failure"), "a failed objective is in it: " + xml);
        validator().validate(new StreamSource(new StringReader(xml)));
    }

    @Test
    void noObjectiveJudgedYetValidatesToo() throws Exception {
        validator().validate(new StreamSource(new StringReader(xml(new SloVerdicts(Objectives.parse(List.of("p99<1ms")))))));
    }

    @Test
    void theSchemaRefusesWhatTheXunitPluginRefuses() throws Exception {
        // a suite without its counts, a test case without a name: what the schema exists to catch
        String noCounts = "<testsuites><testsuite name=\"p99&lt;1ms\"><testcase name=\"run\"/></testsuite></testsuites>";
        String noName = "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\"><testcase/></testsuite>"
                + "</testsuites>";
        String badTime = "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\" time=\"1.5s\"/></testsuites>";
        for (String bad : List.of(noCounts, noName, badTime)) {
            assertThrows(SAXException.class, () -> validator().validate(new StreamSource(new StringReader(bad))), bad);
        }
    }
}
