package io.zmtp.jeromq.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zmtp.testkit.TestTimeouts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The child JVMs' leak check works: a program that leaks a buffer fails the test that ran it. */
class LeakReportingIT {
    @Test
    void aBufferLeakedInAChildOnZmtpJeromqFailsItsClose() throws Exception {
        GuideProcess leaking = GuideProcess.start(Implementation.ZMTP_JEROMQ, Guide.workDir("leak"), "leaking",
                LeakingProgram.class.getName());
        leaking.awaitSuccess(TestTimeouts.scaled(Duration.ofSeconds(60)));
        assertThat(leaking.lines()).contains("dropped a buffer");
        assertThatThrownBy(leaking::close).isInstanceOf(AssertionError.class).hasMessageContaining("LEAK:");
    }
}
