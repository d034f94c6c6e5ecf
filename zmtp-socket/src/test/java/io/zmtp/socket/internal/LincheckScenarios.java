package io.zmtp.socket.internal;

import com.sun.management.OperatingSystemMXBean;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Validate;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the model-checking tests (*LincheckTest) share: their budget, and hand-written scenarios.
 *
 * <p>A hand-written scenario names the threads and the operations each runs (operations without parameters),
 * followed by the test's {@code @Validate} function; Lincheck's own builder is a Kotlin DSL, this is the same from
 * Java. A test adds the scenario its defect needs, so that every run explores that scenario's interleavings before
 * the random ones.
 */
final class LincheckScenarios {
    /**
     * Multiplies every test's budget (iterations): {@code -Dlincheck.scale=20} for a long run. The defaults keep the
     * whole suite within a few minutes of CI on 2 cores.
     */
    private static final int SCALE = Integer.getInteger("lincheck.scale", 1);

    private LincheckScenarios() {
    }

    /**
     * Model checking with {@code iterations} random scenarios (times the scale) of up to {@code invocations}
     * interleavings each, and no operations before or after the parallel part: the test's constructor sets the
     * state up.
     */
    static ModelCheckingOptions modelChecking(int iterations, int invocations) {
        return new ModelCheckingOptions()
                .iterations(iterations * SCALE)
                .invocationsPerIteration(invocations)
                .actorsBefore(0)
                .actorsAfter(0);
    }

    /**
     * Runs the check, and prints what it cost (wall and this JVM's CPU time): CI's log then says where the suite's
     * minutes go.
     */
    static void check(ModelCheckingOptions options, Class<?> test) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        try {
            options.check(test);
        } finally {
            long cpu = os.getProcessCpuTime() - cpu0;
            System.out.printf("%s: %.1f s wall, %.1f s CPU%n", test.getSimpleName(), (System.nanoTime() - t0) / 1e9,
                    cpu / 1e9);
        }
    }

    /** {@code threads[i]}: the operations thread {@code i} runs, in order. */
    static ExecutionScenario parallel(Class<?> test, String[]... threads) {
        List<List<Actor>> parallel = new ArrayList<>();
        for (String[] ops : threads) {
            List<Actor> actors = new ArrayList<>();
            for (String op : ops) {
                actors.add(new Actor(method(test, op), List.of()));
            }
            parallel.add(actors);
        }
        return new ExecutionScenario(List.of(), parallel, List.of(), validation(test));
    }

    private static Method method(Class<?> test, String name) {
        try {
            return test.getMethod(name);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("no operation " + name + " in " + test.getName(), e);
        }
    }

    private static Actor validation(Class<?> test) {
        Method found = Arrays.stream(test.getMethods()).filter(m -> m.isAnnotationPresent(Validate.class))
                .findFirst().orElse(null);
        return found == null ? null : new Actor(found, List.of());
    }
}
