package io.zmtp.codec;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class WarnLimiterTest {

    @Test
    void shouldLetOneWarnThroughPerIntervalAndCountTheRest() {
        AtomicLong now = new AtomicLong(Long.MAX_VALUE - 5);
        WarnLimiter limiter = new WarnLimiter(10, now::get);
        assertThat(limiter.tryWarn()).isZero();
        assertThat(limiter.tryWarn()).isEqualTo(-1);
        now.addAndGet(9);
        assertThat(limiter.tryWarn()).isEqualTo(-1);
        // Across the nanoTime wrap: the interval is still 10.
        now.addAndGet(1);
        assertThat(limiter.tryWarn()).isEqualTo(2);
        assertThat(limiter.tryWarn()).isEqualTo(-1);
        now.addAndGet(100);
        assertThat(limiter.tryWarn()).isEqualTo(1);
        now.addAndGet(100);
        assertThat(limiter.tryWarn()).isZero();
    }
}
