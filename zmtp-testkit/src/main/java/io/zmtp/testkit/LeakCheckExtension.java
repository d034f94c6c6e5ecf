package io.zmtp.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test (afterEach) or its class (afterAll) when Netty's ResourceLeakDetector reports a leak.
 *
 * <p>Registered for every test class of a module that has zmtp-testkit on its test classpath, through
 * {@code META-INF/services} and the {@code junit-platform.properties} shipped in this jar. Run tests with
 * {@code -Dio.netty.leakDetection.level=paranoid} (the root pom does) so every buffer is tracked.
 */
public final class LeakCheckExtension implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    private static final LeakCollector COLLECTOR = new LeakCollector();

    static {
        // Netty keeps its detectors in static finals (e.g. AbstractByteBuf.leakDetector), so the factory
        // must be in place before those classes initialise. JUnit instantiates autodetected extensions
        // before it runs any test class, which is early enough.
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(COLLECTOR.factory());
        // Initialises AbstractByteBuf now, with our factory.
        ByteBufAllocator.DEFAULT.buffer(1).release();
    }

    static LeakCollector collector() {
        return COLLECTOR;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!COLLECTOR.created(ByteBuf.class)) {
            throw new IllegalStateException("LeakCheckExtension was installed after Netty created its ByteBuf leak"
                    + " detector, so it cannot see buffer leaks. Something initialised Netty buffers before JUnit"
                    + " loaded extensions (e.g. a static ByteBuf in a class used during discovery).");
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        // One short round per test keeps suites fast and still pins most leaks on the test that made them.
        check(1, context.getDisplayName());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        check(4, context.getDisplayName());
    }

    private static void check(int gcRounds, String where) {
        COLLECTOR.drain(gcRounds);
        List<String> leaks = COLLECTOR.takeLeaks();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty resource leak(s) detected by the end of " + where
                    + ":\n\n" + String.join("\n\n", leaks));
        }
    }
}
