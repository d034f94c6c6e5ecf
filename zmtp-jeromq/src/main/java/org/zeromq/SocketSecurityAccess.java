package org.zeromq;

import io.zmtp.socket.ZmtpSocketOption;

import java.nio.charset.StandardCharsets;

/**
 * JeroMQ's security options of {@link ZMQ.Socket}: the ZAP domain, PLAIN and CURVE, on netty-zmtp's options. Keys
 * are 32 bytes, or 40 characters of Z85 as JeroMQ also accepts.
 */
abstract class SocketSecurityAccess extends SocketOptionAccess {
    SocketSecurityAccess(ContextImpl context, SocketType type) {
        super(context, type);
    }

    public boolean setZapDomain(String domain) {
        return set(ZmtpSocketOption.ZAP_DOMAIN, domain == null ? "" : domain);
    }

    public boolean setZapDomain(byte[] domain) {
        return setZapDomain(domain == null ? null : new String(domain, StandardCharsets.UTF_8));
    }

    public String getZapDomain() {
        return get(ZmtpSocketOption.ZAP_DOMAIN);
    }

    public boolean setZAPDomain(String domain) {
        return setZapDomain(domain);
    }

    public boolean setZAPDomain(byte[] domain) {
        return setZapDomain(domain);
    }

    public String getZAPDomain() {
        return getZapDomain();
    }

    // ---- PLAIN

    /** Makes this socket a PLAIN server (true) or not. */
    public boolean setPlainServer(boolean server) {
        return set(ZmtpSocketOption.PLAIN_SERVER, server);
    }

    public boolean setAsServerPlain(boolean server) {
        return setPlainServer(server);
    }

    public boolean getPlainServer() {
        return get(ZmtpSocketOption.PLAIN_SERVER);
    }

    public boolean isAsServerPlain() {
        return getPlainServer();
    }

    public boolean getAsServerPlain() {
        return getPlainServer();
    }

    public boolean setPlainUsername(String username) {
        return set(ZmtpSocketOption.PLAIN_USERNAME, username == null ? "" : username);
    }

    public boolean setPlainUsername(byte[] username) {
        return setPlainUsername(username == null ? null : new String(username, StandardCharsets.UTF_8));
    }

    public boolean setPlainPassword(String password) {
        return set(ZmtpSocketOption.PLAIN_PASSWORD, password == null ? "" : password);
    }

    public boolean setPlainPassword(byte[] password) {
        return setPlainPassword(password == null ? null : new String(password, StandardCharsets.UTF_8));
    }

    /** The username, or null when none is set (JeroMQ's answer). */
    public String getPlainUsername() {
        String s = get(ZmtpSocketOption.PLAIN_USERNAME);
        return s.isEmpty() ? null : s;
    }

    public String getPlainPassword() {
        String s = get(ZmtpSocketOption.PLAIN_PASSWORD);
        return s.isEmpty() ? null : s;
    }

    // ---- CURVE

    public boolean setCurveServer(boolean server) {
        return set(ZmtpSocketOption.CURVE_SERVER, server);
    }

    public boolean setAsServerCurve(boolean server) {
        return setCurveServer(server);
    }

    public boolean getCurveServer() {
        return get(ZmtpSocketOption.CURVE_SERVER);
    }

    public boolean isAsServerCurve() {
        return getCurveServer();
    }

    public boolean getAsServerCurve() {
        return getCurveServer();
    }

    /** This socket's public key: 32 bytes, or its 40-character Z85 form. */
    public boolean setCurvePublicKey(byte[] key) {
        return set(ZmtpSocketOption.CURVE_PUBLICKEY, binaryKey(key));
    }

    /** The server's public key, which makes this socket a CURVE client: 32 bytes or 40 of Z85. */
    public boolean setCurveServerKey(byte[] key) {
        return set(ZmtpSocketOption.CURVE_SERVERKEY, binaryKey(key));
    }

    /** This socket's secret key: 32 bytes or 40 of Z85. */
    public boolean setCurveSecretKey(byte[] key) {
        return set(ZmtpSocketOption.CURVE_SECRETKEY, binaryKey(key));
    }

    public byte[] getCurvePublicKey() {
        return get(ZmtpSocketOption.CURVE_PUBLICKEY);
    }

    public byte[] getCurveServerKey() {
        return get(ZmtpSocketOption.CURVE_SERVERKEY);
    }

    /** Empty: netty-zmtp never hands a secret key back (the option is write-only). */
    public byte[] getCurveSecretKey() {
        return get(ZmtpSocketOption.CURVE_SECRETKEY);
    }

    /** NULL, PLAIN or CURVE, from the options set (libzmq's ZMQ_MECHANISM). */
    public ZMQ.Socket.Mechanism getMechanism() {
        if (get(ZmtpSocketOption.CURVE_SERVER) || get(ZmtpSocketOption.CURVE_SERVERKEY).length > 0) {
            return ZMQ.Socket.Mechanism.CURVE;
        }
        if (get(ZmtpSocketOption.PLAIN_SERVER) || !get(ZmtpSocketOption.PLAIN_USERNAME).isEmpty()) {
            return ZMQ.Socket.Mechanism.PLAIN;
        }
        return ZMQ.Socket.Mechanism.NULL;
    }

    /** A key given as 40 Z85 characters becomes its 32 bytes, as JeroMQ accepts both. */
    private static byte[] binaryKey(byte[] key) {
        if (key != null && key.length == ZMQ.Curve.KEY_SIZE_Z85) {
            try {
                return ZMQ.Curve.z85Decode(new String(key, StandardCharsets.US_ASCII));
            } catch (IllegalArgumentException notZ85) {
                // Left as is: 40 bytes are no key, so the option refuses it (false, EINVAL).
            }
        }
        return key;
    }
}
