package org.zeromq.timer;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZTicketTest {
    private final FakeClock clock = new FakeClock();
    private final ZTicket tickets = new ZTicket(clock);
    private final List<String> runs = new ArrayList<>();

    private TimerHandler record(String name) {
        return args -> runs.add(name);
    }

    @Test
    void shouldRunATicketOnceWhenItsDelayHasPassed() {
        ZTicket.Ticket ticket = tickets.add(10, record("t"));
        assertThat(tickets.timeout()).isEqualTo(10);
        clock.advance(9);
        assertThat(tickets.execute()).isZero();
        clock.advance(1);
        assertThat(tickets.execute()).isEqualTo(1);
        clock.advance(100);
        assertThat(tickets.execute()).isZero();
        assertThat(tickets.timeout()).isEqualTo(-1);
        assertThat(runs).containsExactly("t");
        // Spent: nothing left to cancel or reset.
        assertThat(ticket.cancel()).isFalse();
        ticket.reset();
        assertThat(tickets.timeout()).isEqualTo(-1);
    }

    @Test
    void shouldCountTheDelayFromTheLastReset() {
        ZTicket.Ticket ticket = tickets.add(10, record("t"));
        for (int i = 0; i < 5; i++) {
            clock.advance(8);
            ticket.reset();
            assertThat(tickets.execute()).isZero();
        }
        assertThat(tickets.timeout()).isEqualTo(10);
        clock.advance(10);
        assertThat(tickets.execute()).isEqualTo(1);
    }

    @Test
    void shouldCountANewDelayFromTheStartNotFromNow() {
        ZTicket.Ticket ticket = tickets.add(100, record("t"));
        clock.advance(30);
        ticket.setDelay(40);
        assertThat(tickets.timeout()).isEqualTo(10);
        clock.advance(10);
        assertThat(tickets.execute()).isEqualTo(1);
    }

    @Test
    void shouldRunDueTicketsByDeadlineAndKeepTheOthers() {
        ZTicket.Ticket late = tickets.add(30, record("late"));
        tickets.add(20, record("second"));
        tickets.add(10, record("first"));
        late.setDelay(50);
        clock.advance(25);
        assertThat(tickets.execute()).isEqualTo(2);
        assertThat(runs).containsExactly("first", "second");
        assertThat(tickets.timeout()).isEqualTo(25);
    }

    @Test
    void shouldNotCountACancelledTicketInTheTimeout() {
        ZTicket.Ticket first = tickets.add(10, record("first"));
        assertThat(first.cancel()).isTrue();
        assertThat(first.cancel()).isFalse();
        assertThat(tickets.timeout()).isEqualTo(-1);
        tickets.add(20, record("second"));
        assertThat(tickets.timeout()).isEqualTo(20);
        clock.advance(20);
        assertThat(tickets.execute()).isEqualTo(1);
        assertThat(runs).containsExactly("second");
    }

    @Test
    void shouldNotRunADueTicketThatAnEarlierHandlerCancelled() {
        ZTicket.Ticket[] other = new ZTicket.Ticket[1];
        tickets.add(5, args -> {
            runs.add("first");
            other[0].cancel();
        });
        other[0] = tickets.add(6, record("other"));
        clock.advance(6);
        assertThat(tickets.execute()).isEqualTo(1);
        assertThat(runs).containsExactly("first");
    }

    @Test
    void shouldLetAHandlerAddATicketWhileExecuting() {
        tickets.add(5, args -> tickets.add(5, record("added")));
        clock.advance(5);
        assertThat(tickets.execute()).isEqualTo(1);
        assertThat(tickets.timeout()).isEqualTo(5);
        clock.advance(5);
        assertThat(tickets.execute()).isEqualTo(1);
        assertThat(runs).containsExactly("added");
    }

    @Test
    void shouldHandTheArgumentsToTheHandler() {
        List<Object[]> seen = new ArrayList<>();
        tickets.add(1, seen::add, "x", 2L);
        clock.advance(1);
        tickets.execute();
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0)).containsExactly("x", 2L);
    }

    @Test
    void shouldIgnoreANullHandlerAndRejectADelayBelowOne() {
        assertThat(tickets.add(10, null)).isNull();
        assertThatThrownBy(() -> tickets.add(0, record("t"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldKeepResetTicketsWaitingAmongThousands() {
        List<ZTicket.Ticket> all = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            all.add(tickets.add(100, record("t")));
        }
        clock.advance(99);
        for (int i = 0; i < all.size(); i += 2) {
            all.get(i).reset();
        }
        clock.advance(1);
        assertThat(tickets.execute()).isEqualTo(2_500);
        assertThat(tickets.timeout()).isEqualTo(99);
        clock.advance(99);
        assertThat(tickets.execute()).isEqualTo(2_500);
        assertThat(tickets.timeout()).isEqualTo(-1);
    }

    /**
     * JeroMQ's package-private constructors, which its own tests call: a clock as a {@code Supplier<Long>} of
     * milliseconds, and the list the tickets are kept in, sorted by due time with cancelled tickets last.
     */
    @Test
    void shouldTakeJeromqsClockSupplierAndKeepTicketsInTheListGiven() {
        AtomicLong now = new AtomicLong();
        List<ZTicket.Ticket> list = new ArrayList<>();
        ZTicket onSupplier = new ZTicket(now::get, list);
        ZTicket.Ticket late = onSupplier.add(100, record("late"));
        ZTicket.Ticket soon = onSupplier.add(10, record("soon"));
        assertThat(list).containsExactly(late, soon);
        assertThat(onSupplier.timeout()).isEqualTo(10);
        assertThat(list).containsExactly(soon, late);
        soon.cancel();
        assertThat(onSupplier.timeout()).isEqualTo(100);
        assertThat(list).containsExactly(late, soon);
        now.set(100);
        assertThat(onSupplier.execute()).isEqualTo(1);
        assertThat(list).isEmpty();
        assertThat(runs).containsExactly("late");

        ZTicket plain = new ZTicket(() -> 5L);
        plain.add(1, record("plain"));
        assertThat(plain.timeout()).isEqualTo(1);
    }
}
