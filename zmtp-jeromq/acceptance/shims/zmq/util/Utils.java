package zmq.util;

import java.io.IOException;
import java.net.ServerSocket;

/** Test shim: the two helpers of JeroMQ's {@code zmq.util.Utils} that JeroMQ's tests call. */
public final class Utils {
    private Utils() {
    }

    /** A tcp port that was free a moment ago. */
    public static int findOpenPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Throws {@link IllegalArgumentException} with {@code message} unless {@code condition}. */
    public static void checkArgument(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
