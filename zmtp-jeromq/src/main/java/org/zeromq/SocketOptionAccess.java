package org.zeromq;

import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.time.Duration;

/**
 * JeroMQ's option getters and setters of {@link ZMQ.Socket} that map onto a {@link ZmtpSocketOption}. As in JeroMQ
 * a setter returns false (errno EINVAL) for a value out of range, and throws {@link ZMQException} (ETERM) on a
 * closed socket. SNDTIMEO and RCVTIMEO are kept here: netty-zmtp takes a timeout per call.
 */
abstract class SocketOptionAccess extends SocketCompatOptions {
    /** ZMQ_SNDTIMEO and ZMQ_RCVTIMEO in ms; -1 = forever. */
    int sendTimeout = -1;
    int receiveTimeout = -1;
    /** The same as Durations, made when set rather than per call. */
    Duration sendTimeoutDuration;
    Duration receiveTimeoutDuration;

    SocketOptionAccess(ContextImpl context, SocketType type) {
        super(context, type);
    }

    final <T> T get(ZmtpSocketOption<T> option) {
        try {
            return zmtp.getOption(option);
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /** Sets {@code option}; false with errno EINVAL when the value is out of range; ZMQException if closed. */
    final <T> boolean set(ZmtpSocketOption<T> option, T value) {
        try {
            zmtp.setOption(option, value);
            return true;
        } catch (IllegalArgumentException | NullPointerException e) {
            errno = ErrorCodes.EINVAL;
            return false;
        } catch (ZmtpSocketException.Closed e) {
            throw failure(e);
        } catch (ZmtpSocketException e) {
            // An option that can't change any more (a key once handshakes ran, say).
            errno = ErrorCodes.EINVAL;
            return false;
        }
    }

    // ---- queues and timing

    /** ZMQ_LINGER in ms; -1 = until sent (capped by the context's 30 s). */
    public int getLinger() {
        return get(ZmtpSocketOption.LINGER);
    }

    /** Sets ZMQ_LINGER in ms. */
    public boolean setLinger(int value) {
        return set(ZmtpSocketOption.LINGER, value);
    }

    /** Sets ZMQ_LINGER in ms. */
    @Deprecated
    public boolean setLinger(long value) {
        return setLinger(clamp(value));
    }

    public int getReconnectIVL() {
        return get(ZmtpSocketOption.RECONNECT_IVL);
    }

    /** ZMQ_RECONNECT_IVL in ms; -1 (no reconnection) is refused: netty-zmtp always reconnects. */
    public boolean setReconnectIVL(int value) {
        if (value < 0) {
            throw failure(ErrorCodes.ENOTSUP, "RECONNECT_IVL -1 (never reconnect) is not supported");
        }
        return set(ZmtpSocketOption.RECONNECT_IVL, Math.max(1, value));
    }

    @Deprecated
    public boolean setReconnectIVL(long value) {
        return setReconnectIVL(clamp(value));
    }

    public int getReconnectIVLMax() {
        return get(ZmtpSocketOption.RECONNECT_IVL_MAX);
    }

    /** ZMQ_RECONNECT_IVL_MAX in ms; 0 = no back-off. */
    public boolean setReconnectIVLMax(int value) {
        return set(ZmtpSocketOption.RECONNECT_IVL_MAX, value);
    }

    @Deprecated
    public boolean setReconnectIVLMax(long value) {
        return setReconnectIVLMax(clamp(value));
    }

    /** ZMQ_BACKLOG: stored only (listeners use the OS's default queue of pending connections). */
    public int getBacklog() {
        return backlog;
    }

    public boolean setBacklog(int value) {
        this.backlog = value;
        return storedOnly("BACKLOG", value == 100);
    }

    @Deprecated
    public boolean setBacklog(long value) {
        return setBacklog(clamp(value));
    }

    public int getHandshakeIvl() {
        return get(ZmtpSocketOption.HANDSHAKE_IVL);
    }

    /** ZMQ_HANDSHAKE_IVL in ms; 0 = no limit. */
    public boolean setHandshakeIvl(int maxHandshakeIvl) {
        return set(ZmtpSocketOption.HANDSHAKE_IVL, maxHandshakeIvl);
    }

    public int getHeartbeatIvl() {
        return get(ZmtpSocketOption.HEARTBEAT_IVL);
    }

    public boolean setHeartbeatIvl(int heartbeatIvl) {
        return set(ZmtpSocketOption.HEARTBEAT_IVL, heartbeatIvl);
    }

    public int getHeartbeatTimeout() {
        int t = get(ZmtpSocketOption.HEARTBEAT_TIMEOUT);
        return t < 0 ? 0 : t;
    }

    public boolean setHeartbeatTimeout(int heartbeatTimeout) {
        return set(ZmtpSocketOption.HEARTBEAT_TIMEOUT, heartbeatTimeout == 0 ? -1 : heartbeatTimeout);
    }

    public int getHeartbeatTtl() {
        return get(ZmtpSocketOption.HEARTBEAT_TTL);
    }

    public boolean setHeartbeatTtl(int heartbeatTtl) {
        return set(ZmtpSocketOption.HEARTBEAT_TTL, heartbeatTtl);
    }

    /** The PING context as set; netty-zmtp's PINGs carry none (a peer must accept any). */
    public byte[] getHeartbeatContext() {
        return heartbeatContext.clone();
    }

    public boolean setHeartbeatContext(byte[] pingContext) {
        this.heartbeatContext = pingContext == null ? new byte[0] : pingContext.clone();
        return storedOnly("HEARTBEAT_CONTEXT", heartbeatContext.length == 0);
    }

    public long getMaxMsgSize() {
        return get(ZmtpSocketOption.MAXMSGSIZE);
    }

    /** ZMQ_MAXMSGSIZE in bytes; -1 = the codec's 64 MiB cap. */
    public boolean setMaxMsgSize(long value) {
        return set(ZmtpSocketOption.MAXMSGSIZE, value);
    }

    public int getSndHWM() {
        return get(ZmtpSocketOption.SNDHWM);
    }

    public boolean setSndHWM(int value) {
        return set(ZmtpSocketOption.SNDHWM, value);
    }

    @Deprecated
    public boolean setSndHWM(long value) {
        return setSndHWM(clamp(value));
    }

    public int getRcvHWM() {
        return get(ZmtpSocketOption.RCVHWM);
    }

    public boolean setRcvHWM(int value) {
        return set(ZmtpSocketOption.RCVHWM, value);
    }

    @Deprecated
    public boolean setRcvHWM(long value) {
        return setRcvHWM(clamp(value));
    }

    /** -1, as JeroMQ's: there is no single HWM to read; see {@link #getSndHWM()} and {@link #getRcvHWM()}. */
    @Deprecated
    public int getHWM() {
        return -1;
    }

    /** Sets both SNDHWM and RCVHWM. */
    public boolean setHWM(int hwm) {
        boolean snd = setSndHWM(hwm);
        boolean rcv = setRcvHWM(hwm);
        return snd || rcv;
    }

    @Deprecated
    public boolean setHWM(long hwm) {
        return setHWM(clamp(hwm));
    }

    public int getReceiveTimeOut() {
        return receiveTimeout;
    }

    /** ZMQ_RCVTIMEO in ms: a receive that waits longer returns null with errno EAGAIN; -1 = forever. */
    public boolean setReceiveTimeOut(int value) {
        if (value < -1) {
            errno = ErrorCodes.EINVAL;
            return false;
        }
        receiveTimeout = value;
        receiveTimeoutDuration = value < 0 ? null : Duration.ofMillis(value);
        return true;
    }

    public int getSendTimeOut() {
        return sendTimeout;
    }

    /** ZMQ_SNDTIMEO in ms: a send that waits longer returns false with errno EAGAIN; -1 = forever. */
    public boolean setSendTimeOut(int value) {
        if (value < -1) {
            errno = ErrorCodes.EINVAL;
            return false;
        }
        sendTimeout = value;
        sendTimeoutDuration = value < 0 ? null : Duration.ofMillis(value);
        return true;
    }

    public int getSendBufferSize() {
        return get(ZmtpSocketOption.SNDBUF);
    }

    /** ZMQ_SNDBUF in bytes (SO_SNDBUF of each connection); -1 or 0 = the OS default. */
    public boolean setSendBufferSize(int value) {
        return set(ZmtpSocketOption.SNDBUF, value == 0 ? -1 : value);
    }

    @Deprecated
    public boolean setSendBufferSize(long value) {
        return setSendBufferSize(clamp(value));
    }

    public int getReceiveBufferSize() {
        return get(ZmtpSocketOption.RCVBUF);
    }

    public boolean setReceiveBufferSize(int value) {
        return set(ZmtpSocketOption.RCVBUF, value == 0 ? -1 : value);
    }

    @Deprecated
    public boolean setReceiveBufferSize(long value) {
        return setReceiveBufferSize(clamp(value));
    }

    public boolean setImmediate(boolean value) {
        return set(ZmtpSocketOption.IMMEDIATE, value);
    }

    public boolean isImmediate() {
        return get(ZmtpSocketOption.IMMEDIATE);
    }

    public boolean getImmediate() {
        return isImmediate();
    }

    /** The old name of IMMEDIATE. */
    public boolean setDelayAttachOnConnect(boolean value) {
        return setImmediate(value);
    }

    public boolean getDelayAttachOnConnect() {
        return isImmediate();
    }

    // ---- identity and routing

    /** ZMQ_IDENTITY (ZMQ_ROUTING_ID). */
    public byte[] getIdentity() {
        return get(ZmtpSocketOption.ROUTING_ID);
    }

    public boolean setIdentity(byte[] identity) {
        return set(ZmtpSocketOption.ROUTING_ID, identity);
    }

    public boolean setRouterMandatory(boolean mandatory) {
        return set(ZmtpSocketOption.ROUTER_MANDATORY, mandatory);
    }

    public boolean setRouterHandover(boolean handover) {
        return set(ZmtpSocketOption.ROUTER_HANDOVER, handover);
    }

    public boolean setXpubVerbose(boolean verbose) {
        return set(ZmtpSocketOption.XPUB_VERBOSE, verbose);
    }

    public boolean setXpubNoDrop(boolean noDrop) {
        return set(ZmtpSocketOption.XPUB_NODROP, noDrop);
    }
}
