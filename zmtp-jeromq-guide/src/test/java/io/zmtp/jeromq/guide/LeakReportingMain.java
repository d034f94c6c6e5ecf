package io.zmtp.jeromq.guide;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Runs a program's {@code main} in a child JVM on zmtp-jeromq, then makes Netty's leak detector report: at exit
 * (the program's end or the test's SIGTERM) it collects garbage and allocates, which is when Netty reports each
 * buffer that was collected unreleased. The reports are printed straight to stderr as "LEAK:" lines (not through a
 * logger, which may already be shut down when the hook runs); {@link GuideProcess} fails the test on such a line.
 *
 * <p>Arguments: the program's class name, then its arguments.
 */
public final class LeakReportingMain {
    private LeakReportingMain() {}

    public static void main(String[] args) throws Throwable {
        // Before the program touches Netty: its detectors are static finals, made by the factory in place then.
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new PrintingFactory());
        Runtime.getRuntime().addShutdownHook(new Thread(LeakReportingMain::flushLeakReports, "leak-report"));
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void flushLeakReports() {
        for (int round = 0; round < 3; round++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            // The detector reports what the collector queued when the next buffer is tracked.
            ByteBufAllocator.DEFAULT.buffer(1).release();
        }
    }

    /** Makes detectors that print their reports to stderr. */
    private static final class PrintingFactory extends ResourceLeakDetectorFactory {
        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                long maxActive) {
            return new PrintingDetector<>(resource, samplingInterval);
        }

        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
            return new PrintingDetector<>(resource, samplingInterval);
        }
    }

    private static final class PrintingDetector<T> extends ResourceLeakDetector<T> {
        PrintingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            System.err.println("LEAK: " + resourceType + ".release() was not called" + records);
            System.err.flush();
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            System.err.println("LEAK: " + resourceType + ".release() was not called (untraced)");
            System.err.flush();
        }
    }
}
