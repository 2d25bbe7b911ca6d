package io.fluxperf.engine.pause;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.ArrayList;
import java.util.List;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's stop-the-world collections as they end, from its collectors' notifications
 * ({@link GarbageCollectionNotificationInfo}), as evidence of pauses. Collectors that work beside
 * the application (ZGC's and Shenandoah's "Cycles", G1's "Concurrent GC") report no pause and are
 * left out. The JVM gives times in whole ms since its start; they are moved onto
 * {@link System#nanoTime()} when the notification arrives.
 */
final class GcPauses implements NotificationListener, AutoCloseable {
    private final PauseEvents events;
    private final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
    private final List<NotificationEmitter> emitters = new ArrayList<>();

    GcPauses(PauseEvents events) {
        this.events = events;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter e && stopsTheWorld(gc.getName())) {
                e.addNotificationListener(this, n -> GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
                        .equals(n.getType()), null);
                emitters.add(e);
            }
        }
    }

    static boolean stopsTheWorld(String collector) {
        return !collector.contains("Cycles") && !collector.contains("Concurrent");
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long nowNanos = System.nanoTime();
        long uptimeMillis = runtime.getUptime();
        long startMillis = info.getGcInfo().getStartTime();
        long durationMillis = info.getGcInfo().getDuration();
        long start = nowNanos - (uptimeMillis - startMillis) * 1_000_000L;
        events.add(new PauseEvents.Event(start, start + durationMillis * 1_000_000L, PauseEvents.Kind.GC,
                durationMillis * 1_000_000L));
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // already gone
            }
        }
        emitters.clear();
    }
}
