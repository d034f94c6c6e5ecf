package org.zeromq;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A proxy run by an actor and steered from the caller, as JeroMQ 0.6.0's {@code ZProxy}: a {@link Proxy} makes and
 * configures the frontend, backend and (optional) capture sockets; a {@link Pump} moves each message from one to the
 * other (and a copy to the capture socket); commands start, pause, stop, restart, configure and end it.
 *
 * <h2>States and the status protocol</h2>
 * ALIVE once made, STARTED once its sockets are configured (bound or connected) and pumped, PAUSED (sockets kept,
 * nothing pumped), STOPPED (sockets closed and made again, not configured), EXITED. The actor answers each command
 * with the state it is in, and this class keeps one answer waiting on the pipe between two calls, as JeroMQ does: a
 * call without {@code sync} returns the state before the command, a call with {@code sync} the state after it.
 *
 * <p>Different from JeroMQ: a cold {@link #restart(ZMsg)} makes the sockets again and, if the proxy was started,
 * configures them and resumes pumping (JeroMQ's left the new sockets unconfigured); a hot restart whose
 * {@link Proxy#restart} calls all return false stays in place for good (JeroMQ's turned into a cold restart at the
 * next message); the default pump ({@link #newProxy}) moves netty-zmtp's messages whole, without copying them;
 * both pumps hand the capture socket its copy without waiting, so a capture socket that can't take it (a PUSH with
 * no peer, a full queue) drops the copy instead of stalling the proxy (JeroMQ's and libzmq's wait).
 */
public class ZProxy {
    /** Where a socket sits in the proxy. */
    public enum Plug {
        /** The frontend socket. */
        FRONT,
        /** The backend socket. */
        BACK,
        /** The capture socket, which gets a copy of each message (optional). */
        CAPTURE
    }

    /** Makes and configures the proxy's sockets, on the proxy's thread. */
    public interface Proxy {
        /** The socket for {@code place} in {@code ctx} (null for no capture socket); FRONT and BACK are needed. */
        ZMQ.Socket create(ZContext ctx, Plug place, Object... args);

        /** Configures {@code socket} (binds or connects it) when the proxy starts; {@code socket} is null for no capture. */
        boolean configure(ZMQ.Socket socket, Plug place, Object... args) throws IOException;

        /**
         * A hot restart with {@code cfg} for the socket at {@code place}.
         *
         * @return true if the socket must be made again (a cold restart), false if it was reconfigured in place
         */
        boolean restart(ZMsg cfg, ZMQ.Socket socket, Plug place, Object... args) throws IOException;

        /**
         * A {@link ZProxy#configure(ZMsg)} command: must send exactly one reply message on {@code pipe}.
         *
         * @return false to end the proxy
         */
        boolean configure(ZMQ.Socket pipe, ZMsg cfg, ZMQ.Socket frontend, ZMQ.Socket backend, ZMQ.Socket capture,
                Object... args);

        /**
         * A command this class doesn't know, sent with {@link ZProxy#command(String, boolean)}: must send one status
         * on {@code pipe}.
         *
         * @return false to end the proxy
         */
        boolean custom(ZMQ.Socket pipe, String cmd, ZMQ.Socket frontend, ZMQ.Socket backend, ZMQ.Socket capture,
                Object... args);

        /** A proxy with no hot restart (sockets reconfigured in place), nothing to configure and no custom command. */
        abstract class SimpleProxy implements Proxy {
            @Override
            public boolean restart(ZMsg cfg, ZMQ.Socket socket, Plug place, Object... args) {
                return true;
            }

            @Override
            public boolean configure(ZMQ.Socket pipe, ZMsg cfg, ZMQ.Socket frontend, ZMQ.Socket backend,
                    ZMQ.Socket capture, Object... args) {
                return true;
            }

            @Override
            public boolean custom(ZMQ.Socket pipe, String cmd, ZMQ.Socket frontend, ZMQ.Socket backend,
                    ZMQ.Socket capture, Object... args) {
                return true;
            }
        }
    }

    /** Moves one message from {@code source} to {@code destination}, a copy to {@code capture} if not null. */
    public interface Pump {
        /** @return false to end the proxy */
        boolean flow(Plug src, ZMQ.Socket source, ZMQ.Socket capture, Plug dst, ZMQ.Socket destination);
    }

    /** The commands of the proxy's pipe. */
    public enum Command {
        START,
        PAUSE,
        STOP,
        RESTART,
        EXIT,
        STATUS,
        CONFIG
    }

    /** The proxy's states. */
    public enum State {
        ALIVE,
        STARTED,
        PAUSED,
        STOPPED,
        EXITED
    }

    public static final String STARTED = State.STARTED.name();
    public static final String PAUSED = State.PAUSED.name();
    public static final String STOPPED = State.STOPPED.name();
    public static final String EXITED = State.EXITED.name();
    public static final String ALIVE = State.ALIVE.name();

    static final String START = Command.START.name();
    static final String PAUSE = Command.PAUSE.name();
    static final String STOP = Command.STOP.name();
    static final String RESTART = Command.RESTART.name();
    static final String EXIT = Command.EXIT.name();
    static final String STATUS = Command.STATUS.name();
    static final String CONFIG = Command.CONFIG.name();

    private static final AtomicInteger PROXIES = new AtomicInteger();

    private final ZAgent agent;
    private final ZStar.Exit exit;

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public static ZProxy newZProxy(ZContext ctx, String name, ZAgent.SelectorCreator selector, Proxy sockets,
            String motdelafin, Object... args) {
        return newZProxy(ctx, name, sockets, motdelafin, args);
    }

    /** A proxy pumping with {@link ZPump} (messages as {@link ZMsg}, copied). */
    public static ZProxy newZProxy(ZContext ctx, String name, Proxy sockets, String motdelafin, Object... args) {
        return new ZProxy(ctx, name, sockets, new ZPump(), motdelafin, args);
    }

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public static ZProxy newProxy(ZContext ctx, String name, ZAgent.SelectorCreator selector, Proxy sockets,
            String motdelafin, Object... args) {
        return newProxy(ctx, name, sockets, motdelafin, args);
    }

    /** A proxy pumping messages whole, without copying them. */
    public static ZProxy newProxy(ZContext ctx, String name, Proxy sockets, String motdelafin, Object... args) {
        return new ZProxy(ctx, name, sockets, new WholePump(), motdelafin, args);
    }

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public ZProxy(ZAgent.SelectorCreator selector, Proxy creator, String motdelafin, Object... args) {
        this(creator, motdelafin, args);
    }

    /** A proxy with a context of its own and the default pump. */
    public ZProxy(Proxy creator, String motdelafin, Object... args) {
        this(null, creator, null, motdelafin, args);
    }

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public ZProxy(String name, ZAgent.SelectorCreator selector, Proxy creator, String motdelafin, Object... args) {
        this(name, creator, motdelafin, args);
    }

    /** A named proxy with a context of its own and the default pump. */
    public ZProxy(String name, Proxy creator, String motdelafin, Object... args) {
        this(name, creator, null, motdelafin, args);
    }

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public ZProxy(ZContext ctx, String name, ZAgent.SelectorCreator selector, Proxy sockets, Pump pump,
            String motdelafin, Object... args) {
        this(ctx, name, sockets, pump, motdelafin, args);
    }

    /** A named proxy with a context of its own. */
    public ZProxy(String name, Proxy sockets, Pump pump, String motdelafin, Object... args) {
        this(null, name, sockets, pump, motdelafin, args);
    }

    /**
     * Makes the proxy's actor; its sockets are made at once, configured at {@link #start(boolean)}.
     *
     * @param ctx        the context whose shadow the proxy runs in (null: one of its own)
     * @param name       the actor thread's name (null: "ZProxy-N")
     * @param sockets    makes and configures the sockets
     * @param pump       moves the messages (null: the default)
     * @param motdelafin the lock word sent when the proxy exits
     * @param args       arguments for {@code sockets}; a {@link ZActor.Actor} among them shadows the proxy's actor
     */
    public ZProxy(ZContext ctx, String name, Proxy sockets, Pump pump, String motdelafin, Object... args) {
        Objects.requireNonNull(sockets, "sockets");
        ZActor.Actor shadow = null;
        for (Object arg : args) {
            if (arg instanceof ZActor.Actor) {
                shadow = (ZActor.Actor) arg;
            }
        }
        String actorName = name == null ? "ZProxy-" + PROXIES.incrementAndGet() : name;
        ZActor.Actor actor = new ProxyActor(actorName, sockets, pump == null ? new WholePump() : pump);
        if (shadow != null) {
            actor = new ZActor.Duo(actor, shadow);
        }
        ZActor zactor = new ZActor(ctx, actor, motdelafin, args);
        agent = zactor.agent();
        exit = zactor.exit();
    }

    /** Configures the sockets (the first time) and pumps; the state before ({@code sync}: after). */
    public String start(boolean sync) {
        return command(START, sync);
    }

    /** Stops pumping, sockets kept; the state before ({@code sync}: after). */
    public String pause(boolean sync) {
        return command(PAUSE, sync);
    }

    /** Closes the sockets and makes them again, not configured; the state before ({@code sync}: after). */
    public String stop(boolean sync) {
        return command(STOP, sync);
    }

    /**
     * Sends {@code command} (START, PAUSE, STOP, STATUS, EXIT or one for {@link Proxy#custom}).
     *
     * @throws IllegalArgumentException for CONFIG and RESTART, which have their own methods
     */
    public String command(String command, boolean sync) {
        if (CONFIG.equals(command)) {
            throw new IllegalArgumentException("CONFIG is not useable with that API. Please use configure(ZMsg)");
        }
        if (RESTART.equals(command)) {
            throw new IllegalArgumentException("RESTART is not useable with that API. Please use restart(ZMsg)");
        }
        if (STATUS.equals(command)) {
            return status(sync);
        }
        if (EXIT.equals(command)) {
            return exit();
        }
        String status = recvStatus();
        if (agent.send(command) && sync) {
            status = status(true);
        }
        return status;
    }

    /** As {@link #command(String, boolean)}, with the state as an enum. */
    public State command(Command command, boolean sync) {
        return State.valueOf(command(command.name(), sync));
    }

    /** CONFIG ({@link #configure(ZMsg)}) and RESTART ({@link #restart(ZMsg)}); null for the other commands. */
    public ZMsg command(Command command, ZMsg msg, boolean sync) {
        if (command == Command.CONFIG) {
            return configure(msg);
        }
        if (command == Command.RESTART) {
            ZMsg status = new ZMsg();
            status.add(restart(msg));
            return status;
        }
        return null;
    }

    /** Hands {@code msg} to {@link Proxy#configure(ZMQ.Socket, ZMsg, ZMQ.Socket, ZMQ.Socket, ZMQ.Socket, Object...)}; its reply. */
    public ZMsg configure(ZMsg msg) {
        msg.addFirst(CONFIG);
        if (!agent.send(msg)) {
            return null;
        }
        recvStatus();
        ZMsg reply = agent.recv();
        agent.send(STATUS);
        return reply;
    }

    /**
     * Restarts the proxy: hot with {@code hot}'s configuration ({@link Proxy#restart} for each socket), cold (sockets
     * made again) when {@code hot} is null or a socket asks for it. Returns the state before.
     */
    public String restart(ZMsg hot) {
        ZMsg msg = new ZMsg();
        msg.add(RESTART);
        msg.add(Boolean.toString(hot != null));
        if (hot != null) {
            msg.append(hot);
        }
        return agent.send(msg) ? status(false) : EXITED;
    }

    /**
     * @deprecated as in JeroMQ 0.6.0: {@link #exit()}
     */
    @Deprecated
    public String exit(boolean sync) {
        return exit();
    }

    /** Ends the proxy and waits for its thread; EXITED. */
    public String exit() {
        agent.send(EXIT);
        exit.awaitSilent();
        agent.close();
        return EXITED;
    }

    /** The proxy's state, waiting for the answer. */
    public String status() {
        return status(true);
    }

    /**
     * The proxy's state: the answer waiting on the pipe, or ({@code sync}) a fresh one. EXITED once the proxy ended
     * or its context is closed; an interrupted wait throws {@link ZMQException} with EINTR (JeroMQ answered EXITED).
     */
    public String status(boolean sync) {
        if (exit.isExited()) {
            return EXITED;
        }
        try {
            String status = recvStatus();
            if (agent.send(STATUS) && sync) {
                status = recvStatus();
                if (EXITED.equals(status) || !agent.send(STATUS)) {
                    return EXITED;
                }
            }
            return status;
        } catch (ZMQException e) {
            if (e.getErrorCode() == ErrorCodes.EINTR) {
                throw e;
            }
            return EXITED;
        }
    }

    private String recvStatus() {
        if (!agent.sign()) {
            return EXITED;
        }
        ZMsg msg = agent.recv();
        if (msg == null) {
            return EXITED;
        }
        String status = msg.popString();
        msg.destroy();
        return status;
    }

    /** Whether the proxy is started (and not paused). */
    public boolean isStarted() {
        return started();
    }

    /** Whether the proxy is started (and not paused). */
    public boolean started() {
        return STARTED.equals(status(true));
    }

    /** A pump of {@link ZMsg}s, each handed to a {@link Transformer} on its way to the destination and capture. */
    public static class ZPump implements Pump {
        /** Changes a message on its way from {@code src} to {@code dst}. */
        public interface Transformer {
            /** The message to send; {@code msg} itself or a new one. */
            ZMsg transform(ZMsg msg, Plug src, Plug dst);
        }

        private final Transformer transformer;

        /** A pump that changes nothing. */
        public ZPump() {
            this(null);
        }

        /** A pump through {@code transformer} (null: none). */
        public ZPump(Transformer transformer) {
            this.transformer = transformer == null ? (msg, src, dst) -> msg : transformer;
        }

        @Override
        public boolean flow(Plug splug, ZMQ.Socket source, ZMQ.Socket capture, Plug dplug, ZMQ.Socket destination) {
            ZMsg msg = ZMsg.recvMsg(source);
            if (msg == null) {
                return false;
            }
            if (capture != null) {
                ZMsg copy = transformer.transform(msg, splug, Plug.CAPTURE);
                capture.sendMessage(wrap(copy), ZMQ.DONTWAIT);
                if (copy != msg) {
                    copy.destroy();
                }
            }
            ZMsg out = transformer.transform(msg, splug, dplug);
            boolean sent = out.send(destination, out != msg);
            msg.destroy();
            return sent;
        }

        /** The frames of {@code msg} as one message (their bytes wrapped, not copied). */
        private static ZmtpMessage wrap(ZMsg msg) {
            ZmtpMessage m = ZmtpMessage.create();
            for (ZFrame f : msg) {
                m.add(f.hasData() ? Unpooled.wrappedBuffer(f.getData()) : Unpooled.EMPTY_BUFFER);
            }
            return m;
        }
    }

    /** The default pump: netty-zmtp's message handed on whole; the capture socket gets the same buffers, retained. */
    private static final class WholePump implements Pump {
        @Override
        public boolean flow(Plug splug, ZMQ.Socket source, ZMQ.Socket capture, Plug dplug, ZMQ.Socket destination) {
            ZmtpMessage msg = source.receiveWhole(0);
            if (msg == null) {
                return false;
            }
            if (capture != null) {
                ZmtpMessage copy = ZmtpMessage.create();
                for (int i = 0; i < msg.size(); i++) {
                    copy.add(msg.frame(i).retainedDuplicate());
                }
                capture.sendMessage(copy, ZMQ.DONTWAIT);
            }
            return destination.sendMessage(msg, 0);
        }
    }
}
