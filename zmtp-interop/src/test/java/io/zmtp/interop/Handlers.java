package io.zmtp.interop;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** The test applications that sit after the codec. */
final class Handlers {
    private Handlers() {}

    /**
     * Sends messages {@code 0..count-1} and checks that each comes back, in order, byte for byte (the peer echoes).
     * At most {@code window} messages are in flight, which bounds memory and keeps a libzmq ROUTER from dropping
     * echoes at its high-water mark.
     */
    static final class EchoChecker extends PeerHandler {
        private final Payloads payloads;
        private final int count;
        private final int window;
        private int sent;
        private volatile int received;

        EchoChecker(Payloads payloads, int count, int window) {
            this.payloads = payloads;
            this.count = count;
            this.window = window;
        }

        @Override
        protected void onHandshake(ChannelHandlerContext ctx, ZmtpHandshakeSuccessEvent success) {
            sendMore(ctx);
        }

        @Override
        protected void onMessage(ChannelHandlerContext ctx, ZmtpMessage message) {
            payloads.check(received, message, 0);
            received++;
            if (received == count) {
                done.complete(null);
            } else {
                sendMore(ctx);
            }
        }

        private void sendMore(ChannelHandlerContext ctx) {
            boolean wrote = false;
            while (sent < count && sent - received < window) {
                ctx.write(payloads.message(sent++)).addListener(PeerHandler.failOnError(this, ctx));
                wrote = true;
            }
            if (wrote) {
                ctx.flush();
            }
        }

        @Override
        protected String progress() {
            return sent + " sent, " + received + " echoes checked of " + count;
        }
    }

    /**
     * A PUB-typed peer: waits for the subscriber's subscription to {@link Payloads#TOPIC} (a SUBSCRIBE command, or
     * the {@code 0x01 topic} message of ZMTP 3.0), then publishes {@code TOPIC + message i} for {@code i < count} as
     * fast as the channel stays writable. Sends nothing before the subscription.
     */
    static final class Publisher extends PeerHandler {
        private final Payloads payloads;
        private final int count;
        final List<String> subscriptions = new CopyOnWriteArrayList<>();
        /** How each subscription came: "command" (ZMTP 3.1 SUBSCRIBE) or "message" (ZMTP 3.0 {@code 0x01 topic}). */
        final List<String> subscriptionForms = new CopyOnWriteArrayList<>();
        private boolean subscribed;
        private int sent;

        Publisher(Payloads payloads, int count) {
            this.payloads = payloads;
            this.count = count;
        }

        @Override
        protected void onCommand(ChannelHandlerContext ctx, ZmtpCommand command) {
            if (command.is(ZmtpCommand.SUBSCRIBE)) {
                subscriptionForms.add("command");
                subscribe(ctx, ByteBufUtil.getBytes(command.content()));
            } else if (!command.is(ZmtpCommand.CANCEL)) {
                super.onCommand(ctx, command);
            }
        }

        @Override
        protected void onMessage(ChannelHandlerContext ctx, ZmtpMessage message) {
            // libzmq publishers accept the 3.0 form on any version; so do we.
            byte[] body = message.frameBytes(0);
            if (message.size() != 1 || body.length == 0 || body[0] != 1) {
                super.onMessage(ctx, message);
            }
            subscriptionForms.add("message");
            subscribe(ctx, Arrays.copyOfRange(body, 1, body.length));
        }

        private void subscribe(ChannelHandlerContext ctx, byte[] topic) {
            subscriptions.add(new String(topic, java.nio.charset.StandardCharsets.ISO_8859_1));
            if (!Arrays.equals(topic, Payloads.TOPIC)) {
                throw new AssertionError("subscription to " + subscriptions + " (expected: data)");
            }
            if (!subscribed) {
                subscribed = true;
                onWritable(ctx);
            }
        }

        @Override
        protected void onWritable(ChannelHandlerContext ctx) {
            if (!subscribed) {
                return;
            }
            boolean wrote = false;
            while (sent < count && ctx.channel().isWritable()) {
                ctx.write(payloads.message(Payloads.TOPIC, sent++)).addListener(PeerHandler.failOnError(this, ctx));
                wrote = true;
            }
            if (wrote) {
                ctx.flush();
            }
            if (sent == count) {
                done.complete(null);
            }
        }

        @Override
        protected String progress() {
            return "subscriptions " + subscriptions + ", " + sent + " of " + count + " published";
        }
    }

    /**
     * A SUB-typed peer: subscribes to {@link Payloads#TOPIC} with a SUBSCRIBE command as soon as the handshake is
     * done, completes {@link #warm} on the first warm-up message (proof that the publisher's filter has the
     * subscription), then checks {@code TOPIC + message i} for {@code i < count}. Any other topic fails the test.
     */
    static final class Subscriber extends PeerHandler {
        final CompletableFuture<Void> warm = new CompletableFuture<>();
        private final Payloads payloads;
        private final int count;
        private volatile int received;
        private int warmups;

