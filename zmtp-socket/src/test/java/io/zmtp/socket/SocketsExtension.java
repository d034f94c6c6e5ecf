package io.zmtp.socket;

import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A context per test, closed after it, and sockets made with a set LINGER: what every tcp test class needs.
 * <pre>{@code @RegisterExtension final SocketsExtension sockets = new SocketsExtension(2000, 1000);}</pre>
 */
final class SocketsExtension implements BeforeEachCallback, AfterEachCallback {
    private final long lingerCapMillis;
    private final int lingerMillis;
    private ZmtpContext context;

    SocketsExtension(long lingerCapMillis, int lingerMillis) {
        this.lingerCapMillis = lingerCapMillis;
        this.lingerMillis = lingerMillis;
    }

    @Override
    public void beforeEach(ExtensionContext extensionContext) {
        context = ZmtpContext.builder().lingerCapMillis(lingerCapMillis).build();
    }

    @Override
    public void afterEach(ExtensionContext extensionContext) {
        context.close();
    }

    ZmtpContext context() {
        return context;
    }

    /** A socket of the test's context with the extension's LINGER. */
    ZmtpSocket socket(ZmtpSocketType type) {
        ZmtpSocket s = context.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, lingerMillis);
        return s;
    }
}
