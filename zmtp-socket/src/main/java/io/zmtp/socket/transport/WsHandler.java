package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.CharsetUtil;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.ZmtpCodecException;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeException;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpProtocolErrorEvent;

import javax.net.ssl.SSLException;
import java.net.URI;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A ws:// connection's adapter between Netty's WebSocket handlers and the unchanged ZMTP codec, so that NULL, PLAIN,
 * CURVE, heartbeats and the decoder's limits work as over tcp. ZWS 2.0 (rfc 45, libzmq's ws_engine) differs from
 * ZMTP over tcp in two ways only, and this undoes both:
 * <ul>
 * <li>No greeting: the WebSocket subprotocol ({@code ZWS2.0/NULL}, {@code /PLAIN}, {@code /CURVE}, or the bare
 * {@code ZWS2.0}: see {@link WsSubprotocol}) says what it would have. Once the upgrade is done this adds
 * {@link ZmtpHandshakeHandler} after itself, drops the greeting bytes it writes, and feeds it the greeting the
 * subprotocol stands for.</li>
 * <li>Framing: each binary WebSocket message is one ZMTP frame, a flags byte then the body
 * ({@link WsFrameDecoder} in, {@link WsFrameAdapter} out).</li>
 * </ul>
 * Once the upgrade is done, Netty's frame decoder gives way to {@link WsFrameDecoder}, which rewrites the messages
 * into ZMTP bytes where they lie in its cumulation (Netty's made an object and a copy per message). As libzmq's ws
 * decoder: text messages, fragmented messages and empty binary messages are protocol errors, which close the
 * connection with a WebSocket close frame and a {@link ZmtpProtocolErrorEvent}. A message too large is refused twice
 * over: the frame decoder stops at the limit the tcp decoder has (plus the flags byte and CURVE's overhead), from
 * the frame's header, and the codec's decoder then checks the exact size as over tcp.
 *
 * <p>wss://: with an {@link WsTransport#SSL_CONTEXT} on the channel, an {@link SslHandler} goes first in the pipeline
 * (a client's names the host connected to, for SNI and the host name check); the upgrade waits for the TLS
 * handshake (bounded by the handshake timeout), and a TLS handshake that fails is a {@link ZmtpHandshakeFailureEvent}
 * (PROTOCOL_ERROR, or TIMEOUT; "TLS handshake failed: " and the JDK's reason) before the close.
 */
final class WsHandler extends ChannelDuplexHandler {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(WsHandler.class);
    /** Room above maxMessageSize in the frame decoder's limit: the flags byte, a CURVE MESSAGE's header, nonce, MAC. */
    private static final int FRAME_SLACK = 64;
    /** The largest upgrade request or response; a browser's, cookies included, fits. */
    private static final int MAX_HTTP_MESSAGE = 16 * 1024;
    private static final long DEFAULT_UPGRADE_TIMEOUT_MILLIS = 10_000;

    private final ZmtpConfig config;
    /** The subprotocols a client offers and a server accepts, in order of preference. */
    private final String subprotocols;
    private final int maxPayload;
    private boolean server;
    private boolean zmtpStarted;
    private boolean decoderReplaced;
    /** {@link WsFrameDecoder} is in place: ByteBufs read are its ZMTP bytes. */
    private boolean bytesFromOurDecoder;
    private boolean closing;
    /** From the upgrade on: ZWS messages to ZMTP wire bytes and back. */
    private WsFrameAdapter frames;
    /** A server's bound on the upgrade, from the connection's start (Netty's starts at the request). */
    private ScheduledFuture<?> upgradeTimer;

    WsHandler(ZmtpConfig config) {
        this.config = config;
        this.subprotocols = WsSubprotocol.offered(config);
        long max = config.maxMessageSize();
        this.maxPayload = max < 0 || max > Integer.MAX_VALUE - FRAME_SLACK ? Integer.MAX_VALUE
                : (int) max + FRAME_SLACK;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        WsTransport.WsAddress address = ctx.channel().attr(WsTransport.ADDRESS).get();
        server = ctx.channel().parent() != null;
        ChannelPipeline p = ctx.pipeline();
        long timeout = config.handshakeTimeoutMillis() > 0 ? config.handshakeTimeoutMillis()
                : DEFAULT_UPGRADE_TIMEOUT_MILLIS;
        String name = ctx.name();
        SslContext tls = ctx.channel().attr(WsTransport.SSL_CONTEXT).get();
        if (tls != null) {
            // Before everything, the socket's connection monitor included: it sees the connection as bytes, and
            // the handshake failure event as any other.
            SslHandler ssl = server ? tls.newHandler(ctx.alloc())
                    : tls.newHandler(ctx.alloc(), host(address.hostPort()), port(address.hostPort()));
            ssl.setHandshakeTimeoutMillis(timeout);
            p.addFirst("ws-tls", ssl);
        }
        if (server) {
            if (!Boolean.TRUE.equals(ctx.channel().attr(WsTransport.SHARED_PORT).get())) {
                p.addBefore(name, "ws-http", new HttpServerCodec());
                p.addBefore(name, "ws-aggregator", new HttpObjectAggregator(MAX_HTTP_MESSAGE));
            }
            // On a shared port, the application's HttpServerCodec: Netty's handshaker replaces it at the upgrade.
            p.addBefore(name, "ws-protocol", new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig
                    .newBuilder()
                    .websocketPath(address.path())
                    // Only our mechanism's (and the bare one with NULL): a client offering another gets no
                    // subprotocol, and a close from us.
                    .subprotocols(subprotocols)
                    .checkStartsWith(false)
                    .handshakeTimeoutMillis(timeout)
                    .handleCloseFrames(true)
                    .dropPongFrames(true)
                    .decoderConfig(decoderConfig())
                    .build()));
            // Netty's handshake timeout starts only once a whole upgrade request has arrived: a client that sends
            // half of one, or nothing, would keep the connection for ever.
            upgradeTimer = ctx.executor().schedule(() -> {
                if (!zmtpStarted && !closing) {
                    handshakeFailed(ctx, ZmtpHandshakeFailureReason.TIMEOUT,
                            "WebSocket upgrade not done in " + timeout + " ms");
                }
            }, timeout, TimeUnit.MILLISECONDS);
        } else {
            URI uri = URI.create((tls != null ? "wss://" : "ws://") + address.hostPort() + address.path());
            p.addBefore(name, "ws-http", new HttpClientCodec());
            p.addBefore(name, "ws-aggregator", new HttpObjectAggregator(MAX_HTTP_MESSAGE));
            p.addBefore(name, "ws-protocol", new WebSocketClientProtocolHandler(WebSocketClientProtocolConfig
                    .newBuilder()
                    .webSocketUri(uri)
                    .version(WebSocketVersion.V13)
                    .subprotocol(subprotocols)
                    .allowExtensions(false)
                    .maxFramePayloadLength(maxPayload)
                    .handshakeTimeoutMillis(timeout)
                    .handleCloseFrames(true)
                    .dropPongFrames(true)
                    .build()));
        }
    }

    /** The host of tcp's {@code host:port}, an IPv6 literal without its brackets. */
    private static String host(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The port of tcp's {@code host:port} (-1 if it isn't a number: TLS then goes without it). */
    private static int port(String hostPort) {
        try {
            return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Netty's frame decoder, but one that leaves closing to us on a protocol violation: its own close completes the
     * close future (DISCONNECTED) before the exception reaches us, and the monitor would tell PROTOCOL_ERROR after.
     * A client masks what it sends and a server doesn't; anything else is refused, as libzmq refuses it.
     */
    private WebSocketDecoderConfig decoderConfig() {
        return WebSocketDecoderConfig.newBuilder()
                .maxFramePayloadLength(maxPayload)
                .expectMaskedFrames(server)
                .allowExtensions(false)
                .allowMaskMismatch(false)
                .closeOnProtocolViolation(false)
                .build();
    }

    /**
     * Netty's frame decoder, which the handshakers install, replaced by ours ({@link WsFrameDecoder}: ZMTP bytes in
     * place, no object per message). Done once the upgrade is complete, never from inside a read of the old
     * decoder's frames: what it still holds is handed to the new one at once, and would overtake them. (A client's
     * first frames, in the read of the 101, come through Netty's decoder as frame objects.)
     */
    private void replaceDecoder(ChannelHandlerContext ctx) {
        if (decoderReplaced || closing) {
            return;
        }
        decoderReplaced = true;
        ChannelPipeline p = ctx.pipeline();
        WebSocketFrameDecoder old = p.get(WebSocketFrameDecoder.class);
        if (old != null) {
            // Set first: bytes the old decoder still holds reach ours, and its output us, inside replace().
            bytesFromOurDecoder = true;
            p.replace(old, "ws-frame-decoder", new WsFrameDecoder(server, maxPayload));
            // Before Netty's protocol handler, which would answer every ping of a flood (see WsPingHandler).
            p.addAfter("ws-frame-decoder", "ws-ping", new WsPingHandler());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent) {
            SslHandshakeCompletionEvent tls = (SslHandshakeCompletionEvent) evt;
            if (!tls.isSuccess()) {
                tlsFailed(ctx, tls.cause());
            }
            return;
        }
        if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete) {
            String chosen = ((WebSocketServerProtocolHandler.HandshakeComplete) evt).selectedSubprotocol();
            if (chosen == null) {
                // libzmq just drops such a client; a close frame tells a browser's script why.
                handshakeFailed(ctx, ZmtpHandshakeFailureReason.MECHANISM_MISMATCH,
                        "the WebSocket client offered none of the subprotocols " + subprotocols);
                return;
            }
            startZmtp(ctx, chosen);
            replaceDecoder(ctx);
            return;
        }
        if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
            // Netty's handshaker has checked that the server chose a subprotocol we offered.
            startZmtp(ctx, clientSubprotocol(ctx));
            replaceDecoder(ctx);
            return;
        }
        if (evt == WebSocketServerProtocolHandler.ServerHandshakeStateEvent.HANDSHAKE_TIMEOUT
                || evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
            handshakeFailed(ctx, ZmtpHandshakeFailureReason.TIMEOUT, "WebSocket upgrade not done in time");
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    /** Upgrade done: the ZMTP handshake starts after us, and gets the greeting the chosen subprotocol stands for. */
    private void startZmtp(ChannelHandlerContext ctx, String chosen) {
        if (zmtpStarted) {
            return;
        }
        zmtpStarted = true;
        cancelUpgradeTimer();
        boolean bare = WsSubprotocol.isBare(chosen);
        frames = new WsFrameAdapter(ctx.alloc(), WsSubprotocol.ourGreetingToSwallow(bare), !server);
        ctx.pipeline().addAfter(ctx.name(), "zmtp-codec-handshake",
                new ZmtpHandshakeHandler(WsSubprotocol.codecConfig(config, bare)));
        ctx.fireChannelRead(WsSubprotocol.peerGreeting(ctx.alloc(), config, bare));
    }

    /** The subprotocol the server chose, which Netty's client handshaker has checked is one we offered. */
    private static String clientSubprotocol(ChannelHandlerContext ctx) {
        WebSocketClientProtocolHandler h = ctx.pipeline().get(WebSocketClientProtocolHandler.class);
        return h == null ? null : h.handshaker().actualSubprotocol();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof WebSocketFrame && !zmtpStarted) {
            // A frame that came in the same read as the 101 response can reach us before Netty's
            // HANDSHAKE_COMPLETE event: it proves the upgrade is done all the same. (Only a client's: a server's
            // event comes when its 101 is written, before the client can send.)
            startZmtp(ctx, clientSubprotocol(ctx));
        }
        handleRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (zmtpStarted) {
            replaceDecoder(ctx);
        }
        ctx.fireChannelReadComplete();
    }

    private void handleRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf && bytesFromOurDecoder) {
            // WsFrameDecoder's: the ZMTP bytes of one or more messages.
            ctx.fireChannelRead(msg);
        } else if (msg instanceof BinaryWebSocketFrame) {
            BinaryWebSocketFrame f = (BinaryWebSocketFrame) msg;
            if (!f.isFinalFragment()) {
                protocolError(ctx, f, WebSocketCloseStatus.PROTOCOL_ERROR,
                        "fragmented WebSocket message (ZWS 2.0 carries one frame per message)");
                return;
            }
            ByteBuf content = f.content();
            if (!content.isReadable()) {
                protocolError(ctx, f, WebSocketCloseStatus.PROTOCOL_ERROR, "empty WebSocket message (no flags byte)");
                return;
            }
            ctx.fireChannelRead(WsFrameAdapter.toZmtpFrame(ctx.alloc(), content));
        } else if (msg instanceof TextWebSocketFrame) {
            protocolError(ctx, (WebSocketFrame) msg, WebSocketCloseStatus.INVALID_MESSAGE_TYPE,
                    "text WebSocket message (ZWS 2.0 carries binary messages only)");
        } else if (msg instanceof WebSocketFrame) {
            // A continuation: its first fragment was refused already, unless the peer sent one out of the blue.
            protocolError(ctx, (WebSocketFrame) msg, WebSocketCloseStatus.PROTOCOL_ERROR,
                    "fragmented WebSocket message (ZWS 2.0 carries one frame per message)");
        } else if (msg instanceof HttpRequest) {
            notFound(ctx, (HttpRequest) msg);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Another path on our own ws:// port: not ours to serve (on a shared port, ZmtpWebSocketHandler passes it on). */
    private void notFound(ChannelHandlerContext ctx, HttpRequest request) {
        ReferenceCountUtil.release(request);
        closing = true;
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND,
                Unpooled.copiedBuffer("no ZeroMQ WebSocket endpoint at " + request.uri() + "\n", CharsetUtil.UTF_8));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .set(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes())
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }

    private void protocolError(ChannelHandlerContext ctx, WebSocketFrame frame, WebSocketCloseStatus status,
                               String reason) {
        frame.release();
        closing = true;
        ctx.fireUserEventTriggered(new ZmtpProtocolErrorEvent(ctx.channel().remoteAddress(),
                new ZmtpCodecException(reason)));
        ctx.writeAndFlush(new CloseWebSocketFrame(status, reason)).addListener(ChannelFutureListener.CLOSE);
    }

    private void handshakeFailed(ChannelHandlerContext ctx, ZmtpHandshakeFailureReason reason, String message) {
        closing = true;
        ctx.fireUserEventTriggered(new ZmtpHandshakeFailureEvent(new ZmtpHandshakeException(reason, message),
                ctx.channel().remoteAddress()));
        if (reason == ZmtpHandshakeFailureReason.MECHANISM_MISMATCH && server) {
            ctx.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.PROTOCOL_ERROR, message))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    /** The TLS handshake failed (Netty's SslHandler closes the connection itself). */
    private void tlsFailed(ChannelHandlerContext ctx, Throwable cause) {
        if (closing) {
            return;
        }
        Throwable reason = cause;
        while (!(reason instanceof SSLException) && reason.getCause() != null) {
            reason = reason.getCause();
        }
        String why = reason instanceof NotSslRecordException
                // Its message is the bytes received, in hex: a ws:// client's request, most likely.
                ? "the peer did not speak TLS (NotSslRecordException; a ws:// peer on a wss:// port?)"
                : reason.toString();
        handshakeFailed(ctx, reason instanceof SslHandshakeTimeoutException ? ZmtpHandshakeFailureReason.TIMEOUT
                : ZmtpHandshakeFailureReason.PROTOCOL_ERROR, "TLS handshake failed: " + why);
    }

    private static boolean isTls(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (closing) {
            return;
        }
        if (!zmtpStarted && isTls(cause)) {
            // Before (or instead of) SslHandler's handshake event: the same failure.
            tlsFailed(ctx, cause);
        } else if (cause instanceof WebSocketHandshakeException) {
            String message = String.valueOf(cause.getMessage());
            if (message.contains("subprotocol")) {
                // Netty's client: the server chose no subprotocol, or another: it speaks another mechanism.
                handshakeFailed(ctx, ZmtpHandshakeFailureReason.MECHANISM_MISMATCH,
                        "the WebSocket server took none of the subprotocols " + subprotocols + " (" + message + ")");
            } else {
                handshakeFailed(ctx, ZmtpHandshakeFailureReason.PROTOCOL_ERROR, "WebSocket upgrade: " + message);
            }
        } else if (cause instanceof DecoderException && zmtpStarted) {
            // The frame decoder (ours, or Netty's before it): a frame over the size limit, bad masking, a text
            // message, a fragment, a reserved opcode or bit.
            closing = true;
            logger.debug("closing ws connection to {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
            ctx.fireUserEventTriggered(new ZmtpProtocolErrorEvent(ctx.channel().remoteAddress(),
                    new ZmtpCodecException("WebSocket: " + cause.getMessage(), cause)));
            WebSocketCloseStatus status = cause instanceof CorruptedWebSocketFrameException
                    ? ((CorruptedWebSocketFrameException) cause).closeStatus() : WebSocketCloseStatus.PROTOCOL_ERROR;
            ctx.writeAndFlush(new CloseWebSocketFrame(status, reasonText(cause.getMessage())))
                    .addListener(ChannelFutureListener.CLOSE);
        } else if (cause instanceof DecoderException) {
            // A malformed upgrade request or response.
            handshakeFailed(ctx, ZmtpHandshakeFailureReason.PROTOCOL_ERROR, "HTTP: " + cause.getMessage());
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }

    /** A close frame's reason is at most 123 bytes. */
    private static String reasonText(String s) {
        return s == null ? "" : s.length() > 120 ? s.substring(0, 120) : s;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!zmtpStarted || !(msg instanceof ByteBuf)) {
            ctx.write(msg, promise);
            return;
        }
        frames.write(ctx, (ByteBuf) msg, promise);
    }

    private void cancelUpgradeTimer() {
        if (upgradeTimer != null) {
            upgradeTimer.cancel(false);
            upgradeTimer = null;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelUpgradeTimer();
        if (frames != null) {
            frames.release();
        }
    }
}
