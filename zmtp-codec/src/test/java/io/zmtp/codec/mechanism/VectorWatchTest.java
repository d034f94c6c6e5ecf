package io.zmtp.codec.mechanism;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link VectorWatch}: which calls it measures, and that only a call that allocates once the JIT had calls and time to
 * compile the core turns it off. The allocation stands in for a core compiled without the Vector API's intrinsics,
 * which a test can't make the JIT do.
 */
class VectorWatchTest {
    /** Where the arrays go, so that the JIT can't drop the allocation. */
    private static volatile Object sink;

    @Test
    void shouldMeasureCalls1024And2048ThenEvery4096th() {
        VectorWatch watch = new VectorWatch("test", new VectorWatch.Switch());
        StringBuilder measured = new StringBuilder();
        for (long call = 1; call <= 20_000; call++) {
            if (watch.due()) {
                measured.append(call).append(' ');
                watch.check(VectorWatch.allocated());
            }
        }
        assertThat(measured.toString().trim()).isEqualTo("1024 2048 4096 8192 12288 16384");
    }

    @Test
    void shouldTurnTheCoreOffOnlyForACallThatAllocatesOnceTheJitHadCallsAndTime() {
        assertThat(VectorWatch.allocated()).as("HotSpot counts each thread's allocation").isNotNegative();
        VectorWatch.Switch on = new VectorWatch.Switch();
        VectorWatch watch = new VectorWatch("test", on);
        long late = VectorWatch.DECISIVE_NANOS;
        // Calls 1024 and 2048 allocate, as the JIT's first tiers do: too early to tell.
        nextDue(watch);
        allocatingCall(watch, late);
        nextDue(watch);
        allocatingCall(watch, late);
        assertThat(watch.on()).as("allocations before %d calls", VectorWatch.DECISIVE).isTrue();
        // Call 4096, soon after the first: still the JIT's first tiers.
        nextDue(watch);
        allocatingCall(watch, late - 1);
        assertThat(watch.on()).as("an allocation %d ns after the first check", late - 1).isTrue();
        nextDue(watch);
        watch.check(VectorWatch.allocated(), late);
        assertThat(watch.on()).as("a call that allocated nothing").isTrue();
        nextDue(watch);
        allocatingCall(watch, late);
        assertThat(watch.on()).as("a call that allocated, late enough").isFalse();
        assertThat(new VectorWatch("other", new VectorWatch.Switch()).on()).as("another core's switch").isTrue();
    }

    private static void nextDue(VectorWatch watch) {
        while (!watch.due()) {
            // the calls that are not measured
        }
    }

    private static void allocatingCall(VectorWatch watch, long nanosSinceFirstCheck) {
        long before = VectorWatch.allocated();
        sink = new byte[4096];
        watch.check(before, nanosSinceFirstCheck);
    }
}
