package io.zmtp.jeromq.guide;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * espresso: ZMQ.proxy between XSUB and XPUB with a capture socket, the pipe of a ZThread.fork listener, and a
 * control socket, the forked subscriber's pipe. The subscriber gets only the topics it subscribed to; the listener
 * sees both subscriptions go up and every message the subscriber got come down; TERMINATE on the control socket
 * makes the proxy return true. Each build, one process (all parts are threads). And the same tracer on a ZProxy
 * (an actor steered by start, pause and exit, its capture a PUSH it creates): the capture holds both subscriptions
 * and every message the subscriber got.
 */
class EspressoIT {
    private static final Duration TIMEOUT = scaled(Duration.ofSeconds(60));
    private static final int MESSAGES = 5;

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#implementations")
    void theCaptureSeesSubscriptionsAndMessagesAndTheControlEndsTheProxy(Implementation impl) throws Exception {
        try (GuideProcess espresso = GuideProcess.start(impl, Guide.workDir("espresso-" + impl), "espresso",
                Programs.ESPRESSO, "tcp://127.0.0.1:" + Guide.freePort(), "tcp://127.0.0.1:" + Guide.freePort(),
                String.valueOf(MESSAGES), "10")) {
            espresso.awaitSuccess(TIMEOUT);
            List<String> lines = espresso.lines();

            List<String> received = lines.stream().filter(l -> l.startsWith("Subscriber: "))
                    .map(l -> l.substring("Subscriber: ".length())).toList();
            assertThat(received).as(espresso.output()).hasSize(MESSAGES).allMatch(m -> m.matches("[AB]-\\d{5}"));
            // Subscriptions pass the proxy upstream as \x01 + topic, printed in hex (not printable).
            assertThat(lines).as(espresso.output()).contains("Listener: 0141", "Listener: 0142");
            for (String message : received) {
                assertThat(lines).as(espresso.output()).contains("Listener: " + message);
            }
            // The proxy forwards everything the publisher sends (XSUB subscribed to A and B only): the capture never
            // holds another topic.
            assertThat(lines.stream().filter(l -> l.startsWith("Listener: ") && l.contains("-")))
                    .allMatch(l -> l.matches("Listener: [AB]-\\d{5}"));
            assertThat(lines).contains("I: proxy returned true", "I: listener DONE");
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#implementations")
    void aZProxyIsSteeredAndItsCaptureSeesTheTraffic(Implementation impl) throws Exception {
        try (GuideProcess espresso = GuideProcess.start(impl, Guide.workDir("espresso-zproxy-" + impl),
                "espresso-zproxy", Programs.ESPRESSO_ZPROXY, "tcp://127.0.0.1:" + Guide.freePort(),
                "tcp://127.0.0.1:" + Guide.freePort(), String.valueOf(MESSAGES), "10")) {
            espresso.awaitSuccess(TIMEOUT);
            List<String> lines = espresso.lines();

            List<String> received = lines.stream().filter(l -> l.startsWith("Subscriber: "))
                    .map(l -> l.substring("Subscriber: ".length())).toList();
            assertThat(received).as(espresso.output()).hasSize(MESSAGES).allMatch(m -> m.matches("[AB]-\\d{5}"));
            assertThat(lines).as(espresso.output()).contains("Capture: 0141", "Capture: 0142");
            for (String message : received) {
                assertThat(lines).as(espresso.output()).contains("Capture: " + message);
            }
            // The proxy's states as its pipe answered the synchronous commands, in order.
            assertThat(lines.stream().filter(l -> l.startsWith("I: proxy "))).as(espresso.output())
                    .containsExactly("I: proxy STARTED", "I: proxy PAUSED", "I: proxy EXITED");
            assertThat(lines).contains("I: not captured 0");
        }
    }
}
