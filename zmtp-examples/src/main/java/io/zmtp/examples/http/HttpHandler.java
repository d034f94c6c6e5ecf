package io.zmtp.examples.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpMessage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The routes: {@code GET /} answers the application's JSON at once; {@code POST /work} hands the body to the ZeroMQ
 * workers and answers with their reply when it comes, on this channel's event loop, which never waits for it;
 * {@code GET /app/} and its files are the web page ({@link StaticFiles}). (The page's WebSocket upgrades never get
 * here: the {@code ZmtpWebSocketHandler}s before this take them.)
 *
 * <p>HTTP/1.1 lets a client send requests before the earlier ones are answered (pipelining), and a worker's reply
 * can come after a later {@code GET /} is ready: responses wait in {@code pending}, in request order, and go out
 * as soon as all before them have. A connection with {@value #MAX_PENDING} requests unanswered is not read until one
 * is, so what one client can make the server hold is bounded. One instance per channel; every field is touched on
 * its event loop only.
 */
final class HttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    /** A request's place in the response order. */
    private static final class Pending {
        final HttpVersion version;
        final boolean keepAlive;
        FullHttpResponse response;

        Pending(HttpVersion version, boolean keepAlive) {
            this.version = version;
            this.keepAlive = keepAlive;
        }
    }

    /** Requests a connection may have unanswered before the server stops reading it. */
    static final int MAX_PENDING = 16;

    private final byte[] appInfo;
    private final WorkClient work;
    private final StaticFiles files;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();

    HttpHandler(byte[] appInfo, WorkClient work, StaticFiles files) {
        this.appInfo = appInfo;
        this.work = work;
        this.files = files;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        Pending p = new Pending(request.protocolVersion(), HttpUtil.isKeepAlive(request));
        pending.add(p);
        if (pending.size() == MAX_PENDING) {
            ctx.channel().config().setAutoRead(false);
        }
        String path = path(request.uri());
        if (path.equals("/")) {
            if (request.method().equals(HttpMethod.GET) || request.method().equals(HttpMethod.HEAD)) {
                respond(ctx, p, json(p, HttpResponseStatus.OK, Unpooled.wrappedBuffer(appInfo)), false);
            } else {
                respond(ctx, p, error(p, HttpResponseStatus.METHOD_NOT_ALLOWED), false);
            }
        } else if (path.equals("/work")) {
            if (request.method().equals(HttpMethod.POST)) {
                work.call(request.content().retain()).whenComplete((reply, e) -> answer(ctx, p, reply, e));
            } else {
                respond(ctx, p, error(p, HttpResponseStatus.METHOD_NOT_ALLOWED), false);
            }
        } else if (files.get(path) != null || path.equals("/app")) {
            respond(ctx, p, file(p, request, path), false);
        } else {
            respond(ctx, p, error(p, HttpResponseStatus.NOT_FOUND), false);
        }
    }

    /** A file of the web page ({@code /app} itself redirects to {@code /app/}, so relative links resolve). */
    private FullHttpResponse file(Pending p, FullHttpRequest request, String path) {
        if (!request.method().equals(HttpMethod.GET) && !request.method().equals(HttpMethod.HEAD)) {
            return error(p, HttpResponseStatus.METHOD_NOT_ALLOWED);
        }
        if (path.equals("/app")) {
            FullHttpResponse r = error(p, HttpResponseStatus.MOVED_PERMANENTLY);
            r.headers().set(HttpHeaderNames.LOCATION, StaticFiles.PREFIX);
            return r;
        }
        StaticFiles.File f = files.get(path);
        FullHttpResponse r = json(p, HttpResponseStatus.OK, Unpooled.wrappedBuffer(f.bytes()));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, f.contentType());
        return r;
    }

    /** A worker's reply, or why there is none; called on whichever thread completed the call. */
    private void answer(ChannelHandlerContext ctx, Pending p, ZmtpMessage reply, Throwable failure) {
        try {
            ctx.executor().execute(() -> {
                FullHttpResponse response;
                if (reply != null) {
                    response = json(p, HttpResponseStatus.OK, reply.frame(1).retain());
                    reply.release();
                } else {
                    response = error(p, failure instanceof TimeoutException
                            ? HttpResponseStatus.GATEWAY_TIMEOUT : HttpResponseStatus.SERVICE_UNAVAILABLE);
                }
                respond(ctx, p, response, true);
            });
        } catch (RejectedExecutionException e) {
            // The event loop has stopped: nobody to answer.
            ReferenceCountUtil.release(reply);
        }
    }

    /** Fills {@code p}'s place and writes every response that is now first in line. */
    private void respond(ChannelHandlerContext ctx, Pending p, FullHttpResponse response, boolean flush) {
        if (!ctx.channel().isActive()) {
            response.release();
            return;
        }
        p.response = response;
        Pending first;
        while ((first = pending.peek()) != null && first.response != null) {
            pending.poll();
            if (first.keepAlive) {
                ctx.write(first.response, ctx.voidPromise());
            } else {
                ctx.writeAndFlush(first.response).addListener(ChannelFutureListener.CLOSE);
            }
        }
        if (flush) {
            ctx.flush();
        }
        if (pending.size() < MAX_PENDING && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // Responses ready during this read go out in one flush, as Netty's hello-world server does it.
        ctx.flush();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        for (Pending p : pending) {
            ReferenceCountUtil.release(p.response);
        }
        pending.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private static String path(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    private static FullHttpResponse json(Pending p, HttpResponseStatus status, ByteBuf body) {
        FullHttpResponse response = new DefaultFullHttpResponse(p.version, status, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        HttpUtil.setKeepAlive(response, p.keepAlive);
        return response;
    }

    private static FullHttpResponse error(Pending p, HttpResponseStatus status) {
        return json(p, status, Unpooled.copiedBuffer("{\"error\":\"" + status.reasonPhrase() + "\"}",
                StandardCharsets.UTF_8));
    }
}
