package io.zmtp.tools;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import picocli.CommandLine.Option;

import javax.net.ssl.SSLException;
import java.io.File;
import java.io.PrintStream;

/**
 * TLS for {@code wss://} endpoints, for every tool: the socket's {@code WSS_SERVER_CONTEXT} (a certificate and key from
 * PEM files, or a self-signed one for tests) and {@code WSS_CLIENT_CONTEXT} (a CA file to trust, or, said loudly, no
 * check at all). A client given neither checks the server as a browser does: against the JDK's CA certificates and
 * the host name. ws:// and the other transports ignore all of these.
 */
public final class WssOptions {
    @Option(names = "--wss-cert", paramLabel = "<pem>",
            description = "wss:// binding side: the server's certificate chain (PEM), with --wss-key.")
    File certificate;

    @Option(names = "--wss-key", paramLabel = "<pem>",
            description = "wss:// binding side: the certificate's private key (PEM, PKCS#8 unencrypted).")
    File key;

    @Option(names = "--wss-self-signed",
            description = "wss:// binding side, for tests: a new self-signed certificate for localhost, 127.0.0.1 "
                    + "and ::1 (its fingerprint is printed; clients need --wss-insecure).")
    boolean selfSigned;

    @Option(names = "--wss-trust", paramLabel = "<pem>",
            description = "wss:// connecting side: trust the server certificates these CA certificates (PEM) sign, "
                    + "instead of the JDK's; the host name is still checked.")
    File trust;

    @Option(names = "--wss-insecure",
            description = "wss:// connecting side: do NOT check the server's certificate (encryption without "
                    + "authentication: anyone on the path can read and change the traffic). For tests.")
    boolean insecure;

    private SslContext serverContext;
    private SslContext clientContext;
    private boolean built;

    /**
     * Sets the wss contexts these options make on {@code socket} (none if no wss option was given).
     *
     * @param err where a self-signed certificate's fingerprint and the {@code --wss-insecure} warning go (once)
     * @throws IllegalArgumentException on options that contradict each other or files that can't be read
     */
    public void apply(ZmtpSocket socket, PrintStream err) {
        build(err);
        if (serverContext != null) {
            socket.setOption(ZmtpSocketOption.WSS_SERVER_CONTEXT, serverContext);
        }
        if (clientContext != null) {
            socket.setOption(ZmtpSocketOption.WSS_CLIENT_CONTEXT, clientContext);
        }
    }

    /**
     * Refuses to bind a {@code wss://} endpoint without a certificate, naming the options (the socket's own error
     * names its option, which a shell user can't set).
     */
    public void checkBind(String endpoint) {
        if (endpoint.startsWith("wss://") && certificate == null && !selfSigned) {
            throw new IllegalArgumentException("binding " + endpoint + " needs a certificate: --wss-cert <pem> "
                    + "--wss-key <pem>, or --wss-self-signed for a test");
        }
    }

    private void build(PrintStream err) {
        if (built) {
            return;
        }
        built = true;
        if (selfSigned && (certificate != null || key != null)) {
            throw new IllegalArgumentException("--wss-self-signed or --wss-cert/--wss-key, not both");
        }
        if ((certificate == null) != (key == null)) {
            throw new IllegalArgumentException("--wss-cert and --wss-key go together");
        }
        if (insecure && trust != null) {
            throw new IllegalArgumentException("--wss-trust or --wss-insecure, not both");
        }
        try {
            if (selfSigned) {
                SelfSignedCertificate self = SelfSignedCertificate.generate();
                serverContext = SslContextBuilder.forServer(self.key(), self.certificate()).build();
                err.println("wss: self-signed certificate for localhost, 127.0.0.1, ::1; SHA-256 fingerprint "
                        + self.fingerprint());
            } else if (certificate != null) {
                serverContext = SslContextBuilder.forServer(certificate, key).build();
            }
            if (insecure) {
                err.println("WARNING: --wss-insecure: the wss:// server's certificate is NOT checked; anyone on the "
                        + "path can read and change this traffic");
                clientContext = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
                        .build();
            } else if (trust != null) {
                clientContext = SslContextBuilder.forClient().trustManager(trust)
                        .endpointIdentificationAlgorithm("HTTPS").build();
            }
        } catch (SSLException | IllegalArgumentException e) {
            // Netty's messages for a missing or malformed PEM file name neither the option nor the file.
            throw new IllegalArgumentException("wss: " + describe(e), e);
        }
    }

    private String describe(Exception e) {
        StringBuilder s = new StringBuilder(String.valueOf(e.getMessage()));
        if (certificate != null) {
            s.append(" (--wss-cert ").append(certificate).append(", --wss-key ").append(key).append(')');
        }
        if (trust != null) {
            s.append(" (--wss-trust ").append(trust).append(')');
        }
        return s.toString();
    }
}
