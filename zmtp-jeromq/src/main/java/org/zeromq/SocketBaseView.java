package org.zeromq;

import static zmq.ZMQ.*;

import java.nio.charset.StandardCharsets;

/**
 * {@link ZMQ.Socket#base()}: JeroMQ's option calls by number, each handed to the socket's own getter or setter, so
 * that both ways of setting an option behave the same.
 */
final class SocketBaseView extends zmq.SocketBase {
    private final ZMQ.Socket socket;

    SocketBaseView(ZMQ.Socket socket) {
        this.socket = socket;
    }

    @Override
    public int errno() {
        return socket.errno();
    }

    @Override
    public int getSocketOpt(int option) {
        Object value = getSocketOptx(option);
        if (value instanceof Number) {
            return ((Number) value).intValue();
        }
        if (value instanceof Boolean) {
            return (Boolean) value ? 1 : 0;
        }
        throw new IllegalArgumentException(value + " is neither an integer or a boolean for option " + option);
    }

    @Override
    public Object getSocketOptx(int option) {
        ZMQ.Socket s = socket;
        switch (option) {
            case ZMQ_TYPE:
                return s.getType();
            case ZMQ_RCVMORE:
                return s.hasReceiveMore() ? 1 : 0;
            case ZMQ_EVENTS:
                return s.getEvents();
            case ZMQ_FD:
                socket.errno = ErrorCodes.EINVAL;
                return null;
            case ZMQ_LAST_ENDPOINT:
                return s.getLastEndpoint();
            case ZMQ_LINGER:
                return s.getLinger();
            case ZMQ_RECONNECT_IVL:
                return s.getReconnectIVL();
            case ZMQ_RECONNECT_IVL_MAX:
                return s.getReconnectIVLMax();
            case ZMQ_BACKLOG:
                return s.getBacklog();
            case ZMQ_HANDSHAKE_IVL:
                return s.getHandshakeIvl();
            case ZMQ_HEARTBEAT_IVL:
                return s.getHeartbeatIvl();
            case ZMQ_HEARTBEAT_TIMEOUT:
                return s.getHeartbeatTimeout();
            case ZMQ_HEARTBEAT_TTL:
                return s.getHeartbeatTtl();
            case ZMQ_HEARTBEAT_CONTEXT:
                return s.getHeartbeatContext();
            case ZMQ_MAXMSGSIZE:
                return s.getMaxMsgSize();
            case ZMQ_SNDHWM:
                return s.getSndHWM();
            case ZMQ_RCVHWM:
                return s.getRcvHWM();
            case ZMQ_SNDTIMEO:
                return s.getSendTimeOut();
            case ZMQ_RCVTIMEO:
                return s.getReceiveTimeOut();
            case ZMQ_SNDBUF:
                return s.getSendBufferSize();
            case ZMQ_RCVBUF:
                return s.getReceiveBufferSize();
            case ZMQ_IMMEDIATE:
                return s.getImmediate();
            case ZMQ_DELAY_ATTACH_ON_CONNECT:
                return !s.getImmediate();
            case ZMQ_IDENTITY:
                return s.getIdentity();
            case ZMQ_ZAP_DOMAIN:
                return s.getZapDomain();
            case ZMQ_MECHANISM:
                return s.getMechanism();
            case ZMQ_PLAIN_SERVER:
                return s.getPlainServer();
            case ZMQ_PLAIN_USERNAME:
                return s.getPlainUsername();
            case ZMQ_PLAIN_PASSWORD:
                return s.getPlainPassword();
            case ZMQ_CURVE_SERVER:
                return s.getCurveServer();
            case ZMQ_CURVE_PUBLICKEY:
                return s.getCurvePublicKey();
            case ZMQ_CURVE_SERVERKEY:
                return s.getCurveServerKey();
            case ZMQ_CURVE_SECRETKEY:
                return s.getCurveSecretKey();
            case ZMQ_CONFLATE:
                return s.getConflate();
            case ZMQ_SOCKS_PROXY:
                return s.getSocksProxy();
            case ZMQ_AFFINITY:
                return s.getAffinity();
            case ZMQ_TOS:
                return s.getTos();
            case ZMQ_RATE:
                return (int) s.getRate();
            case ZMQ_RECOVERY_IVL:
                return (int) s.getRecoveryInterval();
            case ZMQ_MULTICAST_HOPS:
                return (int) s.getMulticastHops();
            case ZMQ_TCP_KEEPALIVE:
                return s.getTCPKeepAlive();
            case ZMQ_TCP_KEEPALIVE_CNT:
                return (int) s.getTCPKeepAliveCount();
            case ZMQ_TCP_KEEPALIVE_IDLE:
                return (int) s.getTCPKeepAliveIdle();
            case ZMQ_TCP_KEEPALIVE_INTVL:
                return (int) s.getTCPKeepAliveInterval();
            case ZMQ_IPV6:
                return s.getIPv6();
            case ZMQ_IPV4ONLY:
                return s.getIPv4Only();
            case ZMQ_MSG_ALLOCATION_HEAP_THRESHOLD:
                return s.getMsgAllocationHeapThreshold();
            case ZMQ_SELFADDR_PROPERTY_NAME:
                return s.getSelfAddressPropertyName();
            case ZMQ_GSSAPI_SERVER:
                return false;
            default:
                throw new IllegalArgumentException("option=" + option);
        }
    }

