package io.fluxperf.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fluxperf.engine.load.RunListener;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A listener added to RunListener must be forwarded too, or a wrapped report silently loses its events. */
class ForwardingListenerTest {
    @Test
    void forwardsEveryMethodOfRunListener() {
        List<String> missing = new ArrayList<>();
        for (Method m : RunListener.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                ForwardingListener.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                missing.add(m.getName());
            }
        }
        assertEquals(List.of(), missing, "ForwardingListener does not forward these RunListener methods");
    }
}
