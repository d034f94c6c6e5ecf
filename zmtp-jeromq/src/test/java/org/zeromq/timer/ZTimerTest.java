package org.zeromq.timer;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZTimerTest {
    private final FakeClock clock = new FakeClock();
    private final ZTimer timers = new ZTimer(clock);
    private final List<String> runs = new ArrayList<>();

    private TimerHandler record(String name) {
        return args -> runs.add(name + (args.length == 0 ? "" : args[0]));
    }

    @Test
    void shouldRunATimerEveryIntervalUntilCancelled() {
        ZTimer.Timer timer = timers.add(10, record("t"));
        assertThat(timers.timeout()).isEqualTo(10);
        clock.advance(9);
        assertThat(timers.execute()).isZero();
        assertThat(timers.timeout()).isEqualTo(1);
        clock.advance(1);
        assertThat(timers.execute()).isEqualTo(1);
        assertThat(timers.timeout()).isEqualTo(10);
        clock.advance(10);
        assertThat(timers.execute()).isEqualTo(1);
        assertThat(runs).containsExactly("t", "t");

        assertThat(timer.cancel()).isTrue();
        assertThat(timer.cancel()).isFalse();
        clock.advance(100);
        assertThat(timers.execute()).isZero();
        assertThat(timers.timeout()).isEqualTo(-1);
    }

    @Test
    void shouldRunALateTimerOnceAndReArmItFromTheMomentItRan() {
        timers.add(10, record("t"));
        clock.advance(35);
        assertThat(timers.timeout()).isZero();
        assertThat(timers.execute()).isEqualTo(1);
        assertThat(timers.timeout()).isEqualTo(10);
    }

    @Test
    void shouldHandTheArgumentsToTheHandler() {
        List<Object[]> seen = new ArrayList<>();
        timers.add(5, seen::add, "a", 7);
        timers.add(5, seen::add);
        clock.advance(5);
        timers.execute();
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0)).containsExactly("a", 7);
        assertThat(seen.get(1)).isEmpty();
    }

    @Test
    void shouldRunTimersDueTogetherInTheOrderTheyWereArmed() {
        timers.add(20, record("c"));
        timers.add(10, record("a"));
        clock.advance(10);
        timers.add(10, record("b"));
        clock.advance(10);
        assertThat(timers.execute()).isEqualTo(3);
        assertThat(runs).containsExactly("a", "c", "b");
    }

    @Test
    void shouldReArmFromNowOnResetAndSetInterval() {
        ZTimer.Timer timer = timers.add(10, record("t"));
        clock.advance(8);
        assertThat(timer.reset()).isTrue();
        assertThat(timers.timeout()).isEqualTo(10);
        clock.advance(4);
        assertThat(timer.setInterval(3)).isTrue();
        assertThat(timers.timeout()).isEqualTo(3);
        clock.advance(3);
        assertThat(timers.execute()).isEqualTo(1);
        assertThat(timers.timeout()).isEqualTo(3);

        timer.cancel();
        assertThat(timer.reset()).isFalse();
        assertThat(timer.setInterval(50)).isFalse();
        assertThat(timers.timeout()).isEqualTo(-1);
    }

    @Test
    void shouldNotRunADueTimerThatAnEarlierHandlerCancelled() {
        ZTimer.Timer[] second = new ZTimer.Timer[1];
        timers.add(5, args -> {
            runs.add("first");
            second[0].cancel();
        });
        second[0] = timers.add(5, record("second"));
        clock.advance(5);
        assertThat(timers.execute()).isEqualTo(1);
        assertThat(runs).containsExactly("first");
    }

    @Test
    void shouldLetAHandlerAddCancelAndResetTimersWhileExecuting() {
        ZTimer.Timer[] self = new ZTimer.Timer[1];
        self[0] = timers.add(5, args -> {
            runs.add("self");
            self[0].cancel();
            timers.add(1, record("added"));
        });
        clock.advance(5);
        assertThat(timers.execute()).isEqualTo(1);
        // The added timer waits for its interval even though the clock has not moved.
        assertThat(timers.timeout()).isEqualTo(1);
        clock.advance(1);
        assertThat(timers.execute()).isEqualTo(1);
        assertThat(runs).containsExactly("self", "added");
    }

    @Test
    void shouldIgnoreANullHandlerAndRejectAnIntervalBelowOne() {
        assertThat(timers.add(10, null)).isNull();
        assertThat(timers.timeout()).isEqualTo(-1);
        assertThatThrownBy(() -> timers.add(0, record("t"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        assertThatThrownBy(() -> timers.add(-1, record("t"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldSleepUntilTheNextTimerThenRunIt() {
        timers.add(25, record("t"));
        clock.advance(5);
        assertThat(timers.sleepAndExecute()).isEqualTo(1);
        assertThat(clock.sleeps).containsExactly(20L);
        assertThat(runs).containsExactly("t");
    }

    @Test
    void shouldReturnAtOnceFromSleepAndExecuteWithNoTimers() {
        assertThat(timers.sleepAndExecute()).isZero();
        assertThat(clock.sleeps).isEmpty();
    }

    @Test
    void shouldStopWaitingWhenInterruptedAndKeepTheInterruptStatus() {
        ZTimer real = new ZTimer();
        real.add(60_000, record("t"));
        Thread.currentThread().interrupt();
        try {
            assertThat(real.sleepAndExecute()).isZero();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    /** JeroMQ's package-private constructor: the clock as a {@code Supplier<Long>} of milliseconds. */
    @Test
    void shouldTakeJeromqsClockSupplier() {
        AtomicLong now = new AtomicLong();
        ZTimer onSupplier = new ZTimer(now::get);
        onSupplier.add(10, args -> { });
        now.set(3);
        assertThat(onSupplier.timeout()).isEqualTo(7);
        now.set(10);
        assertThat(onSupplier.execute()).isEqualTo(1);
        assertThat(onSupplier.timeout()).isEqualTo(10);
    }
}
