package io.zmtp.testkit;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Creates Netty leak detectors that record what they report, so a test can fail on it instead of
 * a leak only showing up as an ERROR log line that nobody reads.
 *
 * <p>Uses only API that Netty 4.1 and 4.2 share (the detector constructor, the two protected report
 * hooks, {@code needReport()} and {@code trackForcibly}).
 */
final class LeakCollector {

    private final Queue<String> leaks = new ConcurrentLinkedQueue<>();
    private final List<Recording<?>> detectors = new CopyOnWriteArrayList<>();
    // Off only while a test leaks on purpose, so the build log shows no LEAK errors that are expected.
    private volatile boolean logging = true;

    void logging(boolean enabled) {
        logging = enabled;
    }

    <T> ResourceLeakDetector<T> newDetector(Class<T> resource, int samplingInterval) {
        Recording<T> detector = new Recording<>(resource, samplingInterval);
        detectors.add(detector);
        return detector;
    }

    ResourceLeakDetectorFactory factory() {
        return new ResourceLeakDetectorFactory() {
            @Override
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
                return newDetector(resource, samplingInterval);
            }

            // Abstract (and deprecated) in both 4.1 and 4.2; maxActive has been ignored by Netty for years.
            @Override
            @SuppressWarnings("deprecation")
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(
                    Class<T> resource, int samplingInterval, long maxActive) {
                return newDetector(resource, samplingInterval);
            }
        };
    }

    boolean created(Class<?> resource) {
        String name = resource.getSimpleName();
        return detectors.stream().anyMatch(d -> d.resourceName.equals(name));
    }

    /**
     * Gets leaked objects reported. A detector only polls its reference queue when it tracks a new
     * object, and the queue only fills after a GC has cleared the leaked object and the reference
     * handler thread has enqueued it, hence several rounds of GC, pause and forced tracking.
     */
    void drain(int rounds) {
        for (int i = 0; i < rounds; i++) {
            System.gc();
            try {
                Thread.sleep(10L * (i + 1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            for (Recording<?> detector : detectors) {
                detector.poll();
            }
        }
    }

    /** Returns and forgets the leaks recorded so far, so each is reported once. */
    List<String> takeLeaks() {
        List<String> taken = new ArrayList<>();
        for (String leak; (leak = leaks.poll()) != null; ) {
            taken.add(leak);
        }
        return taken;
    }

    private final class Recording<T> extends ResourceLeakDetector<T> {
        final String resourceName;

        Recording(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
            this.resourceName = resource.getSimpleName();
        }

        // Netty skips detection entirely when its logger has ERROR disabled (e.g. slf4j without a binding).
        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            leaks.add("LEAK: " + resourceType + ".release() was not called before it was garbage-collected."
                    + records);
            if (logging) {
                super.reportTracedLeak(resourceType, records);
            }
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            leaks.add("LEAK: " + resourceType + ".release() was not called before it was garbage-collected"
                    + " (no access records; run with -Dio.netty.leakDetection.level=paranoid).");
            if (logging) {
                super.reportUntracedLeak(resourceType);
            }
        }

        @SuppressWarnings("unchecked")
        void poll() {
            // trackForcibly reports queued leaks whatever the detection level; the probe itself is
            // closed at once so it is never reported.
            Object probe = new Object();
            ResourceLeakTracker<T> tracker = trackForcibly((T) probe);
            tracker.close((T) probe);
        }
    }
}
