import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.Test;
import org.junit.internal.runners.statements.FailOnTimeout;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Runner;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runners.BlockJUnit4ClassRunner;
import org.junit.runners.model.FrameworkMethod;
import org.junit.runners.model.InitializationError;
import org.junit.runners.model.Statement;

/**
 * Runs one JUnit 4 test class for jeromq-tests.sh and writes one line per test method to a result file, as soon as
 * it is known, so that a JVM killed by the script's time limit still leaves the finished tests behind:
 *
 * <pre>
 * TEST Class#method          the method exists (written before anything runs)
 * PASS Class#method [reruns]  it passed, after that many reruns
 * FAIL Class#method reason    it failed every run (the first run's reason)
 * SKIP Class#method           {@code @Ignore}d, or an assumption failed
 * </pre>
 *
 * A test without a {@code @Test(timeout)} of its own gets the default time limit (JUnit's {@code FailOnTimeout}, the
 * test runs on a thread of its own and is abandoned when late). A test that failed is run again up to the rerun count,
 * alone: JeroMQ's build reruns a failing test up to 5 times (surefire's {@code rerunFailingTestsCount}).
 *
 * <p>Usage: {@code AcceptanceRunner CLASS RESULT-FILE TIMEOUT-SECONDS RERUNS}
 */
public final class AcceptanceRunner {
    private AcceptanceRunner() {
    }

    /** JUnit 4's runner with a time limit for every test method that has none. */
    public static final class LimitedRunner extends BlockJUnit4ClassRunner {
        private final long limitSeconds;

        LimitedRunner(Class<?> testClass, long limitSeconds) throws InitializationError {
            super(testClass);
            this.limitSeconds = limitSeconds;
        }

        @Override
        @SuppressWarnings("deprecation")
        protected Statement withPotentialTimeout(FrameworkMethod method, Object test, Statement next) {
            Test annotation = method.getAnnotation(Test.class);
            if (annotation != null && annotation.timeout() > 0) {
                return super.withPotentialTimeout(method, test, next);
            }
            return FailOnTimeout.builder().withTimeout(limitSeconds, TimeUnit.SECONDS).build(next);
        }
    }

    /** What one run of a set of tests gave. */
    private static final class Outcome extends RunListener {
        final Map<String, String> failures = new LinkedHashMap<>();
        final List<String> skipped = new ArrayList<>();
        final List<String> finished = new ArrayList<>();
        String classFailure;

        @Override
        public void testFailure(Failure failure) {
            Description d = failure.getDescription();
            String reason = reason(failure.getException());
            if (d.getMethodName() == null) {
                classFailure = reason;
            } else {
                failures.putIfAbsent(id(d), reason);
            }
        }

        @Override
        public void testAssumptionFailure(Failure failure) {
            if (failure.getDescription().getMethodName() != null) {
                skipped.add(id(failure.getDescription()));
            }
        }

        @Override
        public void testIgnored(Description d) {
            if (d.getMethodName() != null) {
                skipped.add(id(d));
            } else {
                // A whole @Ignore'd class: its methods.
                for (Description child : d.getChildren()) {
                    skipped.add(id(child));
                }
            }
        }

        @Override
        public void testFinished(Description d) {
            finished.add(id(d));
        }
    }

    private static String id(Description d) {
        return d.getClassName() + "#" + d.getMethodName();
    }

    private static String reason(Throwable t) {
        String text = t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        return text.replaceAll("\\s+", " ");
    }

    private static void methods(Description d, List<Description> into) {
        if (d.getMethodName() != null && d.getChildren().isEmpty()) {
            into.add(d);
        }
        for (Description child : d.getChildren()) {
            methods(child, into);
        }
    }

    private static Runner runner(Class<?> type, long limit) throws InitializationError {
        if (type.isAnnotationPresent(org.junit.runner.RunWith.class)) {
            return Request.aClass(type).getRunner();
        }
        return new LimitedRunner(type, limit);
    }

    public static void main(String[] args) throws Exception {
        Class<?> type = Class.forName(args[0]);
        long limit = Long.parseLong(args[2]);
        int reruns = Integer.parseInt(args[3]);
        try (PrintStream out = new PrintStream(new FileOutputStream(args[1], true), true, StandardCharsets.UTF_8)) {
            run(type, limit, reruns, out);
        }
        // Abandoned tests may have left non-daemon threads behind.
        System.exit(0);
    }

    private static void run(Class<?> type, long limit, int reruns, PrintStream out) throws IOException {
        Runner first;
        try {
            first = runner(type, limit);
        } catch (InitializationError e) {
            out.println("FAIL " + type.getName() + "#<class> cannot run: " + e.getCauses());
            return;
        }
        List<Description> methods = new ArrayList<>();
        methods(first.getDescription(), methods);
        for (Description d : methods) {
            out.println("TEST " + id(d));
        }
        JUnitCore core = new JUnitCore();
        Outcome outcome = new Outcome();
        core.addListener(outcome);
        core.run(Request.runner(first));
        for (Description d : methods) {
            String id = id(d);
            if (outcome.skipped.contains(id)) {
                out.println("SKIP " + id);
                continue;
            }
            String failure = outcome.failures.get(id);
            if (failure == null && outcome.classFailure != null) {
                failure = "class failed: " + outcome.classFailure;
            }
            if (failure == null && !outcome.finished.contains(id)) {
                failure = "did not run";
            }
            if (failure == null) {
                out.println("PASS " + id + " 0");
                continue;
            }
            int passedAfter = -1;
            for (int i = 1; i <= reruns && passedAfter < 0; i++) {
                if (rerun(type, d, limit)) {
                    passedAfter = i;
                }
            }
            out.println(passedAfter > 0 ? "PASS " + id + " " + passedAfter : "FAIL " + id + " " + failure);
        }
    }

    private static boolean rerun(Class<?> type, Description method, long limit) {
        try {
            Runner runner = runner(type, limit);
            Filter only = Filter.matchMethodDescription(method);
            JUnitCore core = new JUnitCore();
            Outcome outcome = new Outcome();
            core.addListener(outcome);
            core.run(Request.runner(runner).filterWith(only));
            String id = id(method);
            return outcome.classFailure == null && !outcome.failures.containsKey(id) && outcome.finished.contains(id)
                    && !outcome.skipped.contains(id);
        } catch (InitializationError e) {
            return false;
        }
    }
}
