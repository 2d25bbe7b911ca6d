package io.fluxperf.engine.rundir;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.run.RunReport;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The run directory's recorder stands between a run and its report: a report step it does not
 * forward would vanish from the printed report of every run with --out, and one it does not record
 * would be missing from the report made again. So it must override every step a report has.
 */
class RecorderForwardsTest {
    @Test
    void theRecorderOverridesEveryStepOfAReport() {
        Class<?> recorder = null;
        for (Class<?> c : RunDirectoryWriter.class.getDeclaredClasses()) {
            if (c.getSimpleName().equals("Recorder")) {
                recorder = c;
            }
        }
        assertTrue(recorder != null, "RunDirectoryWriter has its Recorder");
        List<String> missing = new ArrayList<>();
        for (Method m : RunReport.class.getMethods()) {
            try {
                recorder.getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                missing.add(m.getName());
            }
        }
        assertTrue(missing.isEmpty(), "RunDirectoryWriter.Recorder does not forward " + missing
                + ": forward each to the report, and record what the report prints (ReportRebuild)");
    }
}
