package io.zmtp.socket.internal;

import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.Validate;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A hand-written scenario for a model-checking test: the threads and the operations each runs, by name (operations
 * without parameters), followed by the test's {@code @Validate} function. Lincheck's own builder is a Kotlin DSL;
 * this is the same scenario from Java. A test adds the scenario its defect needs, so that the model checker explores
 * that scenario's interleavings in every run, before the random ones.
 */
final class LincheckScenarios {
    private LincheckScenarios() {
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
