package io.zmtp.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakTracker;
import org.junit.jupiter.api.Test;

class LeakCollectorTest {

    static final class Resource {}

    @Test
    void reportsAnObjectCollectedWhileStillTracked() {
        LeakCollector collector = new LeakCollector();
        collector.logging(false);
        ResourceLeakDetector<Resource> detector = collector.newDetector(Resource.class, 1);

        leak(detector);
        collector.drain(5);

        assertThat(collector.takeLeaks()).singleElement().asString().contains("Resource.release() was not called");
        assertThat(collector.takeLeaks()).as("each leak is handed out once").isEmpty();
    }

    @Test
    void closedTrackerIsNotALeak() {
        LeakCollector collector = new LeakCollector();
        ResourceLeakDetector<Resource> detector = collector.newDetector(Resource.class, 1);

        Resource resource = new Resource();
        detector.trackForcibly(resource).close(resource);
        collector.drain(3);

        assertThat(collector.takeLeaks()).isEmpty();
    }

    @Test
    void installedCollectorSeesRealByteBufLeaks() {
        LeakCollector installed = LeakCheckExtension.collector();
        assertThat(installed.created(ByteBuf.class)).isTrue();
        // Only paranoid (the level the build runs tests at) tracks every buffer.
        if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
            return;
        }

        installed.logging(false);
        try {
            leakBuffer();
            installed.drain(5);
        } finally {
            installed.logging(true);
        }

        // Taking the leak here keeps LeakCheckExtension itself from failing this test.
        assertThat(installed.takeLeaks()).anySatisfy(leak -> assertThat(leak).contains("LEAK: ByteBuf.release()"));
    }

    // Separate frames so no live local still references the leaked object when the GC runs.
    private static void leak(ResourceLeakDetector<Resource> detector) {
        ResourceLeakTracker<Resource> unused = detector.trackForcibly(new Resource());
    }

    private static void leakBuffer() {
        ByteBuf buf = ByteBufAllocator.DEFAULT.heapBuffer(8);
        buf.writeLong(42);
    }
}
