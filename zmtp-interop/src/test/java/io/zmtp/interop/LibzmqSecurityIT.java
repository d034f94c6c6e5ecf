package io.zmtp.interop;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link SecurityMatrix}: PLAIN and CURVE, DEALER/ROUTER and PUB/SUB, our socket as server and as client, against libzmq (pyzmq). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibzmqSecurityIT {

    static Stream<SecurityMatrix.Case> cases() {
        return SecurityMatrix.cases(SocketPeer.Kind.LIBZMQ);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldTalkSecurely(SecurityMatrix.Case c) {
        SecurityMatrix.run(c);
    }
}
