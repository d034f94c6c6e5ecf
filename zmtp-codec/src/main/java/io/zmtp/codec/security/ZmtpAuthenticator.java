package io.zmtp.codec.security;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Decides whether a connecting peer may talk to this side: the Java form of a ZAP handler (rfc 27). Configured with
 * {@code ZmtpConfig.Builder.authenticator}; the server side of PLAIN and CURVE asks it once the peer has presented its
 * credentials (PLAIN after HELLO, CURVE after INITIATE) and goes on only when it allows them; with NULL both sides
 * ask it before sending READY. {@link DefaultZmtpAuthenticator} covers address lists, PLAIN users and CURVE keys.
 *
 * <p>Called on the connection's event loop: an answer that takes I/O (a database, a remote service) should come back
 * as a stage completed later, from any thread; the handshake waits for it, within the handshake timeout. A stage
 * that fails, or a method that throws, refuses the peer with status 500.
 *
 * <p>With no authenticator configured, the codec does what libzmq does with no ZAP handler: PLAIN refuses every
 * client, CURVE accepts any client key (the connection is encrypted, the client unauthenticated) and NULL accepts all.
 *
 * @see <a href="https://rfc.zeromq.org/spec/27/">27/ZAP</a>
 */
@FunctionalInterface
public interface ZmtpAuthenticator {

    /** What the codec uses when none is configured (libzmq's behaviour without a ZAP handler). */
    ZmtpAuthenticator LIBZMQ_DEFAULT = request -> CompletableFuture.completedFuture("PLAIN".equals(request.mechanism())
            ? ZmtpAuthResult.deny("no authenticator configured: PLAIN needs one (as libzmq needs a ZAP handler)")
            : ZmtpAuthResult.allow());

    /** The decision on {@code request}. */
    CompletionStage<ZmtpAuthResult> authenticate(ZmtpAuthRequest request);
}
