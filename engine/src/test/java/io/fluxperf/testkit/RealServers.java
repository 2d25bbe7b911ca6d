package io.fluxperf.testkit;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;

/**
 * Real servers for a test, each started on a free 127.0.0.1 port and stopped when its scope ends.
 * A class declares {@code @ExtendWith(RealServers.class)} and then takes a {@link MemcachedProcess},
 * {@link RedisProcess} or {@link NginxProcess} where it needs one:
 *
 * <ul>
 *   <li>as a parameter of a test, {@code @BeforeEach} or {@code @AfterEach} method: a server for that
 *       test, stopped after the test's {@code @AfterEach} methods;</li>
 *   <li>as a parameter of a {@code @BeforeAll} method: a server for the class, stopped after its
 *       {@code @AfterAll} methods;</li>
 *   <li>as a {@link RealServer} field: a static field holds a server for the class (there before
 *       the {@code @BeforeAll} methods run), an instance field one for the test instance (there
 *       before the {@code @BeforeEach} methods run; a server per test unless the class is
 *       {@code @TestInstance(PER_CLASS)}).</li>
 * </ul>
 *
 * <p>Every declaration is a server of its own: a test that takes two {@code MemcachedProcess}
 * parameters gets two memcacheds. Each starts as its class's {@code start()} does without
 * arguments; a test that needs other arguments (a TLS port, a UDP port, a Unix socket, a password)
 * starts its own in a try-with-resources block, as before.
 */
public final class RealServers implements ParameterResolver, BeforeAllCallback, BeforeEachCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RealServers.class);
    private static final Map<Class<?>, Supplier<ExternalServer>> STARTERS = Map.of(
            MemcachedProcess.class, () -> MemcachedProcess.start(),
            RedisProcess.class, () -> RedisProcess.start(),
            NginxProcess.class, NginxProcess::start);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return STARTERS.containsKey(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return start(parameter.getParameter().getType(), context);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IllegalAccessException {
        Class<?> testClass = context.getRequiredTestClass();
        for (Field field : serverFields(testClass)) {
            if (Modifier.isStatic(field.getModifiers())) {
                field.set(null, start(field.getType(), context));
            }
        }
        // a PER_CLASS instance (and the enclosing ones of a @Nested one) lives as long as the class:
        // so do the servers in its fields
        if (context.getTestInstanceLifecycle().orElse(null) == TestInstance.Lifecycle.PER_CLASS) {
            for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
                fillInstanceFields(instance, context);
            }
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IllegalAccessException {
        // the enclosing instances of a @Nested test too; a PER_CLASS instance was filled before all
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            fillInstanceFields(instance, context);
        }
    }

    private static void fillInstanceFields(Object instance, ExtensionContext context) throws IllegalAccessException {
        for (Field field : serverFields(instance.getClass())) {
            if (!Modifier.isStatic(field.getModifiers()) && field.get(instance) == null) {
                field.set(instance, start(field.getType(), context));
            }
        }
    }

    private static List<Field> serverFields(Class<?> testClass) {
        List<Field> fields = AnnotationSupport.findAnnotatedFields(testClass, RealServer.class, f -> true,
                HierarchyTraversalMode.TOP_DOWN);
        for (Field field : fields) {
            if (!STARTERS.containsKey(field.getType())) {
                throw new ExtensionConfigurationException("@RealServer field " + field.getName() + " of "
                        + testClass.getSimpleName() + " is a " + field.getType().getSimpleName()
                        + "; RealServers starts MemcachedProcess, RedisProcess and NginxProcess");
            }
            if (Modifier.isFinal(field.getModifiers())) {
                throw new ExtensionConfigurationException("@RealServer field " + field.getName() + " of "
                        + testClass.getSimpleName() + " is final: RealServers cannot fill it");
            }
            field.setAccessible(true);
        }
        return fields;
    }

    /**
     * Starts a server of {@code type} and leaves it in the scope's store: JUnit closes the
     * AutoCloseable values of a store when the scope ends, so the server stops even when the test
     * or a lifecycle method fails.
     */
    private static ExternalServer start(Class<?> type, ExtensionContext context) {
        ExternalServer server = STARTERS.get(type).get();
        context.getStore(NAMESPACE).put(server, server);
        return server;
    }
}
