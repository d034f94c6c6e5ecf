package org.zeromq;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * JeroMQ's options of {@link ZMQ.Socket} that have no netty-zmtp counterpart (docs/jeromq.md lists each). Those
 * that only tune (affinity, TOS, backlog, TCP keep-alive, multicast, IPv6) are stored and read back, and a warning is
 * logged the first time one is set to other than its default, since it has no effect. Those that change what the
 * socket does (CONFLATE, REQ_CORRELATE, REQ_RELAXED, PROBE_ROUTER, ROUTER_RAW, CONNECT_RID, XPUB_MANUAL,
 * XPUB_VERBOSER, SOCKS_PROXY, HELLO_MSG) are refused when set to anything but their default: the setter throws
 * {@link ZMQException} with ENOTSUP, rather than letting the application run with a behaviour it didn't ask for.
 */
abstract class SocketCompatOptions extends SocketCore {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZMQ.Socket.class);

    private long affinity;
    private int tos;
    int backlog = 100;
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
    byte[] heartbeatContext = new byte[0];
    private volatile boolean warned;

    SocketCompatOptions(ContextImpl context, SocketType type) {
        super(context, type);
    }

    /** An option that changes behaviour netty-zmtp doesn't have: its default is accepted, anything else refused. */
    final boolean refuseUnlessDefault(String name, boolean isDefault) {
        if (isDefault) {
            return true;
        }
        throw failure(ErrorCodes.ENOTSUP, name + " is not supported by zmtp-jeromq (see docs/jeromq.md)");
    }

    /** An option that only tunes: stored; the first non-default value is logged, since it has no effect. */
    final boolean storedOnly(String name, boolean isDefault) {
        if (!isDefault && !warned) {
            warned = true;
            logger.warn("{}: {} is stored but has no effect in zmtp-jeromq (see docs/jeromq.md)", zmtp, name);
        }
        return true;
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