        Subscriber(Payloads payloads, int count) {
            this.payloads = payloads;
            this.count = count;
        }

        @Override
        protected void onHandshake(ChannelHandlerContext ctx, ZmtpHandshakeSuccessEvent success) {
            ctx.writeAndFlush(ZmtpCommand.subscribe(Unpooled.wrappedBuffer(Payloads.TOPIC)))
                    .addListener(PeerHandler.failOnError(this, ctx));
        }

        @Override
        protected void onMessage(ChannelHandlerContext ctx, ZmtpMessage message) {
            byte[] topic = message.frameBytes(0);
            if (Arrays.equals(topic, Payloads.WARMUP_TOPIC)) {
                if (received > 0) {
                    throw new AssertionError("warm-up message after message " + received);
                }
                warmups++;
                warm.complete(null);
                return;
            }
            if (!Arrays.equals(topic, Payloads.TOPIC)) {
                throw new AssertionError("message " + received + " has topic " + message + " (subscribed: data)");
            }
            payloads.check(received, message, 1);
            received++;
            if (received == count) {
                done.complete(null);
            }
        }

        @Override
        protected String progress() {
            return warmups + " warm-ups, " + received + " of " + count + " messages checked";
        }
    }

    /**
     * Echoes every message back as received; what a libzmq peer with heartbeats talks to. Optionally installs a
     * {@link HeartbeatSniffer} when the handshake is done.
     */
    static final class Echo extends PeerHandler {
        private final boolean sniff;
        volatile HeartbeatSniffer sniffer;

        Echo(boolean sniff) {
            this.sniff = sniff;
        }

        @Override
        protected void onHandshake(ChannelHandlerContext ctx, ZmtpHandshakeSuccessEvent success) {
            if (sniff) {
                sniffer = HeartbeatSniffer.install(ctx);
            }
        }

        @Override
        protected void onMessage(ChannelHandlerContext ctx, ZmtpMessage message) {
            ctx.writeAndFlush(message.retain()).addListener(PeerHandler.failOnError(this, ctx));
        }
    }

    /** Reads nothing but the handshake events (a message or command would fail it); may sniff heartbeats. */
    static final class Passive extends PeerHandler {
        private final boolean sniff;
        volatile HeartbeatSniffer sniffer;

        Passive() {
            this(false);
        }

        Passive(boolean sniff) {
            this.sniff = sniff;
        }

        @Override
        protected void onHandshake(ChannelHandlerContext ctx, ZmtpHandshakeSuccessEvent success) {
            if (sniff) {
                sniffer = HeartbeatSniffer.install(ctx);
            }
        }
    }

    /**
     * Sits between the codec's frame decoder and its heartbeat handler (added on handshake success) and counts the
     * PINGs and PONGs going each way, which otherwise never leave the codec. Records the TTLs of received PINGs.
     */
    static final class HeartbeatSniffer extends ChannelDuplexHandler {
        static final String NAME = "heartbeat-sniffer";
        final AtomicInteger pingsIn = new AtomicInteger();
        final AtomicInteger pongsIn = new AtomicInteger();
        final AtomicInteger pingsOut = new AtomicInteger();
        final AtomicInteger pongsOut = new AtomicInteger();
        final List<Integer> pingTtls = new CopyOnWriteArrayList<>();

        /** Installs the sniffer in the pipeline of a connection whose handshake just succeeded. */
        static HeartbeatSniffer install(ChannelHandlerContext ctx) {
            HeartbeatSniffer sniffer = new HeartbeatSniffer();
            ctx.pipeline().addAfter(ZmtpHandshakeHandler.DECODER_NAME, NAME, sniffer);
            return sniffer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ZmtpCommand) {
                ZmtpCommand command = (ZmtpCommand) msg;
                if (command.is(ZmtpCommand.PING)) {
                    pingsIn.incrementAndGet();
                    ByteBuf body = command.content();
                    pingTtls.add(body.readableBytes() >= 2 ? body.getUnsignedShort(body.readerIndex()) : -1);
                } else if (command.is(ZmtpCommand.PONG)) {
                    pongsIn.incrementAndGet();
                }
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ZmtpCommand) {
                ZmtpCommand command = (ZmtpCommand) msg;
                if (command.is(ZmtpCommand.PING)) {
                    pingsOut.incrementAndGet();
                } else if (command.is(ZmtpCommand.PONG)) {
                    pongsOut.incrementAndGet();
                }
            }
            ctx.write(msg, promise);
        }

        @Override
        public String toString() {
            return "PINGs in " + pingsIn + " (TTLs " + pingTtls.stream().distinct().toList() + "), PONGs out "
                    + pongsOut + ", PINGs out " + pingsOut + ", PONGs in " + pongsIn;
        }
    }
}
