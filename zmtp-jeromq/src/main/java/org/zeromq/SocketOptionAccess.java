package org.zeromq;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * JeroMQ's option getters and setters of {@link ZMQ.Socket}, each on its {@link ZmtpSocketOption}. As in JeroMQ a
 * setter returns false (errno EINVAL) for a value out of range, and throws {@link ZMQException} (ETERM) on a closed
 * socket.
 *
 * <p>Three kinds of options have no netty-zmtp counterpart (docs/jeromq.md lists each): those that only tune
 * (affinity, TOS, backlog, TCP keep-alive, multicast hops, IPv6) are stored and read back, and a warning is logged
 * the first time one is set to other than its default, since it has no effect; those that change what the socket
 * does (CONFLATE, REQ_CORRELATE, REQ_RELAXED, PROBE_ROUTER, ROUTER_RAW, CONNECT_RID, XPUB_MANUAL, XPUB_VERBOSER,
 * SOCKS_PROXY, HELLO_MSG) are refused when set to anything but their default: the setter throws ZMQException with
 * ENOTSUP, rather than letting the application run with a behaviour it didn't ask for.
 */
abstract class SocketOptionAccess extends SocketCore {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZMQ.Socket.class);

    /** ZMQ_SNDTIMEO and ZMQ_RCVTIMEO in ms; -1 = forever. Kept here: netty-zmtp takes a timeout per call. */
    int sendTimeout = -1;
    int receiveTimeout = -1;
    /** The same as Durations, made when set rather than per call. */
    Duration sendTimeoutDuration;
    Duration receiveTimeoutDuration;

    private long affinity;
    private int tos;
    private int backlog = 100;
    private int tcpKeepAlive = -1;
    private long tcpKeepAliveCount = -1;
    private long tcpKeepAliveIdle = -1;
    private long tcpKeepAliveInterval = -1;
    private long multicastHops = 1;
    private boolean multicastLoop = true;
    private boolean ipv6;
    private long rate = 100;
    private long recoveryInterval = 10_000;
    private int msgAllocationHeapThreshold;
    private String selfAddressPropertyName;
    private byte[] heartbeatContext = new byte[0];
    private volatile boolean warned;

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

    /** An option that changes behaviour netty-zmtp doesn't have: its default is accepted, anything else refused. */
    private boolean refuseUnlessDefault(String name, boolean isDefault) {
        if (isDefault) {
            return true;
        }
        throw failure(ErrorCodes.ENOTSUP, name + " is not supported by zmtp-jeromq (see docs/jeromq.md)");
    }

    /** An option that only tunes: stored; the first non-default value is logged, since it has no effect. */
    private boolean storedOnly(String name, boolean isDefault) {
        if (!isDefault && !warned) {
            warned = true;
            logger.warn("{}: {} is stored but has no effect in zmtp-jeromq (see docs/jeromq.md)", zmtp, name);
        }
        return true;
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

    /** ZMQ_XPUB_MANUAL: not supported; false is accepted, true throws ENOTSUP. */
    public boolean setXpubManual(boolean manual) {
        return refuseUnlessDefault("XPUB_MANUAL", !manual);
    }

    /** ZMQ_XPUB_VERBOSER: not supported; false is accepted, true throws ENOTSUP. */
    public boolean setXpubVerboser(boolean verboser) {
        return refuseUnlessDefault("XPUB_VERBOSER", !verboser);
    }

    /** ZMQ_CONFLATE: not supported; false is accepted, true throws ENOTSUP. */
    public boolean setConflate(boolean conflate) {
        return refuseUnlessDefault("CONFLATE", !conflate);
    }

    public boolean isConflate() {
        return false;
    }

    public boolean getConflate() {
        return false;
    }

    /** ZMQ_REQ_CORRELATE: not supported; false is accepted, true throws ENOTSUP. */
    public boolean setReqCorrelate(boolean correlate) {
        return refuseUnlessDefault("REQ_CORRELATE", !correlate);
    }

    /** Always false (JeroMQ's getter throws; the option is write-only in libzmq). */
    @Deprecated
    public boolean getReqCorrelate() {
        return false;
    }

    /** ZMQ_REQ_RELAXED: not supported; false is accepted, true throws ENOTSUP. */
    public boolean setReqRelaxed(boolean relaxed) {
        return refuseUnlessDefault("REQ_RELAXED", !relaxed);
    }

    @Deprecated
    public boolean getReqRelaxed() {
        return false;
    }

    /** ZMQ_PROBE_ROUTER: not supported; false is accepted, true throws ENOTSUP. */
    public boolean setProbeRouter(boolean probe) {
        return refuseUnlessDefault("PROBE_ROUTER", !probe);
    }

    /** ZMQ_ROUTER_RAW: not supported (use a STREAM socket); false is accepted, true throws ENOTSUP. */
    public boolean setRouterRaw(boolean raw) {
        return refuseUnlessDefault("ROUTER_RAW", !raw);
    }

    /** ZMQ_CONNECT_RID: not supported; throws ENOTSUP for any id. */
    public boolean setConnectRid(String rid) {
        return refuseUnlessDefault("CONNECT_RID", rid == null);
    }

    public boolean setConnectRid(byte[] rid) {
        return refuseUnlessDefault("CONNECT_RID", rid == null);
    }

    /** ZMQ_SOCKS_PROXY: not supported; null is accepted, an address throws ENOTSUP. */
    public boolean setSocksProxy(String proxy) {
        return refuseUnlessDefault("SOCKS_PROXY", proxy == null || proxy.isEmpty());
    }

    public boolean setSocksProxy(byte[] proxy) {
        return refuseUnlessDefault("SOCKS_PROXY", proxy == null || proxy.length == 0);
    }

    public String getSocksProxy() {
        return null;
    }

    /** ZMQ_HELLO_MSG: not supported; null is accepted, a message throws ENOTSUP. */
    public boolean setHelloMsg(byte[] helloMsg) {
        return refuseUnlessDefault("HELLO_MSG", helloMsg == null);
    }

    // ---- stored only: tuning with no netty-zmtp counterpart

    public long getAffinity() {
        return affinity;
    }

    /** ZMQ_AFFINITY: stored only (connections are spread over the I/O threads by Netty). */
    public boolean setAffinity(long value) {
        affinity = value;
        return storedOnly("AFFINITY", value == 0);
    }

    public int getTos() {
        return tos;
    }

    /** ZMQ_TOS: stored only. */
    public boolean setTos(int value) {
        tos = value;
        return storedOnly("TOS", value == 0);
    }

    /** Always -1, as JeroMQ's (SWAP was removed from libzmq 3). */
    @Deprecated
    public long getSwap() {
        return -1L;
    }

    @Deprecated
    public boolean setSwap(long value) {
        return false;
    }

    public long getRate() {
        return rate;
    }

    /** ZMQ_RATE (PGM, which neither JeroMQ nor netty-zmtp has): stored only. */
    public boolean setRate(long value) {
        rate = value;
        return storedOnly("RATE", value == 100);
    }

    public long getRecoveryInterval() {
        return recoveryInterval;
    }

    /** ZMQ_RECOVERY_IVL (PGM): stored only. */
    public boolean setRecoveryInterval(long value) {
        recoveryInterval = value;
        return storedOnly("RECOVERY_IVL", value == 10_000);
    }

    public boolean hasMulticastLoop() {
        return multicastLoop;
    }

    /** ZMQ_MULTICAST_LOOP: stored only. */
    public boolean setMulticastLoop(boolean multicastLoop) {
        this.multicastLoop = multicastLoop;
        return storedOnly("MULTICAST_LOOP", multicastLoop);
    }

    public long getMulticastHops() {
        return multicastHops;
    }

    /** ZMQ_MULTICAST_HOPS: stored only. */
    public boolean setMulticastHops(long value) {
        multicastHops = value;
        return storedOnly("MULTICAST_HOPS", value == 1);
    }

    /** ZMQ_TCP_KEEPALIVE: stored only (the OS's keep-alive settings apply). */
    public boolean setTCPKeepAlive(int optVal) {
        tcpKeepAlive = optVal;
        return storedOnly("TCP_KEEPALIVE", optVal == -1);
    }

    public int getTCPKeepAlive() {
        return tcpKeepAlive;
    }

    @Deprecated
    public boolean setTCPKeepAlive(long value) {
        return setTCPKeepAlive(clamp(value));
    }

    @Deprecated
    public long getTCPKeepAliveSetting() {
        return tcpKeepAlive;
    }

    public boolean setTCPKeepAliveCount(long value) {
        tcpKeepAliveCount = value;
        return storedOnly("TCP_KEEPALIVE_CNT", value == -1);
    }

    public long getTCPKeepAliveCount() {
        return tcpKeepAliveCount;
    }

    public boolean setTCPKeepAliveInterval(long value) {
        tcpKeepAliveInterval = value;
        return storedOnly("TCP_KEEPALIVE_INTVL", value == -1);
    }

    public long getTCPKeepAliveInterval() {
        return tcpKeepAliveInterval;
    }

    public boolean setTCPKeepAliveIdle(long value) {
        tcpKeepAliveIdle = value;
        return storedOnly("TCP_KEEPALIVE_IDLE", value == -1);
    }

    public long getTCPKeepAliveIdle() {
        return tcpKeepAliveIdle;
    }

    /** ZMQ_IPV6 as set; IPv6 endpoints bind and connect whether or not it is set. */
    public boolean isIPv6() {
        return ipv6;
    }

    public boolean getIPv6() {
        return ipv6;
    }

    public boolean setIPv6(boolean v6) {
        ipv6 = v6;
        return true;
    }

    public boolean getIPv4Only() {
        return !ipv6;
    }

    public boolean setIPv4Only(boolean v4only) {
        return setIPv6(!v4only);
    }

    public int getMsgAllocationHeapThreshold() {
        return msgAllocationHeapThreshold;
    }

    /** Stored only: netty-zmtp's buffers come from Netty's pooled allocator whatever their size. */
    public boolean setMsgAllocationHeapThreshold(int threshold) {
        msgAllocationHeapThreshold = threshold;
        return true;
    }

    public String getSelfAddressPropertyName() {
        return selfAddressPropertyName;
    }

    /** Stored only: received messages carry no metadata properties in this API. */
    public boolean setSelfAddressPropertyName(String recordName) {
        selfAddressPropertyName = recordName;
        return storedOnly("SELFADDR_PROPERTY_NAME", recordName == null);
    }

    static int clamp(long value) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
