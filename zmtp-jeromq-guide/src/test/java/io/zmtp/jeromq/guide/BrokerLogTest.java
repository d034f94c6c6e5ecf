package io.zmtp.jeromq.guide;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BrokerLog's replay on hand-written logs: it passes the broker's right choices and catches its wrong ones. */
class BrokerLogTest {

    @Test
    void shouldPassALeastRecentlyUsedLogWhereAWorkerCameTooLateToServe() {
        List<String> log = List.of(
                "Broker: worker-1 ready",
                "Broker: worker-0 ready",
                "Broker: client-0 -> worker-1",
                "Broker: client-1 -> worker-0",
                "Broker: client-1 <- OK from worker-0 (worker-0 ready again)",
                "Broker: client-0 <- OK from worker-1 (worker-1 ready again)",
                "Broker: client-2 -> worker-0",
                "Broker: worker-2 ready",
                "Broker: client-2 <- OK from worker-0 (worker-0 ready again)");

        assertThatCode(() -> BrokerLog.assertLeastRecentlyUsedAndAnsweredOnce(log, 3, 3)).doesNotThrowAnyException();
    }

    @Test
    void shouldFailAHandOffToAWorkerOtherThanTheLeastRecentlyUsed() {
        List<String> log = List.of(
                "Broker: worker-0 ready",
                "Broker: worker-1 ready",
                "Broker: client-0 -> worker-1",
                "Broker: client-0 <- OK from worker-1 (worker-1 ready again)");

        assertThatThrownBy(() -> BrokerLog.assertLeastRecentlyUsedAndAnsweredOnce(log, 1, 2))
                .hasMessageContaining("least recently used");
    }

    @Test
    void shouldFailAReplyFromAWorkerTheRequestDidNotGoTo() {
        List<String> log = List.of(
                "Broker: worker-0 ready",
                "Broker: worker-1 ready",
                "Broker: client-0 -> worker-0",
                "Broker: client-0 <- OK from worker-1 (worker-1 ready again)");

        assertThatThrownBy(() -> BrokerLog.assertLeastRecentlyUsedAndAnsweredOnce(log, 1, 2))
                .hasMessageContaining("the worker the request went to");
    }

    @Test
    void shouldFailAClientAnsweredTwiceOrNotAtAll() {
        List<String> twice = List.of(
                "Broker: worker-0 ready",
                "Broker: client-0 -> worker-0",
                "Broker: client-0 <- OK from worker-0 (worker-0 ready again)",
                "Broker: client-0 <- OK from worker-0 (worker-0 ready again)");
        List<String> missing = List.of(
                "Broker: worker-0 ready",
                "Broker: client-0 -> worker-0",
                "Broker: client-0 <- OK from worker-0 (worker-0 ready again)");

        assertThatThrownBy(() -> BrokerLog.assertLeastRecentlyUsedAndAnsweredOnce(twice, 1, 1))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> BrokerLog.assertLeastRecentlyUsedAndAnsweredOnce(missing, 2, 1))
                .isInstanceOf(AssertionError.class);
    }
}
