package org.zeromq.timer;

import java.util.ArrayList;
import java.util.List;

/** A clock that moves only when told to; {@link #sleep} moves it forward and records how long was asked for. */
final class FakeClock implements TimerClock {
    private long now = 1_000;
    final List<Long> sleeps = new ArrayList<>();

    @Override
    public long nowMillis() {
        return now;
    }

    @Override
    public void sleep(long millis) {
        sleeps.add(millis);
        now += millis;
    }

    void advance(long millis) {
        now += millis;
    }
}
