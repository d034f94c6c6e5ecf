package org.zeromq.timer;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ZTickerTest {
    private final FakeClock clock = new FakeClock();
    private final ZTicker ticker = new ZTicker(clock);
    private final List<String> runs = new ArrayList<>();

    @Test
    void shouldWaitForNothingWhenEmpty() {
        assertThat(ticker.timeout()).isEqualTo(-1);
        assertThat(ticker.execute()).isZero();
    }

    @Test
    void shouldTakeTheTimeoutOfWhicheverIsSetAndTheSoonerOfBoth() {
        ticker.addTimer(30, args -> runs.add("timer"));
        assertThat(ticker.timeout()).isEqualTo(30);
        ZTicket.Ticket ticket = ticker.addTicket(10, args -> runs.add("ticket"));
        assertThat(ticker.timeout()).isEqualTo(10);
        ticket.cancel();
        assertThat(ticker.timeout()).isEqualTo(30);
    }

    @Test
    void shouldRunDueTimersAndTicketsTogether() {
        ticker.addTimer(10, args -> runs.add("timer"));
        ticker.addTicket(10, args -> runs.add("ticket"));
        clock.advance(10);
        assertThat(ticker.execute()).isEqualTo(2);
        clock.advance(10);
        assertThat(ticker.execute()).isEqualTo(1);
        assertThat(runs).containsExactly("timer", "ticket", "timer");
        assertThat(ticker.timeout()).isEqualTo(10);
    }

    /** JeroMQ's package-private constructor: the clock as a {@code Supplier<Long>} of milliseconds. */
    @Test
    void shouldTakeJeromqsClockSupplier() {
        AtomicLong now = new AtomicLong();
        ZTicker onSupplier = new ZTicker(now::get);
        onSupplier.addTicket(10, args -> { });
        onSupplier.addTimer(30, args -> { });
        now.set(4);
        assertThat(onSupplier.timeout()).isEqualTo(6);
        now.set(10);
        assertThat(onSupplier.execute()).isEqualTo(1);
        assertThat(onSupplier.timeout()).isEqualTo(20);
    }
}