    @Override
    public boolean setSocketOpt(int option, Object optval) {
        ZMQ.Socket s = socket;
        switch (option) {
            case ZMQ_LINGER:
                return s.setLinger(number(option, optval));
            case ZMQ_RECONNECT_IVL:
                return s.setReconnectIVL(number(option, optval));
            case ZMQ_RECONNECT_IVL_MAX:
                return s.setReconnectIVLMax(number(option, optval));
            case ZMQ_BACKLOG:
                return s.setBacklog(number(option, optval));
            case ZMQ_HANDSHAKE_IVL:
                return s.setHandshakeIvl(number(option, optval));
            case ZMQ_HEARTBEAT_IVL:
                return s.setHeartbeatIvl(number(option, optval));
            case ZMQ_HEARTBEAT_TIMEOUT:
                return s.setHeartbeatTimeout(number(option, optval));
            case ZMQ_HEARTBEAT_TTL:
                return s.setHeartbeatTtl(number(option, optval));
            case ZMQ_HEARTBEAT_CONTEXT:
                return s.setHeartbeatContext(bytes(optval));
            case ZMQ_MAXMSGSIZE:
                return s.setMaxMsgSize(longNumber(option, optval));
            case ZMQ_SNDHWM:
                return s.setSndHWM(number(option, optval));
            case ZMQ_RCVHWM:
                return s.setRcvHWM(number(option, optval));
            case ZMQ_SNDTIMEO:
                return s.setSendTimeOut(number(option, optval));
            case ZMQ_RCVTIMEO:
                return s.setReceiveTimeOut(number(option, optval));
            case ZMQ_SNDBUF:
                return s.setSendBufferSize(number(option, optval));
            case ZMQ_RCVBUF:
                return s.setReceiveBufferSize(number(option, optval));
            case ZMQ_IMMEDIATE:
                return s.setImmediate(flag(option, optval));
            case ZMQ_DELAY_ATTACH_ON_CONNECT:
                return s.setImmediate(!flag(option, optval));
            case ZMQ_IDENTITY:
                return s.setIdentity(bytes(optval));
            case ZMQ_SUBSCRIBE:
                return s.subscribe(bytes(optval));
            case ZMQ_UNSUBSCRIBE:
                return s.unsubscribe(bytes(optval));
            case ZMQ_ROUTER_MANDATORY:
                return s.setRouterMandatory(flag(option, optval));
            case ZMQ_ROUTER_HANDOVER:
                return s.setRouterHandover(flag(option, optval));
            case ZMQ_ROUTER_RAW:
                return s.setRouterRaw(flag(option, optval));
            case ZMQ_PROBE_ROUTER:
                return s.setProbeRouter(flag(option, optval));
            case ZMQ_XPUB_VERBOSE:
                return s.setXpubVerbose(flag(option, optval));
            case ZMQ_XPUB_VERBOSER:
                return s.setXpubVerboser(flag(option, optval));
            case ZMQ_XPUB_NODROP:
                return s.setXpubNoDrop(flag(option, optval));
            case ZMQ_XPUB_MANUAL:
                return s.setXpubManual(flag(option, optval));
            case ZMQ_REQ_CORRELATE:
                return s.setReqCorrelate(flag(option, optval));
            case ZMQ_REQ_RELAXED:
                return s.setReqRelaxed(flag(option, optval));
            case ZMQ_CONFLATE:
                return s.setConflate(flag(option, optval));
            case ZMQ_CONNECT_RID:
                return s.setConnectRid(bytes(optval));
            case ZMQ_SOCKS_PROXY:
                return s.setSocksProxy(text(optval));
            case ZMQ_HELLO_MSG:
                return s.setHelloMsg(bytes(optval));
            case ZMQ_ZAP_DOMAIN:
                return s.setZapDomain(text(optval));
            case ZMQ_PLAIN_SERVER:
                return s.setPlainServer(flag(option, optval));
            case ZMQ_PLAIN_USERNAME:
                return s.setPlainUsername(text(optval));
            case ZMQ_PLAIN_PASSWORD:
                return s.setPlainPassword(text(optval));
            case ZMQ_CURVE_SERVER:
                return s.setCurveServer(flag(option, optval));
            case ZMQ_CURVE_PUBLICKEY:
                return s.setCurvePublicKey(bytes(optval));
            case ZMQ_CURVE_SERVERKEY:
                return s.setCurveServerKey(bytes(optval));
            case ZMQ_CURVE_SECRETKEY:
                return s.setCurveSecretKey(bytes(optval));
            case ZMQ_AFFINITY:
                return s.setAffinity(longNumber(option, optval));
            case ZMQ_TOS:
                return s.setTos(number(option, optval));
            case ZMQ_RATE:
                return s.setRate(number(option, optval));
            case ZMQ_RECOVERY_IVL:
                return s.setRecoveryInterval(number(option, optval));
            case ZMQ_MULTICAST_HOPS:
                return s.setMulticastHops(number(option, optval));
            case ZMQ_TCP_KEEPALIVE:
                return s.setTCPKeepAlive(number(option, optval));
            case ZMQ_TCP_KEEPALIVE_CNT:
                return s.setTCPKeepAliveCount(number(option, optval));
            case ZMQ_TCP_KEEPALIVE_IDLE:
                return s.setTCPKeepAliveIdle(number(option, optval));
            case ZMQ_TCP_KEEPALIVE_INTVL:
                return s.setTCPKeepAliveInterval(number(option, optval));
            case ZMQ_IPV6:
                return s.setIPv6(flag(option, optval));
            case ZMQ_IPV4ONLY:
                return s.setIPv4Only(flag(option, optval));
            case ZMQ_MSG_ALLOCATION_HEAP_THRESHOLD:
                return s.setMsgAllocationHeapThreshold(number(option, optval));
            case ZMQ_SELFADDR_PROPERTY_NAME:
                return s.setSelfAddressPropertyName(text(optval));
            default:
                throw new IllegalArgumentException("Unknown Option " + option);
        }
    }

    private static int number(int option, Object value) {
        return (int) longNumber(option, value);
    }

    private static long longNumber(int option, Object value) {
        if (value instanceof Number) {
            return ((Number) value).longValue();
        }
        throw new IllegalArgumentException("option " + option + " takes a number, not " + value);
    }

    private static boolean flag(int option, Object value) {
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        if (value instanceof Number) {
            return ((Number) value).longValue() != 0;
        }
        throw new IllegalArgumentException("option " + option + " takes a boolean, not " + value);
    }

    private static byte[] bytes(Object value) {
        if (value == null || value instanceof byte[]) {
            return (byte[]) value;
        }
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Object value) {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        if (value instanceof byte[]) {
            return new String((byte[]) value, StandardCharsets.UTF_8);
        }
        return value.toString();
    }
}
