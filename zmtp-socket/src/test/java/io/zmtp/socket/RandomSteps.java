package io.zmtp.socket;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Property checks over random sequences of steps, for the socket-type properties (*PropertiesIT): {@code tries}
 * runs, each with a setting (a transport, say) and a sequence of steps generated from its own seed; the first that
 * fails is shrunk (steps dropped one at a time while it still fails, the setting kept, within a bounded number of
 * reruns) and reported with its seed and the shortest failing sequence found.
 * {@code -Dzmtp.property.seed=N} reruns one seed; {@code -Dzmtp.property.tries=N} runs more (or fewer) tries.
 *
 * <p>Written here rather than taken from jqwik: from 1.10 on jqwik's maintainer asks that the library not be used by
 * AI coding agents, which write much of this project, and it prints an instruction aimed at them into every test
 * run's output; see docs/RELIABILITY.md.
 */
final class RandomSteps {
    private static final int SHRINK_RERUNS = 40;

    private RandomSteps() {
    }

    /**
     * Runs {@code property} on {@code tries} generated settings and sequences (or on the one seed given by
     * {@code zmtp.property.seed}); throws the first failure, shrunk, with how to reproduce it.
     */
    static <C, S> void check(int tries, Function<SplittableRandom, C> setting,
                             Function<SplittableRandom, List<S>> generator, BiConsumer<C, List<S>> property) {
        String fixed = System.getProperty("zmtp.property.seed");
        long base = fixed != null ? Long.parseLong(fixed) : new SplittableRandom().nextLong();
        int n = fixed != null ? 1 : Integer.getInteger("zmtp.property.tries", tries);
        for (int i = 0; i < n; i++) {
            long seed = base + i;
            SplittableRandom random = new SplittableRandom(seed);
            C c = setting.apply(random);
            List<S> steps = generator.apply(random);
            AssertionError failure = run(property, c, steps);
            if (failure != null) {
                Shrunk<S> shrunk = shrink(property, c, steps, failure);
                AssertionError report = new AssertionError("property failed with -Dzmtp.property.seed=" + seed
                        + " (try " + (i + 1) + " of " + n + ")\n  setting: " + c + "\n  steps: " + steps
                        + "\n  " + failure.getMessage()
                        + "\n  shrunk to " + shrunk.steps().size() + " steps: " + shrunk.steps()
                        + (shrunk.failure() != failure ? "\n  " + shrunk.failure().getMessage() : ""), failure);
                throw report;
            }
        }
    }

    private static <C, S> AssertionError run(BiConsumer<C, List<S>> property, C setting, List<S> steps) {
        try {
            property.accept(setting, steps);
            return null;
        } catch (AssertionError e) {
            return e;
        } catch (RuntimeException e) {
            return new AssertionError(e.toString(), e);
        }
    }

    /** The shortest failing sequence found, and how it failed. */
    private record Shrunk<S>(List<S> steps, AssertionError failure) {
    }

    private static <C, S> Shrunk<S> shrink(BiConsumer<C, List<S>> property, C setting, List<S> failing,
                                           AssertionError failure) {
        List<S> current = new ArrayList<>(failing);
        AssertionError currentFailure = failure;
        int reruns = 0;
        for (int i = current.size() - 1; i >= 0 && reruns < SHRINK_RERUNS; i--) {
            List<S> candidate = new ArrayList<>(current);
            candidate.remove(i);
            reruns++;
            AssertionError candidateFailure = run(property, setting, candidate);
            if (candidateFailure != null) {
                current = candidate;
                currentFailure = candidateFailure;
            }
        }
        return new Shrunk<>(current, currentFailure);
    }

    /** A random list of {@code min..max} items. */
    static <S> List<S> listOf(SplittableRandom random, int min, int max, Function<SplittableRandom, S> item) {
        int size = min + random.nextInt(max - min + 1);
        List<S> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(item.apply(random));
        }
        return list;
    }

    /** One of {@code choices}, each weighted by the int before it: {@code pick(r, 5, A, 2, B)}. */
    @SuppressWarnings("unchecked")
    static <T> T pick(SplittableRandom random, Object... weightsAndChoices) {
        int total = 0;
        for (int i = 0; i < weightsAndChoices.length; i += 2) {
            total += (Integer) weightsAndChoices[i];
        }
        int r = random.nextInt(total);
        for (int i = 0; i < weightsAndChoices.length; i += 2) {
            r -= (Integer) weightsAndChoices[i];
            if (r < 0) {
                return (T) weightsAndChoices[i + 1];
            }
        }
        throw new AssertionError();
    }
}
