package io.zmtp.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs sample classes (static nested classes, which neither surefire nor JUnit pick up by themselves) through a
 * Launcher of its own, with the extensions and junit-platform.properties of this jar, as every module's tests run.
 * The samples' timeouts are short; their sleeps are far longer than any factor would make those.
 */
class ScaledTimeoutExtensionTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    static final class NoTimeout {
        @Test
        void takesAWhile() throws InterruptedException {
            Thread.sleep(300);
        }
    }

    @Timeout(value = 200, unit = TimeUnit.MILLISECONDS)
    static final class AnnotatedClass {
        @Test
        void quick() {
        }

        @Test
        void hangs() throws InterruptedException {
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }

        @Test
        @Timeout(value = 5, unit = TimeUnit.MINUTES)
        void ownTimeoutWins() throws InterruptedException {
            Thread.sleep(500);
        }
    }

    static final class SeparateThread {
        @Test
        @Timeout(value = 200, unit = TimeUnit.MILLISECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
        void hangs() throws InterruptedException {
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }

        @Test
        @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
        void failsByItself() {
            throw new IllegalStateException("its own failure");
        }
    }

    static final class LifecycleTimeout {
        @BeforeEach
        @Timeout(value = 200, unit = TimeUnit.MILLISECONDS)
        void setUp() throws InterruptedException {
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }

        @Test
        void test() {
        }
    }

    @Test
    void shouldFailATestThatRunsPastItsClassTimeoutAndPassTheOthers() {
        Map<String, TestExecutionResult> results = run(AnnotatedClass.class);

        assertThat(results.get("quick()").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(results.get("ownTimeoutWins()").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertTimedOut(results.get("hangs()"));
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains(AnnotatedClass.class.getName() + ".hangs ran past its @Timeout")
                .contains("java.lang.Thread.sleep");
    }

    @Test
    void shouldLeaveATestWithoutTimeoutAlone() {
        Map<String, TestExecutionResult> results = run(NoTimeout.class);

        assertThat(results.get("takesAWhile()").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void shouldFailATestRunInASeparateThreadAndKeepItsOwnFailure() {
        Map<String, TestExecutionResult> results = run(SeparateThread.class);

        assertTimedOut(results.get("hangs()"));
        assertThat(results.get("failsByItself()").getThrowable().orElseThrow())
                .isInstanceOf(IllegalStateException.class).hasMessage("its own failure");
    }

    @Test
    void shouldApplyALifecycleMethodsOwnTimeout() {
        Map<String, TestExecutionResult> results = run(LifecycleTimeout.class);

        assertTimedOut(results.get("test()"));
    }

    private static void assertTimedOut(TestExecutionResult result) {
        assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(result.getThrowable().orElseThrow()).isInstanceOf(TimeoutException.class)
                .hasMessageContaining("timed out after " + TestTimeouts.scaled(Duration.ofMillis(200)));
        assertThat(Thread.interrupted()).as("the interrupt does not leak into the launching thread").isFalse();
    }

    /**
     * Runs the sample's tests and returns each test's result by its display name. What they print (the thread dumps
     * of those that time out) goes to {@link #printed}, not into the build's log, where it would look like a hang.
     */
    private Map<String, TestExecutionResult> run(Class<?> sample) {
        Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
        PrintStream err = System.err;
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(sample))
                    .build(), new TestExecutionListener() {
                @Override
                public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                    if (id.isTest()) {
                        results.put(id.getDisplayName(), result);
                    }
                }
            });
        } finally {
            System.setErr(err);
        }
        return results;
    }
}
