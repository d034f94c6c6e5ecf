package io.zmtp.tools;

import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * PLAIN and CURVE for every tool, so a person can reach a secured libzmq service from a shell: the same
 * {@link ZmtpSocketOption}s an application sets, from command-line options. Keys are Z85 (40 characters), as
 * {@code zmtp keygen} and libzmq's {@code curve_keygen} print them.
 *
 * <p>Roles: with {@code --curve-server-key} this side is a CURVE client; with only {@code --curve-secret-key} it is a
 * CURVE server. With {@code --plain} a binding side is the PLAIN server (accepting that user alone) and a connecting
 * side the client.
 *
 * <p>TLS for {@code wss://} endpoints is here too ({@link WssOptions}): the certificate of a binding side, the trust of
 * a connecting one.
 */
public final class SecurityOptions {
    @Option(names = "--plain", paramLabel = "<user>:<password>",
            description = "PLAIN: log in with these (connecting side), or accept only this user (binding side).")
    String plain;

    @Option(names = "--curve-server-key", paramLabel = "<z85>",
            description = "CURVE client: the server's public key.")
    String curveServerKey;

    @Option(names = "--curve-secret-key", paramLabel = "<z85>",
            description = "CURVE: this side's secret key. Alone, it makes this side a CURVE server; a client without "
                    + "it uses a new key pair.")
    String curveSecretKey;

    @Option(names = "--curve-allow", paramLabel = "<z85>",
            description = "CURVE server: accept only this client public key (repeatable; default: any key).")
    List<String> curveAllow = new ArrayList<>();

    @Mixin
    WssOptions wss = new WssOptions();

    /**
     * Sets the security options on {@code socket}.
     *
     * @param binds whether this side binds (is the PLAIN server)
     * @throws IllegalArgumentException on a malformed key or {@code --plain} value, or PLAIN and CURVE together
     */
    public void apply(ZmtpSocket socket, boolean binds) {
        apply(socket, binds, System.err);
    }

    /**
     * Sets the security options on {@code socket}, telling {@code err} about a self-signed certificate or an
     * unchecked server (see {@link WssOptions}).
     *
     * @param binds whether this side binds (is the PLAIN server)
     * @throws IllegalArgumentException on a malformed key or {@code --plain} value, or PLAIN and CURVE together
     */
    public void apply(ZmtpSocket socket, boolean binds, PrintStream err) {
        wss.apply(socket, err);
        boolean curve = curveServerKey != null || curveSecretKey != null;
        if (plain != null && curve) {
            throw new IllegalArgumentException("--plain and --curve-* can't be combined: one mechanism per socket");
        }
        if (plain != null) {
            int colon = plain.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("--plain " + plain + ": expected <user>:<password>");
            }
            String user = plain.substring(0, colon);
            String password = plain.substring(colon + 1);
            if (binds) {
                socket.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
                socket.setOption(ZmtpSocketOption.AUTHENTICATOR,
                        DefaultZmtpAuthenticator.builder().plainUser(user, password).build());
            } else {
                socket.setOption(ZmtpSocketOption.PLAIN_USERNAME, user);
                socket.setOption(ZmtpSocketOption.PLAIN_PASSWORD, password);
            }
        }
        if (curveServerKey != null) {
            CurveKeyPair keys = curveSecretKey == null ? CurveKeyPair.generate()
                    : CurveKeyPair.fromSecretKeyZ85(curveSecretKey);
            socket.setOption(ZmtpSocketOption.CURVE_SERVERKEY,
                    CurveKeyPair.decodeKey(curveServerKey, "server key (--curve-server-key)"));
            socket.setOption(ZmtpSocketOption.CURVE_SECRETKEY, keys.secretKey());
        } else if (curveSecretKey != null) {
            socket.setOption(ZmtpSocketOption.CURVE_SERVER, true);
            socket.setOption(ZmtpSocketOption.CURVE_SECRETKEY, CurveKeyPair.fromSecretKeyZ85(curveSecretKey)
                    .secretKey());
            if (!curveAllow.isEmpty()) {
                DefaultZmtpAuthenticator.Builder allowed = DefaultZmtpAuthenticator.builder();
                curveAllow.forEach(allowed::curveKey);
                socket.setOption(ZmtpSocketOption.AUTHENTICATOR, allowed.build());
            }
        } else if (!curveAllow.isEmpty()) {
            throw new IllegalArgumentException("--curve-allow needs --curve-secret-key (the server's key)");
        }
    }

    /**
     * Binds {@code socket} to {@code endpoint}, first refusing a {@code wss://} one without a certificate option.
     *
     * @return the endpoint bound
     */
    public String bind(ZmtpSocket socket, String endpoint) {
        checkBind(endpoint);
        return socket.bind(endpoint);
    }

    /** Refuses a {@code wss://} endpoint to bind when no certificate option was given ({@link WssOptions}). */
    public void checkBind(String endpoint) {
        wss.checkBind(endpoint);
    }
}
