package org.zeromq;

import java.io.IOException;
import java.net.ServerSocket;

/** JeroMQ 0.6.0's {@code org.zeromq.Utils}: two helpers its applications and tests call. */
public final class Utils {
    private Utils() {
    }

    /**
     * A tcp port that was free when this returned: the system picks one for a listening socket, which is closed at
     * once. Another process may take the port before the caller binds it; {@link ZMQ.Socket#bindToRandomPort} has no
     * such window.
     *
     * @return the port number
     * @throws IOException if no listening socket could be opened
     */
    public static int findOpenPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    /**
     * Checks an argument.
     *
     * @param expression   what must hold
     * @param errorMessage the exception's message when it doesn't
     * @throws IllegalArgumentException with {@code errorMessage} if {@code expression} is false
     */
    public static void checkArgument(boolean expression, String errorMessage) {
        if (!expression) {
            throw new IllegalArgumentException(errorMessage);
        }
    }
}
