package io.fluxperf.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field of a class with {@code @ExtendWith(RealServers.class)}, which {@link RealServers} fills
 * with a real server (a {@link MemcachedProcess}, {@link RedisProcess} or {@link NginxProcess}) on
 * a free 127.0.0.1 port, and stops when the field's scope ends: a static field holds one server
 * for the whole class, an instance field one for each test instance (each test, unless the class
 * is {@code @TestInstance(PER_CLASS)}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface RealServer {
}
