package org.zeromq;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The deprecated timer set hands every call to {@link org.zeromq.timer.ZTimer}, on the real clock. */
@SuppressWarnings("deprecation")
class ZTimerTest {
    private final ZTimer timers = new ZTimer();
    private final List<Object> runs = new ArrayList<>();

    @Test
    void shouldRunATimerWithItsArgumentsOnceItIsDue() {
        ZTimer.Timer timer = timers.add(1, args -> runs.add(args[0]), "arg");
        assertThat(timers.timeout()).isBetween(0L, 1L);
        // sleepAndExecute waits until the timer is due, so it always runs it.
        assertThat(timers.sleepAndExecute()).isEqualTo(1);
        assertThat(runs).containsExactly("arg");
        assertThat(timers.cancel(timer)).isTrue();
        assertThat(timers.timeout()).isEqualTo(-1);
    }

    @Test
    void shouldChangeResetAndCancelThroughTheSet() {
        ZTimer.Timer timer = timers.add(60_000, args -> runs.add("t"));
        assertThat(timers.setInterval(timer, 120_000)).isTrue();
        assertThat(timers.timeout()).isGreaterThan(60_000);
        assertThat(timers.reset(timer)).isTrue();
        assertThat(timers.execute()).isZero();
        assertThat(timers.cancel(timer)).isTrue();
        assertThat(timers.cancel(timer)).isFalse();
        assertThat(timers.reset(timer)).isFalse();
        assertThat(timers.setInterval(timer, 5)).isFalse();
        assertThat(timers.add(5, null)).isNull();
        assertThat(runs).isEmpty();
    }
}
